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

/// Where a stem stands in a document, as a set of word numbers modulo 16: bit `i` is set when
/// the stem is word `n` of the document (every word of its [`FIELDS`], in that order, counted
/// from 0) with `n % 16 == i`. A phrase can stand only where its words' sets line up
/// ([`may_stand_in_order`]). Sixteen bits keep a posting at 8 bytes, and still turn away most
/// documents that hold a phrase's words apart (nine in ten for "memory leak" in the benchmark
/// corpus).
pub type Places = u16;

/// The place set of a word whose places are not known: it may stand anywhere.
pub const ANY_PLACE: Places = Places::MAX;

/// The place set of word number `n` alone.
pub fn place_of(n: u32) -> Places {
    1 << (n % Places::BITS)
}

/// Whether words with the place sets `sets`, in a phrase's order, can stand one right after
/// another: some word number `n` has the first word's bit, `n + 1` the second's, and so on.
/// A phrase word whose set is not known is given [`ANY_PLACE`]. Never false for a document
/// that holds the phrase; sometimes true for one that does not (the line decides).
pub fn may_stand_in_order(sets: impl IntoIterator<Item = Places>) -> bool {
    let mut common = ANY_PLACE;
    for (j, set) in sets.into_iter().enumerate() {
        // Word j of the phrase at n + j has bit (n + j) % 16: turned right by j, bit n % 16.
        common &= set.rotate_right((j % Places::BITS as usize) as u32);
    }
    common != 0
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

    #[test]
    fn place_sets_line_up_only_where_a_phrase_can_stand() {
        let set = |ns: &[u32]| ns.iter().fold(0, |s, &n| s | place_of(n));
        // "memory leak" at words 5 and 6; at 40 and 41 (past one turn of 16); across 15 | 16.
        for (a, b) in [(5, 6), (40, 41), (15, 16), (31, 32)] {
            assert!(may_stand_in_order([set(&[a, 90]), set(&[3, b])]), "{a} {b}");
        }
        assert!(!may_stand_in_order([set(&[5]), set(&[7])]), "apart");
        assert!(
            !may_stand_in_order([set(&[6]), set(&[5])]),
            "the wrong order"
        );
        assert!(
            may_stand_in_order([set(&[1]), ANY_PLACE, set(&[3])]),
            "a stopword between"
        );
        assert!(!may_stand_in_order([set(&[1]), ANY_PLACE, set(&[4])]));
        // Word numbers 16 apart share a bit: a false match the line turns away.
        assert!(may_stand_in_order([set(&[5]), set(&[22])]));
        let long: Vec<Places> = (0..40).map(|j| set(&[100 + j])).collect();
        assert!(may_stand_in_order(long), "a phrase longer than 16 words");
        assert!(may_stand_in_order(std::iter::empty()));
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
