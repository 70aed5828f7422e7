//! The embedding model: when one is configured, it loads, and how far its vectors in `cache/`
//! cover the store (each model has its own; a search never reads another model's). With an
//! ONNX transformer whose vectors are far behind, searches rank with the static table until a
//! build catches up: doctor says whether one is under way.

use std::path::Path;

use super::{Finding, Setup};
use crate::search::semantic::{ModelState, load_model};
use crate::search::vector_build;
use relay_store::format::VECTORS;

const CHECK: &str = "embedding model";
/// What builds the transformer's vectors now.
const BUILD: &str = "relay index (builds them now, with progress)";

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
    let loads = format!("{} loads", model.path().display());
    let Some(store) = store else {
        return Finding::ok(CHECK, loads);
    };
    let projects = store.project_ids_on_disk().unwrap_or_default();
    let logs = vector_build::logs(store, &projects).unwrap_or_default();
    let Some(cache) = store.search_indexes() else {
        return Finding::ok(
            CHECK,
            format!(
                "{loads}; the search index is off (search_index = false), so no vectors are kept"
            ),
        );
    };
    // The model's static table ranks while its transformer's vectors are built: its vectors
    // are the model's own.
    let own = [model.identity(), model.table().identity()];
    let others = match cache.other_vector_models(&own) {
        0 => String::new(),
        n => format!(
            "; .relay/cache/{}/ also holds the vectors of {}, never read (delete their folders to free the space)",
            VECTORS.dir(Path::new("")).display(),
            relay_wire::text::count(n, "other model")
        ),
    };
    let pending = vector_build::pending(store, &projects, &model).unwrap_or(None);
    if let Some(pending) = pending {
        return match pending.building {
            Some(p) => Finding::ok(
                CHECK,
                format!(
                    "{loads}; its transformer's vectors are being built in the background ({}% of {} of logs, process {}); searches by meaning rank with its static table meanwhile{others}",
                    (p.done * 100).checked_div(p.total).unwrap_or(0),
                    megabytes(p.total),
                    p.pid
                ),
            ),
            None => Finding::warn(
                CHECK,
                format!(
                    "{loads}, but its transformer's vectors lack {} of logs: searches by meaning rank with its static table until they are built (the next search starts that in the background){others}",
                    megabytes(pending.behind)
                ),
                BUILD,
            ),
        };
    }
    let months = logs.len();
    let built = logs
        .iter()
        .filter(|log| cache.vectors_built(log, &*model))
        .count();
    let detail = match (built, months) {
        (_, 0) => format!("{loads}; no packages to embed yet"),
        (0, _) => format!("{loads}; no vectors yet (the first search by meaning makes them)"),
        (1, 1) => format!("{loads}; its vectors cover the one month of packages"),
        (b, m) if b == m => format!("{loads}; its vectors cover all {m} months of packages"),
        (b, m) => format!(
            "{loads}; its vectors cover {b} of {}, the next search by meaning embeds the rest",
            relay_wire::text::count(m, "month")
        ),
    };
    Finding::ok(CHECK, format!("{detail}{others}"))
}

/// Bytes as megabytes, for a finding.
fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}
