//! The options an import takes and the summary it gives back.

use std::collections::HashMap;

use serde::Serialize;

use crate::ops::export::{Counts, Kind};

/// What an import would do, or did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ImportSummary {
    /// New records written (or to write, in a dry run), per kind.
    pub added: Counts,
    /// Records already present, identical, per kind.
    pub unchanged: Counts,
    /// Records refused but skipped with `--on-conflict skip`, per kind.
    pub skipped: Counts,
    /// The first [`SKIPPED_LISTED`] of them, with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_records: Vec<SkippedRecord>,
    /// Signatures carried from a backup folder for the records now held.
    #[serde(skip_serializing_if = "is_zero")]
    pub signatures: usize,
    pub dry_run: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// How many skipped records an import summary lists (it counts them all).
pub const SKIPPED_LISTED: usize = 100;

/// A record an import refused and, as asked, skipped.
#[derive(Debug, Clone, Serialize)]
pub struct SkippedRecord {
    pub kind: Kind,
    /// Its `package_id` or `fact_id`.
    pub id: String,
    /// The error it would have stopped the import with: its code, and its message.
    pub error: &'static str,
    pub message: String,
}

/// How an import treats a package whose id exists with other content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnConflict {
    Fail,
    Skip,
}

#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub project_map: HashMap<String, String>,
    pub dry_run: bool,
    pub on_conflict: OnConflict,
    /// Accept a backup folder without a manifest.
    pub force: bool,
}
