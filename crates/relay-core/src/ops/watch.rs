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
        for i in 0..self.tails.len() {
            let (before, rest) = self.tails.split_at_mut(i);
            let (tail, after) = rest.split_first_mut().expect("i is in range");
            let log = tail.log.clone();
            // A queued line a tracked month of the project already handed over (a flush
            // between its write and its removal of the queued file, one cut short, a git move
            // that put the line back in the queue) was announced from there.
            let in_tracked = |line: &[u8]| {
                let key = line_key(line);
                before.iter().chain(after.iter()).any(|t| {
                    t.log.kind == LogKind::Packages
                        && !t.log.queued
                        && t.log.project_id == log.project_id
                        && t.has_seen(key)
                })
            };
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
                    Change::Line(at, line) if log.queued && in_tracked(line) => {
                        cursor.set(&log.name, at);
                        from_queue.insert(line_key(line));
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
mod tests;
