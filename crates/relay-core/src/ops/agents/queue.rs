//! The queue of hook writes (see `store::queue`) as the commands meet it: whether a hook's
//! writes are queued ([`should_queue`]), moving the queue into the store (`relay hook flush`,
//! [`flush`]) and staging what moved (`--stage`, which the pre-commit hook passes, so queued
//! records enter the store with the user's next commit), and what `relay status` says of it.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::ops::git::state;
use relay_store::QueuedKind;
use relay_store::Store;
use relay_wire::error::Result;

/// Whether the writes of relay's hooks to `store` go to the clone's queue: for a store git
/// sees (shared, inside a git work tree), where a write to a tracked log would leave the work
/// tree dirty. A local store, or one outside git, takes them directly.
pub fn should_queue(store: &Store) -> bool {
    !store.config().local()
        && store
            .root()
            .parent()
            .is_some_and(crate::ops::git::may_be_in_git)
        && crate::ops::git::git(store.root(), &["rev-parse", "--is-inside-work-tree"]).as_deref()
            == Some("true")
}

/// What a flush did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Flushed {
    /// Package versions moved into the store.
    pub packages: u64,
    /// Lines moved in all (packages and their signatures).
    pub lines: u64,
    /// The store files that received them, relative to the store.
    pub files: Vec<String>,
    /// Whether those files were added to git's index.
    pub staged: bool,
    /// Why nothing was moved although the queue holds records (staging was asked for and is
    /// not safe now): they wait for the next commit.
    pub deferred: Option<String>,
}

/// Moves every queued file into the store (see [`Store::flush_queued`]). With `stage`, the
/// store files it touched are added to git's index too, which is what the pre-commit hook asks
/// for; when staging is not safe now (see [`state::staging_unsafe`]), or the commit being
/// made holds nothing else (git refuses an empty commit, and would leave what was staged
/// behind), nothing is moved at all, so the work tree stays as git left it, and the queue
/// waits for the next commit. A local store is never staged (git does not see it).
pub fn flush(store: &Store, cwd: &Path, stage: bool) -> Result<Flushed> {
    // First what a git move took from the store goes back into the queue, and what the
    // upstream holds leaves the journal (a failure there keeps no queued record waiting).
    let _ = crate::ops::agents::journal::reconcile(store, cwd);
    let queued = store.queued_files()?;
    let mut done = Flushed::default();
    let journaled = store.journaled_files()?;
    if queued.is_empty() && (!stage || journaled.is_empty()) {
        return Ok(done);
    }
    let stage = stage && !store.config().local();
    if stage {
        let why = state::staging_unsafe(cwd).or_else(|| {
            state::nothing_staged(cwd)
                .then(|| "nothing else is staged, so git will find nothing to commit".into())
        });
        if why.is_some() {
            done.deferred = why.filter(|_| !queued.is_empty());
            return Ok(done);
        }
    }
    let mut touched: Vec<PathBuf> = Vec::new();
    for q in &queued {
        let lines = store.flush_queued(q)?;
        done.lines += lines;
        if q.kind == QueuedKind::Packages {
            done.packages += lines;
        }
        if lines > 0 && !touched.contains(&q.tracked) {
            touched.push(q.tracked.clone());
        }
    }
    done.files = (touched.iter())
        .map(|p| {
            let rel = p.strip_prefix(store.root()).unwrap_or(p);
            rel.to_string_lossy().replace('\\', "/")
        })
        .collect();
    // Staged: what moved now, and every file that holds journaled records (even with nothing
    // queued), so that lines an interrupted flush had moved but not staged enter this commit.
    let mut staged = touched.clone();
    for f in journaled {
        if f.tracked.is_file() && !staged.contains(&f.tracked) {
            staged.push(f.tracked);
        }
    }
    if stage && !staged.is_empty() {
        crate::ops::git::add(cwd, &staged).map_err(|e| {
            relay_wire::Error::Integrity(format!(
                "moved {} into the store, but could not stage the store ({e}); git add {} \
                 to commit what was moved",
                relay_wire::text::count(done.lines, "queued line"),
                store.root().display()
            ))
        })?;
        done.staged = true;
    }
    Ok(done)
}

/// What `relay status` says of the queue.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct QueueStatus {
    /// Package versions waiting in the queue.
    pub packages: u64,
    /// Whether the pre-commit hook moves them into the store at the next commit (else
    /// `relay hook flush` does it).
    pub next_commit: bool,
}

/// The queue's state: what waits, and how it gets into the store.
pub fn status(store: &Store) -> Result<QueueStatus> {
    let packages = store.queued_package_lines()?;
    let next_commit = packages > 0
        && (store.root().parent())
            .and_then(|holder| crate::ops::agents::hooks::git_hooks_dir(holder).ok())
            .is_some_and(|dir| crate::ops::agents::hooks::flushes_at_commit(&dir));
    Ok(QueueStatus {
        packages,
        next_commit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deposit(store: &Store, title: &str) {
        let input = json!({"title": title});
        crate::ops::packages::deposit::deposit(
            store,
            input.as_object().unwrap().clone(),
            &crate::ops::packages::deposit::test_support::context("demo"),
        )
        .unwrap();
    }

    #[test]
    fn a_flush_moves_the_queue_into_the_store_and_reads_answer_alike_before_and_after() {
        let (dir, mut store) = crate::ops::packages::deposit::test_support::store_with(&["demo"]);
        deposit(&store, "tracked");
        store.set_queued(true);
        deposit(&store, "queued one");
        deposit(&store, "queued two");
        store.set_queued(false);
        let titles = |store: &Store| -> Vec<String> {
            let filter = crate::search::filter::Filter::default();
            let projects = ["demo".to_string()];
            (crate::ops::packages::pull::latest(store, &projects, &filter, 10)
                .unwrap()
                .iter())
            .map(|p| p.package.title().to_string())
            .collect()
        };
        let before = titles(&store);
        assert_eq!(before.len(), 3, "{before:?}");
        assert_eq!(
            status(&store).unwrap(),
            QueueStatus {
                packages: 2,
                next_commit: false
            }
        );
        let done = flush(&store, dir.path(), false).unwrap();
        assert_eq!((done.packages, done.lines, done.staged), (2, 2, false));
        assert_eq!(done.deferred, None);
        assert_eq!(done.files.len(), 1);
        assert!(done.files[0].starts_with("projects/demo/packages/"));
        assert_eq!(titles(&store), before);
        assert_eq!(status(&store).unwrap().packages, 0);
        assert_eq!(
            flush(&store, dir.path(), false).unwrap(),
            Flushed::default()
        );
        // The month is queued again in a new file: reads through the indexes left by the
        // first one answer as reads with no cache do.
        store.set_queued(true);
        deposit(&store, "queued three");
        store.set_queued(false);
        let warm = titles(&store);
        assert_eq!(warm.len(), 4, "{warm:?}");
        std::fs::remove_dir_all(store.indexes().dir()).unwrap();
        assert_eq!(titles(&store), warm);
    }

    #[test]
    fn a_flush_that_would_stage_outside_git_waits() {
        let (dir, mut store) = crate::ops::packages::deposit::test_support::store_with(&["demo"]);
        store.set_queued(true);
        deposit(&store, "queued");
        store.set_queued(false);
        assert!(!should_queue(&store), "no git here");
        let done = flush(&store, dir.path(), true).unwrap();
        assert_eq!(done.packages, 0);
        assert!(done.deferred.is_some(), "{done:?}");
        assert_eq!(status(&store).unwrap().packages, 1, "still queued");
    }
}
