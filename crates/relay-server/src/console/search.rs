//! The console's search page: relevant pull (keyword, semantic or hybrid search, whichever
//! the server can run; hybrid by default with a model) over a project, each result with its
//! score, how each list ranked it, the fields that matched, and the query's words marked in
//! its title and text. Marking happens on text runs that maud escapes, never on HTML.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};
use serde::Deserialize;

use super::{PageError, Query, Who, html_page, layout, top, urlencode};
use crate::params::search_mode;
use crate::state::AppState;
use relay_core::ops::projects;
use relay_core::search::filter::Filter;
use relay_core::search::relevant::{self, Ranked};
use relay_core::search::semantic;
use relay_wire::error::Result;

/// Results on the page.
const RESULTS: usize = 20;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    project: Option<String>,
    q: Option<String>,
    /// keyword, semantic or hybrid.
    mode: Option<String>,
}

pub async fn page(
    State(state): State<AppState>,
    who: Who,
    Query(q): Query<SearchParams>,
) -> std::result::Result<Response, PageError> {
    let caller = who.caller.clone();
    let (project, query, mode, found) = state
        .blocking(move |s| -> Result<_> {
            let visible = caller.projects(&s.store)?;
            let project = super::choose_project(s, &caller, &visible, q.project.as_deref())?;
            projects::get(&s.store, &project)?;
            let model = s.model.as_deref();
            let mode = search_mode(q.mode.as_deref().filter(|m| !m.is_empty()), model)?;
            let query = q.q.unwrap_or_default().trim().to_string();
            let found = if query.is_empty() {
                Vec::new()
            } else {
                let filter = Filter {
                    types: Vec::new(),
                    tags: Vec::new(),
                    actor: None,
                    status: None,
                    since: None,
                    until: None,
                    viewer: caller.viewer(s, &project),
                    ..Filter::default()
                };
                let projects = [project.clone()];
                semantic::search(&s.store, &projects, &query, &filter, RESULTS, mode, model)?
            };
            Ok((project, query, mode.as_str(), found))
        })
        .await?;
    let has_model = state.model.is_some();
    Ok(html_page(
        StatusCode::OK,
        render(&project, &query, mode, has_model, &found, &who),
    ))
}

/// The query's words, lower-cased, for marking.
fn words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(str::to_lowercase)
        .filter(|w| !relevant::is_stopword(w))
        .collect()
}

/// Whether a word of the text is one the query asked for: the same word, or one that starts
/// with it (a query for "leak" marks "leaking", as stemming finds it).
fn wanted(word: &str, asked: &[String]) -> bool {
    let w = word.to_lowercase();
    asked
        .iter()
        .any(|a| w == *a || (a.chars().count() >= 3 && w.starts_with(a.as_str())))
}

/// `text` with the asked words in `<mark>`; every run is escaped by maud.
pub fn marked(text: &str, asked: &[String]) -> Markup {
    let mut runs: Vec<(bool, &str)> = Vec::new();
    let mut start = 0;
    let mut in_word = None;
    for (i, c) in text.char_indices() {
        let is_word = c.is_alphanumeric();
        if in_word != Some(is_word) {
            if i > start {
                runs.push((in_word == Some(true), &text[start..i]));
            }
            start = i;
            in_word = Some(is_word);
        }
    }
    if start < text.len() {
        runs.push((in_word == Some(true), &text[start..]));
    }
    html! {
        @for (is_word, run) in runs {
            @if is_word && wanted(run, asked) { mark { (run) } } @else { (run) }
        }
    }
}

fn snippet(r: &Ranked) -> String {
    let m = r.stored.package.as_map();
    let text = ["handoff_note", "description"]
        .iter()
        .find_map(|k| m.get(*k).and_then(|v| v.as_str()))
        .unwrap_or("");
    match text.char_indices().nth(240) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

fn render(
    project: &str,
    query: &str,
    mode: &str,
    has_model: bool,
    found: &[Ranked],
    who: &Who,
) -> Markup {
    let asked = words(query);
    let modes: &[&str] = if has_model {
        &["hybrid", "semantic", "keyword"]
    } else {
        &["keyword"]
    };
    layout(
        "Search",
        html! {
            (top(project, who))
            main id="search" {
                form method="get" action="/search" class="filters" {
                    input type="hidden" name="project" value=(project);
                    label { "Find " input type="search" name="q" value=(query) autofocus; }
                    label { "Mode " select name="mode" {
                        @for m in modes { option value=(m) selected[*m == mode] { (m) } }
                    } }
                    button type="submit" { "Search" }
                }
                @if !has_model {
                    p class="note" { "Keyword search only: this server has no embedding model (relay serve --model PATH)." }
                }
                @if !query.is_empty() && found.is_empty() {
                    p class="empty" { "Nothing matches." }
                }
                ol class="results" {
                    @for r in found {
                        li class="result" {
                            a class="title" href=(format!("/packages/{}", urlencode(r.stored.package.id()))) {
                                (marked(r.stored.package.as_map().get("title").and_then(|v| v.as_str()).unwrap_or(""), &asked))
                            }
                            span class="score" { "score " (format!("{:.3}", r.score)) }
                            @if let Some(e) = &r.explain {
                                span class="ranks" {
                                    "keyword #" (e.keyword_rank.map_or("–".to_string(), |n| n.to_string()))
                                    ", meaning #" (e.semantic_rank.map_or("–".to_string(), |n| n.to_string()))
                                }
                            }
                            @if !r.matched.is_empty() { span class="matched" { "in " (r.matched.join(", ")) } }
                            p class="snippet" { (marked(&snippet(r), &asked)) }
                        }
                    }
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marking_wraps_asked_words_and_escapes_everything() {
        let asked = words("leak <b>");
        let html = marked("Memory leaking <b>here</b> & leak", &asked).into_string();
        assert_eq!(
            html,
            "Memory <mark>leaking</mark> &lt;b&gt;here&lt;/b&gt; &amp; <mark>leak</mark>"
        );
    }

    #[test]
    fn words_search_ignores_are_not_marked() {
        let asked = words("the guide for hires");
        let html = marked("Wrote the onboarding guide for new hires", &asked).into_string();
        assert_eq!(
            html,
            "Wrote the onboarding <mark>guide</mark> for new <mark>hires</mark>"
        );
    }
}
