//! `local/tokens.ndjson`: the bearer tokens of `relay serve`, one line per event (a token
//! made, a token revoked). It sits under `local/`, so it is per clone and never committed, and
//! it holds only each token's SHA-256: the token itself is shown once, when it is made.
//! Revocation is a line of its own, so the log stays append-only, and a token is revoked
//! whichever line comes first.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Store, WarningKind, log};
use crate::error::Result;
use crate::wire::time;

/// A token as it was made, and whether it is revoked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenRecord {
    pub token_id: String,
    /// The SHA-256 of the token, lowercase hex.
    pub sha256: String,
    pub actor_id: String,
    pub actor_type: String,
    /// The projects it may act on; `None`: every project.
    pub projects: Option<Vec<String>>,
    pub read_only: bool,
    pub created_at: String,
    /// When it was revoked (the earliest revocation line), read from the log.
    #[serde(skip)]
    pub revoked_at: Option<String>,
}

/// One line of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TokenLine {
    Created(TokenRecord),
    Revoked {
        token_id: String,
        revoked_at: String,
    },
}

impl Store {
    /// Every token, oldest first, with its revocation. A line that is not a token event is
    /// skipped and reported; a second `created` line for an id is ignored.
    pub fn tokens(&self) -> Result<Vec<TokenRecord>> {
        let path = self.layout.tokens_file();
        let mut made: Vec<TokenRecord> = Vec::new();
        let mut revoked: BTreeMap<String, String> = BTreeMap::new();
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
        }
        Ok(made)
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
}
