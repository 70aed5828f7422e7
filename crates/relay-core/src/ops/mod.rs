//! The protocol's operations (§8) over a [`Store`](relay_store::Store), grouped by domain: each
//! takes typed inputs and returns typed results or an [`Error`](relay_wire::Error) named after
//! the spec's codes. Relevance (relevant pull, semantic search, listing filters) is [`crate::search`].

pub mod agents;
pub mod attribution;
pub mod briefing;
pub mod conformance;
pub mod doctor;
pub mod export;
pub mod facts;
pub mod git;
pub mod import;
pub mod memory;
pub mod packages;
pub mod projects;
pub mod sessions;
pub mod short_ids;
pub mod trust;
pub mod upkeep;
pub mod verify;
pub mod watch;

pub use trust::identity::Actor;
