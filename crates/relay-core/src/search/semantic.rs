//! Semantic and hybrid search (§8.2 `mode: relevant`, with the capability flags
//! `semantic_search` and `hybrid_search` of §10.2). The vector list ranks every package's
//! current version by the cosine similarity of its vector (the store's vector index, made
//! with the configured model) with the query's, nudged by significance and recency as keyword
//! search nudges BM25; a package's similarity is its best passage's. Hybrid search fuses the
//! two by a convex combination of scores ([`fuse::convex`]): the keyword side scaled to what
//! the query could score, the vector side the nudged similarity; a keyword match outside the
//! vector list gets its similarity from the same scan. Filters apply before ranking, as in
//! keyword search.
//!
//! Memory follows the result size, not the store: each log keeps only its best few, and the
//! vectors are read through a memory map.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::search::filter::Filter;
use crate::search::fuse::{self, Mode};
use crate::search::model::Model;
use crate::search::relevant::{Explain, Ranked, keyword_list, keyword_list_weighed};
use crate::search::snapshot::{Snapshot, package_similarity};
use crate::search::vector_build::{self, logs};
use crate::search::{parse, rank};
use relay_store::Store;
use relay_store::index::{self, Doc, Indexes, KeyMap, QueryView, TYPE_OVERFLOW, id_key};
use relay_store::packages::VersionKey;
use relay_wire::error::{Error, Result};
use relay_wire::time;

/// How many of each list hybrid search fuses, at least. Deeper lists let weak keyword matches
/// (a query's common words) outvote the vector list: on the paraphrase set, unweighted fusion
/// had hybrid hit@3 at 9.8% fusing the top 10 and 3.6% fusing the top 50, and the keyword set
/// at 97.6% for both.
const FUSION_DEPTH: usize = 10;

pub use crate::request::search::ModelChoice;

/// Whether semantic search can run, and why not.
#[derive(Debug)]
pub enum ModelState {
    /// No model is configured: keyword search only.
    None,
    /// A model is configured but does not load: the reason, for a warning or an error.
    Broken { path: PathBuf, reason: String },
    /// Boxed: a loaded model is large beside the other states.
    Loaded(Box<Model>),
}

/// The configured model's folder: `given` (relative to the working folder), else the
/// config's (relative to the folder that holds `.relay/`).
pub fn model_path(store: Option<&Store>, choice: &ModelChoice) -> Option<PathBuf> {
    if let Some(given) = &choice.given {
        return Some(given.clone());
    }
    let store = store?;
    let configured = PathBuf::from(store.config().search.model.as_ref()?);
    let root = store.root();
    Some(root.parent().unwrap_or(root).join(configured))
}

/// Loads the configured model, if any.
pub fn load_model(store: Option<&Store>, choice: &ModelChoice) -> ModelState {
    match model_path(store, choice) {
        None => ModelState::None,
        Some(path) => match Model::load_configured(&path, store.map(|s| &s.config().search)) {
            Ok(m) => ModelState::Loaded(Box::new(m)),
            Err(reason) => ModelState::Broken { path, reason },
        },
    }
}

/// Whether semantic and hybrid search can run (what the conformance descriptor says): a model
/// is configured and loads.
pub fn available(store: Option<&Store>, choice: &ModelChoice) -> bool {
    matches!(load_model(store, choice), ModelState::Loaded(_))
}

/// A log's best hits, and the similarity of each wanted package (id key) met in it.
type Found = (Vec<Hit>, Vec<(u64, f32)>);

/// One package line in the vector list.
#[derive(Debug, Clone)]
struct Hit {
    id: u64,
    /// Its document in its log's package index.
    doc: usize,
    file: u32,
    offset: u64,
    order: VersionKey,
    /// When the package was made, in microseconds since the epoch.
    created_micros: i64,
    similarity: f32,
    /// What the list is ranked by: the similarity, nudged or not.
    score: f32,
}

/// A search in any mode. `model` is needed for semantic and hybrid search.
pub fn search(
    store: &Store,
    projects: &[String],
    query_text: &str,
    filter: &Filter,
    limit: usize,
    mode: Mode,
    model: Option<&Model>,
) -> Result<Vec<Ranked>> {
    let filter = &filter.prepare(store, projects)?;
    // A snapshot read ranks the store as it stood then, not through the indexes of now.
    let snapshot = match filter.as_of {
        Some(t) => Some(Snapshot::load(store, projects, filter, t)?),
        None => None,
    };
    let model = match (mode, model) {
        (Mode::Keyword, _) => {
            return match &snapshot {
                Some(s) => Ok(s.keyword(&parse(query_text), limit)),
                None => keyword_list(store, projects, query_text, filter, limit),
            };
        }
        (_, Some(m)) => m,
        (_, None) => {
            return Err(Error::SearchNotSupported(format!(
                "{} search needs an embedding model, and none is configured",
                mode.as_str()
            )));
        }
    };
    // While the transformer's vectors are being built, its static table ranks.
    let model = vector_build::space(store, projects, model)?;
    let q = parse(query_text);
    // A query of stopwords only says nothing; its vector would be noise.
    if q.terms.is_empty() || limit == 0 {
        return Ok(Vec::new());
    }
    let depth = if mode == Mode::Hybrid {
        limit.max(FUSION_DEPTH)
    } else {
        limit
    };
    // Hybrid search's keyword list comes first: the vector scan then also gives the
    // similarity of its matches, for their explanation, without embedding them again.
    let (keyword, idfs) = match (mode, &snapshot) {
        (Mode::Semantic, _) => (Vec::new(), Vec::new()),
        (_, Some(s)) => s.keyword_weighed(&q, depth),
        (_, None) => keyword_list_weighed(store, projects, query_text, filter, depth)?,
    };
    let wanted: std::collections::HashSet<u64> = keyword
        .iter()
        .map(|r| id_key(r.stored.package.id()))
        .collect();
    let mut similarity_of: HashMap<u64, f32> = HashMap::new();
    // A query with no word the model knows has no vector: semantic search finds nothing,
    // and hybrid search is its keyword list alone.
    let query = model.embed_query(query_text);
    let mut semantic = match (&query, &snapshot) {
        (Some(query), Some(s)) => s.semantic(model, query, &q, depth),
        (Some(query), None) => {
            let files = logs(store, projects)?;
            let (hits, wanted_similarities) =
                vector_list(store, &files, query, filter, depth, model, &wanted)?;
            similarity_of = wanted_similarities;
            let asked = Asked {
                model,
                vector: query,
                query: &q,
            };
            read_hits(store, &files, hits, filter, depth, &asked)?
        }
        (None, _) => Vec::new(),
    };
    if mode == Mode::Semantic {
        semantic.truncate(limit);
        return Ok(semantic
            .into_iter()
            .enumerate()
            .map(|(i, (mut r, similarity, score))| {
                r.score = round(f64::from(score));
                r.explain = Some(Explain {
                    mode,
                    keyword_rank: None,
                    semantic_rank: Some(i + 1),
                    similarity: Some(similarity),
                });
                r
            })
            .collect());
    }
    // Each side is nudged by significance and recency before the fusion, as each mode nudges
    // on its own. The keyword side is BM25 over the sum of the query terms' IDF (what a
    // package holding each term once scores); the semantic side, the nudged similarity.
    let key = |r: &Ranked| r.stored.package.id().to_string();
    let idf_sum: f32 = idfs.iter().map(|i| i.max(0.0)).sum();
    let keyword_keys: Vec<(String, f64)> = keyword
        .iter()
        .map(|r| (key(r), fuse::keyword_part(r.score, f64::from(idf_sum))))
        .collect();
    let semantic_keys: Vec<(String, f64)> = semantic
        .iter()
        .map(|(r, _, score)| (key(r), f64::from(*score)))
        .collect();
    let mut by_id: HashMap<String, (Ranked, Option<f32>)> = HashMap::new();
    for r in keyword {
        by_id.insert(key(&r), (r, None));
    }
    for (r, similarity, _) in semantic {
        match by_id.get_mut(&key(&r)) {
            Some(entry) => entry.1 = Some(similarity),
            None => {
                by_id.insert(key(&r), (r, Some(similarity)));
            }
        }
    }
    // A keyword match outside the vector list: its similarity from the vector scan (a
    // snapshot read embeds it), nudged as the vector list is.
    let now = time::now();
    for (r, similarity) in by_id.values_mut() {
        if similarity.is_none() {
            *similarity = similarity_of
                .get(&id_key(r.stored.package.id()))
                .copied()
                .or_else(|| {
                    let query = query.as_ref().filter(|_| snapshot.is_some())?;
                    package_similarity(model, &r.stored, query)
                });
        }
    }
    let nudged_similarity = |k: &String| -> f64 {
        let Some((r, Some(similarity))) = by_id.get(k) else {
            return 0.0;
        };
        let at = filter.as_of.unwrap_or(now);
        let age_days = (at - r.stored.package.created_at()).num_seconds() as f32 / 86_400.0;
        f64::from(rank::nudge(
            similarity.max(0.0),
            r.stored.package.significance(),
            age_days,
        ))
    };
    let mut out: Vec<Ranked> = Vec::new();
    for f in fuse::convex(&keyword_keys, &semantic_keys, nudged_similarity) {
        let Some((mut r, similarity)) = by_id.remove(&f.key) else {
            continue;
        };
        r.score = f.score;
        r.explain = Some(Explain {
            mode,
            keyword_rank: f.keyword_rank,
            semantic_rank: f.semantic_rank,
            similarity,
        });
        out.push(r);
    }
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| {
                b.stored
                    .package
                    .created_at()
                    .cmp(&a.stored.package.created_at())
            })
            .then_with(|| a.stored.package.id().cmp(b.stored.package.id()))
    });
    out.truncate(limit);
    for r in &mut out {
        r.score = round(r.score);
    }
    Ok(out)
}

fn round(score: f64) -> f64 {
    (score * 1_000_000.0).round() / 1_000_000.0
}

/// The best `depth` packages (current versions that pass `filter`) by their similarity with
/// `query` nudged by significance and recency, as keyword search nudges BM25; best first.
/// Each log keeps its own best `depth`, on as many threads as there are cores. Also the
/// similarity of each package of `wanted` (id keys) met on the way.
fn vector_list(
    store: &Store,
    files: &[PathBuf],
    query: &[f32],
    filter: &Filter,
    depth: usize,
    model: &Model,
    wanted: &std::collections::HashSet<u64>,
) -> Result<(Vec<Hit>, HashMap<u64, f32>)> {
    let cache = store.search_indexes();
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(files.len())
        .max(1);
    let now = time::now();
    let results: Vec<Result<Found>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let cache = cache.as_ref();
                s.spawn(move || -> Result<Found> {
                    let mut kept = Vec::new();
                    let mut met = Vec::new();
                    for (file, path) in files.iter().enumerate().skip(t).step_by(threads) {
                        let log = LogSearch {
                            store,
                            cache,
                            path,
                            file: file as u32,
                            query,
                            filter,
                            model,
                            now,
                            wanted,
                        };
                        let (best, seen) = log.best(depth)?;
                        kept.extend(best);
                        met.extend(seen);
                    }
                    Ok((kept, met))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Integrity("a search thread failed".into())))
            })
            .collect()
    });
    let mut hits = Vec::new();
    let mut similarity_of = HashMap::new();
    for r in results {
        let (kept, met) = r?;
        hits.extend(kept);
        similarity_of.extend(met);
    }
    // A package whose versions lie in several logs (a merge of two clones can do that) counts
    // once, as its current version.
    let mut best: HashMap<u64, usize> = HashMap::new();
    for (i, h) in hits.iter().enumerate() {
        let e = best.entry(h.id).or_insert(i);
        let cur = &hits[*e];
        if (h.order, std::cmp::Reverse(h.file)) > (cur.order, std::cmp::Reverse(cur.file)) {
            *e = i;
        }
    }
    let mut hits: Vec<Hit> = hits
        .into_iter()
        .enumerate()
        .filter(|(i, h)| best.get(&h.id) == Some(i))
        .map(|(_, h)| h)
        .collect();
    hits.sort_by(hit_order);
    Ok((hits, similarity_of))
}

/// Best first: score, then the newer package, then a fixed order of id keys.
fn hit_order(a: &Hit, b: &Hit) -> std::cmp::Ordering {
    b.score
        .total_cmp(&a.score)
        .then_with(|| b.created_micros.cmp(&a.created_micros))
        .then_with(|| a.id.cmp(&b.id))
}

/// The vector search of one package log.
struct LogSearch<'a> {
    store: &'a Store,
    cache: Option<&'a Indexes>,
    path: &'a Path,
    file: u32,
    query: &'a [f32],
    filter: &'a Filter,
    model: &'a Model,
    now: time::Timestamp,
    /// Packages (id keys) whose similarity is asked for wherever they rank.
    wanted: &'a std::collections::HashSet<u64>,
}

impl LogSearch<'_> {
    /// The log's best `depth` current versions that pass the filter, and the similarity of
    /// each wanted package's current version here.
    fn best(&self, depth: usize) -> Result<Found> {
        let io = |e| Error::io(format!("cannot index {}", self.path.display()), e);
        let view = match self.cache {
            Some(c) => c.query(self.path, &[]).map_err(io)?,
            None => index::scan(self.path).map_err(io)?,
        };
        let docs: Vec<Doc> = (0..view.doc_count() as u32)
            .filter_map(|i| view.doc(i))
            .collect();
        let offsets: Vec<u64> = docs.iter().map(|d| d.offset).collect();
        let vectors = match self.cache {
            Some(c) => c.vectors(self.path, &offsets, self.model),
            None => index::vectors_in_memory(self.path, &offsets, self.model),
        }
        .map_err(io)?;
        // Each package's current version in this log (its versions share the log). Id keys
        // are hashes already: the map does not hash them again. Documents are then walked in
        // order, not in the map's, so the reads below stay sequential.
        let order = |d: &Doc| VersionKey::new(d.status, u64::from(d.version), d.hash_prefix);
        let mut keys = vec![0u64; docs.len()];
        let mut is_current = vec![false; docs.len()];
        let mut current_of: KeyMap<u64, usize> = KeyMap::default();
        current_of.reserve(docs.len());
        for (i, d) in docs.iter().enumerate() {
            let Some(id) = view.doc_id(i as u32).map(id_key) else {
                continue;
            };
            keys[i] = id;
            match current_of.entry(id) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(i);
                    is_current[i] = true;
                }
                std::collections::hash_map::Entry::Occupied(mut o) => {
                    let j = *o.get();
                    if order(d) > order(&docs[j]) {
                        is_current[j] = false;
                        is_current[i] = true;
                        o.insert(i);
                    }
                }
            }
        }
        let similarities = vectors.similarities(self.query);
        let met: Vec<(u64, f32)> = (0..docs.len())
            .filter(|&i| is_current[i] && self.wanted.contains(&keys[i]))
            .map(|i| (keys[i], similarities[i]))
            .collect();
        let f = self.filter;
        let since = f.since.map(|s| s.timestamp_micros());
        let until = f.until.map(|u| u.timestamp_micros());
        let now = self.now.timestamp_micros();
        let mut scored: Vec<Hit> = Vec::new();
        for (i, d) in docs.iter().enumerate() {
            if !is_current[i] {
                continue;
            }
            let id = keys[i];
            if since.is_some_and(|s| d.created_micros < s)
                || until.is_some_and(|u| d.created_micros >= u)
                || f.status.is_some_and(|s| s != d.status)
                || !self.type_may_match(&view, d)
            {
                continue;
            }
            let similarity = similarities[i];
            let age_days = (now - d.created_micros) as f32 / 86_400_000_000.0;
            let score = rank::nudge(similarity.max(0.0), i64::from(d.significance), age_days);
            scored.push(Hit {
                id,
                doc: i,
                file: self.file,
                offset: d.offset,
                order: order(d),
                created_micros: d.created_micros,
                similarity,
                score,
            });
        }
        // Only the best few are read in order: a lines check (tags, actor, drafts) may turn
        // some away, so the sorted front grows until `depth` pass or none are left.
        let mut kept = Vec::with_capacity(depth.min(scored.len()));
        let mut sorted = 0;
        let mut front = depth.max(16);
        while kept.len() < depth && sorted < scored.len() {
            let end = (sorted + front).min(scored.len());
            let rest = &mut scored[sorted..];
            if end - sorted < rest.len() {
                rest.select_nth_unstable_by(end - sorted, hit_order);
            }
            rest[..end - sorted].sort_by(hit_order);
            for h in &scored[sorted..end] {
                if kept.len() == depth {
                    break;
                }
                let d = &docs[h.doc];
                let needs_line = !f.tags.is_empty()
                    || f.actor.is_some()
                    || (!f.types.is_empty() && d.type_code == TYPE_OVERFLOW)
                    || f.may_hide(d.status);
                if needs_line
                    && !self
                        .store
                        .package_at(self.path, h.offset)?
                        .is_some_and(|p| f.matches(&p))
                {
                    continue;
                }
                kept.push(h.clone());
            }
            sorted = end;
            front *= 4;
        }
        Ok((kept, met))
    }

    /// Whether the document's type can pass the filter, as far as the index knows it.
    fn type_may_match(&self, view: &QueryView, d: &Doc) -> bool {
        self.filter.types.is_empty()
            || d.type_code == TYPE_OVERFLOW
            || view
                .doc_type(d)
                .is_some_and(|t| self.filter.types.iter().any(|w| w == t))
    }
}

/// What a semantic query asks: the model, and the query's vector and parsed terms.
struct Asked<'a> {
    model: &'a Model,
    vector: &'a [f32],
    query: &'a crate::search::Query,
}

/// The hits read whole, best first, at most `depth`: each with its similarity and score. A
/// line that fails its check falls back to the package's current verified version, and a hit
/// whose package has a newer version elsewhere is replaced by that version (scored afresh).
fn read_hits(
    store: &Store,
    files: &[PathBuf],
    hits: Vec<Hit>,
    filter: &Filter,
    depth: usize,
    asked: &Asked,
) -> Result<Vec<(Ranked, f32, f32)>> {
    let Asked {
        model,
        vector: query,
        query: q,
    } = *asked;
    let now = time::now();
    let mut out: Vec<(Ranked, f32, f32)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for h in hits {
        if out.len() == depth {
            break;
        }
        let path = &files[h.file as usize];
        let Some(id) = store.package_id_at(path, h.offset) else {
            continue;
        };
        let Some(current) = store
            .package_versions_in(files, &id)?
            .into_iter()
            .max_by(relay_store::packages::version_order)
        else {
            continue;
        };
        if !seen.insert(id) || !filter.matches(&current) {
            continue;
        }
        let same = h.order
            == VersionKey::new(
                current.package.status(),
                current.version,
                index::hash_prefix(&current.hash),
            );
        let (similarity, score) = if same {
            (h.similarity, h.score)
        } else {
            let similarity = package_similarity(model, &current, query).unwrap_or(0.0);
            let age_days = (now - current.package.created_at()).num_seconds() as f32 / 86_400.0;
            let score = rank::nudge(
                similarity.max(0.0),
                current.package.significance(),
                age_days,
            );
            (similarity, score)
        };
        let matched = rank::analyze(&current.package, q).matched;
        out.push((
            Ranked {
                stored: current,
                score: f64::from(score),
                matched,
                query: q.clone(),
                explain: None,
            },
            similarity,
            score,
        ));
    }
    out.sort_by(|a, b| b.2.total_cmp(&a.2));
    Ok(out)
}
