//! The Agent Memory Protocol's HTTP binding in `relay serve`: `POST /amp/store`, `POST
//! /amp/search`, `GET|DELETE /amp/records/{id}`, `GET /amp/records?type=…`, `GET /amp/status`.
//! Each parses its request, checks the caller's token against the project, calls `ops::memory::amp`,
//! and answers with the AMP response object. The project is the request's `project` (the
//! record's or the search body's, and `?project=`; two that differ are refused), else the
//! store's `default_project`. As on every route, a parameter the operation does not take, in
//! the query string or the body, is refused with 400 and nothing is done.

use axum::extract::State;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::auth::Caller;
use super::extract::{JsonBody, Params, PathId};
use super::params::search_mode;
use super::reply::{Answer, Reply};
use super::state::{AppState, Shared};
use relay_core::ops::{memory::amp, packages::pull};
use relay_wire::error::{Error, Result};
use relay_wire::time;

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

/// `?project=`, the one query parameter of store and search.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectQuery {
    project: Option<String>,
}

/// No query parameter at all (get).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoQuery {}

/// Refuses an `operation` member that names another operation than the route's.
fn operation(body: &mut Map<String, Value>, route: &str) -> Result<()> {
    match body.remove("operation") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(o)) if o == route => Ok(()),
        Some(other) => Err(Error::InvalidInput(format!(
            "`operation` is {other}, but this is /amp/{route}: leave it out or give \"{route}\""
        ))),
    }
}

/// store: `{"record": {…}}` (an `"operation": "store"` member is allowed). 201 when written,
/// 200 when the same record was already stored.
pub async fn store(
    State(state): State<AppState>,
    caller: Caller,
    Params(q): Params<ProjectQuery>,
    body: JsonBody,
) -> Answer {
    let mut body = body.object("an AMP store request", true)?;
    operation(&mut body, "store")?;
    let record = match body.remove("record") {
        Some(Value::Object(r)) => r,
        _ => return Err(Error::InvalidInput("`record` must be an object".into()).into()),
    };
    if let Some(name) = body.keys().next() {
        return Err(Error::InvalidSchema(relay_wire::error::SchemaError::new(
            name.as_str(),
            "an AMP store request takes `operation` and `record` only",
        ))
        .into());
    }
    state
        .blocking(move |s| {
            let project = project_of(s, relay_wire::amp::named_project(q.project, Some(&record))?)?;
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

pub async fn search(
    State(state): State<AppState>,
    caller: Caller,
    Params(q): Params<ProjectQuery>,
    body: JsonBody,
) -> Answer {
    let mut body = body.object("an AMP search request", true)?;
    operation(&mut body, "search")?;
    let body: SearchBody = JsonBody(Some(Value::Object(body))).parse("an AMP search request")?;
    let named = match (q.project, body.project) {
        (Some(a), Some(b)) if a != b => {
            return Err(Error::InvalidInput(format!(
                "?project={a} and the body's project `{b}` differ: give one, or the same in both"
            ))
            .into());
        }
        (a, b) => a.or(b),
    };
    state
        .blocking(move |s| {
            let project = project_of(s, named)?;
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
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    PathId(id): PathId,
    Params(NoQuery {}): Params<NoQuery>,
) -> Answer {
    state
        .blocking(move |s| {
            caller.may_read(pull::specific(s.store.view(), &id)?.package.project_id())?;
            Ok(Reply::ok(amp::get(&s.store, &id)?))
        })
        .await
}

/// Why a record is deleted: `?reason=`, or the body `{"reason": …}`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeleteParams {
    reason: Option<String>,
}

/// delete: a retraction, as the caller, with the caller's reason (`?reason=` or a body
/// `{"reason": …}`), else AMP's default one.
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    PathId(id): PathId,
    Params(q): Params<DeleteParams>,
    body: JsonBody,
) -> Answer {
    let b: DeleteParams = body.parse("an AMP delete request")?;
    let reason = match (q.reason, b.reason) {
        (Some(a), Some(b)) if a != b => {
            return Err(Error::InvalidInput(
                "?reason= and the body's reason differ: give one, or the same in both".into(),
            )
            .into());
        }
        (a, b) => a.or(b),
    };
    state
        .blocking(move |s| {
            caller.may_write(pull::specific(s.store.view(), &id)?.package.project_id())?;
            let claim = caller.claim(s, None);
            Ok(Reply::ok(amp::delete(
                &s.store, &s.cwd, &id, reason, &claim,
            )?))
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
