//! Short ids, as git has them: every operation that takes the id of a package, a fact or a
//! session also takes the start of it, when the ids of only one record of that kind begin so.
//! The id as given is always looked up first, exactly as before, so a full id costs what it
//! did and an id that is itself the start of a longer one names itself; only when nothing has
//! that id is it read as a prefix.
//!
//! A prefix keeps the kind's own start (`pkg_`, `fact_`, `sess_`, as relay makes ids: §6.1,
//! §7.1) and at least [`MIN_PREFIX_CHARS`] characters after it (git's minimum is four hex
//! digits too); anything shorter is refused as too short. One with [`FULL_ID_CHARS`] or more
//! after the kind is as long as a whole id, so it is never a prefix, and a dangling full id
//! costs no scan. A prefix that more than one id begins with is [`Error::AmbiguousId`], which
//! lists the first [`LISTED_CANDIDATES`] of them by id.

use relay_store::Store;
use relay_wire::error::{Error, IdCandidate, Result};
use relay_wire::time;

/// The fewest characters after the kind's start that a prefix may have.
pub const MIN_PREFIX_CHARS: usize = 4;
/// The characters after the kind's start in the ids relay makes (32 hex digits).
pub const FULL_ID_CHARS: usize = 32;
/// How many candidates an ambiguous prefix lists; the rest are counted.
pub const LISTED_CANDIDATES: usize = 10;

/// The records short ids name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    Package,
    Fact,
    Session,
}

impl IdKind {
    /// How ids of this kind begin.
    pub fn start(self) -> &'static str {
        match self {
            IdKind::Package => "pkg_",
            IdKind::Fact => "fact_",
            IdKind::Session => "sess_",
        }
    }

    /// The record, as messages name it.
    pub fn noun(self) -> &'static str {
        match self {
            IdKind::Package => "package",
            IdKind::Fact => "fact",
            IdKind::Session => "session",
        }
    }
}

/// What an id that names no record may still be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The start of ids of its kind, long enough to look up.
    Prefix,
    /// The kind's start with fewer than [`MIN_PREFIX_CHARS`] characters after it.
    TooShort,
    /// Not of the kind, or as long as a whole id: only ever an id.
    NotAPrefix,
}

/// How `given` may be read as a short id of `kind`.
pub fn shape(kind: IdKind, given: &str) -> Shape {
    let Some(rest) = given.strip_prefix(kind.start()) else {
        return Shape::NotAPrefix;
    };
    match rest.chars().count() {
        n if n >= FULL_ID_CHARS => Shape::NotAPrefix,
        n if n < MIN_PREFIX_CHARS => Shape::TooShort,
        _ => Shape::Prefix,
    }
}

/// The one id of `kind` that `given` stands for, once a lookup of `given` itself found
/// nothing: `Ok(None)` when `given` is no prefix of `kind` or no id begins with it (the caller
/// then reports its own not-found error). `matching` lists the records whose ids may begin
/// with the prefix (`id_of` says each one's id; others are dropped); `describe` tells each
/// candidate apart when there is more than one.
pub fn unique<R>(
    kind: IdKind,
    given: &str,
    matching: impl FnOnce(&str) -> Result<Vec<R>>,
    id_of: impl Fn(&R) -> &str,
    describe: impl Fn(&R) -> Result<IdCandidate>,
) -> Result<Option<String>> {
    match shape(kind, given) {
        Shape::NotAPrefix => Ok(None),
        Shape::TooShort => Err(Error::InvalidInput(format!(
            "no {noun} has the id `{given}`, and it is too short to stand for one by its \
             start: give `{start}` and at least {MIN_PREFIX_CHARS} more characters",
            noun = kind.noun(),
            start = kind.start(),
        ))),
        Shape::Prefix => {
            let mut found = matching(given)?;
            found.retain(|r| id_of(r).starts_with(given));
            found.sort_by(|a, b| id_of(a).cmp(id_of(b)));
            found.dedup_by(|a, b| id_of(a) == id_of(b));
            if found.len() <= 1 {
                return Ok(found.first().map(|r| id_of(r).to_string()));
            }
            let more = found.len().saturating_sub(LISTED_CANDIDATES);
            let candidates = (found.iter().take(LISTED_CANDIDATES))
                .map(&describe)
                .collect::<Result<Vec<_>>>()?;
            Err(Error::AmbiguousId {
                prefix: given.to_string(),
                kind: kind.noun(),
                candidates,
                more,
            })
        }
    }
}

/// Reads the package `given` names with `read` (any lookup by id that answers
/// `package_not_found` when there is none): by its id, else by the one package id it is the
/// start of.
pub fn package<T>(store: &Store, given: &str, read: impl Fn(&str) -> Result<T>) -> Result<T> {
    match read(given) {
        Err(Error::PackageNotFound(missing)) if missing == given => {
            match package_id(store, given)? {
                Some(full) => read(&full),
                None => Err(Error::PackageNotFound(missing)),
            }
        }
        other => other,
    }
}

/// The one package id `given` is the start of (see [`unique`]), across every project.
pub fn package_id(store: &Store, given: &str) -> Result<Option<String>> {
    unique(
        IdKind::Package,
        given,
        |prefix| store.package_ids_starting_with(prefix),
        String::as_str,
        |id| {
            // Read from the store, not through `packages::pull`, which resolves through here.
            let current = (store.package_everywhere(id)?.into_iter())
                .flat_map(|(_, versions)| versions)
                .max_by(relay_store::packages::version_order);
            Ok(IdCandidate {
                id: id.to_string(),
                summary: (current.as_ref())
                    .map(|p| p.package.title().to_string())
                    .unwrap_or_default(),
                created_at: (current.as_ref())
                    .map(|p| time::format(p.package.created_at()))
                    .unwrap_or_default(),
            })
        },
    )
}

/// The records that `mentioning` finds in each of `projects`, one list.
fn in_each<R>(
    projects: &[String],
    mentioning: impl Fn(&str) -> Result<std::collections::BTreeMap<String, R>>,
) -> Result<Vec<R>> {
    let mut out = Vec::new();
    for project in projects {
        out.extend(mentioning(project)?.into_values());
    }
    Ok(out)
}

/// The one fact id `given` is the start of (see [`unique`]), in `projects`: a byte search of
/// each project's fact log for the prefix.
pub fn fact_id(store: &Store, projects: &[String], given: &str) -> Result<Option<String>> {
    unique(
        IdKind::Fact,
        given,
        |prefix| in_each(projects, |project| store.facts_mentioning(project, prefix)),
        |f| f.id(),
        |f| {
            Ok(IdCandidate {
                id: f.id().to_string(),
                summary: format!("{} {} = {}", f.subject(), f.predicate(), f.value()),
                created_at: time::format(f.created_at()),
            })
        },
    )
}

/// The one session id `given` is the start of (see [`unique`]), in `projects`: a byte search
/// of each project's session log for the prefix.
pub fn session_id(store: &Store, projects: &[String], given: &str) -> Result<Option<String>> {
    unique(
        IdKind::Session,
        given,
        |prefix| {
            in_each(projects, |project| {
                store.sessions_mentioning(project, prefix)
            })
        },
        |s| s.id(),
        |s| {
            let field = |k: &str| s.str_field(k).unwrap_or_default().to_string();
            Ok(IdCandidate {
                id: s.id().to_string(),
                summary: format!(
                    "{} ({}, {})",
                    s.callsign().unwrap_or("no callsign"),
                    field("actor_id"),
                    field("actor_type")
                ),
                created_at: field("started_at"),
            })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};
    use serde_json::json;

    fn ids(list: &[&str]) -> Result<Vec<String>> {
        Ok(list.iter().map(|s| s.to_string()).collect())
    }

    fn candidate(id: &String) -> Result<IdCandidate> {
        Ok(IdCandidate {
            id: id.clone(),
            summary: format!("about {id}"),
            created_at: String::new(),
        })
    }

    #[test]
    fn a_prefix_keeps_the_kinds_start_and_four_characters_and_is_shorter_than_an_id() {
        let full = relay_wire::ids::new_id("pkg");
        assert_eq!(shape(IdKind::Package, &full), Shape::NotAPrefix);
        assert_eq!(shape(IdKind::Package, &full[..35]), Shape::Prefix);
        assert_eq!(shape(IdKind::Package, "pkg_3466"), Shape::Prefix);
        assert_eq!(shape(IdKind::Package, "pkg_346"), Shape::TooShort);
        assert_eq!(shape(IdKind::Package, "pkg_"), Shape::TooShort);
        assert_eq!(shape(IdKind::Package, "3466fa"), Shape::NotAPrefix);
        assert_eq!(shape(IdKind::Package, "fact_3466"), Shape::NotAPrefix);
        assert_eq!(shape(IdKind::Fact, "fact_3466"), Shape::Prefix);
        assert_eq!(shape(IdKind::Session, "sess_34"), Shape::TooShort);
    }

    #[test]
    fn one_match_is_the_id_none_is_none_and_more_list_the_first_ten_by_id() {
        let one = unique(
            IdKind::Package,
            "pkg_3466",
            |_| ids(&["pkg_3466fa", "pkg_9999"]),
            String::as_str,
            candidate,
        );
        assert_eq!(one.unwrap().as_deref(), Some("pkg_3466fa"));
        let none = unique(
            IdKind::Package,
            "pkg_3466",
            |_| ids(&[]),
            String::as_str,
            candidate,
        );
        assert_eq!(none.unwrap(), None);
        let never_asked = unique(
            IdKind::Package,
            "note_3466",
            |_| -> Result<Vec<String>> { unreachable!("not a prefix: no lookup") },
            String::as_str,
            candidate,
        );
        assert_eq!(never_asked.unwrap(), None);
        let too_short = unique(
            IdKind::Fact,
            "fact_34",
            |_| ids(&[]),
            String::as_str,
            candidate,
        );
        assert_eq!(too_short.unwrap_err().code(), "invalid_input");

        let many: Vec<String> = (0..12).rev().map(|i| format!("pkg_3466{i:02}")).collect();
        let err = unique(
            IdKind::Package,
            "pkg_3466",
            |_| Ok(many.clone()),
            String::as_str,
            candidate,
        )
        .unwrap_err();
        let Error::AmbiguousId {
            prefix,
            kind,
            candidates,
            more,
        } = &err
        else {
            panic!("{err}");
        };
        assert_eq!((prefix.as_str(), *kind, *more), ("pkg_3466", "package", 2));
        let listed: Vec<&str> = candidates.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(listed.first(), Some(&"pkg_346600"));
        assert_eq!(listed.len(), LISTED_CANDIDATES);
        assert_eq!(err.code(), "ambiguous_id");
        assert!(
            err.to_string().contains("12 package ids begin with it"),
            "{err}"
        );
    }

    #[test]
    fn packages_are_found_by_prefix_in_any_project_and_a_stored_id_names_itself() {
        let (_dir, store) = store_with(&["demo", "other"]);
        for (id, project) in [
            ("pkg_3466fa", "demo"),
            ("pkg_3466fb", "other"),
            ("pkg_3466", "demo"),
        ] {
            let input = json!({"package_id": id, "title": format!("Title of {id}")});
            deposit(
                &store,
                input.as_object().unwrap().clone(),
                &context(project),
            )
            .unwrap();
        }
        let read = |id: &str| crate::ops::packages::pull::specific(store.view(), id);
        assert_eq!(read("pkg_3466fb").unwrap().package.project_id(), "other");
        assert_eq!(read("pkg_3466").unwrap().package.id(), "pkg_3466");
        let err = read("pkg_3466f").unwrap_err();
        assert_eq!(err.code(), "ambiguous_id");
        let text = err.to_string();
        assert!(
            text.contains("pkg_3466fb  ") && text.contains("Title of pkg_3466fa"),
            "{text}"
        );
        assert_eq!(read("pkg_ffff").unwrap_err().code(), "package_not_found");
        // A whole id that is missing is never read as a prefix.
        let upsert_lookup = crate::ops::packages::pull::exact(store.view(), "pkg_3466f");
        assert_eq!(upsert_lookup.unwrap_err().code(), "package_not_found");
    }

    #[test]
    fn facts_and_sessions_are_found_by_prefix_in_the_projects_given() {
        let (_dir, store) = store_with(&["demo"]);
        let projects = ["demo".to_string()];
        let actor = crate::ops::Actor {
            id: "jo".into(),
            actor_type: "human".into(),
        };
        let a = crate::ops::sessions::start(&store, "demo", &actor, Some("coral-heron")).unwrap();
        let b = crate::ops::sessions::start(&store, "demo", &actor, Some("amber-fox")).unwrap();
        let found = session_id(&store, &projects, &a.id()[..13]).unwrap();
        assert_eq!(found.as_deref(), Some(a.id()));
        let by_prefix = crate::ops::sessions::resolve(&store, &projects, &b.id()[..13]).unwrap();
        assert_eq!(by_prefix.id(), b.id());
        // Every session id begins with `sess_`; with four characters more, at most one of
        // these two unless they happen to share them.
        let shared = "sess_".len()
            + a.id()[5..]
                .chars()
                .zip(b.id()[5..].chars())
                .take_while(|(x, y)| x == y)
                .count();
        if shared >= 5 + MIN_PREFIX_CHARS {
            let err = session_id(&store, &projects, &a.id()[..shared]).unwrap_err();
            assert_eq!(err.code(), "ambiguous_id");
        }
        assert_eq!(session_id(&store, &projects, "sess_ffff").unwrap(), None);
        assert_eq!(fact_id(&store, &projects, "fact_ffff").unwrap(), None);
    }
}
