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

/// The rest of a word after its stem's pattern: letters and digits. The filter works on bytes
/// and knows ASCII only, so every byte of a character beyond ASCII counts as one (it may be a
/// letter); it also counts as a separator below. The filter so passes every line the same test
/// over Unicode letters would, at a fraction of the cost of building Unicode's classes into
/// the regex (half a millisecond a phrase search).
const WORD_REST: &str = r"(?:[A-Za-z0-9]|[\x80-\xFF])*";

/// Between two words of a phrase in a stored line: anything that is not an ASCII letter or
/// digit (any byte of a character beyond ASCII among them), a JSON escape (`\n`, `\"`, a `\u`
/// escape of a separator), or both.
const SEPARATOR: &str = r#"(?:[^A-Za-z0-9\\]|\\[nrtbf"\\/]|\\u[0-9a-fA-F]{4})+"#;

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
                    .map(|s| format!("{}{WORD_REST}", folded(scan_pattern(s))))
                    .collect();
                RegexMatcherBuilder::new()
                    .case_insensitive(true)
                    .unicode(false)
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

/// A pattern for `text` (ASCII letters and digits, matched in any case by the regex) that
/// also matches the only letters beyond ASCII that Unicode folds to ASCII ones: the Kelvin sign
/// for `k` and the long s for `s`, in UTF-8. Anything else is escaped (a guard, not a need).
fn folded(text: &str) -> String {
    (text.chars())
        .map(|c| match c.to_ascii_lowercase() {
            'k' => r"(?:k|\xE2\x84\xAA)".to_string(),
            's' => r"(?:s|\xC5\xBF)".to_string(),
            c if c.is_ascii_alphanumeric() => c.to_string(),
            c => format!("\\{c}"),
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
        // Unicode's case folds and letters beyond ASCII: in a word or between words, the bytes
        // filter passes the line, as a test over Unicode letters would.
        for text in [
            "MEMORY LEA\u{212A}",
            "memorie\u{17F} leak",
            "memoryé leak",
            "memory\u{a0}leak",
            "memory\u{2003}\u{2014}leak",
        ] {
            assert!(f.may_match(&line(text)), "{text:?}");
            assert!(f.may_match(text.as_bytes()), "raw {text:?}");
        }
        for text in [
            "memory of a leak",
            "leak memory",
            "memo leak",
            "memory",
            "memoryleak",
        ] {
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
        let seps = [
            " ", ", ", "\n", "\t", " — ", "\"", "\\", "/", "-", "\u{a0}", "·",
        ];
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
