//! Exclusive writer locks: one lock file per project under `local/`, taken with std's
//! `File::lock` family and released when the guard drops (or the process dies). Within one
//! process (`relay serve`, with many requests writing at once) the writers of a lock take
//! turns in the order they asked ([`Turns`]), and only the one whose turn it is waits on the
//! lock file: polling the file, a writer that had waited long slept longest, and a newcomer
//! took the lock before it again and again.

use std::collections::{BTreeSet, HashMap};
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use relay_wire::error::{Error, Result};

/// Holds an exclusive lock until dropped.
#[derive(Debug)]
pub struct LockGuard {
    file: File,
    /// Held for its drop: the next writer of this process goes on.
    _turn: Turn,
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        let _ = self.file.unlock();
        // (`_turn` drops after: the next writer of this process goes on)
    }
}

/// The turns of this process's writers of one lock file: tickets served in order.
#[derive(Debug, Default)]
struct Turns {
    queue: Mutex<Queue>,
    served: Condvar,
}

#[derive(Debug, Default)]
struct Queue {
    next: u64,
    serving: u64,
    /// Tickets whose writers gave up waiting: skipped when their turn comes.
    abandoned: BTreeSet<u64>,
}

impl Queue {
    fn advance(&mut self) {
        self.serving += 1;
        while self.abandoned.remove(&self.serving) {
            self.serving += 1;
        }
    }
}

/// One writer's turn at a lock file, until dropped.
#[derive(Debug)]
struct Turn(Arc<Turns>);

impl Drop for Turn {
    fn drop(&mut self) {
        lock_queue(&self.0.queue).advance();
        self.0.served.notify_all();
    }
}

fn lock_queue(queue: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    queue
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The turns at the lock file `path`.
fn turns_of(path: &Path) -> Arc<Turns> {
    static ALL: Mutex<Option<HashMap<PathBuf, Arc<Turns>>>> = Mutex::new(None);
    let mut all = ALL.lock().unwrap_or_else(|p| p.into_inner());
    let map = all.get_or_insert_with(HashMap::new);
    map.entry(path.to_path_buf()).or_default().clone()
}

/// Waits (until `deadline`) for this process's turn at the lock file `path`; `None` when the
/// time ran out first.
fn wait_turn(path: &Path, deadline: Instant) -> Option<Turn> {
    let turns = turns_of(path);
    let mut queue = lock_queue(&turns.queue);
    let ticket = queue.next;
    queue.next += 1;
    while queue.serving != ticket {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            queue.abandoned.insert(ticket);
            return None;
        }
        queue =
            (turns.served.wait_timeout(queue, left)).map_or_else(|p| p.into_inner().0, |(q, _)| q);
    }
    drop(queue);
    Some(Turn(turns))
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
    let timed_out = || Error::LockTimeout {
        path: PathBuf::from(path),
        waited_ms: start.elapsed().as_millis() as u64,
    };
    let turn = wait_turn(path, start + timeout).ok_or_else(timed_out)?;
    let mut pause = Duration::from_micros(200);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(LockGuard { file, _turn: turn }),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => {
                return Err(Error::io(format!("cannot lock {}", path.display()), e));
            }
        }
        if start.elapsed() >= timeout {
            return Err(timed_out());
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

    #[test]
    fn the_writers_of_a_process_take_turns_in_the_order_they_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locks/p.lock");
        let held = acquire(&path, Duration::from_secs(5)).unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut waiting = Vec::new();
        for n in 0..4 {
            let (mine, order) = (path.clone(), order.clone());
            waiting.push(std::thread::spawn(move || {
                let _guard = acquire(&mine, Duration::from_secs(5)).unwrap();
                order.lock().unwrap().push(n);
            }));
            // The next one asks after this one is in the queue.
            while lock_queue(&turns_of(&path).queue).next < n + 2 {
                std::thread::yield_now();
            }
        }
        // One who gives up leaves no hole in the queue.
        let err = acquire(&path, Duration::from_millis(20)).unwrap_err();
        assert_eq!(err.code(), "lock_timeout");
        drop(held);
        for w in waiting {
            w.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3]);
        assert!(acquire(&path, Duration::from_millis(30)).is_ok());
    }
}
