//! Retractions: `projects/<dir>/retractions.ndjson`, one envelope line per retraction,
//! `{"retraction": {"record": "package"|"fact", "id", "reason", "retracted_by", "retracted_at",
//! "session_id"?}}`. A retraction hides a record from every read from then on; the record's
//! own lines stay as they are (only `relay purge` removes them).
//!
//! A log of its own, rather than lines among the packages: a listing over a million packages
//! learns what is hidden from one small file, and the catalogs of the package logs stay as
//! they are. It merges like every log (git's `union` driver), and the winner rule ignores line
//! order: a record is retracted when any line retracts it, and the earliest retraction (then
//! the smallest canonical JSON) is the one shown.

use std::cmp::Ordering;
use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::signing::RecordVersion;
use super::{Store, WarningKind, log};
use relay_wire::error::Result;
use relay_wire::time::{self, Timestamp};

/// What a retraction hides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordKind {
    Package,
    Fact,
}

impl RecordKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Package => "package",
            RecordKind::Fact => "fact",
        }
    }

    fn parse(s: &str) -> Option<RecordKind> {
        match s {
            "package" => Some(RecordKind::Package),
            "fact" => Some(RecordKind::Fact),
            _ => None,
        }
    }
}

/// One retraction, as stored (members other than these are kept and written back).
#[derive(Debug, Clone, PartialEq)]
pub struct Retraction {
    pub record: RecordKind,
    pub id: String,
    pub reason: String,
    /// `{"id", "type"}` of whoever retracted it.
    pub retracted_by: Value,
    pub retracted_at: Timestamp,
    /// The whole stored object, unknown members included.
    pub raw: Map<String, Value>,
}

impl Retraction {
    /// A new retraction; `extra` (a session id, say) joins the stored object.
    pub fn new(
        record: RecordKind,
        id: &str,
        reason: &str,
        retracted_by: Value,
        retracted_at: Timestamp,
        extra: Map<String, Value>,
    ) -> Retraction {
        let mut raw = Map::new();
        raw.insert("record".into(), Value::from(record.as_str()));
        raw.insert("id".into(), Value::from(id));
        raw.insert("reason".into(), Value::from(reason));
        raw.insert("retracted_by".into(), retracted_by.clone());
        raw.insert(
            "retracted_at".into(),
            Value::from(time::format(retracted_at)),
        );
        raw.extend(extra);
        Retraction {
            record,
            id: id.to_string(),
            reason: reason.to_string(),
            retracted_by,
            retracted_at,
            raw,
        }
    }

    /// Reads the object inside a `{"retraction": …}` line.
    pub fn parse(raw: Map<String, Value>) -> std::result::Result<Retraction, String> {
        let text = |name: &str| -> std::result::Result<String, String> {
            match raw.get(name) {
                Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
                _ => Err(format!("`{name}` must be a non-empty string")),
            }
        };
        let record = text("record")?;
        let record = RecordKind::parse(&record)
            .ok_or_else(|| format!("`record` is `{record}`, not `package` or `fact`"))?;
        let retracted_at = time::parse(&text("retracted_at")?)
            .map_err(|m| format!("`retracted_at` is not a time: {m}"))?;
        let retracted_by = match raw.get("retracted_by") {
            Some(v @ Value::Object(by)) if by.get("id").and_then(Value::as_str).is_some() => {
                v.clone()
            }
            _ => return Err("`retracted_by` must be an actor object with an `id`".into()),
        };
        Ok(Retraction {
            record,
            id: text("id")?,
            reason: text("reason")?,
            retracted_by,
            retracted_at,
            raw,
        })
    }

    /// The record version a signature of this line covers: the content hash of its object,
    /// signed as whoever retracted.
    pub fn version(&self) -> RecordVersion {
        RecordVersion {
            kind: relay_wire::signature::RecordKind::Retraction,
            id: self.id.clone(),
            hash: relay_wire::canonical::content_hash_of_map(&self.raw),
            actor: Some(self.actor().to_string()),
            owner: None,
            at: self.retracted_at,
        }
    }

    /// Who retracted it: `retracted_by.id`.
    pub fn actor(&self) -> &str {
        self.retracted_by
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// The line that stores it.
    pub fn to_line(&self) -> Result<Vec<u8>> {
        #[derive(Serialize)]
        struct Line<'a> {
            retraction: &'a Map<String, Value>,
        }
        log::to_line(&Line {
            retraction: &self.raw,
        })
    }

    /// Which of two retractions of one record is shown: the earlier, then the one whose
    /// canonical JSON sorts first, so every clone picks the same whatever the line order.
    fn precedes(&self, other: &Retraction) -> bool {
        self.retracted_at.cmp(&other.retracted_at).then_with(|| {
            super::records::canonical_order(
                &Value::Object(self.raw.clone()),
                &Value::Object(other.raw.clone()),
            )
        }) == Ordering::Less
    }
}

/// The retractions of one project, by what they hide.
#[derive(Debug, Clone, Default)]
pub struct Retractions {
    packages: HashMap<String, Retraction>,
    facts: HashMap<String, Retraction>,
}

impl Retractions {
    fn keep(&mut self, r: Retraction) {
        let slot = match r.record {
            RecordKind::Package => &mut self.packages,
            RecordKind::Fact => &mut self.facts,
        };
        match slot.get(&r.id) {
            Some(shown) if !r.precedes(shown) => {}
            _ => {
                slot.insert(r.id.clone(), r);
            }
        }
    }

    pub fn package(&self, id: &str) -> Option<&Retraction> {
        self.packages.get(id)
    }

    pub fn fact(&self, id: &str) -> Option<&Retraction> {
        self.facts.get(id)
    }

    pub fn is_empty(&self) -> bool {
        self.packages.is_empty() && self.facts.is_empty()
    }

    /// How many packages and facts are retracted.
    pub fn counts(&self) -> (usize, usize) {
        (self.packages.len(), self.facts.len())
    }

    /// Every retraction, packages first, each group by id.
    pub fn all(&self) -> Vec<&Retraction> {
        let mut out: Vec<&Retraction> = self.packages.values().collect();
        out.sort_by(|a, b| a.id.cmp(&b.id));
        let mut facts: Vec<&Retraction> = self.facts.values().collect();
        facts.sort_by(|a, b| a.id.cmp(&b.id));
        out.extend(facts);
        out
    }

    /// Only the retractions made at or before `t` (a snapshot read's view).
    pub fn until(self, t: relay_wire::time::Timestamp) -> Retractions {
        let keep = |m: HashMap<String, Retraction>| {
            m.into_iter().filter(|(_, r)| r.retracted_at <= t).collect()
        };
        Retractions {
            packages: keep(self.packages),
            facts: keep(self.facts),
        }
    }

    /// Adds another project's retractions (ids are unique in a store).
    pub fn extend(&mut self, other: Retractions) {
        for r in other
            .packages
            .into_values()
            .chain(other.facts.into_values())
        {
            self.keep(r);
        }
    }
}

impl Store {
    /// The retractions of a project. A line that is not a retraction is reported and skipped.
    pub fn retractions(&self, project_id: &str) -> Result<Retractions> {
        let path = self.layout().retractions_file(project_id);
        let mut out = Retractions::default();
        log::read_objects(&path, self.diagnostics(), |line, mut map| {
            let parsed = match map.remove("retraction") {
                Some(Value::Object(raw)) => Retraction::parse(raw),
                _ => Err("the line has no `retraction` object".into()),
            };
            match parsed {
                Ok(r) => out.keep(r),
                Err(m) => self.diagnostics().warn(
                    &path,
                    line,
                    WarningKind::InvalidRecord,
                    format!("not a valid retraction: {m}; skipped"),
                ),
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// The retractions of several projects together.
    pub fn retractions_of(&self, projects: &[String]) -> Result<Retractions> {
        let mut out = Retractions::default();
        for p in projects {
            out.extend(self.retractions(p)?);
        }
        Ok(out)
    }

    /// Appends a retraction to its project's log, signed (as whoever retracted) when signing
    /// is on, like every other record. Hold the project's lock.
    pub fn append_retraction(&self, project_id: &str, r: &Retraction) -> Result<()> {
        let dir = self.layout().project_dir(project_id);
        std::fs::create_dir_all(&dir).map_err(|e| {
            relay_wire::error::Error::io(format!("cannot create {}", dir.display()), e)
        })?;
        let path = self.layout().retractions_file(project_id);
        let versions = [r.version()];
        self.append_signed(&path, &r.to_line()?, project_id, &versions, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn retraction(id: &str, at: &str, reason: &str) -> Retraction {
        Retraction::new(
            RecordKind::Package,
            id,
            reason,
            json!({"id": "jo", "type": "human"}),
            time::parse(at).unwrap(),
            Map::new(),
        )
    }

    #[test]
    fn the_earliest_retraction_is_shown_whatever_the_line_order() {
        let a = retraction("pkg_1", "2026-01-02T00:00:00Z", "later");
        let b = retraction("pkg_1", "2026-01-01T00:00:00Z", "first");
        for order in [[&a, &b], [&b, &a]] {
            let mut all = Retractions::default();
            for r in order {
                all.keep(r.clone());
            }
            assert_eq!(all.package("pkg_1").unwrap().reason, "first");
            assert!(all.fact("pkg_1").is_none());
        }
    }

    #[test]
    fn a_line_round_trips_with_unknown_members_and_bad_lines_say_why() {
        let mut extra = Map::new();
        extra.insert("x-ticket".into(), json!("SEC-1"));
        let r = Retraction::new(
            RecordKind::Fact,
            "fact_1",
            "wrong",
            json!({"id": "jo", "type": "human"}),
            time::parse("2026-01-01T00:00:00Z").unwrap(),
            extra,
        );
        let line = r.to_line().unwrap();
        assert_eq!(
            String::from_utf8(line.clone()).unwrap(),
            "{\"retraction\":{\"record\":\"fact\",\"id\":\"fact_1\",\"reason\":\"wrong\",\
             \"retracted_by\":{\"id\":\"jo\",\"type\":\"human\"},\"retracted_at\":\
             \"2026-01-01T00:00:00.000000Z\",\"x-ticket\":\"SEC-1\"}}\n"
        );
        let mut map: Map<String, Value> = serde_json::from_slice(&line).unwrap();
        let Some(Value::Object(raw)) = map.remove("retraction") else {
            panic!()
        };
        assert_eq!(Retraction::parse(raw).unwrap(), r);
        let bad = |v: Value| Retraction::parse(v.as_object().unwrap().clone()).unwrap_err();
        assert!(bad(json!({"record": "session"})).contains("`record` is `session`"));
        assert!(
            bad(json!({"record": "fact", "id": "f", "reason": "r", "retracted_at": "x"}))
                .contains("not a time")
        );
    }
}
