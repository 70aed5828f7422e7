//! A share profile applied to the records an export reads, as they stream: the withheld are
//! counted (never named), the changed are derived (a package with a new hash and the one it
//! was derived from), the rest pass byte for byte.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::super::{Counts, Kind, Sink, each_record};
use super::Policy;
use relay_store::{Store, ndjson};
use relay_wire::error::{Error, Result};
use relay_wire::tree::Json;
use relay_wire::{canonical, package};

/// The content hash of the package `line` holds, read as the store reads it (the borrowing
/// tree keeps numbers as written), so it is the hash the store keeps.
fn original_hash(line: &[u8]) -> Result<String> {
    let reread = || Error::Integrity("cannot re-read an exported package".into());
    let text = std::str::from_utf8(line).map_err(|_| reread())?;
    match Json::parse(text) {
        Ok(Json::Object(package)) => Ok(canonical::content_hash_of_map(&package)),
        _ => Err(reread()),
    }
}

/// What a share withheld and changed, per kind: counts only, never which records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shared {
    pub profile: String,
    pub withheld: Counts,
    pub derived: Counts,
    /// The projects the share carries (those the profile selects).
    #[serde(skip)]
    pub projects: Vec<String>,
}

/// Streams the records of `projects` that `policy` lets leave to `sink`, in
/// [`each_record`]'s order, each unchanged or derived; counts what it withheld and derived.
pub fn each_shared_record(
    store: &Store,
    projects: &[String],
    policy: &Policy,
    sink: &mut Sink<'_>,
) -> Result<Shared> {
    let (kept, held): (Vec<String>, Vec<String>) =
        (projects.iter().cloned()).partition(|p| policy.selects_project(p));
    let mut filter = Filter {
        policy,
        withheld_packages: HashSet::new(),
        now: relay_wire::time::now(),
        shared: Shared {
            profile: policy.name.clone(),
            withheld: zeros(),
            derived: zeros(),
            projects: kept.clone(),
        },
    };
    each_record(store, &held, &mut |kind, _, n| {
        *filter.shared.withheld.entry(kind).or_default() += n;
        Ok(())
    })?;
    // Every package comes before any fact or session: by then the withheld ids are known.
    let retracted = each_record(store, &kept, &mut |kind, lines, _| {
        let (out, n) = filter.pass(kind, lines)?;
        if n > 0 { sink(kind, &out, n) } else { Ok(()) }
    })?;
    for (kind, n) in retracted {
        *filter.shared.withheld.entry(kind).or_default() += n;
    }
    Ok(filter.shared)
}

fn zeros() -> Counts {
    [Kind::Projects, Kind::Packages, Kind::Facts, Kind::Sessions]
        .into_iter()
        .map(|k| (k, 0))
        .collect()
}

/// The policy applied to a stream of records.
struct Filter<'p> {
    policy: &'p Policy,
    /// The ids of the packages withheld so far: the facts asserted from them stay too, and
    /// sessions forget them.
    withheld_packages: HashSet<String>,
    shared: Shared,
    /// The time expiry is judged at.
    now: relay_wire::time::Timestamp,
}

impl Filter<'_> {
    /// The lines of `kind` that pass, unchanged or derived, and how many.
    fn pass(&mut self, kind: Kind, lines: &[u8]) -> Result<(Vec<u8>, usize)> {
        let (mut out, mut n) = (Vec::with_capacity(lines.len()), 0);
        for line in lines.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            if self.one(kind, line, &mut out)? {
                n += 1;
            } else {
                *self.shared.withheld.entry(kind).or_default() += 1;
            }
        }
        Ok((out, n))
    }

    /// One record: withheld (false), or written to `out` as it was or derived.
    fn one(&mut self, kind: Kind, line: &[u8], out: &mut Vec<u8>) -> Result<bool> {
        let mut record: Map<String, Value> = serde_json::from_slice(line)
            .map_err(|e| Error::Integrity(format!("cannot re-read an exported record: {e}")))?;
        // What has expired is not shared (retracted records never reach this filter).
        let expired = relay_wire::expiry::is_expired(&record, self.now);
        let keep = !expired
            && match kind {
                Kind::Packages => self.policy.selects_package(&record),
                Kind::Facts => self.policy.selects_fact(&record, &self.withheld_packages),
                Kind::Projects | Kind::Sessions => true,
            };
        if !keep {
            if let Some(id) = record.get("package_id").and_then(Value::as_str) {
                self.withheld_packages.insert(id.to_string());
            }
            return Ok(false);
        }
        let mut changed = self.policy.derive(kind, &mut record);
        if kind == Kind::Sessions {
            changed |= self.forget_withheld(&mut record);
        }
        if !changed {
            out.extend_from_slice(line);
            out.push(b'\n');
            return Ok(true);
        }
        self.valid(kind, &record)?;
        *self.shared.derived.entry(kind).or_default() += 1;
        let line = if kind == Kind::Packages {
            // The hash the store keeps for the package (§6.6), from the line as it came.
            let derived_from = original_hash(line)?;
            let hash = canonical::content_hash_of_map(&record);
            ndjson::to_line(
                &json!({"package": record, "hash": hash, "derived_from": derived_from}),
            )?
        } else {
            ndjson::to_line(&record)?
        };
        out.extend_from_slice(&line);
        Ok(true)
    }

    /// A session's `packages_deposited` without the withheld packages; whether it changed.
    fn forget_withheld(&self, session: &mut Map<String, Value>) -> bool {
        let Some(Value::Array(ids)) = session.get_mut("packages_deposited") else {
            return false;
        };
        let before = ids.len();
        ids.retain(|v| {
            v.as_str()
                .is_none_or(|id| !self.withheld_packages.contains(id))
        });
        ids.len() != before
    }

    /// A derived record must still be valid: a profile whose redaction breaks one (a title
    /// grown too long) is refused, naming the record and the field.
    fn valid(&self, kind: Kind, record: &Map<String, Value>) -> Result<()> {
        let checked = match kind {
            Kind::Packages => package::validate(record),
            Kind::Facts => relay_wire::fact::validate(record),
            Kind::Sessions => relay_wire::session::validate(record),
            Kind::Projects => relay_wire::project::validate(record),
        };
        checked.map_err(|e| {
            let key = match kind {
                Kind::Packages => "package_id",
                Kind::Facts => "fact_id",
                Kind::Sessions => "session_id",
                Kind::Projects => "project_id",
            };
            let id = record.get(key).and_then(Value::as_str).unwrap_or_default();
            Error::InvalidInput(format!(
                "share profile `{}` leaves {key} `{id}` invalid: {e}; change its drop_fields or redact",
                self.policy.name
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::export::share::NEVER_SHARE;
    use crate::ops::export::share::tests::{map, policy};
    use crate::ops::packages::deposit::{deposit, test_support};

    /// Every line a share gives, and what it counted.
    fn shared(store: &Store, settings: Value) -> (Vec<Value>, Shared) {
        let p = policy(settings).unwrap();
        let mut lines = Vec::new();
        let projects = ["demo".to_string(), "web".to_string()];
        let s = each_shared_record(store, &projects, &p, &mut |_, out, n| {
            let got: Vec<Value> = (out.split(|&b| b == b'\n'))
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_slice(l).unwrap())
                .collect();
            assert_eq!(got.len(), n);
            lines.extend(got);
            Ok(())
        })
        .unwrap();
        (lines, s)
    }

    #[test]
    fn a_share_keeps_unchanged_hashes_derives_the_rest_and_counts_what_it_withheld() {
        let (_dir, store) = test_support::store_with(&["demo", "web"]);
        let put = |project: &str, v: Value| {
            let ctx = test_support::context(project);
            deposit(&store, map(v), &ctx).unwrap()
        };
        let plain = put("demo", json!({"package_id": "pkg_plain", "title": "Plain"}));
        let body = put(
            "demo",
            json!({"package_id": "pkg_body", "title": "Body", "content_md": "secret plan"}),
        );
        put(
            "demo",
            json!({"package_id": "pkg_draft", "title": "D", "status": "draft"}),
        );
        put(
            "demo",
            json!({"package_id": "pkg_never", "title": "N", "tags": [NEVER_SHARE]}),
        );
        put("web", json!({"package_id": "pkg_web", "title": "Web"}));
        let fact = |id: &str, source: Option<&str>| {
            let mut f = json!({"fact_id": id, "project_id": "demo", "subject": id,
                "predicate": "p", "value": "v", "valid_from": "2026-01-01T00:00:00Z",
                "created_at": "2026-01-01T00:00:00Z"});
            if let Some(s) = source {
                f["source_package_id"] = json!(s);
            }
            relay_wire::Fact::from_value(f).unwrap()
        };
        let facts = [
            fact("fact_free", None),
            fact("fact_body", Some("pkg_body")),
            fact("fact_draft", Some("pkg_draft")),
        ];
        let refs: Vec<&relay_wire::Fact> = facts.iter().collect();
        store
            .append_records(&store.facts_log("demo"), &refs)
            .unwrap();
        let session = relay_wire::Session::from_value(json!({"session_id": "sess_1",
            "project_id": "demo", "actor_id": "jo", "actor_type": "human",
            "started_at": "2026-01-01T00:00:00Z",
            "packages_deposited": ["pkg_plain", "pkg_draft"]}))
        .unwrap();
        store
            .append_records(&store.sessions_log("demo"), &[&session])
            .unwrap();

        let (lines, s) = shared(
            &store,
            json!({"projects": ["demo"], "drop_fields": ["content_md"]}),
        );
        let counts = |c: &Counts| c.values().copied().collect::<Vec<usize>>();
        // projects, packages, facts, sessions
        assert_eq!(
            counts(&s.withheld),
            [1, 3, 1, 0],
            "web, its package, a draft, never_share, its fact"
        );
        assert_eq!(
            counts(&s.derived),
            [0, 1, 0, 1],
            "the body's package, the session"
        );
        assert_eq!(s.projects, ["demo"]);
        let ids: Vec<&str> = (lines.iter())
            .map(|l| {
                let r = l.get("package").unwrap_or(l);
                ["package_id", "fact_id", "session_id", "project_id"]
                    .iter()
                    .find_map(|k| r.get(*k).and_then(Value::as_str))
                    .unwrap()
            })
            .collect();
        assert_eq!(
            ids,
            [
                "demo",
                "pkg_plain",
                "pkg_body",
                "fact_body",
                "fact_free",
                "sess_1"
            ]
        );
        // Unchanged: the bare package, byte for byte what a backup carries, with its hash.
        assert_eq!(lines[1], plain.package.to_value());
        assert_eq!(canonical::content_hash(&lines[1]), plain.hash);
        // Changed: a new hash over what is exported, and the one it was derived from.
        let derived = &lines[2];
        assert!(derived["package"].get("content_md").is_none());
        assert_eq!(derived["derived_from"], json!(body.hash));
        assert_eq!(
            derived["hash"],
            json!(canonical::content_hash(&derived["package"]))
        );
        assert_ne!(derived["hash"], derived["derived_from"]);
        assert_eq!(lines[5]["packages_deposited"], json!(["pkg_plain"]));

        let (_, all) = shared(&store, json!({"statuses": ["draft", "complete"]}));
        assert_eq!(counts(&all.withheld), [0, 1, 0, 0], "only never_share");
        assert_eq!(counts(&all.derived), [0, 0, 0, 0]);
    }
}
