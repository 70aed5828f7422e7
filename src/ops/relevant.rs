//! Relevant pull (§8.2 `mode: relevant`): scan the package logs for the query's stems, parse
//! only the candidate lines, rank them with BM25, and return the best. A package with several
//! versions counts once, as its current version. Per candidate only a few numbers are kept, so
//! memory follows the number of matches, not the size of the store.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;

use serde_json::Value;

use super::pull::Filter;
use crate::error::Result;
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

/// What is kept of a candidate line until the scores are known.
struct Candidate {
    file: usize,
    offset: u64,
    line: u64,
    /// The version order of `store::packages::version_order`: complete, version, hash.
    order: (bool, u64, String),
    status: Status,
    /// Whether the viewer may see it if it is a draft.
    draft_visible: bool,
    created_at: time::Timestamp,
    significance: i64,
    stats: rank::DocStats,
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
    let matcher = scan::matcher(&q.terms)?;
    let mut files: Vec<PathBuf> = Vec::new();
    let mut best: HashMap<String, Candidate> = HashMap::new();
    let mut bytes_scanned = 0u64;
    let mut candidate_bytes = 0u64;
    let mut candidate_lines = 0u64;
    let diag = store.diagnostics();
    // Status and draft visibility are judged on the current version, after the scan.
    let loose = Filter {
        status: None,
        viewer: None,
        ..filter.clone()
    };
    for project in projects {
        for path in store.package_logs(project)? {
            files.push(path.clone());
            let file = files.len() - 1;
            bytes_scanned += scan::scan_file(&path, &matcher, |line, offset, bytes| {
                candidate_lines += 1;
                candidate_bytes += bytes.len() as u64;
                let env = match serde_json::from_slice::<Value>(bytes) {
                    Ok(Value::Object(env)) => env,
                    _ => return Ok(true), // a corrupt line: the plain readers report it
                };
                let stored = match StoredPackage::from_envelope(env, &path, line) {
                    Ok(s) => s,
                    Err((kind, message)) => {
                        diag.warn(&path, line, kind, message);
                        return Ok(true);
                    }
                };
                let pkg = &stored.package;
                if !loose.matches(&stored) {
                    return Ok(true);
                }
                let stats = rank::analyze(pkg, &q);
                if stats.tf.iter().all(|&t| t == 0.0) || !stats.phrases_ok {
                    return Ok(true); // the stem matched only inside ids, keys or other words
                }
                let c = Candidate {
                    file,
                    offset,
                    line,
                    order: (
                        pkg.status() == Status::Complete,
                        stored.version,
                        stored.hash.clone(),
                    ),
                    status: pkg.status(),
                    draft_visible: filter
                        .viewer
                        .as_deref()
                        .is_none_or(|v| super::review::visible_to(pkg, v)),
                    created_at: pkg.created_at(),
                    significance: pkg.significance(),
                    stats,
                };
                match best.entry(pkg.id().to_string()) {
                    Entry::Occupied(mut e) if c.order > e.get().order => {
                        e.insert(c);
                    }
                    Entry::Occupied(_) => {}
                    Entry::Vacant(e) => {
                        e.insert(c);
                    }
                }
                Ok(true)
            })?;
        }
    }
    // Only current versions that pass the status and draft filters compete.
    best.retain(|_, c| {
        filter.status.is_none_or(|s| s == c.status)
            && (c.status != Status::Draft || c.draft_visible)
    });
    if best.is_empty() {
        return Ok(Vec::new());
    }
    // Document frequencies come from the same scan; the store's size is estimated from the
    // bytes scanned and the mean candidate line (a package line is a document).
    let mean_line = candidate_bytes as f64 / candidate_lines.max(1) as f64;
    let docs = (bytes_scanned as f64 / mean_line.max(1.0)).max(best.len() as f64) as f32;
    let mut df = vec![0f32; q.terms.len()];
    let mut total_len = 0f32;
    for c in best.values() {
        total_len += c.stats.len;
        for (i, &tf) in c.stats.tf.iter().enumerate() {
            if tf > 0.0 {
                df[i] += 1.0;
            }
        }
    }
    let idfs: Vec<f32> = df.iter().map(|&d| rank::idf(docs, d)).collect();
    let avg_len = total_len / best.len() as f32;
    let now = time::now();
    let mut scored: Vec<(f64, &String, &Candidate)> = best
        .iter()
        .map(|(id, c)| {
            let age_days = (now - c.created_at).num_seconds() as f32 / 86_400.0;
            let s = rank::nudge(
                rank::bm25(&c.stats, &idfs, avg_len),
                c.significance,
                age_days,
            );
            (s as f64, id, c)
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| b.2.created_at.cmp(&a.2.created_at))
            .then_with(|| a.1.cmp(b.1))
    });
    let mut out = Vec::new();
    for (score, _, c) in scored.into_iter().take(limit) {
        if let Some(stored) = store.package_at(&files[c.file], c.offset, c.line)? {
            let rounded = (score * 10_000.0).round() / 10_000.0;
            out.push(Ranked {
                stored,
                score: rounded,
                matched: c.stats.matched.clone(),
                query: q.clone(),
            });
        }
    }
    Ok(out)
}
