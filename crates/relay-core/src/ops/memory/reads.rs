//! Reading agent memory back: the lessons of projects, most severe first then newest, and
//! each actor's latest checkpoint. Both find their packages through the types index
//! ([`relay_store::index::types`]: each month's ids of `x-lesson` and `x-checkpoint`), so only
//! those lines are read however large the store; retracted or expired records are hidden as in
//! every listing.

use crate::search::filter::Filter;
use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_wire::error::{Error, Result};
use relay_wire::memory::{CHECKPOINT, LESSON, SEVERITIES, severity_rank};
use relay_wire::time::Timestamp;

/// Which lessons to list.
#[derive(Debug, Clone, Default)]
pub struct LessonQuery {
    /// Any of these severities (empty: any).
    pub severities: Vec<String>,
    /// All of these tags.
    pub tags: Vec<String>,
    /// Drafts are left out (briefings never show them).
    pub no_drafts: bool,
    /// A snapshot read: the lessons as the store stood at this time.
    pub as_of: Option<Timestamp>,
}

/// A severity as a user gave it, or `invalid_input` naming the allowed ones.
pub fn parse_severity(text: &str) -> Result<String> {
    let s = text.trim().to_ascii_lowercase();
    match SEVERITIES.contains(&s.as_str()) {
        true => Ok(s),
        false => Err(Error::InvalidInput(format!(
            "severity `{text}` is not one of {}",
            SEVERITIES.join(", ")
        ))),
    }
}

/// The severity a lesson package records (`info` when it has none).
pub fn severity_of(p: &StoredPackage) -> &str {
    p.package.str_field("x-severity").unwrap_or("info")
}

/// The lessons of `projects` that match `query`: most severe first, then newest, then by id.
pub fn lessons(
    store: &Store,
    projects: &[String],
    query: &LessonQuery,
) -> Result<Vec<StoredPackage>> {
    let filter = Filter {
        tags: query.tags.clone(),
        as_of: query.as_of,
        ..Filter::default()
    };
    let mut found: Vec<StoredPackage> = of_type(store, projects, LESSON, &filter)?
        .into_iter()
        .filter(|p| {
            query.severities.is_empty() || query.severities.iter().any(|s| s == severity_of(p))
        })
        .filter(|p| !query.no_drafts || crate::ops::packages::review::in_digests(&p.package))
        .collect();
    found.sort_by_cached_key(|p| {
        (
            severity_rank(severity_of(p)),
            std::cmp::Reverse(p.package.created_at()),
            p.package.id().to_string(),
        )
    });
    Ok(found)
}

/// The latest checkpoint of each actor in `project` (or of `actor` alone), created at or after
/// `since` when given: newest first. Drafts are left out.
pub fn latest_checkpoints(
    store: &Store,
    project: &str,
    actor: Option<&str>,
    since: Option<Timestamp>,
    as_of: Option<Timestamp>,
) -> Result<Vec<StoredPackage>> {
    let filter = Filter {
        actor: actor.map(str::to_string),
        since,
        as_of,
        ..Filter::default()
    };
    let mut all = of_type(store, &[project.to_string()], CHECKPOINT, &filter)?;
    all.sort_by_cached_key(|p| {
        (
            std::cmp::Reverse(p.package.created_at()),
            p.package.id().to_string(),
        )
    });
    let mut seen = std::collections::HashSet::new();
    Ok(all
        .into_iter()
        .filter(|p| crate::ops::packages::review::in_digests(&p.package))
        .filter(|p| seen.insert(p.package.created_by().id.to_string()))
        .collect())
}

/// Every package of `package_type` in `projects` that passes `filter`, at its current version,
/// in no particular order. For a type the types index tracks, each month's ids of that type
/// ([`relay_store::index::types`]) name the few lines to read, and months before
/// `filter.since` are skipped; for another type, without an index, for a snapshot, or when a
/// list cannot be had, the catalogs are read.
pub fn of_type(
    store: &Store,
    projects: &[String],
    package_type: &str,
    filter: &Filter,
) -> Result<Vec<StoredPackage>> {
    let filter = Filter {
        types: vec![package_type.into()],
        ..filter.clone()
    }
    .prepare(store, projects)?;
    // A snapshot reads the months up to its time whole (the index knows current versions).
    if !store.config().search_index()
        || filter.as_of.is_some()
        || !relay_store::index::TRACKED_TYPES.contains(&package_type)
    {
        return crate::ops::packages::pull::latest(store, projects, &filter, usize::MAX);
    }
    let cache = store.indexes();
    let mut logs = Vec::new();
    for project in projects {
        let months = store.package_months(project, filter.since, None)?;
        logs.extend(months.into_iter().flat_map(|m| m.logs));
    }
    // After a fresh clone every month's file is built first, on both cores; an error here
    // leaves each month to the loop below.
    let _ = cache.warm_types(&logs);
    let mut out = Vec::new();
    for log in logs {
        let Ok(ids) = cache.type_ids(&log, package_type) else {
            return crate::ops::packages::pull::latest(store, projects, &filter, usize::MAX);
        };
        for id in ids {
            let current = store
                .package_versions_in(std::slice::from_ref(&log), &id)?
                .into_iter()
                .max_by(relay_store::packages::version_order);
            out.extend(current);
        }
    }
    // A month may have two logs (the tracked one and the clone's queue), and a package both:
    // each package once, at its current version.
    let mut current = std::collections::HashMap::new();
    let mut order = Vec::new();
    for p in out {
        if !current.contains_key(p.package.id()) {
            order.push(p.package.id().to_string());
        }
        relay_store::packages::keep_current(&mut current, p);
    }
    Ok((order.into_iter())
        .filter_map(|id| current.remove(&id))
        .filter(|p| filter.matches(p))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severities_are_checked_without_case_and_name_the_allowed_ones() {
        assert_eq!(parse_severity("Critical").unwrap(), "critical");
        let e = parse_severity("urgent").unwrap_err().to_string();
        assert!(e.contains("info, warning, critical"), "{e}");
    }
}
