//! A key's history as every transport shows it (`relay facts history`, its HTTP route, the
//! console): each fact of the effective chain, oldest first, and, for a fact that reads hide
//! (retracted, asserted from a retracted package, expired), what hides it. Such a fact keeps
//! its place in the chain, since it still ended the one before it, but it is never shown as
//! the key's value: its entry carries [`HIDDEN`], and unless the caller asks to see hidden
//! facts (`--include-retracted`, `--include-expired`) only the members that place it in the
//! chain are shown, not its value.

use serde_json::{Map, Value};

use crate::ops::facts::{self, STORED_VALID_TO};
use crate::search::filter::{Hidden, Reveal};
use relay_store::Store;
use relay_store::fact_chain::Link;
use relay_wire::error::Result;

/// The member that marks a hidden fact of a history:
/// `{"because": "retracted" | "source_retracted" | "expired", "retraction" | "expired_at"}`.
pub const HIDDEN: &str = "x-hidden";

/// What a withheld fact keeps: where it sits in the chain, not what it said.
const PLACE: [&str; 8] = [
    "fact_id",
    "project_id",
    "subject",
    "predicate",
    "valid_from",
    "valid_to",
    "created_at",
    STORED_VALID_TO,
];

/// One fact of a history.
#[derive(Debug, Clone)]
pub struct Entry {
    pub link: Link,
    /// Why reads hide the fact, if they do: the [`HIDDEN`] object and a phrase for people
    /// ("retracted by ana at …: reason").
    pub hidden: Option<(Value, String)>,
    /// Whether its value is withheld (hidden, and not asked for).
    pub withheld: bool,
}

impl Entry {
    /// The fact as `history --json` gives it: [`facts::link_value`], then, for a hidden
    /// fact, only its place in the chain unless shown, and [`HIDDEN`].
    pub fn to_value(&self) -> Value {
        let mut v = facts::link_value(&self.link);
        if let (Some((mark, _)), Value::Object(map)) = (&self.hidden, &mut v) {
            if self.withheld {
                let kept: Map<String, Value> = std::mem::take(map)
                    .into_iter()
                    .filter(|(k, _)| PLACE.contains(&k.as_str()))
                    .collect();
                *map = kept;
            }
            map.insert(HIDDEN.into(), mark.clone());
        }
        v
    }

    /// Whether this fact is the key's value now: the chain's last, open, and not hidden.
    pub fn is_current(&self) -> bool {
        self.hidden.is_none() && self.link.fact.is_current()
    }
}

/// Every fact of a key, oldest first, each marked when reads hide it; `reveal` says which
/// hidden facts keep their value.
pub fn history(
    store: &Store,
    project_id: &str,
    subject: &str,
    predicate: &str,
    reveal: Reveal,
) -> Result<Vec<Entry>> {
    let chain = facts::history(store, project_id, subject, predicate)?;
    let hidden = Hidden::load(store.view(), &[project_id.to_string()], Reveal::default())?;
    Ok(chain
        .into_iter()
        .map(|link| {
            let why = hidden.fact(&link.fact);
            Entry {
                withheld: why.as_ref().is_some_and(|w| !reveal.shows(w)),
                hidden: why.map(|w| (w.to_value(), w.summary())),
                link,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::facts::AssertRequest;
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};
    use crate::ops::packages::retract::{RetractRequest, retract};
    use serde_json::json;

    fn assert(store: &Store, key: (&str, &str), value: &str, source: Option<&str>) -> String {
        let req = AssertRequest {
            subject: key.0.into(),
            predicate: key.1.into(),
            value: value.into(),
            source_package_id: source.map(str::to_string),
            asserted_by: json!({"id": "jo", "type": "human"}),
            actor_explicit: true,
            ..Default::default()
        };
        let done = facts::assert(store, "demo", &req).unwrap();
        done.fact.id().to_string()
    }

    fn take_back(store: &Store, id: &str, reason: &str) {
        let mut req = RetractRequest {
            id: id.into(),
            reason: reason.into(),
            actor: context("demo").actor,
            session_id: None,
            project_hint: Some("demo".into()),
        };
        req.actor.id = "ana".into();
        retract(store, &req).unwrap();
    }

    #[test]
    fn a_retracted_fact_is_marked_never_current_and_its_value_withheld_unless_shown() {
        let (_dir, store) = store_with(&["demo"]);
        assert(&store, ("api", "status"), "beta", None);
        let live = assert(&store, ("api", "status"), "live-secret", None);
        take_back(&store, &live, "never went live");
        let entries = history(&store, "demo", "api", "status", Reveal::default()).unwrap();
        assert_eq!(entries.len(), 2);
        assert!(entries[0].hidden.is_none() && !entries[0].is_current());
        let last = &entries[1];
        assert!(!last.is_current(), "a retracted fact is never current");
        assert!(last.withheld);
        let (mark, phrase) = last.hidden.clone().unwrap();
        assert_eq!(mark["because"], "retracted");
        assert_eq!(mark["retraction"]["reason"], "never went live");
        assert!(phrase.starts_with("retracted by ana at "), "{phrase}");
        let v = last.to_value();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "fact_id",
                "project_id",
                "subject",
                "predicate",
                "valid_from",
                "valid_to",
                "created_at",
                HIDDEN
            ]
        );
        assert!(!v.to_string().contains("live-secret"), "{v}");
        let shown = history(&store, "demo", "api", "status", Reveal::ALL).unwrap();
        let v = shown[1].to_value();
        assert_eq!(v["value"], "live-secret");
        assert_eq!(v[HIDDEN]["because"], "retracted");
        assert!(!shown[1].is_current());
    }

    #[test]
    fn a_fact_from_a_retracted_package_is_hidden_with_it_and_a_new_one_is_refused() {
        let (_dir, store) = store_with(&["demo"]);
        let input = json!({"package_id": "pkg_src", "title": "Benchmarks"});
        deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
        let id = assert(&store, ("bench", "speed"), "fast", Some("pkg_src"));
        assert(&store, ("bench", "owner"), "ana", None);
        take_back(&store, "pkg_src", "debug build");
        let err =
            facts::get(&store, "demo", "bench", "speed", None, Reveal::default()).unwrap_err();
        assert_eq!(err.code(), "fact_not_found");
        assert!(
            err.to_string()
                .contains("was asserted from package `pkg_src`, which was retracted by ana"),
            "{err}"
        );
        let got = facts::get(&store, "demo", "bench", "speed", None, Reveal::ALL).unwrap();
        assert_eq!(got.id(), id);
        let listed = facts::list(&store, "demo", &facts::ListQuery::default()).unwrap();
        let keys: Vec<&str> = listed.iter().map(|f| f.predicate()).collect();
        assert_eq!(keys, ["owner"]);
        let entries = history(&store, "demo", "bench", "speed", Reveal::default()).unwrap();
        let (mark, _) = entries[0].hidden.clone().unwrap();
        assert_eq!(mark["because"], "source_retracted");
        assert_eq!(mark["retraction"]["id"], "pkg_src");
        let req = AssertRequest {
            subject: "bench".into(),
            predicate: "speed".into(),
            value: "faster".into(),
            source_package_id: Some("pkg_src".into()),
            asserted_by: json!({"id": "jo", "type": "human"}),
            ..Default::default()
        };
        let err = facts::assert(&store, "demo", &req).unwrap_err();
        assert_eq!(err.code(), "package_not_found");
        assert!(err.to_string().contains("debug build"), "{err}");
    }
}
