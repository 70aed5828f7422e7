//! The search mode a request asks for, by name (keyword, semantic, hybrid), and its check:
//! one spelling on every door. Which mode a search then runs in, against the model there is,
//! is [`crate::search::choice`].

use std::path::PathBuf;

use relay_wire::error::{Error, Result};

/// How a search finds its packages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// BM25 over the words of the query (inflections match).
    Keyword,
    /// Cosine similarity of the query's embedding with each package's.
    Semantic,
    /// Both lists, fused by a weighted sum of their scores.
    Hybrid,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Keyword, Mode::Semantic, Mode::Hybrid];
    /// The modes' names, in the order of [`Mode::ALL`]: what every door accepts.
    pub const NAMES: [&'static str; 3] = ["keyword", "semantic", "hybrid"];

    pub fn as_str(self) -> &'static str {
        Mode::NAMES[self as usize]
    }

    pub fn parse(text: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.as_str() == text)
    }

    /// Whether the mode needs an embedding model.
    pub fn needs_model(self) -> bool {
        self != Mode::Keyword
    }
}

/// The schema of a search mode asked for by name: one of [`Mode::NAMES`].
pub fn mode_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    super::one_of(&Mode::NAMES)
}

/// The mode asked for (`search`, `--mode`), checked: `None` when none was asked for.
pub fn parse_mode(asked: Option<&str>) -> Result<Option<Mode>> {
    asked
        .map(|m| {
            Mode::parse(m).ok_or_else(|| {
                Error::InvalidInput(format!(
                    "search `{m}` is not one of keyword, semantic, hybrid"
                ))
            })
        })
        .transpose()
}

/// Where the embedding model comes from, in the order looked at: `--model` (or `RELAY_MODEL`,
/// which the transport reads), then `[search] model` in `config.toml`.
#[derive(Debug, Clone, Default)]
pub struct ModelChoice {
    pub given: Option<PathBuf>,
}
