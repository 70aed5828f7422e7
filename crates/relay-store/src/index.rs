//! What the search and the listings above the store read of the derived indexes under
//! `cache/`: the handle on them ([`Indexes`], from [`Store::indexes`](crate::Store::indexes)),
//! a month's package index as a query sees it ([`QueryView`]) with its documents and rank
//! tables, the month catalogs listings walk, the fact index, the vectors, the stemmer every
//! index is built with, and the id keys they are keyed by. Where each index's files are, their
//! formats and rebuild rules stay private to `cache`.

pub use crate::cache::catalog::{Entry, LinePrefilter, MonthCatalog};
pub use crate::cache::facts::{EachKey, Facts};
pub use crate::cache::file_hashes::{FileHashes, Stamp};
pub use crate::cache::lite::{LiteLine, LitePackage};
pub use crate::cache::packages::{
    Doc, DocRank, DocRecord, QueryView, TYPE_OVERFLOW, ViewOrigin, bytes_indexed, hash_prefix,
    keep_rank_tables_mapped, wait_for_rebuilds,
};
pub use crate::cache::summary::MonthSummary;
pub use crate::cache::terms::{
    ANY_PLACE, FIELDS, Places, lowercase_into, may_stand_in_order, neighbour_bit, prefix_of, stem,
    stem_into,
};
pub use crate::cache::types::TRACKED as TRACKED_TYPES;
pub use crate::cache::vectors::{Build as VectorBuild, BuildProgress, Document, Embedder, Vectors};
pub use crate::cache::{Check, Indexes, KeyHashing, KeyMap, id_key};

use std::path::Path;

/// A month's package log read as the package index would hold it, without the index (no
/// `cache/`: `search_index = false`).
pub fn scan(log: &Path) -> std::io::Result<QueryView> {
    crate::cache::packages::scan(log)
}

/// The vectors of `log`'s package lines at `offsets`, all made in memory, none saved (no
/// `cache/`).
pub fn vectors_in_memory(
    log: &Path,
    offsets: &[u64],
    embedder: &dyn Embedder,
) -> std::io::Result<Vectors> {
    crate::cache::vectors::open(None, log, offsets, embedder)
}

use crate::Store;
use relay_wire::error::Result;

impl Store {
    /// Brings every package log's index of a project up to date, two logs at a time: commands
    /// that read every month call this first, so a cold cache is rebuilt on both cores.
    pub fn warm_catalogs(&self, project_id: &str) -> Result<()> {
        crate::cache::catalog::warm(self, project_id)
    }

    /// The bytes of package logs, over `projects`, that have no usable index yet: what the
    /// next read of every month will have to index.
    pub fn cold_catalog_bytes(&self, projects: &[String]) -> u64 {
        crate::cache::catalog::cold_bytes(self, projects)
    }

    /// The saved status summary of the package log `log`, when it still holds for the log.
    pub fn saved_month_summary(&self, log: &Path) -> Result<Option<MonthSummary>> {
        crate::cache::summary::saved(self, log)
    }

    /// Counts the package log `log` for `relay status`, and saves what it counted.
    pub fn count_month(&self, log: &Path) -> Result<MonthSummary> {
        crate::cache::summary::count_and_save(self, log)
    }

    /// The pair of counts of a whole log saved under `name`, or `count`'s answer, saved.
    pub fn log_counts(
        &self,
        log: &Path,
        name: &str,
        count: impl FnOnce() -> Result<(u64, u64)>,
    ) -> Result<(u64, u64)> {
        crate::cache::summary::log_counts(self, log, name, count)
    }

    /// `log`'s status summary checked against a fresh count (`relay verify`).
    pub fn check_month_summary(&self, log: &Path) -> Result<Check> {
        crate::cache::summary::check(self, log)
    }
}
