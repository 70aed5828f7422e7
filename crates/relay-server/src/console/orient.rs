//! The console's orient page: the briefing `relay orient` prints (`ops::briefing::markdown`, the same
//! Markdown), rendered as HTML through [`markdown::to_html`](super::markdown::to_html), with
//! raw HTML and unsafe links in stored text neutralised. The window's length and the budget
//! (characters; default the store's `[orient] max_chars`, as on every door) are fields.

use axum::extract::State;
use axum::response::Response;
use maud::{Markup, PreEscaped, html};
use serde::Deserialize;

use super::{
    PageError, Query, Who, given, html_page, inline_problem, layout, markdown, status_with, top,
};
use crate::reply::ApiError;
use crate::state::AppState;
use relay_core::ops::briefing::{self};
use relay_core::request::{DEFAULT_WINDOW_DAYS, OrientRequest, check_window};
use relay_wire::error::{Error, Result};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrientParams {
    project: Option<String>,
    /// How many days back to look (`relay orient --window-days`); text, so that a form's
    /// empty field means the default.
    days: Option<String>,
    /// Fit the briefing in this many characters (`relay orient --max-chars`); empty means the
    /// store's `[orient] max_chars`, else no budget.
    chars: Option<String>,
}

/// A form field holding a whole number, or nothing.
fn whole_number(name: &str, text: &Option<String>) -> Result<Option<usize>> {
    given(text)
        .map(|d| {
            d.parse::<usize>()
                .map_err(|_| Error::InvalidInput(format!("{name}: `{d}` is not a whole number")))
        })
        .transpose()
}

/// The window and budget asked for, checked.
fn request(q: &OrientParams) -> Result<OrientRequest> {
    let asked = given(&q.days)
        .map(|d| {
            d.parse::<u32>().map_err(|_| {
                Error::InvalidInput(format!("days: `{d}` is not a whole number of days"))
            })
        })
        .transpose()?;
    let req = OrientRequest {
        window_days: asked.unwrap_or(DEFAULT_WINDOW_DAYS),
        max_chars: whole_number("chars", &q.chars)?,
        ..OrientRequest::default()
    };
    check_window("days", req.window_days)?;
    Ok(req)
}

pub async fn page(
    State(state): State<AppState>,
    who: Who,
    Query(q): Query<OrientParams>,
) -> std::result::Result<Response, PageError> {
    // A window or budget that does not parse: the page again, the fields as typed and why.
    let req = request(&q).map_err(ApiError::from);
    let fields = Fields {
        days: match &req {
            Ok(r) => r.window_days.to_string(),
            Err(_) => q.days.clone().unwrap_or_default(),
        },
        chars: match &req {
            Ok(r) => r.max_chars.map(|c| c.to_string()).unwrap_or_default(),
            Err(_) => q.chars.clone().unwrap_or_default(),
        },
    };
    let caller = who.caller.clone();
    let asked_project = q.project.clone();
    let (project, md, problem) = state
        .reading(move |s| -> Result<_> {
            let visible = caller.projects(&s.store)?;
            let project = super::choose_project(s, &caller, &visible, asked_project.as_deref())?;
            let req = match req {
                Ok(req) => req,
                Err(e) => return Ok((project, String::new(), Some(e))),
            };
            let briefing = caller.relay(s).orient(&project, &req)?;
            let md = briefing::markdown::orient(&briefing.orientation, briefing.budget);
            Ok((project, md, None))
        })
        .await?;
    Ok(html_page(
        status_with(problem.as_ref()),
        render(&project, &fields, &md, problem.as_ref(), &who),
    ))
}

/// The form's fields as they will show: as asked, or as typed when they did not parse.
struct Fields {
    days: String,
    chars: String,
}

fn render(
    project: &str,
    fields: &Fields,
    md: &str,
    problem: Option<&ApiError>,
    who: &Who,
) -> Markup {
    let invalid = problem.map(|_| "true");
    layout(
        "Orient",
        html! {
            (top(project, who))
            main id="orient" {
                form method="get" action="/orient" class="filters" {
                    input type="hidden" name="project" value=(project);
                    label { "Days " input type="number" name="days" min="0" value=(fields.days) aria-invalid=[invalid]; }
                    label title="Fit the briefing in this many characters; empty: the store's [orient] max_chars, else all of it" {
                        "Characters "
                        input type="number" name="chars" min="0" placeholder="all" value=[Some(&fields.chars).filter(|c| !c.is_empty())] aria-invalid=[invalid];
                    }
                    button type="submit" { "Show" }
                }
                @if let Some(e) = problem {
                    (inline_problem(e))
                } @else {
                    p class="note" { "The briefing " code { "relay orient" } " prints for this window." }
                    // pulldown-cmark's output, with raw HTML and unsafe links neutralised.
                    article class="briefing" { (PreEscaped(markdown::to_html(md))) }
                }
            }
        },
    )
}
