//! The Agent Memory Protocol's six operations (store, search, get, delete, list, status) over
//! relay's packages: an AMP record is a lesson, checkpoint or snippet package
//! ([`relay_wire::memory`]) read and written through its AMP shape ([`relay_wire::amp`]). Every
//! transport (MCP tools, HTTP routes) parses its request, calls these, and renders the JSON they
//! return.

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::ops::trust::attribution::{self, Claim};
use crate::search::filter::Filter;
use crate::search::fuse::Mode;
use crate::search::model::Model;
use relay_store::Store;
use relay_wire::amp::{text, to_input, to_record};
use relay_wire::error::{Error, Result};
use relay_wire::memory::Kind;

/// How many results a search or list gives unless asked.
pub const DEFAULT_LIMIT: usize = 10;

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

/// The record `id` names, as reads show it (a retracted or expired one is not found).
pub fn get(store: &Store, id: &str) -> Result<Value> {
    let found = crate::ops::packages::pull::visible(
        store.view(),
        id,
        crate::search::filter::Reveal::default(),
    )?;
    let record = to_record(&found.package).ok_or_else(|| {
        Error::InvalidInput(format!(
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
        return Err(Error::InvalidInput(
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
            .ok_or_else(|| {
                Error::InvalidInput(format!("type `{t}` is not lesson, checkpoint or snippet"))
            }),
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
        Some(o) => {
            return Err(Error::InvalidInput(format!(
                "order `{o}` is not asc or desc"
            )));
        }
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
        return Err(Error::InvalidInput("query must not be empty".into()));
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
