//! Credential detection for everything relay is asked to store: a store is committed and
//! shared, so a pasted key would leak into every clone for good. Each rule has a stable id and
//! keywords: only the rules whose keywords a text holds are tried ([`keywords`]), so a text
//! with none costs little. In a JSON record, member names are scanned as well as values.
//! Pure: matching and redaction only.

mod keywords;
mod rules;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::sync::{LazyLock, OnceLock};

use grep_matcher::{Captures, Matcher};
use grep_regex::RegexMatcher;
use serde_json::{Map, Value};

use super::tree::{Node, Object, View};
use keywords::{candidates, names_an_assignment};
use rules::RULES;

/// One credential found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    /// Byte range of the secret itself in the text.
    pub start: usize,
    pub end: usize,
}

/// The rule ids, each once, for documentation and `--help`.
pub fn rule_ids() -> Vec<&'static str> {
    rules::rule_ids().into_iter().map(|(id, _)| id).collect()
}

/// Each rule id with what it finds (the providers and token formats), for the reference.
pub fn rules_described() -> Vec<(&'static str, String)> {
    rules::rule_ids()
}

/// Rule `i`'s matcher, built the first time a text holds one of its keywords (most texts
/// never build any).
fn matcher(i: usize) -> Option<&'static RegexMatcher> {
    static MATCHERS: LazyLock<Vec<OnceLock<Option<RegexMatcher>>>> =
        LazyLock::new(|| RULES.iter().map(|_| OnceLock::new()).collect());
    MATCHERS
        .get(i)?
        .get_or_init(|| RegexMatcher::new(&RULES[i].regex()).ok())
        .as_ref()
}

/// The credentials in `text`, in order.
pub fn find(text: &str) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    // No rule matches fewer than 12 bytes (`pwd=` and eight characters is the shortest).
    if text.len() < 12 {
        return out;
    }
    let set = candidates(text);
    if set.is_empty() {
        return out;
    }
    for (i, rule) in RULES.iter().enumerate() {
        if !set.has(i) {
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

/// The credentials in a member's string value, read with its name: what the value holds,
/// and what a rule that finds assignments finds in `name=value` (a Stripe key under
/// `"stripe_key"`, a password under `"password"`). Ranges are in `value`.
pub fn find_in_member(name: &str, value: &str) -> Vec<Finding> {
    let mut out = find(value);
    // An assignment's value has eight characters at least (`generic-secret`'s shortest).
    if value.len() < 8 || !names_an_assignment(name) {
        return out;
    }
    let skip = name.len() + 1;
    for f in find(&format!("{name}={value}")) {
        if f.start >= skip
            && !out
                .iter()
                .any(|o| o.start < f.end - skip && f.start - skip < o.end)
        {
            out.push(Finding {
                start: f.start - skip,
                end: f.end - skip,
                ..f
            });
        }
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
    /// A path such as `handoff_note` or `decisions_made[1]`. A member name that holds a
    /// credential is shown redacted (`x-env.<REDACTED:github-token>`): a path never shows one.
    pub field: String,
    pub rule: &'static str,
    pub preview: String,
}

/// Reports (and redacts, when asked) the credentials `found` in the string `s` at `path`.
fn report(
    s: &mut String,
    found: &[Finding],
    path: &str,
    redact_them: bool,
    out: &mut Vec<Located>,
) {
    for f in found {
        out.push(Located {
            field: path.to_string(),
            rule: f.rule,
            preview: preview(&s[f.start..f.end]),
        });
    }
    if redact_them && !found.is_empty() {
        *s = redact(s, found);
    }
}

fn walk(value: &mut Value, path: &str, redact_them: bool, out: &mut Vec<Located>) {
    match value {
        Value::String(s) => {
            let found = find(s);
            report(s, &found, path, redact_them, out);
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
    // Member names that hold a credential, and what they become redacted.
    let mut renamed: Vec<(String, String)> = Vec::new();
    for (k, v) in map.iter_mut() {
        let in_name = find(k);
        let shown = if in_name.is_empty() {
            Cow::Borrowed(k.as_str())
        } else {
            Cow::Owned(redact(k, &in_name))
        };
        let path = if prefix.is_empty() {
            shown.to_string()
        } else {
            format!("{prefix}.{shown}")
        };
        out.extend(in_name.iter().map(|f| Located {
            field: path.clone(),
            rule: f.rule,
            preview: preview(&k[f.start..f.end]),
        }));
        match v {
            Value::String(s) => {
                let found = find_in_member(k, s);
                report(s, &found, &path, redact_them, out);
            }
            v => walk(v, &path, redact_them, out),
        }
        if redact_them && !in_name.is_empty() {
            renamed.push((k.clone(), shown.into_owned()));
        }
    }
    if renamed.is_empty() {
        return;
    }
    // Renamed in place, in order; a redacted name that another member already has is numbered.
    for (k, v) in std::mem::take(map) {
        let mut name = match renamed.iter().position(|(old, _)| *old == k) {
            Some(at) => renamed.swap_remove(at).1,
            None => k,
        };
        let base = name.clone();
        let mut n = 2;
        while map.contains_key(&name) {
            name = format!("{base} ({n})");
            n += 1;
        }
        map.insert(name, v);
    }
}

/// The credentials in every member name and string of a record. A record with none (nearly
/// all) is scanned without copying it or naming its fields.
pub fn scan_record(map: &Map<String, Value>) -> Vec<Located> {
    let mut out = Vec::new();
    if any_in_object(map) {
        walk_map(&mut map.clone(), "", false, &mut out);
    }
    out
}

/// Whether any member name or string in `value` (in either kind of tree) holds a credential:
/// what [`scan_record`] looks at, without saying where.
pub fn any_in<N: Node>(value: &N) -> bool {
    match value.view() {
        View::Str(s) => !find(s).is_empty(),
        View::Array(items) => items.iter().any(any_in),
        View::Object(m) => any_in_object(m),
        _ => false,
    }
}

/// [`any_in`] for an object: its member names, and their values read with their names.
pub fn any_in_object<O: Object>(object: &O) -> bool {
    object.members().any(|(k, v)| {
        !find(k).is_empty()
            || match v.view() {
                View::Str(s) => !find_in_member(k, s).is_empty(),
                _ => any_in(v),
            }
    })
}

/// Redacts every credential in a record in place, member names included; returns what was
/// redacted.
pub fn redact_record(map: &mut Map<String, Value>) -> Vec<Located> {
    let mut out = Vec::new();
    walk_map(map, "", true, &mut out);
    out
}
