//! The service every door calls through: who the caller is ([`Caller`]) and what each
//! operation needs of it ([`rules`]). A door (CLI, MCP over stdio or HTTP, the HTTP API)
//! makes its caller once and asks here, before it reads the request's members, whether the
//! caller may run the operation and touch the project or record it names; no door decides
//! that itself, so a token gets one answer from every door.

mod caller;
mod memory;
mod reads;
pub mod rules;
pub mod scope;
mod store_wide;
mod writes;

pub use caller::Caller;
pub use reads::{Briefing, Listing, Pulled, Ranking, Relay};
pub use rules::{Access, Rule};
