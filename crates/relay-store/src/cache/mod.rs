//! `cache/`: every derived index, disposable (DESIGN invariant 9). This module is the one
//! place that knows its layout: each index's folder and format version ([`Index`]), and the
//! rule by which an index follows its log (`coverage.rs`): a log that only grew is indexed
//! incrementally (up to [`Index::tail_limit`] new bytes are read directly rather than rewrite
//! the index); a log changed any other way (a checkout, a merge, a repair) is indexed again.
//! Deleting `cache/` only costs the time to rebuild.
//!
//! A new derived index (the vector index is one; the lines a watch starts after another) gets
//! its own file here and its own [`Index`] below, and follows the same coverage rule.

pub mod catalog;
pub(crate) mod coverage;
pub mod facts;
pub mod file_hashes;
mod indexes;
pub mod lite;
pub mod packages;
pub(crate) mod seen_lines;
pub mod summary;
pub mod terms;
pub mod types;
pub mod vectors;
pub(crate) mod witness;

pub use indexes::Indexes;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One kind of index: its folder under `cache/`, `<name>-v<format>`, and the format version
/// its files carry. Bumping `format` makes every reader ignore the old files and rebuild.
#[derive(Debug, Clone, Copy)]
pub struct Index {
    name: &'static str,
    pub format: u32,
    /// Bytes a log may have gained since its index was written that a read parses itself
    /// before the index is rewritten.
    pub tail_limit: u64,
}

/// The fact index of each project (`facts.rs`). Format 4: the current fact of a key is the
/// last of its effective chain (`fact_chain`), unless that one ended; 3 took the greatest
/// open fact. Format 5 added the chain table (every fact's line by key, in listing order).
pub const FACTS: Index = Index {
    name: "facts",
    format: 5,
    tail_limit: 1 << 20,
};

/// The package index of each monthly package log (`packages/`). Format 2 added the id table
/// and what listings need of each line; format 3 each posting's places (`terms::Places`), so
/// that a phrase reads only the lines where its words can stand in order; format 4 the rank
/// table; format 5 places as the stems beside a stem rather than its word numbers modulo 16.
///
/// Its `tail_limit` is what every read of the month would parse again: the lines of a few
/// dozen deposits. Past it, the next read folds the tail into the index and saves it. (It was
/// 4 MiB: an import in chunks, or a month of deposits, adds less than that, so no read ever
/// caught the index up, and every search parsed each month's lag again.)
pub const PACKAGES: Index = Index {
    name: "search",
    format: 5,
    tail_limit: 64 << 10,
};

/// The vector index of each monthly package log (`vectors.rs`): the embeddings of each package
/// line's passages, stored with the identity of the model that made them, in a folder per model
/// beside the model's text cache (format 3; format 2 had one folder for every model, format 1
/// held one vector per line, of part of its text). `tail_limit` is unused: a read embeds up to a
/// few hundred new lines itself.
pub const VECTORS: Index = Index {
    name: "vectors",
    format: 3,
    tail_limit: 0,
};

/// The ids of the packages of a few sparse custom types (`x-lesson`, `x-checkpoint`) per monthly package log
/// (`types.rs`). `tail_limit` is unused: a grown log's new bytes are always scanned.
pub const TYPES: Index = Index {
    name: "types",
    format: 1,
    tail_limit: 0,
};

/// What `relay status` counts of each monthly package log (`summary.rs`): packages by type
/// and status, and the newest one's time. `tail_limit` is unused: a log that changed at all is
/// counted again.
pub const SUMMARY: Index = Index {
    name: "summary",
    format: 1,
    tail_limit: 0,
};

/// The content hashes of the work-tree files that packages name as deliverables, by path,
/// mtime and size (`file_hashes.rs`): one file for the store, not per log. `tail_limit` is
/// unused.
pub const FILE_HASHES: Index = Index {
    name: "file-hashes",
    format: 1,
    tail_limit: 0,
};

/// The keys of the lines before a watch's start in each log (`seen_lines.rs`), so a watch
/// starts without reading every log. Its `tail_limit` is what a watch reads past the saved
/// keys before it saves them again.
pub const WATCH: Index = Index {
    name: "watch",
    format: 1,
    tail_limit: 1 << 20,
};

/// The one 64-bit hash of `cache/` (FNV-1a): of package ids ([`id_key`]), of the fact
/// index's (subject, predicate) keys, of the stems while the package index is built, and
/// under each stem's neighbour bit (`terms::neighbour_bit`). Its values are stored in index
/// files (tables are sorted by them), so changing it means bumping the format of every index
/// that stores them.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Runs `work` on each of `items` on two threads, each taking the next item not yet taken:
/// how a cold cache's files are built at the speed of two cores (one item or none is done
/// here, without a thread). A thread stops at its first error and the other goes on through
/// the rest; this thread's error is returned, else the other's.
pub(crate) fn on_two_threads<T: Sync>(
    items: &[T],
    work: impl Fn(&T) -> std::io::Result<()> + Sync,
) -> std::io::Result<()> {
    if items.len() < 2 {
        return items.iter().try_for_each(work);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let take = || -> std::io::Result<()> {
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return Ok(());
            };
            work(item)?;
        }
    };
    std::thread::scope(|s| {
        let other = s.spawn(take);
        let mine = take();
        mine.and(
            other
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("an index thread failed"))),
        )
    })
}

pub(crate) fn remove_derived(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// A stable 64-bit key of a package id ([`Fnv`]): what the package index's id table is sorted
/// by, and what readers group a package's versions by before comparing the ids themselves.
pub fn id_key(id: &str) -> u64 {
    use std::hash::Hasher as _;
    let mut h = Fnv::default();
    h.write(id.as_bytes());
    h.finish()
}

/// A map keyed by what is already a hash (an id key, a digest): one multiply, not SipHash.
pub type KeyMap<K, V> = HashMap<K, V, KeyHashing>;
pub type KeyHashing = std::hash::BuildHasherDefault<KeyHasher>;

/// Hashes a key that is itself a hash, folding its high bits into the low ones the table
/// indexes by.
#[derive(Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        let y = self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        y ^ (y >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
    fn write_u128(&mut self, n: u128) {
        self.0 ^= (n as u64) ^ ((n >> 64) as u64);
    }
}

/// Removes every file under `cache_dir` made from the bytes of `log`, a package log (its
/// package index, every model's vectors and text cache, types and status summary) or a project's fact log (its fact index, which keeps a
/// copy of the current facts' lines), the keys of its lines a watch saved, and the log's
/// witness entry. `relay purge` calls it
/// for each log it rewrites, so that no copy or trace of a purged line stays in `cache/`; the
/// next read builds what it needs from the log as it is now.
pub fn forget_log(cache_dir: &Path, log: &Path) -> std::io::Result<()> {
    let name = |p: Option<&Path>| {
        p.and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
    };
    let facts = name(Some(log)).as_deref() == Some(crate::layout::FACTS_FILE);
    let files = match facts {
        true => vec![facts::index_file(
            cache_dir,
            &name(log.parent()).unwrap_or_default(),
        )],
        false => vec![
            packages::index_path(cache_dir, log),
            types::file_path(cache_dir, log),
            summary::file_path(cache_dir, log),
        ],
    };
    for file in files {
        remove_derived(&file)?;
    }
    if !facts {
        vectors::forget(cache_dir, log)?;
    }
    seen_lines::remove(cache_dir, log)?;
    witness::forget(cache_dir, log);
    Ok(())
}

/// What checking one index file against its log found (`relay verify`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// No index file: the next read builds it.
    Absent,
    /// It holds for its log and says what a fresh build of the bytes it covers says.
    Sound,
    /// The log no longer begins with what it covers: the next read builds it again.
    OutOfDate,
    /// It holds for its log by its coverage, yet differs from a fresh build of those bytes
    /// (a damaged file, or a fault): reads would answer from it, so it must be rebuilt.
    Stale(String),
}

impl Index {
    /// The folder of this index under `cache_dir`.
    pub fn dir(&self, cache_dir: &Path) -> PathBuf {
        cache_dir.join(format!("{}-v{}", self.name, self.format))
    }

    /// This index's JSON file for the monthly package log `log`:
    /// `<dir>/<project>/<month>.json`.
    pub(crate) fn month_file(&self, cache_dir: &Path, log: &Path) -> PathBuf {
        let name = |s: Option<&std::ffi::OsStr>| s.map(|s| s.to_string_lossy().into_owned());
        let project = name(
            log.parent()
                .and_then(Path::parent)
                .and_then(Path::file_name),
        );
        let month = name(log.file_stem());
        self.dir(cache_dir)
            .join(project.unwrap_or_default())
            .join(format!("{}.json", month.unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_threads_take_every_item_once_and_return_an_error() {
        let items: Vec<u32> = (0..100).collect();
        let seen = std::sync::Mutex::new(Vec::new());
        on_two_threads(&items, |&i| {
            seen.lock().unwrap().push(i);
            Ok(())
        })
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, items);
        let failed = on_two_threads(&items, |&i| match i {
            3 => Err(std::io::Error::other("item 3")),
            _ => Ok(()),
        });
        assert_eq!(failed.unwrap_err().to_string(), "item 3");
    }

    #[test]
    fn the_stored_hash_keeps_its_values() {
        // FNV-1a 64 of "" and of "a": index files hold these keys, so they must not drift.
        assert_eq!(id_key(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(id_key("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
