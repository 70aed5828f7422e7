//! The handlers of the package routes of `relay serve` (the spec's §9.1 mapping: deposit,
//! pull, orient, orchestrate, and relay's review routes); the table of every route is
//! [`super::router`]. A handler checks the caller's access, calls the same `ops` function as the
//! matching CLI command and MCP tool on a blocking thread, and answers with the JSON they
//! print. Facts and sessions have their handlers in [`super::facts`] and [`super::sessions`].

use axum::extract::{FromRequest, FromRequestParts, Request, State};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::auth::{Access, Caller, ProjectCall};
use super::extract::{JsonBody, Params, PathId};
use super::params::{WriteParams, search_mode};
use super::reply::{Answer, ApiError, Reply, SIGNATURE_HEADER, to_json};
use super::state::AppState;
use relay_core::ops::conformance;
use relay_core::ops::packages::review;
use relay_core::request::deposit::DepositRequest;
use relay_core::request::listing::PullMode;
use relay_core::request::review::{
    ApproveRequest, FlagRequest, RequestChangesRequest, ReviewListRequest, Transition,
};
use relay_core::request::{
    self, DEFAULT_LISTING_LIMIT, ListingFilter, OrchestrateRequest, OrientRequest,
};
use relay_core::search::relevant;
use relay_store::packages::StoredPackage;
use relay_wire::error::{Error, Result, SchemaError};

/// The §11.5 descriptor; it needs no token and no store.
pub(crate) async fn conformance(State(state): State<AppState>) -> Answer {
    let d = conformance::descriptor(state.model.is_some());
    Ok(Reply::ok(to_json(&d)?))
}

/// deposit (§8.1): the body is a whole wire package, its `project_id` the path's; relay fills
/// nothing in (the request's strict form).
pub(crate) async fn deposit(
    call: ProjectCall,
    Params(q): Params<WriteParams>,
    body: JsonBody,
) -> Answer {
    let input = body.object("a wire package", true)?;
    // The body is the wire package itself (§8.1): the request every door takes, named
    // fields aside.
    let req = DepositRequest::of_package(input);
    call.run(Access::Write, move |s, caller, project| {
        let claim = caller.claim(s, q.session);
        let path = || Ok(project.clone());
        let done = caller.relay(s).deposit(&claim, Some(&project), path, req)?;
        let body = StoredPackage::envelope(&done.package, &done.hash);
        Ok(Reply::written(done.created, Value::Object(body)))
    })
    .await
}

/// The query of a listing: pull's mode and limit (§8.2), and the listing filters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListParams {
    mode: Option<PullMode>,
    #[serde(default, deserialize_with = "relay_core::request::number::whole_opt")]
    limit: Option<usize>,
    query: Option<String>,
    /// How a relevant pull ranks: keyword, semantic or hybrid.
    search: Option<String>,
    /// Only packages of these types (`?type=a&type=b`: any of them).
    #[serde(rename = "type", default)]
    package_type: Vec<String>,
    /// Only packages carrying all of these tags (`?tag=a&tag=b`).
    #[serde(default)]
    tag: Vec<String>,
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
    /// The listing filters, as every door names them.
    fn listing(&self) -> ListingFilter {
        ListingFilter {
            types: self.package_type.clone(),
            tags: self.tag.clone(),
            created_by: self.created_by.clone(),
            status: self.status.clone(),
            since: self.since.clone(),
            until: self.until.clone(),
            all_projects: false,
            include_expired: self.include_expired,
            include_retracted: self.include_retracted,
            as_of: self.as_of.clone(),
        }
    }
}

/// pull `latest` and `relevant` (§8.2), in one shape: `{"packages": […]}`, wire packages
/// newest first or best first. A relevant pull adds `x-ranking`, one `{"package_id", "score",
/// "matched"}` per package in the same order.
pub(crate) async fn list(call: ProjectCall, Params(q): Params<ListParams>) -> Answer {
    call.run(Access::Read, move |s, caller, project| {
        let relay = caller.relay(s);
        let listing = relay.listing("pull", vec![project], &q.listing())?;
        let limit = q.limit.unwrap_or(DEFAULT_LISTING_LIMIT);
        let mode = q.mode.unwrap_or(PullMode::Latest);
        match mode {
            PullMode::Latest => {
                let packages: Vec<Value> = (relay.pull_latest(&listing, limit)?.iter())
                    .map(|p| p.package.to_value())
                    .collect();
                Ok(Reply::ok(json!({ "packages": packages })))
            }
            PullMode::Relevant => {
                let query = (q.query.as_deref()).ok_or_else(request::listing::missing_query)?;
                let mode = match search_mode(q.search.as_deref(), s.model.as_deref()) {
                    Ok(mode) => mode,
                    // §10.2: the 501 names the capability flag the search asked for needs.
                    Err(e @ Error::SearchNotSupported(_)) => {
                        let asked = q.search.as_deref().unwrap_or_default();
                        return Ok(Reply::missing_capability(e, &format!("{asked}_search")));
                    }
                    Err(e) => return Err(e),
                };
                let found = relay.search(&listing, query, limit, &(mode, s.model.clone()))?;
                let packages: Vec<Value> = (found.iter())
                    .map(|r| r.stored.package.to_value())
                    .collect();
                let ranking: Vec<Value> = found.iter().map(relevant::Ranked::ranking).collect();
                Ok(Reply::ok(
                    json!({ "packages": packages, "x-ranking": ranking }),
                ))
            }
            PullMode::Specific => Err(request::value_error(
                "mode `specific` is not this route's: one package by id is GET /v1/packages/ID",
            )),
        }
    })
    .await
}

/// pull `specific` (§8.2): the wire package, at its current version, and the verdict on its
/// signature in the `x-relay-signature` header.
pub(crate) async fn package(
    State(state): State<AppState>,
    caller: Caller,
    PathId(id): PathId,
) -> Answer {
    state
        .reading(move |s| {
            // Whether it is hidden (retracted, expired) is told only to who may read it.
            let pulled = caller
                .relay(s)
                .pull_package(&id, &ListingFilter::default())?;
            let signature = to_json(&pulled.signature)?;
            Ok(Reply::ok(pulled.found.package.to_value())
                .with_json_header(SIGNATURE_HEADER, &signature))
        })
        .await
}

/// orient (§8.3): the OrientationBundle, within the budget asked for (`max_chars`,
/// `max_tokens`), else the store's `[orient] max_chars`, as `relay orient --json`.
pub(crate) async fn orient(call: ProjectCall, Params(req): Params<OrientRequest>) -> Answer {
    call.run(Access::Read, move |s, caller, project| {
        Ok(Reply::ok(
            caller.relay(s).orient(&project, &req)?.to_value()?,
        ))
    })
    .await
}

/// orchestrate (§8.4): the DigestBundle of one project, or of every project the caller may
/// see (global mode) when none is named.
pub(crate) async fn orchestrate(
    State(state): State<AppState>,
    caller: Caller,
    Params(req): Params<OrchestrateRequest>,
) -> Answer {
    state
        .reading(move |s| {
            let model = s.model.clone();
            let rank = |asked: Option<&str>| Ok((search_mode(asked, model.as_deref())?, model));
            let project = req.project.clone();
            let (digest, _) = caller.relay(s).orchestrate(project, &req, rank)?;
            Ok(Reply::ok(digest.bundle()))
        })
        .await
}

/// A review action's request: who asks, `?session=`, and the core's request type, read from
/// the body with the path's package as its `package_id`.
pub(crate) struct ReviewCall<T> {
    state: AppState,
    caller: Caller,
    session: Option<String>,
    request: T,
}

impl<T: DeserializeOwned> FromRequest<AppState> for ReviewCall<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        let (mut parts, body) = req.into_parts();
        let caller = Caller::from_request_parts(&mut parts, state).await?;
        let PathId(package_id) = PathId::from_request_parts(&mut parts, state).await?;
        let Params(q) = Params::<WriteParams>::from_request_parts(&mut parts, state).await?;
        let body = JsonBody::from_request(Request::from_parts(parts, body), state).await?;
        let mut body = body.object("a review action", false)?;
        match body.get("package_id") {
            None => {}
            Some(Value::String(id)) if *id == package_id => {}
            Some(other) => {
                let why = format!("{other} is not the path's package `{package_id}`");
                return Err(SchemaError::new("package_id", why).into());
            }
        }
        body.insert("package_id".into(), json!(package_id));
        Ok(ReviewCall {
            state: state.clone(),
            caller,
            session: q.session,
            request: request::from_json("a review action", body)?,
        })
    }
}

impl<T> ReviewCall<T> {
    /// Applies `transition` as the caller, in the package's project; answers the updated
    /// wire package, as §8.5 says flag_for_review returns (the CLI and MCP wrap it with its
    /// hash and the transition).
    async fn apply(self, transition: Result<Transition>) -> Answer {
        let transition = transition?;
        let (caller, session) = (self.caller, self.session);
        self.state
            .blocking(move |s| {
                let claim = caller.claim(s, session);
                let done = caller.relay(s).review(&claim, transition)?;
                Ok(Reply::ok(done.package.to_value()))
            })
            .await
    }
}

/// flag_for_review (§8.5): `{"review_type": "human" | "agent", "note"?}`.
pub(crate) async fn flag(call: ReviewCall<FlagRequest>) -> Answer {
    let transition = call.request.clone().transition();
    call.apply(transition).await
}

/// Approve (§11.4): `{"note"?}`, or no body.
pub(crate) async fn approve(call: ReviewCall<ApproveRequest>) -> Answer {
    let transition = call.request.clone().transition();
    call.apply(transition).await
}

/// Request changes (§11.4): `{"note"}`, saying what to change.
pub(crate) async fn request_changes(call: ReviewCall<RequestChangesRequest>) -> Answer {
    let transition = call.request.clone().transition();
    call.apply(transition).await
}

/// The packages awaiting review in a project (§11.4), oldest request first, each with who
/// flagged it, when and why: `{"packages": […]}`.
pub(crate) async fn reviews(call: ProjectCall, Params(req): Params<ReviewListRequest>) -> Answer {
    if req.all_projects {
        let why = "a project's route lists that project's reviews";
        return Err(Error::InvalidInput(format!("`all_projects` is not taken here: {why}")).into());
    }
    call.run(Access::Read, move |s, caller, project| {
        let pending = caller.relay(s).review_list(&[project], &req)?;
        let packages: Vec<Value> = pending.iter().map(review::Pending::to_value).collect();
        Ok(Reply::ok(json!({ "packages": packages })))
    })
    .await
}
