//! Queries: words and `"quoted phrases"`, lowercased and reduced to stems, so that "leaking"
//! finds "leak" and "timezones" finds "timezone"; and prefix words (`deploy*`), which find
//! every word whose stem starts with them. The stemmer is the one the package index
//! is built with (`relay_store::index`), so a query stem and a text stem meet exactly.

pub use relay_store::index::{lowercase_into, prefix_of, stem, stem_into};

/// A parsed query.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    /// Every distinct stem, in the order first seen (phrase words included); a prefix word is
    /// kept lowercased, unstemmed, with its `*` ([`prefix_of`]).
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

/// Prefix words need at least this many characters: a shorter one would match most of a
/// store, and is searched as a word.
pub const MIN_PREFIX_CHARS: usize = 2;

/// Whether `word`, as written, holds query term `term`: its stem is the term, or starts with a
/// prefix term's prefix. Most words are turned away by a cheap prefix test before anything is
/// lowercased or stemmed: a stem is the word's own prefix, but for a last letter that
/// `-ies`/`-ied` and `-ation` rewrite.
pub fn word_has_term(word: &str, term: &str) -> bool {
    let (wanted, is_prefix) = match prefix_of(term) {
        Some(p) => (p, true),
        None => (term, false),
    };
    let keep = wanted.len().saturating_sub(1).max(1);
    if word.is_ascii()
        && wanted.is_ascii()
        && (word.len() < keep
            || !word.as_bytes()[..keep].eq_ignore_ascii_case(&wanted.as_bytes()[..keep]))
    {
        return false;
    }
    let s = stem(&word.to_lowercase());
    if is_prefix {
        s.starts_with(wanted)
    } else {
        s == wanted
    }
}

/// The text the candidate scan looks for to find words with this stem: the stem itself, less
/// a final `y` that `-ies`/`-ied` may have written (retry → `retr` finds "retries"); a prefix
/// term's prefix likewise.
pub fn scan_pattern(term: &str) -> &str {
    let stem = prefix_of(term).unwrap_or(term);
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

/// The words of a query's plain text, lowercased, each with whether a `*` follows it.
fn query_words(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(char::is_alphanumeric) {
        rest = &rest[start..];
        let end = rest
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len());
        out.push((rest[..end].to_lowercase(), rest[end..].starts_with('*')));
        rest = &rest[end..];
    }
    out
}

/// Parses a query: `"quoted phrases"`, single words, and prefix words (`deploy*`).
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
    for (word, is_prefix) in query_words(&plain) {
        if is_prefix && word.chars().count() >= MIN_PREFIX_CHARS {
            push(format!("{word}*"));
        } else if !STOPWORDS.contains(&word.as_str()) {
            push(stem(&word));
        }
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
    fn a_star_after_a_word_makes_a_prefix_term() {
        let q = parse("Deploy* leaking a* x9* \"pool* size\"");
        assert_eq!(q.terms, ["deploy*", "leak", "x9*", "pool", "siz"]);
        assert_eq!(q.phrases, [vec!["pool".to_string(), "siz".to_string()]]);
        assert!(word_has_term("Deployments", "deploy*"));
        assert!(word_has_term("deploy", "deploy*"));
        assert!(!word_has_term("redeploy", "deploy*"));
        // The stem decides, as in a stemming index: "retries" stems to "retry".
        assert!(word_has_term("retries", "retr*"));
        assert!(!word_has_term("retries", "retri*"));
        assert!(word_has_term("Leaking", "leak"));
        assert!(!word_has_term("leaky", "leak"));
        assert_eq!(scan_pattern("retry*"), "retr");
        assert_eq!(scan_pattern("deploy*"), "deplo");
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
