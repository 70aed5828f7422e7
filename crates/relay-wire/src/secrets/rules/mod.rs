//! The credential rules: for each kind of credential relay refuses to store, a stable id, the
//! keywords one of which a text must hold before its pattern is tried, the pattern, and the
//! check the secret itself must pass (a placeholder, a digest or an id is not a secret).
//! Each pattern is written from the provider's documented token format: its prefix, length
//! and alphabet, or, where a token has no prefix, the name it is usually assigned to.
//! Specific rules come first: where two match the same text, the first one names it. An id
//! may have several rules (several formats); [`rule_ids`] lists each once.
//!
//! Word boundaries are ASCII ones, `(?-u:\b)`: credentials are ASCII, and a Unicode boundary
//! sends the regex engine to a slower path on any text that is not.

/// A UUID, any case (several services issue one as a key).
macro_rules! uuid {
    () => {
        r"[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}"
    };
}

/// Where a base64-like token may start and end: not inside a longer run of base64 (an image,
/// a certificate), where its prefix would turn up by chance.
macro_rules! b64_start {
    () => {
        r"(?:^|[^A-Za-z0-9+/])"
    };
}
macro_rules! b64_end {
    () => {
        r"(?:[^A-Za-z0-9+/=]|$)"
    };
}

mod ai;
mod business;
mod cloud;
mod code;
mod generic;
mod messaging;

use std::borrow::Cow;
use std::sync::LazyLock;

/// A rule: its id, what it finds (for the reference), the keywords one of which must occur
/// (case-sensitive unless `fold`), its pattern (the secret is the group named `s` when it
/// has one, else the whole match), and what the secret must pass.
pub(crate) struct Rule {
    pub id: &'static str,
    pub about: &'static str,
    pub keywords: &'static [&'static str],
    /// Keywords match in any case, and only a text with `=` or `:` is looked at: the rule
    /// finds an assignment.
    pub fold: bool,
    pub pattern: Pattern,
    pub check: fn(&str) -> bool,
}

pub(crate) enum Pattern {
    /// A regular expression, as written.
    Regex(&'static str),
    /// A value of the shape `value` assigned to a name that holds `name` (a regex, any
    /// case; empty: one of the rule's keywords), as `STRIPE_KEY=…`, `"stripe_key": "…"`,
    /// `stripe.key: …` or `stripeKey := "…"` write it.
    Named {
        name: &'static str,
        value: &'static str,
    },
}

impl Rule {
    /// The regular expression.
    pub fn regex(&self) -> Cow<'static, str> {
        match self.pattern {
            Pattern::Regex(r) => Cow::Borrowed(r),
            // The name, what else the variable's name holds, an optional quote, the
            // operator, an optional quote, the value, and then no more of a token.
            Pattern::Named { name, value } => {
                let name = if name.is_empty() {
                    let escaped: Vec<String> = self.keywords.iter().map(|k| escape(k)).collect();
                    Cow::Owned(escaped.join("|"))
                } else {
                    Cow::Borrowed(name)
                };
                Cow::Owned(format!(
                    r#"(?i:{name})[A-Za-z0-9_.\-]{{0,24}}["'`]?[ \t]{{0,4}}(?::=|=>|=|:)[ \t]{{0,4}}["'`]?(?P<s>{value})(?:[^A-Za-z0-9_\-]|$)"#
                ))
            }
        }
    }
}

/// `text` as a regex that matches it literally.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A rule whose pattern starts with a literal its keywords name (case-sensitive).
const fn rule(
    id: &'static str,
    about: &'static str,
    keywords: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule {
        id,
        about,
        keywords,
        fold: false,
        pattern: Pattern::Regex(pattern),
        check: any,
    }
}

/// A rule for a token with no prefix of its own: `value` assigned to a name that holds one
/// of `names` (lowercase).
const fn named(
    id: &'static str,
    about: &'static str,
    names: &'static [&'static str],
    value: &'static str,
) -> Rule {
    Rule {
        fold: true,
        pattern: Pattern::Named { name: "", value },
        check: named_value,
        ..rule(id, about, names, "")
    }
}

/// [`named`], with the name as a regex (`names` are still the keywords it needs).
const fn named_as(
    id: &'static str,
    about: &'static str,
    names: &'static [&'static str],
    name: &'static str,
    value: &'static str,
) -> Rule {
    Rule {
        pattern: Pattern::Named { name, value },
        ..named(id, about, names, value)
    }
}

/// Every rule, in the order they are tried.
pub(crate) static RULES: LazyLock<Vec<&'static Rule>> = LazyLock::new(|| {
    [
        cloud::RULES,
        code::RULES,
        ai::RULES,
        messaging::RULES,
        business::RULES,
        generic::RULES,
    ]
    .into_iter()
    .flatten()
    .collect()
});

/// Each rule id once, in order, with what its rules find.
pub(crate) fn rule_ids() -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    for r in RULES.iter() {
        match out.iter_mut().find(|(id, _)| *id == r.id) {
            Some((_, about)) if !r.about.is_empty() => {
                about.push_str("; ");
                about.push_str(r.about);
            }
            Some(_) => {}
            None => out.push((r.id, r.about.to_string())),
        }
    }
    out
}

fn any(_: &str) -> bool {
    true
}

fn has_digit(secret: &str) -> bool {
    secret.bytes().any(|b| b.is_ascii_digit())
}

/// Shannon entropy in bits per character.
fn entropy(s: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let n = s.chars().count() as f64;
    for c in s.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    counts
        .values()
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// Whether a value stands in for a secret rather than being one: `changeme`, `<token>`,
/// `${VAR}`, `****`, `your_key` …
fn placeholder(lower: &str) -> bool {
    [
        "changeme",
        "example",
        "redacted",
        "xxxx",
        "****",
        "your_",
        "your-",
        "<",
        "${",
        "{{",
        "%(",
        "env:",
        "null",
        "none",
        "undefined",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

fn not_placeholder(secret: &str) -> bool {
    !placeholder(&secret.to_ascii_lowercase())
}

/// A value a provider's name is assigned: not a placeholder, not one character repeated or
/// nearly so (`0000…`, `aaaa…`), and with a digit (random tokens nearly always have one;
/// names and words rarely do).
fn named_value(secret: &str) -> bool {
    not_placeholder(secret) && entropy(secret) >= 2.0 && has_digit(secret)
}

/// A URL's password, unless it is a placeholder or a port-like number.
fn url_password(secret: &str) -> bool {
    not_placeholder(secret) && !secret.bytes().all(|b| b.is_ascii_digit())
}

/// A password given on a command line (`curl -u user:…`): not a placeholder, a variable
/// (`$PASS`, `%PASS%`), a name in capitals (`PASSWORD`) or the word for one.
fn command_password(secret: &str) -> bool {
    let lower = secret.to_ascii_lowercase();
    not_placeholder(secret)
        && !secret.starts_with(['$', '%'])
        && !secret.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        && !["password", "passwd", "pass", "secret", "token", "pwd"].contains(&lower.as_str())
}

/// Whether a lowercase value is a digest or an id rather than a secret: a git object id or a
/// SHA-256 digest (40 or 64 hex digits, or `sha256:` and hex), a UUID, a relay id.
fn digest_or_id(lower: &str) -> bool {
    let hex = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit());
    let uuid = {
        let parts: Vec<&str> = lower.split('-').collect();
        parts.len() == 5
            && parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
            && parts.iter().all(|p| hex(p))
    };
    lower.strip_prefix("sha256:").is_some_and(hex)
        || (hex(lower) && matches!(lower.len(), 40 | 64))
        || uuid
        || ["pkg_", "fact_", "sess_"]
            .iter()
            .any(|p| lower.strip_prefix(p).is_some_and(hex))
}

/// Whether a value after `password=` looks like a real secret: long, varied, and not a
/// digest, an id, a placeholder or a reference. Hex digits are a key (many services issue
/// 32 of them) unless they are a digest's length, or fewer than 24.
fn secret_like(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    if placeholder(&lower) || digest_or_id(&lower) || code(value) {
        return false;
    }
    if lower.bytes().all(|b| b.is_ascii_hexdigit()) {
        return lower.len() >= 24 && entropy(value) >= 3.0;
    }
    value.chars().count() >= 8
        && entropy(value) >= 3.0
        // Prose: a word is rarely a credential unless it mixes in digits or symbols.
        && value
            .chars()
            .any(|c| c.is_ascii_digit() || !c.is_alphanumeric())
}

/// Whether a value is code rather than a secret: a variable (`$TOKEN`, `%TOKEN%`), a call
/// (`parse(&args)?`, `os.getenv(`, `format!(`), an index (`os.environ[`), a field or a path
/// (`config.api_key`, `token::TokenArgs`), a reference (`&input`), an expression in brackets,
/// a file's path, a name in snake or screaming case (`paren_token`, `LSA_UNICODE_STRING`: a type or a
/// variable, as in `token: LSA_UNICODE_STRING`), or a name that code punctuation closes.
fn code(value: &str) -> bool {
    let ident = |s: &str| {
        let s = s.strip_suffix('!').unwrap_or(s);
        s.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    let path = |s: &str| s.split(['.', ':']).filter(|p| !p.is_empty()).all(ident);
    // A word of a snake-case name: lowercase or capitals, then digits.
    let word = |w: &str| {
        let letters = w.trim_end_matches(|c: char| c.is_ascii_digit());
        letters.bytes().all(|b| b.is_ascii_lowercase())
            || letters.bytes().all(|b| b.is_ascii_uppercase())
    };
    let core = value.trim_end_matches([';', ')', '?', ',', '>', ']', '}', ':']);
    // A file's path: `/var/run/secrets/token`, `./keys`, `~/.netrc`.
    let file = core.starts_with(['/', '.', '~'])
        && core
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-~".contains(&b));
    if file
        || value.starts_with(['$', '&', '*', '(', '[', '{', '`', ':'])
        || (value.starts_with('%') && value.ends_with('%'))
        || (core.len() < value.len() && path(core))
        || (core.contains('_') && ident(core) && core.split('_').all(word))
    {
        return true;
    }
    if let Some(at) = core.find(['(', '[']) {
        let callee = &core[..at];
        return callee
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && callee
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.:<>!&".contains(&b));
    }
    (core.contains('.') || core.contains("::")) && path(core)
}

/// Mixed case: a random token, rather than hex digits or a word.
fn mixed_case(secret: &str) -> bool {
    secret.bytes().any(|b| b.is_ascii_uppercase()) && secret.bytes().any(|b| b.is_ascii_lowercase())
}

/// Mixed case and a digit: a random token, rather than a run of one letter (`AAAA…`, which
/// base64 of zeros is) or a name.
fn random_token(secret: &str) -> bool {
    mixed_case(secret) && has_digit(secret)
}

/// The bytes standard or URL-safe base64 encodes (padding optional), when it is base64.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in text.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// Base64 whose bytes are a JSON Web Token: three parts, the first two JSON objects.
fn base64_jwt(secret: &str) -> bool {
    base64_decode(secret).is_some_and(|bytes| {
        let text = String::from_utf8_lossy(&bytes);
        let parts: Vec<&str> = text.trim_end().split('.').collect();
        parts.len() == 3 && parts[..2].iter().all(|p| p.starts_with("eyJ"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_and_finds_jwts() {
        assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode("aGVsbG8").unwrap(), b"hello");
        assert!(base64_decode("a b").is_none());
        // base64 of `eyJh.eyJi.c2ln`
        assert!(base64_jwt("ZXlKaC5leUppLmMybG4="));
        assert!(!base64_jwt("aGVsbG8gd29ybGQ="));
    }

    #[test]
    fn ids_are_kebab_case_and_each_has_a_description() {
        for (id, about) in rule_ids() {
            assert!(
                id.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{id}"
            );
            assert!(!about.is_empty(), "{id} says what it finds");
        }
    }
}
