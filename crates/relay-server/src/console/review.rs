//! The console's review queue (§5.3, §8.5, §11.4): what awaits a human and what awaits an
//! agent, who flagged each package, when and why; and, for a login that may write, a form to
//! approve a package or request changes with a note. The form goes through the same
//! the service's `Relay::review` as `relay review` and the JSON routes, as the logged-in actor.
//! A decision that cannot be made as sent (request changes without a note, a transition the
//! lifecycle refuses) comes back as the queue again, with that package's form holding what
//! was typed and the reason beside it (422, or the refusal's status), not as a page of its
//! own; only a form that is not this login's (CSRF, another site) gets the bare error page.

use axum::Form;
use axum::extract::State;
use axum::extract::rejection::FormRejection;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, PreEscaped, html};
use serde::Deserialize;
use serde_json::Value;

use super::filters::badge;
use super::login::same_site;
use super::{PageError, PageId, Query, Who, failure, html_page, layout, markdown, top, urlencode};
use crate::reply::ApiError;
use crate::state::AppState;
use relay_core::ops::packages::review::{Action, Pending};
use relay_core::ops::projects;
use relay_core::request::review::{ReviewListRequest, Transition};
use relay_store::packages::StoredPackage;
use relay_wire::error::{Code, Error, Result};

/// Requests shown of each kind, oldest first: a queue is worked from its front.
const SHOWN: usize = 100;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueParams {
    project: Option<String>,
    /// A package just reviewed from this page, to say so.
    done: Option<String>,
}

struct Queue {
    project: String,
    pending: Vec<Pending>,
    done: Option<StoredPackage>,
}

/// A decision sent back: the package, what was typed, and why it was not made.
struct Retry {
    package_id: String,
    note: String,
    problem: String,
}

pub async fn page(
    State(state): State<AppState>,
    who: Who,
    Query(q): Query<QueueParams>,
) -> std::result::Result<Response, PageError> {
    let queue = load(&state, &who, q).await?;
    Ok(html_page(StatusCode::OK, render(&queue, &who, None)))
}

/// The queue of the project asked for (else the caller's default), and the package just
/// reviewed, if any.
async fn load(state: &AppState, who: &Who, q: QueueParams) -> Result<Queue, ApiError> {
    let caller = who.caller.clone();
    state
        .reading(move |s| -> Result<Queue> {
            let visible = caller.projects(&s.store)?;
            let project = super::choose_project(s, &caller, &visible, q.project.as_deref())?;
            projects::get(&s.store, &project)?;
            let listed = ReviewListRequest::default();
            let pending = caller
                .relay(s)
                .review_list(std::slice::from_ref(&project), &listed)?;
            let done = match q.done.as_deref().filter(|d| !d.is_empty()) {
                Some(id) => Some(caller.authorize_package("review_list", &s.store, id)?),
                None => None,
            };
            Ok(Queue {
                project,
                pending,
                done,
            })
        })
        .await
}

/// `id (type)`: who acted, and as what.
pub(super) fn actor_text(v: &Value) -> String {
    let field = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("");
    match field("type") {
        "" => field("id").to_string(),
        t => format!("{} ({t})", field("id")),
    }
}

fn render(queue: &Queue, who: &Who, retry: Option<&Retry>) -> Markup {
    let project = &queue.project;
    let (human, agent): (Vec<&Pending>, Vec<&Pending>) = queue
        .pending
        .iter()
        .partition(|p| p.package.package.review_type() != "agent");
    layout(
        "Review",
        html! {
            (top(project, who))
            main id="review" {
                @if let Some(done) = &queue.done {
                    p class="done" role="status" {
                        "Done: "
                        a href=(format!("/packages/{}", urlencode(done.package.id()))) { (super::text(done, "title")) }
                        " is now " (done.package.status().as_str()) "."
                    }
                }
                // A decision on a package the queue no longer holds: why, and the note as typed.
                @if let Some(r) = retry.filter(|r| !queue.pending.iter().any(|p| p.package.package.id() == r.package_id)) {
                    section id="retry" {
                        p class="problem" role="alert" { (r.problem) }
                        p { "About " a class="id" href=(format!("/packages/{}", urlencode(&r.package_id))) { code { (r.package_id) } } "; your note:" }
                        textarea name="note" rows="2" readonly { (r.note) }
                    }
                }
                @if !who.can_write() {
                    p class="note" {
                        "Read-only: " a href="/console/login" { "log in" }
                        " with a token that may write to approve or request changes."
                    }
                }
                @for (heading, list, id) in [("Awaiting human review", &human, "human"), ("Awaiting agent review", &agent, "agent")] {
                    section id=(id) {
                        h2 { (heading) " (" (list.len()) ")" }
                        @if list.is_empty() { p class="empty" { "Nothing waits." } }
                        ol class="queue" {
                            @for p in list.iter().take(SHOWN) { (item(p, project, who, retry)) }
                        }
                        @if list.len() > SHOWN {
                            p class="note" { "The " (SHOWN) " oldest requests are shown; " (list.len() - SHOWN) " more wait behind them." }
                        }
                    }
                }
            }
        },
    )
}

fn item(p: &Pending, project: &str, who: &Who, retry: Option<&Retry>) -> Markup {
    let stored = &p.package;
    let id = stored.package.id();
    let retry = retry.filter(|r| r.package_id == id);
    let href = format!("/packages/{}", urlencode(id));
    html! {
        li class="pending" data-id=(id) id=(format!("review-{id}")) {
            a class="title" href=(href) { (super::text(stored, "title")) }
            " " (badge(stored.package.status().as_str()))
            " " span class="type" { (super::text(stored, "package_type")) }
            " " a class="id" href=(href) { code { (id) } }
            p class="flagged" {
                "Flagged by " span class="by" { (actor_text(&p.flagged_by)) }
                " " (super::look::ago(&p.flagged_at))
                @if let Some(n) = &p.note { ": " q class="why" { (n) } }
            }
            (under_review(stored))
            @if let Some(csrf) = &who.csrf {
                form method="post" action=(format!("/console/review/{}", urlencode(id))) class="decide" {
                    input type="hidden" name="csrf" value=(csrf);
                    input type="hidden" name="project" value=(project);
                    @if let Some(r) = retry {
                        p class="problem" role="alert" id=(format!("problem-{id}")) { (r.problem) }
                        label { "Note " textarea name="note" rows="2" autofocus aria-invalid="true"
                            aria-describedby=(format!("problem-{id}")) { (r.note) } }
                    } @else {
                        label { "Note " textarea name="note" rows="2" {} }
                    }
                    button type="submit" name="action" value="approve" { "Approve" }
                    button type="submit" name="action" value="request_changes" { "Request changes" }
                }
            }
        }
    }
}

/// What is being approved: the package's description, content, decisions, open questions
/// and handoff, rendered as on its page, so that a reviewer decides without leaving the queue.
fn under_review(stored: &StoredPackage) -> Markup {
    let m = stored.package.as_map();
    let text = |k: &str| {
        m.get(k)
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty())
    };
    let items = |k: &str| -> Vec<&str> {
        (m.get(k).and_then(Value::as_array))
            .map(|l| l.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    };
    let prose = |md: &str| html! { div class="prose" { (PreEscaped(markdown::to_html(md))) } };
    let said = ["description", "content_md", "handoff_note"]
        .iter()
        .any(|k| text(k).is_some())
        || ["decisions_made", "open_questions"]
            .iter()
            .any(|k| !items(k).is_empty());
    if !said {
        return html! { p class="under-review empty" { "Only a title: no description, decisions or handoff." } };
    }
    html! {
        div class="under-review" {
            @for (key, heading) in [("description", "Description"), ("content_md", "Content")] {
                @if let Some(t) = text(key) { section { h3 { (heading) } (prose(t)) } }
            }
            @for (key, heading) in [("decisions_made", "Decisions"), ("open_questions", "Open questions")] {
                @let list = items(key);
                @if !list.is_empty() { section { h3 { (heading) } ul { @for i in &list { li { (prose(i)) } } } } }
            }
            @if let Some(t) = text("handoff_note") { section { h3 { "Handoff" } (prose(t)) } }
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct Decision {
    csrf: String,
    action: String,
    #[serde(default)]
    note: String,
    /// The queue to go back to.
    project: Option<String>,
}

/// `POST /console/review/{id}`: approve or request changes, as the logged-in actor; back to
/// the queue, which says what was done.
pub async fn decide(
    State(state): State<AppState>,
    headers: HeaderMap,
    who: Who,
    PageId(package_id): PageId,
    form: std::result::Result<Form<Decision>, FormRejection>,
) -> Response {
    let back = "/review";
    let form = match form {
        Ok(Form(f)) => f,
        Err(e) => {
            return failure(
                Error::InvalidInput(format!("the review form is incomplete: {e}")),
                back,
            );
        }
    };
    let checked = same_site(&headers).and_then(|()| who.check_form(&form.csrf));
    let action = match form.action.as_str() {
        "approve" => Ok(Action::Approve),
        "request_changes" => Ok(Action::RequestChanges),
        other => Err(Error::InvalidInput(format!(
            "`{other}` is not a review action here: approve or request_changes"
        ))),
    };
    let (action, note) = match checked.and(action) {
        Ok(a) => (
            a,
            Some(form.note.trim().to_string()).filter(|n| !n.is_empty()),
        ),
        Err(e) => return failure(e, back),
    };
    if action == Action::RequestChanges && note.is_none() {
        let problem = "Requesting changes needs a note: say what should change.";
        return again(&state, &who, form, package_id, problem.into(), None).await;
    }
    let caller = who.caller.clone();
    let id = package_id.clone();
    let done = state
        .blocking(move |s| {
            let claim = caller.claim(s, None);
            let transition = Transition {
                package_id: id,
                action,
                note,
            };
            caller.relay(s).review(&claim, transition)
        })
        .await;
    match done {
        Ok(p) => {
            let project = form
                .project
                .unwrap_or_else(|| p.package.project_id().to_string());
            Redirect::to(&format!(
                "/review?project={}&done={}",
                urlencode(&project),
                urlencode(&package_id)
            ))
            .into_response()
        }
        // Refused by the lifecycle or the store: the form again, with why.
        Err(e) if matches!(e.code(), Code::InvalidInput | Code::InvalidTransition) => {
            let status = crate::reply::status_of(e.code());
            again(&state, &who, form, package_id, e.to_string(), Some(status)).await
        }
        Err(e) => failure(e, back),
    }
}

/// The queue again after a decision that was not made: the package's form with the note as
/// typed and `problem` beside it, answered `status` (default 422); the bare error page only
/// where the queue itself cannot be shown.
async fn again(
    state: &AppState,
    who: &Who,
    form: Decision,
    package_id: String,
    problem: String,
    status: Option<StatusCode>,
) -> Response {
    let q = QueueParams {
        project: form.project,
        done: None,
    };
    let queue = match load(state, who, q).await {
        Ok(queue) => queue,
        Err(e) => return failure(e, "/review"),
    };
    let retry = Retry {
        package_id,
        note: form.note,
        problem,
    };
    html_page(
        status.unwrap_or(StatusCode::UNPROCESSABLE_ENTITY),
        render(&queue, who, Some(&retry)),
    )
}
