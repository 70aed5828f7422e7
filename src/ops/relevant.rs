//! Relevant pull (§8.2 `mode: relevant`): scan the package logs for the query's stems, read
//! only the candidate lines (and only the fields ranking needs), rank them with BM25, and
//! return the best. A package with several versions counts once, as its current version.
//! Per candidate a few numbers are kept, so memory follows the matches, not the store; the
//! winners are read again in full and checked against their hashes before they are returned.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::{BufRead, Seek};
use std::path::{Path, PathBuf};

use super::pull::Filter;
use crate::error::Result;
use crate::search::index::{self, QueryView, hash_prefix};
use crate::search::lite::LiteLine;
use crate::search::query::MAX_TERMS;
use crate::search::{Query, parse, rank, scan};
use crate::store::Store;
use crate::store::packages::StoredPackage;
use crate::wire::{Status, time};

/// One result.
#[derive(Debug, Clone)]
pub struct Ranked {
    pub stored: StoredPackage,
    pub score: f64,
    /// The fields that hold query terms.
    pub matched: Vec<&'static str>,
    pub query: Query,
}

impl Ranked {
    /// The result as `relay search --json` prints it: the wire package with its `score` and
    /// the `matched` fields.
    pub fn to_value(&self) -> serde_json::Value {
        let mut v = self.stored.package.to_value();
        v["score"] = serde_json::json!(self.score);
        v["matched"] = serde_json::json!(self.matched);
        v
    }
}

/// What is kept of a candidate line until the scores are known: a few dozen bytes.
struct Candidate {
    file: u32,
    offset: u64,
    /// The version order of `store::packages::version_order`: complete, version, and the
    /// hash's first 64 bits (a tie there is as unlikely as a SHA-256 collision).
    order: (bool, u64, u64),
    status: Status,
    /// Whether the viewer made it (drafts are shown to their creator only).
    viewer_is_creator: bool,
    created_at: time::Timestamp,
    significance: i8,
    /// Weighted occurrences of each query term (at most `MAX_TERMS`).
    tf: [f32; MAX_TERMS],
    len: f32,
}

/// Reads a candidate line; `None` for a line that is not a package the filter accepts, or
/// that holds no query term outside ids and keys.
fn candidate(
    bytes: &[u8],
    file: u32,
    offset: u64,
    q: &Query,
    filter: &Filter,
) -> Option<(u64, Candidate)> {
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
        file,
        offset,
        order: (
            status == Status::Complete,
            line.version.unwrap_or(1),
            hash_prefix(line.hash.as_deref().unwrap_or_default()),
        ),
        status,
        viewer_is_creator: status != Status::Draft
            || filter.viewer.id().is_none_or(|v| v == creator),
        created_at,
        significance: p
            .significance
            .map(|s| s.clamp(1.0, 10.0) as i8)
            .unwrap_or(5),
        tf: tf_array(&stats.tf),
        len: stats.len,
    };
    Some((id_key(&p.package_id), c))
}

/// Keeps, per package id, the candidate of its current version.
fn tf_array(tf: &[f32]) -> [f32; MAX_TERMS] {
    let mut out = [0.0; MAX_TERMS];
    for (o, t) in out.iter_mut().zip(tf) {
        *o = *t;
    }
    out
}

/// The key a package is deduplicated by: a 64-bit hash of its id (two ids of one store sharing
/// one is about as likely as 1 in 10^7 at a million packages; the winners' ids are read back
/// from their lines).
fn id_key(id: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    id.hash(&mut h);
    h.finish()
}

fn keep_best(best: &mut HashMap<u64, Candidate>, id: u64, c: Candidate) {
    match best.entry(id) {
        Entry::Occupied(mut e) if c.order > e.get().order => {
            e.insert(c);
        }
        Entry::Occupied(_) => {}
        Entry::Vacant(e) => {
            e.insert(c);
        }
    }
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

/// Whether a candidate can be judged from the index alone, or needs its line: phrases need
/// word order, and the type, tag and actor filters and a draft's creator are not indexed.
fn needs_line(q: &Query, filter: &Filter) -> bool {
    !q.phrases.is_empty()
        || !filter.types.is_empty()
        || !filter.tags.is_empty()
        || filter.actor.is_some()
}

/// The candidates of one indexed log.
fn from_index(
    idx: &QueryView,
    log: &Path,
    file: u32,
    q: &Query,
    filter: &Filter,
    best: &mut HashMap<u64, Candidate>,
) -> Result<()> {
    let terms = q.terms.len();
    let mut tf = vec![0f32; idx.doc_count() * terms];
    let mut touched: Vec<u32> = Vec::new();
    for (i, list) in idx.postings.iter().enumerate() {
        for &(doc, count) in list {
            let row = doc as usize * terms;
            if tf[row..row + terms].iter().all(|&x| x == 0.0) {
                touched.push(doc);
            }
            tf[row + i] = count;
        }
    }
    touched.sort_unstable();
    // A phrase needs all its words: a document missing one is no candidate, unread.
    let required: Vec<usize> = q
        .phrases
        .iter()
        .flatten()
        .filter_map(|s| q.terms.iter().position(|t| t == s))
        .collect();
    touched.retain(|&doc| required.iter().all(|&i| tf[doc as usize * terms + i] > 0.0));
    let line_checks = needs_line(q, filter);
    let mut reader: Option<std::io::BufReader<std::fs::File>> = None;
    for doc in touched {
        let Some(d) = idx.doc(doc) else { continue };
        let Some(created_at) = chrono::DateTime::from_timestamp_micros(d.created_micros) else {
            continue;
        };
        if filter.since.is_some_and(|s| created_at < s)
            || filter.until.is_some_and(|u| created_at >= u)
        {
            continue;
        }
        let c = if line_checks || (d.status == Status::Draft && filter.viewer.may_hide_drafts()) {
            let r = match &mut reader {
                Some(r) => r,
                None => {
                    reader.insert(std::io::BufReader::new(std::fs::File::open(log).map_err(
                        |e| crate::Error::io(format!("cannot read {}", log.display()), e),
                    )?))
                }
            };
            let mut line = Vec::new();
            let read = r
                .seek(std::io::SeekFrom::Start(d.offset))
                .and_then(|_| r.read_until(b'\n', &mut line));
            match read
                .ok()
                .and_then(|_| candidate(&line, file, d.offset, q, filter))
            {
                Some((_, c)) => c,
                None => continue,
            }
        } else {
            let row = doc as usize * terms;
            Candidate {
                file,
                offset: d.offset,
                order: (
                    d.status == Status::Complete,
                    u64::from(d.version),
                    d.hash_prefix,
                ),
                status: d.status,
                viewer_is_creator: true,
                created_at,
                significance: d.significance,
                tf: tf_array(&tf[row..row + terms]),
                len: d.len,
            }
        };
        let Some(id) = idx.doc_id(doc) else { continue };
        keep_best(best, id_key(id), c);
    }
    Ok(())
}

/// The best candidate of each package, and the totals.
type ScanResult = (HashMap<u64, Candidate>, Totals);

/// Scans `files` (on up to as many threads as the machine has cores, files shared out in
/// turn) and returns the best candidate of each package.
fn scan_all(
    files: &[PathBuf],
    cache: Option<&Path>,
    q: &Query,
    filter: &Filter,
) -> Result<ScanResult> {
    let matcher = scan::matcher(&q.terms)?;
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(files.len())
        .max(1);
    let results: Vec<Result<ScanResult>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let matcher = &matcher;
                s.spawn(move || -> Result<ScanResult> {
                    let mut best = HashMap::new();
                    let mut totals = Totals::default();
                    for (file, path) in files.iter().enumerate().skip(t).step_by(threads) {
                        if let Some(Ok(idx)) = cache.map(|c| index::query(c, path, &q.terms)) {
                            totals.indexed_docs += idx.doc_count() as u64;
                            from_index(&idx, path, file as u32, q, filter, &mut best)?;
                            continue;
                        }
                        // No usable index (an unreadable cache, say): scan the log itself.
                        totals.bytes_scanned += scan::scan_file(path, matcher, |offset, bytes| {
                            totals.candidate_lines += 1;
                            totals.candidate_bytes += bytes.len() as u64;
                            if let Some((id, c)) = candidate(bytes, file as u32, offset, q, filter)
                            {
                                keep_best(&mut best, id, c);
                            }
                            Ok(true)
                        })?;
                    }
                    Ok((best, totals))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Ok(Default::default())))
            .collect()
    });
    // Merge the threads' maps into the largest, so that no third map is built.
    let mut parts = results.into_iter().collect::<Result<Vec<_>>>()?;
    parts.sort_by_key(|(m, _)| std::cmp::Reverse(m.len()));
    let mut totals = Totals::default();
    let mut best = HashMap::new();
    for (i, (part, t)) in parts.into_iter().enumerate() {
        totals.indexed_docs += t.indexed_docs;
        totals.bytes_scanned += t.bytes_scanned;
        totals.candidate_bytes += t.candidate_bytes;
        totals.candidate_lines += t.candidate_lines;
        if i == 0 {
            best = part;
        } else {
            for (id, c) in part {
                keep_best(&mut best, id, c);
            }
        }
    }
    Ok((best, totals))
}

/// Runs a relevant pull over `projects`.
pub fn relevant(
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
    let mut files: Vec<PathBuf> = Vec::new();
    let mut file_project: Vec<&str> = Vec::new();
    for project in projects {
        for path in store.package_logs(project)? {
            files.push(path);
            file_project.push(project);
        }
    }
    let cache = store
        .config()
        .search_index()
        .then(|| store.layout().cache_dir());
    let (mut best, totals) = scan_all(&files, cache.as_deref(), &q, filter)?;
    // Status and draft visibility are judged on the current version.
    best.retain(|_, c| {
        filter.status.is_none_or(|s| s == c.status)
            && (c.status != Status::Draft || c.viewer_is_creator)
    });
    if best.is_empty() {
        return Ok(Vec::new());
    }
    // Document frequencies come from the same scan; the store's size in documents is estimated
    // from the bytes scanned and the mean candidate line.
    let mean_line = totals.candidate_bytes as f64 / totals.candidate_lines.max(1) as f64;
    let scanned_docs = totals.bytes_scanned as f64 / mean_line.max(1.0);
    let docs = (totals.indexed_docs as f64 + scanned_docs).max(best.len() as f64) as f32;
    let mut df = vec![0f32; q.terms.len()];
    let mut total_len = 0f32;
    for c in best.values() {
        total_len += c.len;
        for (i, &tf) in c.tf.iter().take(df.len()).enumerate() {
            if tf > 0.0 {
                df[i] += 1.0;
            }
        }
    }
    let idfs: Vec<f32> = df.iter().map(|&d| rank::idf(docs, d)).collect();
    let avg_len = total_len / best.len() as f32;
    let now = time::now();
    let mut scored: Vec<(f64, u64, &Candidate)> = best
        .iter()
        .map(|(id, c)| {
            let age_days = (now - c.created_at).num_seconds() as f32 / 86_400.0;
            let s = rank::nudge(
                rank::bm25(&c.tf[..idfs.len()], c.len, &idfs, avg_len),
                i64::from(c.significance),
                age_days,
            );
            (s as f64, *id, c)
        })
        .collect();
    // Best first: score, then the newer package, then a fixed order of ids. Only the head
    // needs sorting; a margin covers winners whose lines fail their check.
    let order = |a: &(f64, u64, &Candidate), b: &(f64, u64, &Candidate)| {
        b.0.total_cmp(&a.0)
            .then_with(|| b.2.created_at.cmp(&a.2.created_at))
            .then_with(|| a.1.cmp(&b.1))
    };
    let head = (limit.saturating_mul(2) + 16).min(scored.len());
    if head < scored.len() {
        scored.select_nth_unstable_by(head, order);
        scored.truncate(head);
    }
    scored.sort_by(order);
    // Read the winners in full; one that fails validation or its hash is reported and skipped.
    let mut out = Vec::new();
    for (score, _, c) in scored {
        if out.len() == limit {
            break;
        }
        // A line that fails its check (a hand edit, say) must not hide the package: fall back
        // to its current verified version.
        let path = &files[c.file as usize];
        let stored = match store.package_at(path, c.offset)? {
            Some(s) => Some(s),
            None => match store.package_id_at(path, c.offset) {
                Some(id) => store
                    .package_versions(file_project[c.file as usize], &id)?
                    .into_iter()
                    .max_by(crate::store::packages::version_order),
                None => None,
            },
        };
        if let Some(stored) = stored {
            let rounded = (score * 10_000.0).round() / 10_000.0;
            let matched = rank::analyze(&stored.package, &q).matched;
            out.push(Ranked {
                stored,
                score: rounded,
                matched,
                query: q.clone(),
            });
        }
    }
    Ok(out)
}
