//! Snapshot reads (`--as-of TIME`): the store as it stood at a time. A package counts when it
//! was created at or before it, at the review version current then (a transition counts from
//! its `at`); a retraction counts from its `retracted_at`, an expiry is judged at the time;
//! a fact counts when it was recorded (`created_at`) at or before it and was valid then. What
//! was written since changes nothing, so reading twice gives the same bytes.

use std::collections::HashMap;

use relay_store::packages::{StoredPackage, version_order};
use relay_store::{Store, View};
use relay_wire::error::Result;
use relay_wire::time::{self, Timestamp};

/// When a version came to be: the deposit's `created_at`, or the transition's `at`.
pub fn version_time(p: &StoredPackage) -> Timestamp {
    match p
        .transition
        .as_ref()
        .and_then(|t| t.get("at"))
        .and_then(|a| a.as_str())
    {
        Some(at) => time::parse(at).unwrap_or_else(|_| p.package.created_at()),
        None => p.package.created_at(),
    }
}

/// Whether a version existed at `t`.
pub fn existed(p: &StoredPackage, t: Timestamp) -> bool {
    p.package.created_at() <= t && version_time(p) <= t
}

/// The version of a package current at `t`, from its versions.
pub fn version_at(versions: Vec<StoredPackage>, t: Timestamp) -> Option<StoredPackage> {
    versions
        .into_iter()
        .filter(|v| existed(v, t))
        .max_by(version_order)
}

/// Every package of a project as `view` reads it: now, each at its current version; or as
/// the store stood at the view's time, those created at or before it, each at its version
/// current then. A package's versions share the log of its `created_at` month, so only the
/// monthly logs up to that time's month are read, and with `since`, none of the months
/// before its month (packages created earlier in its month are still there).
pub fn packages(
    view: View<'_>,
    project: &str,
    since: Option<Timestamp>,
) -> Result<Vec<StoredPackage>> {
    let store = view.store();
    let Some(t) = view.as_of() else {
        let current = store.current_packages_since(project, since)?;
        return Ok(current.into_values().collect());
    };
    let first = since.map(|s| format!("{}.ndjson", time::month_key(s)));
    let last = format!("{}.ndjson", time::month_key(t));
    let mut current: HashMap<String, StoredPackage> = HashMap::new();
    for path in store.package_logs(project)? {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name > last.as_str() {
            break;
        }
        if first.as_deref().is_some_and(|first| name < first) {
            continue;
        }
        store.scan_log_at(&path, |p| {
            if existed(&p, t) {
                relay_store::packages::keep_current(&mut current, p);
            }
            Ok(())
        })?;
    }
    Ok(current.into_values().collect())
}

/// A note about an `--as-of` time that a snapshot cannot pin: one still to come (what is
/// written until then changes the answer). `None` for a time in the past.
pub fn future_note(t: Timestamp) -> Option<String> {
    (t > time::now()).then(|| {
        format!(
            "--as-of {} is in the future: the answer is the store as it is now, and writes \
             until then will change it",
            time::format(t)
        )
    })
}

/// A note about an `--as-of` time that a snapshot answers oddly, for the reader rather than an
/// error: a time still to come ([`future_note`]), or one before any of `projects` was created,
/// when the store held nothing of them.
pub fn note(store: &Store, projects: &[String], t: Timestamp) -> Result<Option<String>> {
    if let Some(note) = future_note(t) {
        return Ok(Some(note));
    }
    let mut created = Vec::new();
    for id in projects {
        if let Some(p) = store.project(id)? {
            created.push((p.created_at(), p.id().to_string()));
        }
    }
    Ok(created
        .into_iter()
        .min()
        .filter(|(first, _)| t < *first)
        .map(|(first, id)| {
            format!(
                "--as-of {} is before project `{id}` was created ({}): the store held nothing \
                 of it then",
                time::format(t),
                time::format(first)
            )
        }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};
    use serde_json::{Map, json};

    #[test]
    fn a_snapshot_sees_each_package_at_the_version_current_then_and_nothing_written_since() {
        let (_dir, store) = store_with(&["demo"]);
        let mut input = Map::new();
        input.insert("package_id".into(), json!("pkg_a"));
        input.insert("title".into(), json!("A"));
        input.insert("status".into(), json!("awaiting_review"));
        input.insert("review_type".into(), json!("human"));
        let first = deposit(&store, input, &context("demo")).unwrap();
        // The moment it was deposited: before the review that follows.
        let before_review = first.package.created_at();
        crate::ops::packages::deposit::test_support::approve(&store, "pkg_a");
        let mut later = Map::new();
        later.insert("title".into(), json!("B"));
        deposit(&store, later, &context("demo")).unwrap();
        let then = packages(store.as_of(before_review), "demo", None).unwrap();
        assert_eq!(then.len(), 1);
        assert_eq!(then[0].package.status().as_str(), "awaiting_review");
        assert_eq!(
            crate::ops::packages::pull::specific(store.as_of(time::now()), "pkg_a")
                .unwrap()
                .package
                .status()
                .as_str(),
            "complete"
        );
        let t0 = time::parse("2001-01-01T00:00:00Z").unwrap();
        assert!(packages(store.as_of(t0), "demo", None).unwrap().is_empty());
        let projects = ["demo".to_string()];
        assert!(
            note(&store, &projects, t0)
                .unwrap()
                .is_some_and(|n| n.contains("before project `demo` was created")),
        );
        assert_eq!(note(&store, &projects, before_review).unwrap(), None);
        assert_eq!(
            crate::ops::packages::pull::specific(store.as_of(t0), "pkg_a")
                .unwrap_err()
                .code(),
            "package_not_found"
        );
    }
}
