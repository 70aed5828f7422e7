//! Reading agent memory back: the lessons of projects, most severe first then newest, and
//! each actor's latest checkpoint. Both go through [`super::pull::latest`] with a type filter,
//! so the month catalogs pick out the few `x-lesson` / `x-checkpoint` lines and only those are
//! read, and retracted or expired records are hidden as in every listing.

use super::filter::Filter;
use super::memory::{CHECKPOINT, LESSON, SEVERITIES, severity_rank};
use crate::error::{Error, Result};
use crate::store::Store;
use crate::store::packages::StoredPackage;
use crate::wire::time::Timestamp;

/// Which lessons to list.
#[derive(Debug, Clone, Default)]
pub struct LessonQuery {
    /// Any of these severities (empty: any).
    pub severities: Vec<String>,
    /// All of these tags.
    pub tags: Vec<String>,
    /// Drafts are left out (briefings never show them).
    pub no_drafts: bool,
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
        types: vec![LESSON.into()],
        tags: query.tags.clone(),
        ..Filter::default()
    };
    let mut found: Vec<StoredPackage> = super::pull::latest(store, projects, &filter, usize::MAX)?
        .into_iter()
        .filter(|p| {
            query.severities.is_empty() || query.severities.iter().any(|s| s == severity_of(p))
        })
        .filter(|p| !query.no_drafts || super::review::in_digests(&p.package))
        .collect();
    // `latest` returns newest first (ties by id); a stable sort keeps that within a severity.
    found.sort_by_key(|p| severity_rank(severity_of(p)));
    Ok(found)
}

/// The latest checkpoint of each actor in `project` (or of `actor` alone), created at or after
/// `since` when given: newest first. Drafts are left out.
pub fn latest_checkpoints(
    store: &Store,
    project: &str,
    actor: Option<&str>,
    since: Option<Timestamp>,
) -> Result<Vec<StoredPackage>> {
    let filter = Filter {
        types: vec![CHECKPOINT.into()],
        actor: actor.map(str::to_string),
        since,
        ..Filter::default()
    };
    let all = super::pull::latest(store, &[project.to_string()], &filter, usize::MAX)?;
    let mut seen = std::collections::HashSet::new();
    Ok(all
        .into_iter()
        .filter(|p| super::review::in_digests(&p.package))
        .filter(|p| seen.insert(p.package.created_by().id.to_string()))
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
