//! Search and relevant pull as of a time (`--as-of`): the ranked lists computed over the store
//! as it stood then. The indexes describe the store as it is now, so a snapshot ranks the
//! packages of [`relay_store::snapshot::packages`] directly: BM25 with document frequencies over
//! exactly those packages, vectors embedded from each package, and recency measured from the
//! snapshot's time. What was written since cannot change the answer, so asking twice gives the
//! same bytes. It reads every log up to the time, so it costs a full scan, which a replay can
//! afford and an interactive search does not need.

use crate::search::filter::Filter;
use crate::search::model::Model;
use crate::search::relevant::Ranked;
use crate::search::{Query, rank};
use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_wire::error::Result;
use relay_wire::time::Timestamp;

/// The similarity of a package read whole to the normalised `query`: its best passage's, as
/// its line's would be, unquantised; `None` when the model finds nothing in it.
pub(crate) fn package_similarity(
    model: &Model,
    stored: &StoredPackage,
    query: &[f32],
) -> Option<f32> {
    let doc = relay_store::index::Document::of(|f| {
        std::borrow::Cow::Owned(rank::field_text(&stored.package, f))
    });
    model
        .embed_document(&doc)
        .iter()
        .map(|v| cosine(v, query))
        .reduce(f32::max)
}

/// The cosine similarity of two unit vectors.
pub(crate) fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The packages a search as of a time ranks: current then, passing the filter (prepared).
pub(crate) struct Snapshot {
    packages: Vec<StoredPackage>,
    at: Timestamp,
}

/// The age of a package at `at`, in days, as the recency nudge takes it.
fn age_days(p: &StoredPackage, at: Timestamp) -> f32 {
    (at - p.package.created_at()).num_seconds() as f32 / 86_400.0
}

/// Best first: score, then the newer package, then the id (unique, so the order is total).
fn best_first(a: &(f64, &StoredPackage), b: &(f64, &StoredPackage)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0)
        .then_with(|| b.1.package.created_at().cmp(&a.1.package.created_at()))
        .then_with(|| a.1.package.id().cmp(b.1.package.id()))
}

impl Snapshot {
    /// The packages of `projects` as they stood at `at` that pass `filter`, which must be
    /// prepared for that time ([`Filter::prepare`] with `as_of`).
    pub(crate) fn load(
        store: &Store,
        projects: &[String],
        filter: &Filter,
        at: Timestamp,
    ) -> Result<Snapshot> {
        let mut packages = Vec::new();
        for project in projects {
            packages.extend(
                relay_store::snapshot::packages(store.as_of(at), project, None)?
                    .into_iter()
                    .filter(|p| filter.matches(p)),
            );
        }
        // The order the logs were read in must not matter.
        packages.sort_by(|a, b| a.package.id().cmp(b.package.id()));
        Ok(Snapshot { packages, at })
    }

    /// The keyword list: BM25 over the snapshot's packages, nudged by significance and by age
    /// at the snapshot's time; the best `limit`.
    pub(crate) fn keyword(&self, q: &Query, limit: usize) -> Vec<Ranked> {
        self.keyword_weighed(q, limit).0
    }

    /// [`Snapshot::keyword`], with the inverse document frequency of each of the query's terms.
    pub(crate) fn keyword_weighed(&self, q: &Query, limit: usize) -> (Vec<Ranked>, Vec<f32>) {
        if q.terms.is_empty() || limit == 0 {
            return (Vec::new(), Vec::new());
        }
        let stats: Vec<(&StoredPackage, rank::DocStats)> = self
            .packages
            .iter()
            .map(|p| (p, rank::analyze(&p.package, q)))
            .filter(|(_, s)| s.phrases_ok && s.tf.iter().any(|&t| t > 0.0))
            .collect();
        if stats.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let mut df = vec![0f32; q.terms.len()];
        let mut total_len = 0f64;
        for (_, s) in &stats {
            total_len += f64::from(s.len);
            for (d, &t) in df.iter_mut().zip(&s.tf) {
                if t > 0.0 {
                    *d += 1.0;
                }
            }
        }
        let docs = self.packages.len() as f32;
        let idfs: Vec<f32> = df.iter().map(|&d| rank::idf(docs, d)).collect();
        let avg_len = (total_len / stats.len() as f64) as f32;
        let mut scored: Vec<(f64, &StoredPackage, &rank::DocStats)> = stats
            .iter()
            .map(|(p, s)| {
                let bm25 = rank::bm25(&s.tf, s.len, &idfs, avg_len);
                let score = rank::nudge(bm25, p.package.significance(), age_days(p, self.at));
                (f64::from(score), *p, s)
            })
            .collect();
        scored.sort_by(|a, b| best_first(&(a.0, a.1), &(b.0, b.1)));
        scored.truncate(limit);
        let ranked = scored
            .into_iter()
            .map(|(score, p, s)| Ranked {
                stored: p.clone(),
                score: (score * 10_000.0).round() / 10_000.0,
                matched: s.matched.clone(),
                query: q.clone(),
                explain: None,
            })
            .collect();
        (ranked, idfs)
    }

    /// The vector list: each package's similarity with `query`, nudged as the keyword list
    /// is; the best `depth` as (result, similarity, nudged score), best first.
    pub(crate) fn semantic(
        &self,
        model: &Model,
        query: &[f32],
        q: &Query,
        depth: usize,
    ) -> Vec<(Ranked, f32, f32)> {
        let mut scored: Vec<(f64, &StoredPackage, f32)> = self
            .packages
            .iter()
            .filter_map(|p| {
                let similarity = package_similarity(model, p, query)?;
                let score = rank::nudge(
                    similarity.max(0.0),
                    p.package.significance(),
                    age_days(p, self.at),
                );
                Some((f64::from(score), p, similarity))
            })
            .collect();
        scored.sort_by(|a, b| best_first(&(a.0, a.1), &(b.0, b.1)));
        scored.truncate(depth);
        scored
            .into_iter()
            .map(|(score, p, similarity)| {
                let ranked = Ranked {
                    stored: p.clone(),
                    score,
                    matched: rank::analyze(&p.package, q).matched,
                    query: q.clone(),
                    explain: None,
                };
                (ranked, similarity, score as f32)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};
    use crate::search::parse;
    use serde_json::{Map, json};

    fn put(store: &Store, id: &str, title: &str) -> Timestamp {
        let mut input = Map::new();
        input.insert("package_id".into(), json!(id));
        input.insert("title".into(), json!(title));
        deposit(store, input, &context("demo"))
            .unwrap()
            .package
            .created_at()
    }

    #[test]
    fn a_snapshot_ranks_only_what_existed_then_and_later_packages_change_nothing() {
        let (_dir, store) = store_with(&["demo"]);
        put(&store, "pkg_a", "cache eviction policy");
        let then = put(&store, "pkg_b", "cache warmup");
        let projects = ["demo".to_string()];
        let filter = Filter {
            as_of: Some(then),
            ..Filter::default()
        }
        .prepare(&store, &projects)
        .unwrap();
        let ids = |store: &Store| {
            Snapshot::load(store, &projects, &filter, then)
                .unwrap()
                .keyword(&parse("cache"), 10)
                .iter()
                .map(|r| (r.stored.package.id().to_string(), r.score))
                .collect::<Vec<_>>()
        };
        let before = ids(&store);
        assert_eq!(before.len(), 2);
        // A later package with the same words changes neither the list nor the scores (the
        // document frequencies are the snapshot's).
        put(&store, "pkg_c", "cache cache cache");
        assert_eq!(ids(&store), before);
        assert!(
            Snapshot::load(&store, &projects, &filter, then)
                .unwrap()
                .keyword(&parse("the"), 10)
                .is_empty(),
            "a query of stopwords finds nothing"
        );
    }
}
