//! The Agent Memory Protocol's HTTP binding in `relay serve`: `POST /amp/store`, `POST
//! /amp/search`, `GET|DELETE /amp/records/{id}`, `GET /amp/records?type=…`, `GET /amp/status`.
//! Each parses its request, checks the caller's token against the project, calls `ops::amp`,
//! and answers with the AMP response object. The project is the request's `project` (the
//! record's, or `?project=`), else the store's `default_project`.

use axum::extract::State;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::auth::Caller;
use super::extract::{JsonBody, Params, PathId};
use super::reply::{Answer, Reply};
use super::routes::search_mode;
use super::state::{AppState, Shared};
use crate::error::{Error, Result};
use crate::ops::{amp, pull};
use crate::wire::time;

/// The project a request names, else the store's default.
fn project_of(s: &Shared, named: Option<String>) -> Result<String> {
    named
        .or_else(|| s.store.config().default_project.clone())
        .ok_or_else(|| {
            Error::InvalidInput(
                "no project: give `project`, or set default_project in the store's config.toml"
                    .into(),
            )
        })
}

fn string(body: &Map<String, Value>, name: &str) -> Result<Option<String>> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(Error::InvalidInput(format!("`{name}` must be a string"))),
    }
}

/// store: `{"record": {…}}` (an `"operation": "store"` member is allowed). 201 when written,
/// 200 when the same record was already stored.
pub async fn store(State(state): State<AppState>, caller: Caller, body: JsonBody) -> Answer {
    let mut body = body.object("an AMP store request", true)?;
    body.remove("operation");
    let record = match body.remove("record") {
        Some(Value::Object(r)) => r,
        _ => return Err(Error::InvalidInput("`record` must be an object".into()).into()),
    };
    state
        .blocking(move |s| {
            let project = project_of(s, string(&record, "project")?)?;
            caller.may_write(&project)?;
            caller.may_name(string(&record, "agent")?.as_deref(), None)?;
            let claim = caller.claim(s, None);
            let answer = amp::store(&s.store, &s.cwd, project, &record, &claim)?;
            let created = answer["created"].as_bool().unwrap_or(false);
            Ok(Reply::written(created, answer))
        })
        .await
}

/// The body of search (§3.3 of AMP).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchBody {
    #[serde(default)]
    operation: Option<String>,
    query: String,
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    project: Option<String>,
    limit: Option<usize>,
    min_score: Option<f64>,
    /// A snapshot read: ranked over the store as it stood at this time.
    as_of: Option<String>,
}

pub async fn search(State(state): State<AppState>, caller: Caller, body: JsonBody) -> Answer {
    let body: SearchBody = body.parse("an AMP search request")?;
    let _ = body.operation;
    state
        .blocking(move |s| {
            let project = project_of(s, body.project)?;
            caller.may_read(&project)?;
            let model = s.model.clone();
            let mode = search_mode(None, model.as_deref())?;
            let req = amp::SearchRequest {
                query: body.query,
                kind: body.kind,
                tags: body.tags,
                limit: body.limit,
                min_score: body.min_score,
                as_of: time::parse_time("as_of", body.as_of.as_deref())?,
            };
            let answer = amp::search(&s.store, &[project], &req, mode, model.as_deref())?;
            Ok(Reply::ok(answer))
        })
        .await
}

/// get: the record by id (a retracted or expired one is `package_not_found`).
pub async fn get(State(state): State<AppState>, caller: Caller, PathId(id): PathId) -> Answer {
    state
        .blocking(move |s| {
            caller.may_read(pull::specific(&s.store, &id)?.package.project_id())?;
            Ok(Reply::ok(amp::get(&s.store, &id)?))
        })
        .await
}

/// delete: a retraction, as the caller.
pub async fn delete(State(state): State<AppState>, caller: Caller, PathId(id): PathId) -> Answer {
    state
        .blocking(move |s| {
            caller.may_write(pull::specific(&s.store, &id)?.package.project_id())?;
            let claim = caller.claim(s, None);
            Ok(Reply::ok(amp::delete(&s.store, &s.cwd, &id, None, &claim)?))
        })
        .await
}

/// The query of list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    #[serde(rename = "type")]
    kind: Option<String>,
    agent: Option<String>,
    project: Option<String>,
    limit: Option<usize>,
    #[serde(default)]
    offset: usize,
    order: Option<String>,
    /// A snapshot read: the records as the store stood at this time.
    as_of: Option<String>,
}

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Params(q): Params<ListQuery>,
) -> Answer {
    state
        .blocking(move |s| {
            let project = project_of(s, q.project)?;
            caller.may_read(&project)?;
            let req = amp::ListRequest {
                kind: q.kind,
                agent: q.agent,
                limit: q.limit,
                offset: q.offset,
                order: q.order,
                as_of: time::parse_time("as_of", q.as_of.as_deref())?,
            };
            Ok(Reply::ok(amp::list(&s.store, &[project], &req)?))
        })
        .await
}

/// The query of status.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusQuery {
    project: Option<String>,
}

pub async fn status(
    State(state): State<AppState>,
    caller: Caller,
    Params(q): Params<StatusQuery>,
) -> Answer {
    state
        .blocking(move |s| {
            let project = project_of(s, q.project)?;
            caller.may_read(&project)?;
            let model = s.model.as_ref().map(|m| m.identity().to_string());
            Ok(Reply::ok(amp::status(
                &s.store,
                &[project],
                model.as_deref(),
            )?))
        })
        .await
}
