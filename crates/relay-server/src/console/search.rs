//! The console's search page: relevant pull (keyword, semantic or hybrid search, whichever
//! the server can run; hybrid by default with a model) over a project, each result with its
//! score, how each list ranked it, the fields that matched, and the query's words marked in
//! its title and text. Marking happens on text runs that maud escapes, never on HTML. The
//! filters (type, status, author, tag) are selects of the store's values
//! ([`filters`](super::filters)), and each result shows its status badge and its id.

use axum::extract::State;
use axum::response::Response;
use maud::{Markup, html};
use serde::Deserialize;

use super::filters::{self, Facets, badge};
use super::{
    PageError, Query, Who, given, html_page, inline_problem, layout, markdown, status_with, top,
    urlencode,
};
use crate::params::search_mode;
use crate::reply::ApiError;
use crate::state::AppState;
use relay_core::ops::projects;
use relay_core::request::ListingFilter;
use relay_core::search::relevant::{self, Ranked};
use relay_wire::error::Result;

/// Results on the page.
const RESULTS: usize = 20;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    project: Option<String>,
    q: Option<String>,
    /// keyword, semantic or hybrid.
    #[serde(alias = "mode")]
    search: Option<String>,
    #[serde(rename = "type")]
    package_type: Option<String>,
    status: Option<String>,
    /// Only packages by this actor (`author`, the earlier name, is still read).
    #[serde(alias = "author")]
    created_by: Option<String>,
    tag: Option<String>,
}

/// What the page shows besides the results.
struct Shown<'a> {
    project: &'a str,
    query: &'a str,
    mode: &'a str,
    has_model: bool,
    asked: &'a SearchParams,
    facets: &'a Facets,
    /// Why the search asked for was not run.
    problem: Option<&'a ApiError>,
}

pub async fn page(
    State(state): State<AppState>,
    who: Who,
    Query(q): Query<SearchParams>,
) -> std::result::Result<Response, PageError> {
    let caller = who.caller.clone();
    let name = who.name.clone();
    let (project, query, mode, found, facets, q, problem) = state
        .reading(move |s| -> Result<_> {
            let visible = caller.projects(&s.store)?;
            let project = super::choose_project(s, &caller, &visible, q.project.as_deref())?;
            projects::get(&s.store, &project)?;
            let model = s.model.as_deref();
            let query = q.q.clone().unwrap_or_default().trim().to_string();
            let facets = filters::kept(s, &caller.relay(s), &project, name.as_deref())?;
            // A mode or filter that cannot be used: the page again, the form as sent and why.
            let relay = caller.relay(s);
            let listing = ListingFilter {
                types: given(&q.package_type).into_iter().collect(),
                tags: given(&q.tag).into_iter().collect(),
                created_by: given(&q.created_by),
                status: given(&q.status),
                ..ListingFilter::default()
            };
            let checked = search_mode(q.search.as_deref().filter(|m| !m.is_empty()), model)
                .and_then(|mode| {
                    Ok((
                        mode,
                        relay.listing("search", vec![project.clone()], &listing)?,
                    ))
                });
            let (mode, listing) = match checked {
                Ok(ok) => ok,
                Err(e) => {
                    let mode = search_mode(None, model)?;
                    let asked = q.search.clone().unwrap_or_default();
                    let shown = if asked.is_empty() {
                        mode.as_str().to_string()
                    } else {
                        asked
                    };
                    return Ok((
                        project,
                        query,
                        shown,
                        Vec::new(),
                        facets,
                        q,
                        Some(ApiError::from(e)),
                    ));
                }
            };
            let found = if query.is_empty() {
                Vec::new()
            } else {
                relay.search(&listing, &query, RESULTS, &(mode, s.model.clone()))?
            };
            Ok((
                project,
                query,
                mode.as_str().to_string(),
                found,
                facets,
                q,
                None,
            ))
        })
        .await?;
    let shown = Shown {
        project: &project,
        query: &query,
        mode: &mode,
        has_model: state.model.is_some(),
        asked: &q,
        facets: &facets,
        problem: problem.as_ref(),
    };
    Ok(html_page(
        status_with(shown.problem),
        render(&shown, &found, &who),
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

/// `text` [`marked`], each package id in it a link to its page.
fn with_ids(text: &str, asked: &[String]) -> Markup {
    let parts = markdown::split_ids(text);
    html! {
        @for (part, is_id) in parts {
            @if is_id {
                a class="id" href=(format!("/packages/{}", urlencode(part))) { (part) }
            } @else {
                (marked(part, asked))
            }
        }
    }
}

/// The handoff or description as one line of plain text (its Markdown dropped), cut at 240
/// characters.
fn snippet(r: &Ranked) -> String {
    let m = r.stored.package.as_map();
    let text = ["handoff_note", "description"]
        .iter()
        .find_map(|k| m.get(*k).and_then(|v| v.as_str()))
        .unwrap_or("");
    super::look::preview(text, 241)
}

fn render(shown: &Shown, found: &[Ranked], who: &Who) -> Markup {
    let Shown {
        project,
        query,
        mode,
        has_model,
        asked: q,
        facets,
        problem,
    } = shown;
    let (project, query, mode, has_model) = (*project, *query, *mode, *has_model);
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
                    label { "Mode " select name="search" {
                        @for m in modes { option value=(m) selected[*m == mode] { (m) } }
                    } }
                    (filters::select("Type", "type", &facets.types, q.package_type.as_deref()))
                    (filters::select("Status", "status", &filters::statuses(), q.status.as_deref()))
                    (filters::select("Author", "created_by", &facets.authors, q.created_by.as_deref()))
                    (filters::select("Tag", "tag", &facets.tags, q.tag.as_deref()))
                    button type="submit" { "Search" }
                }
                @if !has_model {
                    p class="note" { "Keyword search only: this server has no embedding model (relay serve --model PATH)." }
                }
                @if let Some(e) = problem { (inline_problem(e)) }
                @if !query.is_empty() && found.is_empty() && problem.is_none() {
                    p class="empty" { "Nothing matches." }
                }
                ol class="results" {
                    @for r in found {
                        li class="result" {
                            a class="title" href=(format!("/packages/{}", urlencode(r.stored.package.id()))) {
                                (marked(r.stored.package.as_map().get("title").and_then(|v| v.as_str()).unwrap_or(""), &asked))
                            }
                            (badge(r.stored.package.status().as_str()))
                            " " a class="id" href=(format!("/packages/{}", urlencode(r.stored.package.id()))) { code { (r.stored.package.id()) } }
                            " " span class="type" { (r.stored.package.package_type()) }
                            " " span class="score" { "score " (format!("{:.3}", r.score)) }
                            @if let Some(e) = &r.explain {
                                span class="ranks" {
                                    "keyword #" (e.keyword_rank.map_or("–".to_string(), |n| n.to_string()))
                                    ", meaning #" (e.semantic_rank.map_or("–".to_string(), |n| n.to_string()))
                                }
                            }
                            @if !r.matched.is_empty() { span class="matched" { "in " (r.matched.join(", ")) } }
                            p class="snippet" { (with_ids(&snippet(r), &asked)) }
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
    fn package_ids_in_a_snippet_are_links() {
        let asked = words("leak");
        let html = with_ids("leak (see pkg_0123abcd), not apkg_0123abcd", &asked).into_string();
        assert_eq!(
            html,
            "<mark>leak</mark> (see <a class=\"id\" href=\"/packages/pkg_0123abcd\">pkg_0123abcd</a>), \
             not apkg_0123abcd"
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
