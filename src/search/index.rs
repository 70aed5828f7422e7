//! A disposable inverted index per monthly package log, kept under `cache/` (DESIGN invariant
//! 9): for each stem, the lines that hold it and its weighted count; for each line, what
//! ranking needs. An index records how many bytes of its log it covers and fingerprints of
//! them. A log that grew is indexed incrementally; a log that changed any other way (a git
//! checkout, a merge, a repair) is indexed again from scratch. Deleting `cache/` only costs
//! the time to rebuild.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::lite::LiteLine;
use super::{query, rank};
use crate::store::cache::coverage::Coverage;
use crate::wire::{Status, time};

const FORMAT: u32 = 2;
pub(super) const DOC_BYTES: usize = 41;
const DICT_BYTES: usize = 20;
const POSTING_BYTES: usize = 8;
/// One entry of the id table: a 64-bit key of the package id, and the document.
const ID_ENTRY_BYTES: usize = 12;
/// Lines a log may have beyond its index before the index file is brought up to date: a read
/// parses up to this much of a grown log itself rather than rewrite the index every time.
pub const TAIL_LIMIT: u64 = 4 << 20;
/// Package types get one byte in a document; this one means "more types than fit: read the
/// line".
pub const TYPE_OVERFLOW: u8 = u8::MAX;

/// What an index says about its log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    format: u32,
    #[serde(flatten)]
    coverage: Coverage,
    /// The package types of the documents, by code.
    #[serde(default)]
    types: Vec<String>,
    /// Lines of the covered bytes that are not package lines: readers that use the index must
    /// still report them, so they read such a log in full.
    #[serde(default)]
    damaged: u64,
}

/// One indexed line.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub offset: u64,
    pub created_micros: i64,
    /// Weighted length in words.
    pub len: f32,
    pub version: u32,
    pub hash_prefix: u64,
    pub significance: i8,
    pub status: Status,
    /// The package type's code in the index's type table (see [`TYPE_OVERFLOW`]).
    pub type_code: u8,
    pub id: String,
}

/// A stable 64-bit key of a package id (FNV-1a): the id table is sorted by it.
pub fn id_key(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// An index in memory: its documents, and postings by stem.
#[derive(Debug, Default)]
pub struct MonthIndex {
    header_covered: u64,
    pub docs: Vec<Doc>,
    /// Package types by code.
    pub types: Vec<String>,
    /// Covered lines that are not package lines.
    pub damaged: u64,
    /// Stem → its slot in `lists`.
    terms: HashMap<String, u32, FnvBuild>,
    /// Per stem slot, (doc, weighted count), docs ascending.
    lists: Vec<Vec<(u32, f32)>>,
    /// Scratch of [`MonthIndex::add_line`], kept between lines so that indexing a word
    /// allocates nothing: the word lowercased, its stem, and the current line's counts by
    /// slot with the slots it touched.
    scratch: Scratch,
}

#[derive(Debug, Default)]
struct Scratch {
    word: String,
    stem: String,
    counts: Vec<f32>,
    touched: Vec<u32>,
}

/// FNV-1a for the stem table: short keys, hashed once per word indexed, and no need for
/// SipHash's protection (the keys come from the store being indexed, by its owner).
#[derive(Debug, Default, Clone, Copy)]
struct FnvBuild;

struct Fnv(u64);

impl std::hash::BuildHasher for FnvBuild {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The first 64 bits of a `sha256:` hash, for ordering versions.
pub fn hash_prefix(hash: &str) -> u64 {
    let hex = hash.strip_prefix("sha256:").unwrap_or(hash);
    u64::from_str_radix(hex.get(..16).unwrap_or("0"), 16).unwrap_or(0)
}

fn status_code(s: Status) -> u8 {
    match s {
        Status::Draft => 0,
        Status::Complete => 1,
        Status::AwaitingReview => 2,
        Status::RevisionRequested => 3,
    }
}

fn status_of(code: u8) -> Status {
    match code {
        0 => Status::Draft,
        2 => Status::AwaitingReview,
        3 => Status::RevisionRequested,
        _ => Status::Complete,
    }
}

impl MonthIndex {
    /// Adds one line (its bytes, without or with the newline) found at `offset`. Lines that are
    /// not packages are left out: the plain readers report them.
    fn add_line(&mut self, bytes: &[u8], offset: u64) {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let Ok(line) = serde_json::from_slice::<LiteLine>(bytes) else {
            self.damaged += 1;
            return;
        };
        let p = line.package;
        let Some(created) = p.created_at.as_deref().and_then(|t| time::parse(t).ok()) else {
            self.damaged += 1;
            return;
        };
        let doc = self.docs.len() as u32;
        let mut len = 0.0;
        let mut scratch = std::mem::take(&mut self.scratch);
        for &(field, weight) in rank::FIELDS {
            let text = p.text(field);
            for word in text.split(|c: char| !c.is_alphanumeric()) {
                if word.is_empty() {
                    continue;
                }
                len += weight;
                query::lowercase_into(word, &mut scratch.word);
                query::stem_into(&scratch.word, &mut scratch.stem);
                let slot = self.slot(&scratch.stem) as usize;
                if slot >= scratch.counts.len() {
                    scratch.counts.resize(slot + 1, 0.0);
                }
                if scratch.counts[slot] == 0.0 {
                    scratch.touched.push(slot as u32);
                }
                scratch.counts[slot] += weight;
            }
        }
        for &slot in &scratch.touched {
            let tf = std::mem::take(&mut scratch.counts[slot as usize]);
            self.lists[slot as usize].push((doc, tf));
        }
        scratch.touched.clear();
        self.scratch = scratch;
        let ptype = p.package_type.as_deref().unwrap_or("standard");
        let type_code = match self.types.iter().position(|t| t == ptype) {
            Some(i) => i as u8,
            None if self.types.len() < usize::from(TYPE_OVERFLOW) => {
                self.types.push(ptype.to_string());
                (self.types.len() - 1) as u8
            }
            None => TYPE_OVERFLOW,
        };
        self.docs.push(Doc {
            offset,
            created_micros: created.timestamp_micros(),
            len,
            version: line.version.unwrap_or(1).min(u64::from(u32::MAX)) as u32,
            hash_prefix: hash_prefix(line.hash.as_deref().unwrap_or_default()),
            significance: p
                .significance
                .map(|s| s.clamp(1.0, 10.0) as i8)
                .unwrap_or(5),
            status: Status::parse(p.status.as_deref().unwrap_or("complete"))
                .unwrap_or(Status::Complete),
            type_code,
            id: p.package_id.into_owned(),
        });
    }

    /// Indexes the complete lines of `log` from byte `from` on; returns the new covered length.
    fn add_from(&mut self, log: &Path, from: u64) -> std::io::Result<u64> {
        let mut file = File::open(log)?;
        file.seek(SeekFrom::Start(from))?;
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let mut buf = Vec::with_capacity(4096);
        let mut offset = from;
        loop {
            buf.clear();
            let n = reader.read_until(b'\n', &mut buf)?;
            if n == 0 || buf.last() != Some(&b'\n') {
                return Ok(offset); // end, or a torn last line: not covered yet
            }
            self.add_line(&buf, offset);
            offset += n as u64;
        }
    }

    /// The documents holding `stem`, with its weighted count.
    pub fn postings(&self, stem: &str) -> &[(u32, f32)] {
        match self.terms.get(stem) {
            Some(&slot) => &self.lists[slot as usize],
            None => &[],
        }
    }

    /// The slot of `stem` in `lists`, made on first sight.
    fn slot(&mut self, stem: &str) -> u32 {
        if let Some(&slot) = self.terms.get(stem) {
            return slot;
        }
        let slot = self.lists.len() as u32;
        self.terms.insert(stem.to_string(), slot);
        self.lists.push(Vec::new());
        slot
    }

    /// Stems with their postings, by stem.
    fn sorted_postings(&self) -> Vec<(&str, &[(u32, f32)])> {
        let mut out: Vec<(&str, &[(u32, f32)])> = (self.terms.iter())
            .map(|(stem, &slot)| (stem.as_str(), self.lists[slot as usize].as_slice()))
            .filter(|(_, list)| !list.is_empty())
            .collect();
        out.sort_unstable_by(|a, b| a.0.cmp(b.0));
        out
    }
}

/// Where the index of `log` lives: `cache/search-v1/<project folder>/<month>.idx`.
pub fn index_path(cache_dir: &Path, log: &Path) -> PathBuf {
    let month = log
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let project = log
        .parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.file_name())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    cache_dir
        .join(format!("search-v{FORMAT}"))
        .join(project)
        .join(format!("{month}.idx"))
}

/// The up-to-date index of `log`: read from the cache, extended by what the log gained, or
/// built again when the log changed under it. The result is saved back when it changed; a
/// cache that cannot be written is no error (the index is then only used this once).
pub fn load_or_build(cache_dir: &Path, log: &Path) -> std::io::Result<MonthIndex> {
    let log_len = std::fs::metadata(log)?.len();
    let path = index_path(cache_dir, log);
    let mut index = match read(&path) {
        Ok(Some((header, index))) if header.coverage.still_holds(log, log_len)? => index,
        _ => MonthIndex::default(),
    };
    let before = index.header_covered;
    if before < log_len {
        index.header_covered = index.add_from(log, before)?;
    }
    if index.header_covered != before || !path.exists() {
        let _ = write(&path, log, &index);
    }
    Ok(index)
}

fn write(path: &Path, log: &Path, index: &MonthIndex) -> std::io::Result<()> {
    let header = Header {
        format: FORMAT,
        coverage: Coverage::of(log, index.header_covered)?,
        types: index.types.clone(),
        damaged: index.damaged,
    };
    let stems = index.sorted_postings();
    let header = serde_json::to_vec(&header).map_err(std::io::Error::other)?;
    // Written as it is produced: a busy month's index is megabytes, and two are built at once.
    crate::store::log::write_atomic_with(path, |out| write_body(out, &header, index, &stems))
        .map_err(|e| std::io::Error::other(e.to_string()))
}

fn write_body(
    out: &mut dyn std::io::Write,
    header: &[u8],
    index: &MonthIndex,
    stems: &[(&str, &[(u32, f32)])],
) -> std::io::Result<()> {
    out.write_all(header)?;
    out.write_all(b"\n")?;
    let n_postings: usize = stems.iter().map(|(_, list)| list.len()).sum();
    let ids_len: usize = index.docs.iter().map(|d| d.id.len()).sum();
    let stems_len: usize = stems.iter().map(|(s, _)| s.len()).sum();
    out.write_all(&(index.docs.len() as u32).to_le_bytes())?;
    out.write_all(&(stems.len() as u32).to_le_bytes())?;
    out.write_all(&(n_postings as u64).to_le_bytes())?;
    out.write_all(&(ids_len as u64).to_le_bytes())?;
    out.write_all(&(stems_len as u64).to_le_bytes())?;
    let (mut id_off, mut record) = (0u32, Vec::with_capacity(DOC_BYTES));
    for d in &index.docs {
        record.clear();
        encode_doc(&mut record, d, id_off);
        out.write_all(&record)?;
        id_off += d.id.len() as u32;
    }
    let (mut stem_off, mut post_off) = (0u32, 0u64);
    for (s, list) in stems {
        let count = list.len();
        out.write_all(&stem_off.to_le_bytes())?;
        out.write_all(&(s.len() as u16).to_le_bytes())?;
        out.write_all(&[0u8; 2])?;
        out.write_all(&post_off.to_le_bytes())?;
        out.write_all(&(count as u32).to_le_bytes())?;
        stem_off += s.len() as u32;
        post_off += count as u64;
    }
    for d in &index.docs {
        out.write_all(d.id.as_bytes())?;
    }
    for (s, _) in stems {
        out.write_all(s.as_bytes())?;
    }
    for (_, list) in stems {
        for (doc, tf) in *list {
            out.write_all(&doc.to_le_bytes())?;
            out.write_all(&tf.to_le_bytes())?;
        }
    }
    // Last, the id table, sorted by key: a lookup reads a few entries of it in place.
    let mut keys: Vec<(u64, u32)> = (index.docs.iter().enumerate())
        .map(|(i, d)| (id_key(&d.id), i as u32))
        .collect();
    keys.sort_unstable();
    for (key, doc) in keys {
        out.write_all(&key.to_le_bytes())?;
        out.write_all(&doc.to_le_bytes())?;
    }
    Ok(())
}

/// What a query needs of one log's index: the document table (decoded on demand) and the
/// postings of the query's stems, read without loading the rest of the index.
#[derive(Debug, Default)]
pub struct QueryView {
    doc_bytes: Vec<u8>,
    ids: Vec<u8>,
    /// Package types by code.
    pub types: Vec<String>,
    /// Whether some lines are not package lines (see [`MonthIndex::damaged`]).
    pub damaged: bool,
    /// Per query stem, its postings.
    pub postings: Vec<Vec<(u32, f32)>>,
}

impl QueryView {
    pub fn doc_count(&self) -> usize {
        self.doc_bytes.len() / DOC_BYTES
    }

    /// Document `i`, decoded, with an empty `id` (see [`QueryView::doc_id`]).
    pub fn doc(&self, i: u32) -> Option<Doc> {
        let start = i as usize * DOC_BYTES;
        decode_doc(self.doc_bytes.get(start..start + DOC_BYTES)?, None)
    }

    /// The package id of document `i`, without copying it.
    pub fn doc_id(&self, i: u32) -> Option<&str> {
        let start = i as usize * DOC_BYTES;
        let raw = self.doc_bytes.get(start + 32..start + 38)?;
        let off = u32::from_le_bytes(raw[..4].try_into().ok()?) as usize;
        let len = u16::from_le_bytes(raw[4..6].try_into().ok()?) as usize;
        std::str::from_utf8(self.ids.get(off..off + len)?).ok()
    }

    /// The package type of document `i`, when the type table holds it.
    pub fn doc_type(&self, d: &Doc) -> Option<&str> {
        self.types.get(usize::from(d.type_code)).map(String::as_str)
    }

    fn from_index(index: &MonthIndex, stems: &[String]) -> QueryView {
        let mut view = QueryView {
            postings: vec![Vec::new(); stems.len()],
            ..QueryView::default()
        };
        view.extend(index, stems);
        view
    }

    /// Appends the documents of `more` (lines after those already here) with their postings
    /// of `stems`, renumbered, and their types recoded into this view's table.
    fn extend(&mut self, more: &MonthIndex, stems: &[String]) {
        let first = self.doc_count() as u32;
        self.damaged |= more.damaged > 0;
        for d in &more.docs {
            let mut d = d.clone();
            if let Some(name) = more.types.get(usize::from(d.type_code)) {
                d.type_code = match self.types.iter().position(|t| t == name) {
                    Some(i) => i as u8,
                    None if self.types.len() < usize::from(TYPE_OVERFLOW) => {
                        self.types.push(name.clone());
                        (self.types.len() - 1) as u8
                    }
                    None => TYPE_OVERFLOW,
                };
            }
            encode_doc(&mut self.doc_bytes, &d, self.ids.len() as u32);
            self.ids.extend(d.id.as_bytes());
        }
        for (list, stem) in self.postings.iter_mut().zip(stems) {
            list.extend(
                more.postings(stem)
                    .iter()
                    .map(|&(doc, tf)| (doc + first, tf)),
            );
        }
    }
}

fn encode_doc(out: &mut Vec<u8>, d: &Doc, id_off: u32) {
    out.extend(d.offset.to_le_bytes());
    out.extend(d.created_micros.to_le_bytes());
    out.extend(d.len.to_le_bytes());
    out.extend(d.version.to_le_bytes());
    out.extend(d.hash_prefix.to_le_bytes());
    out.extend(id_off.to_le_bytes());
    out.extend((d.id.len() as u16).to_le_bytes());
    out.push(d.significance as u8);
    out.push(status_code(d.status));
    out.push(d.type_code);
}

/// Decodes a document record; its id too when `ids` is given.
fn decode_doc(raw: &[u8], ids: Option<&[u8]>) -> Option<Doc> {
    let mut d = Fields(raw);
    let (offset, created_micros, len, version, hash_prefix) =
        (d.u64()?, d.i64()?, d.f32()?, d.u32()?, d.u64()?);
    let (id_off, id_len) = (d.u32()? as usize, d.u16()? as usize);
    let (significance, status) = (d.take::<1>()?[0] as i8, status_of(d.take::<1>()?[0]));
    let type_code = d.take::<1>()?[0];
    let id = match ids {
        Some(ids) => std::str::from_utf8(ids.get(id_off..id_off + id_len)?)
            .ok()?
            .to_string(),
        None => String::new(),
    };
    Some(Doc {
        offset,
        created_micros,
        len,
        version,
        hash_prefix,
        significance,
        status,
        type_code,
        id,
    })
}

/// The index of `log` as far as a query for `stems` needs it. A valid index that covers the
/// whole log is read in part (header, documents, dictionary, and the postings of `stems`);
/// otherwise the index is brought up to date first.
///
/// An index that covers all but the last few lines of a grown log ([`TAIL_LIMIT`]) is used as
/// it is, and those lines are indexed in memory: a deposit does not cost the next read a
/// rewrite of the month's index.
pub fn query(cache_dir: &Path, log: &Path, stems: &[String]) -> std::io::Result<QueryView> {
    let log_len = std::fs::metadata(log)?.len();
    let path = index_path(cache_dir, log);
    if let Ok(Some((mut view, covered))) = read_partial(&path, log, log_len, stems)
        && log_len - covered <= TAIL_LIMIT
    {
        if covered < log_len {
            let mut tail = MonthIndex::default();
            tail.add_from(log, covered)?;
            view.extend(&tail, stems);
        }
        return Ok(view);
    }
    let index = load_or_build(cache_dir, log)?;
    Ok(QueryView::from_index(&index, stems))
}

/// An open index file whose header still holds for its log.
struct OpenIndex {
    file: File,
    header: Header,
    /// Where the fixed counts start (after the header line).
    body: u64,
}

fn open_valid(path: &Path, log: &Path, log_len: u64) -> std::io::Result<Option<OpenIndex>> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut line = Vec::new();
    BufReader::with_capacity(1024, &mut file)
        .take(64 << 10)
        .read_until(b'\n', &mut line)?;
    let Ok(header) = serde_json::from_slice::<Header>(&line) else {
        return Ok(None);
    };
    if header.format != FORMAT || !header.coverage.still_holds(log, log_len)? {
        return Ok(None);
    }
    Ok(Some(OpenIndex {
        file,
        header,
        body: line.len() as u64,
    }))
}

/// Whether the index of `log` can be used as it is (it may lag a grown log by a little).
pub fn is_warm(cache_dir: &Path, log: &Path) -> bool {
    let Ok(log_len) = std::fs::metadata(log).map(|m| m.len()) else {
        return false;
    };
    matches!(
        open_valid(&index_path(cache_dir, log), log, log_len),
        Ok(Some(open)) if log_len - open.header.coverage.covered <= TAIL_LIMIT
    )
}

/// Brings the indexes of `logs` up to date, two logs at a time on two threads: what a command
/// that reads every month does first, so that a cold cache is rebuilt at the speed of two
/// cores. Returns the bytes of the logs it had to index.
pub fn warm(cache_dir: &Path, logs: &[PathBuf]) -> std::io::Result<u64> {
    let cold: Vec<&PathBuf> = logs.iter().filter(|l| !is_warm(cache_dir, l)).collect();
    let bytes = cold
        .iter()
        .filter_map(|l| std::fs::metadata(l).ok())
        .map(|m| m.len())
        .sum();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || -> std::io::Result<()> {
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(log) = cold.get(i) else {
                return Ok(());
            };
            load_or_build(cache_dir, log)?;
        }
    };
    std::thread::scope(|s| {
        let other = s.spawn(work);
        let mine = work();
        other
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("an index thread failed")))
            .and(mine)
    })?;
    Ok(bytes)
}

/// The offsets in `log` of the lines that may hold package `id`: from the index's id table,
/// and from the lines the index does not cover yet. The caller reads each line and checks its
/// id (two ids can share a key). `None` when the log has lines that are not package lines:
/// the caller then scans it, so that one holding the id is reported.
pub fn find_id(cache_dir: &Path, log: &Path, id: &str) -> std::io::Result<Option<Vec<u64>>> {
    let log_len = std::fs::metadata(log)?.len();
    let path = index_path(cache_dir, log);
    let found = match open_valid(&path, log, log_len)? {
        Some(open) if open.header.damaged > 0 => return Ok(None),
        Some(open) if log_len - open.header.coverage.covered <= TAIL_LIMIT => {
            lookup_id(open, id).ok().flatten()
        }
        _ => None,
    };
    let Some((mut offsets, covered)) = found else {
        let index = load_or_build(cache_dir, log)?;
        return Ok((index.damaged == 0).then(|| {
            (index.docs.iter())
                .filter(|d| d.id == id)
                .map(|d| d.offset)
                .collect()
        }));
    };
    if covered < log_len {
        let mut tail = MonthIndex::default();
        tail.add_from(log, covered)?;
        if tail.damaged > 0 {
            return Ok(None);
        }
        offsets.extend(tail.docs.iter().filter(|d| d.id == id).map(|d| d.offset));
    }
    Ok(Some(offsets))
}

/// Binary search of the id table in place; `None` when the file is damaged.
fn lookup_id(mut open: OpenIndex, id: &str) -> std::io::Result<Option<(Vec<u64>, u64)>> {
    let read_at = |file: &mut File, at: u64, buf: &mut [u8]| -> std::io::Result<()> {
        file.seek(SeekFrom::Start(at))?;
        file.read_exact(buf)
    };
    let mut fixed = [0u8; 32];
    read_at(&mut open.file, open.body, &mut fixed)?;
    let n_docs = u32::from_le_bytes(fixed[..4].try_into().unwrap_or_default()) as u64;
    let file_len = open.file.metadata()?.len();
    let Some(table) = file_len.checked_sub(n_docs * ID_ENTRY_BYTES as u64) else {
        return Ok(None);
    };
    let key = id_key(id);
    let mut entry = |i: u64| -> std::io::Result<(u64, u32)> {
        let mut raw = [0u8; ID_ENTRY_BYTES];
        read_at(&mut open.file, table + i * ID_ENTRY_BYTES as u64, &mut raw)?;
        let mut f = Fields(&raw);
        Ok((f.u64().unwrap_or(0), f.u32().unwrap_or(0)))
    };
    let (mut lo, mut hi) = (0, n_docs);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if entry(mid)?.0 < key {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let mut docs = Vec::new();
    while lo < n_docs {
        let (k, doc) = entry(lo)?;
        if k != key {
            break;
        }
        docs.push(doc);
        lo += 1;
    }
    let mut offsets = Vec::with_capacity(docs.len());
    for doc in docs {
        if u64::from(doc) >= n_docs {
            return Ok(None);
        }
        let mut raw = [0u8; DOC_BYTES];
        read_at(
            &mut open.file,
            open.body + 32 + u64::from(doc) * DOC_BYTES as u64,
            &mut raw,
        )?;
        let Some(d) = decode_doc(&raw, None) else {
            return Ok(None);
        };
        offsets.push(d.offset);
    }
    Ok(Some((offsets, open.header.coverage.covered)))
}

/// Reads what a query needs from an index file whose header still holds for its log, with the
/// number of log bytes it covers; `None` when it is missing, stale, or damaged.
fn read_partial(
    path: &Path,
    log: &Path,
    log_len: u64,
    stems: &[String],
) -> std::io::Result<Option<(QueryView, u64)>> {
    let Some(OpenIndex {
        mut file,
        header,
        body,
    }) = open_valid(path, log, log_len)?
    else {
        return Ok(None);
    };
    file.seek(SeekFrom::Start(body))?;
    let mut reader = BufReader::new(&mut file);
    let mut fixed = [0u8; 32];
    reader.read_exact(&mut fixed)?;
    let mut f = Fields(&fixed);
    let (n_docs, n_terms) = (f.u32().unwrap_or(0) as usize, f.u32().unwrap_or(0) as usize);
    let (_, ids_len, stems_len) = (
        f.u64().unwrap_or(0),
        f.u64().unwrap_or(0) as usize,
        f.u64().unwrap_or(0) as usize,
    );
    let read_n = |r: &mut BufReader<&mut File>, n: usize| -> std::io::Result<Vec<u8>> {
        let mut buf = vec![0u8; n];
        r.read_exact(&mut buf)?;
        Ok(buf)
    };
    let doc_bytes = read_n(&mut reader, n_docs * DOC_BYTES)?;
    // A listing needs no stems: skip the dictionary rather than read it.
    let (dict, ids, stem_blob) = if stems.is_empty() {
        reader.seek_relative((n_terms * DICT_BYTES) as i64)?;
        (Vec::new(), read_n(&mut reader, ids_len)?, Vec::new())
    } else {
        (
            read_n(&mut reader, n_terms * DICT_BYTES)?,
            read_n(&mut reader, ids_len)?,
            read_n(&mut reader, stems_len)?,
        )
    };
    let postings_start =
        body + 32 + (n_docs * DOC_BYTES + n_terms * DICT_BYTES + ids_len + stems_len) as u64;
    drop(reader);
    let entry = |i: usize| -> Option<(&[u8], u64, usize)> {
        let mut d = Fields(dict.get(i * DICT_BYTES..(i + 1) * DICT_BYTES)?);
        let (off, len) = (d.u32()? as usize, d.u16()? as usize);
        d.u16()?;
        Some((stem_blob.get(off..off + len)?, d.u64()?, d.u32()? as usize))
    };
    let mut postings = Vec::with_capacity(stems.len());
    for stem in stems {
        // The dictionary is sorted by stem bytes: binary search it in place.
        let (mut lo, mut hi) = (0, n_terms);
        let mut found = None;
        while lo < hi {
            let mid = (lo + hi) / 2;
            let Some((s, post_off, count)) = entry(mid) else {
                return Ok(None);
            };
            match s.cmp(stem.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    found = Some((post_off, count));
                    break;
                }
            }
        }
        let mut list = Vec::new();
        if let Some((post_off, count)) = found {
            file.seek(SeekFrom::Start(
                postings_start + post_off * POSTING_BYTES as u64,
            ))?;
            let mut raw = vec![0u8; count * POSTING_BYTES];
            file.read_exact(&mut raw)?;
            for c in raw.chunks_exact(POSTING_BYTES) {
                let mut p = Fields(c);
                match (p.u32(), p.f32()) {
                    (Some(doc), Some(tf)) if (doc as usize) < n_docs => list.push((doc, tf)),
                    _ => return Ok(None),
                }
            }
        }
        postings.push(list);
    }
    Ok(Some((
        QueryView {
            doc_bytes,
            ids,
            types: header.types,
            damaged: header.damaged > 0,
            postings,
        },
        header.coverage.covered,
    )))
}

/// Little-endian fields from a byte slice, in order.
struct Fields<'a>(&'a [u8]);

impl<'a> Fields<'a> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_at_checked(N)?;
        self.0 = rest;
        head.try_into().ok()
    }
    fn u16(&mut self) -> Option<u16> {
        self.take().map(u16::from_le_bytes)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }
    fn i64(&mut self) -> Option<i64> {
        self.take().map(i64::from_le_bytes)
    }
    fn f32(&mut self) -> Option<f32> {
        self.take().map(f32::from_le_bytes)
    }
    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }
}

/// Reads an index file; `Ok(None)` when it is missing or unreadable (it is then rebuilt).
fn read(path: &Path) -> std::io::Result<Option<(Header, MonthIndex)>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    Ok(parse(&bytes))
}

fn parse(bytes: &[u8]) -> Option<(Header, MonthIndex)> {
    let nl = bytes.iter().position(|&b| b == b'\n')?;
    let header: Header = serde_json::from_slice(&bytes[..nl]).ok()?;
    if header.format != FORMAT {
        return None;
    }
    let mut f = Fields(&bytes[nl + 1..]);
    let (n_docs, n_terms) = (f.u32()? as usize, f.u32()? as usize);
    let (_n_postings, ids_len, stems_len) = (f.u64()?, f.u64()? as usize, f.u64()? as usize);
    let doc_bytes = f.bytes(n_docs * DOC_BYTES)?;
    let mut dict = Vec::with_capacity(n_terms);
    for _ in 0..n_terms {
        let mut d = Fields(f.bytes(DICT_BYTES)?);
        let (off, len) = (d.u32()? as usize, d.u16()? as usize);
        d.u16()?;
        dict.push((off, len, d.u64()? as usize, d.u32()? as usize));
    }
    let ids = f.bytes(ids_len)?;
    let stems = f.bytes(stems_len)?;
    let postings_bytes = f.0;
    let mut index = MonthIndex {
        header_covered: header.coverage.covered,
        types: header.types.clone(),
        damaged: header.damaged,
        ..Default::default()
    };
    for raw in doc_bytes.chunks_exact(DOC_BYTES) {
        index.docs.push(decode_doc(raw, Some(ids))?);
    }
    for (off, len, post_off, count) in dict {
        let stem = std::str::from_utf8(stems.get(off..off + len)?)
            .ok()?
            .to_string();
        let raw =
            postings_bytes.get(post_off * POSTING_BYTES..(post_off + count) * POSTING_BYTES)?;
        let list = raw
            .chunks_exact(POSTING_BYTES)
            .map(|c| {
                let mut p = Fields(c);
                Some((p.u32()?, p.f32()?))
            })
            .collect::<Option<Vec<_>>>()?;
        if list.iter().any(|&(d, _)| d as usize >= index.docs.len()) {
            return None;
        }
        let slot = index.slot(&stem) as usize;
        index.lists[slot] = list;
    }
    Some((header, index))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn line(id: &str, title: &str) -> String {
        format!(
            "{{\"package\":{{\"package_id\":\"{id}\",\"title\":\"{title}\",\"status\":\"complete\",\"created_at\":\"2026-01-01T00:00:00Z\"}},\"hash\":\"sha256:00000000000000ff\"}}\n"
        )
    }

    #[test]
    fn builds_saves_extends_and_rebuilds() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("projects/p/packages/2026-01.ndjson");
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        std::fs::write(
            &log,
            line("a", "Leaking pool") + &line("b", "Cache settings"),
        )
        .unwrap();
        let cache = dir.path().join("cache");
        let idx = load_or_build(&cache, &log).unwrap();
        assert_eq!(idx.docs.len(), 2);
        assert_eq!(idx.postings("leak"), &[(0, 3.0)]);
        assert_eq!(idx.docs[1].hash_prefix, 0xff);
        assert!(index_path(&cache, &log).exists());
        // Read back from the cache, identical.
        let again = load_or_build(&cache, &log).unwrap();
        assert_eq!(again.docs, idx.docs);
        assert_eq!(again.postings("set"), idx.postings("set"));
        // The log grows (with a torn tail): only complete lines join.
        let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        f.write_all((line("c", "leak again") + "{\"torn").as_bytes())
            .unwrap();
        let grown = load_or_build(&cache, &log).unwrap();
        assert_eq!(grown.docs.len(), 3);
        assert_eq!(grown.postings("leak").len(), 2);
        // Rewritten under the index (a checkout): rebuilt from scratch.
        std::fs::write(&log, line("z", "Something else entirely")).unwrap();
        let rebuilt = load_or_build(&cache, &log).unwrap();
        assert_eq!(rebuilt.docs.len(), 1);
        assert!(rebuilt.postings("leak").is_empty());
        // A query reads only what it needs, and agrees with the full index.
        let view = query(&cache, &log, &["someth".to_string(), "nothing".to_string()]).unwrap();
        assert_eq!(view.doc_count(), 1);
        assert_eq!(view.postings, vec![vec![(0, 3.0)], vec![]]);
        assert_eq!(view.doc_id(0), Some("z"));
        assert_eq!(view.doc(0).unwrap().offset, 0);
        // A damaged index file is rebuilt, never trusted.
        std::fs::write(index_path(&cache, &log), b"{\"format\":1}\ngarbage").unwrap();
        assert_eq!(load_or_build(&cache, &log).unwrap().docs.len(), 1);
    }
}
