//! relay's core: the protocol's operations ([`ops`]) over a store, and relevance ([`search`]):
//! keyword ranking, the embedding model and the fusion of both. It never prints and never
//! reads a transport's arguments; the CLI, MCP and HTTP call it with typed inputs.

pub mod ops;
pub mod request;
pub mod resolve;
pub mod search;
pub mod service;
