//! The console's package page: every field of a package's current version, its lists, its
//! deliverables, its review history (each version's transition) and its content hash, which
//! the store checked when it read the line ("verified").

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};
use serde_json::{Map, Value};

use super::{Who, html_page, layout, top, urlencode};
use crate::http::extract::PathId;
use crate::http::reply::ApiError;
use crate::http::state::AppState;
use crate::ops::pull;
use crate::store::packages::StoredPackage;

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

pub async fn page(
    State(state): State<AppState>,
    who: Who,
    PathId(id): PathId,
) -> Result<Response, ApiError> {
    let caller = who.caller.clone();
    let versions = state
        .blocking(move |s| {
            let versions = pull::history(&s.store, &id)?;
            if let Some(first) = versions.first() {
                caller.may_read(first.package.project_id())?;
            }
            Ok(versions)
        })
        .await?;
    let Some(current) = versions.iter().max_by_key(|v| v.version) else {
        return Err(ApiError(
            crate::error::Error::PackageNotFound(String::new()),
        ));
    };
    Ok(html_page(StatusCode::OK, render(current, &versions, &who)))
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

fn render(current: &StoredPackage, versions: &[StoredPackage], who: &Who) -> Markup {
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
                dl class="fields" {
                    @for key in ["package_id", "package_type", "status", "review_type", "significance", "created_at", "relay_version"] {
                        @if m.contains_key(key) { dt { (key) } dd { (get(key)) } }
                    }
                    dt { "created_by" }
                    dd { (by_text("id")) " (" (by_text("type")) ")"
                        @if by.is_some_and(|b| b.contains_key("session_id")) { ", session " (by_text("session_id")) } }
                    @if let Some(parent) = m.get("parent_package_id").and_then(Value::as_str) {
                        dt { "parent" }
                        dd { a href=(format!("/packages/{}", urlencode(parent))) { (parent) } }
                    }
                }
                @if m.contains_key("description") { section { h3 { "Description" } p class="prose" { (get("description")) } } }
                @for (key, heading) in [("decisions_made", "Decisions"), ("open_questions", "Open questions"), ("tags", "Tags")] {
                    @let items = list(m, key);
                    @if !items.is_empty() {
                        section { h3 { (heading) } ul class=(key) { @for i in &items { li { (i) } } } }
                    }
                }
                @if m.contains_key("handoff_note") { section { h3 { "Handoff" } p class="prose" { (get("handoff_note")) } } }
                @if !deliverables.is_empty() {
                    section { h3 { "Deliverables" } ul class="deliverables" {
                        @for d in &deliverables {
                            li { @match d.as_object() {
                                Some(o) => { @for (k, v) in o { span class="key" { (k) } " " (show(v)) " " } }
                                None => { (show(d)) }
                            } }
                        }
                    } }
                }
                @if !other.is_empty() {
                    section { h3 { "Other fields" } dl class="fields" {
                        @for (k, v) in &other { dt { (k) } dd { code { (show(v)) } } }
                    } }
                }
                section { h3 { "History" } ol class="history" {
                    @for v in versions {
                        li { "version " (v.version) ": "
                            @match &v.transition {
                                Some(t) => {
                                    (show(&t["action"])) " " (show(&t["from"])) " → " (show(&t["to"]))
                                    " by " (show(&t["by"]["id"])) " at " (show(&t["at"]))
                                    @if t.get("note").is_some() { ": " q { (show(&t["note"])) } }
                                }
                                None => { "deposited " (v.package.as_map().get("status").map(show).unwrap_or_default()) }
                            }
                        }
                    }
                } }
            }
        },
    )
}
