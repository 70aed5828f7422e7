//! A list of facts kept as their stored lines. orient hands every current fact to a new
//! session, thousands of them in a busy project: parsing each into a map only to write it out
//! again (the JSON bundle) or to show four of its fields (the Markdown view) would cost most
//! of the command. The lines come from the fact index's copy, validated when it was built.

use std::borrow::Cow;

use serde::ser::{Error as _, SerializeSeq};
use serde::{Deserialize, Serialize, Serializer};

use relay_wire::{Fact, time};

/// Facts as newline-ended JSON lines, in order.
#[derive(Debug, Clone, Default)]
pub struct FactLines {
    bytes: Vec<u8>,
    count: usize,
}

/// What a one-line view of a fact shows.
#[derive(Debug, Clone, Deserialize)]
pub struct FactSummary<'a> {
    #[serde(borrow)]
    pub subject: Cow<'a, str>,
    #[serde(borrow)]
    pub predicate: Cow<'a, str>,
    #[serde(borrow)]
    pub value: Cow<'a, str>,
    #[serde(borrow)]
    valid_from: Cow<'a, str>,
    #[serde(borrow, default)]
    created_at: Cow<'a, str>,
}

impl<'a> FactSummary<'a> {
    pub fn of(f: &'a Fact) -> FactSummary<'a> {
        FactSummary {
            subject: f.subject().into(),
            predicate: f.predicate().into(),
            value: f.value().into(),
            valid_from: f.str_field("valid_from").unwrap_or_default().into(),
            created_at: f.str_field("created_at").unwrap_or_default().into(),
        }
    }

    /// When the fact became true (the epoch for a time that does not parse, as
    /// [`Fact::valid_from`] has it).
    pub fn valid_from(&self) -> time::Timestamp {
        time::parse(&self.valid_from).unwrap_or_default()
    }

    /// When this version of the fact was recorded (the last change to its key), else when it
    /// became true.
    pub fn changed_at(&self) -> time::Timestamp {
        time::parse(&self.created_at).unwrap_or_else(|_| self.valid_from())
    }
}

impl FactLines {
    /// Lines as the fact index keeps them: each a valid fact ending in a newline.
    pub fn from_lines(bytes: Vec<u8>) -> FactLines {
        let count = bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count();
        FactLines { bytes, count }
    }

    pub fn from_facts(facts: &[Fact]) -> FactLines {
        let mut bytes = Vec::new();
        for f in facts {
            // A fact is a map of JSON values: writing it out cannot fail.
            if serde_json::to_writer(&mut bytes, f).is_ok() {
                bytes.push(b'\n');
            }
        }
        FactLines {
            bytes,
            count: facts.len(),
        }
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Each fact as its stored JSON line (without the newline), in order.
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        self.bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty())
    }

    /// The one-line views of the facts, in order.
    pub fn summaries(&self) -> Vec<FactSummary<'_>> {
        self.lines()
            .filter_map(|l| serde_json::from_slice(l).ok())
            .collect()
    }
}

/// A JSON array of the facts, each written as stored.
impl Serialize for FactLines {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.count))?;
        for line in self.lines() {
            let raw: &serde_json::value::RawValue =
                serde_json::from_slice(line).map_err(S::Error::custom)?;
            seq.serialize_element(raw)?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fact(id: &str, subject: &str) -> Fact {
        Fact::from_value(json!({"fact_id": id, "project_id": "p", "subject": subject, "predicate": "status",
            "value": "live", "valid_from": "2026-01-02T03:04:05Z", "created_at": "2026-01-02T03:04:05Z",
            "x-note": "kept"}))
        .unwrap()
    }

    #[test]
    fn lines_serialize_as_the_facts_would() {
        let facts = vec![fact("fact_1", "api"), fact("fact_2", "db")];
        let lines = FactLines::from_facts(&facts);
        assert_eq!(lines.len(), 2);
        assert_eq!(
            serde_json::to_value(&lines).unwrap(),
            serde_json::to_value(&facts).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&lines).unwrap(),
            serde_json::to_string(&facts).unwrap()
        );
        let from_bytes = FactLines::from_lines(lines.bytes.clone());
        assert_eq!(from_bytes.len(), 2);
        let s = from_bytes.summaries();
        assert_eq!((s[1].subject.as_ref(), s[1].value.as_ref()), ("db", "live"));
        assert_eq!(s[0].valid_from(), facts[0].valid_from());
    }
}
