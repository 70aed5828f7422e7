//! A disposable index of a project's fact log under `cache/facts-v1/` (DESIGN invariant 9):
//! the lines of each (subject, predicate) key, and the lines of the facts that are current.
//! `facts get`, `assert` and orient then read a few lines instead of the whole history. The
//! index covers a prefix of the log ([`Coverage`]); lines appended since are read directly,
//! and a log rewritten under it (a checkout, a merge) is indexed again.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::coverage::Coverage;
use super::records::Versioned;
use super::{Store, layout, log};
use crate::error::{Error, Result};
use crate::wire::Fact;

const FORMAT: u32 = 2;
/// Bytes appended since the index was written that a read parses itself before the index is
/// rewritten.
const TAIL_LIMIT: u64 = 1 << 20;

#[derive(Debug, Serialize, Deserialize)]
struct Header {
    format: u32,
    #[serde(flatten)]
    coverage: Coverage,
    /// Lines that are not valid facts: a log with any is read in full, so they are reported.
    damaged: u64,
    /// Entries of the key table, then of the current table.
    keys: u64,
    current: u64,
    /// Fact ids, and those whose current version is open (for `status`).
    #[serde(default)]
    ids: u64,
    #[serde(default)]
    open: u64,
}

/// A stable 64-bit key of (subject, predicate) (FNV-1a, with a separator no string holds).
fn key_hash(subject: &str, predicate: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in subject.bytes().chain([0xff]).chain(predicate.bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// What reading needs of a fact line before parsing it in full.
#[derive(Deserialize)]
struct KeyOnly<'a> {
    #[serde(borrow)]
    subject: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    predicate: std::borrow::Cow<'a, str>,
}

/// The index in memory.
struct FactIndex {
    coverage: Coverage,
    damaged: u64,
    /// (key hash, line offset), sorted.
    keys: Vec<(u64, u64)>,
    /// (key hash, line offset) of the current facts' current versions, sorted.
    current: Vec<(u64, u64)>,
    ids: u64,
    open: u64,
}

fn index_path(store: &Store, project_id: &str) -> PathBuf {
    store
        .layout()
        .cache_dir()
        .join(format!("facts-v{FORMAT}"))
        .join(format!("{}.idx", layout::encode_project_dir(project_id)))
}

/// Reads the line at `offset`.
fn line_at(file: &mut File, offset: u64) -> std::io::Result<Vec<u8>> {
    log::line_at(file, offset)
}

fn parse_fact(bytes: &[u8]) -> Option<Fact> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Fact::parse(map).ok(),
        _ => None,
    }
}

/// Keeps the current version of each fact id (the order of `read_current`).
fn keep(by_id: &mut BTreeMap<String, Fact>, f: Fact) {
    match by_id.get(f.id()) {
        Some(cur) if f.version_order(cur) != std::cmp::Ordering::Greater => {}
        _ => {
            by_id.insert(f.id().to_string(), f);
        }
    }
}

/// Calls `each(offset, line)` for the complete, non-blank lines from `from` on; returns where
/// the complete lines end.
fn for_lines(path: &Path, from: u64, mut each: impl FnMut(u64, &[u8])) -> std::io::Result<u64> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(from))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let (mut buf, mut offset) = (Vec::new(), from);
    loop {
        buf.clear();
        let n = reader.read_until(b'\n', &mut buf)?;
        if n == 0 || buf.last() != Some(&b'\n') {
            return Ok(offset);
        }
        if !buf.iter().all(u8::is_ascii_whitespace) {
            each(offset, &buf);
        }
        offset += n as u64;
    }
}

/// Complete lines with their offsets.
type Lines = Vec<(u64, Vec<u8>)>;

/// The lines from `from` on (a short tail), and how many of them are not facts.
fn lines_from(path: &Path, from: u64) -> std::io::Result<(Lines, u64)> {
    let (mut out, mut damaged) = (Vec::new(), 0);
    for_lines(path, from, |offset, bytes| {
        if serde_json::from_slice::<KeyOnly>(bytes).is_err() {
            damaged += 1;
        }
        out.push((offset, bytes.to_vec()));
    })?;
    Ok((out, damaged))
}

impl FactIndex {
    /// Two passes, so memory holds the key table and one key's facts, not the log: the keys
    /// of every line, then each key's lines read again to find its current fact.
    fn build(path: &Path) -> std::io::Result<FactIndex> {
        let mut keys = Vec::new();
        let mut damaged = 0;
        let covered = for_lines(path, 0, |offset, bytes| {
            match serde_json::from_slice::<KeyOnly>(bytes) {
                Ok(k) => keys.push((key_hash(&k.subject, &k.predicate), offset)),
                Err(_) => damaged += 1,
            }
        })?;
        keys.sort_unstable();
        let mut file = File::open(path)?;
        let mut current = Vec::new();
        let (mut ids, mut open) = (0, 0);
        for group in keys.chunk_by(|a, b| a.0 == b.0) {
            // Per fact id: its current version and that version's line. A key hash shared by
            // two keys only puts both keys' facts together; each key still has its own best.
            let mut by_id: BTreeMap<String, (Fact, u64)> = BTreeMap::new();
            for &(_, offset) in group {
                let Some(f) = parse_fact(&line_at(&mut file, offset)?) else {
                    damaged += 1;
                    continue;
                };
                let replaces = by_id
                    .get(f.id())
                    .is_none_or(|(cur, _)| f.version_order(cur) == std::cmp::Ordering::Greater);
                if replaces {
                    by_id.insert(f.id().to_string(), (f, offset));
                }
            }
            ids += by_id.len() as u64;
            open += by_id.values().filter(|(f, _)| f.is_current()).count() as u64;
            let mut best: HashMap<(&str, &str), &(Fact, u64)> = HashMap::new();
            for entry in by_id.values().filter(|(f, _)| f.is_current()) {
                let f = &entry.0;
                let slot = best.entry((f.subject(), f.predicate())).or_insert(entry);
                if rank(f) > rank(&slot.0) {
                    *slot = entry;
                }
            }
            current.extend(best.values().map(|(_, o)| (group[0].0, *o)));
        }
        current.sort_unstable();
        Ok(FactIndex {
            coverage: Coverage::of(path, covered)?,
            damaged,
            keys,
            current,
            ids,
            open,
        })
    }

    fn write(&self, to: &Path) -> std::io::Result<()> {
        let header = Header {
            format: FORMAT,
            coverage: self.coverage.clone(),
            damaged: self.damaged,
            keys: self.keys.len() as u64,
            current: self.current.len() as u64,
            ids: self.ids,
            open: self.open,
        };
        let mut out = serde_json::to_vec(&header).map_err(std::io::Error::other)?;
        out.push(b'\n');
        for (k, o) in &self.keys {
            out.extend(k.to_le_bytes());
            out.extend(o.to_le_bytes());
        }
        for (k, o) in &self.current {
            out.extend(k.to_le_bytes());
            out.extend(o.to_le_bytes());
        }
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir)?;
        }
        log::write_atomic(to, &out).map_err(|e| std::io::Error::other(e.to_string()))
    }

    fn read(from: &Path, log: &Path, log_len: u64) -> std::io::Result<Option<FactIndex>> {
        let bytes = match std::fs::read(from) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let Some(nl) = bytes.iter().position(|&b| b == b'\n') else {
            return Ok(None);
        };
        let Ok(h) = serde_json::from_slice::<Header>(&bytes[..nl]) else {
            return Ok(None);
        };
        let body = &bytes[nl + 1..];
        let (nk, nc) = (h.keys as usize, h.current as usize);
        if h.format != FORMAT
            || body.len() != nk * 16 + nc * 16
            || !h.coverage.still_holds(log, log_len)?
        {
            return Ok(None);
        }
        let u64_at = |i: usize| u64::from_le_bytes(body[i..i + 8].try_into().unwrap_or_default());
        Ok(Some(FactIndex {
            coverage: h.coverage,
            damaged: h.damaged,
            keys: (0..nk)
                .map(|i| (u64_at(i * 16), u64_at(i * 16 + 8)))
                .collect(),
            current: (0..nc)
                .map(|i| (u64_at(nk * 16 + i * 16), u64_at(nk * 16 + i * 16 + 8)))
                .collect(),
            ids: h.ids,
            open: h.open,
        }))
    }
}

/// The current facts among the versions of one key's facts: the greatest open one (see
/// `ops::facts`), or all open ones tied for it — at most one per key.
fn current_facts(by_id: &BTreeMap<String, Fact>) -> Option<&Fact> {
    by_id
        .values()
        .filter(|f| f.is_current())
        .max_by(|a, b| rank(a).cmp(&rank(b)))
}

fn rank(
    f: &Fact,
) -> (
    crate::wire::time::Timestamp,
    crate::wire::time::Timestamp,
    &str,
) {
    (f.valid_from(), f.created_at(), f.id())
}

/// What a fact query reads instead of the whole log.
pub enum Facts {
    /// The facts the query needs, by id, at their current versions.
    Some(BTreeMap<String, Fact>),
    /// No usable index (it is off, or the log has damaged lines that a full read reports).
    Unindexed,
}

/// The facts of one key in the covered lines and in `tail`, by id, at their current versions.
fn key_facts(
    index: &FactIndex,
    log: &Path,
    subject: &str,
    predicate: &str,
    tail: &[(u64, Vec<u8>)],
) -> std::io::Result<BTreeMap<String, Fact>> {
    let k = key_hash(subject, predicate);
    let start = index.keys.partition_point(|&(h, _)| h < k);
    let mut file = File::open(log)?;
    let mut by_id = BTreeMap::new();
    let of_key = |f: &Fact| f.subject() == subject && f.predicate() == predicate;
    for &(_, offset) in index.keys[start..].iter().take_while(|(h, _)| *h == k) {
        if let Some(f) = parse_fact(&line_at(&mut file, offset)?).filter(of_key) {
            keep(&mut by_id, f);
        }
    }
    for (_, bytes) in tail {
        if let Some(f) = parse_fact(bytes).filter(of_key) {
            keep(&mut by_id, f);
        }
    }
    Ok(by_id)
}

/// A usable fact index, its log, and the lines the log gained since (none of them damaged).
struct Indexed {
    index: FactIndex,
    log: PathBuf,
    tail: Lines,
}

impl Store {
    /// The fact index with the log's new lines, or `None` when reads must scan the log.
    fn indexed(&self, project_id: &str) -> Result<Option<Indexed>> {
        let Some((index, log)) = self.fact_index(project_id)? else {
            return Ok(None);
        };
        let (tail, damaged) = lines_from(&log, index.coverage.covered)
            .map_err(|e| Error::io(format!("cannot read {}", log.display()), e))?;
        Ok((damaged == 0).then_some(Indexed { index, log, tail }))
    }

    fn fact_index(&self, project_id: &str) -> Result<Option<(FactIndex, PathBuf)>> {
        if !self.config().search_index() {
            return Ok(None);
        }
        let log = self.layout().facts_file(project_id);
        let io = |e| Error::io(format!("cannot index {}", log.display()), e);
        let log_len = match std::fs::metadata(&log) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io(e)),
        };
        let path = index_path(self, project_id);
        let index = match FactIndex::read(&path, &log, log_len).map_err(io)? {
            Some(i) if log_len - i.coverage.covered <= TAIL_LIMIT => i,
            _ => {
                let i = FactIndex::build(&log).map_err(io)?;
                let _ = i.write(&path); // a cache that cannot be written is no error
                i
            }
        };
        Ok((index.damaged == 0).then_some((index, log)))
    }

    /// The facts of one key, by id, at their current versions.
    pub fn facts_of_key(&self, project_id: &str, subject: &str, predicate: &str) -> Result<Facts> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(Facts::Unindexed);
        };
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        let by_id = key_facts(&index, &log, subject, predicate, &tail).map_err(io)?;
        Ok(Facts::Some(by_id))
    }

    /// The current fact of one key (the greatest open one), from the index's table of
    /// current facts: one line read, however long the key's history. `None` when there is
    /// no usable index.
    pub fn current_fact_of_key(
        &self,
        project_id: &str,
        subject: &str,
        predicate: &str,
    ) -> Result<Option<Option<Fact>>> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(None);
        };
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        let of_key = |f: &Fact| f.subject() == subject && f.predicate() == predicate;
        if tail
            .iter()
            .any(|(_, b)| parse_fact(b).is_some_and(|f| of_key(&f)))
        {
            // The key changed since the index was written: all its lines decide.
            let by_id = key_facts(&index, &log, subject, predicate, &tail).map_err(io)?;
            return Ok(Some(current_facts(&by_id).cloned()));
        }
        let k = key_hash(subject, predicate);
        let start = index.current.partition_point(|&(h, _)| h < k);
        let mut file = File::open(&log).map_err(io)?;
        for &(_, offset) in index.current[start..].iter().take_while(|(h, _)| *h == k) {
            if let Some(f) = parse_fact(&line_at(&mut file, offset).map_err(io)?).filter(of_key) {
                return Ok(Some(Some(f)));
            }
        }
        Ok(Some(None))
    }

    /// How many facts a project has, and how many of them are open, or `None` without a
    /// usable index.
    pub fn fact_counts(&self, project_id: &str) -> Result<Option<(u64, u64)>> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(None);
        };
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        // The index counted the covered lines; the keys the tail touches are counted again.
        let (mut ids, mut open) = (index.ids as i64, index.open as i64);
        let mut done = std::collections::HashSet::new();
        for f in tail.iter().filter_map(|(_, b)| parse_fact(b)) {
            let key = (f.subject().to_string(), f.predicate().to_string());
            if !done.insert(key.clone()) {
                continue;
            }
            let count = |m: &BTreeMap<String, Fact>| {
                (
                    m.len() as i64,
                    m.values().filter(|f| f.is_current()).count() as i64,
                )
            };
            let before = count(&key_facts(&index, &log, &key.0, &key.1, &[]).map_err(io)?);
            let after = count(&key_facts(&index, &log, &key.0, &key.1, &tail).map_err(io)?);
            ids += after.0 - before.0;
            open += after.1 - before.1;
        }
        Ok(Some((ids.max(0) as u64, open.max(0) as u64)))
    }

    /// The current fact of every key, by id.
    pub fn current_facts(&self, project_id: &str) -> Result<Facts> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(Facts::Unindexed);
        };
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        let mut out: BTreeMap<String, Fact> = BTreeMap::new();
        let mut file = File::open(&log).map_err(io)?;
        // Keys the tail touches are worked out again from all their lines.
        let touched: Vec<(String, String)> = tail
            .iter()
            .filter_map(|(_, b)| parse_fact(b))
            .map(|f| (f.subject().to_string(), f.predicate().to_string()))
            .collect();
        for &(_, offset) in &index.current {
            if let Some(f) = parse_fact(&line_at(&mut file, offset).map_err(io)?)
                && !touched
                    .iter()
                    .any(|(s, p)| s == f.subject() && p == f.predicate())
            {
                out.insert(f.id().to_string(), f);
            }
        }
        let mut done = std::collections::HashSet::new();
        for (s, p) in &touched {
            if !done.insert((s, p)) {
                continue;
            }
            if let Facts::Some(by_id) = self.facts_of_key(project_id, s, p)?
                && let Some(f) = current_facts(&by_id)
            {
                out.insert(f.id().to_string(), f.clone());
            }
        }
        Ok(Facts::Some(out))
    }
}
