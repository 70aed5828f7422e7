//! Logs of versioned records (projects, facts, sessions): every change appends a whole new
//! version, and the current version of each id is chosen by a rule that ignores line order, so
//! every clone holding the same lines computes the same state (DESIGN invariant 6).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::{Store, WarningKind, log};
use relay_wire::error::{Result, SchemaError};
use relay_wire::{Fact, Project, Session, canonical, time};

/// A wire record kept in a versioned log.
pub trait Versioned: Sized + serde::Serialize {
    /// What the record is called in warnings.
    const WHAT: &'static str;
    fn parse(map: Map<String, Value>) -> Result<Self, SchemaError>;
    fn record_id(&self) -> &str;
    /// How two versions of one id compare; the greatest is current. Must be a total order that
    /// does not depend on which line came first.
    fn version_order(&self, other: &Self) -> Ordering;
    /// When this version ended (a closed fact, an ended session), as the version order compares
    /// it: `None` while open (or for records that never end).
    fn end(&self) -> Option<time::Timestamp> {
        None
    }
}

/// The version order for readers that keep compact slots (a version's end and where its line
/// is) rather than whole records: the ends decide, as in every `version_order` here; only a
/// tie reads the two versions back (`read_back` gives the new one, then the current one) and
/// lets `version_order` settle it. A version that cannot be read back loses to one that can.
pub fn slot_order<T: Versioned, E>(
    new_end: Option<time::Timestamp>,
    current_end: Option<time::Timestamp>,
    read_back: impl FnOnce() -> std::result::Result<(Option<T>, Option<T>), E>,
) -> std::result::Result<Ordering, E> {
    let by_end = end_order(new_end, current_end);
    if by_end != Ordering::Equal {
        return Ok(by_end);
    }
    Ok(match read_back()? {
        (Some(new), Some(current)) => new.version_order(&current),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => Ordering::Equal,
    })
}

/// The tie-breaker of last resort: the canonical JSON of the two versions.
pub fn canonical_order(a: &Value, b: &Value) -> Ordering {
    canonical::to_canonical_string(a).cmp(&canonical::to_canonical_string(b))
}

/// Orders optional end times (`None`: open, or an end that does not parse) so that "ended"
/// beats "open" and the earlier end beats the later: once a record is closed it stays closed,
/// whatever a merge brings.
fn end_order(a: Option<time::Timestamp>, b: Option<time::Timestamp>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (Some(x), Some(y)) => y.cmp(&x),
    }
}

impl Versioned for Project {
    const WHAT: &'static str = "project";
    fn parse(map: Map<String, Value>) -> Result<Self, SchemaError> {
        Project::from_map(map)
    }
    fn record_id(&self) -> &str {
        self.id()
    }
    /// The latest `updated_at` wins.
    fn version_order(&self, other: &Self) -> Ordering {
        self.updated_at()
            .cmp(&other.updated_at())
            .then_with(|| canonical_order(&self.to_value(), &other.to_value()))
    }
}

impl Versioned for Fact {
    const WHAT: &'static str = "fact";
    fn parse(map: Map<String, Value>) -> Result<Self, SchemaError> {
        Fact::from_map(map)
    }
    fn record_id(&self) -> &str {
        self.id()
    }
    /// A closed version beats an open one; of two closed ones, the earlier `valid_to`.
    fn version_order(&self, other: &Self) -> Ordering {
        end_order(self.end(), other.end())
            .then_with(|| canonical_order(&self.to_value(), &other.to_value()))
    }
    fn end(&self) -> Option<time::Timestamp> {
        self.valid_to()
    }
}

impl Versioned for Session {
    const WHAT: &'static str = "session";
    fn parse(map: Map<String, Value>) -> Result<Self, SchemaError> {
        Session::from_map(map)
    }
    fn record_id(&self) -> &str {
        self.id()
    }
    /// An ended version beats an open one; of two ended ones, the earlier `ended_at`.
    fn version_order(&self, other: &Self) -> Ordering {
        end_order(self.end(), other.end())
            .then_with(|| canonical_order(&self.to_value(), &other.to_value()))
    }
    fn end(&self) -> Option<time::Timestamp> {
        self.str_field("ended_at").and_then(|t| time::parse(t).ok())
    }
}

impl Store {
    /// The current version of every record in a versioned log, by id.
    pub fn read_current<T: Versioned>(&self, path: &Path) -> Result<BTreeMap<String, T>> {
        self.read_current_filtered(path, None)
    }

    /// Like [`Store::read_current`], over only the lines whose bytes hold `prefilter`.
    fn read_current_filtered<T: Versioned>(
        &self,
        path: &Path,
        prefilter: Option<&[u8]>,
    ) -> Result<BTreeMap<String, T>> {
        let mut out: BTreeMap<String, T> = BTreeMap::new();
        log::read_objects_filtered(path, &self.diagnostics, prefilter, |line, map| {
            match T::parse(map) {
                Ok(rec) => match out.get(rec.record_id()) {
                    Some(cur) if rec.version_order(cur) != Ordering::Greater => {}
                    _ => {
                        out.insert(rec.record_id().to_string(), rec);
                    }
                },
                Err(e) => self.diagnostics.warn(
                    path,
                    line,
                    WarningKind::InvalidRecord,
                    format!("not a valid {}: {e}; skipped", T::WHAT),
                ),
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// Appends records as one write (all lines or none reach the file together). Hold the lock.
    pub fn append_records<T: serde::Serialize>(&self, path: &Path, records: &[&T]) -> Result<()> {
        let mut bytes = Vec::new();
        for r in records {
            bytes.extend(log::to_line(r)?);
        }
        self.append(path, &bytes)
    }

    /// Every fact of a project at its current version, by `fact_id`.
    pub fn facts(&self, project_id: &str) -> Result<BTreeMap<String, Fact>> {
        self.read_current(&self.layout.facts_file(project_id))
    }

    /// Every session of a project at its current version, by `session_id`.
    pub fn sessions(&self, project_id: &str) -> Result<BTreeMap<String, Session>> {
        self.read_current(&self.layout.sessions_file(project_id))
    }

    /// The sessions of a project whose lines mention `key` (an id or a callsign): the only
    /// lines parsed, so finding one session costs a byte search of the log.
    pub fn sessions_mentioning(
        &self,
        project_id: &str,
        key: &str,
    ) -> Result<BTreeMap<String, Session>> {
        let fragment = super::packages::json_fragment(key);
        self.read_current_filtered(
            &self.layout.sessions_file(project_id),
            Some(fragment.as_bytes()),
        )
    }

    /// The facts of a project whose lines mention `key` (a package id, say), each at its
    /// newest version among those lines: only they are parsed, so this costs a byte search of
    /// the log. Every fact whose current version holds `key` is among them; callers check the
    /// member that should hold it.
    pub fn facts_mentioning(&self, project_id: &str, key: &str) -> Result<BTreeMap<String, Fact>> {
        let fragment = super::packages::json_fragment(key);
        self.read_current_filtered(
            &self.layout.facts_file(project_id),
            Some(fragment.as_bytes()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fact(valid_to: Option<&str>) -> Fact {
        let mut v = json!({"fact_id": "fact_1", "project_id": "p", "subject": "s", "predicate": "p",
            "value": "v", "valid_from": "2026-01-01T00:00:00Z", "created_at": "2026-01-01T00:00:00Z"});
        if let Some(t) = valid_to {
            v["valid_to"] = json!(t);
        }
        Fact::from_value(v).unwrap()
    }

    #[test]
    fn a_closed_fact_stays_closed_and_the_earlier_close_wins() {
        let open = fact(None);
        let late = fact(Some("2026-03-01T00:00:00Z"));
        let early = fact(Some("2026-02-01T00:00:00Z"));
        assert_eq!(late.version_order(&open), Ordering::Greater);
        assert_eq!(early.version_order(&late), Ordering::Greater);
        assert_eq!(late.version_order(&early), Ordering::Less);
        assert_eq!(open.version_order(&open.clone()), Ordering::Equal);
    }

    fn session(ended_at: Option<&str>, summary: &str) -> Session {
        let mut v = json!({"session_id": "sess_1", "project_id": "p", "callsign": "c", "actor_id": "me", "actor_type": "human",
            "started_at": "2026-01-01T00:00:00Z", "summary": summary});
        if let Some(t) = ended_at {
            v["ended_at"] = json!(t);
        }
        Session::from_value(v).unwrap()
    }

    /// Every pair compares the same through slots (ends first, then read back) as in full.
    fn slot_order_agrees<T: Versioned + Clone>(versions: &[T]) {
        for a in versions {
            for b in versions {
                let read_back = || Ok::<_, ()>((Some(a.clone()), Some(b.clone())));
                let by_slots = slot_order(a.end(), b.end(), read_back).unwrap();
                assert_eq!(by_slots, a.version_order(b));
            }
        }
    }

    #[test]
    fn slots_order_versions_as_the_records_do() {
        let mut facts = vec![fact(None), fact(Some("2026-03-01T00:00:00Z"))];
        facts.push(fact(Some("2026-02-01T00:00:00Z")));
        let mut other_value = fact(Some("2026-02-01T00:00:00Z")).to_value();
        other_value["value"] = json!("w");
        facts.push(Fact::from_value(other_value).unwrap());
        slot_order_agrees(&facts);
        let sessions = [
            session(None, "a"),
            session(None, "b"),
            session(Some("2026-02-01T00:00:00Z"), "a"),
            session(Some("2026-02-01T00:00:00Z"), "b"),
            session(Some("2026-01-02T00:00:00Z"), "a"),
        ];
        slot_order_agrees(&sessions);
    }

    #[test]
    fn a_version_that_cannot_be_read_back_loses() {
        let f = fact(None);
        let order = |pair: (Option<Fact>, Option<Fact>)| {
            slot_order(None, None, || Ok::<_, ()>(pair)).unwrap()
        };
        assert_eq!(order((Some(f.clone()), None)), Ordering::Greater);
        assert_eq!(order((None, Some(f.clone()))), Ordering::Less);
        assert_eq!(order((None, None)), Ordering::Equal);
        // Ends that decide never read back.
        let closed = Some(time::parse("2026-02-01T00:00:00Z").unwrap());
        let never = || -> Result<(Option<Fact>, Option<Fact>), ()> { panic!("read back") };
        assert_eq!(slot_order(closed, None, never), Ok(Ordering::Greater));
    }
}
