//! The handle through which the rest of relay consults `cache/`: every read that uses an index
//! asks [`Store::indexes`](crate::Store::indexes) (or `search_indexes`, which is `None` when the
//! config turns the search index off) for one, and never names a cache path itself. Each method
//! is the store's own index function applied to the store's cache folder.

use std::path::{Path, PathBuf};

use super::file_hashes::FileHashes;
use super::packages::QueryView;
use super::vectors::{Embedder, Vectors};
use super::{Check, packages, types, vectors};

/// The store's derived indexes.
#[derive(Debug, Clone)]
pub struct Indexes {
    dir: PathBuf,
}

impl Indexes {
    /// The indexes kept in the cache folder `dir` (a store's is `Store::indexes`).
    pub fn at(dir: PathBuf) -> Indexes {
        Indexes { dir }
    }

    /// The cache folder the indexes are kept in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The package index of `log`, brought up to date, holding the postings of `stems`.
    pub fn query(&self, log: &Path, stems: &[String]) -> std::io::Result<QueryView> {
        packages::query(&self.dir, log, stems)
    }

    /// The ids of the packages of `package_type` (one of [`types::TRACKED`]) in `log`.
    pub fn type_ids(&self, log: &Path, package_type: &str) -> std::io::Result<Vec<String>> {
        types::ids_of_type(&self.dir, log, package_type)
    }

    /// Builds the types files that `logs` lack, on two threads (see [`types::warm`]).
    pub fn warm_types(&self, logs: &[PathBuf]) -> std::io::Result<()> {
        types::warm(&self.dir, logs)
    }

    /// Whether the vectors of `log` by `embedder` are missing or too far behind the log.
    pub fn vectors_need_build(&self, log: &Path, embedder: &dyn Embedder) -> bool {
        vectors::needs_build(&self.dir, log, embedder)
    }

    /// About how many bytes of `log` a build of `embedder`'s vectors would embed: those its
    /// file does not cover, less those whose texts the text cache holds.
    pub fn vectors_uncached(&self, log: &Path, embedder: &dyn Embedder) -> u64 {
        vectors::uncached(&self.dir, log, embedder)
    }

    /// Takes the build of `embedder`'s vectors, waiting up to `wait` for one under way;
    /// `None` when that one is still at it.
    pub fn start_vector_build(
        &self,
        embedder: &dyn Embedder,
        wait: std::time::Duration,
    ) -> relay_wire::error::Result<Option<vectors::Build>> {
        vectors::Build::start(&self.dir, embedder.identity(), wait)
    }

    /// How far the build of `embedder`'s vectors under way has got, if one is.
    pub fn vector_build_progress(&self, embedder: &dyn Embedder) -> Option<vectors::BuildProgress> {
        vectors::build_progress(&self.dir, embedder.identity())
    }

    /// Whether `embedder`'s vectors of `log` exist and hold for the log.
    pub fn vectors_built(&self, log: &Path, embedder: &dyn Embedder) -> bool {
        vectors::is_built(&self.dir, log, embedder)
    }

    /// How many models but those of `identities` have vectors in the cache (never read:
    /// only disk).
    pub fn other_vector_models(&self, identities: &[&str]) -> usize {
        vectors::other_models(&self.dir, identities)
    }

    /// The vectors of the lines of `log` at `offsets`, from the index (brought up to date).
    pub fn vectors(
        &self,
        log: &Path,
        offsets: &[u64],
        embedder: &dyn Embedder,
    ) -> std::io::Result<Vectors> {
        vectors::open(Some(&self.dir), log, offsets, embedder)
    }

    /// Whether `log` has no package index file at all (a fresh clone, a deleted `cache/`):
    /// its first read builds one. Only looks for the file.
    pub fn lacks_packages(&self, log: &Path) -> bool {
        !packages::index_path(&self.dir, log).exists()
    }

    /// Whether the package index of `log` that claims to cover it matches it.
    pub fn check_packages(&self, log: &Path) -> std::io::Result<Check> {
        packages::check(&self.dir, log)
    }

    /// Whether the types index of `log` that claims to cover it matches it.
    pub fn check_types(&self, log: &Path) -> std::io::Result<Check> {
        types::check(&self.dir, log)
    }

    /// Builds the package index of `log` afresh.
    pub fn rebuild_packages(&self, log: &Path) -> std::io::Result<()> {
        packages::rebuild(&self.dir, log)
    }

    /// Removes the types index of `log` (the next read builds it again).
    pub fn remove_types(&self, log: &Path) -> std::io::Result<()> {
        types::remove(&self.dir, log)
    }

    /// Removes the status summary of `log`; the next `relay status` counts it again.
    pub fn remove_summary(&self, log: &Path) -> std::io::Result<()> {
        super::summary::remove(&self.dir, log)
    }

    /// Has a month's package index that falls behind its log rebuilt on a thread of its own,
    /// not by the read that finds it so (a long-lived process: `relay serve`).
    pub fn rebuild_behind_reads(&self) {
        packages::rebuild_behind_reads(&self.dir)
    }

    /// Removes everything made from the bytes of `log` ([`super::forget_log`]).
    pub fn forget_log(&self, log: &Path) -> std::io::Result<()> {
        super::forget_log(&self.dir, log)
    }

    /// The cached hashes of work-tree files.
    pub fn file_hashes(&self) -> FileHashes {
        FileHashes::load(&self.dir)
    }

    /// A new folder for a command's temporary files, named after `what`, under the cache
    /// folder (so on the store's disk, and disposable like every index).
    pub fn scratch_dir(&self, what: &str) -> PathBuf {
        self.dir.join(format!(
            "{what}-{}-{}",
            std::process::id(),
            relay_wire::ids::new_id("s")
        ))
    }
}
