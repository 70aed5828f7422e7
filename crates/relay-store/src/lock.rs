//! Exclusive writer locks: one lock file per project under `local/`, taken with std's
//! `File::lock` family and released when the guard drops (or the process dies).

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use relay_wire::error::{Error, Result};

/// Holds an exclusive lock until dropped.
#[derive(Debug)]
pub struct LockGuard {
    file: File,
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Takes the exclusive lock on `path`, waiting at most `timeout`.
pub fn acquire(path: &Path, timeout: Duration) -> Result<LockGuard> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| Error::io(format!("cannot open lock file {}", path.display()), e))?;
    let start = Instant::now();
    let mut pause = Duration::from_micros(200);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(LockGuard { file }),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => {
                return Err(Error::io(format!("cannot lock {}", path.display()), e));
            }
        }
        if start.elapsed() >= timeout {
            return Err(Error::LockTimeout {
                path: PathBuf::from(path),
                waited_ms: start.elapsed().as_millis() as u64,
            });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_times_out_and_frees_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locks/p.lock");
        let held = acquire(&path, Duration::from_secs(1)).unwrap();
        let err = acquire(&path, Duration::from_millis(30)).unwrap_err();
        assert_eq!(err.code(), "lock_timeout");
        drop(held);
        assert!(acquire(&path, Duration::from_millis(30)).is_ok());
    }
}
