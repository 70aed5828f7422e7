//! relay: an offline, flat-file implementation of the Agentic Protocol v0.1.
//!
//! Layers, each depending only on those below it: [`wire`] (protocol types, validation,
//! canonical JSON; pure) → [`store`] (the `.relay/` folder: layout, locks, logs; never prints)
//! → [`ops`] (the protocol operations) → [`cli`] (arguments, rendering, exit codes). Beside
//! them, [`suite`] is a client of any server's HTTP mapping (the conformance test suite): it
//! uses [`wire`] alone.

pub mod error;
pub mod wire;

pub use error::{Code, Error, ErrorKind, Result};
pub mod cli;
pub mod http;
pub mod ops;
pub mod search;
pub mod store;
pub mod suite;
