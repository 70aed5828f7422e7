//! relay: an offline, flat-file implementation of the Agentic Protocol v0.1.
//!
//! The layers are crates, each depending only on those below it: `relay-wire` (protocol
//! types, validation, canonical JSON, the error codes; pure) → `relay-store` (the `.relay/`
//! folder: layout, locks, logs, indexes; never prints) → `relay-core` (the operations and
//! search) → the transports: `relay-mcp` (the MCP server's tools, behind `relay mcp` on stdio
//! and `relay serve` on Streamable HTTP), `relay-server` (HTTP, MCP over HTTP and the web
//! console) and this crate's [`cli`] (arguments, rendering, exit codes). Beside them,
//! `relay-conformance` is a client of any server's HTTP mapping: it uses `relay-wire` alone.
//! The libraries are re-exported under their short names for the tests, benches and examples.

#[cfg(feature = "conformance")]
pub use relay_conformance as suite;
pub use relay_core::{ops, search};
pub use relay_mcp as mcp;
#[cfg(feature = "server")]
pub use relay_server as http;
pub use relay_store as store;
pub use relay_wire as wire;
pub use relay_wire::error;
pub use relay_wire::{Code, Error, ErrorKind, Result};

pub mod cli;
