//! The web console of `relay serve`, for the people in the loop: server-rendered HTML (maud,
//! which escapes every value it is given), one stylesheet and one small script, all served by
//! relay itself, under a Content-Security-Policy that allows nothing but this origin and no
//! inline script. This first page is the timeline: a project's packages by day, newest first,
//! filtered and paged through the catalogs (never the whole store); on its first page the
//! list is brought up to date live: an event of the stream makes the script fetch this same
//! page again and put its list in place, so it shows exactly what a reload would (the same
//! filters, drafts only to their author, nothing new on an older page). Each package has a
//! page of its own ([`package`]), and search
//! ([`search`]), the facts ([`facts`]) and the orient briefing ([`orient`]) have theirs. The
//! pages read through the same `ops` as the JSON routes. Filters are selects of the store's
//! values and statuses are badges ([`filters`]); stored prose is rendered Markdown
//! ([`markdown`]); a form whose input is refused answers its own page again, the input kept
//! and the reason inline ([`inline_problem`]).

mod facts;
mod filters;
mod login;
mod look;
mod markdown;
mod orient;
mod package;
mod redact;
mod review;
mod search;

pub use login::Who;

use std::collections::HashMap;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use maud::{DOCTYPE, Markup, html};
use serde::Deserialize;

use super::auth::Caller;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::extract::{Params, PathId};
use super::reply::ApiError;
use super::state::{AppState, Shared};
use relay_core::ops::projects;
use relay_core::request::ListingFilter;
use relay_core::service::{Listing, Relay};
use relay_store::packages::StoredPackage;
use relay_wire::error::{Error, Result};

/// Only this origin, and no inline script or style: a stored string that slipped through
/// escaping still could not run.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const CSS: &str = include_str!("console.css");
const JS: &str = include_str!("console.js");

/// Packages on one page of the timeline.
const PAGE: usize = 50;

/// The console's routes, added to the server's.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(timeline))
        .route("/packages/{package_id}", get(package::page))
        .route("/search", get(search::page))
        .route("/review", get(review::page))
        .route("/console/review/{package_id}", post(review::decide))
        .route("/console/login", get(login::form).post(login::submit))
        .route("/console/logout", post(login::logout))
        .route("/facts", get(facts::page))
        .route("/orient", get(orient::page))
        .route("/console/console.css", get(css))
        .route("/console/console.js", get(js))
}

pub(super) fn with_policy(mut r: Response, content_type: &'static str) -> Response {
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    r
}

/// A page as it leaves the server: any credential in it redacted (the second line of defence,
/// [`redact`]), under the console's policy.
pub(super) fn html_page(status: StatusCode, page: Markup) -> Response {
    let page = page.into_string();
    let (shown, _) = redact::redact_html(&page);
    with_policy(
        (status, shown.into_owned()).into_response(),
        "text/html; charset=utf-8",
    )
}

async fn css() -> Response {
    with_policy(CSS.into_response(), "text/css; charset=utf-8")
}

async fn js() -> Response {
    with_policy(JS.into_response(), "text/javascript; charset=utf-8")
}

/// The timeline's query: the project, the filters, and where a page ends.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimelineParams {
    project: Option<String>,
    #[serde(rename = "type")]
    package_type: Option<String>,
    status: Option<String>,
    /// Only packages by this actor: `created_by`, as on every door (`author` is the
    /// console's earlier name, still read).
    #[serde(alias = "author")]
    created_by: Option<String>,
    tag: Option<String>,
    /// Only packages created at or after this time (a timestamp, a date or an age like `7d`).
    since: Option<String>,
    /// Only packages created before this time (the next page): `until`, as on every door
    /// (`before` is the console's earlier name, still read).
    #[serde(alias = "before")]
    until: Option<String>,
}

/// A query value that was given and is not blank, trimmed.
pub(super) fn given(v: &Option<String>) -> Option<String> {
    v.as_ref()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The project a page is about: the one asked for (which the caller must be allowed to
/// read), else the store's default project, else the first of `visible` (the projects the
/// caller may see).
pub(super) fn choose_project(
    s: &Shared,
    caller: &Caller,
    visible: &[String],
    asked: Option<&str>,
) -> Result<String> {
    let asked = asked.map(str::trim).filter(|p| !p.is_empty());
    let project = match asked {
        Some(p) => p.to_string(),
        None => {
            (s.store.config().default_project.clone())
                .filter(|p| visible.contains(p))
                .or_else(|| visible.first().cloned())
                .ok_or_else(|| {
                    Error::InvalidInput(
                        "this store has no project you may see: create one with `relay projects create ID`"
                            .into(),
                    )
                })?
        }
    };
    caller.authorize_project("pull", &project)?;
    Ok(project)
}

/// What a timeline page shows.
struct Timeline {
    project: String,
    projects: Vec<String>,
    packages: Vec<StoredPackage>,
    more: bool,
    /// How each session on the page is named: its callsign, with the start of its id where
    /// open sessions share the callsign (`ops::sessions::labels`).
    callsigns: HashMap<String, String>,
    /// The options of the filters.
    facets: std::sync::Arc<filters::Facets>,
    /// Why the filters asked for were not read; the page then lists nothing.
    problem: Option<ApiError>,
}

/// The session a package was deposited in.
fn session_of(p: &StoredPackage) -> Option<&str> {
    p.package
        .as_map()
        .get("created_by")
        .and_then(|b| b.get("session_id"))
        .and_then(|v| v.as_str())
}

async fn timeline(
    State(state): State<AppState>,
    who: Who,
    Query(q): Query<TimelineParams>,
) -> std::result::Result<Response, PageError> {
    let caller = who.caller.clone();
    let name = who.name.clone();
    let page = state
        .reading(move |s| -> Result<(Timeline, TimelineParams)> {
            let visible = caller.projects(&s.store)?;
            let project = choose_project(s, &caller, &visible, q.project.as_deref())?;
            projects::get(&s.store, &project)?;
            // Filters that do not parse: the page again, the filters as typed and why.
            let relay = caller.relay(s);
            let (mut packages, problem) = match timeline_listing(&relay, &project, &q) {
                Ok(listing) => (relay.pull_latest(&listing, PAGE + 1)?, None),
                Err(e) => (Vec::new(), Some(ApiError::from(e))),
            };
            let more = packages.len() > PAGE;
            packages.truncate(PAGE);
            let on_page: std::collections::HashSet<&str> =
                packages.iter().filter_map(|p| session_of(p)).collect();
            let callsigns = if on_page.is_empty() {
                HashMap::new()
            } else {
                let all = s.store.sessions(&project)?;
                (relay_core::ops::sessions::labels(all.values()).into_iter())
                    .filter(|(id, _)| on_page.contains(id.as_str()))
                    .collect()
            };
            let facets = filters::kept(s, &relay, &project, name.as_deref())?;
            let page = Timeline {
                project,
                projects: visible,
                packages,
                more,
                callsigns,
                facets,
                problem,
            };
            Ok((page, q))
        })
        .await?;
    let (page, q) = page;
    Ok(html_page(
        status_with(page.problem.as_ref()),
        render(&page, &q, &who),
    ))
}

/// The timeline's listing of `project`, its filters as asked, checked by the service.
fn timeline_listing(relay: &Relay<'_>, project: &str, q: &TimelineParams) -> Result<Listing> {
    let listing = ListingFilter {
        types: given(&q.package_type).into_iter().collect(),
        tags: given(&q.tag).into_iter().collect(),
        created_by: given(&q.created_by),
        status: given(&q.status),
        since: given(&q.since),
        until: given(&q.until),
        ..ListingFilter::default()
    };
    relay.listing("pull", vec![project.to_string()], &listing)
}

/// The bar at the top of every page: the console's pages for `project`, and who is looking
/// (read-only, or logged in and able to write).
pub(super) fn top(project: &str, who: &Who) -> Markup {
    let at = |path: &str| format!("{path}?project={}", urlencode(project));
    html! {
        nav class="top" {
            a class="home" href=(at("/")) { "relay" }
            a href=(at("/search")) { "Search" }
            a href=(at("/facts")) { "Facts" }
            a href=(at("/review")) { "Review" }
            a href=(at("/orient")) { "Orient" }
            span class="project" { "Project " (project) }
            span class="who" {
                @match &who.name {
                    Some(name) => { "Signed in as " (name) @if !who.can_write() { " (read-only)" } }
                    None => { "Read-only · " a href="/console/login" { "Log in" } }
                }
                @if let Some(csrf) = &who.csrf {
                    form method="post" action="/console/logout" class="logout" {
                        input type="hidden" name="csrf" value=(csrf);
                        button type="submit" { "Log out" }
                    }
                }
            }
        }
    }
}

/// A console page's failure: a page of its own (not the JSON routes' body), with the error's
/// status and code.
#[derive(Debug)]
pub struct PageError(pub ApiError);

impl From<ApiError> for PageError {
    fn from(e: ApiError) -> PageError {
        PageError(e)
    }
}

impl From<Error> for PageError {
    fn from(e: Error) -> PageError {
        PageError(e.into())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        failure(self.0, "/")
    }
}

/// The query string of a page, parsed as [`Params`] does; a bad one is a [`PageError`].
pub struct Query<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, PageError> {
        let Params(q) = Params::from_request_parts(parts, state).await?;
        Ok(Query(q))
    }
}

/// The id in a page's path, as [`PathId`] reads it; a bad one is a [`PageError`].
pub struct PageId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PageId {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, PageError> {
        let PathId(id) = PathId::from_request_parts(parts, state).await?;
        Ok(PageId(id))
    }
}

/// A page that says what went wrong with a console action, with the error's status, and a
/// link back to where the person came from.
pub(super) fn failure(e: impl Into<ApiError>, back: &str) -> Response {
    let e: ApiError = e.into();
    let status = super::reply::status_of(e.code());
    let page = layout(
        "Not done",
        html! {
            nav class="top" { a class="home" href="/" { "relay" } }
            main id="failure" {
                h2 { "Not done" }
                p class="problem" role="alert" { (e.to_string()) }
                p class="code" { "Error " code { (e.code().as_str()) } " (" (status.as_u16()) ")" }
                p { a href=(back) { "Back" } }
            }
        },
    );
    html_page(status, page)
}

/// What is wrong with a form's input, shown on the form's own page (which keeps the input):
/// the reason, and the error's code and status, as [`failure`] says them.
pub(super) fn inline_problem(e: &ApiError) -> Markup {
    let status = super::reply::status_of(e.code());
    html! {
        div class="problem" role="alert" {
            (e.to_string())
            " " span class="code" { "(error " code { (e.code().as_str()) } ", " (status.as_u16()) ")" }
        }
    }
}

/// The status a page answers with: its problem's, else 200.
pub(super) fn status_with(problem: Option<&ApiError>) -> StatusCode {
    problem.map_or(StatusCode::OK, |e| super::reply::status_of(e.code()))
}

pub(super) fn layout(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · relay" }
                link rel="stylesheet" href="/console/console.css";
                script src="/console/console.js" defer {}
            }
            body { (body) }
        }
    }
}

/// A package's first decision, or "".
fn first_decision(p: &StoredPackage) -> &str {
    (p.package.as_map().get("decisions_made"))
        .and_then(|v| v.as_array())
        .and_then(|list| list.first())
        .and_then(|v| v.as_str())
        .unwrap_or("")
}

fn text<'a>(p: &'a StoredPackage, key: &str) -> &'a str {
    p.package
        .as_map()
        .get(key)
        .and_then(|v| v.as_str())
        .unwrap_or("")
}

fn render(page: &Timeline, q: &TimelineParams, who: &Who) -> Markup {
    let mut days: Vec<(&str, Vec<&StoredPackage>)> = Vec::new();
    for p in &page.packages {
        let day = text(p, "created_at").get(..10).unwrap_or("");
        match days.last_mut() {
            Some((d, list)) if *d == day => list.push(p),
            _ => days.push((day, vec![p])),
        }
    }
    let next = page
        .packages
        .last()
        .map(|p| text(p, "created_at").to_string());
    let value = |v: &Option<String>| v.clone().unwrap_or_default();
    let facets = &page.facets;
    layout(
        &page.project,
        html! {
            (top(&page.project, who))
            header {
                form method="get" action="/" class="switch" {
                    label { "Project " select name="project" data-autosubmit {
                        @for p in &page.projects {
                            option value=(p) selected[*p == page.project] { (p) }
                        }
                    } }
                    noscript { button type="submit" { "Go" } }
                }
                form method="get" action="/search" class="find" {
                    input type="hidden" name="project" value=(page.project);
                    label { "Search " input type="search" name="q"; }
                    button type="submit" { "Find" }
                }
            }
            // Only the first page follows new records (`data-live`): an older page stays as it
            // is, as a reload of it would.
            main id="timeline" data-project=(page.project) data-live[q.until.is_none()] {
                // One button on a phone (console.js folds it there), open elsewhere.
                details class="fold" open {
                    summary { "Filters" }
                    form method="get" action="/" class="filters" {
                        input type="hidden" name="project" value=(page.project);
                        (filters::select("Type", "type", &facets.types, q.package_type.as_deref()))
                        (filters::select("Status", "status", &filters::statuses(), q.status.as_deref()))
                        (filters::select("Author", "created_by", &facets.authors, q.created_by.as_deref()))
                        (filters::select("Tag", "tag", &facets.tags, q.tag.as_deref()))
                        label { "Since " input name="since" value=(value(&q.since)) placeholder="7d or 2026-11-01"; }
                        button type="submit" { "Filter" }
                    }
                }
                @if let Some(e) = &page.problem { (inline_problem(e)) }
                // What the script replaces with the same element of this page fetched again.
                div id="live" aria-live="polite" {
                    @if days.is_empty() && page.problem.is_none() {
                        p class="empty" { "No packages match." }
                    }
                    @for (day, list) in &days {
                        section class="day" {
                            h2 { time datetime=(day) { (day) } }
                            ol class="packages" {
                                @for p in list { (row(p, &page.callsigns)) }
                            }
                        }
                    }
                    @if page.more {
                        @if let Some(before) = next {
                            a class="older" href=(older_link(page, q, &before)) { "Older packages" }
                        }
                    }
                }
            }
        },
    )
}

fn row(p: &StoredPackage, callsigns: &HashMap<String, String>) -> Markup {
    let by = p.package.as_map().get("created_by");
    let author = by
        .and_then(|b| b.get("id"))
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let session = session_of(p);
    // As given, else the protocol's default: every row carries the figure reads rank by.
    let significance = p.package.significance();
    // What the next reader most needs: the handoff, else the first decision.
    let preview = [text(p, "handoff_note"), first_decision(p)]
        .into_iter()
        .find(|t| !t.trim().is_empty())
        .map(|t| look::preview(t, 160));
    html! {
        li class="package" data-id=(p.package.id()) {
            div class="line" {
                span class="when" { time datetime=(text(p, "created_at")) title=(text(p, "created_at")) { (text(p, "created_at").get(11..16).unwrap_or("")) } }
                span class="type" { (text(p, "package_type")) }
                (look::pill(text(p, "status")))
                span class="significance" title="significance" { "★" (significance) }
                a class="title" href=(format!("/packages/{}", urlencode(p.package.id()))) { (text(p, "title")) }
                span class="author" { (author) }
                @if let Some(s) = session {
                    span class="session" title=(s) { (callsigns.get(s).map_or(s, String::as_str)) }
                }
            }
            @if let Some(preview) = preview { p class="preview" { (preview) } }
        }
    }
}

/// Percent-encodes everything but unreserved characters, for a query value or a path part.
pub(super) fn urlencode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn older_link(page: &Timeline, q: &TimelineParams, before: &str) -> String {
    let mut parts = vec![format!("project={}", urlencode(&page.project))];
    for (key, v) in [
        ("type", &q.package_type),
        ("status", &q.status),
        ("created_by", &q.created_by),
        ("tag", &q.tag),
        ("since", &q.since),
    ] {
        if let Some(v) = given(v) {
            parts.push(format!("{key}={}", urlencode(&v)));
        }
    }
    parts.push(format!("until={}", urlencode(before)));
    format!("/?{}", parts.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(urlencode("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
    }

    #[test]
    fn the_policy_allows_no_inline_script_and_no_other_origin() {
        assert!(CSP.contains("script-src 'self'"));
        assert!(!CSP.contains("unsafe-inline"));
        assert!(!CSP.contains("http"));
    }
}
