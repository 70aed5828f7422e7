//! Queries: words and `"quoted phrases"`, lowercased and reduced to stems, so that "leaking"
//! finds "leak" and "timezones" finds "timezone". The same tokenizer and stemmer read the
//! packages, so a query stem and a text stem meet exactly.

/// A parsed query.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    /// Every distinct stem, in the order first seen (phrase words included).
    pub terms: Vec<String>,
    /// Phrases as stem sequences; a package must contain each one, word after word.
    pub phrases: Vec<Vec<String>>,
}

/// At most this many distinct stems of a query are searched for; the rest are ignored.
pub const MAX_TERMS: usize = 8;

/// Words too common to rank by. Dropped from a query unless it holds nothing else.
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "in", "is", "it", "of",
    "on", "or", "that", "the", "this", "to", "was", "we", "were", "will", "with",
];

/// Lowercased words: runs of letters and digits (Unicode-aware).
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

fn is_vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// A light suffix stemmer of our own, so that inflections of one word share a stem: leak,
/// leaks, leaked, leaking → `leak`; timezone, timezones → `timezon`; index, indexes, indexing
/// → `index`; retry, retries, retried → `retry`; setting, settings → `set`; add, added →
/// `add`. Plurals go first, then `-ation`, `-ied`, `-ing` and `-ed`, then a final `e`. Words
/// of three letters or fewer, and non-ASCII words, stay as they are.
///
/// A stem is always a prefix of the lowercased word, but for a final `y` that `-ies`/`-ied`
/// write; the candidate scan and the term matcher rely on that.
pub fn stem(word: &str) -> String {
    let mut w = String::new();
    stem_into(word, &mut w);
    w
}

/// [`stem`], written into `w` (whose buffer is reused).
pub fn stem_into(word: &str, w: &mut String) {
    w.clear();
    w.push_str(word);
    if word.len() <= 3 || !word.is_ascii() {
        return;
    }
    let strip = |w: &mut String, suffix: &str, with: &str, min_left: usize| -> bool {
        if w.ends_with(suffix) && w.len() - suffix.len() >= min_left {
            w.truncate(w.len() - suffix.len());
            w.push_str(with);
            true
        } else {
            false
        }
    };
    // Plurals.
    let _ = strip(w, "ies", "y", 3)
        || strip(w, "sses", "ss", 2)
        || ((w.ends_with("xes")
            || w.ends_with("ches")
            || w.ends_with("shes")
            || w.ends_with("zes"))
            && strip(w, "es", "", 3))
        || (w.ends_with('s')
            && !w.ends_with("ss")
            && !w.ends_with("us")
            && !w.ends_with("is")
            && strip(w, "s", "", 3));
    // Derivations and verb endings.
    let _ = strip(w, "ation", "at", 3) || strip(w, "ied", "y", 3) || strip_verb(w);
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
}

/// `word` lowercased into `out` (whose buffer is reused), as [`str::to_lowercase`] has it.
pub fn lowercase_into(word: &str, out: &mut String) {
    out.clear();
    if word.is_ascii() {
        out.extend(word.bytes().map(|b| char::from(b.to_ascii_lowercase())));
    } else {
        out.push_str(&word.to_lowercase());
    }
}

/// `-ing` and `-ed` (not after `e`: speed, proceed), undoubling a final consonant (running →
/// run) except l, s and z, and never below three letters (added → add).
fn strip_verb(w: &mut String) -> bool {
    for suffix in ["ing", "ed"] {
        if w.ends_with(suffix) && w.len() - suffix.len() >= 3 {
            let base = &w.as_bytes()[..w.len() - suffix.len()];
            if !base.iter().any(|&c| is_vowel(c) || c == b'y')
                || (suffix == "ed" && base.ends_with(b"e"))
            {
                return false;
            }
            let n = base.len();
            let undouble = n > 3
                && base[n - 1] == base[n - 2]
                && !is_vowel(base[n - 1])
                && !matches!(base[n - 1], b'l' | b's' | b'z');
            w.truncate(if undouble { n - 1 } else { n });
            return true;
        }
    }
    false
}

/// The text the candidate scan looks for to find words with this stem: the stem itself, less
/// a final `y` that `-ies`/`-ied` may have written (retry → `retr` finds "retries").
pub fn scan_pattern(stem: &str) -> &str {
    match stem.strip_suffix('y') {
        Some(rest) if rest.len() >= 3 => rest,
        _ => stem,
    }
}

/// The stems of a text, in order.
pub fn stems(text: &str) -> Vec<String> {
    words(text).map(|w| stem(&w)).collect()
}

/// Parses a query: `"quoted phrases"` and single words.
pub fn parse(text: &str) -> Query {
    let mut q = Query::default();
    let mut plain = String::new();
    for (i, part) in text.split('"').enumerate() {
        if i % 2 == 1 {
            let phrase = stems(part);
            if phrase.len() > 1 {
                q.phrases.push(phrase);
            } else {
                plain.push(' ');
                plain.push_str(part);
            }
        } else {
            plain.push(' ');
            plain.push_str(part);
        }
    }
    let chosen: Vec<String> = words(&plain)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect();
    let mut push = |s: String| {
        if !q.terms.contains(&s) && q.terms.len() < MAX_TERMS {
            q.terms.push(s);
        }
    };
    for w in &chosen {
        push(stem(w));
    }
    for phrase in q.phrases.clone() {
        for s in phrase
            .into_iter()
            .filter(|s| !STOPWORDS.contains(&s.as_str()))
        {
            push(s);
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reused_buffers_give_what_the_allocating_forms_give() {
        let (mut lower, mut stemmed) = (String::from("leftover"), String::from("leftover"));
        for word in [
            "Leaking",
            "RETRIES",
            "ΣΊΣΥΦΟΣ",
            "Straße",
            "x",
            "Indexes",
            "tést",
        ] {
            lowercase_into(word, &mut lower);
            assert_eq!(lower, word.to_lowercase());
            stem_into(&lower, &mut stemmed);
            assert_eq!(stemmed, stem(&word.to_lowercase()));
        }
    }

    #[test]
    fn inflections_share_a_stem() {
        let groups: &[&[&str]] = &[
            &["leak", "leaks", "leaked", "leaking"],
            &["timezone", "timezones"],
            &["index", "indexes", "indexed", "indexing"],
            &["retry", "retries", "retried", "retrying"],
            &["cache", "caches", "cached", "caching"],
            &[
                "migrate",
                "migrated",
                "migration",
                "migrations",
                "migrating",
            ],
            &["run", "running", "runs"],
            &["stop", "stopped", "stopping"],
            &["pass", "passes", "passed", "passing"],
            &["deploy", "deploys", "deployed", "deploying"],
            &["setting", "settings"],
            &["warning", "warnings", "warn", "warns", "warned"],
            &["speed", "speeds"],
            &["proceed", "proceeds"],
            &["add", "added", "adds", "adding"],
            &["query", "queries", "queried"],
            &["dependency", "dependencies"],
            &["apply", "applies", "applied", "applying"],
        ];
        for group in groups {
            let first = stem(group[0]);
            for w in group.iter() {
                assert_eq!(stem(w), first, "{w} vs {}", group[0]);
            }
        }
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("bus"), "bus");
        assert_eq!(stem("thing"), "thing", "too short to lose -ing");
        assert_eq!(stem("café"), "café");
        for w in [
            "retries",
            "applied",
            "settings",
            "added",
            "migrations",
            "timezones",
            "queries",
        ] {
            let s = stem(w);
            assert!(
                w.starts_with(scan_pattern(&s)),
                "{w}: stem {s} is found by the scan"
            );
        }
    }

    #[test]
    fn queries_keep_phrases_and_drop_stopwords() {
        let q = parse(r#"the "memory leaks" in Billing"#);
        assert_eq!(
            q.phrases,
            vec![vec!["memory".to_string(), "leak".to_string()]]
        );
        assert_eq!(q.terms, ["bill", "memory", "leak"]);
        assert!(
            parse("the").terms.is_empty(),
            "stopwords never become search terms"
        );
        let q = parse(r#""out of memory""#);
        assert_eq!(q.terms, ["out", "memory"]);
        assert_eq!(
            q.phrases,
            vec![vec![
                "out".to_string(),
                "of".to_string(),
                "memory".to_string()
            ]]
        );
        assert_eq!(
            parse(r#""single""#).terms,
            ["singl"],
            "a one-word phrase is a word"
        );
        assert_eq!(parse("").terms, Vec::<String>::new());
        assert_eq!(
            words("Ünïcode-Wörds_x").collect::<Vec<_>>(),
            ["ünïcode", "wörds", "x"]
        );
    }
}
