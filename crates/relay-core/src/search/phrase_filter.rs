//! A cheap first test of a phrase on a log line's raw bytes, before the line is parsed: a
//! phrase's words must appear in it one after another, with nothing but separators between.
//! A phrase of two common words has tens of thousands of candidate lines at a million
//! packages (every line holding both words) but only hundreds where they touch; parsing and
//! analysing every one was most of a phrase search. The test may pass a line the full check
//! then turns away (the words in two fields, say); it never fails a line that holds the phrase.

use grep_matcher::Matcher;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};

use super::query::{Query, scan_pattern};

/// The filter of a query's phrases; `None` when the query has none, or when a phrase has a
/// word the raw bytes may not show as it is read (a non-ASCII word may be written as `\u`
/// escapes), so that only the full check can judge.
pub struct PhraseFilter {
    phrases: Vec<RegexMatcher>,
}

/// Between two words of a phrase in a stored line: anything that is not a letter or digit,
/// a JSON escape (`\n`, `\"`, a `\u` escape of a separator), or both.
const SEPARATOR: &str = r#"(?:[^\p{Alphabetic}\p{N}\\]|\\[nrtbf"\\/]|\\u[0-9a-fA-F]{4})+"#;

impl PhraseFilter {
    pub fn of(q: &Query) -> Option<PhraseFilter> {
        if q.phrases.is_empty() || q.phrases.iter().flatten().any(|s| !s.is_ascii()) {
            return None;
        }
        let phrases = q
            .phrases
            .iter()
            .map(|phrase| {
                // Each word starts with its stem's scan pattern (a stem is its word's prefix,
                // but for a final `y` the pattern leaves out) and runs on to its end.
                let words: Vec<String> = phrase
                    .iter()
                    .map(|s| format!(r"{}[\p{{Alphabetic}}\p{{N}}]*", escape(scan_pattern(s))))
                    .collect();
                RegexMatcherBuilder::new()
                    .case_insensitive(true)
                    .unicode(true)
                    .build(&words.join(SEPARATOR))
                    .ok()
            })
            .collect::<Option<Vec<_>>>()?;
        Some(PhraseFilter { phrases })
    }

    /// Whether `line` may hold every phrase.
    pub fn may_match(&self, line: &[u8]) -> bool {
        self.phrases
            .iter()
            .all(|m| m.is_match(line).unwrap_or(true))
    }
}

/// `text` with the characters regular expressions treat specially escaped (stems are letters
/// and digits, so this is a guard, not a need).
fn escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let special = !c.is_alphanumeric();
            special.then_some('\\').into_iter().chain([c])
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::search::query::parse;
    use crate::search::rank::analyze_texts;

    fn line(text: &str) -> Vec<u8> {
        serde_json::json!({"package": {"title": text}})
            .to_string()
            .into_bytes()
    }

    #[test]
    fn lines_holding_the_phrase_pass_and_lines_with_the_words_apart_do_not() {
        let f = PhraseFilter::of(&parse(r#""memory leak" pool"#)).unwrap();
        for text in [
            "A memory leak",
            "MEMORY LEAKS in prod",
            "memory—leaking",
            "memory\nleak",
            "memory \"leak\"",
            "memories, leaked",
        ] {
            assert!(f.may_match(&line(text)), "{text:?}");
            let q = parse(r#""memory leak""#);
            let full = analyze_texts([("title", 3.0, text)].into_iter(), &q);
            assert!(full.phrases_ok || text.starts_with("memories"), "{text:?}");
        }
        for text in ["memory of a leak", "leak memory", "memo leak", "memory"] {
            assert!(!f.may_match(&line(text)), "{text:?}");
        }
        assert!(
            PhraseFilter::of(&parse("memory leak")).is_none(),
            "no phrase"
        );
        assert!(
            PhraseFilter::of(&parse(r#""café crème""#)).is_none(),
            "non-ASCII"
        );
    }

    #[test]
    fn the_filter_never_turns_away_a_line_the_full_check_accepts() {
        // Words and separators drawn at random: wherever the full check finds the phrase, the
        // raw-bytes filter passes the line.
        let words = ["retry", "retries", "the", "budget", "budgets", "a", "x"];
        let seps = [" ", ", ", "\n", "\t", " — ", "\"", "\\", "/", "-"];
        let q = parse(r#""retries the budget""#);
        let f = PhraseFilter::of(&q).unwrap();
        let mut next = draws(7);
        let mut hits = 0;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..6 {
                text.push_str(words[next(words.len())]);
                text.push_str(seps[next(seps.len())]);
            }
            let full = analyze_texts([("title", 3.0, text.as_str())].into_iter(), &q);
            if full.tf.iter().all(|&t| t > 0.0) && full.phrases_ok {
                hits += 1;
                assert!(f.may_match(&line(&text)), "{text:?}");
            }
        }
        assert!(hits > 10, "the test drew {hits} lines holding the phrase");
    }

    /// Numbers drawn from `seed` (a linear congruential generator): each call gives one below
    /// its argument. Tests that draw random texts use it, so that a failure repeats.
    pub(crate) fn draws(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        }
    }
}
