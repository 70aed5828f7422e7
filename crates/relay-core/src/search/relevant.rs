//! Relevant pull (§8.2 `mode: relevant`): scan the package logs for the query's stems, read
//! only the candidate lines (and only the fields ranking needs), rank them with BM25, and
//! return the best. A package with several versions counts once, as its current version.
//! Per candidate a few numbers are kept, so memory follows the matches, not the store; the
//! winners are read again in full and checked against their hashes before they are returned.

pub use crate::search::query::is_stopword;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::search::filter::{Filter, visible_to};

use crate::search::fuse::Mode;
use crate::search::phrase_filter::PhraseFilter;
use crate::search::{Query, parse, rank, scan};
use relay_store::Store;
use relay_store::index::LiteLine;
use relay_store::index::{ANY_PLACE, may_stand_in_order, neighbour_bit};
use relay_store::index::{Indexes, id_key};
use relay_store::index::{QueryView, hash_prefix};
use relay_store::packages::StoredPackage;
use relay_wire::error::Result;
use relay_wire::{Status, time};

mod broad;
mod candidates;
mod kept_ids;
use broad::{BROAD_FROM, Broad};
use candidates::{Candidate, Part, Stats, Totals, settle_duplicates};
#[cfg(test)]
use candidates::{MAP_ALL_BELOW, SharedBuckets};
mod front;
#[cfg(test)]
use front::best_first;
use front::{Front, best_after, best_first_of};
use kept_ids::Keeper;
pub use kept_ids::keep_between_searches;

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
        ask_viewer: filter.may_hide(status),
        significance: p
            .significance
            .map(|s| s.clamp(1.0, 10.0) as i8)
            .unwrap_or(5),
        superseded: false,
        counted: false,
    };
    Some((c, stats.tf))
}

/// Whether a candidate can be judged from the index alone, or needs its line: phrases need
/// word order, and the type, tag and actor filters are not indexed. (A draft's creator is not
/// either; it is read only for a draft that reaches the results, see [`winner`].)
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
    // missing one, or holding them only apart, is no candidate, unread. Each word is its
    // term's number (`None` for a stopword or a word past the query's cap of terms), with its
    // stem's neighbour bit.
    let phrase_terms: Vec<Vec<(Option<usize>, u8)>> = (q.phrases.iter())
        .map(|phrase| {
            (phrase.iter())
                .map(|s| (q.terms.iter().position(|t| t == s), neighbour_bit(s)))
                .collect()
        })
        .collect();
    // With a phrase, the candidates are among the documents of its rarest word's list (docs
    // ascending); otherwise every document with some term is one.
    let rarest = (phrase_terms.iter().flatten().filter_map(|&(i, _)| i))
        .min_by_key(|&i| idx.postings.get(i).map_or(0, Vec::len));
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
            (phrase.iter().filter_map(|&(i, _)| i)).all(|i| tf[row + i] > 0.0)
                && may_stand_in_order(
                    (phrase.iter())
                        .map(|&(t, bit)| (bit, t.map_or(ANY_PLACE, |i| places[row + i]))),
                )
        })
    });
    idx.read_ahead_docs(&touched);
    let line_checks = needs_line(q, filter);
    let (since, until) = (
        filter.since.map(|s| s.timestamp_micros()),
        filter.until.map(|u| u.timestamp_micros()),
    );
    let mut lines = relay_store::ndjson::LinesAt::new(log);
    let mut line = Vec::new();
    for &doc in &touched {
        let Some(r) = idx.record(doc) else { continue };
        if since.is_some_and(|s| r.created_micros() < s)
            || until.is_some_and(|u| r.created_micros() >= u)
        {
            continue;
        }
        let row = doc as usize * terms;
        if line_checks {
            line.clear();
            // The next document's line starts where this one ends (or after lines that are
            // no packages): read just those bytes.
            let read = match idx.record(doc + 1) {
                Some(next) => lines.read_before(r.offset(), next.offset(), &mut line)?,
                None => lines.read(r.offset(), &mut line)?,
            };
            if read.is_ok() && phrases.is_some_and(|f| !f.may_match(&line)) {
                continue;
            }
            if let Some((c, line_tf)) = read
                .ok()
                .and_then(|_| candidate(&line, file, r.offset(), q, filter))
            {
                // The index's id decides, as the line's would (they are the same).
                part.keep(Candidate { id: r.key(), ..c }, &line_tf);
            }
        } else {
            part.keep(Candidate::of_record(file, r, filter), &tf[row..row + terms]);
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

/// How long the rest of a scan must look set to take on one thread for helper threads to join
/// it ([`scan_all`]). A second thread costs more than its start: the two contend for the
/// process's memory map on every index they map and unmap, and an unmapping interrupts the
/// other core. At a million
/// packages on two cores, a rare word's scan (3 ms on one thread) ended sooner on one, a
/// common word's (25 ms) a fifth sooner on two, and a mid word's (8 ms) alike either way.
const HELP_AFTER: std::time::Duration = std::time::Duration::from_millis(5);

/// Keyword searches running in this process ([`Searching`]).
static SEARCHING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A keyword search under way, counted in [`SEARCHING`] while it lives.
struct Searching;

impl Searching {
    fn start() -> Searching {
        SEARCHING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Searching
    }
}

impl Drop for Searching {
    fn drop(&mut self) {
        SEARCHING.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// How many threads a search's scan may use: as many as the machine has cores, or one while
/// another search runs in this process ([`threads_for`]).
fn scan_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    threads_for(cores, SEARCHING.load(std::sync::atomic::Ordering::Relaxed))
}

/// The threads of a scan on `cores` cores while `searching` searches run, this one among
/// them. Searches that run side by side (a server's reads) have the cores between them
/// already: a second thread each would only add contention for the process's memory map, and
/// a flush of the other core's TLB at every unmapping. Under `relay serve`'s load of 16
/// writers and 4 readers this gave writes 5 to 10% more of the CPU, and searches the same p99.
fn threads_for(cores: usize, searching: usize) -> usize {
    if searching > 1 { 1 } else { cores.max(1) }
}

/// Scans `files` and returns each thread's candidates, each package's current version not
/// superseded. The files are taken in turn from a shared counter, first by this thread alone;
/// once the rest of the scan looks set to take `help_after` or more (the time so far, spread
/// over the files left), or at once when the first log's index is built for this read, helpers
/// join it, up to [`scan_threads`].
fn scan_all(
    files: &[PathBuf],
    cache: Option<&Indexes>,
    q: &Query,
    filter: &Filter,
    help_after: std::time::Duration,
    first: Option<QueryView>,
) -> Result<Vec<Part>> {
    // A first view built for this read (not mapped from its file), or a first log without an
    // index, means a cache being built.
    let built_first = match (&first, cache, files.first()) {
        (Some(view), _, _) => !view.is_mapped(),
        (None, Some(cache), Some(path)) => cache.lacks_packages(path),
        _ => false,
    };
    let scan = LogScan {
        cache,
        first: std::sync::Mutex::new(first),
        matcher: std::sync::OnceLock::new(),
        q,
        filter,
        phrases: PhraseFilter::of(q),
    };
    let threads = scan_threads().min(files.len()).max(1);
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
            // Helpers only grow in number and files left only shrink: no later call helps.
            if helpers.len() + 1 >= threads || files.len().saturating_sub(taken) < 2 {
                return;
            }
            // A first log whose index is built for this read (a fresh clone, a deleted cache):
            // the others will be built too, so help comes at once, before the first file.
            if !(taken == 0 && built_first) {
                // The first file pays for what the process had not touched yet: the rate is
                // taken from the files after it.
                let first = *first_done.get_or_insert_with(|| started.elapsed());
                if taken < 4 {
                    return;
                }
                let since = started.elapsed().saturating_sub(first);
                let left = files.len() - taken;
                if since.mul_f64(left as f64 / (taken - 1) as f64) < help_after {
                    return;
                }
            }
            while helpers.len() + 1 < threads {
                helpers.push(s.spawn(|| -> Result<Part> {
                    let mut part = Part::counting(filter.status);
                    work(&mut part, &mut |_| {})?;
                    Ok(part.finished())
                }));
            }
        };
        if built_first {
            call_helpers(0);
        }
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
    /// The first log's view, when the caller has it already.
    first: std::sync::Mutex<Option<QueryView>>,
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
        let given = match file {
            0 => (self.first.lock())
                .unwrap_or_else(|e| e.into_inner())
                .take(),
            _ => None,
        };
        if let Some(Ok(mut idx)) = given
            .map(Ok)
            .or_else(|| self.cache.map(|c| c.query(path, &q.terms)))
        {
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

/// What a scan found: every candidate line kept (and settled), or a broad query's indexes
/// to be ranked from ([`broad`]).
enum Scanned<'f> {
    Kept(Vec<Part>),
    Broad(Broad<'f>),
}

impl Scanned<'_> {
    /// The statistics of the candidates counted.
    fn stats(&self) -> Stats {
        match self {
            Scanned::Kept(parts) => {
                let mut stats = Stats::default();
                parts.iter().for_each(|p| stats.merge(&p.stats));
                stats
            }
            Scanned::Broad(b) => b.stats.clone(),
        }
    }

    fn totals(&self) -> Totals {
        let mut totals = Totals::default();
        match self {
            Scanned::Kept(parts) => {
                for t in parts.iter().map(|p| &p.totals) {
                    totals.indexed_docs += t.indexed_docs;
                    totals.bytes_scanned += t.bytes_scanned;
                    totals.candidate_bytes += t.candidate_bytes;
                    totals.candidate_lines += t.candidate_lines;
                }
            }
            Scanned::Broad(b) => totals.indexed_docs = b.indexed_docs(),
        }
        totals
    }

    /// The first `n` of the ranking after `after` ([`Front`]), each package's current version
    /// of the status asked for scored from its base (`base`) by `finish`.
    fn front(
        &self,
        terms: usize,
        base_score: &(dyn Fn(&[f32], f32, i8) -> f32 + Sync),
        finish: &(dyn Fn(f32, &Candidate) -> f64 + Sync),
        n: usize,
        after: Option<(f64, Candidate)>,
    ) -> Vec<(f64, Candidate)> {
        match self {
            Scanned::Kept(parts) => {
                let current = (parts.iter())
                    .flat_map(|p| p.candidates.iter().zip(p.tf.chunks_exact(terms)))
                    .filter(|(c, _)| c.counted && !c.superseded)
                    .map(|(c, tf)| (base_score(tf, c.len, c.significance), c));
                (best_after(current, finish, n, after).into_iter())
                    .map(|(s, c)| (s, *c))
                    .collect()
            }
            Scanned::Broad(b) => b.front(n, base_score, finish, after),
        }
    }
}

/// Scans the logs for a query. A broad one ([`Broad`]: [`BROAD_FROM`] postings or more, whose
/// every candidate is judged from the indexes, [`needs_line`]) is ranked from the indexes
/// without keeping its candidates; any other is scanned log by log, on threads
/// ([`scan_all`]). Whether a query may be broad is guessed from the first log's postings
/// (times the logs), so that a narrow one opens no log twice; a guess of broad is checked
/// against every log's. Only mapped indexes are ranked broad: a month whose index had to be
/// built for this read is held in memory whole, so a first search after `cache/` is
/// deleted builds the indexes on threads, a month at a time, as any scan does.
fn scan<'f>(
    files: &[PathBuf],
    cache: Option<&Indexes>,
    q: &Query,
    filter: &'f Filter,
    broad_from: usize,
    keeper: Option<&Keeper>,
) -> Result<Scanned<'f>> {
    let postings = |view: &QueryView| view.postings.iter().map(Vec::len).sum::<usize>();
    let first = match (cache, files.first()) {
        // The first log has no index yet: every log is built, on threads from the start.
        (Some(cache), Some(path)) if cache.lacks_packages(path) => None,
        (Some(cache), Some(path)) if !needs_line(q, filter) => cache.query(path, &q.terms).ok(),
        _ => None,
    };
    let first = match first {
        Some(v) if v.is_mapped() && postings(&v).saturating_mul(files.len()) >= broad_from => v,
        first => {
            return Ok(Scanned::Kept(scan_all(
                files, cache, q, filter, HELP_AFTER, first,
            )?));
        }
    };
    let mut views = vec![first];
    for path in &files[1..] {
        match cache.map(|c| c.query(path, &q.terms)) {
            Some(Ok(view)) if view.is_mapped() => views.push(view),
            // A log without a usable index, or whose index was built just now, is scanned as
            // scans do (the months read so far are mapped by then).
            _ => {
                let first = views.into_iter().next();
                return Ok(Scanned::Kept(scan_all(
                    files, cache, q, filter, HELP_AFTER, first,
                )?));
            }
        }
    }
    let total: usize = views.iter().map(postings).sum();
    if total >= broad_from && Broad::fits(&views) {
        let kept = match (keeper, cache) {
            (Some(keeper), Some(cache)) => keeper.current(cache.dir(), files, &views),
            _ => None,
        };
        return Ok(Scanned::Broad(Broad::scan(views, q, filter, total, kept)));
    }
    let mut part = Part::counting(filter.status);
    for (file, (mut view, path)) in views.into_iter().zip(files).enumerate() {
        part.totals.indexed_docs += view.doc_count() as u64;
        from_index(&mut view, path, file as u32, q, filter, None, &mut part)?;
    }
    let mut parts = vec![part.finished()];
    settle_duplicates(&mut parts, q.terms.len());
    Ok(Scanned::Kept(parts))
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
    Ok(keyword_list_weighed(store, projects, query_text, filter, limit)?.0)
}

/// [`keyword_list`], with the inverse document frequency of each of the query's terms (what
/// hybrid search weighs a match's share of the query by).
pub(crate) fn keyword_list_weighed(
    store: &Store,
    projects: &[String],
    query_text: &str,
    filter: &Filter,
    limit: usize,
) -> Result<(Vec<Ranked>, Vec<f32>)> {
    let keeper = kept_ids::of_process();
    keyword_list_from(
        store, projects, query_text, filter, limit, BROAD_FROM, keeper,
    )
}

/// [`keyword_list`], a query with `broad_from` postings or more being broad, with the buckets of
/// ids `keeper` keeps ([`kept_ids`]), if any.
fn keyword_list_from(
    store: &Store,
    projects: &[String],
    query_text: &str,
    filter: &Filter,
    limit: usize,
    broad_from: usize,
    keeper: Option<&Keeper>,
) -> Result<(Vec<Ranked>, Vec<f32>)> {
    let q = parse(query_text);
    if q.terms.is_empty() || limit == 0 {
        return Ok((Vec::new(), Vec::new()));
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
    let _searching = Searching::start();
    let scanned = scan(&files, cache.as_ref(), &q, filter, broad_from, keeper)?;
    let totals = scanned.totals();
    // Each package's current version with its term weights; the status filter is judged on
    // it. A draft's visibility is not: the statistics count every current package, whoever may
    // see it, so that a score does not depend on who is looking, and the viewer is asked only
    // about a draft that reaches the results (below).
    let terms = q.terms.len();
    let Stats {
        count,
        df,
        total_len,
    } = scanned.stats();
    if count == 0 {
        return Ok((Vec::new(), Vec::new()));
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
    let base = |tf: &[f32], len: f32, significance: i8| {
        rank::bm25(tf, len, &idfs, avg_len) * rank::significance_factor(i64::from(significance))
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
        let batch = scanned.front(terms, &base, &finish, front, after);
        for (score, c) in &batch {
            if out.len() == limit {
                return Ok((out, idfs));
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
            return Ok((out, idfs));
        }
        after = batch.last().copied();
        front = front.saturating_mul(4);
    }
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
mod tests;
