//! verify's checks of the versioned logs of a project, facts and sessions: streamed a line at
//! a time, keeping per id only what the checks need of its current version (the whole
//! version is read back from its line in the rare tie that needs it).

use std::cmp::Ordering;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use super::lines::{each_raw_line, line_tree, record_at, whole};
use super::{Problem, Severity};
use crate::ops::export::GroupNumbers;
use relay_store::Store;
use relay_store::fact_chain::{ChainEnd, chain_ends};
use relay_store::index::id_key;
use relay_store::records::slot_order;
use relay_wire::error::{Error, Result};
use relay_wire::{Fact, Session, time};

/// The problems of one file, in the order found.
struct Found {
    file: String,
    problems: Vec<Problem>,
}

impl Found {
    fn new(store: &Store, path: &Path) -> Found {
        Found {
            file: super::relative(store, path),
            problems: Vec::new(),
        }
    }

    fn add(&mut self, line: u64, kind: &'static str, message: impl Into<String>) {
        self.push(line, kind, message.into(), Severity::Error);
    }

    fn note(&mut self, line: u64, kind: &'static str, message: impl Into<String>) {
        self.push(line, kind, message.into(), Severity::Note);
    }

    fn push(&mut self, line: u64, kind: &'static str, message: String, severity: Severity) {
        self.problems.push(Problem {
            file: self.file.clone(),
            line,
            kind,
            message,
            severity,
        });
    }
}

/// What the fact checks keep of a fact's current version.
struct FactSlot {
    id: Box<str>,
    /// The index of its (subject, predicate).
    key: u32,
    valid_from: time::Timestamp,
    valid_to: Option<time::Timestamp>,
    created_at: time::Timestamp,
    offset: u64,
    /// The line's number, for the notes that name it.
    line: u64,
}

/// The current version of every fact id. Slots are found by a 64-bit key of the id, which
/// takes a fraction of the memory of a map by the id's text; an id whose key another id
/// already holds (rare) is found by its text instead.
#[derive(Default)]
struct FactSlots {
    slots: Vec<FactSlot>,
    by_key: HashMap<u64, u32>,
    collided: HashMap<Box<str>, u32>,
}

impl FactSlots {
    fn find(&self, id: &str) -> Option<usize> {
        let i = *self.by_key.get(&id_key(id))? as usize;
        if *self.slots[i].id == *id {
            Some(i)
        } else {
            self.collided.get(id).map(|&i| i as usize)
        }
    }

    /// Sets the slot of `slot.id`, at `at` as [`FactSlots::find`] found it.
    fn set(&mut self, at: Option<usize>, slot: FactSlot) {
        if let Some(i) = at {
            self.slots[i] = slot;
            return;
        }
        let i = self.slots.len() as u32;
        match self.by_key.entry(id_key(&slot.id)) {
            Entry::Vacant(e) => {
                e.insert(i);
            }
            Entry::Occupied(_) => {
                self.collided.insert(slot.id.clone(), i);
            }
        }
        self.slots.push(slot);
    }
}

/// A project's facts: per fact id a compact slot for its current version, then per key the
/// chain compared with its effective one (`store::fact_chain`). Returns the problems, and
/// whether some stored chain differs from its effective one (what `--fix` closes).
pub(super) fn check_facts(store: &Store, path: &Path) -> Result<(Vec<Problem>, bool)> {
    let mut found = Found::new(store, path);
    let mut groups = GroupNumbers::default();
    let mut current = FactSlots::default();
    each_raw_line(path, |number, at, text, complete| {
        let record = match line_tree(text, complete) {
            Ok(Some(record)) => record,
            Ok(None) => return Ok(()),
            Err((kind, message)) => {
                found.add(number, kind, message);
                return Ok(());
            }
        };
        if let Err(e) = relay_wire::fact::validate(&record) {
            found.add(number, "invalid_record", format!("not a valid fact: {e}"));
            return Ok(());
        }
        let times = ["valid_from", "valid_to", "created_at"].map(|k| (k, record.str_member(k)));
        if let Some(message) = super::non_utc_note(times) {
            found.note(number, "non_utc_time", message);
        }
        let id = record.str_member("fact_id").unwrap_or_default();
        let valid_to = record.time_member("valid_to");
        // The version order of the fact log: closed beats open, the earlier end wins;
        // only a tie needs both versions read whole.
        let slot = current.find(id);
        let newer = match slot.map(|i| &current.slots[i]) {
            None => true,
            Some(cur) => {
                slot_order::<Fact, _>(valid_to, cur.valid_to, || {
                    Ok::<_, Error>((whole(text), record_at(path, cur.offset)?))
                })? == Ordering::Greater
            }
        };
        if newer {
            let subject = record.str_member("subject").unwrap_or_default();
            let predicate = record.str_member("predicate").unwrap_or_default();
            let key = groups.number(subject, predicate);
            let new = FactSlot {
                id: id.into(),
                key,
                valid_from: record.time_member("valid_from").unwrap_or_default(),
                valid_to,
                created_at: record.time_member("created_at").unwrap_or_default(),
                offset: at,
                line: number,
            };
            current.set(slot, new);
        }
        Ok(())
    })?;
    let keys = groups.groups;
    // The chains: by key, then start, creation and id. Keys sort by rank, not by text.
    let mut slots = current.slots;
    let mut by_text: Vec<usize> = (0..keys.len()).collect();
    by_text.sort_unstable_by(|&a, &b| keys[a].cmp(&keys[b]));
    let mut rank = vec![0; keys.len()];
    for (r, &k) in by_text.iter().enumerate() {
        rank[k] = r;
    }
    slots.sort_unstable_by(|a, b| {
        let order = |s: &FactSlot| (rank[s.key as usize], s.valid_from, s.created_at);
        order(a).cmp(&order(b)).then_with(|| a.id.cmp(&b.id))
    });
    let mut differs = false;
    for chain in slots.chunk_by(|a, b| a.key == b.key) {
        let ends = chain_ends(chain, |f| f.valid_from, |f| f.valid_to);
        let Some(first) = ends.iter().position(|e| *e == ChainEnd::AtNext) else {
            continue;
        };
        differs = true;
        let (s, p) = &keys[chain[0].key as usize];
        let open = chain.iter().filter(|f| f.valid_to.is_none()).count();
        let current = match ends.last() {
            Some(ChainEnd::Open) => format!("{} is current", chain[chain.len() - 1].id),
            _ => "none is current".to_string(),
        };
        let what = if open > 1 {
            (
                "fact_fork",
                format!("{open} facts of ({s}, {p}) are stored as open"),
            )
        } else {
            (
                "fact_overlap",
                format!(
                    "facts {} and {} of ({s}, {p}) overlap in time",
                    chain[first].id,
                    chain[first + 1].id
                ),
            )
        };
        found.note(
            chain[first].line,
            what.0,
            format!(
                "{}, as merged clones leave them; reads end each at the next one's start, and {current} (`relay verify --fix` records that)",
                what.1
            ),
        );
    }
    Ok((found.problems, differs))
}

/// What the session checks keep of a session's current version.
struct SessionSlot {
    started: Option<time::Timestamp>,
    ended: Option<time::Timestamp>,
    active: bool,
    callsign: Option<Box<str>>,
    offset: u64,
    /// The line's number, for the problems that name it.
    line: u64,
}

/// A project's sessions: each line's shape, then each line's schema, then the current
/// versions' consistency (none ends before it starts; a callsign two open ones share is a
/// note, see `sessions.rs`).
pub(super) fn check_sessions(store: &Store, path: &Path) -> Result<Vec<Problem>> {
    let mut shapes = Found::new(store, path);
    let mut invalid = Found::new(store, path);
    let mut current: BTreeMap<String, SessionSlot> = BTreeMap::new();
    each_raw_line(path, |number, at, text, complete| {
        let record = match line_tree(text, complete) {
            Ok(Some(record)) => record,
            Ok(None) => return Ok(()),
            Err((kind, message)) => {
                shapes.add(number, kind, message);
                return Ok(());
            }
        };
        if let Err(e) = relay_wire::session::validate(&record) {
            invalid.add(
                number,
                "invalid_record",
                format!("not a valid session: {e}"),
            );
            return Ok(());
        }
        let times = ["started_at", "ended_at"].map(|k| (k, record.str_member(k)));
        if let Some(message) = super::non_utc_note(times) {
            invalid.note(number, "non_utc_time", message);
        }
        let new = SessionSlot {
            started: record.time_member("started_at"),
            ended: record.time_member("ended_at"),
            active: record.str_member("ended_at").is_none(),
            callsign: record.str_member("callsign").map(Into::into),
            offset: at,
            line: number,
        };
        let id = record.str_member("session_id").unwrap_or_default();
        // The version order of sessions: ended beats open, the earlier end wins; only a tie
        // needs both versions read whole.
        match current.get_mut(id) {
            None => {
                current.insert(id.to_string(), new);
            }
            Some(cur) => {
                let newer = slot_order::<Session, _>(new.ended, cur.ended, || {
                    Ok::<_, Error>((whole(text), record_at(path, cur.offset)?))
                })? == Ordering::Greater;
                if newer {
                    *cur = new;
                }
            }
        }
        Ok(())
    })?;
    let mut found = shapes;
    found.problems.extend(invalid.problems);
    for (id, s) in &current {
        if let (Some(a), Some(b)) = (s.started, s.ended)
            && b < a
        {
            found.add(
                s.line,
                "session_inconsistent",
                format!("session {id} ends before it starts"),
            );
        }
    }
    let open = (current.values().filter(|s| s.active)).filter_map(|s| {
        Some(super::sessions::OpenSession {
            callsign: s.callsign.as_deref()?,
            line: s.line,
            offset: s.offset,
        })
    });
    let notes = super::sessions::shared_callsign_notes(&found.file, path, open)?;
    found.problems.extend(notes);
    Ok(found.problems)
}

/// The retractions log: every line a `{"retraction": {…}}` that relay can read. Retracted
/// records are not damage: they are only counted by `relay status`.
pub(super) fn check_retractions(store: &Store, path: &Path) -> Result<Vec<Problem>> {
    let mut found = Found::new(store, path);
    each_raw_line(path, |number, _, text, complete| {
        if let Err((kind, message)) = line_tree(text, complete) {
            found.add(number, kind, message);
            return Ok(());
        }
        if text.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let parsed = match serde_json::from_slice::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(mut line)) => match line.remove("retraction") {
                Some(serde_json::Value::Object(raw)) => {
                    relay_store::retractions::Retraction::parse(raw).map(drop)
                }
                _ => Err("the line has no `retraction` object".to_string()),
            },
            _ => Err("the line is not a JSON object".to_string()),
        };
        if let Err(m) = parsed {
            found.add(
                number,
                "invalid_record",
                format!("not a valid retraction: {m}"),
            );
        }
        Ok(())
    })?;
    Ok(found.problems)
}
