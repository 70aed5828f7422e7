//! The index of a project's fact log, under `cache/facts-v5/` ([`super::FACTS`]):
//! the lines of each (subject, predicate) key, the facts that are current, with a copy of
//! their lines so that listing them reads one block, and every fact's line by key in listing
//! order (so a listing of every fact reads one key's chain at a time, not the whole log).
//! `facts get`, `assert` and orient then read a few lines instead of the whole history. The
//! index covers a prefix of the log (`Coverage`); lines appended since are read directly,
//! and a log rewritten under it (a checkout, a merge) is indexed again.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use std::hash::Hasher as _;

use super::coverage::Coverage;
use super::witness::LogState;
use super::{FACTS, Fnv};
use crate::fact_chain::{chain_rank, sort_in_chain_order};
use crate::records::Versioned;
use crate::{Store, layout, log};
use relay_wire::Fact;
use relay_wire::error::{Error, Result};

mod by_subject;
mod current;
mod rendered;
use by_subject::subject_lines;
use current::Current;

const FORMAT: u32 = FACTS.format;

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
    /// Fact ids, and the keys that have a current fact (for `status`).
    #[serde(default)]
    ids: u64,
    #[serde(default)]
    open: u64,
    /// Entries of the chain table.
    chains: u64,
    /// Bytes of the copy of the current facts' lines that ends the file.
    current_bytes: u64,
}

/// A stable 64-bit key of (subject, predicate): the one hash of `cache/` over both, with a
/// separator no string holds.
fn key_hash(subject: &str, predicate: &str) -> u64 {
    let mut h = Fnv::default();
    h.write(subject.as_bytes());
    h.write(&[0xff]);
    h.write(predicate.as_bytes());
    h.finish()
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
    ids: u64,
    open: u64,
    /// The tables and lines, in memory after a build; read from the file when first needed.
    tables: std::cell::OnceCell<Tables>,
    chains: std::cell::OnceCell<Vec<(u64, u64)>>,
    lines: std::cell::OnceCell<Vec<u8>>,
    /// Where they are in the index file it was read from.
    stored: Option<Stored>,
}

struct Tables {
    /// (key hash, line offset), sorted.
    keys: Vec<(u64, u64)>,
    /// (key hash, line offset) of the current facts' current versions, sorted. The copy of
    /// their lines (each ending in a newline) is sorted by subject and predicate.
    current: Vec<(u64, u64)>,
}

/// Where an index file's parts start.
struct Stored {
    path: PathBuf,
    tables_at: u64,
    keys: usize,
    current: usize,
    chains: usize,
    lines_len: u64,
}

/// An entry of the chain table: (key ordinal << 32 | line length, line offset), for the line
/// of each fact's current version; keys by subject and predicate, each key's facts in chain
/// order. A line as long as [`u32::MAX`] or longer is read up to its newline.
fn chain_entry(ordinal: usize, len: usize, offset: u64) -> (u64, u64) {
    let len = len.min(u32::MAX as usize) as u64;
    (((ordinal as u64) << 32) | len, offset)
}

fn index_path(store: &Store, project_id: &str) -> PathBuf {
    index_file(
        &store.layout().cache_dir(),
        &layout::encode_project_dir(project_id),
    )
}

/// The fact index of the project whose folder is named `folder`.
pub(super) fn index_file(cache_dir: &Path, folder: &str) -> PathBuf {
    FACTS.dir(cache_dir).join(format!("{folder}.idx"))
}

/// Reads the line at `offset`.
fn line_at(file: &File, offset: u64) -> std::io::Result<Vec<u8>> {
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

/// Calls `each(offset, line)` for the complete, non-blank lines from `from` on (without their
/// newlines); returns where the complete lines end.
fn for_lines(
    path: &Path,
    from: u64,
    to: Option<u64>,
    mut each: impl FnMut(u64, &[u8]),
) -> std::io::Result<u64> {
    let mut sink = log::Lines(|_, offset, text: &[u8]| {
        each(offset, text);
        Ok::<_, std::io::Error>(true)
    });
    let reader = log::LogReader::new(path).from(from, 1);
    let reader = match to {
        Some(end) => reader.until(end),
        None => reader,
    };
    reader.buffer(1 << 20).must_exist().read(&mut sink)
}

/// Complete lines with their offsets.
type Lines = Vec<(u64, Vec<u8>)>;

/// What [`Store::each_key_facts`] hands one key's facts to: an iterator it may read as far as
/// it needs.
pub type EachKey<'a> = dyn FnMut(&mut dyn Iterator<Item = Result<Fact>>) -> Result<()> + 'a;

/// The lines from `from` on (a short tail), and how many of them are not facts.
fn lines_from(path: &Path, from: u64) -> std::io::Result<(Lines, u64)> {
    let (mut out, mut damaged) = (Vec::new(), 0);
    for_lines(path, from, None, |offset, bytes| {
        if serde_json::from_slice::<KeyOnly>(bytes).is_err() {
            damaged += 1;
        }
        out.push((offset, bytes.to_vec()));
    })?;
    Ok((out, damaged))
}

impl FactIndex {
    /// Two passes, so memory holds the key table and a key's facts per thread, not the log:
    /// the keys of every line, then each key's lines read again to find its current fact.
    fn build(path: &Path, state: &LogState) -> std::io::Result<FactIndex> {
        FactIndex::build_to(path, state, state.len)
    }

    /// [`FactIndex::build`] of the log's first `end` bytes.
    fn build_to(path: &Path, state: &LogState, end: u64) -> std::io::Result<FactIndex> {
        let mut keys = Vec::new();
        let mut damaged = 0;
        let covered = for_lines(
            path,
            0,
            Some(end),
            |offset, bytes| match serde_json::from_slice::<KeyOnly>(bytes) {
                Ok(k) => keys.push((key_hash(&k.subject, &k.predicate), offset)),
                Err(_) => damaged += 1,
            },
        )?;
        keys.sort_unstable();
        let file = File::open(path)?;
        let Current {
            mut current,
            mut listed,
            mut keyed,
            ids,
            open,
            damaged: unparsed,
        } = current::of_keys(&file, &keys)?;
        damaged += unparsed;
        keyed.sort_unstable();
        let chains: Vec<(u64, u64)> = (keyed.iter().enumerate())
            .flat_map(|(i, (.., lines))| lines.iter().map(move |&(o, len)| chain_entry(i, len, o)))
            .collect();
        current.sort_unstable();
        // The copy of the current lines is in listing order: by subject, then predicate.
        listed.sort_unstable();
        let mut lines = Vec::new();
        for (.., offset) in &listed {
            lines.extend(line_at(&file, *offset)?);
            lines.push(b'\n');
        }
        Ok(FactIndex {
            coverage: Coverage::of(path, state, covered),
            damaged,
            ids,
            open,
            tables: Tables { keys, current }.into(),
            chains: chains.into(),
            lines: lines.into(),
            stored: None,
        })
    }

    fn write(&self, to: &Path) -> std::io::Result<()> {
        let (Some(tables), Some(chains), Some(lines)) =
            (self.tables.get(), self.chains.get(), self.lines.get())
        else {
            return Ok(()); // read from a file: already written
        };
        let header = Header {
            format: FORMAT,
            coverage: self.coverage.clone(),
            damaged: self.damaged,
            keys: tables.keys.len() as u64,
            current: tables.current.len() as u64,
            ids: self.ids,
            open: self.open,
            chains: chains.len() as u64,
            current_bytes: lines.len() as u64,
        };
        let mut out = serde_json::to_vec(&header).map_err(std::io::Error::other)?;
        out.push(b'\n');
        for (k, o) in tables.keys.iter().chain(&tables.current).chain(chains) {
            out.extend(k.to_le_bytes());
            out.extend(o.to_le_bytes());
        }
        out.extend(lines);
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir)?;
        }
        log::write_atomic(to, &out).map_err(|e| std::io::Error::other(e.to_string()))
    }

    /// The index at `from` if it still describes `log`: its header only; the tables and the
    /// lines are read when first needed.
    fn read(from: &Path, log: &Path, state: &LogState) -> std::io::Result<Option<FactIndex>> {
        let file = match File::open(from) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let file_len = file.metadata()?.len();
        let mut line = Vec::new();
        BufReader::with_capacity(1024, file)
            .take(64 << 10)
            .read_until(b'\n', &mut line)?;
        let Ok(h) = serde_json::from_slice::<Header>(&line) else {
            return Ok(None);
        };
        // The counts come from a file anyone may have damaged: checked, never wrapped.
        let size = (h.keys.checked_add(h.current))
            .and_then(|n| n.checked_add(h.chains)?.checked_mul(16))
            .and_then(|tables| tables.checked_add(line.len() as u64))
            .and_then(|n| n.checked_add(h.current_bytes));
        if h.format != FORMAT || size != Some(file_len) || !h.coverage.holds(log, state)? {
            return Ok(None);
        }
        Ok(Some(FactIndex {
            coverage: h.coverage,
            damaged: h.damaged,
            ids: h.ids,
            open: h.open,
            tables: std::cell::OnceCell::new(),
            chains: std::cell::OnceCell::new(),
            lines: std::cell::OnceCell::new(),
            stored: Some(Stored {
                path: from.to_path_buf(),
                tables_at: line.len() as u64,
                keys: h.keys as usize,
                current: h.current as usize,
                chains: h.chains as usize,
                lines_len: h.current_bytes,
            }),
        }))
    }

    /// `len` bytes of the index file at `at`.
    fn stored(&self) -> std::io::Result<&Stored> {
        (self.stored.as_ref()).ok_or_else(|| std::io::Error::other("no index file"))
    }

    fn stored_bytes(&self, at: u64, len: u64) -> std::io::Result<Vec<u8>> {
        let mut file = File::open(&self.stored()?.path)?;
        file.seek(SeekFrom::Start(at))?;
        let mut bytes = vec![0u8; len as usize];
        file.read_exact(&mut bytes)?;
        Ok(bytes)
    }

    fn tables(&self) -> std::io::Result<&Tables> {
        if let Some(t) = self.tables.get() {
            return Ok(t);
        }
        let stored = self.stored()?;
        let (nk, nc) = (stored.keys, stored.current);
        let body = self.stored_bytes(stored.tables_at, (nk + nc) as u64 * 16)?;
        let tables = Tables {
            keys: pairs(&body[..nk * 16]),
            current: pairs(&body[nk * 16..]),
        };
        Ok(self.tables.get_or_init(|| tables))
    }

    /// The chain table (see [`chain_entry`]), read apart from the others: only a listing of
    /// every fact needs it.
    fn chains(&self) -> std::io::Result<&[(u64, u64)]> {
        if let Some(c) = self.chains.get() {
            return Ok(c);
        }
        let stored = self.stored()?;
        let at = stored.tables_at + (stored.keys + stored.current) as u64 * 16;
        let chains = pairs(&self.stored_bytes(at, stored.chains as u64 * 16)?);
        // Every line it points at lies in the bytes the index covers (a damaged entry would
        // have a listing read, or allocate, whatever it says).
        let covered = self.coverage.covered;
        let inside = |&(key_len, offset): &(u64, u64)| match key_len & u64::from(u32::MAX) {
            // (a line that long is read up to its newline)
            len if len == u64::from(u32::MAX) => offset < covered,
            len => offset.checked_add(len).is_some_and(|end| end <= covered),
        };
        if !chains.iter().all(inside) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "the fact index's chain table points outside its log",
            ));
        }
        Ok(self.chains.get_or_init(|| chains))
    }

    /// The current facts' lines, one block.
    fn current_lines(&self) -> std::io::Result<&[u8]> {
        if let Some(l) = self.lines.get() {
            return Ok(l);
        }
        let stored = self.stored()?;
        let tables = stored.keys + stored.current + stored.chains;
        let at = stored.tables_at + tables as u64 * 16;
        let lines = self.stored_bytes(at, stored.lines_len)?;
        Ok(self.lines.get_or_init(|| lines))
    }
}

/// Reads the lines the chain table points at, into one buffer.
struct ChainReader<'a> {
    file: &'a File,
    buf: Vec<u8>,
}

impl ChainReader<'_> {
    /// The fact of a chain table entry (`None` for a line that is no fact).
    fn fact(&mut self, (key_len, offset): (u64, u64)) -> std::io::Result<Option<Fact>> {
        use std::os::unix::fs::FileExt;
        let len = (key_len & u64::from(u32::MAX)) as usize;
        if len == u32::MAX as usize {
            return Ok(parse_fact(&line_at(self.file, offset)?));
        }
        self.buf.resize(len, 0);
        self.file.read_exact_at(&mut self.buf, offset)?;
        Ok(parse_fact(&self.buf))
    }
}

/// Hands `each` the facts of the chain table's `keys` (each a key's entries, keys in order),
/// with the keys of the log's tail in `touched` merged in or put between them.
fn walk_keys<'k>(
    reader: &mut ChainReader<'_>,
    log: &Path,
    keys: impl Iterator<Item = &'k [(u64, u64)]>,
    touched: &mut BTreeMap<(String, String), Vec<Fact>>,
    wanted: &dyn Fn(&str, &str) -> bool,
    each: &mut EachKey<'_>,
) -> Result<()> {
    let io = |e| Error::io(format!("cannot read {}", log.display()), e);
    for key in keys {
        let Some(first) = reader.fact(key[0]).map_err(io)? else {
            continue;
        };
        let name = (first.subject().to_string(), first.predicate().to_string());
        tail_keys_before(touched, Some(&name), wanted, each)?;
        if !wanted(&name.0, &name.1) {
            continue;
        }
        let rest =
            (key[1..].iter()).filter_map(|&entry| reader.fact(entry).map_err(io).transpose());
        let mut facts = std::iter::once(Ok(first)).chain(rest);
        match touched.remove(&name) {
            Some(mine) => {
                let indexed = facts.collect::<Result<Vec<_>>>()?;
                each(&mut in_chain_order(mine, indexed).into_iter().map(Ok))?
            }
            None => each(&mut facts)?,
        }
    }
    tail_keys_before(touched, None, wanted, each)
}

/// Hands `each` the keys of the log's tail that come before `before` (all, for `None`), as
/// [`Store::each_key_facts`] does, and forgets them.
fn tail_keys_before(
    touched: &mut BTreeMap<(String, String), Vec<Fact>>,
    before: Option<&(String, String)>,
    wanted: &dyn Fn(&str, &str) -> bool,
    each: &mut EachKey<'_>,
) -> Result<()> {
    while let Some(entry) = touched.first_entry() {
        if before.is_some_and(|b| entry.key() >= b) {
            break;
        }
        let ((s, p), mine) = entry.remove_entry();
        if wanted(&s, &p) {
            each(&mut in_chain_order(mine, Vec::new()).into_iter().map(Ok))?;
        }
    }
    Ok(())
}

/// One key's facts, `newer` (from the log's tail) kept over `indexed` where they are later
/// versions of the same fact, in chain order.
fn in_chain_order(newer: Vec<Fact>, indexed: Vec<Fact>) -> Vec<Fact> {
    let mut by_id = BTreeMap::new();
    for f in indexed.into_iter().chain(newer) {
        keep(&mut by_id, f);
    }
    let mut facts: Vec<Fact> = by_id.into_values().collect();
    sort_in_chain_order(&mut facts, |f| f);
    facts
}

/// A table's pairs of little-endian u64s.
fn pairs(body: &[u8]) -> Vec<(u64, u64)> {
    let at = |j: usize| u64::from_le_bytes(body[j..j + 8].try_into().unwrap_or_default());
    (0..body.len() / 16)
        .map(|i| (at(i * 16), at(i * 16 + 8)))
        .collect()
}

/// The current fact of one key, from its facts at their current versions: the last of its
/// chain (`fact_chain`), unless that one ended.
fn current_fact(by_id: &BTreeMap<String, Fact>) -> Option<&Fact> {
    by_id
        .values()
        .max_by(|a, b| chain_rank(a).cmp(&chain_rank(b)))
        .filter(|f| f.is_current())
}

/// What a fact query reads instead of the whole log.
pub enum Facts {
    /// The facts the query needs, by id, at their current versions.
    Some(BTreeMap<String, Fact>),
    /// No usable index (it is off, or the log has damaged lines that a full read reports).
    Unindexed,
}

/// The facts of the log's lines since the index, parsed once, by key (subject, predicate).
fn tail_by_key(tail: &[(u64, Vec<u8>)]) -> BTreeMap<(String, String), Vec<Fact>> {
    let mut out: BTreeMap<(String, String), Vec<Fact>> = BTreeMap::new();
    for f in tail.iter().filter_map(|(_, b)| parse_fact(b)) {
        let key = (f.subject().to_string(), f.predicate().to_string());
        out.entry(key).or_default().push(f);
    }
    out
}

/// The facts of one key in the covered lines and in `tail` (the key's facts among the lines
/// since the index), by id, at their current versions.
fn key_facts(
    index: &FactIndex,
    log: &Path,
    subject: &str,
    predicate: &str,
    tail: &[Fact],
) -> std::io::Result<BTreeMap<String, Fact>> {
    let k = key_hash(subject, predicate);
    let keys = &index.tables()?.keys;
    let start = keys.partition_point(|&(h, _)| h < k);
    let file = File::open(log)?;
    let mut by_id = BTreeMap::new();
    let of_key = |f: &Fact| f.subject() == subject && f.predicate() == predicate;
    for &(_, offset) in keys[start..].iter().take_while(|(h, _)| *h == k) {
        if let Some(f) = parse_fact(&line_at(&file, offset)?).filter(of_key) {
            keep(&mut by_id, f);
        }
    }
    for f in tail.iter().filter(|f| of_key(f)) {
        keep(&mut by_id, f.clone());
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
        if !log.exists() {
            return Ok(None);
        }
        let state = LogState::observe(&self.layout().cache_dir(), &log).map_err(io)?;
        let path = index_path(self, project_id);
        let index = match FactIndex::read(&path, &log, &state).map_err(io)? {
            Some(i) if state.len - i.coverage.covered <= FACTS.tail_limit => i,
            _ => {
                let i = FactIndex::build(&log, &state).map_err(io)?;
                let _ = i.write(&path); // a cache that cannot be written is no error
                i
            }
        };
        Ok((index.damaged == 0).then_some((index, log)))
    }

    /// Checks the fact index of `project_id` against the bytes of the log it covers.
    pub fn check_fact_index(&self, project_id: &str) -> Result<super::Check> {
        use super::Check;
        let log = self.layout().facts_file(project_id);
        let io = |e| Error::io(format!("cannot check the index of {}", log.display()), e);
        let path = index_path(self, project_id);
        if !path.exists() {
            return Ok(Check::Absent);
        }
        let state = LogState::observe(&self.layout().cache_dir(), &log).map_err(io)?;
        let Some(stored) = FactIndex::read(&path, &log, &state).map_err(io)? else {
            return Ok(Check::OutOfDate);
        };
        let fresh = FactIndex::build_to(&log, &state, stored.coverage.covered).map_err(io)?;
        let same = fresh.coverage.covered == stored.coverage.covered
            && (fresh.damaged, fresh.ids, fresh.open) == (stored.damaged, stored.ids, stored.open)
            && {
                let (a, b) = (fresh.tables().map_err(io)?, stored.tables().map_err(io)?);
                a.keys == b.keys && a.current == b.current
            }
            && fresh.chains().map_err(io)? == stored.chains().map_err(io)?
            && fresh.current_lines().map_err(io)? == stored.current_lines().map_err(io)?;
        Ok(match same {
            true => Check::Sound,
            false => Check::Stale("its keys or current facts are not the log's".into()),
        })
    }

    /// Removes the fact index of `project_id` and builds it again.
    pub fn rebuild_fact_index(&self, project_id: &str) -> Result<()> {
        let path = index_path(self, project_id);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Error::io(format!("cannot remove {}", path.display()), e));
            }
            _ => {}
        }
        self.fact_index(project_id).map(|_| ())
    }

    /// The facts of one key, by id, at their current versions.
    pub fn facts_of_key(&self, project_id: &str, subject: &str, predicate: &str) -> Result<Facts> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(Facts::Unindexed);
        };
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        let key = (subject.to_string(), predicate.to_string());
        let mine = tail_by_key(&tail).remove(&key).unwrap_or_default();
        let by_id = key_facts(&index, &log, subject, predicate, &mine).map_err(io)?;
        Ok(Facts::Some(by_id))
    }

    /// The current fact of one key (the last of its chain, unless it ended), from the index's table of
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
        let key = (subject.to_string(), predicate.to_string());
        if let Some(mine) = tail_by_key(&tail).remove(&key) {
            // The key changed since the index was written: all its lines decide.
            let by_id = key_facts(&index, &log, subject, predicate, &mine).map_err(io)?;
            return Ok(Some(current_fact(&by_id).cloned()));
        }
        let k = key_hash(subject, predicate);
        let current = &index.tables().map_err(io)?.current;
        let start = current.partition_point(|&(h, _)| h < k);
        let file = File::open(&log).map_err(io)?;
        for &(_, offset) in current[start..].iter().take_while(|(h, _)| *h == k) {
            if let Some(f) = parse_fact(&line_at(&file, offset).map_err(io)?).filter(of_key) {
                return Ok(Some(Some(f)));
            }
        }
        Ok(Some(None))
    }

    /// Calls `each` with the facts of every key whose subject and predicate are the ones
    /// given (any, for `None`), one key at a time, keys by subject and predicate: its facts at
    /// their current versions, in chain order, each line read as `each` asks for it through
    /// the chain table, so memory holds what `each` keeps, not the log. `false` (and no call) when there
    /// is no usable index.
    pub fn each_key_facts(
        &self,
        project_id: &str,
        subject: Option<&str>,
        predicate: Option<&str>,
        each: &mut EachKey<'_>,
    ) -> Result<bool> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(false);
        };
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        let wanted =
            |s: &str, p: &str| subject.is_none_or(|x| x == s) && predicate.is_none_or(|x| x == p);
        // Keys the tail touches join their indexed facts, or come in order between them.
        let mut touched = tail_by_key(&tail);
        let chains = match index.chains() {
            Ok(chains) => chains,
            // A damaged chain table: no usable index (the caller reads the log instead).
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => return Ok(false),
            Err(e) => return Err(io(e)),
        };
        let file = File::open(&log).map_err(io)?;
        let mut reader = ChainReader {
            file: &file,
            buf: Vec::new(),
        };
        let keys = chains.chunk_by(|a, b| a.0 >> 32 == b.0 >> 32);
        walk_keys(&mut reader, &log, keys, &mut touched, &wanted, each)?;
        Ok(true)
    }

    /// How many facts a project has, and how many keys have a current fact, or `None`
    /// without a usable index.
    pub fn fact_counts(&self, project_id: &str) -> Result<Option<(u64, u64)>> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(None);
        };
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        // The index counted the covered lines; the keys the tail touches are counted again.
        let (mut ids, mut open) = (index.ids as i64, index.open as i64);
        for (key, mine) in tail_by_key(&tail) {
            let count =
                |m: &BTreeMap<String, Fact>| (m.len() as i64, i64::from(current_fact(m).is_some()));
            let before = count(&key_facts(&index, &log, &key.0, &key.1, &[]).map_err(io)?);
            let after = count(&key_facts(&index, &log, &key.0, &key.1, &mine).map_err(io)?);
            ids += after.0 - before.0;
            open += after.1 - before.1;
        }
        Ok(Some((ids.max(0) as u64, open.max(0) as u64)))
    }

    /// The current fact of every key (of `subject`'s keys, when given), by subject and
    /// predicate; `None` when there is no usable index. The index keeps a copy of their lines
    /// in this order, so this reads one block and parses it (on two threads), whatever the
    /// log's length; a subject's lines are found in it by bisection and only they are parsed.
    pub fn current_facts(
        &self,
        project_id: &str,
        subject: Option<&str>,
    ) -> Result<Option<Vec<Fact>>> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(None);
        };
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        let lines = index.current_lines().map_err(io)?;
        let mut out = match subject {
            Some(s) => match subject_lines(lines, s) {
                Some(block) => parse_lines(block),
                // A line whose key cannot be read: every line is parsed, and filtered.
                None => (parse_lines(lines).into_iter())
                    .filter(|f| f.subject() == s)
                    .collect(),
            },
            None => parse_lines(lines),
        };
        if tail.is_empty() {
            return Ok(Some(out));
        }
        // Keys the tail touches are worked out again from all their lines; the tail is parsed
        // once, not once per key.
        let mut touched = tail_by_key(&tail);
        if let Some(s) = subject {
            touched.retain(|(subject, _), _| subject == s);
        }
        out.retain(|f| {
            !touched.contains_key(&(f.subject().to_string(), f.predicate().to_string()))
        });
        for ((s, p), mine) in &touched {
            let by_id = key_facts(&index, &log, s, p, mine).map_err(io)?;
            if let Some(f) = current_fact(&by_id) {
                out.push(f.clone());
            }
        }
        out.sort_by_cached_key(|f| (f.subject().to_string(), f.predicate().to_string()));
        Ok(Some(out))
    }

    /// [`Store::current_facts`] as their lines (each ending in a newline), for readers that
    /// pass them on rather than look inside: with the log unchanged since the index was
    /// written, the index's copy as it is, unparsed.
    pub fn current_fact_lines(&self, project_id: &str) -> Result<Option<Vec<u8>>> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(None);
        };
        if tail.is_empty() {
            let io = |e| Error::io(format!("cannot read {}", log.display()), e);
            return Ok(Some(index.current_lines().map_err(io)?.to_vec()));
        }
        let Some(facts) = self.current_facts(project_id, None)? else {
            return Ok(None);
        };
        let mut lines = Vec::new();
        for f in &facts {
            lines.extend(log::to_line(f)?);
        }
        Ok(Some(lines))
    }
}

/// Lines below this many bytes are parsed on this thread: a second one costs more.
const PARSE_ALONE_BYTES: usize = 64 << 10;

/// The facts of newline-ended lines, in order, parsed on two threads.
fn parse_lines(lines: &[u8]) -> Vec<Fact> {
    let half = lines.len() / 2;
    let split = half
        + lines[half..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
    let parse_all = |block: &[u8]| -> Vec<Fact> {
        block
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .filter_map(parse_fact)
            .collect()
    };
    if lines.len() < PARSE_ALONE_BYTES {
        return parse_all(lines);
    }
    let (mut first, second) = std::thread::scope(|s| {
        let later = s.spawn(|| parse_all(&lines[split..]));
        (parse_all(&lines[..split]), later.join().unwrap_or_default())
    });
    first.extend(second);
    first
}

#[cfg(test)]
mod tests;
