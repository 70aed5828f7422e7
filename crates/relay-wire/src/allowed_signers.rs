//! `.relay/allowed_signers`: which public keys may sign as which actors, in the format git and
//! `ssh-keygen -Y verify` read (`principals [options] keytype base64 [comment]`, principals a
//! comma-separated list of actor ids or patterns with `*` and `?`, a leading `!` negating;
//! options `namespaces="…"`, `valid-after="YYYYMMDD[HHMM[SS]]"`, `valid-before=…`,
//! `cert-authority`), plus relay's revocation marker: `@revoked keytype base64 [comment]`
//! revokes that key for everyone. Times are read as UTC. Pure: the caller reads the file.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use ssh_key::PublicKey;

use super::signature::{NAMESPACE, fingerprint};
use super::time::Timestamp;

/// One line that allows a key.
#[derive(Debug, Clone)]
pub struct Entry {
    /// 1-based.
    pub line: u64,
    pub principals: Vec<String>,
    pub namespaces: Option<Vec<String>>,
    pub valid_after: Option<Timestamp>,
    pub valid_before: Option<Timestamp>,
    /// A certificate authority line: relay verifies plain keys only, so it never matches.
    pub cert_authority: bool,
    /// The options as written (for `relay keys list`).
    pub options: String,
    pub key: PublicKey,
}

/// A parsed allowed-signers file.
#[derive(Debug, Clone, Default)]
pub struct AllowedSigners {
    pub entries: Vec<Entry>,
    /// `@revoked` keys, with their line.
    pub revoked: Vec<(u64, PublicKey)>,
}

impl Entry {
    /// Whether this line lets its key sign relay's records at all: not a certificate
    /// authority, and its namespaces, when it lists any, include relay's.
    pub fn signs_relay(&self) -> bool {
        !self.cert_authority
            && (self.namespaces.as_ref()).is_none_or(|ns| matches_list(ns, NAMESPACE))
    }

    /// Whether the line's principals take in `actor`.
    pub fn names(&self, actor: &str) -> bool {
        matches_list(&self.principals, actor)
    }

    /// The principals that name one actor exactly (no pattern, no negation).
    pub fn literal_principals(&self) -> impl Iterator<Item = &str> {
        (self.principals.iter())
            .map(String::as_str)
            .filter(|p| !p.starts_with('!') && !p.contains(['*', '?']))
    }
}

/// Why a key is or is not allowed to sign as an actor at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Allowance {
    Allowed,
    Revoked,
    /// Not allowed: the reason.
    NotAllowed(String),
}

impl AllowedSigners {
    /// Parses the file's text; the error is the 1-based line and what is wrong with it.
    pub fn parse(text: &str) -> Result<AllowedSigners, (u64, String)> {
        let mut out = AllowedSigners::default();
        for (i, raw) in text.lines().enumerate() {
            let n = i as u64 + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let tokens = tokens(line).map_err(|m| (n, m))?;
            if tokens[0] == "@revoked" {
                let key = key_of(&tokens[1..]).map_err(|m| (n, m))?;
                out.revoked.push((n, key));
                continue;
            }
            out.entries.push(entry(n, &tokens).map_err(|m| (n, m))?);
        }
        Ok(out)
    }

    /// Whether a `@revoked` line revokes `key`.
    pub fn revokes(&self, key: &PublicKey) -> bool {
        (self.revoked.iter()).any(|(_, k)| k.key_data() == key.key_data())
    }

    /// Whether any line names `key`, allowing it for someone or revoking it.
    pub fn lists(&self, key: &PublicKey) -> bool {
        self.revokes(key) || (self.entries.iter()).any(|e| e.key.key_data() == key.key_data())
    }

    /// Whether `key` may sign as `actor` for a record made at `at`.
    pub fn allows(&self, actor: &str, key: &PublicKey, at: Timestamp) -> Allowance {
        if self.revokes(key) {
            return Allowance::Revoked;
        }
        let mut reason = None;
        for e in (self.entries.iter()).filter(|e| e.key.key_data() == key.key_data()) {
            if e.cert_authority {
                reason = Some(format!(
                    "line {}: certificate authorities are not supported",
                    e.line
                ));
            } else if !matches_list(&e.principals, actor) {
                reason.get_or_insert(format!(
                    "key {} is allowed for {}, not for {actor}",
                    fingerprint(key),
                    e.principals.join(",")
                ));
            } else if e
                .namespaces
                .as_ref()
                .is_some_and(|ns| !matches_list(ns, NAMESPACE))
            {
                reason = Some(format!(
                    "line {}: namespaces do not include {NAMESPACE}",
                    e.line
                ));
            } else if e.valid_after.is_some_and(|t| at < t)
                || e.valid_before.is_some_and(|t| at >= t)
            {
                reason = Some(format!(
                    "line {}: the key was not valid at {}",
                    e.line,
                    super::time::format(at)
                ));
            } else {
                return Allowance::Allowed;
            }
        }
        Allowance::NotAllowed(
            reason.unwrap_or_else(|| format!("key {} is not in allowed_signers", fingerprint(key))),
        )
    }
}

/// Splits a line on blanks, keeping double-quoted runs whole (quotes kept).
fn tokens(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if quoted {
        return Err("a quote is not closed".into());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

/// Whether a token names a key type.
fn is_key_type(t: &str) -> bool {
    t.starts_with("ssh-") || t.starts_with("ecdsa-") || t.starts_with("sk-")
}

/// The key of `keytype base64 [comment]`.
fn key_of(tokens: &[String]) -> Result<PublicKey, String> {
    let [kind, data, ..] = tokens else {
        return Err("expected a key type and a base64 key".into());
    };
    if !is_key_type(kind) {
        return Err(format!("`{kind}` is not a key type (such as ssh-ed25519)"));
    }
    PublicKey::from_openssh(&format!("{kind} {data}"))
        .map_err(|e| format!("the {kind} key does not parse ({e})"))
}

fn entry(line: u64, tokens: &[String]) -> Result<Entry, String> {
    let principals: Vec<String> = unquote(&tokens[0]).split(',').map(str::to_string).collect();
    if principals.iter().any(String::is_empty) {
        return Err("an empty principal".into());
    }
    let (options, rest) = match tokens.get(1) {
        Some(t) if !is_key_type(t) => (t.clone(), &tokens[2..]),
        _ => (String::new(), &tokens[1..]),
    };
    // A missing or unknown key type says so before the options are looked at.
    if !rest.first().is_some_and(|t| is_key_type(t)) {
        key_of(rest)?;
    }
    let mut e = Entry {
        line,
        principals,
        namespaces: None,
        valid_after: None,
        valid_before: None,
        cert_authority: false,
        options: options.clone(),
        // Replaced below, once the options have been read.
        key: PublicKey::from(ssh_key::public::Ed25519PublicKey([0; 32])),
    };
    for opt in split_options(&options) {
        let (name, value) = match opt.split_once('=') {
            Some((n, v)) => (n.to_ascii_lowercase(), Some(unquote(v))),
            None => (opt.to_ascii_lowercase(), None),
        };
        match (name.as_str(), value) {
            ("cert-authority", None) => e.cert_authority = true,
            ("namespaces", Some(v)) => {
                e.namespaces = Some(v.split(',').map(str::to_string).collect());
            }
            ("valid-after", Some(v)) => e.valid_after = Some(ssh_time(v)?),
            ("valid-before", Some(v)) => e.valid_before = Some(ssh_time(v)?),
            _ => return Err(format!("unknown or malformed option `{opt}`")),
        }
    }
    e.key = key_of(rest)?;
    Ok(e)
}

/// Options split on commas outside quotes.
fn split_options(options: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in options.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                out.push(&options[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < options.len() {
        out.push(&options[start..]);
    }
    out
}

fn unquote(s: &str) -> &str {
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s)
}

/// `YYYYMMDD[HHMM[SS]]`, with an optional trailing `Z`, as UTC.
fn ssh_time(v: &str) -> Result<Timestamp, String> {
    let bad = || format!("`{v}` is not a time as YYYYMMDD[HHMM[SS]]");
    let digits = v.strip_suffix(['Z', 'z']).unwrap_or(v);
    if !digits.bytes().all(|b| b.is_ascii_digit()) || ![8, 12, 14].contains(&digits.len()) {
        return Err(bad());
    }
    let num = |a: usize, b: usize| digits.get(a..b).map_or(Ok(0), str::parse::<u32>);
    let date = NaiveDate::from_ymd_opt(
        num(0, 4).map_err(|_| bad())? as i32,
        num(4, 6).map_err(|_| bad())?,
        num(6, 8).map_err(|_| bad())?,
    )
    .ok_or_else(bad)?;
    let time = NaiveTime::from_hms_opt(
        num(8, 10).map_err(|_| bad())?,
        num(10, 12).map_err(|_| bad())?,
        num(12, 14).map_err(|_| bad())?,
    )
    .ok_or_else(bad)?;
    Ok(NaiveDateTime::new(date, time).and_utc())
}

/// `t` as an option's time is written: `YYYYMMDDHHMMSSZ`, UTC (which `ssh-keygen` reads too).
pub fn ssh_time_text(t: Timestamp) -> String {
    t.format("%Y%m%d%H%M%SZ").to_string()
}

/// Whether `name` matches a pattern list: some pattern matches and no `!pattern` does.
pub fn matches_list(patterns: &[String], name: &str) -> bool {
    let mut hit = false;
    for p in patterns {
        match p.strip_prefix('!') {
            Some(neg) if glob(neg.as_bytes(), name.as_bytes()) => return false,
            Some(_) => {}
            None => hit |= glob(p.as_bytes(), name.as_bytes()),
        }
    }
    hit
}

/// `*` any run, `?` any one byte, everything else itself.
fn glob(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|i| glob(rest, &s[i..])),
        Some((b'?', rest)) => !s.is_empty() && glob(rest, &s[1..]),
        Some((c, rest)) => s.first() == Some(c) && glob(rest, &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse;
    use ssh_key::rand_core::OsRng;
    use ssh_key::{Algorithm, PrivateKey};

    fn public() -> PublicKey {
        PrivateKey::random(&mut OsRng, Algorithm::Ed25519)
            .unwrap()
            .public_key()
            .clone()
    }

    fn openssh(k: &PublicKey) -> String {
        k.to_openssh().unwrap()
    }

    #[test]
    fn entries_match_actor_namespace_and_time() {
        let (a, b, c) = (public(), public(), public());
        let text = format!(
            "# team\n\njo@x.org,*@bots.example {}\nann namespaces=\"git,relay\",valid-after=\"20260101\",valid-before=\"20270101Z\" {} ann's laptop\n\
             git-only namespaces=\"git\" {}\n",
            openssh(&a),
            openssh(&b),
            openssh(&c)
        );
        let s = AllowedSigners::parse(&text).unwrap();
        assert_eq!(s.entries.len(), 3);
        assert_eq!(s.entries[1].line, 4);
        let t = parse("2026-06-01T00:00:00Z").unwrap();
        assert_eq!(s.allows("jo@x.org", &a, t), Allowance::Allowed);
        assert_eq!(s.allows("ci@bots.example", &a, t), Allowance::Allowed);
        assert!(
            matches!(s.allows("ann", &a, t), Allowance::NotAllowed(r) if r.contains("not for ann"))
        );
        assert_eq!(s.allows("ann", &b, t), Allowance::Allowed);
        let early = parse("2025-12-31T23:59:59Z").unwrap();
        assert!(
            matches!(s.allows("ann", &b, early), Allowance::NotAllowed(r) if r.contains("not valid"))
        );
        let late = parse("2027-01-01T00:00:00Z").unwrap();
        assert!(matches!(
            s.allows("ann", &b, late),
            Allowance::NotAllowed(_)
        ));
        assert!(
            matches!(s.allows("git-only", &c, t), Allowance::NotAllowed(r) if r.contains("namespaces"))
        );
        assert!(
            matches!(s.allows("jo@x.org", &public(), t), Allowance::NotAllowed(r) if r.contains("not in allowed_signers"))
        );
    }

    #[test]
    fn a_time_written_for_an_option_reads_back_and_lines_say_what_they_allow() {
        let t = parse("2026-06-01T12:34:56.789Z").unwrap();
        assert_eq!(ssh_time_text(t), "20260601123456Z");
        assert_eq!(
            ssh_time(&ssh_time_text(t)).unwrap(),
            parse("2026-06-01T12:34:56Z").unwrap()
        );
        let (a, b) = (public(), public());
        let text = format!(
            "jo,*@bots.example,!eve {}\nca cert-authority {}\ngit namespaces=\"git\" {}\n",
            openssh(&a),
            openssh(&b),
            openssh(&b)
        );
        let s = AllowedSigners::parse(&text).unwrap();
        let e = &s.entries[0];
        assert!(e.signs_relay() && e.names("ci@bots.example") && !e.names("eve"));
        assert_eq!(e.literal_principals().collect::<Vec<_>>(), ["jo"]);
        assert!(!s.entries[1].signs_relay() && !s.entries[2].signs_relay());
        assert!(s.lists(&a) && s.lists(&b) && !s.lists(&public()));
    }

    #[test]
    fn a_revoked_key_is_revoked_for_everyone() {
        let a = public();
        let text = format!("jo {}\n@revoked {} lost laptop\n", openssh(&a), openssh(&a));
        let s = AllowedSigners::parse(&text).unwrap();
        assert_eq!(s.revoked[0].0, 2);
        assert_eq!(s.allows("jo", &a, crate::time::now()), Allowance::Revoked);
    }

    #[test]
    fn a_bad_line_is_named() {
        let a = openssh(&public());
        for (text, line, what) in [
            (format!("jo {a}\nnot a key line\n"), 2, "not a key type"),
            (format!("jo valid-after=\"2026\" {a}"), 1, "not a time"),
            (
                format!("jo frobnicate {a}"),
                1,
                "unknown or malformed option",
            ),
            (
                "jo ssh-ed25519 AAAAnotbase64".to_string(),
                1,
                "does not parse",
            ),
            (format!("jo \"unclosed {a}"), 1, "quote"),
            ("@revoked".to_string(), 1, "expected a key type"),
        ] {
            let (n, m) = AllowedSigners::parse(&text).unwrap_err();
            assert_eq!(n, line, "{text}");
            assert!(m.contains(what), "{m}");
        }
    }

    #[test]
    fn patterns_glob_and_negate() {
        let list = |s: &str| s.split(',').map(str::to_string).collect::<Vec<_>>();
        assert!(matches_list(&list("*"), "anyone"));
        assert!(matches_list(&list("a?c"), "abc"));
        assert!(!matches_list(&list("a?c"), "abbc"));
        assert!(!matches_list(&list("*,!eve"), "eve"));
        assert!(matches_list(&list("*,!eve"), "jo"));
    }
}
