//! The route table of `relay serve`: the spec's §9.1 mapping and relay's routes for what the
//! spec leaves to implementations (review, sessions, fact queries, projects, AMP, the
//! console), with the JSON answers for an unknown route or method and the layers every
//! request passes (where it comes from, its time limit). It is the one module that knows
//! every route module; they know none of each other.

use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::reply::{ApiError, RequestError};
use super::route_table::{Guard, Route};
use super::routes::{
    approve, conformance, deposit, flag, list, orchestrate, orient, package, request_changes,
    reviews,
};
use super::state::AppState;
use super::{amp, console, events, facts, mcp_http, projects, sessions};

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
        .route(
            "/mcp",
            post(mcp_http::post)
                .get(mcp_http::get)
                .delete(mcp_http::delete),
        )
        .merge(console::routes())
}

/// The whole service: [`routes`], JSON errors for an unknown route (404) or method (405), the
/// time limit on every request (408), and before all of them the checks of where a request
/// comes from (`guard`: its `Host`, 421, and another site's browser, 403); every answer says
/// `Cache-Control: no-store`.
pub fn router(state: AppState) -> Router {
    routes()
        .route_layer(middleware::from_fn_with_state(state.clone(), admit))
        .fallback(no_route)
        .method_not_allowed_fallback(wrong_method)
        .layer(middleware::from_fn_with_state(state.clone(), time_limit))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .layer(middleware::from_fn(no_store))
        .with_state(state)
}

/// Every answer, refusals included, is for its caller at this moment: no cache (a browser's,
/// a proxy's) keeps it, so a page of a package since retracted is not shown again from one.
async fn no_store(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    (response.headers_mut())
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

async fn no_route(method: Method, req: Request) -> ApiError {
    ApiError::Request(RequestError::NoRoute {
        method: method.to_string(),
        path: req.uri().path().to_string(),
    })
}

async fn wrong_method(method: Method, req: Request) -> ApiError {
    ApiError::Request(RequestError::MethodNotAllowed {
        method: method.to_string(),
        path: req.uri().path().to_string(),
    })
}

/// Refuses a request whose `Host` is not the server's (421) or that a browser says comes from
/// another site without a token (403), before any route reads it.
async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    if let Err(e) = super::guard::check(&state.hosts, &parts) {
        return e.into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}

/// Lets in a request of an operation only if the service says its caller may run it on the
/// path's project ([`super::auth::admit`]), before a handler reads its query or body; the
/// door's own routes (the console, MCP) check their callers themselves.
async fn admit(
    State(state): State<AppState>,
    matched: Option<MatchedPath>,
    req: Request,
    next: Next,
) -> Response {
    // HEAD is answered by the GET route.
    let method = match req.method() {
        &Method::HEAD => "GET",
        other => other.as_str(),
    };
    let route = matched.and_then(|m| Route::find(method, m.as_str()));
    let Some(Guard::Operation(operation)) = route.map(|r| r.guard) else {
        return next.run(req).await;
    };
    let (mut parts, body) = req.into_parts();
    if let Err(e) = super::auth::admit(&mut parts, &state, operation).await {
        return e.into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}

/// Answers 408 when a request is not read and answered within the server's `timeout` (a
/// client that sends its body slowly, say). An operation already running on a blocking thread
/// still finishes; only its answer is lost.
async fn time_limit(State(state): State<AppState>, req: Request, next: Next) -> Response {
    match tokio::time::timeout(state.timeout, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError::Request(RequestError::RequestTimeout {
            seconds: state.timeout.as_secs().max(1),
        })
        .into_response(),
    }
}
