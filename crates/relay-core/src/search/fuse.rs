//! Search modes, and hybrid search's reciprocal rank fusion: the keyword (BM25) list and the
//! vector list are merged by rank, not by score, since their scores are on different scales.
//! A package's fused score is Σ 1/(k + rank) over the lists that hold it, with k = 60.

use std::collections::HashMap;
use std::hash::Hash;

/// The fusion constant of reciprocal rank fusion: how flat the rank curve is.
pub const RRF_K: f64 = 60.0;

/// The power of a keyword match's share of the query's terms in hybrid fusion. With the share
/// itself (power 1), a lookalike that holds one word of a four-word question still counts a
/// quarter and outvotes the meaning: on the retrieval benchmark's held-out paraphrases, hybrid
/// recall@3 was 13.4% against semantic's 20.1% (the MiniLM per-token table). Cubed, it was
/// 19.6%, and the keyword set stayed at 97.6%. Counting only matches that hold every term did
/// as well or one query better on each set, but drops a match that misses one word of a long
/// query entirely; the cube keeps it, for less.
pub const KEYWORD_SHARE_POWER: i32 = 3;

/// A keyword match's weight in hybrid fusion: the share of the query's `terms` it `held`,
/// raised to [`KEYWORD_SHARE_POWER`].
pub fn keyword_weight(held: usize, terms: usize) -> f64 {
    (held.min(terms) as f64 / terms.max(1) as f64).powi(KEYWORD_SHARE_POWER)
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

/// Fuses two ranked lists (best first) by reciprocal rank fusion. The result holds every key
/// of either list, best first; ties keep the keyword list's order, then the vector list's.
pub fn rrf<K: Clone + Eq + Hash>(keyword: &[K], semantic: &[K]) -> Vec<Fused<K>> {
    let weighted: Vec<(K, f64)> = keyword.iter().map(|k| (k.clone(), 1.0)).collect();
    rrf_weighted(&weighted, semantic)
}

/// [`rrf`], each keyword entry's term 1/(k + rank) scaled by its weight in 0..=1: hybrid
/// search gives a package [`keyword_weight`], so a package that holds one word of a five-word
/// question does not outvote the vector list's best.
pub fn rrf_weighted<K: Clone + Eq + Hash>(keyword: &[(K, f64)], semantic: &[K]) -> Vec<Fused<K>> {
    let keys: Vec<K> = keyword.iter().map(|(k, _)| k.clone()).collect();
    let mut out: Vec<Fused<K>> = Vec::new();
    let mut at: HashMap<K, usize> = HashMap::new();
    for (list, is_keyword) in [(&keys[..], true), (semantic, false)] {
        for (i, key) in list.iter().enumerate() {
            let rank = i + 1;
            let slot = *at.entry(key.clone()).or_insert_with(|| {
                out.push(Fused {
                    key: key.clone(),
                    keyword_rank: None,
                    semantic_rank: None,
                    score: 0.0,
                });
                out.len() - 1
            });
            let f = &mut out[slot];
            if is_keyword {
                f.keyword_rank.get_or_insert(rank);
            } else {
                f.semantic_rank.get_or_insert(rank);
            }
            let weight = if is_keyword { keyword[i].1 } else { 1.0 };
            f.score += weight / (RRF_K + rank as f64);
        }
    }
    // Stable: equal scores keep the order of first appearance.
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
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
        let fused = rrf(&["a", "b", "c"], &["c", "d", "a"]);
        let keys: Vec<_> = fused.iter().map(|f| f.key).collect();
        // a: 1/61 + 1/63; c: 1/63 + 1/61 (a tie, kept in the keyword list's order); b: 1/62;
        // d: 1/62 (after b: the keyword list first).
        assert_eq!(keys, ["a", "c", "b", "d"]);
        assert_eq!(fused[0].keyword_rank, Some(1));
        assert_eq!(fused[0].semantic_rank, Some(3));
        assert_eq!(fused[3].keyword_rank, None);
        let expected = 1.0 / 61.0 + 1.0 / 63.0;
        assert!((fused[0].score - expected).abs() < 1e-12);
    }

    #[test]
    fn a_weak_keyword_match_counts_for_its_share() {
        // b holds a quarter of the query's terms: 0.25/61 is below d's 1/62.
        let fused = rrf_weighted(&[("b", 0.25), ("a", 1.0)], &["d", "a"]);
        let keys: Vec<_> = fused.iter().map(|f| f.key).collect();
        assert_eq!(keys, ["a", "d", "b"]);
        assert!((fused[2].score - 0.25 / 61.0).abs() < 1e-12);
    }

    #[test]
    fn a_keyword_match_weighs_the_cube_of_its_share_of_the_terms() {
        assert_eq!(keyword_weight(4, 4), 1.0);
        assert_eq!(keyword_weight(1, 2), 0.125);
        assert!((keyword_weight(1, 4) - 1.0 / 64.0).abs() < 1e-12);
        assert_eq!(keyword_weight(0, 3), 0.0);
        assert_eq!(keyword_weight(0, 0), 0.0);
        // A lookalike holding one of four words (1/64 of 1/62) cannot beat the vector list's
        // tenth (1/70), while one holding every word keeps its place beside the first.
        let fused = rrf_weighted(
            &[
                ("exact", keyword_weight(4, 4)),
                ("lookalike", keyword_weight(1, 4)),
            ],
            &["meant", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
        );
        let keys: Vec<_> = fused.iter().map(|f| f.key).collect();
        assert_eq!(keys[0], "exact");
        assert_eq!(keys.last(), Some(&"lookalike"));
    }

    #[test]
    fn one_empty_list_keeps_the_others_order() {
        let fused = rrf::<&str>(&[], &["x", "y"]);
        assert_eq!(fused.iter().map(|f| f.key).collect::<Vec<_>>(), ["x", "y"]);
        assert!(rrf::<&str>(&[], &[]).is_empty());
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
