//! What a request acts on, worked out the same way by every door (CLI, MCP): the project
//! selected (else the store's `default_project`), the projects a listing covers, the order a
//! global id is looked for in, and a listing's filter with drafts shown to their creator only.

use std::path::Path;

use relay_store::Store;
use relay_wire::error::Result;

use super::{ListingFilter, Spelling};
use crate::ops::trust::attribution;
use crate::search::filter::{Filter, Viewer};

/// The project to act on when the caller selected none: the store's `default_project`.
pub fn default_project(store: &Store) -> Option<String> {
    store.config().default_project.clone()
}

/// The project a deposit lands in, if the request decides it: `selected` is the project the
/// caller named (a path's, `--project`, the `project` argument). A package naming its own
/// `project_id` must name the selected one, on every door: a package is never moved to
/// another project. With none selected, its `project_id` is the project; with neither,
/// `None`, and the door's default project applies.
pub fn deposit_project(
    selected: Option<&str>,
    package: &serde_json::Map<String, serde_json::Value>,
) -> Result<Option<String>> {
    use serde_json::Value;
    match (selected, package.get("project_id")) {
        (None, None | Some(Value::Null)) => Ok(None),
        (Some(selected), None | Some(Value::Null)) => Ok(Some(selected.to_string())),
        (None, Some(Value::String(p))) => Ok(Some(p.clone())),
        (Some(selected), Some(Value::String(p))) if p == selected => Ok(Some(p.clone())),
        (Some(selected), Some(Value::String(p))) => Err(super::value_error(format!(
            "the package's project_id `{p}` is not the selected project `{selected}`: select \
             `{p}` (--project {p}, the `project` argument, or its path over HTTP), or leave \
             project_id out"
        ))),
        (_, Some(other)) => Err(super::shape_error(
            "project_id",
            format!("must be a string, not {other}"),
        )),
    }
}

/// Why no project could be selected, and how to select one.
pub fn no_project(store: &Store) -> String {
    format!(
        "no project selected: pass --project ID, set RELAY_PROJECT, or set default_project in {}",
        store.layout().config().display()
    )
}

/// Where to look for something named by a global id (a package, a session): `first` (the
/// selected project), then every other.
pub fn search_order(store: &Store, first: Option<String>) -> Result<Vec<String>> {
    let mut all: Vec<String> = first.clone().into_iter().collect();
    let rest = crate::ops::projects::list(store)?;
    all.extend(
        rest.iter()
            .map(|p| p.id().to_string())
            .filter(|p| Some(p) != first.as_ref()),
    );
    Ok(all)
}

/// Every project of the store.
pub fn every_project(store: &Store) -> Result<Vec<String>> {
    let all = crate::ops::projects::list(store)?;
    Ok(all.iter().map(|p| p.id().to_string()).collect())
}

/// The selected project as the only one a listing covers: it must exist.
pub fn only_project(store: &Store, id: String) -> Result<Vec<String>> {
    crate::ops::projects::get(store, &id)?;
    Ok(vec![id])
}

/// A listing's filter over `projects`, with drafts shown to their creator only (the viewer
/// is worked out from `cwd` only if the listing meets a draft).
pub fn listing(
    store: &Store,
    cwd: &Path,
    projects: Vec<String>,
    listing: &ListingFilter,
    spelling: Spelling,
) -> Result<(Vec<String>, Filter)> {
    let viewer = match projects.first() {
        Some(p) => attribution::deferred_viewer(store, cwd, p),
        None => Viewer::anyone(),
    };
    let filter = listing.filter(viewer, spelling)?;
    Ok((projects, filter))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_projects() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let store = Store::open(root).unwrap();
        for id in ["demo", "other"] {
            crate::ops::projects::create(&store, id, None, None).unwrap();
        }
        (dir, store)
    }

    #[test]
    fn a_global_id_is_looked_for_in_the_selected_project_first() {
        let (_dir, store) = two_projects();
        assert_eq!(default_project(&store).as_deref(), Some("demo"));
        assert_eq!(
            search_order(&store, Some("other".into())).unwrap(),
            ["other", "demo"]
        );
        assert_eq!(search_order(&store, None).unwrap(), ["demo", "other"]);
    }

    #[test]
    fn a_package_lands_in_the_selected_project_and_is_never_moved() {
        let package = |p: serde_json::Value| p.as_object().unwrap().clone();
        let own = package(serde_json::json!({"project_id": "web"}));
        let none = package(serde_json::json!({}));
        assert_eq!(deposit_project(None, &none).unwrap(), None);
        assert_eq!(deposit_project(None, &own).unwrap().as_deref(), Some("web"));
        assert_eq!(
            deposit_project(Some("demo"), &none).unwrap().as_deref(),
            Some("demo")
        );
        assert_eq!(
            deposit_project(Some("web"), &own).unwrap().as_deref(),
            Some("web")
        );
        let moved = deposit_project(Some("demo"), &own).unwrap_err();
        assert_eq!(moved.code(), "invalid_input");
        let typed = deposit_project(None, &package(serde_json::json!({"project_id": 5})));
        assert_eq!(typed.unwrap_err().code(), "invalid_schema");
    }

    #[test]
    fn a_listing_covers_the_selected_project_if_it_exists_or_every_one() {
        let (_dir, store) = two_projects();
        assert_eq!(every_project(&store).unwrap(), ["demo", "other"]);
        assert_eq!(only_project(&store, "other".into()).unwrap(), ["other"]);
        let missing = only_project(&store, "nope".into()).unwrap_err();
        assert_eq!(missing.code(), "project_not_found");
    }
}
