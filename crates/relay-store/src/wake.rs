//! Waking a watch when the store's logs change: file events from the operating system (the
//! `notify` crate: inotify, FSEvents, ReadDirectoryChangesW) where it offers them, and a poll
//! on a short clock where it does not, so a deposit by another process is seen within a
//! fraction of a second either way. Changes under `cache/` and `local/` (indexes, locks) do
//! not wake anyone, except in the clone's queue (`local/pending/`), where hooks write records.

use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};

use super::Store;

/// How often a watch looks at its logs when file events do work: a safety net for events the
/// operating system drops (a full queue, a network file system).
pub const SAFETY_POLL: Duration = Duration::from_secs(1);
/// How often it looks when they do not.
pub const FALLBACK_POLL: Duration = Duration::from_millis(100);

/// Tells a watch when to look at its logs again.
pub struct Wake {
    rx: Option<Receiver<()>>,
    // Kept alive for as long as the events are wanted.
    _events: Option<StoreEvents>,
    /// Why file events are not used, when they are not.
    pub fallback_reason: Option<String>,
}

/// The operating system's file events for a store's folder, handed to a callback: what a
/// [`Wake`] waits on, and what a server fans out to every stream it holds. Events under
/// `cache/` and `local/` (but for the queue, `local/pending/`) and mere reads are not passed
/// on. Dropped, it stops.
pub struct StoreEvents {
    _watcher: RecommendedWatcher,
}

impl StoreEvents {
    /// Calls `changed` (on the watcher's own thread) whenever something in the store's folder
    /// may have changed; the error says why file events cannot be had here.
    pub fn new(
        store: &Store,
        changed: impl Fn() + Send + 'static,
    ) -> Result<StoreEvents, notify::Error> {
        let root = store.root().to_path_buf();
        let ignored = [store.layout().cache_dir(), store.layout().local_dir()];
        let queue = store.layout().pending_dir();
        let handler = move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else {
                // An error from the watcher (e.g. a dropped queue): look anyway.
                changed();
                return;
            };
            if matches!(event.kind, EventKind::Access(_)) {
                return;
            }
            if event
                .paths
                .iter()
                .all(|p| ignored.iter().any(|dir| p.starts_with(dir)) && !p.starts_with(&queue))
                && !event.paths.is_empty()
            {
                return;
            }
            changed();
        };
        let mut watcher = notify::recommended_watcher(handler)?;
        watcher.watch(&root, RecursiveMode::Recursive)?;
        Ok(StoreEvents { _watcher: watcher })
    }
}

impl Wake {
    /// File events for the store's folder, or polling when they cannot be had (or when
    /// `poll`: `RELAY_WATCH_POLL=1` asks for polling).
    pub fn new(store: &Store, poll: bool) -> Wake {
        if poll {
            return Wake::polling("RELAY_WATCH_POLL=1 asks for polling".into());
        }
        let (tx, rx) = channel();
        match StoreEvents::new(store, move || {
            let _ = tx.send(());
        }) {
            Ok(events) => Wake {
                rx: Some(rx),
                _events: Some(events),
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
            _events: None,
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
