//! watch's request: what was added to the store after a cursor, of which kinds, in which
//! projects, how many at most and how long to wait for a first event (a long poll). The CLI
//! follows until interrupted and HTTP streams Server-Sent Events; both start from the same
//! `since` and `kinds`.

use std::time::Duration;

use serde::Deserialize;

use relay_wire::error::{Error, Result};
use serde::Serialize;

/// Where a watch starts unless asked otherwise: after everything there now.
pub const DEFAULT_SINCE: &str = "now";

/// The most events one answer holds unless asked otherwise.
pub const DEFAULT_WATCH_LIMIT: usize = 100;

/// The most events one answer may be asked to hold.
pub const MAX_WATCH_LIMIT: usize = 1000;

/// The longest a call may wait for a first event, in milliseconds.
pub const MAX_WAIT_MS: u64 = 30_000;

/// What a watch is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WatchRequest {
    /// A cursor from an earlier call, `now` (default) or `beginning`
    #[serde(default = "default_since")]
    pub since: String,
    /// Kinds to report, comma-separated: package, transition, fact, session, project,
    /// retracted, expired (default: all)
    #[serde(alias = "kind")]
    pub kinds: Option<String>,
    /// Every project, not only the selected one
    #[serde(default)]
    pub all_projects: bool,
    /// The most events to return (default 100); the cursor then points after the last one
    #[serde(default = "default_limit", deserialize_with = "super::number::whole")]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: usize,
    /// Wait up to this many milliseconds for a first event (default 0: answer at once)
    #[serde(default)]
    #[schemars(range(min = 0, max = 30000))]
    pub wait_ms: u64,
}

fn default_since() -> String {
    DEFAULT_SINCE.to_string()
}

fn default_limit() -> usize {
    DEFAULT_WATCH_LIMIT
}

impl Default for WatchRequest {
    fn default() -> Self {
        WatchRequest {
            since: default_since(),
            kinds: None,
            all_projects: false,
            limit: DEFAULT_WATCH_LIMIT,
            wait_ms: 0,
        }
    }
}

impl WatchRequest {
    /// Refuses a limit outside 1–[`MAX_WATCH_LIMIT`], a wait over [`MAX_WAIT_MS`] and an
    /// unknown kind (a cursor is read where the watch starts: `ops::watch`).
    pub fn validate(&self) -> Result<()> {
        if !(1..=MAX_WATCH_LIMIT).contains(&self.limit) {
            return Err(Error::InvalidInput(format!(
                "limit {} is not from 1 to {MAX_WATCH_LIMIT}",
                self.limit
            )));
        }
        if self.wait_ms > MAX_WAIT_MS {
            return Err(Error::InvalidInput(format!(
                "wait_ms {} is over {MAX_WAIT_MS}",
                self.wait_ms
            )));
        }
        self.kinds().map(drop)
    }

    /// The kinds asked for; empty for every kind.
    pub fn kinds(&self) -> Result<Vec<EventKind>> {
        EventKind::parse_list(self.kinds.as_deref().unwrap_or_default())
    }

    /// How long to wait for a first event.
    pub fn wait(&self) -> Duration {
        Duration::from_millis(self.wait_ms)
    }
}

/// What an event reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A package's first version (a deposit or an import).
    Package,
    /// A later version of a package: a review transition.
    Transition,
    /// A version of a fact (an assert appends the closed previous version and the new one).
    Fact,
    /// A version of a session.
    Session,
    /// A version of a project record.
    Project,
    /// A package or fact that reads hide because it was retracted (or, for a fact, its
    /// source package was), in place of its line; or a retraction appended.
    Retracted,
    /// A package or fact that reads hide because its expiry has passed, in place of its line.
    Expired,
    /// A log was rewritten under the reader; what follows continues from a safe point.
    Resync,
}

impl EventKind {
    /// The kinds a watch can be asked for (`resync` always comes).
    pub const RECORDS: [EventKind; 7] = [
        EventKind::Package,
        EventKind::Transition,
        EventKind::Fact,
        EventKind::Session,
        EventKind::Project,
        EventKind::Retracted,
        EventKind::Expired,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Package => "package",
            EventKind::Transition => "transition",
            EventKind::Fact => "fact",
            EventKind::Session => "session",
            EventKind::Project => "project",
            EventKind::Retracted => "retracted",
            EventKind::Expired => "expired",
            EventKind::Resync => "resync",
        }
    }

    pub fn parse(text: &str) -> Option<EventKind> {
        Self::RECORDS.into_iter().find(|k| k.as_str() == text)
    }

    /// Parses a comma-separated list (`package,fact`); an unknown name is `invalid_input`.
    pub fn parse_list(text: &str) -> Result<Vec<EventKind>> {
        text.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|name| {
                EventKind::parse(name).ok_or_else(|| {
                    Error::InvalidInput(format!(
                        "unknown event kind `{name}`: use package, transition, fact, session, \
                         project, retracted or expired"
                    ))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_defaults_are_the_named_constants() {
        let r: WatchRequest = serde_json::from_value(json!({})).unwrap();
        assert_eq!(r, WatchRequest::default());
        assert_eq!(
            (r.since.as_str(), r.limit),
            (DEFAULT_SINCE, DEFAULT_WATCH_LIMIT)
        );
        assert!(r.kinds().unwrap().is_empty());
    }

    #[test]
    fn bounds_kinds_and_cursors_are_checked() {
        let with = |v: serde_json::Value| -> WatchRequest { serde_json::from_value(v).unwrap() };
        assert!(with(json!({"limit": 0})).validate().is_err());
        assert!(with(json!({"limit": 1001})).validate().is_err());
        assert!(with(json!({"wait_ms": 30001})).validate().is_err());
        assert!(with(json!({"kinds": "package,gossip"})).validate().is_err());
        let r = with(json!({"kind": "package,fact", "since": "beginning"}));
        assert_eq!(r.kinds().unwrap().len(), 2);
        assert!(r.validate().is_ok());
    }
}
