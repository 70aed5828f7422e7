//! The store's changes, counted once for the whole server: one watcher of the store's folder
//! (the operating system's file events) moves a count that every open stream waits on
//! ([`super::follow`]), so a thousand streams cost one watcher, not a thousand.

use std::time::Duration;

use tokio::sync::watch;

use relay_store::{FALLBACK_POLL, SAFETY_POLL, Store, StoreEvents};

/// The store's changes, counted: each open stream waits for the count to move.
pub struct Changes {
    pub(crate) count: watch::Sender<u64>,
    events: Option<StoreEvents>,
    /// How often a stream looks without being woken: a safety net where file events work,
    /// the only clock where they do not.
    pub(crate) poll: Duration,
}

impl Changes {
    /// Counts the changes of `store`'s folder from file events; or none, when `poll` asks for
    /// polling or the system offers none (each stream then looks on [`FALLBACK_POLL`]).
    pub fn start(store: &Store, poll: bool) -> Changes {
        let (count, _) = watch::channel(0u64);
        let events = if poll {
            None
        } else {
            let counter = count.clone();
            StoreEvents::new(store, move || {
                counter.send_modify(|n| *n = n.wrapping_add(1))
            })
            .ok()
        };
        Changes {
            poll: if events.is_some() {
                SAFETY_POLL
            } else {
                FALLBACK_POLL
            },
            count,
            events,
        }
    }
}

impl Changes {
    /// How many changes were counted so far; `None` where they are not counted (no file
    /// events), so that nothing may be kept on the strength of the count.
    pub fn counted(&self) -> Option<u64> {
        self.events.as_ref().map(|_| *self.count.borrow())
    }
}
