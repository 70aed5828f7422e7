//! The console's package page: every field of a package's current version (its description,
//! decisions, open questions and handoff rendered as Markdown by [`markdown`](super::markdown)),
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
use super::{PageError, PageId, Who, html_page, layout, markdown, top, urlencode};
use crate::state::AppState;
use relay_core::ops::packages::stale::{self, Stale};
use relay_core::ops::trust::seal::Seal;
use relay_core::ops::{facts, packages::pull};
use relay_store::packages::StoredPackage;
use relay_wire::Fact;

/// Members shown in their own place on the page; any other is listed under "Other fields".
const SHOWN: [&str; 17] = [
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
            Ok(Related {
                versions,
                children,
                facts,
                stale,
                signature,
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
    layout(
        &get("title"),
        html! {
            (top(project, who))
            main id="package" {
                h2 class="package-title" { (get("title")) }
                p class="hash" {
                    "✓ verified: the content matches its hash " code { (current.hash) }
                }
                @for line in related.signature.lines() {
                    p class="signature" { (line) }
                }
                dl class="fields" {
                    @for key in ["package_id", "package_type", "status", "review_type", "significance", "created_at", "relay_version"] {
                        @if key == "status" { dt { (key) } dd { (badge(&get(key))) } }
                        @else if m.contains_key(key) { dt { (key) } dd { (get(key)) } }
                    }
                    dt { "created_by" }
                    dd { (by_text("id")) " (" (by_text("type")) ")"
                        @if by.is_some_and(|b| b.contains_key("session_id")) { ", session " (by_text("session_id")) } }
                    @if let Some(parent) = m.get("parent_package_id").and_then(Value::as_str) {
                        dt { "parent" }
                        dd { a href=(format!("/packages/{}", urlencode(parent))) { (parent) } }
                    }
                }
                @if m.contains_key("description") { section { h3 { "Description" } (prose(&get("description"))) } }
                @for (key, heading) in [("decisions_made", "Decisions"), ("open_questions", "Open questions")] {
                    @let items = list(m, key);
                    @if !items.is_empty() {
                        section { h3 { (heading) } ul class=(key) { @for i in &items { li { (prose(i)) } } } }
                    }
                }
                @let tags = list(m, "tags");
                @if !tags.is_empty() {
                    section { h3 { "Tags" } ul class="tags" {
                        @for t in &tags { li { a href=(format!("/?project={}&tag={}", urlencode(project), urlencode(t))) { (t) } } }
                    } }
                }
                @if m.contains_key("handoff_note") { section { h3 { "Handoff" } (prose(&get("handoff_note"))) } }
                @if !deliverables.is_empty() { (deliverables_table(&deliverables, &related.stale)) }
                @if !other.is_empty() {
                    section { h3 { "Other fields" } dl class="fields" {
                        @for (k, v) in &other { dt { (k) } dd { code { (show(v)) } } }
                    } }
                }
                section { h3 { "History" } ol class="history" {
                    @for v in &related.versions {
                        li { "version " (v.version) ": "
                            @match &v.transition {
                                Some(t) => {
                                    (show(&t["action"])) " " (show(&t["from"])) " → " (show(&t["to"]))
                                    " by " (super::review::actor_text(&t["by"])) " at " (show(&t["at"]))
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
                        " " (badge(p.status().as_str()))
                        " " time datetime=(p.created_at_str()) { (p.created_at_str()) }
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
                            td { a href=(subject_link(f)) title="this subject's facts" { (f.subject()) } }
                            td { a href=(key_link(f)) title="this key's history" { (f.predicate()) } }
                            td { (f.value()) }
                            td { (f.str_field("valid_from").unwrap_or_default()) }
                            td { (f.str_field("valid_to").unwrap_or("current")) }
                        }
                    }
                }
            } } }
        }
    }
}
