//! Which rules a text calls for: the rules one of whose keywords it holds. A process that
//! scans little (one deposit) looks for each keyword in turn, skipping those with a byte the
//! text lacks, and builds nothing; once it has scanned a quarter of a megabyte (an import,
//! `relay scan`), it builds one automaton over every keyword (Aho-Corasick, a DFA: a few
//! milliseconds), and each text costs one pass whatever the number of rules.

use std::cell::OnceCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{LazyLock, OnceLock};

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use super::rules::RULES;

/// A set of rules, by index.
#[derive(Default, PartialEq, Eq, Debug)]
pub(super) struct RuleSet([u64; 4]);

impl RuleSet {
    pub const CAPACITY: usize = 256;

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub fn has(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
}

/// A set of byte values, as four 64-bit words.
#[derive(Clone, Copy, Default)]
pub(super) struct ByteSet([u64; 4]);

impl ByteSet {
    pub fn of(bytes: &[u8]) -> ByteSet {
        // Two sets filled at once, from alternate bytes: one alone waits on its last update.
        let (mut a, mut b) = ([0u64; 4], [0u64; 4]);
        let mut pairs = bytes.chunks_exact(2);
        for pair in &mut pairs {
            a[usize::from(pair[0] >> 6)] |= 1 << (pair[0] & 63);
            b[usize::from(pair[1] >> 6)] |= 1 << (pair[1] & 63);
        }
        for &x in pairs.remainder() {
            a[usize::from(x >> 6)] |= 1 << (x & 63);
        }
        ByteSet([a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]])
    }

    #[cfg(test)]
    pub fn has(&self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }

    /// The set with each ASCII capital also counted as its small letter.
    pub fn folded(&self) -> ByteSet {
        // `A`–`Z` are bits 1–26 of the second word; `a`–`z` are 32 bits above them.
        let capitals = self.0[1] & (((1u64 << 26) - 1) << 1);
        let mut set = *self;
        set.0[1] |= capitals << 32;
        set
    }

    pub fn within(&self, other: &ByteSet) -> bool {
        (0..4).all(|i| self.0[i] & !other.0[i] == 0)
    }
}

/// Every rule's keywords, each once and in lowercase, and for each the rules that name it:
/// with its spelling when the rule wants that case, `None` when any case will do (a rule
/// that finds assignments, and only in a text with `=` or `:`).
struct Keywords {
    words: Vec<String>,
    bytes: Vec<ByteSet>,
    users: Vec<Vec<(usize, Option<&'static str>)>>,
    /// Whether a rule that finds assignments names the keyword.
    assigning: Vec<bool>,
}

fn keywords() -> &'static Keywords {
    static KEYWORDS: LazyLock<Keywords> = LazyLock::new(|| {
        assert!(
            RULES.len() <= RuleSet::CAPACITY,
            "a RuleSet holds every rule"
        );
        let mut words: Vec<String> = Vec::new();
        let mut users: Vec<Vec<(usize, Option<&'static str>)>> = Vec::new();
        for (i, rule) in RULES.iter().enumerate() {
            for &k in rule.keywords {
                let lower = k.to_ascii_lowercase();
                let at = words.iter().position(|w| *w == lower).unwrap_or_else(|| {
                    words.push(lower);
                    users.push(Vec::new());
                    words.len() - 1
                });
                users[at].push((i, (!rule.fold).then_some(k)));
            }
        }
        Keywords {
            bytes: words.iter().map(|w| ByteSet::of(w.as_bytes())).collect(),
            assigning: (users.iter())
                .map(|u| u.iter().any(|(_, spelling)| spelling.is_none()))
                .collect(),
            words,
            users,
        }
    });
    &KEYWORDS
}

/// The automaton over every keyword, once this process has scanned enough to pay for it.
fn automaton(scanning: usize) -> Option<&'static AhoCorasick> {
    static SCANNED: AtomicUsize = AtomicUsize::new(0);
    if let Some(dfa) = DFA.get() {
        return Some(dfa);
    }
    if SCANNED.fetch_add(scanning, Ordering::Relaxed) < 1 << 18 {
        return None;
    }
    Some(dfa())
}

static DFA: OnceLock<AhoCorasick> = OnceLock::new();

fn dfa() -> &'static AhoCorasick {
    DFA.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::DFA))
            .build(&keywords().words)
            .expect("the keywords build an automaton")
    })
}

/// The rules whose keywords `text` holds.
pub(super) fn candidates(text: &str) -> RuleSet {
    match automaton(text.len()) {
        Some(dfa) => candidates_in_one_pass(text, dfa),
        None => candidates_one_by_one(text),
    }
}

/// Whether `text` has `=` or `:`, asked once.
fn assigns(text: &str, cell: &OnceCell<bool>) -> bool {
    *cell.get_or_init(|| memchr::memchr2(b'=', b':', text.as_bytes()).is_some())
}

fn candidates_in_one_pass(text: &str, dfa: &AhoCorasick) -> RuleSet {
    let k = keywords();
    let mut set = RuleSet::default();
    let has_assignment = OnceCell::new();
    for m in dfa.find_overlapping_iter(text) {
        for &(i, spelling) in &k.users[m.pattern().as_usize()] {
            let wanted = match spelling {
                Some(word) => &text.as_bytes()[m.start()..m.end()] == word.as_bytes(),
                None => assigns(text, &has_assignment),
            };
            if wanted {
                set.insert(i);
            }
        }
    }
    set
}

fn candidates_one_by_one(text: &str) -> RuleSet {
    let k = keywords();
    let mut set = RuleSet::default();
    let has_assignment = OnceCell::new();
    let lower = OnceCell::new();
    // Which bytes occur, in one pass: a keyword with a byte that does not occur cannot be in
    // the text, and most are ruled out so, without searching for them.
    let seen = ByteSet::of(text.as_bytes());
    let folded = seen.folded();
    for (at, word) in k.words.iter().enumerate() {
        if !k.bytes[at].within(&folded) {
            continue;
        }
        for &(i, spelling) in &k.users[at] {
            let wanted = !set.has(i)
                && match spelling {
                    Some(s) => ByteSet::of(s.as_bytes()).within(&seen) && text.contains(s),
                    None => {
                        assigns(text, &has_assignment)
                            && (lower.get_or_init(|| text.to_ascii_lowercase()))
                                .contains(word.as_str())
                    }
                };
            if wanted {
                set.insert(i);
            }
        }
    }
    set
}

/// Whether a member name holds a keyword of a rule that finds assignments: its value is then
/// read as assigned to it (`"stripe_key": "…"` as `stripe_key=…`).
pub(super) fn names_an_assignment(name: &str) -> bool {
    match DFA.get() {
        Some(dfa) => names_in_one_pass(name, dfa),
        None => names_one_by_one(name),
    }
}

fn names_in_one_pass(name: &str, dfa: &AhoCorasick) -> bool {
    let k = keywords();
    (dfa.find_overlapping_iter(name)).any(|m| k.assigning[m.pattern().as_usize()])
}

fn names_one_by_one(name: &str) -> bool {
    let k = keywords();
    let folded = ByteSet::of(name.as_bytes()).folded();
    (k.words.iter().enumerate()).any(|(at, word)| {
        k.assigning[at]
            && k.bytes[at].within(&folded)
            && (name.as_bytes().windows(word.len()))
                .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
    })
}

/// The two ways of finding keywords agree, on `text` and on each word of it as a name.
#[cfg(test)]
pub(super) fn assert_both_ways_agree(text: &str) {
    assert_eq!(
        candidates_in_one_pass(text, dfa()),
        candidates_one_by_one(text),
        "{text}"
    );
    for name in text
        .split([' ', '\n', '"', '=', ':'])
        .filter(|n| !n.is_empty())
    {
        assert_eq!(
            names_in_one_pass(name, dfa()),
            names_one_by_one(name),
            "{name}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sets_fold_capitals_only() {
        let set = ByteSet::of(b"AbZ_=");
        let folded = set.folded();
        for b in *b"abzAZ_=" {
            assert!(folded.has(b), "{}", b as char);
        }
        assert!(!set.has(b'a') && !set.has(b'z'));
        assert!(!folded.has(b'B') && !folded.has(b'c') && !folded.has(b'@' + 32));
        assert!(ByteSet::of(b"ab").within(&folded));
        assert!(!ByteSet::of(b"abc").within(&folded));
    }
}
