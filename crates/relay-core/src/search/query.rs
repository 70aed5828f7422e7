//! Queries: words and `"quoted phrases"`, lowercased and reduced to stems, so that "leaking"
//! finds "leak" and "timezones" finds "timezone". The stemmer is the one the package index
//! is built with (`store::cache::terms`), so a query stem and a text stem meet exactly.

pub use relay_store::cache::terms::{lowercase_into, stem, stem_into};

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

/// Whether search ignores `word` (lower-case): too common to mean anything.
pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.contains(&word)
}

/// The distinct stems of a text's words that are not stopwords, in the order first seen: the
/// terms a query made of that text searches for (before [`MAX_TERMS`] cuts them).
pub fn content_stems(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in words(text)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .map(|w| stem(&w))
    {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
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
    let mut push = |s: String| {
        if !q.terms.contains(&s) && q.terms.len() < MAX_TERMS {
            q.terms.push(s);
        }
    };
    for s in content_stems(&plain) {
        push(s);
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
    fn content_stems_are_the_terms_of_a_plain_query() {
        let text = "The leaking pools and the leaks of retries in Billing";
        assert_eq!(content_stems(text), ["leak", "pool", "retry", "bill"]);
        assert_eq!(content_stems(text), parse(text).terms);
        assert!(content_stems("the of and to").is_empty());
        let long = "one two three four five six seven eight nine ten";
        assert_eq!(content_stems(long).len(), 10, "no cap");
        assert_eq!(parse(long).terms, content_stems(long)[..MAX_TERMS]);
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
