//! The Agent Memory Protocol's six operations (store, search, get, delete, list, status) over
//! relay's packages: an AMP record is a lesson, checkpoint or snippet package
//! ([`relay_wire::memory`]) read and written through its AMP shape ([`relay_wire::amp`]). Every
//! transport (MCP tools, HTTP routes) deserializes its request ([`crate::request::memory`]),
//! calls these, and renders the JSON they return. A store under an id already stored writes
//! the record's next version ([`super::upsert`]).

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::ops::attribution::{self, Claim};
use crate::request::memory::{ListRequest, SearchRequest, package_types};
use crate::search::filter::Filter;
use crate::search::fuse::Mode;
use crate::search::model::Model;
use crate::search::relevant::Ranked;
use relay_store::Store;
use relay_wire::amp::{text, to_input, to_record};
use relay_wire::error::{Error, Result};
use relay_wire::memory::Kind;

/// The project a record stored under an id already stored lives in (a new version stays in
/// its project); `None` for a new record. A request that names another project is refused.
pub fn stored_project(
    store: &Store,
    record: &Map<String, Value>,
    named: Option<&str>,
) -> Result<Option<String>> {
    let Some(id) = text(record, "id")? else {
        return Ok(None);
    };
    let Some(current) = super::upsert::existing(store, &id)? else {
        return Ok(None);
    };
    let project = current.package.project_id().to_string();
    match named {
        Some(other) if other != project => Err(Error::InvalidInput(format!(
            "record `{id}` is stored in project `{project}`, not `{other}`: store it again \
             there, or under a new id"
        ))),
        _ => Ok(Some(project)),
    }
}

/// What `store` answers: `{"success", "id", "created"}`. Under an id already stored, the
/// record's new content is the next version of that record (`created: false`), and the same
/// content again writes nothing (`created: false` too).
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
    // A record's `session_id` is the caller's correlation text, kept with the record
    // (`relay_wire::amp`), not a relay session.
    if let Some(id) = text(record, "id")?
        && super::upsert::existing(store, &id)?.is_some()
    {
        super::upsert::update(store, cwd, &id, &project, input, &claim)?;
        return Ok(json!({"success": true, "id": id, "created": false}));
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

/// `delete` is a retraction: reads stop showing the record, its history keeps it.
pub fn delete(store: &Store, cwd: &Path, id: &str, reason: &str, claim: &Claim) -> Result<Value> {
    get(store, id)?;
    let done = attribution::retract(store, cwd, id, reason, None, claim)?;
    Ok(json!({"success": true, "deleted": done.created, "retraction": done.retraction.raw}))
}

/// `list`: `{"success", "records", "total", "has_more"}`, newest first unless `order` is `asc`.
pub fn list(store: &Store, projects: &[String], req: &ListRequest) -> Result<Value> {
    req.validate()?;
    let filter = Filter {
        actor: req.agent.clone(),
        as_of: crate::request::parse_as_of("as_of", req.as_of.as_deref())?,
        ..Filter::default()
    };
    let ascending = req.ascending()?;
    let mut all = Vec::new();
    for t in package_types(req.kind.as_deref())? {
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
    let records: Vec<Value> = (all.iter().skip(req.offset).take(req.limit))
        .filter_map(|p| to_record(&p.package))
        .collect();
    let has_more = req.offset + records.len() < total;
    Ok(json!({"success": true, "records": records, "total": total, "has_more": has_more}))
}

/// `search`: `{"success", "results": [{"id", "score", "record"}], "total", "mode"}`.
pub fn search(
    store: &Store,
    projects: &[String],
    req: &SearchRequest,
    mode: Mode,
    model: Option<&Model>,
) -> Result<Value> {
    req.validate()?;
    let filter = Filter {
        types: package_types(req.kind.as_deref())?,
        tags: req.tags.clone(),
        as_of: crate::request::parse_as_of("as_of", req.as_of.as_deref())?,
        ..Filter::default()
    };
    let found = crate::search::semantic::search(
        store, projects, &req.query, &filter, req.limit, mode, model,
    )?;
    let results: Vec<Value> = found
        .iter()
        .filter_map(|r| {
            let score = amp_score(r);
            if req.min_score.is_some_and(|m| score < m) {
                return None;
            }
            let record = to_record(&r.stored.package)?;
            Some(json!({"id": r.stored.package.id(), "score": score, "record": record}))
        })
        .collect();
    Ok(json!({"success": true, "results": results, "total": results.len(), "mode": mode.as_str()}))
}

/// A result's score on AMP's 0–1 scale, the same in every mode: the cosine similarity of its
/// vector with the query's where it was ranked by meaning (below 0 counts as 0), else the
/// share of the query's words it holds (keyword search, or a hybrid result found by its words
/// alone). Four decimals.
pub fn amp_score(r: &Ranked) -> f64 {
    let score = match r.explain.as_ref().and_then(|e| e.similarity) {
        Some(similarity) => f64::from(similarity).clamp(0.0, 1.0),
        None => {
            let tf = crate::search::rank::analyze(&r.stored.package, &r.query).tf;
            let held = tf.iter().filter(|&&t| t > 0.0).count();
            held as f64 / tf.len().max(1) as f64
        }
    };
    (score * 10_000.0).round() / 10_000.0
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
    use crate::search::relevant::Explain;
    use relay_store::packages::{Location, StoredPackage};

    fn ranked(similarity: Option<f32>) -> Ranked {
        let package = relay_wire::Package::from_map(
            json!({"package_id": "pkg_1", "project_id": "demo", "relay_version": "0.1",
                "title": "Rotate tokens", "status": "complete", "package_type": "x-lesson",
                "review_type": "none", "created_at": "2026-01-01T00:00:00Z",
                "created_by": {"id": "a", "type": "agent"}})
            .as_object()
            .unwrap()
            .clone(),
        )
        .unwrap();
        Ranked {
            stored: StoredPackage {
                hash: package.content_hash(),
                package,
                version: 1,
                transition: None,
                location: Location {
                    path: Default::default(),
                    line: 0,
                },
            },
            score: 7.5,
            matched: vec!["title"],
            query: crate::search::query::parse("rotate tokens zebra"),
            explain: similarity.map(|s| Explain {
                mode: Mode::Hybrid,
                keyword_rank: None,
                semantic_rank: Some(1),
                similarity: Some(s),
            }),
        }
    }

    #[test]
    fn the_score_is_on_one_scale_from_0_to_1_in_every_mode() {
        // Keyword: the share of the query's words held, whatever the ranking's own score.
        assert_eq!(amp_score(&ranked(None)), 0.6667);
        // By meaning: the cosine similarity, below 0 counting as 0.
        assert_eq!(amp_score(&ranked(Some(0.83))), 0.83);
        assert_eq!(amp_score(&ranked(Some(-0.2))), 0.0);
    }
}
