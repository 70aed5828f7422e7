//! pull (§8.2): one package by id, or the latest packages of one or more projects, filtered.

use super::filter::Filter;
use crate::error::{Error, Result};
use crate::store::cache::catalog::MonthCatalog;
use crate::store::packages::StoredPackage;
use crate::store::{Store, WarningKind};
use crate::wire::time::Timestamp;

/// The versions of one package, wherever it is stored: package ids are unique in the whole
/// store (§6.1), so no project needs naming. A store that holds the id in several projects
/// (clones merged, or an older relay) answers from the project whose id sorts first,
/// byte-wise, whichever project is selected, and warns that the id is not unique.
fn versions_of(store: &Store, package_id: &str) -> Result<Vec<StoredPackage>> {
    let mut holders = store.package_everywhere(package_id)?.into_iter();
    let Some((project, versions)) = holders.next() else {
        return Err(Error::PackageNotFound(package_id.to_string()));
    };
    for (other, their) in holders {
        let at = &their[0].location;
        let line = match at.line {
            0 => store.line_of_package(&at.path, package_id),
            n => n,
        };
        store.diagnostics().warn(
            &at.path,
            line,
            WarningKind::DuplicatePackageId,
            format!(
                "package `{package_id}` is stored in project `{project}` and again in project \
                 `{other}`, but package ids are unique in a store; this answer is the one in \
                 `{project}` (the project whose id sorts first); `relay verify` lists such ids"
            ),
        );
    }
    Ok(versions)
}

/// The current version of one package, wherever it is stored (see [`versions_of`]).
pub fn specific(store: &Store, package_id: &str) -> Result<StoredPackage> {
    versions_of(store, package_id)?
        .into_iter()
        .max_by(crate::store::packages::version_order)
        .ok_or_else(|| Error::PackageNotFound(package_id.to_string()))
}

/// Every version of one package, oldest first (by version, then hash), wherever it is stored
/// (see [`versions_of`]).
pub fn history(store: &Store, package_id: &str) -> Result<Vec<StoredPackage>> {
    let mut versions = versions_of(store, package_id)?;
    versions.sort_by(|a, b| {
        a.version
            .cmp(&b.version)
            .then_with(|| crate::store::packages::version_order(a, b))
    });
    // Only exact duplicate lines (a union merge keeps both copies) count once.
    versions.dedup_by(|a, b| {
        a.hash == b.hash && a.version == b.version && a.transition == b.transition
    });
    Ok(versions)
}

/// The `limit` newest packages (current versions) across `projects` that match `filter`:
/// newest `created_at` first, ties broken by `package_id` ascending.
pub fn latest(
    store: &Store,
    projects: &[String],
    filter: &Filter,
    limit: usize,
) -> Result<Vec<StoredPackage>> {
    let mut all = Vec::new();
    for project in projects {
        if store.config().search_index() {
            all.extend(newest_first(store, project, filter, limit)?);
        } else {
            all.extend(
                store
                    .current_packages(project)?
                    .into_values()
                    .filter(|p| filter.matches(p)),
            );
        }
    }
    all.sort_by_cached_key(|p| {
        (
            std::cmp::Reverse(p.package.created_at()),
            p.package.id().to_string(),
        )
    });
    all.truncate(limit);
    Ok(all)
}

/// Up to `limit` packages of one project that match `filter`, newest first, read through the
/// logs' indexes: month by month from the newest, only the lines that can make the cut are
/// read. A package's versions share the log of its `created_at` month, so once a month has
/// filled the list, older months cannot change it.
pub fn newest_first(
    store: &Store,
    project: &str,
    filter: &Filter,
    limit: usize,
) -> Result<Vec<StoredPackage>> {
    let mut out = Vec::new();
    if limit == 0 {
        return Ok(out);
    }
    let month_of = |t: Timestamp| format!("{}.ndjson", crate::wire::time::month_key(t));
    let (first, last) = (filter.since.map(month_of), filter.until.map(month_of));
    for log in store.package_logs(project)?.into_iter().rev() {
        let name = log.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if last.as_deref().is_some_and(|last| name > last) {
            continue;
        }
        if first.as_deref().is_some_and(|first| name < first) {
            break;
        }
        let month = MonthCatalog::load(store, &log)?;
        for entry in &month.entries {
            if !filter.may_match(&month, entry) {
                continue;
            }
            if let Some(p) = month.read(store, entry)?
                && filter.matches(&p)
            {
                out.push(p);
                if out.len() == limit {
                    return Ok(out);
                }
            }
        }
    }
    Ok(out)
}
