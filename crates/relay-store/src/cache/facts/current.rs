//! The second pass of building a fact index: each (subject, predicate) key's lines read again
//! to find every fact id's current version, the key's chain and its current fact. Keys are
//! independent of each other, so the sorted key table is cut in two at a key's edge and each
//! half is read on its own thread: this pass (a read and a parse per line) was the part of a
//! cold `orient` or `status` that kept one core busy while the other waited.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;

use super::{line_at, parse_fact};
use crate::fact_chain::chain_rank;
use crate::records::Versioned;
use relay_wire::Fact;

/// A key (subject, predicate) with the (offset, length) of its facts' lines, in chain order.
pub(super) type KeyLines = (String, String, Vec<(u64, usize)>);

/// What the second pass finds, in no particular order (the caller sorts each list).
#[derive(Default)]
pub(super) struct Current {
    /// (key hash, offset) of each key's current fact.
    pub current: Vec<(u64, u64)>,
    /// (subject, predicate, offset) of each key's current fact.
    pub listed: Vec<(String, String, u64)>,
    pub keyed: Vec<KeyLines>,
    /// Fact ids, keys with a current fact, and lines that are not valid facts.
    pub ids: u64,
    pub open: u64,
    pub damaged: u64,
}

impl Current {
    fn add(&mut self, more: Current) {
        self.current.extend(more.current);
        self.listed.extend(more.listed);
        self.keyed.extend(more.keyed);
        self.ids += more.ids;
        self.open += more.open;
        self.damaged += more.damaged;
    }
}

/// The second pass over `keys` ((key hash, offset), sorted), on two threads when there is
/// enough to share.
pub(super) fn of_keys(file: &File, keys: &[(u64, u64)]) -> std::io::Result<Current> {
    let cut = halfway(keys);
    if cut == 0 || cut == keys.len() {
        return of_part(file, keys);
    }
    let (first, second) = keys.split_at(cut);
    let (mine, other) = std::thread::scope(|s| {
        let other = s.spawn(|| of_part(file, second));
        (of_part(file, first), other.join())
    });
    let mut found = mine?;
    found.add(other.unwrap_or_else(|_| Err(std::io::Error::other("a fact index thread failed")))?);
    Ok(found)
}

/// Where to cut `keys` in two: the first key's edge at or after the middle; 0 when the table
/// is too small to be worth a thread.
fn halfway(keys: &[(u64, u64)]) -> usize {
    const WORTH_A_THREAD: usize = 4096;
    if keys.len() < WORTH_A_THREAD {
        return 0;
    }
    let middle = keys.len() / 2;
    middle
        + (keys[middle..].iter())
            .take_while(|k| k.0 == keys[middle - 1].0)
            .count()
}

/// The second pass over the whole keys of `keys`.
fn of_part(file: &File, keys: &[(u64, u64)]) -> std::io::Result<Current> {
    let mut out = Current::default();
    for group in keys.chunk_by(|a, b| a.0 == b.0) {
        // Per fact id: its current version, as a compact slot (a key with a long history
        // has tens of thousands of ids; whole facts for each took a hundred megabytes).
        // A key hash shared by two keys only puts both keys' facts together; each key
        // still has its own best.
        let mut by_id: BTreeMap<String, Slot> = BTreeMap::new();
        for &(_, offset) in group {
            let line = line_at(file, offset)?;
            let Some(f) = parse_fact(&line) else {
                out.damaged += 1;
                continue;
            };
            let new = Slot::of(&f, offset, line.len());
            let replaces = match by_id.get(f.id()) {
                None => true,
                Some(cur) => {
                    let read_back = || -> std::io::Result<_> {
                        Ok((Some(f.clone()), parse_fact(&line_at(file, cur.offset)?)))
                    };
                    crate::records::slot_order(new.end, cur.end, read_back)?
                        == std::cmp::Ordering::Greater
                }
            };
            if replaces {
                by_id.insert(f.id().to_string(), new);
            }
        }
        out.ids += by_id.len() as u64;
        // Each key's facts in chain order; its last is current unless it ended.
        let mut of_key: HashMap<(&str, &str), Vec<(&str, &Slot)>> = HashMap::new();
        for (id, slot) in &by_id {
            of_key
                .entry((&slot.subject, &slot.predicate))
                .or_default()
                .push((id, slot));
        }
        for ((subject, predicate), mut facts) in of_key {
            facts.sort_by(|(a_id, a), (b_id, b)| {
                (a.from, a.created, a_id).cmp(&(b.from, b.created, b_id))
            });
            let lines = facts.iter().map(|(_, s)| (s.offset, s.len)).collect();
            out.keyed
                .push((subject.to_string(), predicate.to_string(), lines));
            let Some((_, last)) = facts.last().filter(|(_, s)| s.end.is_none()) else {
                continue;
            };
            out.open += 1;
            out.current.push((group[0].0, last.offset));
            out.listed
                .push((subject.to_string(), predicate.to_string(), last.offset));
        }
    }
    Ok(out)
}

/// What building the index keeps of a fact id's current version: what the chain order, the
/// version order and the listing need, and where its line is.
struct Slot {
    /// `valid_to` (`None`: current), which decides the version order but for ties.
    end: Option<relay_wire::time::Timestamp>,
    /// `valid_from` and `created_at`: with the id, the chain order ([`chain_rank`]).
    from: relay_wire::time::Timestamp,
    created: relay_wire::time::Timestamp,
    subject: String,
    predicate: String,
    offset: u64,
    len: usize,
}

impl Slot {
    fn of(f: &Fact, offset: u64, len: usize) -> Slot {
        let (from, created, _) = chain_rank(f);
        Slot {
            end: f.end(),
            from,
            created,
            subject: f.subject().to_string(),
            predicate: f.predicate().to_string(),
            offset,
            len,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_falls_between_keys() {
        let small: Vec<(u64, u64)> = (0..10).map(|i| (i, i)).collect();
        assert_eq!(halfway(&small), 0, "too small to share");
        // 5,000 lines of one key, then 5,000 of others: the cut is after the long key.
        let keys: Vec<(u64, u64)> = (0..10_000u64)
            .map(|i| (if i < 5_000 { 7 } else { 8 + i }, i))
            .collect();
        assert_eq!(halfway(&keys), 5_000);
        let one_key: Vec<(u64, u64)> = (0..10_000).map(|i| (7, i)).collect();
        assert_eq!(halfway(&one_key), 10_000, "one key is not cut");
        let even: Vec<(u64, u64)> = (0..10_000).map(|i| (i / 2, i)).collect();
        let cut = halfway(&even);
        assert_eq!(cut, 5_000);
        assert_ne!(even[cut - 1].0, even[cut].0);
    }

    /// 6,000 lines over 1,500 keys, each key a fact superseded by a later one, one in ten
    /// ended, and a damaged line now and then.
    fn log() -> (tempfile::TempDir, File, Vec<(u64, u64)>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("facts.ndjson");
        let (mut text, mut keys) = (String::new(), Vec::new());
        for i in 0..6_000u32 {
            let key = i % 1_500;
            let (subject, predicate) = (format!("s{key}"), "uses".to_string());
            let at = format!("2026-01-01T00:{:02}:{:02}Z", i / 1_500, i % 60);
            let mut f = serde_json::json!({
                "fact_id": format!("f{key}-{}", i / 3_000), "project_id": "demo",
                "subject": subject, "predicate": predicate, "value": format!("v{i}"),
                "valid_from": at, "confidence": 1.0,
                "asserted_by": {"id": "ana", "type": "human"}, "created_at": at,
            });
            if key % 10 == 0 && i >= 4_500 {
                f["valid_to"] = serde_json::json!("2026-02-01T00:00:00Z");
            }
            let offset = text.len() as u64;
            text += &if i % 997 == 0 {
                "{\"damaged\"".to_string()
            } else {
                f.to_string()
            };
            text.push('\n');
            keys.push((super::super::key_hash(&subject, &predicate), offset));
        }
        std::fs::write(&path, text).unwrap();
        keys.sort_unstable();
        (dir, File::open(&path).unwrap(), keys)
    }

    #[test]
    fn two_threads_find_what_one_finds() {
        let (_dir, file, keys) = log();
        assert_ne!(halfway(&keys), 0, "the test's table is shared out");
        let sorted = |mut c: Current| {
            c.current.sort_unstable();
            c.listed.sort_unstable();
            c.keyed.sort_unstable();
            (c.current, c.listed, c.keyed, c.ids, c.open, c.damaged)
        };
        let one = sorted(of_part(&file, &keys).unwrap());
        assert_eq!(one.4, 1_350, "keys with a current fact");
        assert_eq!(one.3, 3_000, "fact ids");
        assert_eq!(one.5, 7, "damaged lines");
        assert_eq!(sorted(of_keys(&file, &keys).unwrap()), one);
    }
}
