//! Relevant pull (§8.2 `mode: relevant`): scan the package logs for the query's stems, read
//! only the candidate lines (and only the fields ranking needs), rank them with BM25, and
//! return the best. A package with several versions counts once, as its current version.
//! Per candidate a few numbers are kept, so memory follows the matches, not the store; the
//! winners are read again in full and checked against their hashes before they are returned.

pub use crate::search::query::is_stopword;
use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::{Path, PathBuf};

use crate::search::filter::{Filter, visible_to};
use crate::search::fuse::Mode;
use crate::search::phrase_filter::PhraseFilter;
use crate::search::{Query, parse, rank, scan};
use relay_store::Store;
use relay_store::cache::lite::LiteLine;
use relay_store::cache::packages::{QueryView, hash_prefix};
use relay_store::cache::terms::{ANY_PLACE, Places, may_stand_in_order};
use relay_store::cache::{Indexes, KeyHashing, id_key};
use relay_store::packages::{StoredPackage, VersionKey};
use relay_wire::error::Result;
use relay_wire::{Status, time};

/// One result.
#[derive(Debug, Clone)]
pub struct Ranked {
    pub stored: StoredPackage,
    pub score: f64,
    /// The fields that hold query terms.
    pub matched: Vec<&'static str>,
    pub query: Query,
    /// How semantic and hybrid search ranked it; `None` for keyword search.
    pub explain: Option<Explain>,
}

/// Why a package ranked where it did in a semantic or hybrid search.
#[derive(Debug, Clone, PartialEq)]
pub struct Explain {
    pub mode: Mode,
    /// Its place in the keyword (BM25) list, 1-based, if it is in it.
    pub keyword_rank: Option<usize>,
    /// Its place in the vector list, if it is in it.
    pub semantic_rank: Option<usize>,
    /// The cosine similarity of its vector with the query's.
    pub similarity: Option<f32>,
}

impl Ranked {
    /// The result as `relay search --json` prints it: `{"package", "score", "matched"}`, the
    /// stored package exactly as stored (its own members, a `score` or `matched` among them,
    /// untouched) beside the ranking's score and the fields that matched.
    pub fn to_value(&self) -> serde_json::Value {
        let mut v = serde_json::json!({ "package": self.stored.package.to_value() });
        self.add_ranking(&mut v);
        v
    }

    /// How it ranked, named by its id: `{"package_id", "score", "matched"}` (with the modes'
    /// explanation), for an answer whose `packages` are wire packages only (HTTP's relevant
    /// pull: `x-ranking` beside `packages`, in the same order).
    pub fn ranking(&self) -> serde_json::Value {
        let mut v = serde_json::json!({ "package_id": self.stored.package.id() });
        self.add_ranking(&mut v);
        v
    }

    fn add_ranking(&self, v: &mut serde_json::Value) {
        v["score"] = self.score.into();
        v["matched"] = self.matched.clone().into();
        if let Some(e) = &self.explain {
            v["mode"] = e.mode.as_str().into();
            v["ranks"] =
                serde_json::json!({"keyword": e.keyword_rank, "semantic": e.semantic_rank});
            v["similarity"] = e
                .similarity
                .map(|s| serde_json::Value::from((f64::from(s) * 10_000.0).round() / 10_000.0))
                .unwrap_or_default();
        }
    }
}

/// What is kept of a candidate line until the scores are known: 56 bytes, plus its term
/// weights in its [`Part`]'s `tf`. Memory follows the matches (hundreds of thousands for a
/// broad query at a million packages), so the record is kept small.
struct Candidate {
    /// The key of its package id ([`id_key`]), which candidates are deduplicated by: two ids
    /// of one store sharing one is about as likely as 1 in 10^7 at a million packages, and
    /// the winners' ids are read back from their lines.
    id: u64,
    offset: u64,
    /// With `status`, the version order of `store::packages::version_order` (see
    /// [`Candidate::order`]).
    version: u64,
    hash_prefix: u64,
    /// When it was made, in microseconds since the epoch (as the index holds it).
    created_micros: i64,
    len: f32,
    file: u32,
    status: Status,
    /// A draft that only its creator may see, when the viewer may not be anyone: whether it
    /// is shown is asked (of its line, and of the viewer's identity, which may cost a git
    /// process) only if it reaches the results.
    ask_viewer: bool,
    significance: i8,
    /// Whether a newer version of its package was found.
    superseded: bool,
    /// Whether it is of the status asked for, and so counts in the statistics while it is not
    /// superseded.
    counted: bool,
}

impl Candidate {
    /// The store's version order as the candidate knows it (a tie is as unlikely as a
    /// SHA-256 prefix collision).
    fn order(&self) -> VersionKey {
        VersionKey::new(self.status, self.version, self.hash_prefix)
    }
}

/// Reads a candidate line into a candidate and its term weights; `None` for a line that is
/// not a package the filter accepts, or that holds no query term outside ids and keys.
fn candidate(
    bytes: &[u8],
    file: u32,
    offset: u64,
    q: &Query,
    filter: &Filter,
) -> Option<(Candidate, Vec<f32>)> {
    let line: LiteLine = serde_json::from_slice(bytes).ok()?;
    let p = line.package;
    let ptype = p.package_type.as_deref().unwrap_or("standard");
    let creator = p
        .created_by
        .as_ref()
        .and_then(|a| a.id.as_deref())
        .unwrap_or_default()
        .to_string();
    let created_at = time::parse(p.created_at.as_deref()?).ok()?;
    let tags: Vec<&str> = p.tags.iter().flatten().map(|t| t.as_ref()).collect();
    if (!filter.types.is_empty() && !filter.types.iter().any(|t| t == ptype))
        || !filter.tags.iter().all(|t| tags.contains(&t.as_str()))
        || filter.actor.as_deref().is_some_and(|a| a != creator)
        || filter.since.is_some_and(|s| created_at < s)
        || filter.until.is_some_and(|u| created_at >= u)
    {
        return None;
    }
    let texts: Vec<Cow<'_, str>> = rank::FIELDS.iter().map(|(f, _)| p.text(f)).collect();
    let stats = rank::analyze_texts(
        rank::FIELDS
            .iter()
            .zip(&texts)
            .map(|(&(f, w), t)| (f, w, t.as_ref())),
        q,
    );
    if stats.tf.iter().all(|&t| t == 0.0) || !stats.phrases_ok {
        return None;
    }
    let status =
        Status::parse(p.status.as_deref().unwrap_or("complete")).unwrap_or(Status::Complete);
    let c = Candidate {
        id: id_key(&p.package_id),
        offset,
        version: line.version.unwrap_or(1),
        hash_prefix: hash_prefix(line.hash.as_deref().unwrap_or_default()),
        created_micros: created_at.timestamp_micros(),
        len: stats.len,
        file,
        status,
        ask_viewer: status == Status::Draft && filter.viewer.may_hide_drafts(),
        significance: p
            .significance
            .map(|s| s.clamp(1.0, 10.0) as i8)
            .unwrap_or(5),
        superseded: false,
        counted: false,
    };
    Some((c, stats.tf))
}

/// The totals the scan gathers besides candidates.
#[derive(Default)]
struct Totals {
    /// Documents in the indexed logs (counted exactly).
    indexed_docs: u64,
    /// Bytes of the logs scanned without an index.
    bytes_scanned: u64,
    candidate_bytes: u64,
    candidate_lines: u64,
}

/// The statistics BM25 needs, over the candidates counted (each package's current version of
/// the status asked for), kept as the candidates are: no pass over them is needed for these.
#[derive(Default)]
struct Stats {
    count: usize,
    /// Summed in f64, which is exact while the field weights are whole numbers: the average
    /// (and so every score) does not depend on the order the candidates come in, or go.
    total_len: f64,
    /// Per query term, the candidates holding it.
    df: Vec<f32>,
}

impl Stats {
    fn add(&mut self, len: f32, tf: &[f32], sign: i8) {
        if self.df.len() < tf.len() {
            self.df.resize(tf.len(), 0.0);
        }
        self.count = self.count.wrapping_add_signed(isize::from(sign));
        self.total_len += f64::from(sign) * f64::from(len);
        for (d, &t) in self.df.iter_mut().zip(tf) {
            if t > 0.0 {
                *d += f32::from(sign);
            }
        }
    }

    fn merge(&mut self, other: &Stats) {
        if self.df.len() < other.df.len() {
            self.df.resize(other.df.len(), 0.0);
        }
        self.count += other.count;
        self.total_len += other.total_len;
        for (d, o) in self.df.iter_mut().zip(&other.df) {
            *d += o;
        }
    }
}

/// What one scan thread keeps: every candidate line, versions of one package included;
/// [`settle_duplicates`] then marks all but each package's current version superseded (a
/// common word's million candidates are nearly all of packages with one version, so finding
/// the few shared ids at the end costs less than a map of ids per log along the way).
#[derive(Default)]
struct Part {
    candidates: Vec<Candidate>,
    /// The query's term weights of each candidate, in candidate order, `terms` apiece.
    tf: Vec<f32>,
    totals: Totals,
    /// The status asked for (`None`: any), and the statistics of the candidates of it.
    status: Option<Status>,
    stats: Stats,
    /// Scratch of [`from_index`], reused from log to log rather than allocated afresh (which
    /// costs page faults): each document's term weights, and the documents with a term.
    doc_tf: Vec<f32>,
    touched: Vec<u32>,
    /// Each document's places of the query's terms, when the query has a phrase.
    doc_places: Vec<Places>,
}

impl Part {
    /// A part counting the candidates of `status` (`None`: of any).
    fn counting(status: Option<Status>) -> Part {
        Part {
            status,
            ..Part::default()
        }
    }

    /// The part with its scratch freed, before the scoring.
    fn finished(mut self) -> Part {
        (self.doc_tf, self.touched, self.doc_places) = Default::default();
        self
    }

    /// Keeps `c` with its term weights, counting it if it is of the status asked for.
    fn keep(&mut self, mut c: Candidate, tf: &[f32]) {
        c.counted = self.status.is_none_or(|s| s == c.status);
        if c.counted {
            self.stats.add(c.len, tf, 1);
        }
        self.candidates.push(c);
        self.tf.extend_from_slice(tf);
    }
}

/// Whether a candidate can be judged from the index alone, or needs its line: phrases need
/// word order, and the type, tag and actor filters and a draft's creator are not indexed.
pub(crate) fn needs_line(q: &Query, filter: &Filter) -> bool {
    !q.phrases.is_empty()
        || !filter.types.is_empty()
        || !filter.tags.is_empty()
        || filter.actor.is_some()
}

/// The candidates of one indexed log.
fn from_index(
    idx: &mut QueryView,
    log: &Path,
    file: u32,
    q: &Query,
    filter: &Filter,
    phrases: Option<&PhraseFilter>,
    part: &mut Part,
) -> Result<()> {
    let terms = q.terms.len();
    let (mut tf, mut touched, mut places) = (
        std::mem::take(&mut part.doc_tf),
        std::mem::take(&mut part.touched),
        std::mem::take(&mut part.doc_places),
    );
    // The scratch comes zeroed (each log's writes are undone at its end, below): only
    // growing it costs, not clearing a month's worth of rows for a rare word's few.
    if tf.len() < idx.doc_count() * terms {
        tf.resize(idx.doc_count() * terms, 0.0);
    }
    touched.clear();
    // A phrase needs all its words, where they can stand one after another: a document
    // missing one, or holding them only apart, is no candidate, unread.
    let phrase_terms: Vec<Vec<Option<usize>>> = (q.phrases.iter())
        .map(|phrase| {
            (phrase.iter())
                .map(|s| q.terms.iter().position(|t| t == s))
                .collect()
        })
        .collect();
    // With a phrase, the candidates are among the documents of its rarest word's list (docs
    // ascending); otherwise every document with some term is one.
    let rarest = (phrase_terms.iter().flatten().flatten())
        .min_by_key(|&&i| idx.postings.get(i).map_or(0, Vec::len))
        .copied();
    let phrased = !q.phrases.is_empty();
    if phrased && places.len() < idx.doc_count() * terms {
        places.resize(idx.doc_count() * terms, ANY_PLACE);
    }
    for (i, list) in idx.postings.iter().enumerate() {
        let list_places = idx.places.get(i).filter(|p| p.len() == list.len());
        for (k, &(doc, count)) in list.iter().enumerate() {
            let row = doc as usize * terms;
            if rarest.is_none() && tf[row..row + terms].iter().all(|&x| x == 0.0) {
                touched.push(doc);
            }
            tf[row + i] = count;
            if phrased && let Some(at) = list_places {
                places[row + i] = at[k];
            }
        }
    }
    match rarest.and_then(|i| idx.postings.get(i)) {
        Some(list) => touched.extend(list.iter().map(|&(doc, _)| doc)),
        None => touched.sort_unstable(),
    }
    touched.retain(|&doc| {
        let row = doc as usize * terms;
        phrase_terms.iter().all(|phrase| {
            phrase.iter().flatten().all(|&i| tf[row + i] > 0.0)
                && may_stand_in_order(
                    (phrase.iter()).map(|t| t.map_or(ANY_PLACE, |i| places[row + i])),
                )
        })
    });
    idx.read_ahead_docs(&touched);
    let line_checks = needs_line(q, filter);
    let (since, until) = (
        filter.since.map(|s| s.timestamp_micros()),
        filter.until.map(|u| u.timestamp_micros()),
    );
    let mut lines = relay_store::log::LinesAt::new(log);
    let mut line = Vec::new();
    for &doc in &touched {
        let Some(d) = idx.doc(doc) else { continue };
        if since.is_some_and(|s| d.created_micros < s)
            || until.is_some_and(|u| d.created_micros >= u)
        {
            continue;
        }
        let row = doc as usize * terms;
        if line_checks {
            line.clear();
            // The next document's line starts where this one ends (or after lines that are
            // no packages): read just those bytes.
            let read = match idx.doc(doc + 1) {
                Some(next) => lines.read_before(d.offset, next.offset, &mut line)?,
                None => lines.read(d.offset, &mut line)?,
            };
            if read.is_ok() && phrases.is_some_and(|f| !f.may_match(&line)) {
                continue;
            }
            if let Some((c, line_tf)) = read
                .ok()
                .and_then(|_| candidate(&line, file, d.offset, q, filter))
                && let Some(id) = idx.doc_key(doc)
            {
                // The index's id decides, as the line's would (they are the same).
                part.keep(Candidate { id, ..c }, &line_tf);
            }
        } else {
            let Some(id) = idx.doc_key(doc) else { continue };
            let c = Candidate {
                id,
                offset: d.offset,
                version: u64::from(d.version),
                hash_prefix: d.hash_prefix,
                created_micros: d.created_micros,
                len: d.len,
                file,
                status: d.status,
                ask_viewer: d.status == Status::Draft && filter.viewer.may_hide_drafts(),
                significance: d.significance,
                superseded: false,
                counted: false,
            };
            part.keep(c, &tf[row..row + terms]);
        }
    }
    // Undone for the next log: the rows the postings wrote. (An error above leaves the
    // scratch out of the part, so the next use starts from a new, zeroed one.)
    for (i, list) in idx.postings.iter().enumerate() {
        for &(doc, _) in list {
            let at = doc as usize * terms + i;
            tf[at] = 0.0;
            if phrased {
                places[at] = ANY_PLACE;
            }
        }
    }
    (part.doc_tf, part.touched, part.doc_places) = (tf, touched, places);
    Ok(())
}

/// Below this many candidates, every one is looked up in the map of keys.
const MAP_ALL_BELOW: usize = 1 << 14;

/// Which buckets of id keys (by their high bits) hold more than one key: a bit per bucket
/// finds them in one pass, so that of a common word's million candidates only the few in
/// these are looked up in a map. The buckets are 16 times as many as the keys (rounded up to a power
/// of two, between 2^14 and 2^24), so few keys share one, and a mid word's tens of thousands
/// do not pay for a million's bitmaps (4 MiB zeroed and faulted in).
struct SharedBuckets {
    bits: u32,
    twice: Vec<u64>,
}

impl SharedBuckets {
    /// The shared buckets of `keys`, of which there are `count`.
    fn of(keys: impl Iterator<Item = u64>, count: usize) -> SharedBuckets {
        let bits = (count
            .max(1)
            .saturating_mul(16)
            .next_power_of_two()
            .trailing_zeros())
        .clamp(MIN_BUCKET_BITS, MAX_BUCKET_BITS);
        let mut seen = vec![0u64; 1 << (bits - 6)];
        let mut shared = SharedBuckets {
            bits,
            twice: vec![0u64; 1 << (bits - 6)],
        };
        for key in keys {
            let (word, bit) = shared.place(key);
            shared.twice[word] |= seen[word] & bit;
            seen[word] |= bit;
        }
        shared
    }

    /// The word and bit of `key`'s bucket.
    fn place(&self, key: u64) -> (usize, u64) {
        let bucket = (key >> (64 - self.bits)) as usize;
        (bucket / 64, 1u64 << (bucket % 64))
    }

    /// Whether `key`'s bucket holds another key too (or `key` twice).
    fn holds(&self, key: u64) -> bool {
        let (word, bit) = self.place(key);
        self.twice[word] & bit != 0
    }
}

/// The bounds of the bits of an id key that pick its bucket when duplicates are looked for:
/// from 2^14 buckets (two bitmaps of 2 KiB) to 2^24 (two of 2 MiB, for a million candidates).
const MIN_BUCKET_BITS: u32 = 14;
const MAX_BUCKET_BITS: u32 = 24;

/// Marks superseded, of candidates whose id key turns up more than once (versions of one
/// package, one id in two projects, or a key collision), all but the current version: the
/// higher version order wins, a tie going to the earlier log, then to the earlier line.
fn settle_duplicates(parts: &mut [Part], terms: usize) {
    let all = || parts.iter().flat_map(|p| &p.candidates).map(|c| c.id);
    // Past a few thousand, only the candidates whose bucket holds another key are looked up.
    let buckets = match parts.iter().map(|p| p.candidates.len()).sum::<usize>() {
        n if n < MAP_ALL_BELOW => None,
        n => Some(SharedBuckets::of(all(), n)),
    };
    let rank = |c: &Candidate| (c.order(), std::cmp::Reverse(c.file));
    // Per key looked up, where its best candidate so far is: (part, index).
    let mut best: HashMap<u64, (usize, usize), KeyHashing> = HashMap::default();
    for p in 0..parts.len() {
        for i in 0..parts[p].candidates.len() {
            let c = &parts[p].candidates[i];
            if buckets.as_ref().is_some_and(|b| !b.holds(c.id)) {
                continue;
            }
            let (this, id) = (rank(c), c.id);
            let loser = match best.entry(id) {
                Entry::Vacant(e) => {
                    e.insert((p, i));
                    continue;
                }
                Entry::Occupied(mut e) => {
                    let (bp, bi) = *e.get();
                    if this > rank(&parts[bp].candidates[bi]) {
                        e.insert((p, i));
                        (bp, bi)
                    } else {
                        (p, i)
                    }
                }
            };
            let Part {
                candidates,
                tf,
                stats,
                ..
            } = &mut parts[loser.0];
            let lost = &mut candidates[loser.1];
            lost.superseded = true;
            if lost.counted {
                stats.add(lost.len, &tf[loser.1 * terms..(loser.1 + 1) * terms], -1);
            }
        }
    }
}

/// How long the rest of a scan must look set to take on one thread for helper threads to join
/// it ([`scan_all`]). A second thread costs more than its start: the two contend for the process's memory map
/// on every index they map and unmap, and an unmapping interrupts the other core. At a million
/// packages on two cores, a rare word's scan (3 ms on one thread) ended sooner on one, a
/// common word's (25 ms) a fifth sooner on two, and a mid word's (8 ms) alike either way.
const HELP_AFTER: std::time::Duration = std::time::Duration::from_millis(5);

/// Scans `files` and returns each thread's candidates, each package's current version not
/// superseded. The files are taken in turn from a shared counter, first by this thread alone;
/// once the rest of the scan looks set to take `help_after` or more (the time so far, spread
/// over the files left), helpers join it, up to as many threads as the machine has cores.
fn scan_all(
    files: &[PathBuf],
    cache: Option<&Indexes>,
    q: &Query,
    filter: &Filter,
    help_after: std::time::Duration,
) -> Result<Vec<Part>> {
    let scan = LogScan {
        cache,
        matcher: std::sync::OnceLock::new(),
        q,
        filter,
        phrases: PhraseFilter::of(q),
    };
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(files.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Takes files until none is left; after each, `after_each(taken)` learns how many files
    // the threads have taken so far. An error leaves the rest to nobody.
    let work = |part: &mut Part, after_each: &mut dyn FnMut(usize)| -> Result<()> {
        loop {
            let file = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(path) = files.get(file) else {
                return Ok(());
            };
            if let Err(e) = scan.one(path, file as u32, part) {
                next.store(files.len(), std::sync::atomic::Ordering::Relaxed);
                return Err(e);
            }
            after_each(file + 1);
        }
    };
    let results: Vec<Result<Part>> = std::thread::scope(|s| {
        let started = std::time::Instant::now();
        let mut first_done = None;
        let mut helpers = Vec::new();
        let mut part = Part::counting(filter.status);
        let mut call_helpers = |taken: usize| {
            let left = files.len().saturating_sub(taken);
            // The first file pays for what the process had not touched yet: the rate is taken
            // from the files after it.
            let first = *first_done.get_or_insert_with(|| started.elapsed());
            if taken < 4 || helpers.len() + 1 >= threads || left < 2 {
                return;
            }
            let since = started.elapsed().saturating_sub(first);
            let expected = since.mul_f64(left as f64 / (taken - 1) as f64);
            if expected >= help_after {
                while helpers.len() + 1 < threads {
                    helpers.push(s.spawn(|| -> Result<Part> {
                        let mut part = Part::counting(filter.status);
                        work(&mut part, &mut |_| {})?;
                        Ok(part.finished())
                    }));
                }
            }
        };
        let own = work(&mut part, &mut call_helpers).map(|()| part.finished());
        let mut results = vec![own];
        results.extend(
            helpers
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Ok(Default::default()))),
        );
        results
    });
    let mut parts = results.into_iter().collect::<Result<Vec<_>>>()?;
    settle_duplicates(&mut parts, q.terms.len());
    Ok(parts)
}

/// What every log of one scan is read with.
struct LogScan<'a> {
    cache: Option<&'a Indexes>,
    /// For logs without a usable index; built when the first one is met.
    matcher: std::sync::OnceLock<Result<grep_regex::RegexMatcher>>,
    q: &'a Query,
    filter: &'a Filter,
    phrases: Option<PhraseFilter>,
}

impl LogScan<'_> {
    /// Scans one log into `part`: from its index when it has a usable one, else line by line.
    fn one(&self, path: &Path, file: u32, part: &mut Part) -> Result<()> {
        let (q, filter, phrases) = (self.q, self.filter, self.phrases.as_ref());
        if let Some(Ok(mut idx)) = self.cache.map(|c| c.query(path, &q.terms)) {
            part.totals.indexed_docs += idx.doc_count() as u64;
            return from_index(&mut idx, path, file, q, filter, phrases, part);
        }
        // No usable index (an unreadable cache, say): scan the log itself.
        let matcher = match self.matcher.get_or_init(|| scan::matcher(&q.terms)) {
            Ok(m) => m,
            // The error is owned by the cell: building again gives the caller its own.
            Err(_) => return scan::matcher(&q.terms).map(drop),
        };
        part.totals.bytes_scanned += scan::scan_file(path, matcher, |offset, bytes| {
            part.totals.candidate_lines += 1;
            part.totals.candidate_bytes += bytes.len() as u64;
            if phrases.is_some_and(|f| !f.may_match(bytes)) {
                return Ok(true);
            }
            if let Some((c, tf)) = candidate(bytes, file, offset, q, filter) {
                part.keep(c, &tf);
            }
            Ok(true)
        })?;
        Ok(())
    }
}

/// Runs a relevant pull over `projects`: keyword search, BM25 nudged by significance and
/// recency.
pub fn relevant(
    store: &Store,
    projects: &[String],
    query_text: &str,
    filter: &Filter,
    limit: usize,
) -> Result<Vec<Ranked>> {
    keyword_list(store, projects, query_text, filter, limit)
}

/// The keyword list: the best `limit` packages by BM25 nudged by significance and recency
/// (hybrid search fuses this list as it is).
pub(crate) fn keyword_list(
    store: &Store,
    projects: &[String],
    query_text: &str,
    filter: &Filter,
    limit: usize,
) -> Result<Vec<Ranked>> {
    let q = parse(query_text);
    if q.terms.is_empty() || limit == 0 {
        return Ok(Vec::new());
    }
    let filter = &filter.prepare(store, projects)?;
    let mut files: Vec<PathBuf> = Vec::new();
    let mut file_project: Vec<&str> = Vec::new();
    for project in projects {
        for path in store.package_logs(project)? {
            files.push(path);
            file_project.push(project);
        }
    }
    let cache = store.search_indexes();
    let parts = scan_all(&files, cache.as_ref(), &q, filter, HELP_AFTER)?;
    let mut totals = Totals::default();
    for t in parts.iter().map(|p| &p.totals) {
        totals.indexed_docs += t.indexed_docs;
        totals.bytes_scanned += t.bytes_scanned;
        totals.candidate_bytes += t.candidate_bytes;
        totals.candidate_lines += t.candidate_lines;
    }
    // Each package's current version with its term weights; the status filter is judged on
    // it. A draft's visibility is not: the statistics count every current package, whoever may
    // see it, so that a score does not depend on who is looking, and the viewer is asked only
    // about a draft that reaches the results (below).
    let terms = q.terms.len();
    let current = || {
        parts
            .iter()
            .flat_map(|p| p.candidates.iter().zip(p.tf.chunks_exact(terms)))
            .filter(|(c, _)| c.counted && !c.superseded)
    };
    let mut stats = Stats::default();
    for p in &parts {
        stats.merge(&p.stats);
    }
    let (count, df, total_len) = (stats.count, stats.df, stats.total_len);
    if count == 0 {
        return Ok(Vec::new());
    }
    // Document frequencies come from the same scan; the store's size in documents is estimated
    // from the bytes scanned and the mean candidate line.
    let mean_line = totals.candidate_bytes as f64 / totals.candidate_lines.max(1) as f64;
    let scanned_docs = totals.bytes_scanned as f64 / mean_line.max(1.0);
    let docs = (totals.indexed_docs as f64 + scanned_docs).max(count as f64) as f32;
    let idfs: Vec<f32> = df.iter().map(|&d| rank::idf(docs, d)).collect();
    let avg_len = (total_len / count as f64) as f32;
    // Whole seconds of age, as chrono's `num_seconds` gives them (integer division truncates
    // the same way), in days.
    let now = time::now().timestamp_micros();
    let age_days = |c: &Candidate| ((now - c.created_micros) / 1_000_000) as f32 / 86_400.0;
    // The score before recency (BM25 × significance): recency lifts it by at most
    // `MAX_RECENCY_FACTOR`, so a candidate whose base cannot reach the front is not finished.
    let based = || {
        current().map(|(c, tf)| {
            let bm25 = rank::bm25(tf, c.len, &idfs, avg_len);
            (
                bm25 * rank::significance_factor(i64::from(c.significance)),
                c,
            )
        })
    };
    let finish = |base: f32, c: &Candidate| f64::from(base * rank::recency_factor(age_days(c)));
    // Winners are read in full, best first; one that fails validation or its hash is reported
    // and skipped, and a draft the viewer may not see is passed over. Only a front of the
    // ranking is selected and sorted at a time: a margin beyond `limit` covers the usual few
    // turned away, and the front grows in the rare case that more are.
    let mut out = Vec::new();
    let mut front = limit.saturating_mul(2).saturating_add(16);
    let mut after = None;
    loop {
        let batch = best_after(based(), &finish, front, after);
        for &(score, c) in &batch {
            if out.len() == limit {
                return Ok(out);
            }
            if let Some(stored) = winner(store, filter, &files, &file_project, c)? {
                let rounded = (score * 10_000.0).round() / 10_000.0;
                let matched = rank::analyze(&stored.package, &q).matched;
                out.push(Ranked {
                    stored,
                    score: rounded,
                    matched,
                    query: q.clone(),
                    explain: None,
                });
            }
        }
        if out.len() == limit || batch.len() < front {
            return Ok(out);
        }
        after = batch.last().copied();
        front = front.saturating_mul(4);
    }
}

/// Best first: score, then the newer package, then a fixed order of ids (unique by now, so the
/// order is total).
fn best_first(a: &(f64, &Candidate), b: &(f64, &Candidate)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0)
        .then_with(|| b.1.created_micros.cmp(&a.1.created_micros))
        .then_with(|| a.1.id.cmp(&b.1.id))
}

/// The first `n` of the candidates in [`best_first`] order that come after `after`, sorted,
/// each scored by `finish` from its base score (see `keyword_list`). Memory stays at `2n`: the
/// best `n` of the whole are the best `n` of those kept so far and the rest; and once `n` are
/// kept, a candidate that cannot pass the `n`th best even with recency's most is passed over
/// unfinished.
fn best_after<'a>(
    based: impl Iterator<Item = (f32, &'a Candidate)>,
    finish: &dyn Fn(f32, &Candidate) -> f64,
    n: usize,
    after: Option<(f64, &'a Candidate)>,
) -> Vec<(f64, &'a Candidate)> {
    if n == 0 {
        return Vec::new();
    }
    let mut kept: Vec<(f64, &Candidate)> = Vec::with_capacity(2 * n.min(1 << 16));
    // The `n`th best kept so far, once `n` are.
    let mut nth: Option<(f64, &Candidate)> = None;
    for (base, c) in based {
        // The bound is widened by a millionth against the rounding of the f32 product.
        if nth.is_some_and(|t| f64::from(base * rank::MAX_RECENCY_FACTOR) * 1.000_001 < t.0) {
            continue;
        }
        let s = (finish(base, c), c);
        if after.is_some_and(|a| best_first(&s, &a).is_le())
            || nth.is_some_and(|t| best_first(&s, &t).is_ge())
        {
            continue;
        }
        kept.push(s);
        if kept.len() >= 2 * n {
            kept.select_nth_unstable_by(n - 1, best_first);
            kept.truncate(n);
            nth = kept.last().copied();
        }
    }
    if n < kept.len() {
        kept.select_nth_unstable_by(n - 1, best_first);
        kept.truncate(n);
    }
    kept.sort_by(best_first);
    kept
}

/// A winner read in full: its line, or (when the line fails its check, a hand edit say, which
/// must not hide the package) its current verified version; `None` when it is hidden
/// (retracted, expired) or is a draft the viewer may not see.
fn winner(
    store: &Store,
    filter: &Filter,
    files: &[PathBuf],
    file_project: &[&str],
    c: &Candidate,
) -> Result<Option<StoredPackage>> {
    let path = &files[c.file as usize];
    let stored = match store.package_at(path, c.offset)? {
        Some(s) => Some(s),
        None => match store.package_id_at(path, c.offset) {
            Some(id) => store
                .package_versions(file_project[c.file as usize], &id)?
                .into_iter()
                .max_by(relay_store::packages::version_order),
            None => None,
        },
    };
    Ok(stored.filter(|s| {
        filter
            .hidden()
            .is_none_or(|h| h.package(&s.package).is_none())
            && (!c.ask_viewer || filter.viewer.id().is_none_or(|v| visible_to(&s.package, v)))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(id: u64, file: u32, offset: u64, version: u64, status: Status) -> Candidate {
        Candidate {
            id,
            offset,
            version,
            hash_prefix: 0,
            created_micros: 0,
            len: 1.0,
            file,
            status,
            ask_viewer: false,
            significance: 5,
            superseded: false,
            counted: false,
        }
    }

    /// The survivors as (file, offset), with their first term weight.
    fn survivors(parts: &[Part]) -> Vec<(u32, u64, f32)> {
        let mut out: Vec<_> = parts
            .iter()
            .flat_map(|p| p.candidates.iter().zip(p.tf.chunks_exact(2)))
            .filter(|(c, _)| !c.superseded)
            .map(|(c, tf)| (c.file, c.offset, tf[0]))
            .collect();
        out.sort_by(|a, b| a.partial_cmp(b).unwrap());
        out
    }

    #[test]
    fn one_candidate_per_package_its_current_version_across_logs_and_threads() {
        let mut a = Part::default();
        a.keep(cand(1, 0, 0, 1, Status::Complete), &[1.0, 0.0]);
        a.keep(cand(1, 0, 10, 2, Status::Complete), &[2.0, 0.0]);
        // A later version that is not complete does not replace a complete one.
        a.keep(cand(1, 0, 20, 3, Status::Draft), &[3.0, 0.0]);
        a.keep(cand(2, 0, 30, 1, Status::Complete), &[4.0, 0.0]);
        // Key 2 again in another log, equal in order: the earlier log wins.
        a.keep(cand(2, 2, 0, 1, Status::Complete), &[5.0, 0.0]);
        let mut b = Part::default();
        // Key 1 in another thread's log, newer: it wins over both of thread a's.
        b.keep(cand(1, 1, 0, 4, Status::Complete), &[6.0, 0.0]);
        b.keep(cand(3, 1, 10, 1, Status::Complete), &[7.0, 0.0]);
        assert_eq!(a.candidates.len(), 5, "every line kept until settled");
        assert_eq!(std::mem::size_of::<Candidate>(), 56);
        let mut parts = vec![a, b];
        settle_duplicates(&mut parts, 2);
        assert_eq!(
            survivors(&parts),
            vec![(0, 30, 4.0), (1, 0, 6.0), (1, 10, 7.0)]
        );
    }

    #[test]
    fn many_candidates_settle_as_few_do() {
        // Past the size where every key is looked up, the duplicates are still every one found:
        // across parts, and within one (a package's versions in its month).
        let mut parts = vec![Part::default(), Part::default()];
        let n = MAP_ALL_BELOW as u64 + 1000;
        for (p, part) in parts.iter_mut().enumerate() {
            for i in 0..n {
                // Ids 0-99 in both parts, part 1's newer; the rest in one part only.
                let key = id_key(&format!(
                    "pkg_{}",
                    if i < 100 { i } else { i + p as u64 * n }
                ));
                let version = p as u64 + 1;
                part.keep(
                    Candidate {
                        id: key,
                        ..cand(0, p as u32, i * 10, version, Status::Complete)
                    },
                    &[1.0, 0.0],
                );
            }
        }
        // Ids 100-199 of part 1 again in part 1, newer (offsets 1,000,000 on).
        for i in 100..200u64 {
            let key = id_key(&format!("pkg_{}", i + n));
            parts[1].keep(
                Candidate {
                    id: key,
                    ..cand(0, 1, 100_000 * 10 + i * 10, 3, Status::Complete)
                },
                &[1.0, 0.0],
            );
        }
        settle_duplicates(&mut parts, 2);
        let superseded: Vec<(usize, u64)> = (parts.iter().enumerate())
            .flat_map(|(p, part)| part.candidates.iter().map(move |c| (p, c)))
            .filter(|(_, c)| c.superseded)
            .map(|(p, c)| (p, c.offset / 10))
            .collect();
        let older_in_part_1 = (100..200).map(|i| (1, i));
        assert_eq!(
            superseded,
            (0..100)
                .map(|i| (0, i))
                .chain(older_in_part_1)
                .collect::<Vec<_>>()
        );
        // Whatever the bitmaps' size, a key met twice is found, and keys apart in their high
        // bits are not.
        for count in [4, 100_000, 1 << 30] {
            let keys = [7u64, 1 << 63, 7, 3 << 62];
            let buckets = SharedBuckets::of(keys.into_iter(), count);
            let shared: Vec<u64> = keys.into_iter().filter(|&k| buckets.holds(k)).collect();
            assert_eq!(shared, [7, 7], "{count}");
        }
    }

    #[test]
    fn helpers_that_join_a_scan_find_what_one_thread_finds() {
        // Eight months, a package's versions in each of its month and a few ids in two
        // months: a scan that helpers join at once gives, over its parts, the candidates of a
        // scan on one thread, each once, with the same weights and the same superseded.
        let dir = tempfile::tempdir().unwrap();
        let words = ["memory", "leak", "pool", "cache"];
        let mut next = crate::search::phrase_filter::tests::draws(9);
        let files: Vec<PathBuf> = (1..=8)
            .map(|m| {
                let log = dir
                    .path()
                    .join(format!("projects/p/packages/2026-{m:02}.ndjson"));
                std::fs::create_dir_all(log.parent().unwrap()).unwrap();
                let mut lines = String::new();
                for i in 0..60 {
                    let title: Vec<&str> = (0..3).map(|_| words[next(words.len())]).collect();
                    // Ids 0-4 are in every month: one current version among the logs.
                    let id = if i < 5 {
                        format!("pkg_{i}")
                    } else {
                        format!("pkg_{m}_{i}")
                    };
                    let package = serde_json::json!({
                        "package_id": id,
                        "created_at": format!("2026-{m:02}-02T00:00:00Z"),
                        "status": "complete",
                        "title": title.join(" "),
                    });
                    lines += &serde_json::json!({ "package": package, "version": 1 + i % 2 })
                        .to_string();
                    lines.push('\n');
                }
                std::fs::write(&log, &lines).unwrap();
                log
            })
            .collect();
        let cache = relay_store::cache::Indexes::at(dir.path().join("cache"));
        let filter = Filter::default();
        let every = |parts: &[Part], terms: usize| {
            let mut all: Vec<(u32, u64, bool, Vec<f32>)> = (parts.iter())
                .flat_map(|p| {
                    (p.candidates.iter().zip(p.tf.chunks_exact(terms)))
                        .map(|(c, tf)| (c.file, c.offset, c.superseded, tf.to_vec()))
                })
                .collect();
            all.sort_by_key(|c| (c.0, c.1));
            all
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        for query in ["memory leak", r#""memory leak""#, "cache"] {
            let q = parse(query);
            let alone =
                scan_all(&files, Some(&cache), &q, &filter, std::time::Duration::MAX).unwrap();
            assert_eq!(
                alone.len(),
                1,
                "no helper joins a scan that never looks long"
            );
            let helped =
                scan_all(&files, Some(&cache), &q, &filter, std::time::Duration::ZERO).unwrap();
            assert_eq!(helped.len(), cores.min(files.len()), "helpers joined");
            let terms = q.terms.len();
            let one = every(&alone, terms);
            assert!(one.len() > 20, "{query}: {} candidates", one.len());
            assert!(
                one.iter().any(|c| c.2),
                "{query}: some superseded across logs"
            );
            assert_eq!(every(&helped, terms), one, "{query}");
        }
    }

    #[test]
    fn a_log_scanned_after_another_with_the_same_scratch_gives_what_it_gives_alone() {
        // The scratch rows one log wrote are undone before the next: a second, smaller log
        // scanned after a bigger one yields the candidates and weights it yields on its own.
        let dir = tempfile::tempdir().unwrap();
        let words = ["memory", "leak", "pool", "cache", "retry"];
        let mut next = crate::search::phrase_filter::tests::draws(5);
        let mut write_log = |name: &str, n: usize| -> std::path::PathBuf {
            let log = dir
                .path()
                .join(format!("projects/p/packages/{name}.ndjson"));
            std::fs::create_dir_all(log.parent().unwrap()).unwrap();
            let mut lines = String::new();
            for i in 0..n {
                let title: Vec<&str> = (0..4).map(|_| words[next(words.len())]).collect();
                let package = serde_json::json!({
                    "package_id": format!("pkg_{name}_{i:04}"),
                    "created_at": "2026-01-02T00:00:00Z",
                    "status": "complete",
                    "title": title.join(" "),
                });
                lines += &serde_json::json!({ "package": package }).to_string();
                lines.push('\n');
            }
            std::fs::write(&log, &lines).unwrap();
            log
        };
        let (big, small) = (write_log("2026-01", 300), write_log("2026-02", 40));
        let cache = dir.path().join("cache");
        let filter = Filter::default();
        for query in ["memory leak", r#""memory leak" pool"#, "cache"] {
            let q = parse(query);
            let phrases = PhraseFilter::of(&q);
            let scan = |part: &mut Part, log: &Path, file: u32| {
                let mut view = relay_store::cache::packages::query(&cache, log, &q.terms).unwrap();
                from_index(&mut view, log, file, &q, &filter, phrases.as_ref(), part).unwrap();
            };
            let (mut both, mut alone) = (Part::default(), Part::default());
            scan(&mut both, &big, 0);
            let first = both.candidates.len();
            scan(&mut both, &small, 1);
            scan(&mut alone, &small, 1);
            let terms = q.terms.len();
            let after: Vec<(u64, &[f32])> = (both.candidates[first..].iter())
                .zip(both.tf[first * terms..].chunks_exact(terms))
                .map(|(c, tf)| (c.offset, tf))
                .collect();
            let own: Vec<(u64, &[f32])> = (alone.candidates.iter())
                .zip(alone.tf.chunks_exact(terms))
                .map(|(c, tf)| (c.offset, tf))
                .collect();
            assert!(!own.is_empty(), "{query}");
            assert_eq!(after, own, "{query}");
        }
    }

    #[test]
    fn the_place_filter_never_turns_away_a_package_holding_the_phrase() {
        // Packages of words drawn at random over several fields, lists among them: the index's
        // places turn documents away unread, and the candidates must still be exactly the
        // packages whose lines hold the phrase.
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("projects/p/packages/2026-01.ndjson");
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        let words = ["memory", "leaks", "leak", "of", "the", "pool", "a"];
        let mut next = crate::search::phrase_filter::tests::draws(11);
        let mut text = |n: usize| -> String {
            (0..n)
                .map(|_| words[next(words.len())])
                .collect::<Vec<_>>()
                .join(if next(3) == 0 { ", " } else { " " })
        };
        let mut lines = String::new();
        for i in 0..600 {
            let package = serde_json::json!({
                "package_id": format!("pkg_{i:04}"),
                "created_at": "2026-01-02T00:00:00Z",
                "status": "complete",
                "title": text(3),
                "decisions_made": [text(2), text(2)],
                "tags": [text(1), text(1)],
                "description": text(12),
                "content_md": text(30),
            });
            lines += &serde_json::json!({ "package": package }).to_string();
            lines.push('\n');
        }
        std::fs::write(&log, &lines).unwrap();
        let cache = dir.path().join("cache");
        for query in [
            r#""memory leak""#,
            r#""leak memory" pool"#,
            r#""memory of the pool""#,
        ] {
            let q = parse(query);
            let expected: Vec<u64> = (lines.lines())
                .scan(0u64, |at, line| {
                    let offset = *at;
                    *at += line.len() as u64 + 1;
                    Some((offset, line))
                })
                .filter(|(_, line)| {
                    let p: LiteLine = serde_json::from_str(line).unwrap();
                    let texts: Vec<_> = rank::FIELDS
                        .iter()
                        .map(|(f, _)| p.package.text(f))
                        .collect();
                    let fields =
                        (rank::FIELDS.iter().zip(&texts)).map(|(&(f, w), t)| (f, w, t.as_ref()));
                    let stats = rank::analyze_texts(fields, &q);
                    stats.phrases_ok && stats.tf.iter().any(|&t| t > 0.0)
                })
                .map(|(offset, _)| offset)
                .collect();
            assert!(
                expected.len() >= 10,
                "{query}: only {} hold it",
                expected.len()
            );
            let mut view = relay_store::cache::packages::query(&cache, &log, &q.terms).unwrap();
            let mut part = Part::default();
            let filter = Filter::default();
            let phrases = PhraseFilter::of(&q);
            from_index(&mut view, &log, 0, &q, &filter, phrases.as_ref(), &mut part).unwrap();
            let mut found: Vec<u64> = part.candidates.iter().map(|c| c.offset).collect();
            found.sort_unstable();
            assert_eq!(found, expected, "{query}");
        }
    }

    #[test]
    fn a_draft_is_judged_only_if_it_reaches_the_results_and_scores_do_not_depend_on_the_viewer() {
        use crate::ops::packages::deposit::deposit;
        use crate::ops::packages::deposit::test_support::{context, store_with, unindexed};
        use crate::search::filter::Viewer;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let (_dir, store) = store_with(&["demo"]);
        // Forty of ana's drafts outrank jo's five packages: more than the first front of a
        // search for three (2 × 3 + 16), so the front must grow to find jo's.
        let put = |id: String, title: &str, who: &str, status: &str| {
            let input = serde_json::json!({"package_id": id, "title": title, "status": status,
                "created_by": {"id": who, "type": "human"}});
            deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
        };
        for i in 0..40 {
            put(format!("pkg_d{i:02}"), "leak leak leak", "ana", "draft");
        }
        for i in 0..5 {
            put(format!("pkg_c{i}"), "a leak in the pool", "jo", "complete");
        }
        let projects = ["demo".to_string()];
        for store in [
            Store::open(store.root().to_path_buf()).unwrap(),
            unindexed(&store),
        ] {
            let asked = std::sync::Arc::new(AtomicUsize::new(0));
            let search = |who: &'static str, query: &str, limit: usize| {
                let asked = asked.clone();
                let filter = Filter {
                    viewer: Viewer::deferred(move || {
                        asked.fetch_add(1, Ordering::SeqCst);
                        Some(who.to_string())
                    }),
                    ..Default::default()
                };
                let found = relevant(&store, &projects, query, &filter, limit).unwrap();
                (found.iter())
                    .map(|r| (r.stored.package.id().to_string(), r.score))
                    .collect::<Vec<_>>()
            };
            // No draft among the matches: nobody is asked who is looking.
            assert_eq!(search("jo", "pool", 3).len(), 3);
            assert_eq!(asked.load(Ordering::SeqCst), 0, "no draft met");
            let jo = search("jo", "leak", 3);
            assert_eq!(
                asked.load(Ordering::SeqCst),
                1,
                "asked once, when a draft led"
            );
            assert!(jo.iter().all(|(id, _)| id.starts_with("pkg_c")), "{jo:?}");
            assert_eq!(jo.len(), 3);
            let ana = search("ana", "leak", 45);
            assert_eq!(ana.len(), 45);
            assert!(
                ana[..40].iter().all(|(id, _)| id.starts_with("pkg_d")),
                "{ana:?}"
            );
            // The same statistics whoever looks: jo's packages score alike for ana.
            assert_eq!(ana[40..], search("jo", "leak", 5)[..]);
        }
    }

    #[test]
    fn the_pruned_front_is_the_front_of_the_whole_ranking_page_by_page() {
        // Bases, significances and ages drawn at random, with ties: each front `best_after`
        // gives, from the start and after the last of the one before, is that slice of the
        // candidates fully scored and sorted, whatever it passed over unfinished.
        let mut next = crate::search::phrase_filter::tests::draws(41);
        let day = 86_400_000_000i64;
        let candidates: Vec<Candidate> = (0..5000u64)
            .map(|i| Candidate {
                created_micros: 1_800_000_000_000_000 - next(400) as i64 * day,
                significance: 1 + next(10) as i8,
                ..cand(id_key(&format!("pkg_{i}")), 0, i, 1, Status::Complete)
            })
            .collect();
        let bases: Vec<f32> = (0..candidates.len())
            .map(|_| next(300) as f32 / 7.0)
            .collect();
        let now = 1_800_000_000_000_000i64;
        let finish = |base: f32, c: &Candidate| {
            let age = ((now - c.created_micros) / 1_000_000) as f32 / 86_400.0;
            f64::from(base * rank::recency_factor(age))
        };
        let based = || bases.iter().copied().zip(&candidates);
        let mut whole: Vec<(f64, &Candidate)> = based().map(|(b, c)| (finish(b, c), c)).collect();
        whole.sort_by(best_first);
        let key = |v: &[(f64, &Candidate)]| v.iter().map(|(s, c)| (*s, c.id)).collect::<Vec<_>>();
        for n in [1, 7, 22, 300] {
            let (mut after, mut at) = (None, 0);
            while at < whole.len() {
                let front = best_after(based(), &finish, n, after);
                let end = (at + n).min(whole.len());
                assert_eq!(key(&front), key(&whole[at..end]), "n {n} at {at}");
                (after, at) = (front.last().copied(), end);
                if n == 300 && at > 1500 {
                    break;
                }
            }
        }
        assert!(best_after(based(), &finish, 0, None).is_empty());
    }

    #[test]
    fn the_statistics_count_each_package_s_current_version_of_the_status_asked_for() {
        // Kept as the candidates come, and taken back for those settled as superseded: the
        // same as a pass over the survivors of the status asked for would count.
        let mut a = Part::counting(Some(Status::Complete));
        a.keep(cand(1, 0, 0, 1, Status::Complete), &[1.0, 0.0]);
        a.keep(cand(1, 0, 10, 2, Status::Complete), &[2.0, 1.0]);
        a.keep(cand(2, 0, 20, 1, Status::Complete), &[0.0, 3.0]);
        a.keep(cand(4, 0, 30, 1, Status::Draft), &[1.0, 1.0]);
        let mut b = Part::counting(Some(Status::Complete));
        b.keep(cand(2, 1, 0, 2, Status::Complete), &[4.0, 0.0]);
        b.keep(cand(3, 1, 10, 1, Status::Complete), &[5.0, 5.0]);
        let mut parts = vec![a, b];
        settle_duplicates(&mut parts, 2);
        let mut got = Stats::default();
        let mut want = Stats::default();
        for p in &parts {
            got.merge(&p.stats);
            for (c, tf) in p.candidates.iter().zip(p.tf.chunks_exact(2)) {
                if c.counted && !c.superseded {
                    want.add(c.len, tf, 1);
                }
            }
        }
        assert_eq!(
            (got.count, got.total_len, &got.df),
            (3, 3.0, &vec![3.0, 2.0])
        );
        assert_eq!(
            (got.count, got.total_len, got.df),
            (want.count, want.total_len, want.df)
        );
    }
}
