//! Credential detection for everything relay is asked to store: a store is committed and
//! shared, so a pasted key would leak into every clone for good. Each rule has a stable id;
//! keyword prefilters keep the cost low on large inputs. Pure: matching and redaction only.

mod rules;

use grep_matcher::{Captures, Matcher};
use grep_regex::RegexMatcher;
use serde_json::{Map, Value};

use rules::RULES;

/// One credential found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    /// Byte range of the secret itself in the text.
    pub start: usize,
    pub end: usize,
}

/// The rule ids, for documentation and `--help`.
pub fn rule_ids() -> Vec<&'static str> {
    RULES.iter().map(|r| r.id).collect()
}

/// Rule `i`'s matcher, built the first time a text passes its keyword prefilter (most texts
/// never build any).
fn matcher(i: usize) -> Option<&'static RegexMatcher> {
    static MATCHERS: [std::sync::OnceLock<Option<RegexMatcher>>; RULES.len()] =
        [const { std::sync::OnceLock::new() }; RULES.len()];
    MATCHERS
        .get(i)?
        .get_or_init(|| RegexMatcher::new(RULES[i].pattern).ok())
        .as_ref()
}

/// A set of byte values, as four 64-bit words.
#[derive(Clone, Copy, Default)]
struct ByteSet([u64; 4]);

impl ByteSet {
    fn of(bytes: &[u8]) -> ByteSet {
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

    fn has(&self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }

    /// The set with each ASCII capital also counted as its small letter.
    fn folded(&self) -> ByteSet {
        // `A`–`Z` are bits 1–26 of the second word; `a`–`z` are 32 bits above them.
        let capitals = self.0[1] & (((1u64 << 26) - 1) << 1);
        let mut set = *self;
        set.0[1] |= capitals << 32;
        set
    }

    fn within(&self, other: &ByteSet) -> bool {
        (0..4).all(|i| self.0[i] & !other.0[i] == 0)
    }
}

/// The bytes of each rule's keywords, in the order of [`RULES`].
fn keyword_bytes() -> &'static [Vec<ByteSet>] {
    static SETS: std::sync::OnceLock<Vec<Vec<ByteSet>>> = std::sync::OnceLock::new();
    SETS.get_or_init(|| {
        (RULES.iter())
            .map(|r| {
                r.keywords
                    .iter()
                    .map(|k| ByteSet::of(k.as_bytes()))
                    .collect()
            })
            .collect()
    })
}

/// The credentials in `text`, in order.
pub fn find(text: &str) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let lower = std::cell::OnceCell::new();
    // The case-folded rules (an assignment, an AWS secret) need `=` or `:`: most text has
    // neither, and is spared the lowercase copy and their keywords.
    // No rule matches fewer than 12 bytes (`pwd=` and eight characters is the shortest).
    if text.len() < 12 {
        return out;
    }
    // Which bytes occur, in one pass: a keyword with a byte that does not occur cannot be in
    // the text, and most are ruled out so, without searching for them.
    let seen = ByteSet::of(text.as_bytes());
    let folded = seen.folded();
    let assigns = seen.has(b'=') || seen.has(b':');
    for (i, rule) in RULES.iter().enumerate() {
        if rule.fold && !assigns {
            continue;
        }
        let within = if rule.fold { &folded } else { &seen };
        let hit = rule.keywords.iter().enumerate().any(|(j, k)| {
            if !keyword_bytes()[i][j].within(within) {
                false
            } else if rule.fold {
                lower.get_or_init(|| text.to_ascii_lowercase()).contains(k)
            } else {
                text.contains(k)
            }
        });
        if !hit {
            continue;
        }
        let Some(m) = matcher(i) else { continue };
        let Ok(mut caps) = m.new_captures() else {
            continue;
        };
        let group = m.capture_index("s").unwrap_or(0);
        let _ = m.captures_iter(text.as_bytes(), &mut caps, |caps| {
            let Some(secret) = caps.get(group) else {
                return true;
            };
            let (start, end) = (secret.start(), secret.end());
            if (rule.check)(&text[start..end])
                && !out.iter().any(|f| f.start < end && start < f.end)
            {
                out.push(Finding {
                    rule: rule.id,
                    start,
                    end,
                });
            }
            true
        });
    }
    out.sort_by_key(|f| f.start);
    out
}

/// `text` with every credential replaced by `<REDACTED:rule-id>`.
pub fn redact(text: &str, findings: &[Finding]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for f in findings {
        out.push_str(&text[at..f.start]);
        out.push_str(&format!("<REDACTED:{}>", f.rule));
        at = f.end;
    }
    out.push_str(&text[at..]);
    out
}

/// A masked preview: the first characters (four at most, and at most a quarter of them, so a
/// short password is not all but shown) and the length, never the secret.
pub fn preview(secret: &str) -> String {
    let count = secret.chars().count();
    let head: String = secret.chars().take((count / 4).min(4)).collect();
    format!("{head}… ({count} characters)")
}

/// A credential found in a record: where, which rule, and a masked preview.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// A path such as `handoff_note` or `decisions_made[1]`.
    pub field: String,
    pub rule: &'static str,
    pub preview: String,
}

fn walk(value: &mut Value, path: &str, redact_them: bool, out: &mut Vec<Located>) {
    match value {
        Value::String(s) => {
            let found = find(s);
            if found.is_empty() {
                return;
            }
            for f in &found {
                out.push(Located {
                    field: path.to_string(),
                    rule: f.rule,
                    preview: preview(&s[f.start..f.end]),
                });
            }
            if redact_them {
                *s = redact(s, &found);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                walk(v, &format!("{path}[{i}]"), redact_them, out);
            }
        }
        Value::Object(m) => walk_map(m, path, redact_them, out),
        _ => {}
    }
}

fn walk_map(map: &mut Map<String, Value>, prefix: &str, redact_them: bool, out: &mut Vec<Located>) {
    for (k, v) in map.iter_mut() {
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        walk(v, &path, redact_them, out);
    }
}

/// The credentials in every string of a record (keys are names, not data). A record with
/// none (nearly all) is scanned without copying it or naming its fields.
pub fn scan_record(map: &Map<String, Value>) -> Vec<Located> {
    fn any(v: &Value) -> bool {
        match v {
            Value::String(s) => !find(s).is_empty(),
            Value::Array(items) => items.iter().any(any),
            Value::Object(m) => m.values().any(any),
            _ => false,
        }
    }
    let mut out = Vec::new();
    if map.values().any(any) {
        walk_map(&mut map.clone(), "", false, &mut out);
    }
    out
}

/// Whether any string in `value` (in either kind of tree) holds a credential: what
/// [`scan_record`] looks at, without saying where.
pub fn any_in<N: super::tree::Node>(value: &N) -> bool {
    use super::tree::{Object, View};
    match value.view() {
        View::Str(s) => !find(s).is_empty(),
        View::Array(items) => items.iter().any(any_in),
        View::Object(m) => m.members().any(|(_, v)| any_in(v)),
        _ => false,
    }
}

/// Redacts every credential in a record in place; returns what was redacted.
pub fn redact_record(map: &mut Map<String, Value>) -> Vec<Located> {
    let mut out = Vec::new();
    walk_map(map, "", true, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> Vec<&'static str> {
        find(text).iter().map(|f| f.rule).collect()
    }

    /// The kinds of credential of `tests/data/secret_kinds.tsv`: kind, rule, sample.
    fn kinds() -> Vec<(&'static str, &'static str, &'static str)> {
        include_str!("../../../../tests/data/secret_kinds.tsv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| {
                let mut cols = l.split('\t');
                let mut col = || cols.next().expect("three columns");
                (col(), col(), col())
            })
            .collect()
    }

    #[test]
    fn each_kind_is_found_by_its_rule_alone_in_any_surroundings() {
        let kinds = kinds();
        assert!(kinds.len() >= 40, "{} kinds", kinds.len());
        for (kind, rule, sample) in &kinds {
            for text in [
                sample.to_string(),
                format!("deploy with {sample} please"),
                format!("{{\"note\": \"{sample}\"}}"),
                format!("line one\n{sample}\nline three"),
            ] {
                assert_eq!(rules(&text), [*rule], "{kind}: {text}");
            }
        }
        // Every rule is shown to catch a kind.
        for id in rule_ids() {
            assert!(kinds.iter().any(|k| k.1 == id), "no kind for rule {id}");
        }
    }

    #[test]
    fn each_rule_finds_its_kind() {
        let cases = [
            ("key AKIAIOSFODNN7EXAMPLE here", "aws-access-key-id"),
            (
                "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "aws-secret-access-key",
            ),
            (
                "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
                "github-token",
            ),
            ("glpat-abcdefghij0123456789", "gitlab-token"),
            ("xoxb-123456789012-abcdefghijkl", "slack-token"),
            ("sk-proj-abcdefghijklmnopqrstuvwxyz012345", "openai-api-key"),
            ("AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "google-api-key"),
            ("AIzaSyA-abcdefghijklmnopqrstuvwxyz0123-", "google-api-key"),
            ("-----BEGIN OPENSSH PRIVATE KEY-----\nabc", "private-key"),
            ("-----BEGIN PRIVATE KEY-----\nabc", "private-key"),
            ("Api_Key: 'f8Kq2#Lm9!xZ'", "generic-secret"),
            ("token: 'f8Kq2#Lm9!xZ'", "generic-secret"),
            ("API-KEY=8f14e45fceea167a5a36dedd4bea2543", "generic-secret"),
            ("postgresql://u:p4ssw0rd@h/db", "database-url"),
            ("rediss://default:Zx9qL2vR7p@cache:6380", "database-url"),
            (
                "git clone https://bob:Tr0ub4dor@git.internal/r.git",
                "url-credentials",
            ),
            (
                "authorization=\"bearer abcdef123456789\"",
                "authorization-header",
            ),
        ];
        for (text, rule) in cases {
            assert_eq!(rules(text), [rule], "{text}");
        }
    }

    #[test]
    fn only_the_secret_of_an_assignment_a_url_or_a_header_is_redacted() {
        for (text, redacted) in [
            (
                "postgres://app:S3cretPass@db:5432/app",
                "postgres://app:<REDACTED:database-url>@db:5432/app",
            ),
            (
                "see https://user:pass@host/x",
                "see https://user:<REDACTED:url-credentials>@host/x",
            ),
            (
                "-H 'Authorization: Bearer 4f9Kq2LmZx8Rt7Vb3NcY1pWs'",
                "-H 'Authorization: Bearer <REDACTED:authorization-header>'",
            ),
            (
                "AccountName=a;AccountKey=dGhpcyBpcyBub3QgYSByZWFsIGtleSBidXQgaXQgaXMgbG9uZw==;x=y",
                "AccountName=a;AccountKey=<REDACTED:azure-storage-key>;x=y",
            ),
            (
                "api_key = \"8f14e45fceea167a5a36dedd4bea2543\"",
                "api_key = \"<REDACTED:generic-secret>\"",
            ),
        ] {
            assert_eq!(redact(text, &find(text)), redacted, "{text}");
        }
    }

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

    #[test]
    fn every_rule_compiles() {
        assert!(RULES.len() >= 40);
        assert!((0..RULES.len()).all(|i| matcher(i).is_some()));
    }

    #[test]
    fn ordinary_text_is_not_a_secret() {
        let cases = [
            "sha256:0efe5d06aaaaf2dc735b3f9ce7cfc1a0f7cd715491ab61d991f57be1d4c0db33",
            "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
            "token=9fceb02d0ae598e95dc970b74767f19372d61af8",
            "id 123e4567-e89b-12d3-a456-426614174000",
            "secret=123e4567-e89b-12d3-a456-426614174000",
            "pkg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d and token=pkg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
            "VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==",
            "The password reset flow now rotates the session token after login.",
            "Users must set a password: at least twelve characters.",
            "password=changeme123 is the documented default for the example",
            "api_key: ${OPENAI_API_KEY}",
            "Ask the skeptic; task-list items; desk-top",
            // URLs without a password, with a placeholder, or a port.
            "https://github.com/org/repo and ssh://git@github.com:22/org/repo.git",
            "postgres://app@db:5432/app, postgres://app:${DB_PASSWORD}@db/app",
            "mysql://root:<password>@localhost/shop; https://user:****@host",
            "http://localhost:8080/path and http://proxy:3128@upstream",
            // Headers that name a variable or a placeholder.
            "curl -H \"Authorization: Bearer $TOKEN\" -H 'Authorization: Bearer <token>'",
            "Authorization: Bearer YOUR_API_KEY_HERE",
            // Short hex, a digest's length, and ordinary words near a keyword.
            "token=9fceb02d0ae598e9 and api_key=0efe5d06aaaaf2dc735b3f9ce7cfc1a0f7cd715491ab61d991f57be1d4c0db33",
            "key-value store; the hf_ prefix; npm_config_cache; SKU 12; dp.pt. notes",
            "a monkey-patched keyboard-shortcut-customisation-for-everyone-today",
            "ratio 12345678:AA is odd; times 10:30 and 20260101:120000",
        ];
        for text in cases {
            assert!(find(text).is_empty(), "{text}: {:?}", find(text));
        }
    }

    #[test]
    fn redaction_and_previews_never_show_the_secret() {
        let text = "use AKIAIOSFODNN7EXAMPLE then password=Zx9#qL2!vR7p.";
        let found = find(text);
        assert_eq!(
            redact(text, &found),
            "use <REDACTED:aws-access-key-id> then password=<REDACTED:generic-secret>"
        );
        assert_eq!(preview("AKIAIOSFODNN7EXAMPLE"), "AKIA… (20 characters)");
        let mut m =
            serde_json::json!({"title": "t", "decisions_made": ["ok", "key AKIAIOSFODNN7EXAMPLE"]});
        let map = m.as_object_mut().unwrap();
        let located = scan_record(map);
        assert_eq!(located[0].field, "decisions_made[1]");
        redact_record(map);
        assert_eq!(map["decisions_made"][1], "key <REDACTED:aws-access-key-id>");
    }
}
