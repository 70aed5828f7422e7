//! Snapshot reads (`--as-of TIME`): the store as it stood at a time. A package counts when it
//! was created at or before it, at the review version current then (a transition counts from
//! its `at`); a retraction counts from its `retracted_at`, an expiry is judged at the time;
//! a fact counts when it was recorded (`created_at`) at or before it and was valid then. What
//! was written since changes nothing, so reading twice gives the same bytes.

use relay_store::Store;
use relay_wire::error::Result;
use relay_wire::time::{self, Timestamp};

pub use relay_store::snapshot::{existed, packages, version_at, version_time};

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
