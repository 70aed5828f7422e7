//! Following the store for the server's long-lived answers (the SSE event stream, MCP's
//! `GET /mcp`) without holding a thread while they wait.
//!
//! One watcher of the store's folder ([`super::changes::Changes`]) counts its changes; each open stream waits
//! on that count asynchronously, with its poll clock as a safety net (a second, or a tenth of
//! one where file events cannot be had). Only when it may have something new does a stream
//! read its logs (`Watch::poll`), on the stream threads ([`super::read_pool`], below the
//! writes' priority), and then at most [`BATCH`] events at a time: an idle stream costs a
//! timer and a few kilobytes, not one of tokio's blocking threads, so a crowd of them leaves
//! the threads to the requests that need one. Changes that land while a stream reads wake it
//! once more, not once each.

use std::time::Duration;

use tokio::sync::watch;

use super::state::AppState;
use relay_core::ops::watch::{Event, Watch};

/// How often an open stream looks whether its caller's rights may have changed (a token
/// revoked or narrowed, a session ended, a console logout).
pub const RECHECK: Duration = Duration::from_millis(200);

/// The most events one read of the logs hands a stream; the next read follows at once.
pub const BATCH: usize = 256;
/// How soon a stream looks again at a log left to settle (git writing it in steps).
const SETTLE_POLL: Duration = Duration::from_millis(50);

/// What [`Follower::step`] found.
pub enum Step {
    /// New events, in order (at most [`BATCH`]).
    Events(Vec<Event>),
    /// The time given passed with nothing new: the caller's turn (a check of its rights).
    Idle,
    /// The stream is over: the server stops, or its logs could not be read (the client
    /// reconnects with its last event's id).
    Over,
}

/// A stream's watch, followed without a thread of its own.
pub struct Follower {
    state: AppState,
    /// `None` only while a read of the logs is under way.
    watch: Option<Watch>,
    changes: watch::Receiver<u64>,
    shutdown: watch::Receiver<bool>,
    /// Whether the last read stopped at [`BATCH`] with more to come, or left a log to settle.
    more: bool,
    settling: bool,
}

impl Follower {
    pub fn new(state: &AppState, opened: Watch) -> Follower {
        let mut changes = state.changes.count.subscribe();
        changes.mark_unchanged();
        Follower {
            state: state.clone(),
            watch: Some(opened),
            changes,
            shutdown: state.shutdown.clone(),
            more: true,
            settling: false,
        }
    }

    /// Waits (at most `within`) until the store may have changed, then reads what is new.
    /// Cancel-safe while it waits; a read once started runs to its end before this returns.
    pub async fn step(&mut self, within: Duration) -> Step {
        if *self.shutdown.borrow() {
            return Step::Over;
        }
        if !self.more {
            let clock = if self.settling {
                SETTLE_POLL
            } else {
                self.state.changes.poll
            };
            let (changes, shutdown) = (&mut self.changes, &mut self.shutdown);
            tokio::select! {
                _ = changes.changed() => {}
                _ = shutdown.changed() => return Step::Over,
                () = tokio::time::sleep(clock.min(within)) => {
                    if within <= clock {
                        return Step::Idle;
                    }
                }
            }
        }
        self.changes.mark_unchanged();
        let Some(mut watch) = self.watch.take() else {
            return Step::Over;
        };
        let state = self.state.clone();
        let read = self.state.streams.run(move || {
            let mut events = Vec::new();
            let done = watch.poll(&state.store, &mut |e| {
                events.push(e);
                Ok(events.len() < BATCH)
            });
            let skipped = state.store.diagnostics().take();
            if !skipped.is_empty() {
                (state.warnings)(skipped);
            }
            (watch, done, events)
        });
        match read.await {
            Ok((watch, Ok(all_read), events)) => {
                self.more = !all_read;
                self.settling = watch.settling;
                self.watch = Some(watch);
                if events.is_empty() {
                    Step::Idle
                } else {
                    Step::Events(events)
                }
            }
            _ => Step::Over,
        }
    }
}
