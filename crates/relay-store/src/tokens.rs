//! `local/tokens.ndjson`: the bearer tokens of `relay serve`, one line per event (a token
//! made, a token revoked). It sits under `local/`, so it is per clone and never committed, and
//! it holds only each token's SHA-256: the token itself is shown once, when it is made.
//! Revocation is a line of its own, so the log stays append-only, and a token is revoked
//! whichever line comes first. So is a narrowing (fewer projects, or read-only): the scope a
//! token has is what every narrowing leaves of it, in whatever order the lines come.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Store, WarningKind, log};
use relay_wire::error::Result;
use relay_wire::time;

/// A token as it was made, and whether it is revoked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenRecord {
    pub token_id: String,
    /// The SHA-256 of the token, lowercase hex.
    pub sha256: String,
    pub actor_id: String,
    pub actor_type: String,
    /// The projects it may act on; `None`: every project. Read from the log, this is what
    /// the narrowings left.
    pub projects: Option<Vec<String>>,
    /// Whether it may only read (made so, or narrowed to it).
    pub read_only: bool,
    pub created_at: String,
    /// When it was revoked (the earliest revocation line), read from the log.
    #[serde(skip)]
    pub revoked_at: Option<String>,
    /// When it was last narrowed, read from the log.
    #[serde(skip)]
    pub narrowed_at: Option<String>,
}

/// How a token's scope is narrowed: to fewer projects, or to reading only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narrowing {
    pub token_id: String,
    /// The projects it may still act on (`None`: those it had).
    pub projects: Option<Vec<String>>,
    /// Whether it may now only read.
    pub read_only: bool,
    pub narrowed_at: String,
}

impl Narrowing {
    /// Narrows `t` by this: the projects both allow, read-only if either says so.
    pub fn apply(&self, t: &mut TokenRecord) {
        t.projects = match (t.projects.take(), &self.projects) {
            (None, only) => only.clone(),
            (had, None) => had,
            (Some(had), Some(only)) => Some(had.into_iter().filter(|p| only.contains(p)).collect()),
        };
        t.read_only |= self.read_only;
        let later = |old: &String| time::parse(&self.narrowed_at).ok() > time::parse(old).ok();
        if t.narrowed_at.as_ref().is_none_or(later) {
            t.narrowed_at = Some(self.narrowed_at.clone());
        }
    }
}

/// What can be compared cheaply to tell whether the token file may have changed: its size,
/// its modification time and its identity on disk. `None` when there is no file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokensStamp(Option<(u64, Option<std::time::SystemTime>, u64)>);

/// One line of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TokenLine {
    Created(TokenRecord),
    Revoked {
        token_id: String,
        revoked_at: String,
    },
    Narrowed(Narrowing),
}

impl Store {
    /// Every token, oldest first, with its revocation. A line that is not a token event is
    /// skipped and reported; a second `created` line for an id is ignored.
    pub fn tokens(&self) -> Result<Vec<TokenRecord>> {
        let path = self.layout.tokens_file();
        let mut made: Vec<TokenRecord> = Vec::new();
        let mut revoked: BTreeMap<String, String> = BTreeMap::new();
        let mut narrowed: Vec<Narrowing> = Vec::new();
        log::read_objects(&path, &self.diagnostics, |line, map| {
            match serde_json::from_value::<TokenLine>(serde_json::Value::Object(map)) {
                Ok(TokenLine::Created(t)) => {
                    if !made.iter().any(|m| m.token_id == t.token_id) {
                        made.push(t);
                    }
                }
                Ok(TokenLine::Revoked {
                    token_id,
                    revoked_at,
                }) => {
                    // The earliest by time, then by text: the same whatever the line order.
                    let key = |t: &str| (time::parse(t).ok(), t.to_string());
                    if revoked
                        .get(&token_id)
                        .is_none_or(|old| key(&revoked_at) < key(old))
                    {
                        revoked.insert(token_id, revoked_at);
                    }
                }
                Ok(TokenLine::Narrowed(n)) => narrowed.push(n),
                Err(e) => self.diagnostics.warn(
                    &path,
                    line,
                    WarningKind::InvalidRecord,
                    format!("not a token record: {e}; skipped"),
                ),
            }
            Ok(())
        })?;
        for t in &mut made {
            t.revoked_at = revoked.remove(&t.token_id);
            let id = t.token_id.clone();
            for n in narrowed.iter().filter(|n| n.token_id == id) {
                n.apply(t);
            }
        }
        Ok(made)
    }

    /// The token file's [`TokensStamp`]: when it is unchanged, so is every token.
    pub fn tokens_stamp(&self) -> TokensStamp {
        let meta = std::fs::metadata(self.layout.tokens_file()).ok();
        TokensStamp(meta.map(|m| {
            #[cfg(unix)]
            let id = std::os::unix::fs::MetadataExt::ino(&m);
            #[cfg(not(unix))]
            let id = 0;
            (m.len(), m.modified().ok(), id)
        }))
    }

    /// The lock under which tokens are made and revoked.
    pub fn lock_tokens(&self) -> Result<super::lock::LockGuard> {
        self.lock("tokens")
    }

    /// Appends one token event. Hold [`Store::lock_tokens`].
    pub fn append_token_line(&self, line: &TokenLine) -> Result<()> {
        self.append(&self.layout.tokens_file(), &log::to_line(line)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str) -> TokenRecord {
        TokenRecord {
            token_id: id.into(),
            sha256: "ab".repeat(32),
            actor_id: "claude".into(),
            actor_type: "agent".into(),
            projects: Some(vec!["demo".into()]),
            read_only: false,
            created_at: "2026-01-01T00:00:00Z".into(),
            revoked_at: None,
            narrowed_at: None,
        }
    }

    #[test]
    fn tokens_round_trip_and_the_earliest_revocation_wins_in_any_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let store = Store::open(root).unwrap();
        assert!(store.tokens().unwrap().is_empty(), "no file: no tokens");
        let revoke = |at: &str| TokenLine::Revoked {
            token_id: "tok_a".into(),
            revoked_at: at.into(),
        };
        for line in [
            revoke("2026-03-01T00:00:00Z"),
            TokenLine::Created(record("tok_a")),
            TokenLine::Created(record("tok_b")),
            revoke("2026-02-01T00:00:00.000Z"),
        ] {
            store.append_token_line(&line).unwrap();
        }
        std::fs::OpenOptions::new()
            .append(true)
            .open(store.layout().tokens_file())
            .and_then(|mut f| std::io::Write::write_all(&mut f, b"{\"event\":\"other\"}\n"))
            .unwrap();
        let got = store.tokens().unwrap();
        let mut a = record("tok_a");
        a.revoked_at = Some("2026-02-01T00:00:00.000Z".into());
        assert_eq!(got, [a, record("tok_b")]);
        let warnings = store.diagnostics().take();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].kind, WarningKind::InvalidRecord);
        // The file sits under local/, which the store's .gitignore keeps out of git.
        let path = store.layout().tokens_file();
        assert!(path.starts_with(store.layout().local_dir()));
    }

    #[test]
    fn a_token_keeps_what_every_narrowing_leaves_in_any_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let store = Store::open(root).unwrap();
        let before = store.tokens_stamp();
        let narrow = |projects: Option<&[&str]>, read_only: bool, at: &str| {
            TokenLine::Narrowed(Narrowing {
                token_id: "tok_a".into(),
                projects: projects.map(|l| l.iter().map(|p| p.to_string()).collect()),
                read_only,
                narrowed_at: at.into(),
            })
        };
        let mut all = record("tok_a");
        all.projects = Some(vec!["demo".into(), "web".into(), "api".into()]);
        let lines = [
            narrow(Some(&["web", "api"]), false, "2026-02-01T00:00:00Z"),
            TokenLine::Created(all),
            narrow(None, true, "2026-03-01T00:00:00Z"),
            narrow(Some(&["web", "demo"]), false, "2026-01-15T00:00:00Z"),
            TokenLine::Created(record("tok_b")),
        ];
        for line in &lines {
            store.append_token_line(line).unwrap();
        }
        assert_ne!(store.tokens_stamp(), before, "a line changes the stamp");
        let got = store.tokens().unwrap();
        assert_eq!(got[0].projects, Some(vec!["web".to_string()]));
        assert!(got[0].read_only);
        assert_eq!(got[0].narrowed_at.as_deref(), Some("2026-03-01T00:00:00Z"));
        assert_eq!(got[1], record("tok_b"), "another token keeps its scope");
        assert_eq!(store.tokens_stamp(), store.tokens_stamp());
    }
}
