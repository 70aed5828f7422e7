//! The threads that answer reads, at a lower CPU priority than the rest of the server.
//!
//! A deposit holds its project's lock while it checks and appends, and every other writer
//! of the project waits for it. When reads (a search of a common word takes a hundred
//! milliseconds of CPU) share the cores with it on equal terms, the lock is held two or
//! three times as long, and the writers' queue grows with it. Reads therefore run on
//! threads of their own at the lower priority of [`relay_store::priority`]: a write that
//! competes with them for a core gets most of it, and reads still get the CPU that writes
//! leave.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

type Job = Box<dyn FnOnce() + Send>;

/// A fixed set of read threads taking jobs in turn.
pub struct ReadPool {
    /// Where jobs are sent; `None` once the pool is stopped.
    jobs: Mutex<Option<Sender<Job>>>,
    threads: Mutex<Vec<std::thread::JoinHandle<()>>>,
}

/// The panic of a job, as its payload.
pub type Panicked = Box<dyn std::any::Any + Send>;

impl ReadPool {
    /// Starts `threads` read threads. Where the priority cannot be lowered, they run at
    /// the server's.
    pub fn start(threads: usize) -> std::io::Result<ReadPool> {
        ReadPool::start_named(threads, "relay-read")
    }

    /// [`ReadPool::start`], its threads named `name`.
    pub fn start_named(threads: usize, name: &str) -> std::io::Result<ReadPool> {
        let (jobs, queue) = channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let mut handles = Vec::new();
        for _ in 0..threads.max(1) {
            let queue = queue.clone();
            handles.push(
                std::thread::Builder::new()
                    .name(name.into())
                    .spawn(move || {
                        relay_store::priority::lower_this_thread();
                        while let Some(job) = next(&queue) {
                            job();
                        }
                    })?,
            );
        }
        Ok(ReadPool {
            jobs: Mutex::new(Some(jobs)),
            threads: Mutex::new(handles),
        })
    }

    /// Takes no more reads, and returns once the reads sent before have run (those whose
    /// client left are skipped): what a server does before it exits.
    pub fn stop(&self) {
        (self.jobs.lock().unwrap_or_else(|e| e.into_inner())).take();
        let threads = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        for t in threads {
            let _ = t.join();
        }
    }

    /// Runs `op` on a read thread; its result, or its panic.
    pub async fn run<T: Send + 'static>(
        &self,
        op: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Panicked> {
        let (done, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // A read whose client left (a time limit, a closed connection) is not run.
            if !done.is_closed() {
                let _ = done.send(std::panic::catch_unwind(AssertUnwindSafe(op)));
            }
        });
        let sent = match &*self.jobs.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(jobs) => jobs.send(job).is_ok(),
            None => false,
        };
        if !sent {
            return Err(Box::new("the server is stopping"));
        }
        answer
            .await
            .unwrap_or_else(|_| Err(Box::new("a read thread ended")))
    }
}

/// The next job, or `None` once the pool is dropped.
fn next(queue: &Mutex<Receiver<Job>>) -> Option<Job> {
    queue.lock().unwrap_or_else(|e| e.into_inner()).recv().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block_on<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_read_runs_on_a_thread_of_lower_priority_and_a_panic_is_an_error() {
        let pool = ReadPool::start(2).unwrap();
        let (mine, theirs) = block_on(async {
            // SAFETY: getpriority takes plain integers; `who` 0 is the calling thread.
            let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
            let theirs =
                pool.run(move || (nice(), std::thread::current().name().map(String::from)));
            (nice(), theirs.await.unwrap())
        });
        assert_eq!(theirs.1.as_deref(), Some("relay-read"));
        // At the top of the range a thread cannot go lower; elsewhere it is LOWER_BY lower.
        assert_eq!(theirs.0, (mine + relay_store::priority::LOWER_BY).min(19));
        let failed = block_on(pool.run(|| -> u32 { panic!("a bug") }));
        assert_eq!(failed.unwrap_err().downcast_ref::<&str>(), Some(&"a bug"));
        // The pool lives on after a panic.
        assert_eq!(block_on(pool.run(|| 7)).unwrap(), 7);
    }

    #[test]
    fn reads_beyond_the_threads_wait_their_turn_and_all_answer() {
        let pool = Arc::new(ReadPool::start(2).unwrap());
        let answers = block_on(async {
            let runs = (0..20u64).map(|i| {
                let pool = pool.clone();
                async move { pool.run(move || i * i).await.unwrap() }
            });
            futures_util::future::join_all(runs).await
        });
        assert_eq!(answers, (0..20u64).map(|i| i * i).collect::<Vec<_>>());
        // Stopped, it runs what it was sent and takes nothing more.
        pool.stop();
        assert!(block_on(pool.run(|| 1)).is_err());
    }
}
