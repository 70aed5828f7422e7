//! Watching a store: every record appended to the logs in scope, as an [`Event`] that carries
//! the cursor after it, in a stable order (the order of [`Store::watched_logs`], then of the
//! lines). One implementation serves `relay watch`, the MCP `watch` tool and the HTTP event
//! stream, so each gives the same envelopes and accepts the others' cursors. A log rewritten
//! under the reader yields a `resync` event before what follows it.
//!
//! Forgotten stays forgotten: a record that reads hide when its line is read (retracted,
//! asserted from a retracted package, expired) comes as a `retracted` or `expired` event that
//! names it and says why, never with its content; a retraction appended while watching comes
//! as a `retracted` event too. Each hidden record is reported once per watch.
//!
//! A record a hook writes into the clone's queue (`local/pending/`) is announced when it
//! enters the queue, and not again when a commit moves its line into the tracked log.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};

use crate::search::filter::{Hidden, HiddenBecause, Reveal};
use relay_store::Store;
use relay_store::Wake;
use relay_store::retractions::{RecordKind, Retraction};
use relay_store::tail::{
    Change, Cursor, LogKind, LogTail, Position, Rewrite, Start, WatchedLog, end_position, line_key,
};
use relay_wire::error::{Error, Result};
use relay_wire::expiry;

pub use crate::request::watch::EventKind;

impl EventKind {
    /// The logs whose lines give events of this kind: a package's or fact's own log and the
    /// retractions (a retraction of it comes in its place); the records that may be hidden.
    fn log_kinds(self) -> &'static [LogKind] {
        match self {
            EventKind::Package | EventKind::Transition => {
                &[LogKind::Packages, LogKind::Retractions]
            }
            EventKind::Fact => &[LogKind::Facts, LogKind::Retractions],
            EventKind::Session => &[LogKind::Sessions],
            EventKind::Project => &[LogKind::Projects],
            EventKind::Retracted => &[LogKind::Packages, LogKind::Facts, LogKind::Retractions],
            EventKind::Expired => &[LogKind::Packages, LogKind::Facts],
            EventKind::Resync => &[],
        }
    }
}

/// One event: `{"cursor", "kind", "project_id", "record"}`. `record` is the line as stored:
/// the package envelope (`{"package", "hash"}`, with `version` and `transition` for a
/// transition), or the fact, session or project; for a resync, `{"log", "reason", "replay"}`;
/// for `retracted` and `expired`, what is hidden and why, never its content: `{"record":
/// "package" | "fact", "id", "because": "retracted" | "source_retracted" | "expired",
/// "retraction": {…} | "expired_at"}` (the retraction as stored; for `source_retracted`, the
/// source package's).
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
            .flat_map(|k| k.log_kinds().iter().copied())
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

impl crate::request::watch::WatchRequest {
    /// Where the watch starts: `since` read as [`Since`] (a cursor that does not decode is
    /// `invalid_input`).
    pub fn since(&self) -> Result<Since> {
        Since::parse(&self.since)
    }
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
    /// The hidden records this watch has reported, each once.
    reported: HashSet<(RecordKind, String)>,
    /// The lines read from the queue (by [`line_key`]): when a flush moves one into its
    /// tracked log, it has been announced already.
    from_queue: HashSet<u64>,
    /// Whether a log changed so recently that it is left to settle: poll again soon.
    pub settling: bool,
}

impl Watch {
    /// Opens every log in scope at `since`. Lines before the start are read once, so that
    /// a later rewrite gives only what was not seen.
    pub fn open(store: &Store, scope: Scope, since: Since) -> Result<Watch> {
        if let Some(projects) = &scope.projects {
            for id in projects {
                if store.project(id)?.is_none() && !store.has_project_folder(id) {
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
            reported: HashSet::new(),
            from_queue: HashSet::new(),
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
            // Records a flush moved from the queue since the cursor read them there.
            if let (Since::Cursor(c), true, LogKind::Packages, false) =
                (&self.since, opening, log.kind, log.queued)
            {
                self.from_queue.extend(store.moved_lines(&log, c)?);
            }
            let start = match (&self.since, opening) {
                (Since::Cursor(c), _) => c.get(&log.name).map_or(Start::Beginning, Start::At),
                (Since::Now, true) => Start::End,
                _ => Start::Beginning,
            };
            // A queued month is small and short-lived: its lines' keys are kept here, not
            // under `cache/`.
            let indexes = store.indexes();
            let cache = (!log.queued).then(|| indexes.dir());
            let tail = LogTail::open_saving(log, start, cache)?;
            if tail.log.queued {
                self.from_queue.extend(tail.seen_keys());
            }
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
        let mut judge = Judge {
            store,
            scope: &self.scope,
            reported: &mut self.reported,
            hidden: None,
        };
        let cursor = &mut self.cursor;
        let from_queue = &mut self.from_queue;
        for tail in &mut self.tails {
            let log = tail.log.clone();
            let mut go_on = true;
            tail.advance(&mut |change| {
                let event = match change {
                    // A queued month goes when a flush moves its lines into the tracked log:
                    // no rewrite of anything a reader holds.
                    Change::Rewrite(_) if log.queued => {
                        cursor.set(&log.name, Position::default());
                        return Ok(true);
                    }
                    Change::Line(at, line)
                        if log.kind == LogKind::Packages
                            && !log.queued
                            && from_queue.contains(&line_key(line)) =>
                    {
                        cursor.set(&log.name, at);
                        return Ok(true);
                    }
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
                        if log.queued {
                            from_queue.insert(line_key(line));
                        }
                        let Some((kind, project_id, record)) = judge.line(&log, line)? else {
                            return Ok(true);
                        };
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

/// A stored line, read for what it reports.
enum Line {
    /// A record: its kind, its project, the line as stored.
    Record(EventKind, Option<String>, Value),
    /// A retraction, in its project's log.
    Retraction(Option<String>, Retraction),
}

/// What a stored line reports, or `None` for a line that is not a record (damaged, or of a
/// kind this relay does not know; `verify` reports those).
fn classify(log: &WatchedLog, line: &[u8]) -> Option<Line> {
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
        LogKind::Retractions => {
            let raw = obj.get("retraction")?.as_object()?.clone();
            let r = Retraction::parse(raw).ok()?;
            return Some(Line::Retraction(log.project_id.clone(), r));
        }
    };
    Some(Line::Record(kind, project_id, record))
}

/// The record a package or fact line holds, as reads judge it: what kind, its id, its
/// expiry, and (for a fact) its source package.
fn about(kind: EventKind, record: &Value) -> Option<(RecordKind, &str, Option<&str>, &Value)> {
    match kind {
        EventKind::Package | EventKind::Transition => {
            let p = record.get("package")?;
            Some((RecordKind::Package, p.get("package_id")?.as_str()?, None, p))
        }
        EventKind::Fact => {
            let source = record.get("source_package_id").and_then(Value::as_str);
            Some((
                RecordKind::Fact,
                record.get("fact_id")?.as_str()?,
                source,
                record,
            ))
        }
        _ => None,
    }
}

/// The `record` of a `retracted` or `expired` event: which record, and why it is hidden.
fn hidden_record(record: RecordKind, id: &str, why: &HiddenBecause) -> Value {
    let mut out = json!({"record": record.as_str(), "id": id});
    if let (Value::Object(out), Value::Object(why)) = (&mut out, why.to_value()) {
        out.extend(why);
    }
    out
}

/// What one poll needs to judge each line: the scope, what reads hide (loaded at the first
/// line that may be hidden, so a poll with nothing new reads no retractions), and the hidden
/// records this watch has reported.
struct Judge<'a> {
    store: &'a Store,
    scope: &'a Scope,
    reported: &'a mut HashSet<(RecordKind, String)>,
    hidden: Option<Hidden>,
}

impl Judge<'_> {
    fn hidden(&mut self) -> Result<&Hidden> {
        if self.hidden.is_none() {
            let projects = match &self.scope.projects {
                Some(ids) => ids.clone(),
                None => self.store.all_project_ids()?,
            };
            let loaded = Hidden::load(self.store.view(), &projects, Reveal::default())?;
            self.hidden = Some(loaded);
        }
        Ok(self.hidden.get_or_insert_with(Hidden::nothing))
    }

    /// The event a stored line gives, if any: its kind, project and record.
    fn line(
        &mut self,
        log: &WatchedLog,
        line: &[u8],
    ) -> Result<Option<(EventKind, Option<String>, Value)>> {
        let scope = self.scope;
        let outside = |project: &Option<String>| matches!((&scope.projects, project), (Some(ids), Some(p)) if !ids.contains(p));
        match classify(log, line) {
            None => Ok(None),
            Some(Line::Record(_, project, _)) | Some(Line::Retraction(project, _))
                if outside(&project) =>
            {
                Ok(None)
            }
            Some(Line::Retraction(project, r)) => {
                let wanted = scope.wants(EventKind::Retracted)
                    || match r.record {
                        RecordKind::Package => {
                            scope.wants(EventKind::Package) || scope.wants(EventKind::Transition)
                        }
                        RecordKind::Fact => scope.wants(EventKind::Fact),
                    };
                if !wanted || !self.reported.insert((r.record, r.id.clone())) {
                    return Ok(None);
                }
                let record = hidden_record(r.record, &r.id, &HiddenBecause::Retracted(&r));
                Ok(Some((EventKind::Retracted, project, record)))
            }
            Some(Line::Record(kind, project, record)) => {
                let Some((what, id, source, map)) = about(kind, &record) else {
                    return Ok(scope.wants(kind).then_some((kind, project, record)));
                };
                if !(scope.wants(kind)
                    || scope.wants(EventKind::Retracted)
                    || scope.wants(EventKind::Expired))
                {
                    return Ok(None);
                }
                if self.reported.contains(&(what, id.to_string())) {
                    return Ok(None);
                }
                let expires = map.as_object().and_then(expiry::expires_at);
                let hidden = self.hidden()?;
                let why = match what {
                    RecordKind::Package => hidden.package_by(id, expires),
                    RecordKind::Fact => hidden.fact_by(id, source, expires),
                };
                let Some(why) = why else {
                    return Ok(scope.wants(kind).then_some((kind, project, record)));
                };
                let instead = match why {
                    HiddenBecause::Expired(_) => EventKind::Expired,
                    _ => EventKind::Retracted,
                };
                if !(scope.wants(kind) || scope.wants(instead)) {
                    return Ok(None);
                }
                let out = hidden_record(what, id, &why);
                self.reported.insert((what, id.to_string()));
                Ok(Some((instead, project, out)))
            }
        }
    }
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
    let wake = Wake::new(
        store,
        crate::resolve::environment::Environment::process().watch_poll(),
    );
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
            extensions: Default::default(),
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

    fn retract(store: &Store, id: &str, reason: &str) {
        let req = crate::ops::packages::retract::RetractRequest {
            id: id.into(),
            reason: reason.into(),
            actor: crate::ops::Actor {
                id: "ana".into(),
                actor_type: "human".into(),
            },
            session_id: None,
            project_hint: Some("demo".into()),
        };
        crate::ops::packages::retract::retract(store, &req).unwrap();
    }

    #[test]
    fn a_replay_names_hidden_records_and_says_why_never_their_content() {
        use crate::ops::packages::deposit::{deposit, test_support::context};
        let (_dir, store) = demo();
        for (id, title) in [("pkg_gone", "secret plan"), ("pkg_kept", "kept plan")] {
            let input = json!({"package_id": id, "title": title,
                "status": "awaiting_review", "review_type": "human"});
            deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
        }
        crate::ops::packages::deposit::test_support::approve(&store, "pkg_gone");
        let fact = |id: &str, value: &str, extra: Value| {
            let mut v = json!({"fact_id": id, "project_id": "demo", "subject": id,
                "predicate": "is", "value": value, "valid_from": "2026-01-01T00:00:00Z",
                "created_at": "2026-01-01T00:00:00Z"});
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            relay_wire::Fact::from_value(v).unwrap()
        };
        let facts = [
            fact(
                "fact_old",
                "stale secret",
                json!({"x-expires-at": "2026-02-01T00:00:00Z"}),
            ),
            fact(
                "fact_src",
                "derived secret",
                json!({"source_package_id": "pkg_gone"}),
            ),
        ];
        let log = store.facts_log("demo");
        store
            .append_records(&log, &facts.iter().collect::<Vec<_>>())
            .unwrap();
        retract(&store, "pkg_gone", "leaked");
        let all = || Scope {
            projects: None,
            kinds: Vec::new(),
        };
        let (events, _) = collect(&store, all(), Since::Beginning, 100, Duration::ZERO).unwrap();
        let text = serde_json::to_string(&events).unwrap();
        for secret in ["secret plan", "stale secret", "derived secret"] {
            assert!(!text.contains(secret), "{secret}: {text}");
        }
        let hidden: Vec<(EventKind, &str, &str)> = (events.iter())
            .filter(|e| matches!(e.kind, EventKind::Retracted | EventKind::Expired))
            .map(|e| {
                let r = &e.record;
                (
                    e.kind,
                    r["id"].as_str().unwrap(),
                    r["because"].as_str().unwrap(),
                )
            })
            .collect();
        // The package once (not once per version, nor again for its retraction line).
        assert_eq!(
            hidden,
            [
                (EventKind::Retracted, "pkg_gone", "retracted"),
                (EventKind::Expired, "fact_old", "expired"),
                (EventKind::Retracted, "fact_src", "source_retracted"),
            ]
        );
        let gone = events
            .iter()
            .find(|e| e.record["id"] == "pkg_gone")
            .unwrap();
        assert_eq!(gone.record["retraction"]["reason"], "leaked");
        assert_eq!(gone.project_id.as_deref(), Some("demo"));
        let kept = events.iter().filter(|e| e.kind == EventKind::Package);
        assert_eq!(kept.count(), 1);
        // Asked for facts only, a hidden fact still comes in its place.
        let facts_only = Scope {
            projects: None,
            kinds: vec![EventKind::Fact],
        };
        let (events, _) =
            collect(&store, facts_only, Since::Beginning, 100, Duration::ZERO).unwrap();
        let kinds: Vec<EventKind> = events.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, [EventKind::Expired, EventKind::Retracted]);
    }

    #[test]
    fn a_retraction_made_while_watching_comes_as_an_event() {
        let (_dir, store) = demo();
        let scope = Scope {
            projects: Some(vec!["demo".into()]),
            kinds: vec![EventKind::Fact],
        };
        let mut w = Watch::open(&store, scope, Since::Now).unwrap();
        assert(&store, "demo", "api");
        let got = drain(&store, &mut w);
        assert_eq!(got.len(), 1);
        let id = got[0].record["fact_id"].as_str().unwrap().to_string();
        retract(&store, &id, "wrong");
        let got = drain(&store, &mut w);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].kind, EventKind::Retracted);
        assert_eq!(got[0].record["id"], id.as_str());
        assert_eq!(got[0].record["record"], "fact");
        assert_eq!(got[0].record["retraction"]["reason"], "wrong");
        assert!(drain(&store, &mut w).is_empty());
        // Resumed from before the assert, the fact comes as its retraction, once.
        let mut again = Watch::open(
            &store,
            Scope {
                projects: None,
                kinds: Vec::new(),
            },
            Since::Beginning,
        )
        .unwrap();
        let replay: Vec<EventKind> = drain(&store, &mut again).iter().map(|e| e.kind).collect();
        assert_eq!(
            replay,
            [EventKind::Project, EventKind::Project, EventKind::Retracted]
        );
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

    #[test]
    fn a_queued_record_is_announced_when_it_enters_the_queue_and_not_again_when_flushed() {
        use crate::ops::packages::deposit::{deposit, test_support::context};
        let (_dir, mut store) = demo();
        let scope = || Scope {
            projects: None,
            kinds: Vec::new(),
        };
        let mut early = Watch::open(&store, scope(), Since::Now).unwrap();
        store.set_queued(true);
        let input = json!({"package_id": "pkg_hooked", "title": "from a hook"});
        deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
        let got = drain(&store, &mut early);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].kind, EventKind::Package);
        assert_eq!(got[0].record["package"]["package_id"], "pkg_hooked");
        // Opened while the record waits in the queue: it is there already, as for a log.
        let mut late = Watch::open(&store, scope(), Since::Now).unwrap();
        let mut replay = Watch::open(&store, scope(), Since::Beginning).unwrap();
        let packages = |got: Vec<Event>| {
            got.into_iter()
                .filter(|e| e.kind == EventKind::Package)
                .count()
        };
        assert_eq!(packages(drain(&store, &mut replay)), 1);

        store.set_queued(false);
        for q in store.queued_files().unwrap() {
            store.flush_queued(&q).unwrap();
        }
        assert!(store.queued_files().unwrap().is_empty());
        std::thread::sleep(Duration::from_millis(400));
        for w in [&mut early, &mut late, &mut replay] {
            assert!(drain(&store, w).is_empty());
            // Twice: the queued month is found gone only after a while.
            assert!(drain(&store, w).is_empty());
        }
        // What is written after the flush is announced as ever, once.
        let input = json!({"package_id": "pkg_after", "title": "by hand"});
        deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
        let got = drain(&store, &mut early);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].record["package"]["package_id"], "pkg_after");
        // A cursor taken while the record waited in the queue: resumed after the flush, it
        // does not hear of the record again.
        store.set_queued(true);
        let input = json!({"package_id": "pkg_second", "title": "from a hook again"});
        deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
        // A queued month made anew where one was flushed is left to settle first.
        let mut got = drain(&store, &mut early);
        std::thread::sleep(Duration::from_millis(200));
        got.extend(drain(&store, &mut early));
        assert_eq!(got.len(), 1, "{got:?}");
        let before_flush = early.cursor();
        store.set_queued(false);
        for q in store.queued_files().unwrap() {
            store.flush_queued(&q).unwrap();
        }
        let since = Since::Cursor(Cursor::decode(&before_flush).unwrap());
        let mut resumed = Watch::open(&store, scope(), since).unwrap();
        assert!(drain(&store, &mut resumed).is_empty());
        // A cursor taken after the flush goes on from there.
        std::thread::sleep(Duration::from_millis(400));
        assert!(drain(&store, &mut early).is_empty());
        assert!(drain(&store, &mut early).is_empty());
        let since = Since::Cursor(Cursor::decode(&early.cursor()).unwrap());
        let mut resumed = Watch::open(&store, scope(), since).unwrap();
        assert!(drain(&store, &mut resumed).is_empty());
    }
}
