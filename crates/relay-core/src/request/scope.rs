//! The project a request acts on, by the same rule on every door: the project selected, else
//! the store's `default_project`, and the project a deposit lands in. The projects a listing
//! covers and the order a global id is looked for in are the service's
//! ([`crate::service::scope`]).

use relay_store::Store;
use relay_wire::error::Result;

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
        store.config_file().display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
