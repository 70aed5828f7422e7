//! The filters every listing takes (pull latest and relevant, search). They become a
//! `search::filter::Filter` in one place (`ListingFilter::filter`, beside the filter), so
//! that every door refuses what it cannot honour (an unknown status) the same way.

use schemars::JsonSchema;
use serde::Deserialize;

use relay_wire::error::{Error, Result};

/// How many packages a listing shows unless asked otherwise.
pub const DEFAULT_LISTING_LIMIT: usize = 5;

/// How a door spells the names of its parameters in error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// Command-line flags: `--since`, `--as-of`.
    Flag,
    /// JSON and query parameters: `since`, `as_of`.
    Param,
}

impl Spelling {
    /// `name` (a parameter's name, `as_of`) as this door spells it.
    pub fn name(self, name: &str) -> String {
        match self {
            Spelling::Flag => format!("--{}", name.replace('_', "-")),
            Spelling::Param => name.to_string(),
        }
    }
}

/// The filters of a listing, as given. The field docs are what an agent reads in MCP's tool
/// schema.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct ListingFilter {
    /// Only packages of these types (any of them)
    #[serde(default)]
    pub types: Vec<String>,
    /// Only packages carrying all of these tags
    #[serde(default)]
    pub tags: Vec<String>,
    /// Only packages created by this actor id
    pub created_by: Option<String>,
    /// Only packages in this status
    #[serde(default)]
    #[schemars(schema_with = "status_schema")]
    pub status: Option<String>,
    /// Only packages created at or after this time: an RFC 3339 timestamp, a date
    /// (2026-04-18) or an age (30m, 12h, 7d, 2w)
    pub since: Option<String>,
    /// Only packages created before this time (same forms as since)
    pub until: Option<String>,
    /// Cover every project, not just the selected one
    #[serde(default)]
    pub all_projects: bool,
    /// Also show packages whose x-expires-at has passed (hidden by default)
    #[serde(default)]
    pub include_expired: bool,
    /// Also show retracted packages (hidden by default)
    #[serde(default)]
    pub include_retracted: bool,
    /// Read the store as it stood at this time: packages created by then, at the review
    /// version current then; a relevant pull ranks them as they were
    pub as_of: Option<String>,
}

/// A status is one of §6's ([`relay_wire::package::STATUSES`]).
fn status_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    super::one_of(relay_wire::package::STATUSES)
}

/// Which of pull's three reads (§8.2) is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PullMode {
    Latest,
    Specific,
    Relevant,
}

impl PullMode {
    pub fn as_str(self) -> &'static str {
        match self {
            PullMode::Latest => "latest",
            PullMode::Specific => "specific",
            PullMode::Relevant => "relevant",
        }
    }
}

/// What pull (§8.2) is asked for: the newest packages, one package by id, or the best
/// matches for a query, with a listing's filters. The field docs are what an agent reads in
/// MCP's tool schema.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct PullRequest {
    /// latest: the newest packages; specific: one package by id; relevant: the packages that
    /// best match a query
    pub mode: PullMode,
    /// mode specific: the package id (pkg_…), as §8.2 names it
    pub package_id: Option<String>,
    /// mode specific: the package id (pkg_…); the same as package_id, under its older name
    pub id: Option<String>,
    /// mode specific: every stored version of the package, with its review transitions
    #[serde(default)]
    pub history: bool,
    /// mode relevant: words and "quoted phrases"; words match their inflections
    pub query: Option<String>,
    /// modes latest and relevant: how many packages
    #[serde(
        default = "default_listing_limit",
        deserialize_with = "super::number::whole"
    )]
    #[schemars(range(min = 1))]
    pub limit: usize,
    /// mode relevant: keyword (BM25 over the words), semantic (by meaning, with the
    /// configured embedding model) or hybrid (both, fused by rank); default hybrid when a
    /// model is configured, else keyword
    #[serde(default)]
    #[schemars(schema_with = "super::search::mode_schema")]
    pub search: Option<String>,
    #[serde(flatten)]
    pub filter: ListingFilter,
}

fn default_listing_limit() -> usize {
    DEFAULT_LISTING_LIMIT
}

/// What each mode of pull reads besides `mode`: any other argument given is refused.
pub fn pull_applies(mode: PullMode) -> Vec<&'static str> {
    const FILTERS: [&str; 10] = [
        "types",
        "tags",
        "created_by",
        "status",
        "since",
        "until",
        "all_projects",
        "include_expired",
        "include_retracted",
        "as_of",
    ];
    match mode {
        PullMode::Specific => vec![
            "package_id",
            "id",
            "history",
            "include_expired",
            "include_retracted",
            "as_of",
        ],
        PullMode::Latest => FILTERS.into_iter().chain(["limit"]).collect(),
        PullMode::Relevant => FILTERS
            .into_iter()
            .chain(["query", "limit", "search"])
            .collect(),
    }
}

/// A relevant pull or a search without its query: a required member missing.
pub fn missing_query() -> Error {
    super::shape_error(
        "query",
        "is required by mode `relevant`: the words to look for",
    )
}

/// The most packages one listing answers (pull latest and relevant, search).
pub const MAX_LISTING_LIMIT: usize = 1_000_000;

/// Refuses a listing's limit of 0 or over [`MAX_LISTING_LIMIT`] (`invalid_input`: a whole
/// number, of a value refused).
pub fn check_limit(limit: usize) -> Result<()> {
    if (1..=MAX_LISTING_LIMIT).contains(&limit) {
        return Ok(());
    }
    Err(super::value_error(format!(
        "limit {limit} is not from 1 to {MAX_LISTING_LIMIT}"
    )))
}

impl PullRequest {
    /// The package a specific pull reads: `package_id`, or `id` (its older name); both
    /// given must agree.
    pub fn package(&self) -> Result<&str> {
        match (&self.package_id, &self.id) {
            (Some(a), Some(b)) if a != b => Err(Error::InvalidInput(format!(
                "`package_id` {a} and `id` {b} name different packages: give one"
            ))),
            (Some(id), _) | (None, Some(id)) => Ok(id),
            (None, None) => Err(super::shape_error(
                "package_id",
                "is required by mode `specific`: the package id",
            )),
        }
    }

    /// Refuses a read without what its mode needs.
    pub fn validate(&self) -> Result<()> {
        if self.mode != PullMode::Specific {
            check_limit(self.limit)?;
        }
        match self.mode {
            PullMode::Specific => self.package().map(drop),
            PullMode::Relevant if self.query.is_none() => Err(missing_query()),
            _ => Ok(()),
        }
    }
}

/// Which hidden records a read shows anyway (`--include-expired`, `--include-retracted`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reveal {
    pub expired: bool,
    pub retracted: bool,
}

impl Reveal {
    pub const ALL: Reveal = Reveal {
        expired: true,
        retracted: true,
    };
}
