//! The rules an import applies as deposit, review and `facts assert` do: a package id is unique
//! in the whole store (§6.1), a package moves on only along the lifecycle of §5.3, and a fact's
//! source package exists in its project (§7.2). A record that breaks one stops the import
//! before anything is written, or with `--on-conflict skip` is left out and listed.

use serde_json::{Value, json};

use super::check::{Text, Version};
use super::{KeyHashing, KeyMap, Run, bump};
use super::{OnConflict, SKIPPED_LISTED, SkippedRecord};
use crate::ops::export::Kind;
use relay_store::Store;
use relay_store::index::{hash_prefix, id_key};
use relay_store::packages::{Location, StoredPackage};
use relay_wire::error::{Error, Result};
use relay_wire::{Fact, Package, Status, canonical, time};

/// Whether two packages differ at most in their review state (`status`, `review_type`).
pub(super) fn same_but_review(a: &Package, b: &Package) -> bool {
    let strip = |p: &Package| {
        let mut m = p.as_map().clone();
        m.remove("status");
        m.remove("review_type");
        canonical::to_canonical_string(&Value::Object(m))
    };
    strip(a) == strip(b)
}

/// Whether `p` differs at most in its review state from a version the stream carried before,
/// known only by its status and [`hash_prefix`]: `p` put in that status, under one of the
/// review types, has that hash.
pub(super) fn same_as_earlier(p: &Package, status: Status, earlier_prefix: u64) -> bool {
    let own = p.review_type().to_string();
    ["none", "human", "agent", own.as_str()].iter().any(|r| {
        let mut m = p.as_map().clone();
        m.insert("status".into(), json!(status.as_str()));
        m.insert("review_type".into(), json!(r));
        hash_prefix(&canonical::content_hash(&Value::Object(m))) == earlier_prefix
    })
}

/// The version an import appends after version `version` (in status `from`).
pub(super) fn next_version(
    package: Package,
    hash: &str,
    from: Status,
    version: u64,
) -> StoredPackage {
    StoredPackage {
        version: version + 1,
        transition: Some(json!({
            "action": "import", "from": from.as_str(), "to": package.status().as_str(),
            "by": {"id": "relay import", "type": "script"}, "at": time::format(time::now()),
            "note": "a later version of the package, imported from a backup",
        })),
        hash: hash.to_string(),
        package,
        location: Location {
            path: Default::default(),
            line: 0,
        },
    }
}

/// In [`Elsewhere`]: the id is stored in more than one project.
const SEVERAL: u32 = u32::MAX;

/// The keys of every package id the store held when the import began, with the project that
/// holds each: to find an id that another project holds.
pub(super) struct Elsewhere {
    projects: Vec<String>,
    ids: KeyMap<u64, u32>,
}

impl Elsewhere {
    pub(super) fn load(store: &Store) -> Result<Elsewhere> {
        let projects = store.all_project_ids()?;
        let mut ids = KeyMap::with_hasher(KeyHashing::default());
        for (n, project) in projects.iter().enumerate() {
            super::each_stored_id(store, project, |id, _| {
                let at = ids.entry(id_key(id)).or_insert(n as u32);
                if *at != n as u32 {
                    *at = SEVERAL;
                }
            })?;
        }
        Ok(Elsewhere { projects, ids })
    }

    /// Whether a project other than `project` holds package `id`. Keys only narrow it down:
    /// the store is asked about the id itself.
    pub(super) fn holds(&self, store: &Store, project: &str, id: &str) -> Result<bool> {
        match self.ids.get(&id_key(id)) {
            None => Ok(false),
            Some(&n) if self.projects.get(n as usize).is_some_and(|p| p == project) => Ok(false),
            Some(_) => Ok(store
                .package_everywhere(id)?
                .iter()
                .any(|(p, _)| p != project)),
        }
    }
}

impl Run<'_> {
    /// Whether package `id` (of key `key`), new to `project`, is held by another project: in
    /// the store, or earlier in the source.
    pub(super) fn held_elsewhere(&mut self, project: &str, key: u64, id: &str) -> Result<bool> {
        let in_source = (self.projects.iter())
            .any(|(other, st)| other != project && st.seen.contains_key(&key));
        if in_source {
            return Ok(true);
        }
        let elsewhere = match &self.elsewhere {
            Some(e) => e,
            None => self.elsewhere.insert(Elsewhere::load(self.store)?),
        };
        elsewhere.holds(self.store, project, id)
    }

    /// A record that breaks a rule: with `--on-conflict skip` it is left out, counted and
    /// listed; otherwise the import stops with `error`, having written nothing.
    pub(super) fn refuse(&mut self, kind: Kind, id: &str, error: Error) -> Result<()> {
        match self.opts.on_conflict {
            OnConflict::Fail => Err(error),
            OnConflict::Skip => {
                bump(&mut self.summary.skipped, kind);
                if self.summary.skipped_records.len() < SKIPPED_LISTED {
                    self.summary.skipped_records.push(SkippedRecord {
                        kind,
                        id: id.to_string(),
                        error: error.code(),
                        message: error.to_string(),
                    });
                }
                Ok(())
            }
        }
    }

    /// Whether the package a fact of `project` names as its source is known: met earlier in
    /// the source, or stored in that project (the rule of
    /// [`crate::ops::facts::sources::check_source_package`], asked of the log the package index
    /// places the id in).
    pub(super) fn source_known(&mut self, project: &str, package_id: &str) -> Result<bool> {
        let store = self.store;
        let key = id_key(package_id);
        let st = self.project(project)?;
        if st.seen.contains_key(&key) || st.sources.contains(&key) {
            return Ok(true);
        }
        let Some(&at) = st.existing.get(&key) else {
            return Ok(false);
        };
        // The rule of `check_source_package`, asked of the one log that holds the id's key.
        let logs = match st.logs.get(usize::from(at)) {
            Some(log) => std::slice::from_ref(log),
            None => st.logs.as_slice(),
        };
        let held = !store.package_versions_in(logs, package_id)?.is_empty();
        if held {
            st.sources.insert(key);
        }
        Ok(held)
    }

    /// A fact: one to be written must have a known source package (see
    /// [`Run::source_known`]); one already stored is left alone, as it is. A fact whose source
    /// is not known yet waits for the end of the source, which may still bring it.
    pub(super) fn fact(&mut self, fact: Version, text: &Text, last_chance: bool) -> Result<()> {
        if let Some((package, fact_id)) = fact.source {
            let project = text.str(fact.project);
            let (package, fact_id) = (text.str(package), text.str(fact_id));
            // Only a fact to be written needs its source: a stored one is left as it is.
            if self.fact_would_be_added(&fact, text)? && !self.source_known(project, package)? {
                if !last_chance {
                    self.waiting.push(fact.detach(text));
                    return Ok(());
                }
                let error = Error::SourcePackageNotFound {
                    fact_id: fact_id.to_string(),
                    package_id: package.to_string(),
                };
                return self.refuse(Kind::Facts, fact_id, error);
            }
        }
        self.versioned::<Fact>(&fact, text, Kind::Facts, Store::facts_log, |st| {
            &mut st.facts
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Status::*;

    #[test]
    fn the_lifecycle_of_section_5_3() {
        let all = [Draft, AwaitingReview, RevisionRequested, Complete];
        let allowed: Vec<(Status, Status)> = all
            .iter()
            .flat_map(|&a| all.iter().map(move |&b| (a, b)))
            .filter(|&(a, b)| a.may_become(b))
            .collect();
        assert_eq!(
            allowed,
            vec![
                (Draft, AwaitingReview),
                (Draft, Complete),
                (AwaitingReview, RevisionRequested),
                (AwaitingReview, Complete),
                (RevisionRequested, AwaitingReview),
                (RevisionRequested, Complete),
            ]
        );
    }

    #[test]
    fn an_earlier_version_is_recognised_by_its_hash() {
        let p = |status: &str, review: &str, title: &str| {
            Package::from_value(json!({
                "package_id": "pkg_1", "project_id": "p", "relay_version": "0.1", "title": title,
                "status": status, "package_type": "standard", "review_type": review,
                "created_at": "2026-04-18T20:00:00Z", "created_by": {"id": "jo", "type": "human"}
            }))
            .unwrap()
        };
        let earlier = p("awaiting_review", "human", "T");
        let prefix = hash_prefix(&earlier.content_hash());
        assert!(same_as_earlier(
            &p("complete", "none", "T"),
            AwaitingReview,
            prefix
        ));
        assert!(same_as_earlier(
            &p("complete", "human", "T"),
            AwaitingReview,
            prefix
        ));
        assert!(!same_as_earlier(
            &p("complete", "human", "U"),
            AwaitingReview,
            prefix
        ));
        assert!(!same_as_earlier(
            &p("complete", "human", "T"),
            Draft,
            prefix
        ));
        assert!(same_but_review(&earlier, &p("complete", "none", "T")));
        assert!(!same_but_review(&earlier, &p("complete", "none", "U")));
    }
}
