//! relay: an offline, flat-file implementation of the Agentic Protocol v0.1.
pub mod wire;
