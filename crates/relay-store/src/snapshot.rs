//! The packages of a project as a [`View`] reads them: now, each at its current version, or
//! as the store stood at the view's time. Which monthly logs hold a time is the store's to
//! know, so readers above ask here and never compare log names themselves.

use std::collections::HashMap;

use crate::View;
use crate::packages::{StoredPackage, version_order};
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
                crate::packages::keep_current(&mut current, p);
            }
            Ok(())
        })?;
    }
    Ok(current.into_values().collect())
}
