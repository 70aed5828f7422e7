//! Watching a store: every record appended to the logs in scope, as an [`Event`] that carries
//! the cursor after it, in a stable order (the order of [`Store::watched_logs`], then of the
//! lines). One implementation serves `relay watch`, the MCP `watch` tool and the HTTP event
//! stream, so each gives the same envelopes and accepts the others' cursors. A log rewritten
//! under the reader yields a `resync` event before what follows it.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::store::Store;
use crate::store::tail::{
    Change, Cursor, LogKind, LogTail, Position, Rewrite, Start, WatchedLog, end_position,
};
use crate::store::wake::Wake;

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
    /// A log was rewritten under the reader; what follows continues from a safe point.
    Resync,
}

impl EventKind {
    /// The kinds a watch can be asked for (`resync` always comes).
    pub const RECORDS: [EventKind; 5] = [
        EventKind::Package,
        EventKind::Transition,
        EventKind::Fact,
        EventKind::Session,
        EventKind::Project,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Package => "package",
            EventKind::Transition => "transition",
            EventKind::Fact => "fact",
            EventKind::Session => "session",
            EventKind::Project => "project",
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
                        "unknown event kind `{name}`: use package, transition, fact, session or project"
                    ))
                })
            })
            .collect()
    }

    fn log_kind(self) -> Option<LogKind> {
        match self {
            EventKind::Package | EventKind::Transition => Some(LogKind::Packages),
            EventKind::Fact => Some(LogKind::Facts),
            EventKind::Session => Some(LogKind::Sessions),
            EventKind::Project => Some(LogKind::Projects),
            EventKind::Resync => None,
        }
    }
}

/// One event: `{"cursor", "kind", "project_id", "record"}`. `record` is the line as stored:
/// the package envelope (`{"package", "hash"}`, with `version` and `transition` for a
/// transition), or the fact, session or project; for a resync, `{"log", "reason", "replay"}`.
#[derive(Debug, Clone, Serialize)]
pub struct Event {
    pub cursor: String,
    pub kind: EventKind,
    pub project_id: Option<String>,
    pub record: Value,
}

/// Which records a watch reports.
#[derive(Debug, Clone)]
pub struct Scope {
    /// `None`: every project, including those made while watching.
    pub projects: Option<Vec<String>>,
    /// Empty: every kind.
    pub kinds: Vec<EventKind>,
}

impl Scope {
    fn wants(&self, kind: EventKind) -> bool {
        self.kinds.is_empty() || self.kinds.contains(&kind)
    }

    fn log_kinds(&self) -> Vec<LogKind> {
        let mut kinds: Vec<LogKind> = EventKind::RECORDS
            .into_iter()
            .filter(|k| self.wants(*k))
            .filter_map(EventKind::log_kind)
            .collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }
}

/// Where a watch starts.
#[derive(Debug, Clone)]
pub enum Since {
    /// After everything there now.
    Now,
    /// Every record there is.
    Beginning,
    /// After the records a cursor had seen.
    Cursor(Cursor),
}

impl Since {
    /// `now`, `beginning`, or a cursor's text.
    pub fn parse(text: &str) -> Result<Since> {
        match text {
            "now" => Ok(Since::Now),
            "beginning" => Ok(Since::Beginning),
            other => Cursor::decode(other).map(Since::Cursor),
        }
    }
}

/// A watch in progress: a tail per log in scope and the cursor of what it has read.
pub struct Watch {
    scope: Scope,
    since: Since,
    tails: Vec<LogTail>,
    cursor: Cursor,
    /// Whether a log changed so recently that it is left to settle: poll again soon.
    pub settling: bool,
}

impl Watch {
    /// Opens every log in scope at `since`. Lines before the start are read once, so that
    /// a later rewrite gives only what was not seen.
    pub fn open(store: &Store, scope: Scope, since: Since) -> Result<Watch> {
        if let Some(projects) = &scope.projects {
            for id in projects {
                if store.project(id)?.is_none() && !store.layout().project_dir(id).is_dir() {
                    return Err(Error::ProjectNotFound(id.clone()));
                }
            }
        }
        let mut watch = Watch {
            cursor: match &since {
                Since::Cursor(c) => c.clone(),
                _ => Cursor::default(),
            },
            scope,
            since,
            tails: Vec::new(),
            settling: false,
        };
        watch.discover(store, true)?;
        Ok(watch)
    }

    /// The cursor after everything read so far.
    pub fn cursor(&self) -> String {
        self.cursor.encode()
    }

    /// Adds a tail for each log in scope that has none yet. At open, a log starts where
    /// `since` says; a log that appears later is new, so it is read from its start. A log
    /// outside the scope is not read, but the cursor records its end, so that a cursor means
    /// the same point in every log whatever the scope that took it.
    fn discover(&mut self, store: &Store, opening: bool) -> Result<()> {
        let kinds = self.scope.log_kinds();
        for log in store.watched_logs(None, &LogKind::ALL)? {
            let in_scope = kinds.contains(&log.kind)
                && match (&self.scope.projects, &log.project_id) {
                    (Some(ids), Some(p)) => ids.contains(p),
                    _ => true,
                };
            if !in_scope {
                self.cursor.set(&log.name, end_position(&log.path)?);
                continue;
            }
            if self.tails.iter().any(|t| t.log.name == log.name) {
                continue;
            }
            let start = match (&self.since, opening) {
                (Since::Cursor(c), _) => c.get(&log.name).map_or(Start::Beginning, Start::At),
                (Since::Now, true) => Start::End,
                _ => Start::Beginning,
            };
            let tail = LogTail::open(log, start)?;
            self.cursor.set(&tail.log.name, tail.position());
            self.tails.push(tail);
        }
        Ok(())
    }

    /// Reads everything new in every log, handing each event to `emit`, which returns whether
    /// to go on. Returns false when `emit` stopped.
    pub fn poll(
        &mut self,
        store: &Store,
        emit: &mut dyn FnMut(Event) -> Result<bool>,
    ) -> Result<bool> {
        self.discover(store, false)?;
        self.settling = false;
        let scope = &self.scope;
        let cursor = &mut self.cursor;
        for tail in &mut self.tails {
            let log = tail.log.clone();
            let mut go_on = true;
            tail.advance(&mut |change| {
                let event = match change {
                    Change::Rewrite(why) => {
                        cursor.set(&log.name, Position::default());
                        Event {
                            cursor: cursor.encode(),
                            kind: EventKind::Resync,
                            project_id: log.project_id.clone(),
                            record: json!({
                                "log": log.name,
                                "reason": why.as_str(),
                                "replay": if why == Rewrite::Unknown { "whole_log" } else { "unseen_lines" },
                            }),
                        }
                    }
                    Change::Line(at, line) => {
                        cursor.set(&log.name, at);
                        let Some((kind, project_id, record)) = classify(&log, line) else {
                            return Ok(true);
                        };
                        let outside = matches!((&scope.projects, &project_id),
                            (Some(ids), Some(p)) if !ids.contains(p));
                        if !scope.wants(kind) || outside {
                            return Ok(true);
                        }
                        Event {
                            cursor: cursor.encode(),
                            kind,
                            project_id,
                            record,
                        }
                    }
                };
                go_on = emit(event)?;
                Ok(go_on)
            })?;
            if !go_on {
                return Ok(false);
            }
            self.settling |= tail.settling;
            cursor.set(&log.name, tail.position());
        }
        Ok(true)
    }
}

/// What a stored line reports, or `None` for a line that is not a record (damaged, or of a
/// kind this relay does not know; `verify` reports those).
fn classify(log: &WatchedLog, line: &[u8]) -> Option<(EventKind, Option<String>, Value)> {
    let record: Value = serde_json::from_slice(line).ok()?;
    let obj = record.as_object()?;
    let (kind, project_id) = match log.kind {
        LogKind::Packages => {
            let package = obj.get("package")?.as_object()?;
            let kind = match obj.get("version").and_then(Value::as_u64) {
                Some(v) if v > 1 => EventKind::Transition,
                _ => EventKind::Package,
            };
            let project = package.get("project_id").and_then(Value::as_str);
            (kind, project.map(str::to_string).or(log.project_id.clone()))
        }
        LogKind::Facts => (EventKind::Fact, log.project_id.clone()),
        LogKind::Sessions => (EventKind::Session, log.project_id.clone()),
        LogKind::Projects => (
            EventKind::Project,
            obj.get("project_id")
                .and_then(Value::as_str)
                .map(str::to_string),
        ),
    };
    Some((kind, project_id, record))
}

/// When a [`follow`] ends.
#[derive(Debug, Clone, Copy, Default)]
pub struct Until {
    /// After the records there are now.
    pub once: bool,
    /// After this long with no event.
    pub idle: Option<Duration>,
}

/// Follows `watch` until `until` says so, `emit` stops, or `stop` returns true (asked each
/// time the watch wakes, at least once a second).
pub fn follow(
    store: &Store,
    watch: &mut Watch,
    until: Until,
    stop: &mut dyn FnMut() -> bool,
    emit: &mut dyn FnMut(Event) -> Result<bool>,
) -> Result<()> {
    let wake = Wake::new(store);
    let mut last_event = Instant::now();
    loop {
        let mut any = false;
        let go_on = watch.poll(store, &mut |event| {
            any = true;
            emit(event)
        })?;
        if !go_on || until.once || stop() {
            return Ok(());
        }
        if any {
            last_event = Instant::now();
        }
        let mut limit = if watch.settling {
            Duration::from_millis(50)
        } else {
            Duration::from_secs(1)
        };
        if let Some(idle) = until.idle {
            let waited = last_event.elapsed();
            if waited >= idle {
                return Ok(());
            }
            limit = limit.min(idle - waited);
        }
        wake.wait(limit);
    }
}

/// At most `limit` events after `since`, waiting up to `wait` for the first (a long poll;
/// zero answers at once), and the cursor to ask from next time: after the last event given
/// when the limit cut the list short, else after everything read.
pub fn collect(
    store: &Store,
    scope: Scope,
    since: Since,
    limit: usize,
    wait: Duration,
) -> Result<(Vec<Event>, String)> {
    let mut w = Watch::open(store, scope, since)?;
    let mut events: Vec<Event> = Vec::new();
    let until = Until {
        once: wait.is_zero(),
        idle: Some(wait),
    };
    let got_some = std::cell::Cell::new(false);
    follow(store, &mut w, until, &mut || got_some.get(), &mut |e| {
        events.push(e);
        got_some.set(true);
        Ok(events.len() < limit)
    })?;
    let cursor = match events.last() {
        Some(last) if events.len() >= limit => last.cursor.clone(),
        _ => w.cursor(),
    };
    Ok((events, cursor))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{facts, projects};

    fn demo() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let store = Store::open(root).unwrap();
        projects::create(&store, "demo", None, None).unwrap();
        projects::create(&store, "other", None, None).unwrap();
        (dir, store)
    }

    fn assert(store: &Store, project: &str, subject: &str) {
        let req = facts::AssertRequest {
            subject: subject.into(),
            predicate: "is".into(),
            value: "1".into(),
            source_package_id: None,
            confidence: None,
            tags: Vec::new(),
            valid_from: None,
            asserted_by: serde_json::json!({"id": "me", "type": "human"}),
            actor_explicit: true,
            expires_at: None,
        };
        facts::assert(store, project, &req).unwrap();
    }

    fn drain(store: &Store, w: &mut Watch) -> Vec<Event> {
        let mut got = Vec::new();
        w.poll(store, &mut |e| {
            got.push(e);
            Ok(true)
        })
        .unwrap();
        got
    }

    #[test]
    fn collect_stops_at_its_limit_and_its_cursor_goes_on_from_there() {
        let (_dir, store) = demo();
        let all = || Scope {
            projects: None,
            kinds: vec![EventKind::Fact],
        };
        let (none, start) = collect(&store, all(), Since::Now, 10, Duration::ZERO).unwrap();
        assert!(none.is_empty());
        for subject in ["a", "b", "c"] {
            assert(&store, "demo", subject);
        }
        let since = || Since::parse(&start).unwrap();
        let (two, cursor) = collect(&store, all(), since(), 2, Duration::ZERO).unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(cursor, two[1].cursor);
        let (rest, end) = collect(
            &store,
            all(),
            Since::parse(&cursor).unwrap(),
            10,
            Duration::ZERO,
        )
        .unwrap();
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].record["subject"], "c");
        assert_eq!(end, rest[0].cursor);
        // A long poll with nothing new waits, then answers empty.
        let (later, _) = collect(
            &store,
            all(),
            Since::parse(&end).unwrap(),
            10,
            Duration::from_millis(20),
        )
        .unwrap();
        assert!(later.is_empty());
    }

    #[test]
    fn kinds_parse_from_a_list_and_name_what_is_wrong() {
        assert_eq!(
            EventKind::parse_list("package, fact,").unwrap(),
            [EventKind::Package, EventKind::Fact]
        );
        let err = EventKind::parse_list("package,resync").unwrap_err();
        assert!(err.to_string().contains("`resync`"), "{err}");
        assert!(matches!(Since::parse("now"), Ok(Since::Now)));
        assert!(Since::parse("tomorrow").is_err());
    }

    #[test]
    fn a_watch_gives_its_scope_and_its_cursor_covers_every_log() {
        let (_dir, store) = demo();
        let scope = Scope {
            projects: Some(vec!["demo".into()]),
            kinds: vec![EventKind::Fact],
        };
        let mut w = Watch::open(&store, scope, Since::Now).unwrap();
        assert(&store, "other", "x");
        assert(&store, "demo", "y");
        let got = drain(&store, &mut w);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].kind, EventKind::Fact);
        assert_eq!(got[0].record["subject"], "y");
        // Resumed with every kind and project, the cursor still means "after this".
        let all = Scope {
            projects: None,
            kinds: Vec::new(),
        };
        let since = Since::parse(&w.cursor()).unwrap();
        let mut again = Watch::open(&store, all, since).unwrap();
        assert!(drain(&store, &mut again).is_empty());
        assert(&store, "other", "z");
        let got = drain(&store, &mut again);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].project_id.as_deref(), Some("other"));
    }
}
