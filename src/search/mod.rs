//! Relevant pull (§8.2), relevance only: parse the query, find candidate lines with
//! grep-searcher, parse only those, and rank them with BM25 over the package's text fields.
//! The package index whose postings a query reads is the store's (`store::cache::packages`).

pub mod query;
pub mod rank;
pub mod scan;

pub use query::{Query, parse};
