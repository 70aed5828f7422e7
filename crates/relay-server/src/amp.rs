//! The Agent Memory Protocol's HTTP binding in `relay serve`: `POST /amp/store`, `POST
//! /amp/search`, `GET|DELETE /amp/records/{id}`, `GET /amp/records?type=…`, `GET /amp/status`.
//! Each parses its request (the core's `request::memory` types), checks the caller's token
//! against the project, calls `ops::memory::amp`, and answers with the AMP response object.
//! A store goes into the request's `project` (the record's, or `?project=`; two that differ
//! are refused), else the project of the record its id names, else the store's
//! `default_project`; search, list and status read the project named, else every project
//! the caller may read. As on every route, a parameter the operation does not take, in
//! the query string or the body, is refused with 400 and nothing is done.

use axum::extract::State;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::auth::Caller;
use super::extract::{JsonBody, Params, PathId};
use super::params::search_mode;
use super::reply::{Answer, Reply};
use super::state::{AppState, Shared};
use relay_core::request::memory::{
    DeleteRequest, ListRequest, SearchRequest, StatusRequest, StoreRequest,
};
use relay_wire::error::{Error, Result};

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
        Some(_) => Err(relay_core::request::shape_error(name, "must be a string")),
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

/// store: `{"record": {…}}` (an `"operation": "store"` member is allowed). 201 when written
/// anew, 200 when the id was already stored (a new version, or the same content again).
pub async fn store(
    State(state): State<AppState>,
    caller: Caller,
    Params(q): Params<ProjectQuery>,
    body: JsonBody,
) -> Answer {
    let mut body = body.object("an AMP store request", true)?;
    operation(&mut body, "store")?;
    match body.get("record") {
        Some(Value::Object(_)) => {}
        // A missing required field is invalid_schema, as on every door (§8.1's rule).
        None => {
            return Err(Error::InvalidSchema(relay_wire::error::SchemaError::new(
                "record",
                "is required: the AMP record to store",
            ))
            .into());
        }
        Some(_) => {
            return Err(relay_core::request::shape_error("record", "must be an object").into());
        }
    }
    if let Some(name) = body.keys().find(|k| *k != "record") {
        return Err(Error::InvalidSchema(relay_wire::error::SchemaError::new(
            name.as_str(),
            "an AMP store request takes `operation` and `record` only",
        ))
        .into());
    }
    let mut req: StoreRequest =
        JsonBody(Some(Value::Object(body))).parse("an AMP store request")?;
    req.project = q.project;
    state
        .blocking(move |s| {
            string(&req.record, "agent")?;
            let claim = caller.claim(s, None);
            let answer = caller
                .relay(s)
                .amp_store(&claim, &req, || project_of(s, None))?;
            let created = answer["created"].as_bool().unwrap_or(false);
            Ok(Reply::written(created, answer))
        })
        .await
}

pub async fn search(
    State(state): State<AppState>,
    caller: Caller,
    Params(q): Params<ProjectQuery>,
    body: JsonBody,
) -> Answer {
    let mut body = body.object("an AMP search request", true)?;
    operation(&mut body, "search")?;
    let mut req: SearchRequest =
        JsonBody(Some(Value::Object(body))).parse("an AMP search request")?;
    req.project = match (q.project, req.project) {
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
            let relay = caller.relay(s);
            let projects = relay.amp_projects("amp_search", req.project.clone())?;
            let model = s.model.as_deref();
            let mode = search_mode(None, model)?;
            let answer = relay.amp_search(&projects, &req, (mode, model))?;
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
        .blocking(move |s| Ok(Reply::ok(caller.relay(s).amp_get(&id)?)))
        .await
}

/// Why a record is deleted: `?reason=`, or the body `{"reason": …}` (the id is the path's).
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
    let req = DeleteRequest { id, reason };
    state
        .blocking(move |s| {
            let claim = caller.claim(s, None);
            Ok(Reply::ok(caller.relay(s).amp_delete(&claim, &req)?))
        })
        .await
}

/// list: `GET /amp/records?type=…` (the query is the core's [`ListRequest`]).
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Params(req): Params<ListRequest>,
) -> Answer {
    state
        .blocking(move |s| {
            let relay = caller.relay(s);
            let projects = relay.amp_projects("amp_list", req.project.clone())?;
            Ok(Reply::ok(relay.amp_list(&projects, &req)?))
        })
        .await
}

/// status: `GET /amp/status` (the query is the core's [`StatusRequest`]).
pub async fn status(
    State(state): State<AppState>,
    caller: Caller,
    Params(req): Params<StatusRequest>,
) -> Answer {
    state
        .blocking(move |s| {
            let relay = caller.relay(s);
            let projects = relay.amp_projects("amp_status", req.project)?;
            let model = s.model.as_ref().map(|m| m.identity().to_string());
            Ok(Reply::ok(relay.amp_status(&projects, model.as_deref())?))
        })
        .await
}
