//! Logs of versioned records (projects, facts, sessions): every change appends a whole new
//! version, and the current version of each id is chosen by a rule that ignores line order, so
//! every clone holding the same lines computes the same state (DESIGN invariant 6).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::{Store, WarningKind, log};
use crate::error::{Result, SchemaError};
use crate::wire::{Fact, Project, Session, canonical, time};

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

/// Whether a version that ended at `new` comes after one that ended at `current`, when their
/// ends decide it (see [`end_order`]); `None` on a tie, which only the full `version_order`
/// settles. Readers that keep compact slots rather than records use this first.
pub(crate) fn newer_by_end(
    new: Option<time::Timestamp>,
    current: Option<time::Timestamp>,
) -> Option<bool> {
    match end_order(new, current) {
        Ordering::Equal => None,
        order => Some(order == Ordering::Greater),
    }
}

/// The tie-breaker of last resort: the canonical JSON of the two versions.
pub fn canonical_order(a: &Value, b: &Value) -> Ordering {
    canonical::to_canonical_string(a).cmp(&canonical::to_canonical_string(b))
}

/// Orders optional end times (`None`: open, or an end that does not parse) so that "ended"
/// beats "open" and the earlier end beats the later: once a record is closed it stays closed,
/// whatever a merge brings.
pub(crate) fn end_order(a: Option<time::Timestamp>, b: Option<time::Timestamp>) -> Ordering {
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
        let quoted = serde_json::to_string(key).unwrap_or_default();
        let fragment = &quoted.as_bytes()[1..quoted.len().saturating_sub(1)];
        self.read_current_filtered(&self.layout.sessions_file(project_id), Some(fragment))
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
}
