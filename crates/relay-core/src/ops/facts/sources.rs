//! The one rule for a fact's `source_package_id` (§7.2): it names a package of the fact's own
//! project (§5.2: no cross-project references) that exists. `facts assert --source` and import
//! apply it alike.

use relay_store::Store;
use relay_store::packages::{StoredPackage, version_order};
use relay_wire::error::{Error, Result};

/// The package that a fact of `project_id` names as its source: its current version (whose
/// `created_by` a fact's `asserted_by` defaults to), or `package_not_found` when the project
/// holds no package `package_id`, even if another project does.
pub fn check_source_package(
    store: &Store,
    project_id: &str,
    package_id: &str,
) -> Result<StoredPackage> {
    store
        .package_versions(project_id, package_id)?
        .into_iter()
        .max_by(version_order)
        .ok_or_else(|| Error::PackageNotFound(package_id.to_string()))
}

/// The whole id of the source package `given` names: `given` when the project holds it, else
/// the one id of the project's packages it is the start of (a short id,
/// [`crate::ops::short_ids`]), else `given`
/// (which [`check_source_package`] then refuses).
pub fn whole_source_id(store: &Store, project_id: &str, given: &str) -> Result<String> {
    if !store.package_versions(project_id, given)?.is_empty() {
        return Ok(given.to_string());
    }
    // Only this project's packages are candidates: a start never names (or lists) a package
    // of a project the caller may not read.
    let whole = crate::ops::packages::pull::package_id(store.view(), given, Some(project_id))?;
    Ok(whole.unwrap_or_else(|| given.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};
    use serde_json::json;

    #[test]
    fn the_source_must_be_a_package_of_the_same_project() {
        let (_dir, store) = store_with(&["demo", "other"]);
        let input = json!({"package_id": "pkg_src", "title": "Source"});
        deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
        let found = check_source_package(&store, "demo", "pkg_src").unwrap();
        assert_eq!(found.package.created_by().id, "jo");
        for (project, id) in [("other", "pkg_src"), ("demo", "pkg_none")] {
            let e = check_source_package(&store, project, id).unwrap_err();
            assert_eq!(e.code(), "package_not_found", "{project} {id}");
        }
    }
}
