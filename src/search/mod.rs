//! Relevant pull (§8.2): find candidate lines with grep-searcher, parse only those, and rank
//! them with BM25 over the package's text fields.

pub mod index;
pub mod lite;
pub mod query;
pub mod rank;
pub mod scan;

pub use query::{Query, parse};
