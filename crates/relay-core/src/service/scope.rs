//! What a request acts on beyond its one project, worked out the same way by every door: the
//! projects a listing covers and the order a global id is looked for in (a listing's filter
//! is [`super::Relay::listing`]'s). The rules of the one selected project are
//! [`crate::request::scope`]'s, re-exported here so a door names one module.

use relay_store::Store;
use relay_wire::error::Result;

pub use crate::request::scope::{default_project, deposit_project, no_project};

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
    fn a_listing_covers_the_selected_project_if_it_exists_or_every_one() {
        let (_dir, store) = two_projects();
        assert_eq!(every_project(&store).unwrap(), ["demo", "other"]);
        assert_eq!(only_project(&store, "other".into()).unwrap(), ["other"]);
        let missing = only_project(&store, "nope".into()).unwrap_err();
        assert_eq!(missing.code(), "project_not_found");
    }
}
