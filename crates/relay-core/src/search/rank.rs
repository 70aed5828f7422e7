//! BM25 over a package's text fields, with field weights (a BM25F-style sum: weighted term
//! counts over weighted lengths), nudged by significance and recency.

use super::query::{Query, stems, word_has_term};
use relay_wire::Package;

pub use relay_store::index::FIELDS;

pub const K1: f32 = 1.2;
pub const B: f32 = 0.75;

/// What ranking needs of one package.
#[derive(Debug, Clone, PartialEq)]
pub struct DocStats {
    /// Weighted occurrences of each query term, in `Query::terms` order.
    pub tf: Vec<f32>,
    /// Weighted length in words.
    pub len: f32,
    /// The fields holding at least one query term.
    pub matched: Vec<&'static str>,
    /// Whether every phrase of the query occurs in one field.
    pub phrases_ok: bool,
}

/// The text of a field: a string, or the strings of a list joined by newlines.
pub fn field_text(p: &Package, field: &str) -> String {
    match p.as_map().get(field) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn contains_run(haystack: &[String], run: &[String]) -> bool {
    !run.is_empty() && haystack.windows(run.len()).any(|w| w == run)
}

/// A phrase looked for word by word, as a field's words go by: a word is judged by the term
/// matches made for it already, and no stem is made for a word that cannot be one of the
/// phrase's (most of a long text). The words matched so far are bits (shift-and): bit `j` is
/// set when the last `j + 1` words are the phrase's first `j + 1`. A phrase of more than 64
/// words is looked for in each run's stems instead.
struct PhraseRun<'q> {
    words: &'q [String],
    /// Per phrase word, its term's number in the query (`None` for a stopword or a word past
    /// the query's cap of terms).
    terms: Vec<Option<usize>>,
    active: u64,
    /// Found in the field at hand; kept only if the field holds a query term.
    here: bool,
    found: bool,
}

impl<'q> PhraseRun<'q> {
    fn new(words: &'q [String], q: &Query) -> PhraseRun<'q> {
        let terms = (words.iter())
            .map(|w| q.terms.iter().position(|t| t == w))
            .collect();
        PhraseRun {
            words,
            terms,
            active: 0,
            here: false,
            found: false,
        }
    }

    fn is_long(&self) -> bool {
        self.words.len() > 64
    }

    /// A new run of words: a field, or an item of a list.
    fn restart(&mut self) {
        self.active = 0;
    }

    /// The next word, with whether it holds each query term.
    fn step(&mut self, word: &str, hits: &[bool]) {
        if self.found || self.here || self.is_long() || self.words.is_empty() {
            return;
        }
        let mut is_word = 0u64;
        for (j, (w, t)) in self.words.iter().zip(&self.terms).enumerate() {
            let holds = match t {
                Some(i) => hits[*i],
                None => word_has_term(word, w),
            };
            is_word |= u64::from(holds) << j;
        }
        self.active = ((self.active << 1) | 1) & is_word;
        self.here = self.active >> (self.words.len() - 1) & 1 == 1;
    }

    /// The end of a run (`item`, its text) for a long phrase.
    fn end_run(&mut self, item: &str) {
        if self.is_long() && !self.here && !self.found {
            self.here = contains_run(&stems(item), self.words);
        }
    }

    /// The end of a field: found in it only if it holds a query term.
    fn end_field(&mut self, field_hit: bool) {
        self.found |= self.here && field_hit;
        self.here = false;
    }
}

/// Counts the query's terms in a package's fields.
pub fn analyze(p: &Package, q: &Query) -> DocStats {
    let texts: Vec<(&'static str, f32, String)> = FIELDS
        .iter()
        .map(|&(f, w)| (f, w, field_text(p, f)))
        .collect();
    analyze_texts(texts.iter().map(|(f, w, t)| (*f, *w, t.as_str())), q)
}

/// Counts the query's terms in `(field, weight, text)` triples; lists are joined by newlines.
pub fn analyze_texts<'a>(
    fields: impl Iterator<Item = (&'static str, f32, &'a str)>,
    q: &Query,
) -> DocStats {
    let mut tf = vec![0.0f32; q.terms.len()];
    let mut len = 0.0f32;
    let mut matched = Vec::new();
    let mut hits = vec![false; q.terms.len()];
    let mut runs: Vec<PhraseRun<'_>> = (q.phrases.iter()).map(|p| PhraseRun::new(p, q)).collect();
    for (field, weight, text) in fields {
        if text.is_empty() {
            continue;
        }
        let mut hit = false;
        // In a list each item is its own run of words; a text field is one run.
        let is_list = matches!(field, "decisions_made" | "open_questions" | "tags");
        for item in text.split(|c: char| is_list && c == '\n') {
            runs.iter_mut().for_each(PhraseRun::restart);
            for word in item
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
            {
                len += weight;
                for (i, term) in q.terms.iter().enumerate() {
                    hits[i] = word_has_term(word, term);
                    if hits[i] {
                        tf[i] += weight;
                        hit = true;
                    }
                }
                runs.iter_mut().for_each(|r| r.step(word, &hits));
            }
            runs.iter_mut().for_each(|r| r.end_run(item));
        }
        runs.iter_mut().for_each(|r| r.end_field(hit));
        if hit {
            matched.push(field);
        }
    }
    DocStats {
        tf,
        len,
        matched,
        phrases_ok: runs.iter().all(|r| r.found),
    }
}

/// Inverse document frequency (the BM25 form that never goes negative).
pub fn idf(docs: f32, df: f32) -> f32 {
    (1.0 + (docs - df + 0.5) / (df + 0.5)).ln()
}

/// The BM25 score of one package, given each term's idf and the average weighted length.
pub fn bm25(tf: &[f32], len: f32, idfs: &[f32], avg_len: f32) -> f32 {
    let norm = K1 * (1.0 - B + B * len / avg_len.max(1.0));
    tf.iter()
        .zip(idfs)
        .map(|(&tf, &idf)| {
            if tf > 0.0 {
                idf * tf * (K1 + 1.0) / (tf + norm)
            } else {
                0.0
            }
        })
        .sum()
}

/// The final score: BM25 × (1 + 0.04·(significance − 5)) × (1 + 0.1·e^(−age/90 days)). So
/// significance moves a score by at most ±20%, and a package from today gains 10% over an old
/// one, halving about every two months: enough to order near-ties, never to outrank relevance.
pub fn nudge(bm25: f32, significance: i64, age_days: f32) -> f32 {
    bm25 * significance_factor(significance) * recency_factor(age_days)
}

/// What significance multiplies a score by: 0.84 to 1.2.
pub fn significance_factor(significance: i64) -> f32 {
    1.0 + 0.04 * (significance.clamp(1, 10) as f32 - 5.0)
}

/// What recency multiplies a score by: from [`MAX_RECENCY_FACTOR`] today down towards 1.
pub fn recency_factor(age_days: f32) -> f32 {
    1.0 + 0.1 * (-age_days.max(0.0) / 90.0).exp()
}

/// The most recency lifts a score by (a package from today, or dated later).
pub const MAX_RECENCY_FACTOR: f32 = 1.1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::query::parse;
    use serde_json::json;

    fn pkg(extra: serde_json::Value) -> Package {
        let mut v = json!({"package_id": "p", "project_id": "p", "relay_version": "0.1", "title": "x",
            "status": "complete", "package_type": "standard", "review_type": "none",
            "created_at": "2026-01-01T00:00:00Z", "created_by": {"id": "a", "type": "human"}});
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        Package::from_value(v).unwrap()
    }

    #[test]
    fn fields_are_weighted_and_phrases_checked() {
        let q = parse(r#"leaking "connection pool""#);
        let p = pkg(
            json!({"title": "Leak in the connection pool", "description": "the pool leaks", "tags": ["leak"]}),
        );
        let s = analyze(&p, &q);
        assert_eq!(q.terms, ["leak", "connection", "pool"]);
        assert_eq!(s.tf, vec![3.0 + 1.0 + 2.0, 3.0, 3.0 + 1.0]);
        assert_eq!(s.matched, ["title", "tags", "description"]);
        assert!(s.phrases_ok);
        let p = pkg(json!({"title": "pool of connection objects"}));
        assert!(!analyze(&p, &q).phrases_ok);
    }

    /// What a phrase check was before it went word by word: every field's (or list item's)
    /// stems collected, and the phrase looked for among them, in fields holding a term.
    fn found_by_stems(fields: &[(&'static str, &str)], q: &Query) -> bool {
        q.phrases.iter().all(|phrase| {
            fields.iter().any(|&(field, text)| {
                let hit = (text.split(|c: char| !c.is_alphanumeric()))
                    .any(|w| q.terms.iter().any(|t| word_has_term(w, t)));
                let is_list = matches!(field, "decisions_made" | "open_questions" | "tags");
                hit && match is_list {
                    true => text
                        .split('\n')
                        .any(|part| contains_run(&stems(part), phrase)),
                    false => contains_run(&stems(text), phrase),
                }
            })
        })
    }

    #[test]
    fn phrases_word_by_word_find_what_the_stems_of_each_field_find() {
        // Texts of a few words, inflected and in any case, with stopwords, lists and repeats,
        // drawn by a fixed generator; each checked for phrases of two to four words.
        let vocab = [
            "Memory", "leaks", "leak", "of", "the", "pool", "POOL", "leaking", "fix",
        ];
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let queries = [
            r#""memory leak""#,
            r#""leak leak""#,
            r#""pool of the pool""#,
            r#"fix "of the""#,
            r#""leak fix" "memory leak""#,
            r#""fix fix leak""#,
        ]
        .map(parse);
        let mut found = 0;
        for _ in 0..3000 {
            let mut text = |sep: &str| {
                let n = 1 + next(7);
                (0..n)
                    .map(|_| vocab[next(vocab.len())])
                    .collect::<Vec<_>>()
                    .join(sep)
            };
            let (title, tags, description) = (text(" "), text("\n"), text(", "));
            let fields = [
                ("title", title.as_str()),
                ("tags", &tags),
                ("description", &description),
            ];
            for q in &queries {
                let stats = analyze_texts(fields.iter().map(|&(f, t)| (f, 1.0, t)), q);
                let expected = found_by_stems(&fields, q);
                assert_eq!(stats.phrases_ok, expected, "{q:?} in {fields:?}");
                found += usize::from(expected);
            }
        }
        assert!(
            found > 1000,
            "the phrases are found often enough to test: {found}"
        );
        // A phrase of more than 64 words is looked for in the stems.
        let long = ["leak"; 70].join(" ");
        let q = parse(&format!("\"{long}\""));
        let holds = |text: &str| analyze_texts([("description", 1.0, text)].into_iter(), &q);
        assert!(holds(&format!("fix {long} fix")).phrases_ok);
        assert!(!holds(&["leak"; 69].join(" ")).phrases_ok);
    }

    #[test]
    fn rarer_terms_and_denser_matches_score_higher() {
        assert!(idf(1000.0, 1.0) > idf(1000.0, 500.0));
        assert!(idf(10.0, 10.0) > 0.0);
        let short = DocStats {
            tf: vec![3.0],
            len: 10.0,
            matched: vec![],
            phrases_ok: true,
        };
        let long = DocStats {
            tf: vec![3.0],
            len: 100.0,
            matched: vec![],
            phrases_ok: true,
        };
        assert!(bm25(&short.tf, short.len, &[1.0], 30.0) > bm25(&long.tf, long.len, &[1.0], 30.0));
        assert!(nudge(1.0, 10, 0.0) > nudge(1.0, 5, 0.0));
        assert!(nudge(1.0, 5, 0.0) > nudge(1.0, 5, 365.0));
        // The nudges order near-ties; they never lift a clearly weaker match over a stronger one.
        assert!(nudge(1.0, 1, 365.0) > nudge(0.6, 10, 0.0));
        // Recency never lifts a score past its bound, which search prunes by.
        for age in [-3.0, 0.0, 0.5, 90.0] {
            assert!(recency_factor(age) <= MAX_RECENCY_FACTOR, "{age}");
        }
        assert_eq!(recency_factor(0.0), MAX_RECENCY_FACTOR);
    }
}
