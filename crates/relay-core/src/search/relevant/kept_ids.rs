//! The buckets of id keys met in more than one line of a store's logs, kept between searches
//! by a process that runs many (`relay serve`). With them, a broad query finds the lines that
//! may be versions of one package in the same pass that counts its statistics; without them,
//! it marks every candidate's key in bitmaps of its own and reads its lines a second time to
//! find them (a third of a common word's CPU at a million packages).
//!
//! The buckets only gain keys. A log that only grew since it was last seen adds the keys of
//! its new documents; a log replaced or cut (a checkout, a rebase) has its documents renumbered,
//! so the buckets start afresh, as they do once they hold twice as many keys as the logs have
//! lines, or the store has outgrown their size. A key added and gone since leaves its bucket
//! marked: a line in a marked bucket is only looked at more closely, so the buckets may hold
//! more than the store's duplicates, never fewer.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use relay_store::cache::packages::{QueryView, ViewOrigin};

use super::candidates::{FindShared, SharedBuckets};

/// Whether this process keeps the buckets between its searches ([`keep_between_searches`]).
static KEEPING: AtomicBool = AtomicBool::new(false);

/// The buckets of this process, when it keeps them.
static PROCESS: Keeper = Keeper::new();

/// Makes this process keep the buckets of id keys between its searches: what a process that
/// answers many searches (`relay serve`) does at its start. They take a few MiB.
pub fn keep_between_searches() {
    KEEPING.store(true, Relaxed);
}

/// The process's keeper, if it keeps the buckets.
pub(super) fn of_process() -> Option<&'static Keeper> {
    KEEPING.load(Relaxed).then_some(&PROCESS)
}

/// Where the buckets are kept: the last store searched (its cache folder), and its buckets.
pub(super) struct Keeper(Mutex<Option<(PathBuf, Arc<KeptIds>)>>);

/// The buckets of the keys of every document of the logs seen, and how far each log was seen.
#[derive(Clone)]
pub(super) struct KeptIds {
    finding: FindShared,
    /// Keys added since the buckets started.
    added: usize,
    logs: HashMap<PathBuf, Seen>,
}

/// A log as the buckets saw it: what it was read from, and its documents then.
#[derive(Clone)]
struct Seen {
    origin: ViewOrigin,
    docs: u32,
}

impl Keeper {
    pub(super) const fn new() -> Keeper {
        Keeper(Mutex::new(None))
    }

    /// The buckets of every document of `views` (the views of the logs `files` of the store
    /// whose cache is `cache_dir`), brought up to date; `None` when a view was not read from
    /// a log's index. Other searches may hold the buckets of before meanwhile.
    pub(super) fn current(
        &self,
        cache_dir: &Path,
        files: &[PathBuf],
        views: &[QueryView],
    ) -> Option<Arc<KeptIds>> {
        let origins: Vec<&ViewOrigin> =
            views.iter().map(QueryView::origin).collect::<Option<_>>()?;
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let docs: usize = views.iter().map(QueryView::doc_count).sum();
        let mut ids = match kept.take() {
            Some((dir, ids)) if dir == cache_dir => ids,
            _ => Arc::new(KeptIds::empty(docs)),
        };
        // Per log, its first document not yet added: past those of before, if it only grew.
        let mut afresh = ids.finding.sized_below(docs);
        let mut from = Vec::with_capacity(views.len());
        for ((path, view), origin) in files.iter().zip(views).zip(&origins) {
            match ids.logs.get(path) {
                Some(seen)
                    if seen.docs as usize <= view.doc_count()
                        && origin.extends(&seen.origin, path) =>
                {
                    from.push(seen.docs);
                }
                // Renumbered (replaced or cut): its documents of before are not these.
                Some(_) => afresh = true,
                None => from.push(0),
            }
        }
        let count = |view: &QueryView| view.doc_count() as u32;
        let adding = |from: &[u32]| -> usize {
            (views.iter().zip(from))
                .map(|(v, &f)| (count(v) - f) as usize)
                .sum()
        };
        if afresh || ids.added + adding(&from) > 2 * docs.max(1 << 14) {
            ids = Arc::new(KeptIds::empty(docs));
            from = vec![0; views.len()];
        }
        let unseen = |path: &PathBuf| !ids.logs.contains_key(path);
        if adding(&from) > 0 || files.iter().any(unseen) {
            let ids = Arc::make_mut(&mut ids);
            for (((path, view), origin), &first) in
                (files.iter().zip(views).zip(&origins)).zip(&from)
            {
                for doc in first..count(view) {
                    if let Some(rank) = view.rank(doc) {
                        ids.finding.add(rank.key());
                        ids.added += 1;
                    }
                }
                let seen = Seen {
                    origin: (*origin).clone(),
                    docs: count(view),
                };
                ids.logs.insert(path.clone(), seen);
            }
        }
        *kept = Some((cache_dir.to_path_buf(), ids.clone()));
        Some(ids)
    }
}

impl Keeper {
    /// The keys added to the buckets kept since they last started.
    #[cfg(test)]
    pub(super) fn keys_added(&self) -> Option<usize> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.as_ref().map(|(_, ids)| ids.added)
    }
}

impl KeptIds {
    fn empty(docs: usize) -> KeptIds {
        KeptIds {
            finding: FindShared::for_keys(docs),
            added: 0,
            logs: HashMap::new(),
        }
    }

    /// The buckets holding more than one key.
    pub(super) fn shared(&self) -> &SharedBuckets {
        self.finding.so_far()
    }
}
