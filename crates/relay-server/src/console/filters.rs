//! The console's filter fields as selects whose options come from the store: the types,
//! authors and tags of a project's most recent packages (those the caller may see), and the
//! statuses of the protocol. A value asked for that the sample lacks is still offered, so a
//! filtered page always shows what it is filtered by. The options are kept for [`FRESH`] per
//! store, project and person while the store does not change (the server's count of its
//! changes, [`crate::changes::Changes`]), so that a page (and the live timeline's fetches of
//! it) reads a page's worth of packages, not the sample, each time; a package retracted or
//! purged leaves the options with the next page. Where the server has no file events to
//! count changes by, nothing is kept. Also the status badge every list
//! shows: the status in words, coloured by the stylesheet (`.badge.s-…`).

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use maud::{Markup, html};
use serde_json::Value;

use crate::state::Shared;
use relay_core::request::ListingFilter;
use relay_core::service::Relay;
use relay_wire::error::Result;
use relay_wire::package::STATUSES;

/// How many of a project's newest packages the options are taken from: enough for the values
/// in use, a bounded read however large the store.
pub const SAMPLE: usize = 500;

/// How long options once read are offered again before they are read anew.
pub const FRESH: Duration = Duration::from_secs(30);

/// Options read, by store, project and person (the drafts among them are that person's).
type Key = (PathBuf, String, Option<String>);
/// When each was read (and at which count of the store's changes), and what.
type Kept = HashMap<Key, (Instant, u64, Arc<Facets>)>;
static KEPT: Mutex<Option<Kept>> = Mutex::new(None);

/// The values each filter may take.
#[derive(Debug, Default)]
pub struct Facets {
    pub types: Vec<String>,
    pub authors: Vec<String>,
    pub tags: Vec<String>,
}

/// [`facets`] of `project` for the person `who` (their name, `None` for an anonymous reader),
/// as read within [`FRESH`], else read now.
pub fn kept(
    s: &Shared,
    relay: &Relay<'_>,
    project: &str,
    who: Option<&str>,
) -> Result<Arc<Facets>> {
    let key = (
        s.store.root().to_path_buf(),
        project.to_string(),
        who.map(str::to_string),
    );
    let Some(changes) = s.changes.counted() else {
        return Ok(Arc::new(facets(relay, project)?));
    };
    let lock = || KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((at, seen, f)) = lock().get_or_insert_with(HashMap::new).get(&key)
        && at.elapsed() < FRESH
        && *seen == changes
    {
        return Ok(f.clone());
    }
    let read = Arc::new(facets(relay, project)?);
    let mut kept = lock();
    let map = kept.get_or_insert_with(HashMap::new);
    map.retain(|_, (at, _, _)| at.elapsed() < FRESH);
    map.insert(key, (Instant::now(), changes, read.clone()));
    Ok(read)
}

/// The facets of `project`'s [`SAMPLE`] newest packages that the caller may see, each sorted.
pub fn facets(relay: &Relay<'_>, project: &str) -> Result<Facets> {
    let listing = relay.listing("pull", vec![project.to_string()], &ListingFilter::default())?;
    let recent = relay.pull_latest(&listing, SAMPLE)?;
    let (mut types, mut authors, mut tags) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for p in &recent {
        let p = &p.package;
        types.insert(p.package_type().to_string());
        let by = p.created_by().id;
        if !by.is_empty() {
            authors.insert(by.to_string());
        }
        if let Some(Value::Array(list)) = p.as_map().get("tags") {
            tags.extend(list.iter().filter_map(Value::as_str).map(str::to_string));
        }
    }
    Ok(Facets {
        types: types.into_iter().collect(),
        authors: authors.into_iter().collect(),
        tags: tags.into_iter().collect(),
    })
}

/// The protocol's statuses, as options.
pub fn statuses() -> Vec<String> {
    STATUSES.iter().map(|s| s.to_string()).collect()
}

/// `<label>Label <select name=…>` with "any" (no filter) first, then `options`, and
/// `current` selected (offered even when `options` lacks it).
pub fn select(label: &str, name: &str, options: &[String], current: Option<&str>) -> Markup {
    let current = current.filter(|c| !c.is_empty());
    let extra = current.filter(|c| !options.iter().any(|o| o == c));
    html! {
        label { (label) " "
            select name=(name) {
                option value="" { "any" }
                @if let Some(c) = extra { option value=(c) selected { (c) } }
                @for o in options {
                    option value=(o) selected[Some(o.as_str()) == current] { (o) }
                }
            }
        }
    }
}

/// A package's status as a badge: its words (underscores as spaces), coloured by status.
pub fn badge(status: &str) -> Markup {
    html! {
        span class=(format!("status badge s-{status}")) title="status" { (status.replace('_', " ")) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_select_offers_any_the_options_and_what_was_asked() {
        let options = vec!["decision".to_string(), "standard".to_string()];
        let html = select("Type", "type", &options, Some("standard")).into_string();
        assert_eq!(
            html,
            "<label>Type <select name=\"type\"><option value=\"\">any</option>\
             <option value=\"decision\">decision</option>\
             <option value=\"standard\" selected>standard</option></select></label>"
        );
        let html = select("Type", "type", &options, Some("<x>")).into_string();
        assert!(
            html.contains("<option value=\"&lt;x&gt;\" selected>&lt;x&gt;</option>"),
            "{html}"
        );
    }

    #[test]
    fn a_badge_says_its_status_in_words() {
        assert_eq!(
            badge("awaiting_review").into_string(),
            "<span class=\"status badge s-awaiting_review\" title=\"status\">awaiting review</span>"
        );
    }
}
