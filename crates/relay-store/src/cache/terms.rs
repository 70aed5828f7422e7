//! The terms the package index is built from: the searched fields with their weights, and
//! how a word becomes a stem. The index's postings store them, so they are part of its
//! format: changing any of them means bumping [`super::PACKAGES`]. Search's queries and
//! ranking use these same functions, so a query stem and an indexed stem meet exactly.

/// The fields searched, with their weights: title highest; then decisions, open questions,
/// the handoff note and tags; then the description and the Markdown body.
pub const FIELDS: &[(&str, f32)] = &[
    ("title", 3.0),
    ("decisions_made", 2.0),
    ("open_questions", 2.0),
    ("handoff_note", 2.0),
    ("tags", 2.0),
    ("description", 1.0),
    ("content_md", 1.0),
];

/// The prefix of a prefix term (`deploy*` in a query, kept as the term `deploy*`): it stands
/// for every stem that starts with it, as a prefix query of a stemming full-text index does.
pub fn prefix_of(term: &str) -> Option<&str> {
    term.strip_suffix('*')
}

/// One posting list from several, docs ascending, the weighted counts of a document summed:
/// what a prefix term's stems hold together.
pub fn merge_postings<'a>(lists: impl IntoIterator<Item = &'a [(u32, f32)]>) -> Vec<(u32, f32)> {
    let mut all: Vec<(u32, f32)> = lists.into_iter().flatten().copied().collect();
    all.sort_by_key(|&(doc, _)| doc);
    let mut out: Vec<(u32, f32)> = Vec::with_capacity(all.len());
    for (doc, tf) in all {
        match out.last_mut() {
            Some((last, sum)) if *last == doc => *sum += tf,
            _ => out.push((doc, tf)),
        }
    }
    out
}

/// Where a stem stands in a document, as the stems beside it. Every word of the document's
/// [`FIELDS`], in that order, is one run; for each stem the low byte holds, for every word
/// right after one of its occurrences, that word's [`neighbour_bit`], and the high byte the
/// same for every word right before one. A phrase can stand only where each word's set names
/// the next word of the phrase after it, and that word's names it before
/// ([`may_stand_in_order`]).
///
/// Sixteen bits keep a posting at 8 bytes. Format 4 kept word numbers modulo 16 instead: a
/// word met twice in a long text filled a quarter of them. At 300,000 packages with 500-word
/// descriptions, one line in seven of those holding both words of "memory leak" passed that
/// test; one in forty passes this one (one in twenty-five on the benchmark's corpus).
pub type Places = u16;

/// The place set of a word whose places are not known: it may stand anywhere.
pub const ANY_PLACE: Places = Places::MAX;

/// The bit that marks `stem` as a neighbour, 0 to 7: the top three bits of the stem's
/// [`super::Fnv`] hash, mixed as MurmurHash3's finalizer mixes (FNV's top bits alone barely
/// move with a short stem's last byte). Part of the index format: changing it means bumping
/// [`super::PACKAGES`].
pub fn neighbour_bit(stem: &str) -> u8 {
    use std::hash::Hasher as _;
    let mut fnv = super::Fnv::default();
    fnv.write(stem.as_bytes());
    let mut h = fnv.finish();
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    (h >> 61) as u8
}

/// The mark, in a stem's place set, of a word with neighbour bit `bit` right after it.
pub fn followed_by(bit: u8) -> Places {
    1 << bit
}

/// The mark, in a stem's place set, of a word with neighbour bit `bit` right before it.
pub fn preceded_by(bit: u8) -> Places {
    1 << (8 + bit)
}

/// Whether the words of a phrase, each given as its stem's [`neighbour_bit`] and its place
/// set in a document, can stand there one right after another: each word's set has the next
/// one after it, and the next one's has it before. A word whose set is not known (a stopword,
/// a term past the query's cap) is given [`ANY_PLACE`]; its neighbours are still checked for
/// it. Never false for a document that holds the phrase; sometimes true for one that does
/// not (the line decides).
pub fn may_stand_in_order(words: impl IntoIterator<Item = (u8, Places)>) -> bool {
    let mut before: Option<(u8, Places)> = None;
    for (bit, set) in words {
        if let Some((before_bit, before_set)) = before
            && (before_set & followed_by(bit) == 0 || set & preceded_by(before_bit) == 0)
        {
            return false;
        }
        before = Some((bit, set));
    }
    true
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
    stem_in_place(w);
}

/// [`stem`] of the word in `w`, written over it.
pub fn stem_in_place(w: &mut String) {
    if w.len() <= 3 || !w.is_ascii() {
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
        out.push_str(word);
        out.make_ascii_lowercase();
    } else {
        out.push_str(&word.to_lowercase());
    }
}

/// Calls `each` with every word of `text`: its runs of alphanumeric characters, as
/// `text.split(|c: char| !c.is_alphanumeric())` gives them less the empty ones. ASCII text
/// (nearly all of it) is split by its bytes, without decoding a character.
pub fn for_each_word(text: &str, mut each: impl FnMut(&str)) {
    if !text.is_ascii() {
        (text.split(|c: char| !c.is_alphanumeric()))
            .filter(|w| !w.is_empty())
            .for_each(each);
        return;
    }
    let bytes = text.as_bytes();
    let mut start = None;
    for (i, b) in bytes.iter().enumerate() {
        match (b.is_ascii_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                each(&text[s..i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        each(&text[s..]);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_the_alphanumeric_runs_whatever_the_text() {
        for text in [
            "",
            "   ",
            "Memory leak: fixed (again)",
            "x",
            "trailing word",
            "--lead and-dashes--",
            "café über naïve, 東京 tower",
            "tabs\tand\nnewlines\r\n42nd",
        ] {
            let mut words = Vec::new();
            for_each_word(text, |w| words.push(w.to_string()));
            let by_chars: Vec<&str> = (text.split(|c: char| !c.is_alphanumeric()))
                .filter(|w| !w.is_empty())
                .collect();
            assert_eq!(words, by_chars, "{text:?}");
        }
    }

    /// The place sets of the stems of `text`, as the index builds them, with each stem's
    /// neighbour bit.
    fn sets_of(text: &str) -> std::collections::HashMap<String, (u8, Places)> {
        let words: Vec<String> = text.split(' ').map(stem).collect();
        let mut sets = std::collections::HashMap::new();
        for (i, w) in words.iter().enumerate() {
            let mut set = 0;
            if let Some(next) = words.get(i + 1) {
                set |= followed_by(neighbour_bit(next));
            }
            if let Some(before) = i.checked_sub(1).map(|j| &words[j]) {
                set |= preceded_by(neighbour_bit(before));
            }
            let entry = sets.entry(w.clone()).or_insert((neighbour_bit(w), 0));
            entry.1 |= set;
        }
        sets
    }

    #[test]
    fn place_sets_line_up_only_where_a_phrase_can_stand() {
        let phrase = |sets: &std::collections::HashMap<String, (u8, Places)>, words: &str| {
            may_stand_in_order(words.split(' ').map(|w| {
                let s = stem(w);
                sets.get(&s).copied().unwrap_or((neighbour_bit(&s), 0))
            }))
        };
        let text = "a memory leak in the pool of connections after the leak";
        let sets = sets_of(text);
        for held in [
            "memory leak",
            "a memory leak in",
            "pool of connections",
            "the leak",
        ] {
            assert!(phrase(&sets, held), "{held}");
        }
        // The bits are the format's (and the words below were chosen by them).
        let bits = ["memory", "leak", "pool", "of", "a"].map(neighbour_bit);
        assert_eq!(bits, [1, 1, 0, 3, 7]);
        assert!(!phrase(&sets, "leak memory"), "the wrong order");
        assert!(!phrase(&sets, "memory pool"), "apart");
        assert!(!phrase(&sets, "absent leak"), "a word the text lacks");
        // A word whose set is not known may stand anywhere; its neighbours still name it.
        let any = |w: &str| (neighbour_bit(w), ANY_PLACE);
        let (pool, conn) = (sets["pool"], sets[&stem("connections")]);
        assert!(
            may_stand_in_order([pool, any("of"), conn]),
            "a stopword between"
        );
        assert!(!may_stand_in_order([pool, any("a"), conn]));
        assert!(may_stand_in_order([any("pool"), any("in"), any("conn")]));
        assert!(may_stand_in_order(std::iter::empty()));
        assert!(may_stand_in_order([pool]), "one word");
        // Even one-letter stems spread over the eight bits.
        let bits: std::collections::HashSet<u8> = [
            "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p",
        ]
        .iter()
        .map(|w| neighbour_bit(w))
        .collect();
        assert!(bits.len() >= 6, "{bits:?}");
    }

    #[test]
    fn a_prefix_term_is_marked_by_its_star_and_its_lists_merge_by_document() {
        assert_eq!(prefix_of("deploy*"), Some("deploy"));
        assert_eq!(prefix_of("deploy"), None);
        let a: &[(u32, f32)] = &[(1, 3.0), (4, 1.0)];
        let b: &[(u32, f32)] = &[(0, 2.0), (4, 2.0), (9, 1.0)];
        assert_eq!(
            merge_postings([a, b]),
            vec![(0, 2.0), (1, 3.0), (4, 3.0), (9, 1.0)]
        );
        assert!(merge_postings([]).is_empty());
    }
}
