//! The route table of `relay serve` (the spec's §9.1 mapping, and relay's routes for what the
//! spec leaves to implementations: review, sessions, fact queries) and the handlers of the
//! package routes. A handler checks the caller's access, calls the same `ops` function as the
//! matching CLI command and MCP tool on a blocking thread, and answers with the JSON they
//! print. Facts and sessions have their handlers in [`super::facts`] and [`super::sessions`].

use axum::Router;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::Method;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::{Access, Caller, ProjectCall};
use super::extract::{JsonBody, Params, PathId};
use super::reply::{Answer, ApiError, Reply, to_json};
use super::state::AppState;
use super::{amp, console, events, facts, projects, sessions};
use crate::error::{Error, Result, SchemaError};
use crate::ops::filter::{self, Filter};
use crate::ops::review::{Action, Reviewer};
use crate::ops::{attribution, conformance, orchestrate as digest, orient as orient_op, pull};
use crate::ops::{relevant, review, semantic};
use crate::search::fuse::Mode;
use crate::search::model::Model;
use crate::store::packages::StoredPackage;
use crate::wire::time;

/// Every route, without the fallbacks and limits [`router`] adds. A new route goes here, so
/// that it gets them too.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/conformance", get(conformance))
        .route(
            "/v1/projects/{project_id}/packages",
            post(deposit).get(list),
        )
        .route("/v1/packages/{package_id}", get(package))
        .route("/v1/projects/{project_id}/orient", get(orient))
        .route("/v1/orchestrate", get(orchestrate))
        .route("/v1/packages/{package_id}/flag", post(flag))
        .route("/v1/packages/{package_id}/approve", post(approve))
        .route(
            "/v1/packages/{package_id}/request-changes",
            post(request_changes),
        )
        .route("/v1/projects/{project_id}/reviews", get(reviews))
        .route(
            "/v1/projects/{project_id}/facts",
            post(facts::assert)
                .get(facts::list)
                .delete(facts::invalidate),
        )
        .route(
            "/v1/projects/{project_id}/facts/history",
            get(facts::history),
        )
        .route(
            "/v1/projects/{project_id}/sessions",
            get(sessions::list).post(sessions::start),
        )
        .route("/v1/sessions/{session_id}/end", post(sessions::end))
        .route("/v1/projects/{project_id}/events", get(events::events))
        .route("/v1/projects", get(projects::list).post(projects::create))
        .route("/v1/projects/{project_id}/archive", post(projects::archive))
        .route("/amp/store", post(amp::store))
        .route("/amp/search", post(amp::search))
        .route("/amp/records", get(amp::list))
        .route("/amp/records/{id}", get(amp::get).delete(amp::delete))
        .route("/amp/status", get(amp::status))
        .merge(console::routes())
}

/// The whole service: [`routes`], JSON errors for an unknown route (404) or method (405), the
/// time limit on every request (408), and before all of them the checks of where a request
/// comes from (`guard`: its `Host`, 421, and another site's browser, 403).
pub fn router(state: AppState) -> Router {
    routes()
        .fallback(no_route)
        .method_not_allowed_fallback(wrong_method)
        .layer(middleware::from_fn_with_state(state.clone(), time_limit))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

async fn no_route(method: Method, req: Request) -> ApiError {
    ApiError(Error::NoRoute {
        method: method.to_string(),
        path: req.uri().path().to_string(),
    })
}

async fn wrong_method(method: Method, req: Request) -> ApiError {
    ApiError(Error::MethodNotAllowed {
        method: method.to_string(),
        path: req.uri().path().to_string(),
    })
}

/// Refuses a request whose `Host` is not the server's (421) or that a browser says comes from
/// another site without a token (403), before any route reads it.
async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    if let Err(e) = super::guard::check(&state.hosts, &parts) {
        return ApiError(e).into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}

/// Answers 408 when a request is not read and answered within the server's `timeout` (a
/// client that sends its body slowly, say). An operation already running on a blocking thread
/// still finishes; only its answer is lost.
async fn time_limit(State(state): State<AppState>, req: Request, next: Next) -> Response {
    match tokio::time::timeout(state.timeout, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError(Error::RequestTimeout {
            seconds: state.timeout.as_secs().max(1),
        })
        .into_response(),
    }
}

/// The §11.5 descriptor; it needs no token and no store.
async fn conformance(State(state): State<AppState>) -> Answer {
    let d = conformance::descriptor(state.model.is_some());
    Ok(Reply::ok(to_json(&d)?))
}

/// `?session=`: the session (id or callsign) a write records.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriteParams {
    pub session: Option<String>,
}

/// deposit (§8.1): the body is a whole or partial wire package; the project is the path's.
async fn deposit(call: ProjectCall, Params(q): Params<WriteParams>, body: JsonBody) -> Answer {
    let mut input = body.object("a wire package", true)?;
    let project = &call.project;
    match input.get("project_id") {
        None | Some(Value::Null) => {
            // Given, not filled in: a retry into another project is then other content.
            input.insert("project_id".into(), json!(project));
        }
        Some(Value::String(p)) if p == project => {}
        Some(other) => {
            return Err(Error::InvalidInput(format!(
                "the package's project_id {other} is not the path's project `{project}`"
            ))
            .into());
        }
    }
    call.run(Access::Write, move |s, caller, project| {
        if let Some(by) = input.get("created_by").and_then(Value::as_object) {
            let text = |key: &str| by.get(key).and_then(Value::as_str);
            caller.may_name(text("id"), text("type"))?;
        }
        let claim = caller.claim(s, q.session);
        let done = attribution::deposit(&s.store, &s.cwd, input, project, &claim)?;
        let body = StoredPackage::envelope(&done.package, &done.hash);
        Ok(Reply::written(done.created, Value::Object(body)))
    })
    .await
}

/// The query of a listing: pull's mode and limit (§8.2), and the listing filters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListParams {
    mode: Option<String>,
    limit: Option<usize>,
    query: Option<String>,
    /// How a relevant pull ranks: keyword, semantic or hybrid.
    search: Option<String>,
    #[serde(rename = "type")]
    package_type: Option<String>,
    tag: Option<String>,
    created_by: Option<String>,
    status: Option<String>,
    since: Option<String>,
    until: Option<String>,
    /// Show packages whose expiry has passed.
    #[serde(default)]
    include_expired: bool,
    /// Show retracted packages.
    #[serde(default)]
    include_retracted: bool,
    /// A snapshot read: the store as it stood at this time.
    as_of: Option<String>,
}

impl ListParams {
    fn filter(&self, viewer: crate::ops::filter::Viewer) -> Result<Filter> {
        let status = self
            .status
            .as_deref()
            .map(filter::parse_status)
            .transpose()?;
        Ok(Filter {
            types: self.package_type.iter().cloned().collect(),
            tags: self.tag.iter().cloned().collect(),
            actor: self.created_by.clone(),
            status,
            since: time::parse_time("since", self.since.as_deref())?,
            until: time::parse_time("until", self.until.as_deref())?,
            viewer,
            reveal: filter::Reveal {
                expired: self.include_expired,
                retracted: self.include_retracted,
            },
            as_of: time::parse_time("as_of", self.as_of.as_deref())?,
            ..Filter::default()
        })
    }
}

/// The search mode a relevant pull or a focus asks for (`search=`): by default hybrid when a
/// model is loaded, else keyword; semantic or hybrid without one is `search_not_supported`.
pub fn search_mode(asked: Option<&str>, model: Option<&Model>) -> Result<Mode> {
    let mode = match asked {
        None => {
            return Ok(if model.is_some() {
                Mode::Hybrid
            } else {
                Mode::Keyword
            });
        }
        Some(m) => Mode::parse(m).ok_or_else(|| {
            Error::InvalidInput(format!(
                "search `{m}` is not one of keyword, semantic, hybrid"
            ))
        })?,
    };
    if mode.needs_model() && model.is_none() {
        return Err(Error::SearchNotSupported(format!(
            "{} search needs an embedding model, and this server has none: start it with \
             --model PATH (or RELAY_MODEL, or `[search] model` in .relay/config.toml)",
            mode.as_str()
        )));
    }
    Ok(mode)
}

/// pull `latest` and `relevant` (§8.2): `{"packages": […]}`, wire packages for latest and
/// ranked results (`{"package", "score", "matched"}`) for relevant, as the MCP tool answers.
async fn list(call: ProjectCall, Params(q): Params<ListParams>) -> Answer {
    call.run(Access::Read, move |s, caller, project| {
        let filter = q.filter(caller.viewer(s, &project))?;
        let limit = q.limit.unwrap_or(5);
        let projects = [project];
        let packages: Vec<Value> = match q.mode.as_deref().unwrap_or("latest") {
            "latest" => (pull::latest(&s.store, &projects, &filter, limit)?.iter())
                .map(|p| p.package.to_value())
                .collect(),
            "relevant" => {
                let query = q.query.as_deref().ok_or_else(|| {
                    Error::InvalidInput(
                        "mode `relevant` needs `query`, the words to look for".into(),
                    )
                })?;
                let model = s.model.as_deref();
                let mode = search_mode(q.search.as_deref(), model)?;
                let found =
                    semantic::search(&s.store, &projects, query, &filter, limit, mode, model)?;
                found.iter().map(relevant::Ranked::to_value).collect()
            }
            other => {
                return Err(Error::InvalidInput(format!(
                    "mode `{other}` is not one of latest, relevant (one package by id: \
                         GET /v1/packages/ID)"
                )));
            }
        };
        Ok(Reply::ok(json!({ "packages": packages })))
    })
    .await
}

/// pull `specific` (§8.2): the wire package, at its current version.
async fn package(State(state): State<AppState>, caller: Caller, PathId(id): PathId) -> Answer {
    state
        .blocking(move |s| {
            let found = pull::specific(&s.store, &id)?;
            caller.may_read(found.package.project_id())?;
            // Whether it is hidden (retracted, expired) is told only to who may read it.
            let found = pull::visible(&s.store, &id, filter::Reveal::default())?;
            Ok(Reply::ok(found.package.to_value()))
        })
        .await
}

/// The longest window a digest looks back, as the CLI allows.
const MAX_WINDOW_DAYS: u32 = 36_500;

/// The days a briefing looks back, given as the parameter `name` (14 when not given).
pub(crate) fn window(name: &str, days: Option<u32>) -> Result<u32> {
    match days.unwrap_or(14) {
        d if d <= MAX_WINDOW_DAYS => Ok(d),
        d => Err(Error::InvalidInput(format!(
            "{name} {d} is over {MAX_WINDOW_DAYS}"
        ))),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OrientParams {
    window_days: Option<u32>,
    limit: Option<usize>,
    /// A snapshot read: the briefing as it would have been at this time.
    as_of: Option<String>,
    /// A budget in characters of compact JSON: lists keep what fits, `x-omitted` says what
    /// was left out (as `relay orient --json --max-chars`).
    max_chars: Option<usize>,
}

/// orient (§8.3): the OrientationBundle.
async fn orient(call: ProjectCall, Params(q): Params<OrientParams>) -> Answer {
    let days = window("window_days", q.window_days)?;
    let as_of = time::parse_time("as_of", q.as_of.as_deref())?;
    call.run(Access::Read, move |s, _, project| {
        let limit = q.limit.unwrap_or(orient_op::DEFAULT_RECENT_LIMIT);
        let o = orient_op::orient_at(&s.store, &project, days, limit, as_of)?;
        match q.max_chars {
            Some(max) => Ok(Reply::ok(to_json(&crate::ops::orient_fit::bundle(
                &o, max,
            )?)?)),
            None => Ok(Reply::ok(to_json(&o.bundle())?)),
        }
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OrchestrateParams {
    project: Option<String>,
    focus: Option<String>,
    snippets: Option<usize>,
    window_days: Option<u32>,
    #[serde(default)]
    include_archived: bool,
    search: Option<String>,
    /// A snapshot read: the digest as it would have been at this time.
    as_of: Option<String>,
}

/// orchestrate (§8.4): the DigestBundle of one project, or of every project the caller may
/// see (global mode) when none is named.
async fn orchestrate(
    State(state): State<AppState>,
    caller: Caller,
    Params(q): Params<OrchestrateParams>,
) -> Answer {
    let days = window("window_days", q.window_days)?;
    state
        .blocking(move |s| {
            if let Some(p) = &q.project {
                caller.may_read(p)?;
            }
            let model = s.model.clone();
            let mode = match &q.focus {
                Some(_) => search_mode(q.search.as_deref(), model.as_deref())?,
                None => Mode::Keyword,
            };
            let only = match &q.project {
                Some(_) => None,
                None => caller.scope(&s.store)?,
            };
            let req = digest::DigestRequest {
                project: q.project,
                focus: q.focus,
                snippets: q.snippets.unwrap_or(25),
                include_archived: q.include_archived,
                only,
                window_days: days,
                mode,
                model,
                as_of: time::parse_time("as_of", q.as_of.as_deref())?,
            };
            Ok(Reply::ok(digest::digest(&s.store, &req)?.bundle()))
        })
        .await
}

/// The body of a review action.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewBody {
    review_type: Option<String>,
    note: Option<String>,
}

/// A review action's request: who asks, the package, `?session=`, and the body.
struct ReviewCall {
    state: AppState,
    caller: Caller,
    package_id: String,
    session: Option<String>,
    body: ReviewBody,
}

impl FromRequest<AppState> for ReviewCall {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        let (mut parts, body) = req.into_parts();
        let caller = Caller::from_request_parts(&mut parts, state).await?;
        let PathId(package_id) = PathId::from_request_parts(&mut parts, state).await?;
        let Params(q) = Params::<WriteParams>::from_request_parts(&mut parts, state).await?;
        let body = JsonBody::from_request(Request::from_parts(parts, body), state).await?;
        Ok(ReviewCall {
            state: state.clone(),
            caller,
            package_id,
            session: q.session,
            body: body.parse("a review action")?,
        })
    }
}

impl ReviewCall {
    /// Applies `action` as the caller, in the package's project; answers the updated wire
    /// package (§8.5).
    async fn apply(self, action: Action, note: Option<String>) -> Answer {
        let ReviewCall {
            caller,
            package_id,
            session,
            ..
        } = self;
        self.state
            .blocking(move |s| {
                let target = pull::specific(&s.store, &package_id)?;
                caller.may_write(target.package.project_id())?;
                let claim = caller.claim(s, session);
                let done =
                    attribution::transition(&s.store, &s.cwd, &package_id, action, note, &claim)?;
                Ok(Reply::ok(done.package.to_value()))
            })
            .await
    }
}

/// flag_for_review (§8.5): `{"review_type": "human" | "agent", "note"?}`.
async fn flag(call: ReviewCall) -> Answer {
    let reviewer = match call.body.review_type.as_deref() {
        Some(t) => Reviewer::parse(t)
            .ok_or_else(|| SchemaError::new("review_type", "must be `human` or `agent`"))?,
        None => {
            return Err(SchemaError::new("review_type", "is required (`human` or `agent`)").into());
        }
    };
    let note = call.body.note.clone();
    call.apply(Action::Flag { reviewer }, note).await
}

/// Approve (§11.4): `{"note"?}`, or no body.
async fn approve(call: ReviewCall) -> Answer {
    no_review_type(&call.body)?;
    let note = call.body.note.clone();
    call.apply(Action::Approve, note).await
}

/// Request changes (§11.4): `{"note"}`, saying what to change.
async fn request_changes(call: ReviewCall) -> Answer {
    no_review_type(&call.body)?;
    let note = (call.body.note.clone())
        .filter(|n| !n.trim().is_empty())
        .ok_or_else(|| SchemaError::new("note", "is required: say what should change"))?;
    call.apply(Action::RequestChanges, Some(note)).await
}

fn no_review_type(body: &ReviewBody) -> Result<(), ApiError> {
    match body.review_type {
        Some(_) => Err(SchemaError::new("review_type", "belongs to a flag only").into()),
        None => Ok(()),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewsParams {
    review_type: Option<String>,
}

/// The packages awaiting review in a project (§11.4), oldest request first, each with who
/// flagged it, when and why: `{"packages": […]}`.
async fn reviews(call: ProjectCall, Params(q): Params<ReviewsParams>) -> Answer {
    let reviewer = match q.review_type.as_deref() {
        Some(t) => Some(Reviewer::parse(t).ok_or_else(|| {
            Error::InvalidInput(format!("review_type `{t}` is not human or agent"))
        })?),
        None => None,
    };
    call.run(Access::Read, move |s, _, project| {
        let pending = review::pending(&s.store, &[project], reviewer)?;
        let packages: Vec<Value> = pending.iter().map(review::Pending::to_value).collect();
        Ok(Reply::ok(json!({ "packages": packages })))
    })
    .await
}
