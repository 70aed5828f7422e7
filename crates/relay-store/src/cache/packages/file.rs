//! The package index's file: a JSON header line ([`Header`]: format, coverage, type table,
//! damaged lines), then little-endian tables: counts, one fixed record per document, the stem
//! dictionary, the ids, the stems, the postings (document, weighted count, places), and last
//! the id table sorted by [`crate::cache::id_key`]. Queries and id lookups read the parts
//! they need in place.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::region::Region;
use super::{Doc, MonthIndex, Posting, QueryView, StemPostings};
use crate::cache::PACKAGES;
use crate::cache::coverage::Coverage;
use crate::cache::id_key;
use crate::cache::terms;
use crate::cache::witness::LogState;
use relay_wire::Status;

const FORMAT: u32 = PACKAGES.format;
pub(super) const DOC_BYTES: usize = 49;
/// Where in a document record its id key ([`id_key`]) lies: a query tells a package's
/// versions apart by it without reading the id itself.
pub(super) const DOC_KEY_AT: usize = 41;
/// Where in a document record its `created_at` (microseconds) lies.
pub(super) const DOC_CREATED_AT: usize = 8;
pub(super) const DICT_BYTES: usize = 20;
/// The longest stem the index holds: the dictionary gives a stem's length in 16 bits. A longer
/// run of letters and digits (a hex dump, say) is left out of the index.
pub(super) const MAX_STEM_BYTES: usize = u16::MAX as usize;
/// One posting: the document (u32), the stem's weighted count in it (u16: the field weights
/// are whole numbers) and its places ([`terms::Places`], u16).
pub(super) const POSTING_BYTES: usize = 8;
/// The greatest weighted count a posting holds; a greater one is stored as this (BM25 has long
/// saturated by then), and the index built in memory saturates alike, so both rank the same.
pub(super) const MAX_STORED_COUNT: f32 = u16::MAX as f32;
/// One entry of the id table: a 64-bit key of the package id, and the document.
const ID_ENTRY_BYTES: usize = 12;
/// One entry of the rank table: what ranking reads of every document of a broad query (its id
/// key, weighted length, significance and status), apart from the document table so that a
/// pass over a common word's documents reads 16 bytes of each, not 49
/// ([`super::record::DocRank`]).
pub(super) const RANK_BYTES: usize = 16;

/// What an index says about its log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Header {
    format: u32,
    #[serde(flatten)]
    pub(super) coverage: Coverage,
    /// The package types of the documents, by code.
    #[serde(default)]
    pub(super) types: Vec<String>,
    /// Lines of the covered bytes that are not package lines: readers that use the index must
    /// still report them, so they read such a log in full.
    #[serde(default)]
    pub(super) damaged: u64,
}

fn status_code(s: Status) -> u8 {
    match s {
        Status::Draft => 0,
        Status::Complete => 1,
        Status::AwaitingReview => 2,
        Status::RevisionRequested => 3,
    }
}

pub(super) fn status_of(code: u8) -> Status {
    match code {
        0 => Status::Draft,
        2 => Status::AwaitingReview,
        3 => Status::RevisionRequested,
        _ => Status::Complete,
    }
}

pub(super) fn write(path: &Path, coverage: &Coverage, index: &MonthIndex) -> std::io::Result<()> {
    let header = Header {
        format: FORMAT,
        coverage: coverage.clone(),
        types: index.types.clone(),
        damaged: index.damaged,
    };
    let stems = index.sorted_postings();
    let header = serde_json::to_vec(&header).map_err(std::io::Error::other)?;
    // Written as it is produced: a busy month's index is megabytes, and two are built at once.
    crate::log::write_atomic_with(path, |out| {
        out.write_all(&header)?;
        out.write_all(b"\n")?;
        write_body(out, index, &stems)
    })
    .map_err(|e| std::io::Error::other(e.to_string()))
}

/// The header of the index file at `path`: `None` when there is no file, `Some(None)` when its
/// header cannot be read or is of another format.
pub(super) fn read_header(path: &Path) -> std::io::Result<Option<Option<Header>>> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut line = Vec::new();
    BufReader::with_capacity(1024, file)
        .take(64 << 10)
        .read_until(b'\n', &mut line)?;
    Ok(Some(
        serde_json::from_slice::<Header>(&line)
            .ok()
            .filter(|h| h.format == FORMAT),
    ))
}

/// The fixed counts that open an index file's body: they size its tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Counts {
    pub(super) docs: u32,
    pub(super) stems: u32,
    pub(super) postings: u64,
    pub(super) ids_len: u64,
    pub(super) stems_len: u64,
}

/// One entry of the stem dictionary ([`DICT_BYTES`]): where its stem lies among the stems,
/// two bytes of padding (0), and where its postings lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DictEntry {
    pub(super) stem_off: u32,
    pub(super) stem_len: u16,
    pub(super) pad: u16,
    pub(super) post_off: u64,
    pub(super) postings: u32,
}

impl DictEntry {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend(self.stem_off.to_le_bytes());
        out.extend(self.stem_len.to_le_bytes());
        out.extend(self.pad.to_le_bytes());
        out.extend(self.post_off.to_le_bytes());
        out.extend(self.postings.to_le_bytes());
    }

    pub(super) fn decode(raw: &[u8]) -> Option<DictEntry> {
        let mut d = Fields(raw);
        Some(DictEntry {
            stem_off: d.u32()?,
            stem_len: d.u16()?,
            pad: d.u16()?,
            post_off: d.u64()?,
            postings: d.u32()?,
        })
    }
}

fn write_body(
    out: &mut dyn std::io::Write,
    index: &MonthIndex,
    stems: &[StemPostings],
) -> std::io::Result<()> {
    let counts = Counts {
        docs: index.docs.len() as u32,
        stems: stems.len() as u32,
        postings: stems.iter().map(|s| s.count as u64).sum(),
        ids_len: index.docs.iter().map(|d| d.id.len() as u64).sum(),
        stems_len: stems.iter().map(|s| s.stem.len() as u64).sum(),
    };
    // Put together in a buffer and handed on a block at a time: a write per field (two to
    // eight bytes, through `dyn Write`) was a tenth of verify's time on a prose corpus.
    let mut buf = Blocks::new(out);
    put_counts(&mut buf, counts)?;
    put_docs(&mut buf, &index.docs)?;
    let (mut stem_off, mut post_off) = (0u32, 0u64);
    for s in stems {
        let count = s.count;
        let entry = DictEntry {
            stem_off,
            stem_len: s.stem.len() as u16,
            pad: 0,
            post_off,
            postings: count as u32,
        };
        entry.encode(&mut buf.bytes);
        buf.spill()?;
        stem_off += s.stem.len() as u32;
        post_off += count as u64;
    }
    put_ids(&mut buf, &index.docs)?;
    for s in stems {
        buf.put(s.stem.as_bytes())?;
    }
    for s in stems {
        for p in index.postings_of(s.slot) {
            buf.bytes.extend(p.doc.to_le_bytes());
            buf.bytes.extend(p.tf.to_le_bytes());
            buf.bytes.extend(p.places.to_le_bytes());
        }
        buf.spill()?;
    }
    put_ranks_and_id_table(&mut buf, &index.docs)?;
    buf.finish()
}

/// The body's fixed counts.
pub(super) fn put_counts(buf: &mut Blocks<'_>, counts: Counts) -> std::io::Result<()> {
    buf.put(&counts.docs.to_le_bytes())?;
    buf.put(&counts.stems.to_le_bytes())?;
    buf.put(&counts.postings.to_le_bytes())?;
    buf.put(&counts.ids_len.to_le_bytes())?;
    buf.put(&counts.stems_len.to_le_bytes())
}

/// The document table: a record each ([`encode_doc`]).
pub(super) fn put_docs(buf: &mut Blocks<'_>, docs: &[Doc]) -> std::io::Result<()> {
    let mut id_off = 0u32;
    for d in docs {
        encode_doc(&mut buf.bytes, d, id_off, d.type_code);
        buf.spill()?;
        id_off += d.id.len() as u32;
    }
    Ok(())
}

/// The documents' ids, end to end.
pub(super) fn put_ids(buf: &mut Blocks<'_>, docs: &[Doc]) -> std::io::Result<()> {
    for d in docs {
        buf.put(d.id.as_bytes())?;
    }
    Ok(())
}

/// The last two tables: the rank table ([`encode_rank`]), then the id table sorted by key
/// (a lookup reads a few entries of it in place).
pub(super) fn put_ranks_and_id_table(buf: &mut Blocks<'_>, docs: &[Doc]) -> std::io::Result<()> {
    for d in docs {
        encode_rank(&mut buf.bytes, d);
        buf.spill()?;
    }
    let mut keys: Vec<(u64, u32)> = (docs.iter().enumerate())
        .map(|(i, d)| (id_key(&d.id), i as u32))
        .collect();
    keys.sort_unstable();
    for (key, doc) in keys {
        buf.bytes.extend(key.to_le_bytes());
        buf.bytes.extend(doc.to_le_bytes());
        buf.spill()?;
    }
    Ok(())
}

/// Bytes gathered and written on in blocks of about [`BLOCK`].
pub(super) struct Blocks<'a> {
    out: &'a mut dyn std::io::Write,
    bytes: Vec<u8>,
}

const BLOCK: usize = 1 << 16;

impl<'a> Blocks<'a> {
    pub(super) fn new(out: &'a mut dyn std::io::Write) -> Blocks<'a> {
        Blocks {
            out,
            bytes: Vec::with_capacity(BLOCK + 4096),
        }
    }

    fn put(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.bytes.extend_from_slice(b);
        self.spill()
    }

    /// Writes what was gathered once it makes a block.
    fn spill(&mut self) -> std::io::Result<()> {
        if self.bytes.len() >= BLOCK {
            self.out.write_all(&self.bytes)?;
            self.bytes.clear();
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> std::io::Result<()> {
        self.out.write_all(&self.bytes)?;
        self.bytes.clear();
        Ok(())
    }
}

/// The record of `d` ([`DOC_BYTES`]), its id at `id_off` of the ids and its type coded
/// `type_code` (a view that gathers documents from several indexes has a type table of its
/// own).
pub(super) fn encode_doc(out: &mut Vec<u8>, d: &Doc, id_off: u32, type_code: u8) {
    out.extend(d.offset.to_le_bytes());
    out.extend(d.created_micros.to_le_bytes());
    out.extend(d.len.to_le_bytes());
    out.extend(d.version.to_le_bytes());
    out.extend(d.hash_prefix.to_le_bytes());
    out.extend(id_off.to_le_bytes());
    out.extend((d.id.len() as u16).to_le_bytes());
    out.push(d.significance as u8);
    out.push(status_code(d.status));
    out.push(type_code);
    out.extend(id_key(&d.id).to_le_bytes());
}

/// The rank table's entry of `d` ([`RANK_BYTES`]).
pub(super) fn encode_rank(out: &mut Vec<u8>, d: &Doc) {
    out.extend(id_key(&d.id).to_le_bytes());
    out.extend(d.len.to_le_bytes());
    out.push(d.significance as u8);
    out.push(status_code(d.status));
    out.extend([0u8; 2]);
}

/// Decodes a document record; its id too when `ids` is given.
pub(super) fn decode_doc(raw: &[u8], ids: Option<&[u8]>) -> Option<Doc> {
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

/// An open index file whose header still holds for its log.
pub(super) struct OpenIndex {
    file: File,
    pub(super) header: Header,
    /// Where the fixed counts start (after the header line).
    body: u64,
}

pub(super) fn open_valid(
    path: &Path,
    log: &Path,
    state: &LogState,
) -> std::io::Result<Option<OpenIndex>> {
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
    if header.format != FORMAT || !header.coverage.holds(log, state)? {
        return Ok(None);
    }
    Ok(Some(OpenIndex {
        file,
        header,
        body: line.len() as u64,
    }))
}

/// Entries of the id table an id lookup reads in one piece once its bisection has narrowed
/// to them (6 KiB): a deposit that gives its id looks it up in every month.
const ID_WINDOW_ENTRIES: u64 = 512;

/// Binary search of the id table in place, with positioned reads: by single entries until
/// [`ID_WINDOW_ENTRIES`] remain, then those in one read. `None` when the file is damaged.
pub(super) fn lookup_id(open: OpenIndex, id: &str) -> std::io::Result<Option<(Vec<u64>, u64)>> {
    use std::os::unix::fs::FileExt;
    let file = &open.file;
    let mut fixed = [0u8; 32];
    file.read_exact_at(&mut fixed, open.body)?;
    let mut counts = Fields(&fixed);
    let (Some(n_docs), Some(n_terms), Some(n_postings), Some(ids_len), Some(stems_len)) = (
        counts.u32().map(u64::from),
        counts.u32().map(u64::from),
        counts.u64(),
        counts.u64(),
        counts.u64(),
    ) else {
        return Ok(None);
    };
    // A file of another length than its counts give is damaged (or two writes mixed): its
    // id table is not where the counts put it, and a lookup there could miss a package.
    let tables = [
        n_docs.checked_mul(DOC_BYTES as u64),
        n_terms.checked_mul(DICT_BYTES as u64),
        Some(ids_len),
        Some(stems_len),
        n_postings.checked_mul(POSTING_BYTES as u64),
        n_docs.checked_mul(RANK_BYTES as u64),
        n_docs.checked_mul(ID_ENTRY_BYTES as u64),
    ];
    let expected = (tables.iter()).try_fold(open.body + 32, |at, len| at.checked_add((*len)?));
    let file_len = file.metadata()?.len();
    if expected != Some(file_len) {
        return Ok(None);
    }
    let table = file_len - n_docs * ID_ENTRY_BYTES as u64;
    let key = id_key(id);
    // Entries `range` of the table, as (key, doc).
    let entries = |range: Range<u64>| -> std::io::Result<Vec<(u64, u32)>> {
        let mut raw = vec![0u8; (range.end - range.start) as usize * ID_ENTRY_BYTES];
        file.read_exact_at(&mut raw, table + range.start * ID_ENTRY_BYTES as u64)?;
        Ok((raw.chunks_exact(ID_ENTRY_BYTES))
            .map(|e| {
                let mut f = Fields(e);
                (f.u64().unwrap_or(0), f.u32().unwrap_or(0))
            })
            .collect())
    };
    let (mut lo, mut hi) = (0, n_docs);
    while hi - lo > ID_WINDOW_ENTRIES {
        let mid = (lo + hi) / 2;
        if entries(mid..mid + 1)?[0].0 < key {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    // The key's entries start in lo..hi and may run on past it.
    let mut docs = Vec::new();
    let mut window = lo..hi.max(lo);
    loop {
        let read = entries(window.clone())?;
        let mut past = false;
        for (k, doc) in read {
            if k > key {
                past = true;
                break;
            }
            if k == key {
                docs.push(doc);
            }
        }
        if past || window.end >= n_docs {
            break;
        }
        window = window.end..(window.end + ID_WINDOW_ENTRIES).min(n_docs);
    }
    let mut offsets = Vec::with_capacity(docs.len());
    for doc in docs {
        if u64::from(doc) >= n_docs {
            return Ok(None);
        }
        let mut raw = [0u8; DOC_BYTES];
        file.read_exact_at(&mut raw, open.body + 32 + u64::from(doc) * DOC_BYTES as u64)?;
        let Some(d) = decode_doc(&raw, None) else {
            return Ok(None);
        };
        offsets.push(d.offset);
    }
    Ok(Some((offsets, open.header.coverage.covered)))
}

/// What a query needs from an index file whose header still holds for its log, with the
/// number of log bytes it covers; `None` when it is missing, stale, or damaged. The file is
/// mapped, not read: the query touches the dictionary's binary-search path, its stems'
/// postings, and the documents it then looks at, so a rare word costs a few pages of a month
/// rather than its whole document table and dictionary.
pub(super) fn read_partial(
    path: &Path,
    log: &Path,
    state: &LogState,
    stems: &[String],
) -> std::io::Result<Option<(QueryView, u64)>> {
    let Some(OpenIndex { file, header, body }) = open_valid(path, log, state)? else {
        return Ok(None);
    };
    // SAFETY: relay replaces index files by rename (each write through a temporary file of
    // its own) and never writes one in place, so the mapped bytes do not change under the
    // map; every table's bounds are checked against the map's length before it is used, so a
    // file cut short before it is opened is read as damaged. (A tool truncating an index
    // file in place while a search has it mapped would end that search with SIGBUS: the
    // cache is relay's, and nothing else writes it.)
    let map = Arc::new(unsafe { memmap2::Mmap::map(&file) }?);
    let file = Arc::new(file);
    let Some(tables) = Tables::locate(&map, body as usize) else {
        return Ok(None);
    };
    let dict = &map[tables.dict.clone()];
    let stem_blob = &map[tables.stems.clone()];
    let postings_bytes = &map[tables.postings.clone()];
    let entry = |i: usize| -> Option<(&[u8], usize, usize)> {
        let e = DictEntry::decode(dict.get(i * DICT_BYTES..(i + 1) * DICT_BYTES)?)?;
        let off = e.stem_off as usize;
        Some((
            stem_blob.get(off..off + usize::from(e.stem_len))?,
            e.post_off as usize,
            e.postings as usize,
        ))
    };
    // The first entry whose stem is not below `key` (the dictionary is sorted by stem bytes:
    // binary search it in place); `None` when the dictionary is damaged.
    let lower_bound = |key: &[u8]| -> Option<usize> {
        let (mut lo, mut hi) = (0, tables.n_terms);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if entry(mid)?.0 < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Some(lo)
    };
    // The postings of one dictionary entry, each checked to name a document of the index.
    let list_of = |post_off: usize, count: usize| -> Option<Postings> {
        let start = post_off.checked_mul(POSTING_BYTES)?;
        let end = post_off.checked_add(count)?.checked_mul(POSTING_BYTES)?;
        decode_postings(postings_bytes.get(start..end)?, tables.n_docs)
    };
    let (mut postings, mut places) = (Vec::with_capacity(stems.len()), Vec::new());
    for term in stems {
        let prefix = terms::prefix_of(term);
        let key = prefix.unwrap_or(term).as_bytes();
        let Some(first) = lower_bound(key) else {
            return Ok(None);
        };
        let mut lists = Vec::new();
        for i in first..tables.n_terms {
            let Some((s, post_off, count)) = entry(i) else {
                return Ok(None);
            };
            let wanted = match prefix {
                Some(_) => s.starts_with(key),
                None => s == key,
            };
            if !wanted {
                break;
            }
            let Some(list) = list_of(post_off, count) else {
                return Ok(None);
            };
            lists.push(list);
        }
        let (list, at) = match (prefix, lists.len()) {
            (_, 0) => Default::default(),
            (None, _) => lists.pop().unwrap_or_default(),
            // A prefix term's stems, merged; its places are not kept (phrases hold no prefix
            // words), as in memory ([`super::QueryView::extend`]).
            (Some(_), _) => {
                let merged = terms::merge_postings(lists.iter().map(|(l, _)| l.as_slice()));
                let any = vec![terms::ANY_PLACE; merged.len()];
                (merged, any)
            }
        };
        postings.push(list);
        places.push(at);
    }
    Ok(Some((
        QueryView {
            doc_bytes: Region::mapped(map.clone(), file.clone(), tables.docs),
            ranks: super::kept_ranks::rank_table(path, &file, tables.ranks.clone())
                .unwrap_or_else(|| Region::mapped(map.clone(), file.clone(), tables.ranks)),
            ids: Region::mapped(map, file, tables.ids),
            types: header.types,
            damaged: header.damaged > 0,
            postings,
            places,
            origin: None,
        },
        header.coverage.covered,
    )))
}

/// A posting list: per document its weighted count, and beside it the stem's places there.
type Postings = (Vec<(u32, f32)>, Vec<terms::Places>);

/// Decodes a run of postings as a query reads them; `None` when one names no document below
/// `n_docs`.
fn decode_postings(raw: &[u8], n_docs: usize) -> Option<Postings> {
    let (mut list, mut places) = (Vec::new(), Vec::new());
    list.reserve_exact(raw.len() / POSTING_BYTES);
    places.reserve_exact(raw.len() / POSTING_BYTES);
    each_posting(raw, n_docs, |p| {
        list.push(p.weighted());
        places.push(p.places);
    })?;
    Some((list, places))
}

/// Calls `each` with every posting of a run; `None` when one names no document below `n_docs`.
pub(super) fn each_posting(raw: &[u8], n_docs: usize, mut each: impl FnMut(Posting)) -> Option<()> {
    for c in raw.chunks_exact(POSTING_BYTES) {
        let mut p = Fields(c);
        let (doc, tf, places) = (p.u32()?, p.u16()?, p.u16()?);
        if doc as usize >= n_docs {
            return None;
        }
        each(Posting { doc, tf, places });
    }
    Some(())
}

/// Where the tables of an index file lie in it, each range checked to be inside the file.
struct Tables {
    n_docs: usize,
    n_terms: usize,
    docs: Range<usize>,
    dict: Range<usize>,
    ids: Range<usize>,
    stems: Range<usize>,
    postings: Range<usize>,
    ranks: Range<usize>,
}

impl Tables {
    /// The tables of `bytes`, whose body (the fixed counts) starts at `body`.
    fn locate(bytes: &[u8], body: usize) -> Option<Tables> {
        let mut f = Fields(bytes.get(body..body.checked_add(32)?)?);
        let (n_docs, n_terms) = (f.u32()? as usize, f.u32()? as usize);
        let (n_postings, ids_len, stems_len) =
            (f.u64()? as usize, f.u64()? as usize, f.u64()? as usize);
        let mut at = body + 32;
        let mut next = |len: usize| -> Option<Range<usize>> {
            let end = at.checked_add(len)?;
            (end <= bytes.len()).then_some(())?;
            let range = at..end;
            at = end;
            Some(range)
        };
        let tables = Tables {
            n_docs,
            n_terms,
            docs: next(n_docs.checked_mul(DOC_BYTES)?)?,
            dict: next(n_terms.checked_mul(DICT_BYTES)?)?,
            ids: next(ids_len)?,
            stems: next(stems_len)?,
            postings: next(n_postings.checked_mul(POSTING_BYTES)?)?,
            ranks: next(n_docs.checked_mul(RANK_BYTES)?)?,
        };
        // The id table closes the file: a file of another length is damaged.
        let id_table = n_docs.checked_mul(ID_ENTRY_BYTES)?;
        (tables.ranks.end.checked_add(id_table)? == bytes.len()).then_some(tables)
    }
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
pub(super) fn read(path: &Path) -> std::io::Result<Option<(Header, MonthIndex)>> {
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
    // (Sized by the bytes there are, not by a count a damaged file may give.)
    let mut dict = Vec::with_capacity(n_terms.min(f.0.len() / DICT_BYTES));
    for _ in 0..n_terms {
        let e = DictEntry::decode(f.bytes(DICT_BYTES)?)?;
        dict.push((
            e.stem_off as usize,
            usize::from(e.stem_len),
            e.post_off as usize,
            e.postings as usize,
        ));
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
    let n_docs = index.docs.len();
    (index.postings).reserve_sealed(postings_bytes.len() / POSTING_BYTES, dict.len());
    for (off, len, post_off, count) in dict {
        let stem = std::str::from_utf8(stems.get(off..off.checked_add(len)?)?)
            .ok()?
            .to_string();
        let from = post_off.checked_mul(POSTING_BYTES)?;
        let to = post_off.checked_add(count)?.checked_mul(POSTING_BYTES)?;
        let raw = postings_bytes.get(from..to)?;
        // The same stem twice is a damaged file: its slot would not be the next one.
        let (slot, made) = index.terms.slot(&stem);
        if !made {
            return None;
        }
        index.postings.push_sealed_slot(slot, |list| {
            let start = list.len();
            each_posting(raw, n_docs, |p| list.push(p))?;
            // Documents ascending, as a build gives them.
            list[start..]
                .is_sorted_by(|a, b| a.doc < b.doc)
                .then_some(())
        })?;
    }
    Some((header, index))
}
