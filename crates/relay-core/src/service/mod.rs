//! The service every door calls through: who the caller is ([`Caller`]), what each
//! operation needs of it ([`rules`]), and one entry point per operation ([`Relay`]: the
//! reads, the writes, the projects and the store, the Agent Memory Protocol). A door (CLI,
//! MCP over stdio or HTTP, the HTTP API, the console) decodes its input into the operation's
//! request and calls [`Relay`] with its caller; the service authorizes, validates, parses the
//! times and runs the operation, so a request gets one answer from every door. MCP and HTTP
//! also ask [`Caller`] before they read a request's members, to refuse a token early.

mod caller;
mod memory;
mod reads;
pub mod rules;
pub mod scope;
mod store_wide;
mod writes;

pub use caller::Caller;
pub use reads::{Briefing, History, Listing, Pulled, Ranking, Relay};
pub use rules::{Access, Rule};
