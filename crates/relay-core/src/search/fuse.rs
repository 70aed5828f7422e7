//! Search modes, and hybrid search's fusion: a package's fused score is a convex combination
//! of its keyword part (BM25 over the sum of the query terms' IDF, at most 1, cubed) and its
//! similarity, with [`KEYWORD_WEIGHT`]; the rule and its constants are all here. Scores, not ranks: a list's tenth can be
//! nearly as good as its first or far worse, and only the scores say which; the keyword part
//! is scaled to what the query could score, so a lookalike that shares a common word stays
//! low, whatever its rank.

use std::collections::HashMap;
use std::hash::Hash;

/// Hybrid search's parameter: the keyword side's weight α in the fused score
/// α × keyword part + (1 − α) × similarity. Chosen on LoCoMo's conversations 1–5
/// (`scripts/bench-locomo.sh`; 0.2 to 0.4 are within a point of each other there) and
/// reported on 6–10, all ten, and the project's three labelled sets.
pub const KEYWORD_WEIGHT: f64 = 0.3;

/// The power the keyword part is raised to ([`keyword_part`]): a match holding the query's
/// weight whole keeps 1, a lookalike holding half of it counts an eighth. With the part
/// itself (power 1), a lookalike that shares one rare word of a paraphrase outranked what the
/// paraphrase meant: hybrid recall@5 on the 112 paraphrases was 72.3% where semantic's was
/// 80.4%; cubed, it is semantic's, while LoCoMo moves by under a point.
pub const KEYWORD_POWER: i32 = 3;

/// A keyword match's part in hybrid fusion: its BM25 score over what a package holding each of
/// the query's terms once scores (the sum of their IDF), at most 1, raised to
/// [`KEYWORD_POWER`]. A lookalike that holds a common word of the query scores little; one
/// that holds its rare words, nearly 1.
pub fn keyword_part(bm25: f64, idf_sum: f64) -> f64 {
    if idf_sum <= 0.0 || !bm25.is_finite() {
        return 0.0;
    }
    (bm25 / idf_sum).clamp(0.0, 1.0).powi(KEYWORD_POWER)
}

/// Fuses the keyword list (each key with its [`keyword_part`]) and the vector list (each key
/// with its similarity, nudged) by a convex combination of the two:
/// [`KEYWORD_WEIGHT`] × keyword part + (1 − it) × similarity. A key of the keyword list alone
/// gets its similarity from `similarity`; one of the vector list alone has keyword part 0.
/// The result holds every key of either list, best first; ties keep the keyword list's order,
/// then the vector list's.
pub fn convex<K: Clone + Eq + Hash>(
    keyword: &[(K, f64)],
    semantic: &[(K, f64)],
    similarity: impl Fn(&K) -> f64,
) -> Vec<Fused<K>> {
    let alpha = KEYWORD_WEIGHT;
    let mut out: Vec<Fused<K>> = Vec::new();
    let mut parts: Vec<(f64, Option<f64>)> = Vec::new();
    let mut at: HashMap<K, usize> = HashMap::new();
    for (is_keyword, list) in [(true, keyword), (false, semantic)] {
        for (i, (key, value)) in list.iter().enumerate() {
            let slot = *at.entry(key.clone()).or_insert_with(|| {
                out.push(Fused {
                    key: key.clone(),
                    keyword_rank: None,
                    semantic_rank: None,
                    score: 0.0,
                });
                parts.push((0.0, None));
                out.len() - 1
            });
            if is_keyword {
                out[slot].keyword_rank.get_or_insert(i + 1);
                parts[slot].0 = *value;
            } else {
                out[slot].semantic_rank.get_or_insert(i + 1);
                parts[slot].1 = Some(*value);
            }
        }
    }
    for (f, (keyword, similarity_part)) in out.iter_mut().zip(parts) {
        let similarity_part = similarity_part.unwrap_or_else(|| similarity(&f.key));
        f.score = alpha * keyword + (1.0 - alpha) * similarity_part;
    }
    // Stable: equal scores keep the order of first appearance.
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

/// How a search finds its packages: named where a request asks for it.
pub use crate::request::search::Mode;

/// A package's place in each list (1-based), and its fused score.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused<K> {
    pub key: K,
    pub keyword_rank: Option<usize>,
    pub semantic_rank: Option<usize>,
    pub score: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mode_is_named_and_read_back_by_its_name() {
        for (m, name) in Mode::ALL.into_iter().zip(Mode::NAMES) {
            assert_eq!(m.as_str(), name);
            assert_eq!(Mode::parse(name), Some(m));
        }
        assert_eq!(Mode::parse("fuzzy"), None);
    }

    #[test]
    fn a_package_in_both_lists_beats_one_in_either() {
        let fused = convex(&[("a", 0.5), ("b", 0.5)], &[("a", 0.6), ("c", 0.6)], |k| {
            if *k == "b" { 0.6 } else { 0.0 }
        });
        let keys: Vec<_> = fused.iter().map(|f| f.key).collect();
        // a and b: 0.3 × 0.5 + 0.7 × 0.6 (a tie, in the keyword list's order); c: 0.7 × 0.6.
        assert_eq!(keys, ["a", "b", "c"]);
        assert_eq!(fused[0].keyword_rank, Some(1));
        assert_eq!(fused[0].semantic_rank, Some(1));
        assert_eq!(
            fused[1].semantic_rank, None,
            "b's similarity came from the scan"
        );
        assert!((fused[0].score - (0.3 * 0.5 + 0.7 * 0.6)).abs() < 1e-12);
        assert!((fused[2].score - 0.7 * 0.6).abs() < 1e-12);
    }

    #[test]
    fn a_lookalike_sharing_a_common_word_stays_below_the_meaning() {
        // The query's terms weigh 1 + 4 (IDF): a lookalike holding the common one scores
        // BM25 ~1 (0.2 of the query, cubed: 0.008), the exact match ~5.5 (1, at most).
        let lookalike = keyword_part(1.0, 5.0);
        let exact = keyword_part(5.5, 5.0);
        assert!((lookalike - 0.008).abs() < 1e-12);
        assert_eq!(exact, 1.0);
        assert!(
            (keyword_part(2.5, 5.0) - 0.125).abs() < 1e-12,
            "half the weight: an eighth"
        );
        let fused = convex(
            &[("lookalike", lookalike)],
            &[("meant", 0.55), ("lookalike", 0.2)],
            |_| 0.0,
        );
        assert_eq!(fused[0].key, "meant");
        let fused = convex(&[("exact", exact)], &[("meant", 0.55)], |_| 0.35);
        assert_eq!(fused[0].key, "exact", "0.3 + 0.245 over 0.385");
        assert_eq!(keyword_part(1.0, 0.0), 0.0, "a query of no weight");
        assert_eq!(keyword_part(f64::NAN, 1.0), 0.0);
    }

    #[test]
    fn one_empty_list_keeps_the_others_order() {
        let fused = convex::<&str>(&[], &[("x", 0.5), ("y", 0.4)], |_| 0.0);
        assert_eq!(fused.iter().map(|f| f.key).collect::<Vec<_>>(), ["x", "y"]);
        assert!(convex::<&str>(&[], &[], |_| 0.0).is_empty());
    }

    #[test]
    fn modes_parse_their_names() {
        for m in Mode::ALL {
            assert_eq!(Mode::parse(m.as_str()), Some(m));
        }
        assert_eq!(Mode::parse("fuzzy"), None);
        assert!(!Mode::Keyword.needs_model() && Mode::Hybrid.needs_model());
    }
}
