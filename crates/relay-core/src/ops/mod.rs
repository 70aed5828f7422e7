//! The protocol's operations (§8) over a [`Store`](relay_store::Store): each takes typed
//! inputs and returns typed results or an [`Error`](relay_wire::Error) named after the spec's codes.

pub mod agent_session;
pub mod amp;
pub mod attribution;
pub mod auto;
pub mod briefing;
#[cfg(test)]
mod briefing_props;
pub mod budget;
pub mod callsign;
mod callsign_words;
pub mod conformance;
pub mod deposit;
pub mod export;
pub mod fact_history;
pub mod fact_lines;
pub mod facts;
pub mod filter;
pub mod git;
pub mod git_state;
pub mod hooks;
pub mod identity;
pub mod import;
pub mod init;
pub mod keys;
pub mod memory;
pub mod memory_reads;
pub mod months;
pub mod octopus;
pub mod orchestrate;
pub mod orient;
pub mod orient_fit;
pub mod projects;
pub mod pull;
pub mod purge;
pub mod queue;
pub mod relevant;
pub mod resolve;
pub mod retract;
pub mod review;
pub mod secrets;
pub mod semantic;
pub mod sessions;
pub mod signatures;
pub mod snapshot;
pub mod snapshot_search;
pub mod snippet_source;
pub mod sources;
pub mod stale;
pub mod status;
pub mod tokens;
pub mod transcript;
pub mod verify;
pub mod watch;
pub mod work_tree;

pub use identity::Actor;
