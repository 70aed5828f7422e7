//! The ids met in more than one line of a store's logs, kept between searches by a process
//! that runs many (`relay serve`). With them, a broad query finds the lines that may be
//! versions of one package in the same pass that counts its statistics, checking each line's
//! key against a bitmap of a few KiB; without them, it marks every candidate's key in bitmaps
//! of megabytes of its own and reads its lines a second time to find them.
//!
//! The process keeps the key of every line of the logs it has seen (8 bytes a line), and
//! which were met twice. A log that only grew since it was last seen (checked by its
//! fingerprint, reading only the bytes appended) adds the keys of its new lines; a log
//! replaced or cut (a checkout, a rebase) has its lines renumbered, and the keys start afresh,
//! as they do when they are twice as many as the logs' lines (logs no longer searched).
//! Searches share the bitmap of the keys met twice; a search that finds a new one makes a new
//! bitmap for the searches after it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use relay_store::index::KeyHashing;
use relay_store::index::{QueryView, ViewOrigin};

use super::candidates::{FindShared, SharedBuckets};

/// Whether this process keeps the ids between its searches ([`keep_between_searches`]).
static KEEPING: AtomicBool = AtomicBool::new(false);

/// The ids of this process, when it keeps them.
static PROCESS: Keeper = Keeper::new();

/// Makes this process keep the ids of the store's lines between its searches: what a process
/// that answers many searches (`relay serve`) does at its start. They take 8 bytes a line.
pub fn keep_between_searches() {
    KEEPING.store(true, Relaxed);
}

/// The process's keeper, if it keeps the ids.
pub(super) fn of_process() -> Option<&'static Keeper> {
    KEEPING.load(Relaxed).then_some(&PROCESS)
}

/// Where the ids are kept: those of the last store searched.
pub(super) struct Keeper(Mutex<Option<KeptIds>>);

/// The id keys of every line of the logs seen, and how far each log was seen.
struct KeptIds {
    /// The store's cache folder.
    cache_dir: PathBuf,
    keys: HashSet<u64, KeyHashing>,
    /// The keys met more than once.
    twice: Vec<u64>,
    /// The buckets of the keys in `twice`, as the searches share them.
    shared: Arc<SharedBuckets>,
    logs: HashMap<PathBuf, Seen>,
}

/// A log as the ids saw it: what it was read from, and its documents then.
struct Seen {
    origin: ViewOrigin,
    docs: u32,
}

impl Keeper {
    pub(super) const fn new() -> Keeper {
        Keeper(Mutex::new(None))
    }

    /// The buckets of the keys met more than once in the lines of `views` (the views of the
    /// logs `files` of the store whose cache is `cache_dir`), the keys of every line of them
    /// kept; `None` when a view was not read from a log's index.
    pub(super) fn current(
        &self,
        cache_dir: &Path,
        files: &[PathBuf],
        views: &[QueryView],
    ) -> Option<Arc<SharedBuckets>> {
        let origins: Vec<&ViewOrigin> =
            views.iter().map(QueryView::origin).collect::<Option<_>>()?;
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let docs: usize = views.iter().map(QueryView::doc_count).sum();
        let mut ids = match kept.take() {
            Some(ids) if ids.cache_dir == cache_dir && ids.keys.len() <= 2 * docs.max(1 << 14) => {
                ids
            }
            _ => KeptIds::empty(cache_dir, docs),
        };
        // Per log, its first document not yet added: past those of before, if it only grew.
        let mut from = Vec::with_capacity(views.len());
        for ((path, view), origin) in files.iter().zip(views).zip(&origins) {
            match ids.logs.get(path) {
                Some(seen)
                    if seen.docs as usize <= view.doc_count()
                        && origin.extends(&seen.origin, path) =>
                {
                    from.push(seen.docs);
                }
                // Renumbered (replaced or cut): its lines of before are not these.
                Some(_) => break,
                None => from.push(0),
            }
        }
        if from.len() < views.len() {
            ids = KeptIds::empty(cache_dir, docs);
            from = vec![0; views.len()];
        }
        let met_before = ids.twice.len();
        for (((path, view), origin), &first) in (files.iter().zip(views).zip(&origins)).zip(&from) {
            let count = view.doc_count() as u32;
            if first == count && ids.logs.contains_key(path) {
                continue;
            }
            for doc in first..count {
                if let Some(rank) = view.rank(doc)
                    && !ids.keys.insert(rank.key())
                {
                    ids.twice.push(rank.key());
                }
            }
            let seen = Seen {
                origin: (*origin).clone(),
                docs: count,
            };
            ids.logs.insert(path.clone(), seen);
        }
        if ids.twice.len() > met_before {
            ids.twice.sort_unstable();
            ids.twice.dedup();
            ids.shared = Arc::new(buckets_of(&ids.twice));
        }
        let shared = ids.shared.clone();
        *kept = Some(ids);
        Some(shared)
    }

    /// How many keys are kept, and how many of them were met more than once.
    #[cfg(test)]
    pub(super) fn kept(&self) -> Option<(usize, usize)> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.as_ref().map(|ids| (ids.keys.len(), ids.twice.len()))
    }
}

impl KeptIds {
    fn empty(cache_dir: &Path, docs: usize) -> KeptIds {
        let mut keys = HashSet::default();
        keys.reserve(docs);
        KeptIds {
            cache_dir: cache_dir.to_path_buf(),
            keys,
            twice: Vec::new(),
            shared: Arc::new(buckets_of(&[])),
            logs: HashMap::new(),
        }
    }
}

/// The buckets holding `keys` (each marked as held twice).
fn buckets_of(keys: &[u64]) -> SharedBuckets {
    let mut finding = FindShared::for_keys(keys.len());
    for &key in keys {
        finding.add(key);
        finding.add(key);
    }
    finding.found()
}
