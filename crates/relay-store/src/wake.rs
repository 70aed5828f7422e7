//! Waking a watch when the store's logs change: file events from the operating system (the
//! `notify` crate: inotify, FSEvents, ReadDirectoryChangesW) where it offers them, and a poll
//! on a short clock where it does not, so a deposit by another process is seen within a
//! fraction of a second either way. Changes under `cache/` and `local/` (indexes, locks) do
//! not wake anyone.

use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};

use super::Store;

/// How often a watch looks at its logs when file events do work: a safety net for events the
/// operating system drops (a full queue, a network file system).
const SAFETY_POLL: Duration = Duration::from_secs(1);
/// How often it looks when they do not.
const FALLBACK_POLL: Duration = Duration::from_millis(100);

/// Tells a watch when to look at its logs again.
pub struct Wake {
    rx: Option<Receiver<()>>,
    // Kept alive for as long as the events are wanted.
    _watcher: Option<RecommendedWatcher>,
    /// Why file events are not used, when they are not.
    pub fallback_reason: Option<String>,
}

impl Wake {
    /// File events for the store's folder, or polling when they cannot be had (or when
    /// `poll`: `RELAY_WATCH_POLL=1` asks for polling).
    pub fn new(store: &Store, poll: bool) -> Wake {
        if poll {
            return Wake::polling("RELAY_WATCH_POLL=1 asks for polling".into());
        }
        let root = store.root().to_path_buf();
        let ignored = [store.layout().cache_dir(), store.layout().local_dir()];
        let (tx, rx) = channel();
        let handler = move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else {
                // An error from the watcher (e.g. a dropped queue): look anyway.
                let _ = tx.send(());
                return;
            };
            if matches!(event.kind, EventKind::Access(_)) {
                return;
            }
            if event
                .paths
                .iter()
                .all(|p| ignored.iter().any(|dir| p.starts_with(dir)))
                && !event.paths.is_empty()
            {
                return;
            }
            let _ = tx.send(());
        };
        let made = notify::recommended_watcher(handler)
            .and_then(|mut w| w.watch(&root, RecursiveMode::Recursive).map(|_| w));
        match made {
            Ok(watcher) => Wake {
                rx: Some(rx),
                _watcher: Some(watcher),
                fallback_reason: None,
            },
            Err(e) => Wake::polling(format!(
                "file events are not available here ({e}); polling every {} ms",
                FALLBACK_POLL.as_millis()
            )),
        }
    }

    fn polling(reason: String) -> Wake {
        Wake {
            rx: None,
            _watcher: None,
            fallback_reason: Some(reason),
        }
    }

    /// Waits until something may have changed or `limit` passes (whichever is first, and
    /// never longer than the poll interval). Events that arrived together wake it once.
    pub fn wait(&self, limit: Duration) {
        match &self.rx {
            Some(rx) => match rx.recv_timeout(limit.min(SAFETY_POLL)) {
                Ok(()) => while rx.try_recv().is_ok() {},
                Err(RecvTimeoutError::Timeout) => {}
                // The watcher's thread is gone: poll.
                Err(RecvTimeoutError::Disconnected) => std::thread::sleep(limit.min(FALLBACK_POLL)),
            },
            None => std::thread::sleep(limit.min(FALLBACK_POLL)),
        }
    }
}
