//! The console's facts page: a project's current facts as a table, or those valid at a chosen
//! time (`as_of`, read as `relay facts list --at` reads it), and one key's history as a
//! timeline, newest first: each value, when it held, who asserted it, and how it ended
//! (superseded by the next value, or invalidated; a retracted or expired fact shows why, never
//! its value). A page about a time says so in its title and heading ("Facts as of …"). A
//! subject links to its facts, a predicate to its key's history, a source to its package.
//! Reads go through `ops::facts` and `ops::facts::history`, as the JSON routes' and
//! `relay facts` do.

use axum::extract::State;
use axum::response::Response;
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::Value;

use super::{
    PageError, Query, Who, given, html_page, inline_problem, layout, status_with, top, urlencode,
};
use crate::reply::ApiError;
use crate::state::AppState;
use relay_core::ops::facts::history::Entry;
use relay_core::ops::projects;
use relay_core::request::facts::ListFactsRequest;
use relay_core::search::filter::Reveal;
use relay_store::fact_chain::{self, Link};
use relay_wire::Fact;
use relay_wire::error::Result;
use relay_wire::time::{self, Timestamp};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactsParams {
    project: Option<String>,
    /// With `predicate`: that key's history; alone, only this subject's facts.
    subject: Option<String>,
    predicate: Option<String>,
    /// The facts valid at this time instead of now.
    as_of: Option<String>,
}

/// What the page shows.
enum View {
    /// One fact per key: current, or valid at `as_of`; of one subject when it is given.
    Table(Option<String>, Vec<Fact>),
    /// Every fact of one key, oldest first (the chain's order).
    History {
        subject: String,
        predicate: String,
        chain: Vec<Entry>,
    },
}

pub async fn page(
    State(state): State<AppState>,
    who: Who,
    Query(q): Query<FactsParams>,
) -> std::result::Result<Response, PageError> {
    let asked_time = given(&q.as_of);
    let caller = who.caller.clone();
    let asked_at = asked_time.clone();
    let (project, view, as_of, problem) = state
        .reading(move |s| -> Result<_> {
            let visible = caller.projects(&s.store)?;
            let project = super::choose_project(s, &caller, &visible, q.project.as_deref())?;
            projects::get(&s.store, &project)?;
            let (subject, predicate) = (given(&q.subject), given(&q.predicate));
            let req = ListFactsRequest {
                subject: subject.clone(),
                predicate: predicate.clone(),
                at: asked_at,
                ..ListFactsRequest::default()
            };
            // A time that does not parse: the page again, the time as typed and why.
            let relay = caller.relay(s);
            let query = match relay.facts_query(&project, req.clone()) {
                Ok(query) => query,
                Err(e) => {
                    let empty = View::Table(subject, Vec::new());
                    return Ok((project, empty, None, Some(ApiError::from(e))));
                }
            };
            let view = match (subject, predicate) {
                (Some(subject), Some(predicate)) => {
                    let key = (subject.clone(), predicate.clone());
                    let chain = relay.facts_history(&project, key.0, key.1, Reveal::default())?;
                    View::History {
                        subject,
                        predicate,
                        chain,
                    }
                }
                (subject, _) => View::Table(subject, relay.facts_list(&project, req)?),
            };
            Ok((project, view, query.at, None))
        })
        .await?;
    let asked = Asked {
        project: &project,
        text: asked_time.as_deref().unwrap_or(""),
        at: as_of,
        problem: problem.as_ref(),
    };
    Ok(html_page(
        status_with(asked.problem),
        render(&asked, &view, &who),
    ))
}

/// The project and the time the page was asked about.
struct Asked<'a> {
    project: &'a str,
    /// The time as it was typed, for the form.
    text: &'a str,
    at: Option<Timestamp>,
    /// Why the time asked for was not read; the page then shows no facts.
    problem: Option<&'a ApiError>,
}

/// The page of one key's history.
fn history_link(project: &str, subject: &str, predicate: &str) -> String {
    format!(
        "/facts?project={}&subject={}&predicate={}",
        urlencode(project),
        urlencode(subject),
        urlencode(predicate)
    )
}

/// The page of one subject's facts.
fn subject_link(project: &str, subject: &str) -> String {
    format!(
        "/facts?project={}&subject={}",
        urlencode(project),
        urlencode(subject)
    )
}

fn package_link(id: &str) -> Markup {
    html! { a href=(format!("/packages/{}", urlencode(id))) { (id) } }
}

/// `id (type)` of who asserted a fact, or nothing when it does not say.
fn asserted_by(f: &Fact) -> String {
    let by = f.as_map().get("asserted_by");
    let part = |k: &str| by.and_then(|b| b.get(k)).and_then(Value::as_str);
    match (part("id"), part("type")) {
        (Some(id), Some(kind)) => format!("{id} ({kind})"),
        (Some(id), None) => id.to_string(),
        _ => String::new(),
    }
}

/// A stored time, as stored, in a `<time>` element.
fn when(stored: Option<&str>) -> Markup {
    match stored {
        Some(t) => html! { time datetime=(t) { (t) } },
        None => html! {},
    }
}

/// When a fact ended, or that it has not.
fn until(f: &Fact) -> Markup {
    match f.str_field("valid_to") {
        Some(t) => when(Some(t)),
        None => html! { "now" },
    }
}

fn render(asked: &Asked, view: &View, who: &Who) -> Markup {
    let project = asked.project;
    let title = match view {
        View::Table(..) => "Facts".to_string(),
        View::History {
            subject, predicate, ..
        } => format!("{subject} {predicate}"),
    };
    let title = match asked.at {
        Some(t) => format!("{title} as of {}", time::format(t)),
        None => title,
    };
    layout(
        &title,
        html! {
            (top(project, who))
            main id="facts" {
                form method="get" action="/facts" class="filters" {
                    input type="hidden" name="project" value=(project);
                    @if let View::History { subject, predicate, .. } = view {
                        input type="hidden" name="subject" value=(subject);
                        input type="hidden" name="predicate" value=(predicate);
                    }
                    @if let View::Table(Some(subject), _) = view {
                        input type="hidden" name="subject" value=(subject);
                    }
                    label { "As of " input name="as_of" value=(asked.text) placeholder="2026-04-18T20:00:00Z" aria-invalid=[asked.problem.map(|_| "true")]; }
                    button type="submit" { "Show" }
                }
                p class="note" { "A time is an RFC 3339 timestamp, a date (its start in UTC) or an age (30m, 12h, 7d, 2w)." }
                @if let Some(e) = asked.problem {
                    (inline_problem(e))
                } @else {
                @match view {
                    View::Table(subject, list) => (table(asked, subject.as_deref(), list)),
                    View::History { subject, predicate, chain } => (history(asked, subject, predicate, chain)),
                }
                }
            }
        },
    )
}

fn table(asked: &Asked, subject: Option<&str>, list: &[Fact]) -> Markup {
    let project = asked.project;
    html! {
        h2 {
            @match asked.at {
                Some(_) => { "Facts" }
                None => { "Current facts" }
            }
            @if let Some(s) = subject { " about " span class="key" { (s) } }
            @if let Some(t) = asked.at { " as of " (when(Some(&time::format(t)))) }
        }
        @if asked.at.is_some() || subject.is_some() {
            p { a href=(format!("/facts?project={}", urlencode(project))) { "All current facts" } }
        }
        @if list.is_empty() {
            p class="empty" { "No facts." }
        } @else {
            div class="scroll" {
                table class="facts" {
                    thead { tr {
                        th { "Subject" } th { "Predicate" } th { "Value" } th { "Valid from" }
                        @if asked.at.is_some() { th { "Valid to" } }
                        th { "Asserted by" } th { "Source package" }
                    } }
                    tbody {
                        @for f in list {
                            @let key = history_link(project, f.subject(), f.predicate());
                            tr {
                                td data-label="Subject" { a href=(subject_link(project, f.subject())) title="this subject's facts" { (f.subject()) } }
                                td data-label="Predicate" { a href=(key) title="this key's history" { (f.predicate()) } }
                                td class="value" data-label="Value" { (f.value()) }
                                td data-label="Valid from" { (when(f.str_field("valid_from"))) }
                                @if asked.at.is_some() { td data-label="Valid to" { (until(f)) } }
                                td data-label="Asserted by" { (asserted_by(f)) }
                                td data-label="Source package" { @if let Some(src) = f.str_field("source_package_id") { (package_link(src)) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// How the fact at `i` of a chain ended: still current, superseded by the next fact, or
/// invalidated (ended with no fact starting then). A hidden fact is never current, and the
/// value of a hidden successor is not shown.
fn ending(chain: &[Entry], i: usize) -> Markup {
    let f = &chain[i].link.fact;
    if let Some((mark, why)) = &chain[i].hidden {
        let state = mark["because"]
            .as_str()
            .unwrap_or("hidden")
            .replace('_', " ");
        return html! { span class="state invalidated" title=(why) { (state) } };
    }
    let Some(to) = f.valid_to() else {
        return html! { span class="state current" { "current" } };
    };
    match chain.get(i + 1) {
        Some(next) if next.link.fact.valid_from() == to && next.withheld => html! {
            span class="state superseded" { "superseded" } " by a hidden fact"
        },
        Some(next) if next.link.fact.valid_from() == to => html! {
            span class="state superseded" { "superseded" } " by " q { (next.link.fact.value()) }
        },
        _ => html! { span class="state invalidated" { "invalidated" } },
    }
}

fn history(asked: &Asked, subject: &str, predicate: &str, chain: &[Entry]) -> Markup {
    // The version valid at the time asked about, and that time.
    let links: Vec<Link> = chain.iter().map(|e| e.link.clone()).collect();
    let then = asked
        .at
        .and_then(|t| Some((fact_chain::at(&links, t)?.id(), time::format(t))));
    let is_then = |f: &Fact| then.as_ref().is_some_and(|(id, _)| *id == f.id());
    html! {
        h2 {
            "History of " span class="key" { a href=(subject_link(asked.project, subject)) { (subject) } " " (predicate) }
            @if let Some(t) = asked.at { " as of " (when(Some(&time::format(t)))) }
        }
        p { a href=(format!("/facts?project={}", urlencode(asked.project))) { "All facts" } }
        @if links.iter().any(Link::differs) {
            p class="note" {
                "Merged clones left facts of this key open or overlapping; each is shown ending where the next begins. "
                code { "relay verify --fix" } " records that."
            }
        }
        ol class="fact-history" reversed {
            @for i in (0..chain.len()).rev() {
                @let link = &chain[i].link;
                @let f = &link.fact;
                li class=[is_then(f).then_some("then")] {
                    @if chain[i].withheld {
                        span class="value withheld" { "(withheld)" }
                    } @else {
                        span class="value" { (f.value()) }
                    }
                    " " span class="span" {
                        (when(f.str_field("valid_from"))) " → "
                        (until(f))
                    }
                    " " (ending(chain, i))
                    @if let Some((_, at)) = then.as_ref().filter(|_| is_then(f)) {
                        " " span class="state then" { "valid at " (at) }
                    }
                    div class="meta" {
                        @let by = asserted_by(f);
                        @if !by.is_empty() { "asserted by " (by) }
                        @if f.confidence() < 1.0 { ", confidence " (f.confidence()) }
                        @if let Some(src) = f.str_field("source_package_id") { ", from " (package_link(src)) }
                        @match &link.stored_valid_to {
                            Some(Some(stored)) => { ", stored end " (stored) }
                            Some(None) => { ", stored as open" }
                            None => {}
                        }
                        " " code { (f.id()) }
                    }
                }
            }
        }
    }
}
