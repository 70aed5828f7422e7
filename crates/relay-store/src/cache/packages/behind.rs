//! Rebuilding a month's index behind the reads, for a process that lives on (`relay serve`).
//! Under steady deposits the month being written outgrows its index every few hundred lines;
//! the read that found it so used to fold the tail in itself, decoding and writing the whole
//! month's index while its client waited, and every read that came meanwhile did the same.
//! Here a thread of the process does it (one per index, at a lower priority), started by the
//! read or the id lookup that finds the index behind, and reads take the index as it is,
//! indexing the tail themselves, until it is done. A command that exits after one read keeps
//! folding in the tail itself: a thread of its would die half-way.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

use super::{PACKAGES, index_path, load_or_build};

/// How far a log may run past its index while the index is rebuilt behind the reads: what a
/// read indexes itself meanwhile (a few thousand lines at most).
const BEHIND_TAIL_LIMIT: u64 = 1 << 20;

/// The cache folders whose indexes are rebuilt behind the reads.
static BEHIND: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// The indexes being rebuilt now, by path, and what tells of each one done.
static REBUILDING: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
static REBUILT: Condvar = Condvar::new();

/// Has the month indexes under `cache_dir` rebuilt on a thread of their own when a read
/// finds one behind its log, from now until the process ends.
pub fn rebuild_behind_reads(cache_dir: &Path) {
    (BEHIND.lock().unwrap_or_else(|e| e.into_inner())).insert(cache_dir.to_path_buf());
}

/// Waits until no index is being rebuilt behind the reads: what a process that rebuilds
/// them does before it exits, so that none is left half-written.
pub fn wait_for_rebuilds() {
    let mut busy = REBUILDING.lock().unwrap_or_else(|e| e.into_inner());
    while !busy.is_empty() {
        busy = REBUILT.wait(busy).unwrap_or_else(|e| e.into_inner());
    }
}

/// Whether a read may take the index of `log` as it is while the log runs `tail` bytes past
/// it, indexing those bytes itself: within [`PACKAGES`]' limit, or, under a cache folder of
/// [`rebuild_behind_reads`], within [`BEHIND_TAIL_LIMIT`] while a thread folds the tail in
/// (started here when none is at it).
pub(super) fn tail_usable(cache_dir: &Path, log: &Path, tail: u64) -> bool {
    if tail <= PACKAGES.tail_limit {
        return true;
    }
    tail <= BEHIND_TAIL_LIMIT && rebuild_behind(cache_dir, log)
}

/// Under a cache folder of [`rebuild_behind_reads`], has a thread rebuild the index of `log`
/// unless one is at it already: `true` then, `false` elsewhere.
pub(super) fn rebuild_behind(cache_dir: &Path, log: &Path) -> bool {
    if !(BEHIND.lock().unwrap_or_else(|e| e.into_inner())).contains(cache_dir) {
        return false;
    }
    let path = index_path(cache_dir, log);
    let mut busy = REBUILDING.lock().unwrap_or_else(|e| e.into_inner());
    if busy.contains(&path) {
        return true;
    }
    let (cache_dir, log, done) = (cache_dir.to_path_buf(), log.to_path_buf(), path.clone());
    let started = std::thread::Builder::new()
        .name("relay-reindex".into())
        .spawn(move || {
            // Done however the rebuild ends, a panic included: a read after a failed one
            // starts another.
            let _done = Done(done);
            crate::priority::lower_this_thread();
            let _ = load_or_build(&cache_dir, &log);
        });
    if started.is_err() {
        return false;
    }
    busy.insert(path);
    true
}

/// Marks the rebuild of an index done when dropped.
struct Done(PathBuf);

impl Drop for Done {
    fn drop(&mut self) {
        (REBUILDING.lock().unwrap_or_else(|e| e.into_inner())).remove(&self.0);
        REBUILT.notify_all();
    }
}
