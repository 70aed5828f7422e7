//! One build of a model's vectors at a time, and how far it has got. A transformer embeds a
//! store of ten thousand packages in minutes, so its vectors are built apart from the searches
//! (a background process, or a server's thread) while the static table answers. The builder
//! holds `<model>.lock` beside the model's folder and writes `<model>.progress.json`; anyone
//! may read how far it is, and a second builder waits or leaves the work to the first.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::model_dir;
use crate::lock::{self, LockGuard};
use relay_wire::error::{Error, Result};

/// How often a build writes its progress down.
const REPORT_EVERY: Duration = Duration::from_millis(250);

/// How far a build of a model's vectors has got, in bytes of package logs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildProgress {
    pub done: u64,
    pub total: u64,
    /// The process building.
    pub pid: u32,
    /// When it started (RFC 3339, UTC).
    pub started: String,
}

/// The right to build a model's vectors in a cache folder, held until dropped.
#[derive(Debug)]
pub struct Build {
    _lock: LockGuard,
    progress: PathBuf,
    started: String,
    last: Option<Instant>,
}

fn lock_path(cache_dir: &Path, identity: &str) -> PathBuf {
    model_dir(cache_dir, identity).with_extension("lock")
}

fn progress_path(cache_dir: &Path, identity: &str) -> PathBuf {
    model_dir(cache_dir, identity).with_extension("progress.json")
}

impl Build {
    /// Takes the build of `identity`'s vectors, waiting up to `wait` for a build under way
    /// to end; `None` when one is still under way then.
    pub fn start(cache_dir: &Path, identity: &str, wait: Duration) -> Result<Option<Build>> {
        match lock::acquire(&lock_path(cache_dir, identity), wait) {
            Ok(lock) => Ok(Some(Build {
                _lock: lock,
                progress: progress_path(cache_dir, identity),
                started: relay_wire::time::format(relay_wire::time::now()),
                last: None,
            })),
            Err(Error::LockTimeout { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Writes down that `done` of `total` bytes are embedded (at most every
    /// [`REPORT_EVERY`], and always at the end). A progress file that cannot be written is
    /// no error: the build goes on, unobserved.
    pub fn report(&mut self, done: u64, total: u64) {
        if done < total && self.last.is_some_and(|t| t.elapsed() < REPORT_EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        let progress = BuildProgress {
            done,
            total,
            pid: std::process::id(),
            started: self.started.clone(),
        };
        let _ = crate::log::write_atomic_with(&self.progress, |w| {
            serde_json::to_writer(&mut *w, &progress)?;
            Ok(())
        });
    }
}

impl Drop for Build {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.progress);
    }
}

/// How far the build of `identity`'s vectors under way has got; `None` when none is (its
/// lock is free), or it has not written its progress yet.
pub fn progress(cache_dir: &Path, identity: &str) -> Option<BuildProgress> {
    let lock = lock_path(cache_dir, identity);
    let file = std::fs::File::open(&lock).ok()?;
    match file.try_lock() {
        Ok(()) => {
            let _ = file.unlock();
            None
        }
        Err(_) => {
            let bytes = std::fs::read(progress_path(cache_dir, identity)).ok()?;
            serde_json::from_slice(&bytes).ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_build_at_a_time_and_its_progress_seen_from_outside() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path();
        assert_eq!(progress(cache, "m"), None, "no build");
        let mut build = Build::start(cache, "m", Duration::ZERO).unwrap().unwrap();
        assert!(
            Build::start(cache, "m", Duration::from_millis(10))
                .unwrap()
                .is_none(),
            "a second builder leaves it to the first"
        );
        assert!(
            Build::start(cache, "other", Duration::ZERO)
                .unwrap()
                .is_some()
        );
        build.report(10, 100);
        let seen = progress(cache, "m").unwrap();
        assert_eq!(
            (seen.done, seen.total, seen.pid),
            (10, 100, std::process::id())
        );
        build.report(20, 100);
        assert_eq!(
            progress(cache, "m").unwrap().done,
            10,
            "not written again so soon"
        );
        build.report(100, 100);
        assert_eq!(
            progress(cache, "m").unwrap().done,
            100,
            "the end is always written"
        );
        drop(build);
        assert_eq!(progress(cache, "m"), None);
        assert!(Build::start(cache, "m", Duration::ZERO).unwrap().is_some());
    }
}
