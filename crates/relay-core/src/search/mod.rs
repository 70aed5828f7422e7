//! Relevant pull (§8.2), relevance only: parse the query, find candidate lines with
//! grep-searcher, parse only those, and rank them with BM25 over the package's text fields.
//! The package index whose postings a query reads is the store's (`relay_store::index`).
//! Semantic search embeds text with [`model::Model`] and compares it with the store's vector
//! index (`relay_store::index`); hybrid search merges both lists ([`fuse`]). A query may
//! be embedded by the transformer the model ships for it (`query_encoder`); with an ONNX
//! transformer (`onnx_encoder`), documents are too, in passages ([`passages`]).

pub mod choice;
pub mod filter;
pub mod fuse;
#[cfg(feature = "semantic")]
pub mod model;
#[cfg(not(feature = "semantic"))]
#[path = "model_unavailable.rs"]
pub mod model;
#[cfg(feature = "semantic")]
pub mod onnx_encoder;
pub mod passages;
pub mod phrase_filter;
pub mod query;
#[cfg(feature = "semantic")]
pub mod query_encoder;
pub mod rank;
pub mod relevant;
pub mod scan;
pub mod semantic;
pub mod snapshot;
pub mod vector_build;

pub use query::{Query, parse};
