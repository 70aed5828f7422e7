//! The embedding model: when one is configured, it loads, and the vectors in `cache/` were
//! made by it (each vector file names the model that made it; a search never reads vectors of
//! another model, it embeds everything again first, which on a big store is a long wait).

use super::{Finding, Setup};
use crate::search::semantic::{ModelState, load_model};

const CHECK: &str = "embedding model";
/// What rebuilds the vectors with the configured model.
const REINDEX: &str = "relay search --mode semantic \"anything\" (it embeds the packages again with the configured model)";

pub fn check(setup: &Setup<'_>) -> Finding {
    let store = setup.store.as_ref().ok().copied();
    let model = match load_model(store, &setup.model) {
        ModelState::None => {
            return Finding::skip(
                CHECK,
                "no model is configured: search is by keyword (for search by meaning, set \
                 `[search] model = \"PATH\"` in .relay/config.toml or RELAY_MODEL; \
                 scripts/fetch-model.sh makes one)",
            );
        }
        ModelState::Broken { path, reason } => {
            return Finding::fail(
                CHECK,
                format!("the model at {} does not load: {reason}", path.display()),
                "point `[search] model` in .relay/config.toml (or RELAY_MODEL) at a model folder",
            );
        }
        ModelState::Loaded(model) => model,
    };
    let identity = model.identity();
    let (mut same, mut other) = (0, Vec::new());
    let cache = store.and_then(|s| s.search_indexes());
    let projects = store.map(|s| s.project_ids_on_disk().unwrap_or_default());
    for project in projects.into_iter().flatten() {
        let logs = store.map(|s| s.package_logs(&project).unwrap_or_default());
        for log in logs.into_iter().flatten() {
            match cache.as_ref().and_then(|c| c.vectors_model(&log)) {
                Some(m) if m == identity => same += 1,
                Some(m) => other.push(m),
                None => {}
            }
        }
    }
    let loads = format!("{} loads", model.path().display());
    match other.first() {
        Some(theirs) => Finding::fail(
            CHECK,
            format!(
                "{loads}, but {} vector file(s) in .relay/cache/ were made by another model \
                 ({}, not {})",
                other.len(),
                short(theirs),
                short(identity)
            ),
            REINDEX,
        ),
        None if same == 0 => Finding::ok(
            CHECK,
            format!("{loads}; no vectors yet (the first search by meaning makes them)"),
        ),
        None => Finding::ok(
            CHECK,
            format!("{loads}; its identity matches the {same} vector file(s) in .relay/cache/"),
        ),
    }
}

/// A model identity as a finding shows it.
fn short(identity: &str) -> &str {
    identity.get(..12).unwrap_or(identity)
}
