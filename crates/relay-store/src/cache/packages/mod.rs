//! The package index: a disposable inverted index per monthly package log, under
//! `cache/search-v5/` ([`super::PACKAGES`]). For each stem, the lines that hold it and its
//! weighted count; for each line, what listings and ranking need (id, version, hash prefix,
//! status, type, time, significance) and an id table for lookups by package id. It follows
//! its log by the coverage rule of [`super`]. The file format is in `file.rs`; the stems are
//! those of [`super::terms`], which search's queries use too.

mod behind;
mod by_id;
mod digest_check;
mod file;
mod kept_ranks;
mod record;
mod region;
mod slot_postings;
mod stem_table;

pub use behind::{rebuild_behind_reads, wait_for_rebuilds};
pub use by_id::{find_id, find_id_indexed};
pub use kept_ranks::keep_rank_tables_mapped;
pub use record::{DocRank, DocRecord};

use std::path::{Path, PathBuf};

use self::file::{
    DOC_BYTES, RANK_BYTES, decode_doc, encode_doc, encode_rank, open_valid, read, read_partial,
    write,
};
use self::region::Region;
use self::slot_postings::SlotPostings;
use self::stem_table::StemTable;
use super::PACKAGES;
use super::coverage::Coverage;
use super::lite::LiteLine;
use super::terms;
use super::witness::LogState;
use crate::log;
use relay_wire::{Status, time};

/// Package types get one byte in a document; this one means "more types than fit: read the
/// line".
pub const TYPE_OVERFLOW: u8 = u8::MAX;

/// Bytes of package log this process has indexed so far ([`bytes_indexed`]), counted a
/// megabyte at a time ([`INDEXED_STEP`]) so that two threads building indexes do not share a
/// cache line for every line.
static INDEXED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
const INDEXED_STEP: u64 = 1 << 20;

/// How many bytes of package logs this process has read into month indexes, across threads:
/// what a progress bar over a cold cache's rebuild follows.
pub fn bytes_indexed() -> u64 {
    INDEXED.load(std::sync::atomic::Ordering::Relaxed)
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

/// An index in memory: its documents, and postings by stem.
#[derive(Debug, Default)]
pub struct MonthIndex {
    pub(super) header_covered: u64,
    pub docs: Vec<Doc>,
    /// Package types by code.
    pub types: Vec<String>,
    /// Covered lines that are not package lines.
    pub damaged: u64,
    /// Stem → its slot in `postings`.
    terms: StemTable,
    /// Per stem slot, its postings, docs ascending.
    postings: SlotPostings,
    /// When set, postings are folded into it rather than kept in `postings`: verify's fresh
    /// build, which only compares ([`digest_check`]), and is never written or queried.
    digest: Option<digest_check::PostingDigest>,
    /// Scratch of [`MonthIndex::add_line`], kept between lines so that indexing a word
    /// allocates nothing: the word lowercased and stemmed, and the current line's counts by
    /// slot with the slots it touched.
    scratch: Scratch,
}

#[derive(Debug, Default)]
struct Scratch {
    word: String,
    slots: Vec<SlotScratch>,
    touched: Vec<u32>,
}

/// What indexing a line keeps of one stem slot, side by side so that a word touches one
/// cache line of it (a month of a large vocabulary has more slots than a core's cache holds):
/// the line's weighted count and places of the stem, and the stem's neighbour bit
/// ([`terms::neighbour_bit`]), hashed the first time the slot is met.
#[derive(Debug, Clone, Copy)]
struct SlotScratch {
    count: f32,
    places: terms::Places,
    bit: u8,
}

/// The neighbour bit of a slot not met yet (a bit is 0 to 7).
const UNHASHED: u8 = u8::MAX;

impl Default for SlotScratch {
    fn default() -> SlotScratch {
        SlotScratch {
            count: 0.0,
            places: 0,
            bit: UNHASHED,
        }
    }
}

/// One document of a stem's postings, as the index file stores it: its weighted count
/// saturated and rounded, and its places ([`terms::Places`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Posting {
    pub doc: u32,
    pub tf: u16,
    pub places: terms::Places,
}

impl Posting {
    pub(super) const EMPTY: Posting = Posting {
        doc: 0,
        tf: 0,
        places: 0,
    };

    /// The weighted count as reads rank with it: what the index file gives back.
    pub(super) fn weighted(&self) -> (u32, f32) {
        (self.doc, f32::from(self.tf))
    }
}

/// The first 64 bits of a `sha256:` hash, for ordering versions.
pub fn hash_prefix(hash: &str) -> u64 {
    let hex = hash.strip_prefix("sha256:").unwrap_or(hash);
    u64::from_str_radix(hex.get(..16).unwrap_or("0"), 16).unwrap_or(0)
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
        // The word before (its slot and neighbour bit): each marks the other in its places.
        let mut before: Option<(usize, u8)> = None;
        let mut scratch = std::mem::take(&mut self.scratch);
        for &(field, weight) in terms::FIELDS {
            for part in p.parts(field) {
                terms::for_each_word(part, |word| {
                    len += weight;
                    terms::lowercase_into(word, &mut scratch.word);
                    terms::stem_in_place(&mut scratch.word);
                    if scratch.word.len() > file::MAX_STEM_BYTES {
                        // Counted in the line's length, but not indexed: its length does not
                        // fit the dictionary. Nothing stands beside it.
                        before = None;
                        return;
                    }
                    let slot = self.slot(&scratch.word) as usize;
                    if slot >= scratch.slots.len() {
                        scratch.slots.resize(slot + 1, SlotScratch::default());
                    }
                    let here = &mut scratch.slots[slot];
                    if here.bit == UNHASHED {
                        here.bit = terms::neighbour_bit(&scratch.word);
                    }
                    if here.count == 0.0 {
                        scratch.touched.push(slot as u32);
                    }
                    here.count += weight;
                    let bit = here.bit;
                    if let Some((before_slot, before_bit)) = before {
                        here.places |= terms::preceded_by(before_bit);
                        scratch.slots[before_slot].places |= terms::followed_by(bit);
                    }
                    before = Some((slot, bit));
                });
            }
        }
        for &slot in &scratch.touched {
            let slot = slot as usize;
            // Saturated and rounded as the index file stores it ([`file::MAX_STORED_COUNT`]).
            let here = &mut scratch.slots[slot];
            let count = std::mem::take(&mut here.count);
            let posting = Posting {
                doc,
                tf: count.clamp(0.0, file::MAX_STORED_COUNT).round() as u16,
                places: std::mem::take(&mut here.places),
            };
            match &mut self.digest {
                Some(digest) => digest.add(slot, posting),
                None => self.postings.add(slot as u32, posting),
            }
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

    /// Indexes the complete lines of `log` from byte `from` on (up to byte `to`, a line end,
    /// when given); returns the new covered length.
    pub(super) fn add_from(
        &mut self,
        log: &Path,
        from: u64,
        to: Option<u64>,
    ) -> std::io::Result<u64> {
        // A torn last line is not covered yet: the read ends where it begins.
        let mut counted = from;
        let mut sink = log::Lines(|_, offset, text: &[u8]| {
            self.add_line(text, offset);
            if offset - counted >= INDEXED_STEP {
                INDEXED.fetch_add(offset - counted, std::sync::atomic::Ordering::Relaxed);
                counted = offset;
            }
            Ok::<_, std::io::Error>(true)
        });
        let reader = log::LogReader::new(log).from(from, 1);
        let reader = match to {
            Some(end) => reader.until(end),
            None => reader,
        };
        let end = reader.buffer(1 << 20).must_exist().read(&mut sink);
        // The lines read are put in slot order even when the read failed part way, so that
        // the index is never left half sorted.
        self.postings.finish();
        let end = end?;
        INDEXED.fetch_add(
            end.saturating_sub(counted),
            std::sync::atomic::Ordering::Relaxed,
        );
        Ok(end)
    }

    /// A stem's postings, none when the index does not hold it.
    fn list(&self, stem: &str) -> impl Iterator<Item = &Posting> {
        let slot = self.terms.get(stem);
        slot.into_iter().flat_map(|slot| self.postings_of(slot))
    }

    /// The documents holding `stem`, with its weighted count.
    pub fn postings(&self, stem: &str) -> Vec<(u32, f32)> {
        self.list(stem).map(Posting::weighted).collect()
    }

    /// The places of `stem` in each document of its [`MonthIndex::postings`].
    pub fn places(&self, stem: &str) -> Vec<terms::Places> {
        self.list(stem).map(|p| p.places).collect()
    }

    /// The postings of a query term: a stem's own, or for a prefix term ([`terms::prefix_of`])
    /// those of every stem it starts, merged.
    pub fn term_postings(&self, term: &str) -> Vec<(u32, f32)> {
        match terms::prefix_of(term) {
            None => self.postings(term),
            Some(prefix) => {
                let lists: Vec<Vec<(u32, f32)>> = (self.terms.iter())
                    .filter(|(stem, _)| stem.starts_with(prefix))
                    .map(|(_, slot)| self.postings_of(slot).map(Posting::weighted))
                    .map(Iterator::collect)
                    .collect();
                terms::merge_postings(lists.iter().map(Vec::as_slice))
            }
        }
    }

    /// The slot of `stem` in `postings`, made on first sight.
    fn slot(&mut self, stem: &str) -> u32 {
        let (slot, made) = self.terms.slot(stem);
        if made && let Some(digest) = &mut self.digest {
            digest.add_stem(stem);
        }
        slot
    }

    /// The postings of the stem in `slot`: none kept when they go to a digest.
    fn postings_of(&self, slot: u32) -> impl Iterator<Item = &Posting> + Clone {
        self.postings.of(slot)
    }

    /// Stems with their slots and how many postings each has, by stem.
    fn sorted_postings(&self) -> Vec<StemPostings<'_>> {
        debug_assert!(
            self.digest.is_none(),
            "an index built for a digest is not written"
        );
        let mut out: Vec<StemPostings<'_>> = (self.terms.iter())
            .map(|(stem, slot)| StemPostings {
                stem,
                slot,
                count: self.postings.count(slot),
            })
            .filter(|s| s.count > 0)
            .collect();
        out.sort_unstable_by(|a, b| a.stem.cmp(b.stem));
        out
    }
}

/// One stem's entry in an index: its slot ([`MonthIndex::postings_of`]) and how many
/// postings it has.
#[derive(Debug, PartialEq)]
struct StemPostings<'a> {
    stem: &'a str,
    slot: u32,
    count: usize,
}

/// Where the index of `log` lives: `cache/search-v5/<project folder>/<month>.idx`.
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
    PACKAGES
        .dir(cache_dir)
        .join(project)
        .join(format!("{month}.idx"))
}

/// The up-to-date index of `log`: read from the cache, extended by what the log gained, or
/// built again when the log changed under it. The result is saved back when it changed; a
/// cache that cannot be written is no error (the index is then only used this once).
pub fn load_or_build(cache_dir: &Path, log: &Path) -> std::io::Result<MonthIndex> {
    let state = LogState::observe(cache_dir, log)?;
    let path = index_path(cache_dir, log);
    let mut index = match read(&path) {
        Ok(Some((header, index))) if header.coverage.holds(log, &state)? => index,
        _ => MonthIndex::default(),
    };
    let before = index.header_covered;
    if before < state.len {
        index.header_covered = index.add_from(log, before, Some(state.len))?;
    }
    let new_file = !path.exists();
    if new_file {
        remove_old_formats(cache_dir);
    }
    if index.header_covered != before || new_file {
        let _ = write(
            &path,
            &Coverage::of(log, &state, index.header_covered),
            &index,
        );
    }
    Ok(index)
}

/// Removes the package indexes of the formats before this one (never read again: each format
/// has its own folder), when a new file is made: a million packages' are a few hundred MB.
fn remove_old_formats(cache_dir: &Path) {
    for format in 1..PACKAGES.format {
        let old = super::Index { format, ..PACKAGES };
        let _ = std::fs::remove_dir_all(old.dir(cache_dir));
    }
}

/// Checks the index of `log` against the bytes of the log it covers ([`super::Check`]).
pub fn check(cache_dir: &Path, log: &Path) -> std::io::Result<super::Check> {
    use super::Check;
    let path = index_path(cache_dir, log);
    let header = match file::read_header(&path)? {
        Some(Some(header)) => header,
        Some(None) => return Ok(Check::Stale("the file cannot be read".into())),
        None => return Ok(Check::Absent),
    };
    let state = LogState::observe(cache_dir, log)?;
    if !header.coverage.holds(log, &state)? {
        return Ok(Check::OutOfDate);
    }
    // Built afresh with its postings folded into a digest, not kept ([`digest_check`]).
    let mut fresh = MonthIndex {
        digest: Some(digest_check::PostingDigest::default()),
        ..MonthIndex::default()
    };
    let end = fresh.add_from(log, 0, Some(header.coverage.covered))?;
    // (Set above: an empty digest would only make the file stale.)
    let digest = fresh.digest.take().unwrap_or_default();
    // The file is compared with what writing the fresh index would give: the format is a
    // function of the index (its stems sorted), so equal content is equal bytes.
    let differs = if end != header.coverage.covered {
        Some("the lines it covers end elsewhere")
    } else if fresh.types != header.types || fresh.damaged != header.damaged {
        Some("its package types or damaged lines differ")
    } else if !digest_check::body_is(&path, &fresh, &digest)? {
        Some("its documents or postings are not the log's lines")
    } else {
        None
    };
    Ok(match differs {
        Some(why) => Check::Stale(why.into()),
        None => Check::Sound,
    })
}

/// Removes the index of `log` and builds it again.
pub fn rebuild(cache_dir: &Path, log: &Path) -> std::io::Result<()> {
    let path = index_path(cache_dir, log);
    match std::fs::remove_file(&path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    load_or_build(cache_dir, log).map(|_| ())
}

/// A query reads its documents' records ahead ([`QueryView::read_ahead_docs`]) when it needs
/// at most one per this many pages of the table: a read costs a system call per record (or
/// run of near records), a page touched through the map costs a fault that maps its
/// neighbours, and their unmapping.
const READ_AHEAD_PAGES: usize = 3;

/// What a query needs of one log's index: the document table (decoded on demand) and the
/// postings of the query's stems, read without loading the rest of the index.
#[derive(Debug, Default)]
pub struct QueryView {
    doc_bytes: Region,
    /// The rank table ([`DocRank`]), a 16-byte entry a document.
    ranks: Region,
    ids: Region,
    /// Package types by code.
    pub types: Vec<String>,
    /// Whether some lines are not package lines (see [`MonthIndex::damaged`]).
    pub damaged: bool,
    /// Per query stem, its postings.
    pub postings: Vec<Vec<(u32, f32)>>,
    /// Per query stem, its places in each document of its postings ([`terms::Places`]).
    pub places: Vec<Vec<terms::Places>>,
    /// The log as it stood when the view was read, every document of the view within it;
    /// `None` for a view not read from a log's index ([`scan`]), or read from a later state.
    origin: Option<ViewOrigin>,
}

/// A log as a view of it was read: what lets a process that keeps something derived from a
/// month's documents between reads (the ids of `relay serve`'s searches) tell whether the
/// log only grew since, so that its documents then are the first of its documents now.
#[derive(Debug, Clone)]
pub struct ViewOrigin(LogState);

impl ViewOrigin {
    /// Whether `log`, which this view was read from, begins with what `earlier` (a view of it
    /// read before) was read from: the log only grew in between. Reads only the bytes
    /// appended since; a log replaced (a checkout, a rebase) or cut does not.
    pub fn extends(&self, earlier: &ViewOrigin, log: &Path) -> bool {
        let (now, then) = (&self.0, &earlier.0);
        now.base == then.base && now.has_prefix(log, then.len, then.sum).unwrap_or(false)
    }
}

impl QueryView {
    /// Whether the view maps its index file, rather than holding a month's documents in
    /// memory (as it does when the index was built, or rebuilt, for this read).
    pub fn is_mapped(&self) -> bool {
        self.doc_bytes.is_mapped()
    }

    /// The log as it stood when this view was read ([`ViewOrigin`]).
    pub fn origin(&self) -> Option<&ViewOrigin> {
        self.origin.as_ref()
    }

    pub fn doc_count(&self) -> usize {
        self.doc_bytes.len() / DOC_BYTES
    }

    /// Document `i`, decoded, with an empty `id` (see [`QueryView::doc_id`]).
    pub fn doc(&self, i: u32) -> Option<Doc> {
        let start = i as usize * DOC_BYTES;
        decode_doc(self.doc_bytes.get(start..start + DOC_BYTES)?, None)
    }

    /// Document `i`'s record, read in place (see [`DocRecord`]).
    #[inline]
    pub fn record(&self, i: u32) -> Option<DocRecord<'_>> {
        let start = i as usize * DOC_BYTES;
        DocRecord::of(self.doc_bytes.get(start..start + DOC_BYTES)?)
    }

    /// Document `i`'s entry of the rank table (see [`DocRank`]).
    #[inline]
    pub fn rank(&self, i: u32) -> Option<DocRank<'_>> {
        let start = i as usize * RANK_BYTES;
        DocRank::of(self.ranks.get(start..start + RANK_BYTES)?)
    }

    /// The package id of document `i`, without copying it.
    pub fn doc_id(&self, i: u32) -> Option<&str> {
        let start = i as usize * DOC_BYTES;
        let raw = self.doc_bytes.get(start + 32..start + 38)?;
        let off = u32::from_le_bytes(raw[..4].try_into().ok()?) as usize;
        let len = u16::from_le_bytes(raw[4..6].try_into().ok()?) as usize;
        std::str::from_utf8(self.ids.get(off..off + len)?).ok()
    }

    /// The `created_at` of document `i`, in microseconds, from its record alone.
    pub fn doc_created(&self, i: u32) -> Option<i64> {
        let at = i as usize * DOC_BYTES + file::DOC_CREATED_AT;
        let raw = self.doc_bytes.get(at..at + 8)?;
        Some(i64::from_le_bytes(raw.try_into().ok()?))
    }

    /// The id key ([`crate::cache::id_key`]) of document `i`'s package, from its record.
    pub fn doc_key(&self, i: u32) -> Option<u64> {
        let at = i as usize * DOC_BYTES + file::DOC_KEY_AT;
        let raw = self.doc_bytes.get(at..at + 8)?;
        Some(u64::from_le_bytes(raw.try_into().ok()?))
    }

    /// Reads the records of `docs` (ascending) and of the document after each ahead from the
    /// index file when they are few beside the size of the table (under one per
    /// [`READ_AHEAD_PAGES`] pages of it); otherwise, or for an index in memory, leaves them to
    /// be read where they are. [`QueryView::doc`] and [`QueryView::doc_key`] answer the same
    /// either way.
    pub fn read_ahead_docs(&mut self, docs: &[u32]) {
        let pages = self.doc_bytes.len() / 4096;
        if docs.len().saturating_mul(READ_AHEAD_PAGES) > pages {
            return;
        }
        (self.doc_bytes).read_ahead(docs.iter().map(|&d| {
            let start = d as usize * DOC_BYTES;
            start..start + 2 * DOC_BYTES
        }));
    }

    /// The package type of document `i`, when the type table holds it.
    pub fn doc_type(&self, d: &Doc) -> Option<&str> {
        self.types.get(usize::from(d.type_code)).map(String::as_str)
    }

    fn from_index(index: &MonthIndex, stems: &[String]) -> QueryView {
        let mut view = QueryView {
            postings: vec![Vec::new(); stems.len()],
            places: vec![Vec::new(); stems.len()],
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
            // Its type recoded into this view's table; the document itself is not copied (a
            // clone of each id showed in the profile of a fresh clone's first search).
            let type_code = match more.types.get(usize::from(d.type_code)) {
                Some(name) => match self.types.iter().position(|t| t == name) {
                    Some(i) => i as u8,
                    None if self.types.len() < usize::from(TYPE_OVERFLOW) => {
                        self.types.push(name.clone());
                        (self.types.len() - 1) as u8
                    }
                    None => TYPE_OVERFLOW,
                },
                None => d.type_code,
            };
            encode_doc(
                self.doc_bytes.appended(),
                d,
                self.ids.len() as u32,
                type_code,
            );
            encode_rank(self.ranks.appended(), d);
            self.ids.appended().extend(d.id.as_bytes());
        }
        for ((list, places), stem) in self.postings.iter_mut().zip(&mut self.places).zip(stems) {
            let added = more.term_postings(stem);
            list.extend(added.iter().map(|&(doc, tf)| (doc + first, tf)));
            // A prefix term's places are not kept (phrases hold no prefix words).
            match terms::prefix_of(stem) {
                None => places.extend(more.places(stem)),
                Some(_) => places.resize(places.len() + added.len(), terms::ANY_PLACE),
            }
        }
    }
}

/// The index of `log` as far as a query for `stems` needs it. A valid index that covers the
/// whole log is read in part (header, documents, dictionary, and the postings of `stems`);
/// otherwise the index is brought up to date first.
///
/// An index that covers all but the last few lines of a grown log ([`super::Index::tail_limit`]) is used as
/// it is, and those lines are indexed in memory: a deposit does not cost the next read a
/// rewrite of the month's index. A longer tail is folded into the index, which is saved, so
/// that later reads do not parse it again; in a process that rebuilds behind its reads
/// ([`rebuild_behind_reads`]), a thread does that while this read indexes the tail itself.
pub fn query(cache_dir: &Path, log: &Path, stems: &[String]) -> std::io::Result<QueryView> {
    let state = LogState::observe(cache_dir, log)?;
    let path = index_path(cache_dir, log);
    if let Ok(Some((mut view, covered))) = read_partial(&path, log, &state, stems)
        && behind::tail_usable(cache_dir, log, state.len - covered)
    {
        // The tail as far as the log was observed, so that the view is of that state.
        if covered < state.len {
            let mut tail = MonthIndex::default();
            tail.add_from(log, covered, Some(state.len))?;
            view.extend(&tail, stems);
        }
        view.origin = Some(ViewOrigin(state));
        return Ok(view);
    }
    let index = load_or_build(cache_dir, log)?;
    let mut view = QueryView::from_index(&index, stems);
    // An index built from a later state (the log grew since it was observed here) holds lines
    // that state does not vouch for: the view then has no origin.
    view.origin = (index.header_covered <= state.len).then_some(ViewOrigin(state));
    Ok(view)
}

/// The documents of `log`, indexed in memory and not saved: for a store that keeps no
/// `cache/` (`search_index = false`).
pub fn scan(log: &Path) -> std::io::Result<QueryView> {
    let mut index = MonthIndex::default();
    index.add_from(log, 0, None)?;
    Ok(QueryView::from_index(&index, &[]))
}

/// Whether the index of `log` can be used as it is (it may lag a grown log by a little; in a
/// process that rebuilds behind its reads, a lag past the reads' limit starts the rebuild).
pub fn is_warm(cache_dir: &Path, log: &Path) -> bool {
    let Ok(state) = LogState::observe(cache_dir, log) else {
        return false;
    };
    matches!(
        open_valid(&index_path(cache_dir, log), log, &state),
        Ok(Some(open)) if behind::tail_usable(cache_dir, log, state.len - open.header.coverage.covered)
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
    super::on_two_threads(&cold, |log| load_or_build(cache_dir, log).map(drop))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests;
