//! The Agent Memory Protocol's six operations (store, search, get, delete, list, status) over
//! relay's packages: an AMP record is a lesson, checkpoint or snippet package (`ops::memory`)
//! read and written through its AMP shape (`id`, `type`, `content`, `created_at` in ms,
//! `agent`, `project`, `tags`, and the type's own fields). Every transport (MCP tools, HTTP
//! routes) parses its request, calls these, and renders the JSON they return.

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::ops::memory::{Checkpoint, Kind, Lesson, Snippet};
use crate::ops::trust::attribution::{self, Claim};
use crate::search::filter::Filter;
use crate::search::fuse::Mode;
use crate::search::model::Model;
use relay_store::Store;
use relay_wire::Package;
use relay_wire::error::{Error, Result};

/// How many results a search or list gives unless asked.
pub const DEFAULT_LIMIT: usize = 10;

fn bad(message: String) -> Error {
    Error::InvalidInput(message)
}

/// A string member of an AMP record: absent is `None`, anything but a string is refused.
fn text(record: &Map<String, Value>, name: &str) -> Result<Option<String>> {
    match record.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(bad(format!(
            "record.{name} must be a string, not {}",
            kind_name(other)
        ))),
    }
}

/// A list-of-strings member (absent: empty).
fn texts(record: &Map<String, Value>, name: &str) -> Result<Vec<String>> {
    match record.get(name) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                other => Err(bad(format!(
                    "record.{name} must be a list of strings; it holds {}",
                    kind_name(other)
                ))),
            })
            .collect(),
        Some(other) => Err(bad(format!(
            "record.{name} must be a list of strings, not {}",
            kind_name(other)
        ))),
    }
}

/// A whole-number member (absent: `None`).
fn number(record: &Map<String, Value>, name: &str) -> Result<Option<u64>> {
    match record.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            bad(format!(
                "record.{name} must be a whole number of 0 or more, not {v}"
            ))
        }),
    }
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn required(value: Option<String>, what: &str) -> Result<String> {
    value
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| bad(format!("record.{what} is required")))
}

/// The record's type.
fn record_kind(record: &Map<String, Value>) -> Result<Kind> {
    let t = required(text(record, "type")?, "type")?;
    Kind::from_amp_type(&t).ok_or_else(|| {
        bad(format!(
            "record.type `{t}` is not one relay stores: lesson, checkpoint or snippet"
        ))
    })
}

/// The package input of an AMP record, checked field by field before anything is written.
pub fn to_input(record: &Map<String, Value>) -> Result<Map<String, Value>> {
    let kind = record_kind(record)?;
    let content = text(record, "content")?;
    let tags = texts(record, "tags")?;
    let mut input = match kind {
        Kind::Lesson => Lesson {
            title: required(text(record, "title")?, "title")?,
            content: required(content, "content")?,
            severity: text(record, "severity")?,
            tags: tags.clone(),
        }
        .to_input(),
        Kind::Checkpoint => {
            let state = match record.get("state") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(m)) => m.clone(),
                Some(other) => {
                    return Err(bad(format!(
                        "record.state must be an object, not {}",
                        kind_name(other)
                    )));
                }
            };
            let state_list = |k: &str| {
                texts(&state, k).map_err(|e| bad(e.to_string().replace("record.", "record.state.")))
            };
            let flags = state_list("flags")?;
            if flags.len() > 1 {
                return Err(bad(
                    "record.state.flags holds one flag in relay (IDLE, IN_PROGRESS or BLOCKED)"
                        .into(),
                ));
            }
            let working_on = text(record, "working_on")?.or(content);
            Checkpoint {
                working_on: required(working_on, "working_on")?,
                decisions: state_list("decisions")?,
                blockers: state_list("blockers")?,
                artifacts: state_list("artifacts")?,
                flag: flags.into_iter().next(),
            }
            .to_input()
        }
        Kind::Snippet => {
            let start = number(record, "start_line")?.unwrap_or(1);
            let text_of = required(content, "content")?;
            let lines = text_of.lines().count().max(1) as u64;
            Snippet {
                path: required(text(record, "file_path")?, "file_path")?,
                start_line: start,
                end_line: number(record, "end_line")?.unwrap_or(start + lines - 1),
                language: text(record, "language")?,
                text: text_of,
                git_blob: None,
                note: text(record, "title")?,
            }
            .to_input()
        }
    }
    .map_err(|m| bad(format!("record: {m}")))?;
    if kind != Kind::Lesson && !tags.is_empty() {
        input.insert("tags".into(), json!(tags));
    }
    if let Some(id) = text(record, "id")? {
        input.insert("package_id".into(), json!(id));
    }
    Ok(input)
}

/// The project a request names: its own (`?project=`, or an MCP call's `project` argument)
/// or the record's `project` member; `None` when neither names one (the transport's default
/// then). Two that differ are refused rather than one silently chosen.
pub fn named_project(
    request: Option<String>,
    record: Option<&Map<String, Value>>,
) -> Result<Option<String>> {
    let of_record = match record {
        Some(r) => text(r, "project")?,
        None => None,
    };
    match (request, of_record) {
        (Some(a), Some(b)) if a != b => Err(bad(format!(
            "the request names project `{a}` and record.project names `{b}`: give one, or the \
             same in both"
        ))),
        (a, b) => Ok(a.or(b)),
    }
}

/// What `store` answers: `{"success", "id", "created"}`.
pub fn store(
    store: &Store,
    cwd: &Path,
    project: String,
    record: &Map<String, Value>,
    claim: &Claim,
) -> Result<Value> {
    let input = to_input(record)?;
    let mut claim = claim.clone();
    if let Some(agent) = text(record, "agent")? {
        claim.actor = Some(agent);
        claim.actor_type.get_or_insert_with(|| "agent".into());
    }
    if let Some(s) = text(record, "session_id")? {
        claim.session = Some(s);
    }
    let done = attribution::deposit(store, cwd, input, project, &claim)?;
    Ok(json!({"success": true, "id": done.package.id(), "created": done.created}))
}

/// A package as an AMP record; `None` for a package of another type.
pub fn to_record(p: &Package) -> Option<Value> {
    let kind = Kind::of_type(p.package_type())?;
    let m = p.as_map();
    let get = |k: &str| m.get(k).cloned().unwrap_or(Value::Null);
    let mut r = json!({
        "id": p.id(),
        "type": kind.amp_type(),
        "created_at": p.created_at().timestamp_millis(),
        "agent": p.created_by().id,
        "project": p.project_id(),
        "tags": p.list("tags"),
    });
    match kind {
        Kind::Lesson => {
            r["title"] = json!(p.title());
            r["content"] = get("description");
            r["severity"] = m.get("x-severity").cloned().unwrap_or(json!("info"));
        }
        Kind::Checkpoint => {
            r["content"] = get("x-working-on");
            r["working_on"] = get("x-working-on");
            r["state"] = json!({
                "decisions": p.list("decisions_made"),
                "blockers": p.list("x-blockers"),
                "artifacts": p.list("x-artifacts"),
                "flags": p.str_field("x-flag").into_iter().collect::<Vec<_>>(),
            });
            if let Some(s) = m
                .get("created_by")
                .and_then(|c| c.get("session_id"))
                .cloned()
            {
                r["session_id"] = s;
            }
        }
        Kind::Snippet => {
            r["content"] = get("content_md");
            r["file_path"] = get("x-path");
            r["start_line"] = get("x-start-line");
            r["end_line"] = get("x-end-line");
            if let Some(l) = m.get("x-language") {
                r["language"] = l.clone();
            }
        }
    }
    Some(r)
}

/// The record `id` names, as reads show it (a retracted or expired one is not found).
pub fn get(store: &Store, id: &str) -> Result<Value> {
    let found =
        crate::ops::packages::pull::visible(store, id, crate::search::filter::Reveal::default())?;
    let record = to_record(&found.package).ok_or_else(|| {
        bad(format!(
            "package `{id}` is a `{}`, not an agent memory record (lesson, checkpoint, snippet)",
            found.package.package_type()
        ))
    })?;
    Ok(json!({"success": true, "record": record}))
}

/// The reason a `delete` records when the caller gives none.
pub const DEFAULT_DELETE_REASON: &str = "deleted through the Agent Memory Protocol";

/// `delete` is a retraction: reads stop showing the record, its history keeps it.
pub fn delete(
    store: &Store,
    cwd: &Path,
    id: &str,
    reason: Option<String>,
    claim: &Claim,
) -> Result<Value> {
    if reason.as_deref().is_some_and(|r| r.trim().is_empty()) {
        return Err(bad(
            "reason is blank: say why the record is deleted, or leave reason out for the default"
                .into(),
        ));
    }
    get(store, id)?;
    let reason = reason.unwrap_or_else(|| DEFAULT_DELETE_REASON.into());
    let done = attribution::retract(store, cwd, id, &reason, None, claim)?;
    Ok(json!({"success": true, "deleted": done.created, "retraction": done.retraction.raw}))
}

/// The package types an AMP `type` filter selects (every memory type when none is given).
fn types(kind: Option<&str>) -> Result<Vec<String>> {
    match kind {
        None => Ok([Kind::Lesson, Kind::Checkpoint, Kind::Snippet]
            .map(|k| k.package_type().to_string())
            .to_vec()),
        Some(t) => Kind::from_amp_type(t)
            .map(|k| vec![k.package_type().to_string()])
            .ok_or_else(|| bad(format!("type `{t}` is not lesson, checkpoint or snippet"))),
    }
}

/// What `list` is asked.
#[derive(Debug, Clone, Default)]
pub struct ListRequest {
    pub kind: Option<String>,
    pub agent: Option<String>,
    pub limit: Option<usize>,
    pub offset: usize,
    /// `asc` or `desc` (the default), by `created_at`.
    pub order: Option<String>,
    /// A snapshot read: the records as the store stood at this time.
    pub as_of: Option<relay_wire::time::Timestamp>,
}

/// `list`: `{"success", "records", "total", "has_more"}`, newest first unless `order` is `asc`.
pub fn list(store: &Store, projects: &[String], req: &ListRequest) -> Result<Value> {
    let filter = Filter {
        actor: req.agent.clone(),
        as_of: req.as_of,
        ..Filter::default()
    };
    let ascending = match req.order.as_deref() {
        None | Some("desc") => false,
        Some("asc") => true,
        Some(o) => return Err(bad(format!("order `{o}` is not asc or desc"))),
    };
    let mut all = Vec::new();
    for t in types(req.kind.as_deref())? {
        all.extend(crate::ops::memory::reads::of_type(
            store, projects, &t, &filter,
        )?);
    }
    // Newest first, ties by id: the order of every listing.
    all.sort_by_cached_key(|p| {
        (
            std::cmp::Reverse(p.package.created_at()),
            p.package.id().to_string(),
        )
    });
    if ascending {
        all.reverse();
    }
    let total = all.len();
    let limit = req.limit.unwrap_or(DEFAULT_LIMIT);
    let records: Vec<Value> = (all.iter().skip(req.offset).take(limit))
        .filter_map(|p| to_record(&p.package))
        .collect();
    let has_more = req.offset + records.len() < total;
    Ok(json!({"success": true, "records": records, "total": total, "has_more": has_more}))
}

/// What `search` is asked.
#[derive(Debug, Clone, Default)]
pub struct SearchRequest {
    pub query: String,
    pub kind: Option<String>,
    pub tags: Vec<String>,
    pub limit: Option<usize>,
    /// Results scoring below this are left out (the score is the cosine similarity where
    /// semantic search ranked it, else the ranking's score).
    pub min_score: Option<f64>,
    /// A snapshot read: ranked over the store as it stood at this time.
    pub as_of: Option<relay_wire::time::Timestamp>,
}

/// `search`: `{"success", "results": [{"id", "score", "record"}], "total", "mode"}`.
pub fn search(
    store: &Store,
    projects: &[String],
    req: &SearchRequest,
    mode: Mode,
    model: Option<&Model>,
) -> Result<Value> {
    if req.query.trim().is_empty() {
        return Err(bad("query must not be empty".into()));
    }
    let filter = Filter {
        types: types(req.kind.as_deref())?,
        tags: req.tags.clone(),
        as_of: req.as_of,
        ..Filter::default()
    };
    let limit = req.limit.unwrap_or(DEFAULT_LIMIT);
    let found =
        crate::search::semantic::search(store, projects, &req.query, &filter, limit, mode, model)?;
    let results: Vec<Value> = found
        .iter()
        .filter_map(|r| {
            let score = (r.explain.as_ref())
                .and_then(|e| e.similarity)
                .map_or(r.score, |s| (f64::from(s) * 10_000.0).round() / 10_000.0);
            if req.min_score.is_some_and(|m| score < m) {
                return None;
            }
            let record = to_record(&r.stored.package)?;
            Some(json!({"id": r.stored.package.id(), "score": score, "record": record}))
        })
        .collect();
    Ok(json!({"success": true, "results": results, "total": results.len(), "mode": mode.as_str()}))
}

/// `status`: `{"success", "healthy", "version", "stats": {lessons, checkpoints, snippets,
/// embedding_model}}`.
pub fn status(store: &Store, projects: &[String], model: Option<&str>) -> Result<Value> {
    let count = |kind: Kind| -> Result<usize> {
        let all = crate::ops::memory::reads::of_type(
            store,
            projects,
            kind.package_type(),
            &Filter::default(),
        )?;
        Ok(all.len())
    };
    Ok(json!({
        "success": true,
        "healthy": true,
        "version": env!("CARGO_PKG_VERSION"),
        "stats": {
            "lessons": count(Kind::Lesson)?,
            "checkpoints": count(Kind::Checkpoint)?,
            "snippets": count(Kind::Snippet)?,
            "embedding_model": model,
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn records_of_each_type_map_to_packages_and_back() {
        let lesson = to_input(&record(json!({
            "type": "lesson", "title": "PostgreSQL connection pooling",
            "content": "Always use connection pooling in production.",
            "tags": ["postgresql"], "severity": "warning"
        })))
        .unwrap();
        assert_eq!(lesson["package_type"], "x-lesson");
        assert_eq!(lesson["x-severity"], "warning");
        let cp = to_input(&record(json!({
            "type": "checkpoint", "agent": "radarr", "working_on": "Debugging auth flow",
            "state": {"blockers": ["Missing API key"], "flags": ["BLOCKED"]}
        })))
        .unwrap();
        assert_eq!(cp["x-working-on"], "Debugging auth flow");
        assert_eq!(cp["x-blockers"], json!(["Missing API key"]));
        let sn = to_input(&record(json!({
            "type": "snippet", "content": "a\nb\n", "file_path": "src/x.rs", "start_line": 4
        })))
        .unwrap();
        assert_eq!(
            (&sn["x-start-line"], &sn["x-end-line"]),
            (&json!(4), &json!(5))
        );
    }

    #[test]
    fn the_project_is_the_requests_or_the_records_and_two_that_differ_are_refused() {
        let r = record(json!({"type": "lesson", "project": "web"}));
        assert_eq!(named_project(None, None).unwrap(), None);
        assert_eq!(
            named_project(None, Some(&r)).unwrap().as_deref(),
            Some("web")
        );
        assert_eq!(
            named_project(Some("api".into()), None).unwrap().as_deref(),
            Some("api")
        );
        assert_eq!(
            named_project(Some("web".into()), Some(&r))
                .unwrap()
                .as_deref(),
            Some("web")
        );
        let clash = named_project(Some("api".into()), Some(&r)).unwrap_err();
        assert_eq!(clash.code(), "invalid_input");
        assert!(clash.to_string().contains("`api`") && clash.to_string().contains("`web`"));
        let typed = named_project(None, Some(&record(json!({"project": 5})))).unwrap_err();
        assert_eq!(
            typed.to_string(),
            "record.project must be a string, not a number"
        );
    }

    #[test]
    fn fields_of_the_wrong_type_are_named() {
        let err = |v: Value| to_input(&record(v)).unwrap_err().to_string();
        assert_eq!(
            err(json!({"type": "lesson", "title": 5, "content": "c"})),
            "record.title must be a string, not a number"
        );
        assert_eq!(
            err(json!({"type": "lesson", "title": "t", "content": "c", "tags": "a,b"})),
            "record.tags must be a list of strings, not a string"
        );
        assert_eq!(
            err(json!({"type": "checkpoint", "working_on": "w", "state": {"blockers": [1]}})),
            "record.state.blockers must be a list of strings; it holds a number"
        );
        assert_eq!(
            err(json!({"type": "memo", "content": "c"})),
            "record.type `memo` is not one relay stores: lesson, checkpoint or snippet"
        );
        assert_eq!(
            err(json!({"type": "lesson", "content": "c"})),
            "record.title is required"
        );
        assert!(
            err(json!({"type": "lesson", "title": "t", "content": "c", "severity": "high"}))
                .contains("severity `high`")
        );
        assert!(
            err(json!({"type": "snippet", "content": "c", "file_path": "f", "start_line": -1}))
                .contains("whole number")
        );
    }
}
