//! The console's package page, laid out as an issue page: the title large, a byline with the
//! status pill, author and time; the body (description, content, decisions, open questions,
//! handoff and any other Markdown member, rendered by [`markdown`](super::markdown)) beside a
//! column of the package's metadata under human labels;
//! its deliverables as a table with the CLI's stale marks (`ops::packages::stale`: a file
//! changed or missing since the deposit), its review history (each version's transition) and
//! its content hash, which the store checked when it read the line ("verified"); then the
//! packages that name it as their parent (in the projects the caller may read) and the facts
//! it is the source of.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, PreEscaped, html};
use serde_json::{Map, Value};

use super::filters::badge;
use super::{PageError, PageId, Who, html_page, layout, look, markdown, top, urlencode};
use crate::state::AppState;
use relay_core::ops::packages::stale::{self, Stale};
use relay_core::ops::trust::seal::Seal;
use relay_core::ops::{facts, packages::pull};
use relay_store::packages::StoredPackage;
use relay_wire::Fact;

/// Members shown in their own place on the page; any other is listed under "Other fields".
const SHOWN: [&str; 18] = [
    "package_id",
    "project_id",
    "relay_version",
    "title",
    "description",
    "package_type",
    "status",
    "review_type",
    "significance",
    "created_at",
    "created_by",
    "parent_package_id",
    "decisions_made",
    "open_questions",
    "handoff_note",
    "tags",
    "deliverables",
    "content_md",
];

/// What the page shows besides the package's own fields.
struct Related {
    /// Every version, oldest first.
    versions: Vec<StoredPackage>,
    /// The packages that name it as their parent, oldest first.
    children: Vec<StoredPackage>,
    /// The facts whose source it is, current and ended.
    facts: Vec<Fact>,
    /// The current version's deliverables that changed or are gone since the deposit.
    stale: Vec<Stale>,
    /// The verdict on its signature.
    signature: Seal,
    /// The callsign of the session it was deposited in, as the timeline shows it.
    session: Option<String>,
}

pub async fn page(
    State(state): State<AppState>,
    who: Who,
    PageId(id): PageId,
) -> Result<Response, PageError> {
    let caller = who.caller.clone();
    let related = state
        .reading(move |s| {
            let relay = caller.relay(s);
            let versions = relay.pull_history(&id)?.versions;
            let Some(project) = versions.first().map(|v| v.package.project_id().to_string()) else {
                return Err(relay_wire::error::Error::PackageNotFound(id));
            };
            caller.authorize_project("pull", &project)?;
            // Hidden (retracted, expired): not found, and why.
            let signature = relay.pull_package(&id, &Default::default())?.signature;
            // Its own project (even one the project log lacks), then every other it may read.
            let mut projects = vec![project.clone()];
            projects.extend((caller.projects(&s.store)?.into_iter()).filter(|p| *p != project));
            let children = pull::children(&s.store, &projects, &id, |p| caller.viewer(s, p))?;
            let facts = facts::sourced_by(&s.store, &project, &id)?;
            let current = versions.iter().max_by_key(|v| v.version);
            let stale = stale::of_packages(&s.store, current.map(|c| &c.package)).concat();
            let session = match current.and_then(|c| session_id(&c.package)) {
                Some(id) => {
                    let all = s.store.sessions(&project)?;
                    (relay_core::ops::sessions::labels(all.values()).into_iter())
                        .find(|(sid, _)| sid == id)
                        .map(|(_, label)| label)
                }
                None => None,
            };
            Ok(Related {
                versions,
                children,
                facts,
                stale,
                signature,
                session,
            })
        })
        .await?;
    let Some(current) = related.versions.iter().max_by_key(|v| v.version) else {
        return Err(relay_wire::error::Error::PackageNotFound(String::new()).into());
    };
    Ok(html_page(StatusCode::OK, render(current, &related, &who)))
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn list(map: &Map<String, Value>, key: &str) -> Vec<String> {
    match map.get(key) {
        Some(Value::Array(items)) => items.iter().map(show).collect(),
        _ => Vec::new(),
    }
}

/// The session a package was deposited in.
fn session_id(p: &relay_wire::Package) -> Option<&str> {
    (p.as_map().get("created_by"))
        .and_then(|b| b.get("session_id"))
        .and_then(Value::as_str)
}

fn render(current: &StoredPackage, related: &Related, who: &Who) -> Markup {
    let m = current.package.as_map();
    let get = |k: &str| m.get(k).map(show).unwrap_or_default();
    let by = m.get("created_by").and_then(Value::as_object);
    let by_text = |k: &str| by.and_then(|b| b.get(k)).map(show).unwrap_or_default();
    let project = current.package.project_id();
    let other: Vec<(&String, &Value)> = m
        .iter()
        .filter(|(k, _)| !SHOWN.contains(&k.as_str()))
        .collect();
    let deliverables = match m.get("deliverables") {
        Some(Value::Array(items)) => items.clone(),
        _ => Vec::new(),
    };
    let author = by_text("id");
    // The significance every reader ranks by: as given, else the protocol's default.
    let significance = current.package.significance();
    layout(
        &get("title"),
        html! {
            (top(project, who))
            main id="package" {
                header class="package-head" {
                    h1 class="package-title" { (get("title")) }
                    p class="byline" {
                        (look::pill(&get("status")))
                        " " span class="type" { (get("package_type")) }
                        " · " span class="author" { (author) }
                        @if let Some(callsign) = &related.session { " in " span class="session" { (callsign) } }
                        " deposited " (look::ago(&get("created_at")))
                    }
                }
                div class="package-layout" {
                    div class="package-body" {
                        @if m.contains_key("description") { section { h2 { "Description" } (prose(&get("description"))) } }
                        @if m.contains_key("content_md") { section class="content" { h2 { "Content" } (prose(&get("content_md"))) } }
                        @for (key, heading) in [("decisions_made", "Decisions"), ("open_questions", "Open questions")] {
                            @let items = list(m, key);
                            @if !items.is_empty() {
                                section { h2 { (heading) } ul class=(key) { @for i in &items { li { (prose(i)) } } } }
                            }
                        }
                        @if m.contains_key("handoff_note") { section { h2 { "Handoff" } (prose(&get("handoff_note"))) } }
                        @if !deliverables.is_empty() { (deliverables_table(&deliverables, &related.stale)) }
                        @if !other.is_empty() {
                            section { h2 { "Other fields" } dl class="other" {
                                @for (k, v) in &other {
                                    dt { (look::label(k)) }
                                    dd { @match v { Value::String(text) => { (prose(text)) } _ => { code { (show(v)) } } } }
                                }
                            } }
                        }
                        section { h2 { "History" } ol class="history" {
                            @for v in &related.versions {
                                li { "version " (v.version) ": "
                                    @match &v.transition {
                                        Some(t) => {
                                            (show(&t["action"])) " " (show(&t["from"])) " → " (show(&t["to"]))
                                            " by " (super::review::actor_text(&t["by"])) " " (look::ago(&show(&t["at"])))
                                            @if t.get("note").is_some() { ": " q { (show(&t["note"])) } }
                                        }
                                        None => { "deposited " (v.package.as_map().get("status").map(show).unwrap_or_default()) }
                                    }
                                }
                            }
                        } }
                        (children(&related.children, project))
                        (sourced_facts(&related.facts, project))
                    }
                    aside class="package-meta" {
                        dl class="fields" {
                            dt { "Status" } dd { (badge(&get("status"))) }
                            dt { (look::label("package_id")) } dd { code { (current.package.id()) } }
                            @for key in ["package_type", "review_type"] {
                                @if m.contains_key(key) { dt { (look::label(key)) } dd { (get(key).replace('_', " ")) } }
                            }
                            dt { (look::label("significance")) }
                            dd class="significance" title=(if m.contains_key("significance") { "as given" } else { "the default" }) { "★ " (significance) }
                            dt { (look::label("created_at")) } dd { (look::ago(&get("created_at"))) }
                            dt { (look::label("created_by")) }
                            dd { (author) " (" (by_text("type")) ")"
                                @if let Some(callsign) = &related.session { br; "session " span class="session" title=(by_text("session_id")) { (callsign) } } }
                            @if let Some(parent) = m.get("parent_package_id").and_then(Value::as_str) {
                                dt { (look::label("parent_package_id")) }
                                dd { a href=(format!("/packages/{}", urlencode(parent))) { (parent) } }
                            }
                            @let tags = list(m, "tags");
                            @if !tags.is_empty() {
                                dt { "Tags" }
                                dd { ul class="tags" {
                                    @for t in &tags { li { a href=(format!("/?project={}&tag={}", urlencode(project), urlencode(t))) { (t) } } }
                                } }
                            }
                            @if m.contains_key("relay_version") { dt { (look::label("relay_version")) } dd { "relay " (get("relay_version")) } }
                        }
                        p class="hash" {
                            "✓ verified: the content matches its hash " code title=(current.hash) { (short_hash(&current.hash)) }
                        }
                        @for line in related.signature.lines() {
                            p class="signature" { (line) }
                        }
                    }
                }
            }
        },
    )
}

/// Stored text as Markdown: credentials redacted, no raw HTML, only safe links.
fn prose(md: &str) -> Markup {
    html! { div class="prose" { (PreEscaped(markdown::to_html(md))) } }
}

/// `sha256:` and the first 12 hex digits, as enough to tell hashes apart on a page.
fn short_hash(hash: &str) -> String {
    match hash.get(..19) {
        Some(start) if hash.len() > 19 => format!("{start}…"),
        _ => hash.to_string(),
    }
}

/// Whether a deliverable's path is a web address (shown as a link).
fn is_url(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// The deliverables as a table: path or link, kind, description, size and hash, and the
/// CLI's stale mark (`may be stale: … changed|missing`) on each that changed or is gone.
fn deliverables_table(items: &[Value], stale: &[Stale]) -> Markup {
    let field = |d: &Value, k: &str| d.get(k).map(show).unwrap_or_default();
    // relay records none; another implementation's may.
    let described = items.iter().any(|d| d.get("description").is_some());
    html! {
        section id="deliverables" {
            h3 { "Deliverables" }
            @if !stale.is_empty() {
                p class="stale-note" role="note" {
                    span class="stale-mark" aria-hidden="true" { "⚠" }
                    " may be stale: " (stale::describe(stale, str::to_string))
                }
            }
            div class="scroll" { table class="deliverables" {
                thead { tr { th { "Path or URL" } th { "Kind" } @if described { th { "Description" } } th { "Size" } th { "Hash" } } }
                tbody {
                    @for d in items {
                        @let path = match d { Value::String(p) => p.clone(), _ => field(d, "path") };
                        @let mark = stale.iter().find(|s| s.path == path);
                        tr class=[mark.map(|_| "stale")] {
                            td class="path" {
                                @if is_url(&path) {
                                    a href=(path) rel="noopener noreferrer" { (path) }
                                } @else {
                                    code { (path) }
                                }
                                @if let Some(s) = mark {
                                    " " span class="stale badge" title=(format!("{} since the deposit", s.reason.as_str())) {
                                        "⚠ may be stale: " (s.reason.as_str())
                                    }
                                }
                            }
                            td { (field(d, "type")) }
                            @if described { td { (field(d, "description")) } }
                            td class="size" { @if let Some(n) = d.get("size_bytes").and_then(Value::as_u64) { (n) " bytes" } }
                            td class="hash" { @if let Some(h) = d.get("hash").and_then(Value::as_str) { code title=(h) { (short_hash(h)) } } }
                        }
                    }
                }
            } }
        }
    }
}

/// The packages that name this one as their parent; nothing when there are none.
fn children(list: &[StoredPackage], project: &str) -> Markup {
    html! {
        @if !list.is_empty() {
            section { h3 { "Children" } ol class="children" {
                @for c in list {
                    @let p = &c.package;
                    li {
                        a class="title" href=(format!("/packages/{}", urlencode(p.id()))) { (p.title()) }
                        " " span class="type" { (p.package_type()) }
                        " " (look::pill(p.status().as_str()))
                        " " (look::ago(p.created_at_str()))
                        @if p.project_id() != project { " " span class="project" { "in " (p.project_id()) } }
                    }
                }
            } }
        }
    }
}

/// The facts whose source is this package, each subject linked to its facts and each
/// predicate to its key's history; nothing when there are none.
fn sourced_facts(list: &[Fact], project: &str) -> Markup {
    let key_link = |f: &Fact| {
        format!(
            "/facts?project={}&subject={}&predicate={}",
            urlencode(project),
            urlencode(f.subject()),
            urlencode(f.predicate())
        )
    };
    let subject_link = |f: &Fact| {
        format!(
            "/facts?project={}&subject={}",
            urlencode(project),
            urlencode(f.subject())
        )
    };
    html! {
        @if !list.is_empty() {
            section { h3 { "Facts from this package" } div class="scroll" { table class="facts" {
                thead { tr { th { "subject" } th { "predicate" } th { "value" } th { "valid from" } th { "valid to" } } }
                tbody {
                    @for f in list {
                        tr class=(if f.is_current() { "current" } else { "ended" }) {
                            td data-label="Subject" { a href=(subject_link(f)) title="this subject's facts" { (f.subject()) } }
                            td data-label="Predicate" { a href=(key_link(f)) title="this key's history" { (f.predicate()) } }
                            td data-label="Value" { (f.value()) }
                            td data-label="Valid from" { (look::ago(f.str_field("valid_from").unwrap_or_default())) }
                            td data-label="Valid to" { @match f.str_field("valid_to") { Some(t) => { (look::ago(t)) } None => { "current" } } }
                        }
                    }
                }
            } } }
        }
    }
}
