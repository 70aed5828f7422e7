//! retract: hide a package or a fact from every read from now on, with a reason, without
//! rewriting anything. The retraction is a line of its own ([`relay_store::retractions`]);
//! `pull ID --history` and `--include-retracted` still show the record, and `relay purge
//! --retracted` is what removes its lines.

use serde_json::{Map, Value, json};

use crate::ops::trust::identity::Actor;
use relay_store::Store;
use relay_store::retractions::{RecordKind, Retraction};
use relay_wire::error::{Error, Result};
use relay_wire::time;

/// What `retract` is asked.
#[derive(Debug, Clone)]
pub struct RetractRequest {
    /// A package id or a fact id.
    pub id: String,
    pub reason: String,
    pub actor: Actor,
    pub session_id: Option<String>,
    /// Where to look for a fact first (package ids are found in any project).
    pub project_hint: Option<String>,
}

/// The outcome of a retraction.
#[derive(Debug, Clone)]
pub struct Retracted {
    pub retraction: Retraction,
    pub project_id: String,
    /// False when the record was already retracted: the earlier retraction stands and
    /// nothing was written.
    pub created: bool,
}

impl Retracted {
    /// `{"retraction": {…}, "project_id", "unchanged"}`, as every transport answers.
    pub fn to_value(&self) -> Value {
        json!({
            "retraction": self.retraction.raw,
            "project_id": self.project_id,
            "unchanged": !self.created,
        })
    }
}

/// Which record `id` names, its project and its whole id: a package anywhere in the store,
/// else a fact (looked for in `hint` first, then every project). `id` may be a short id, the
/// start of one package's or fact's id ([`crate::ops::short_ids`]).
pub fn locate(store: &Store, id: &str, hint: Option<&str>) -> Result<(RecordKind, String, String)> {
    match crate::ops::packages::pull::specific(store.view(), id) {
        Ok(p) => {
            let project = p.package.project_id().to_string();
            return Ok((RecordKind::Package, project, p.package.id().to_string()));
        }
        Err(Error::PackageNotFound(_)) => {}
        Err(e) => return Err(e),
    }
    let mut projects: Vec<String> = hint.map(str::to_string).into_iter().collect();
    for p in crate::ops::projects::list(store)? {
        if Some(p.id()) != hint {
            projects.push(p.id().to_string());
        }
    }
    if let Some(project) = fact_project(store, &projects, id)? {
        return Ok((RecordKind::Fact, project, id.to_string()));
    }
    if let Some(whole) = crate::ops::short_ids::fact_id(store, &projects, id)?
        && let Some(project) = fact_project(store, &projects, &whole)?
    {
        return Ok((RecordKind::Fact, project, whole));
    }
    Err(Error::InvalidInput(format!(
        "no package or fact with id `{id}` in this store (`relay pull --latest` and `relay facts \
         list` show ids)"
    )))
}

/// The first of `projects` whose fact log holds fact `id`.
fn fact_project(store: &Store, projects: &[String], id: &str) -> Result<Option<String>> {
    let needle = relay_store::packages::json_fragment(id);
    for project in projects {
        let path = store.facts_log(project);
        let mut found = false;
        relay_store::ndjson::read_objects_filtered(
            &path,
            store.diagnostics(),
            Some(needle.as_bytes()),
            |_, map| {
                found |= map.get("fact_id").and_then(Value::as_str) == Some(id);
                Ok(())
            },
        )?;
        if found {
            return Ok(Some(project.clone()));
        }
    }
    Ok(None)
}

pub use crate::request::retract::check_reason;

/// Retracts a package or fact. Under the project's lock, a record already retracted keeps its
/// first retraction and nothing is written, so retracting twice is harmless.
pub fn retract(store: &Store, req: &RetractRequest) -> Result<Retracted> {
    check_reason(&req.reason)?;
    let reason =
        crate::ops::trust::secrets::guard_fields(store, &[("reason", req.reason.as_str())])?
            .remove(0);
    let (record, project_id, id) = locate(store, &req.id, req.project_hint.as_deref())?;
    let _lock = store.lock_project(&project_id)?;
    let existing = store.retractions(&project_id)?;
    let earlier = match record {
        RecordKind::Package => existing.package(&id),
        RecordKind::Fact => existing.fact(&id),
    };
    if let Some(r) = earlier {
        return Ok(Retracted {
            retraction: r.clone(),
            project_id,
            created: false,
        });
    }
    let mut by = json!({"id": req.actor.id, "type": req.actor.actor_type});
    if let Some(s) = &req.session_id {
        by["session_id"] = json!(s);
    }
    let retraction = Retraction::new(record, &id, &reason, by, time::now(), Map::new());
    store.append_retraction(&project_id, &retraction)?;
    Ok(Retracted {
        retraction,
        project_id,
        created: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};
    use crate::search::filter::{Filter, Reveal};

    fn request(id: &str, reason: &str) -> RetractRequest {
        RetractRequest {
            id: id.into(),
            reason: reason.into(),
            actor: Actor {
                id: "jo".into(),
                actor_type: "human".into(),
            },
            session_id: None,
            project_hint: None,
        }
    }

    #[test]
    fn a_retracted_package_leaves_every_listing_but_its_history_and_retracting_twice_writes_once() {
        let (_dir, store) = store_with(&["demo"]);
        for id in ["pkg_keep", "pkg_gone"] {
            let mut input = Map::new();
            input.insert("package_id".into(), json!(id));
            input.insert("title".into(), json!(format!("{id} about caching")));
            deposit(&store, input, &context("demo")).unwrap();
        }
        let done = retract(&store, &request("pkg_gone", "wrong numbers")).unwrap();
        assert!(done.created);
        assert_eq!(done.retraction.record, RecordKind::Package);
        let log = store.retractions_log("demo");
        let bytes = std::fs::read(&log).unwrap();
        let again = retract(&store, &request("pkg_gone", "another reason")).unwrap();
        assert!(!again.created);
        assert_eq!(again.retraction.reason, "wrong numbers");
        assert_eq!(std::fs::read(&log).unwrap(), bytes, "nothing written twice");

        let projects = ["demo".to_string()];
        let ids = |filter: &Filter| -> Vec<String> {
            let latest = crate::ops::packages::pull::latest(&store, &projects, filter, 10).unwrap();
            latest.iter().map(|p| p.package.id().to_string()).collect()
        };
        assert_eq!(ids(&Filter::default()), ["pkg_keep"]);
        let revealing = Filter {
            reveal: Reveal::ALL,
            ..Filter::default()
        };
        assert_eq!(ids(&revealing).len(), 2);
        let found =
            crate::search::relevant::relevant(&store, &projects, "caching", &Filter::default(), 10)
                .unwrap();
        assert_eq!(found.len(), 1);
        let err = crate::ops::packages::pull::visible(store.view(), "pkg_gone", Reveal::default())
            .unwrap_err();
        assert_eq!(err.code(), "package_not_found");
        assert!(err.to_string().contains("retracted by jo"), "{err}");
        assert!(err.to_string().contains("wrong numbers"), "{err}");
        assert!(crate::ops::packages::pull::visible(store.view(), "pkg_gone", Reveal::ALL).is_ok());
        assert_eq!(
            crate::ops::packages::pull::history(&store, "pkg_gone")
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn a_retracted_fact_leaves_the_key_without_a_current_fact() {
        let (_dir, store) = store_with(&["demo"]);
        let assert = |value: &str| {
            let req = crate::ops::facts::AssertRequest {
                subject: "api".into(),
                predicate: "status".into(),
                value: value.into(),
                asserted_by: json!({"id": "jo", "type": "human"}),
                ..Default::default()
            };
            crate::ops::facts::assert(&store, "demo", &req)
                .unwrap()
                .fact
        };
        assert("beta");
        let live = assert("live");
        let mut req = request(live.id(), "never went live");
        req.project_hint = Some("demo".into());
        let done = retract(&store, &req).unwrap();
        assert_eq!(done.retraction.record, RecordKind::Fact);
        let get = |reveal| crate::ops::facts::get(&store, "demo", "api", "status", None, reveal);
        let err = get(Reveal::default()).unwrap_err();
        assert_eq!(err.code(), "fact_not_found");
        assert!(err.to_string().contains("never went live"), "{err}");
        assert_eq!(get(Reveal::ALL).unwrap().value(), "live");
        let list =
            crate::ops::facts::list(&store, "demo", &crate::ops::facts::ListQuery::default())
                .unwrap();
        assert!(list.is_empty());
        // Asserting the same value again is a new fact, not "unchanged".
        let again = assert("live");
        assert_ne!(again.id(), live.id());
        assert!(retract(&store, &request("fact_nope", "x")).is_err());
        assert!(retract(&store, &request(live.id(), "  ")).is_err());
    }
}
