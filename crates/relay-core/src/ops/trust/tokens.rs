//! Bearer tokens for `relay serve` (§9.2: "API keys in `Authorization: Bearer` … MAY be scoped
//! per-project … the key maps to one actor"). A token is 256 bits from the operating
//! system's generator, shown once; the store keeps its SHA-256 (`store::tokens`). A request's
//! token is looked up by that hash and becomes a [`Grant`]: the one actor it acts as, the
//! projects it may touch, and whether it may write. A token can be revoked, or narrowed to
//! fewer projects or to reading; never widened.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::ops::Actor;
use relay_store::Store;
use relay_store::tokens::{Narrowing, TokenLine, TokenRecord};
use relay_wire::error::{Error, Result};
use relay_wire::{ids, time};

/// What every token starts with, so that it is recognisable in a config file or a leak scan.
pub const PREFIX: &str = "relay_";

/// A token to make.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub actor: Actor,
    /// The projects it may act on (each must exist); `None`: every project.
    pub projects: Option<Vec<String>>,
    pub read_only: bool,
}

/// A token just made: the secret, to be shown once, and what is stored of it.
#[derive(Debug, Clone)]
pub struct Created {
    pub token: String,
    pub record: TokenRecord,
}

/// What a valid token allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub token_id: String,
    pub actor: Actor,
    pub projects: Option<Vec<String>>,
    pub read_only: bool,
}

/// The SHA-256 of a token, lowercase hex: what the store keeps.
fn digest(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// 64 hex digits of 32 bytes from the OS generator, for `what` (a secret: unlike record ids,
/// there is no fallback; without the generator there is no secret).
pub fn random_hex(what: &str) -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| {
        Error::io(
            format!("cannot draw random bytes for {what}"),
            std::io::Error::other(e.to_string()),
        )
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A new token: [`PREFIX`] and 64 hex digits.
fn new_secret() -> Result<String> {
    Ok(format!("{PREFIX}{}", random_hex("a token")?))
}

/// Makes a token and records its hash.
pub fn create(store: &Store, req: NewToken) -> Result<Created> {
    let actor_id = req.actor.id.trim();
    if actor_id.is_empty() {
        return Err(Error::InvalidInput(
            "a token's actor must not be empty".into(),
        ));
    }
    crate::ops::trust::identity::check_actor_type(&req.actor.actor_type)?;
    let projects = match req.projects {
        Some(mut list) => {
            list.sort();
            list.dedup();
            for p in &list {
                crate::ops::projects::get(store, p)?;
            }
            Some(list)
        }
        None => None,
    };
    let token = new_secret()?;
    let record = TokenRecord {
        token_id: ids::new_id("tok"),
        sha256: digest(&token),
        actor_id: actor_id.to_string(),
        actor_type: req.actor.actor_type,
        projects,
        read_only: req.read_only,
        created_at: time::format(time::now()),
        revoked_at: None,
        narrowed_at: None,
    };
    let _lock = store.lock_tokens()?;
    store.append_token_line(&TokenLine::Created(record.clone()))?;
    Ok(Created { token, record })
}

/// Every token, oldest first, revoked ones included.
pub fn list(store: &Store) -> Result<Vec<TokenRecord>> {
    store.tokens()
}

/// Revokes a token by id; revoking a revoked token changes nothing. Returns the token.
pub fn revoke(store: &Store, token_id: &str) -> Result<TokenRecord> {
    let _lock = store.lock_tokens()?;
    let mut token = (store.tokens()?.into_iter())
        .find(|t| t.token_id == token_id)
        .ok_or_else(|| Error::TokenNotFound(token_id.to_string()))?;
    if token.revoked_at.is_none() {
        let at = time::format(time::now());
        store.append_token_line(&TokenLine::Revoked {
            token_id: token.token_id.clone(),
            revoked_at: at.clone(),
        })?;
        token.revoked_at = Some(at);
    }
    Ok(token)
}

/// How to narrow a token: the projects it keeps (some of those it covers), or reading only.
#[derive(Debug, Clone, Default)]
pub struct Narrow {
    pub projects: Option<Vec<String>>,
    pub read_only: bool,
}

/// Narrows a live token: to some of the projects it covers, or to reading only; it can never
/// be widened (make a new token for that). A narrowing that changes nothing writes nothing.
/// Returns the token as narrowed.
pub fn narrow(store: &Store, token_id: &str, req: Narrow) -> Result<TokenRecord> {
    if req.projects.is_none() && !req.read_only {
        return Err(Error::InvalidInput(
            "say how to narrow the token: --scope PROJECT for each project it keeps, or \
             --read-only"
                .into(),
        ));
    }
    let _lock = store.lock_tokens()?;
    let mut token = (store.tokens()?.into_iter())
        .find(|t| t.token_id == token_id)
        .ok_or_else(|| Error::TokenNotFound(token_id.to_string()))?;
    if let Some(at) = &token.revoked_at {
        return Err(Error::InvalidInput(format!(
            "token {token_id} was revoked at {at}: it allows nothing to narrow"
        )));
    }
    let projects = match req.projects {
        None => None,
        Some(mut list) => {
            list.sort();
            list.dedup();
            if list.is_empty() {
                return Err(Error::InvalidInput(
                    "a token keeps at least one project: to take everything away, revoke it \
                     (relay token revoke ID)"
                        .into(),
                ));
            }
            for p in &list {
                match &token.projects {
                    Some(had) if !had.contains(p) => {
                        return Err(Error::InvalidInput(format!(
                            "token {token_id} does not cover project `{p}` (it covers {}): a \
                             narrowing keeps some of a token's projects and adds none; make a \
                             new token for more",
                            had.join(", ")
                        )));
                    }
                    Some(_) => {}
                    None => {
                        crate::ops::projects::get(store, p)?;
                    }
                }
            }
            Some(list)
        }
    };
    let keeps_projects = projects
        .as_ref()
        .is_none_or(|l| token.projects.as_ref() == Some(l));
    if keeps_projects && (token.read_only || !req.read_only) {
        return Ok(token);
    }
    let narrowing = Narrowing {
        token_id: token.token_id.clone(),
        projects,
        read_only: req.read_only,
        narrowed_at: time::format(time::now()),
    };
    store.append_token_line(&TokenLine::Narrowed(narrowing.clone()))?;
    narrowing.apply(&mut token);
    Ok(token)
}

/// Whether any token is live (made and not revoked): then `relay serve` asks every request
/// for one.
pub fn any_live(store: &Store) -> Result<bool> {
    Ok(any_live_among(&store.tokens()?))
}

/// [`any_live`] among `tokens`.
pub fn any_live_among(tokens: &[TokenRecord]) -> bool {
    tokens.iter().any(|t| t.revoked_at.is_none())
}

/// Whether two secrets (or their hashes) are equal, in a time that depends on their lengths
/// only: how long a refusal takes tells nothing of how much of a guess was right.
pub fn same_secret(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = (a.iter().zip(b)).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// The grant of a presented token; `unauthenticated` when it is unknown or revoked. The
/// token's hash is compared with every stored one, each in constant time ([`same_secret`]).
pub fn authenticate(store: &Store, presented: &str) -> Result<Grant> {
    authenticate_among(&store.tokens()?, presented)
}

/// [`authenticate`] among `tokens`, the store's as [`Store::tokens`] read them (a server keeps
/// them while the token file is unchanged, so that a request costs no read of it).
pub fn authenticate_among(tokens: &[TokenRecord], presented: &str) -> Result<Grant> {
    let hash = digest(presented.trim());
    let mut found = None;
    for t in tokens {
        if same_secret(t.sha256.as_bytes(), hash.as_bytes()) && found.is_none() {
            found = Some(t.clone());
        }
    }
    let token = found.ok_or_else(|| {
        Error::Unauthenticated("the bearer token is not one of this store's tokens".into())
    })?;
    if let Some(at) = &token.revoked_at {
        return Err(Error::Unauthenticated(format!(
            "the bearer token {} was revoked at {at}",
            token.token_id
        )));
    }
    Ok(Grant {
        token_id: token.token_id,
        actor: Actor {
            id: token.actor_id,
            actor_type: token.actor_type,
        },
        projects: token.projects,
        read_only: token.read_only,
    })
}

/// A token as `relay token list --json` shows it: everything but its hash.
pub fn to_value(t: &TokenRecord) -> Value {
    json!({
        "token_id": t.token_id, "actor_id": t.actor_id, "actor_type": t.actor_type,
        "projects": t.projects, "read_only": t.read_only, "created_at": t.created_at,
        "revoked_at": t.revoked_at, "narrowed_at": t.narrowed_at,
    })
}

impl Grant {
    /// Whether the token covers `project`.
    pub fn covers(&self, project: &str) -> bool {
        self.projects
            .as_ref()
            .is_none_or(|list| list.iter().any(|p| p == project))
    }

    /// Refuses a project outside the token's scope.
    pub fn may_read(&self, project: &str) -> Result<()> {
        if self.covers(project) {
            return Ok(());
        }
        Err(Error::Unauthorized(format!(
            "token {} does not cover project `{project}`",
            self.token_id
        )))
    }

    /// Refuses a project outside the token's scope, and any write with a read-only token.
    pub fn may_write(&self, project: &str) -> Result<()> {
        self.may_read(project)?;
        if self.read_only {
            return Err(Error::Unauthorized(format!(
                "token {} is read-only",
                self.token_id
            )));
        }
        Ok(())
    }

    /// Refuses a record that names another actor than the token's (its `created_by`,
    /// `asserted_by`): a token writes as its one actor.
    pub fn may_name(&self, actor_id: &str, actor_type: Option<&str>) -> Result<()> {
        if actor_id == self.actor.id && actor_type.is_none_or(|t| t == self.actor.actor_type) {
            return Ok(());
        }
        Err(Error::NotTheTokensActor {
            message: format!(
                "token {} acts as `{}` ({}), and cannot write as `{actor_id}`{}",
                self.token_id,
                self.actor.id,
                self.actor.actor_type,
                actor_type.map(|t| format!(" ({t})")).unwrap_or_default()
            ),
            actor_id: self.actor.id.clone(),
            actor_type: self.actor.actor_type.clone(),
        })
    }

    /// The projects of `all` the token covers.
    pub fn visible(&self, all: Vec<String>) -> Vec<String> {
        all.into_iter().filter(|p| self.covers(p)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::test_support::store_with;

    fn agent() -> Actor {
        Actor {
            id: "claude".into(),
            actor_type: "agent".into(),
        }
    }

    fn make(store: &Store, projects: Option<&[&str]>, read_only: bool) -> Created {
        let projects = projects.map(|l| l.iter().map(|p| p.to_string()).collect());
        create(
            store,
            NewToken {
                actor: agent(),
                projects,
                read_only,
            },
        )
        .unwrap()
    }

    #[test]
    fn a_token_is_shown_once_stored_as_its_hash_and_grants_its_actor() {
        let (_dir, store) = store_with(&["demo", "other"]);
        assert!(!any_live(&store).unwrap());
        let made = make(&store, Some(&["demo"]), false);
        assert!(made.token.starts_with(PREFIX) && made.token.len() == PREFIX.len() + 64);
        let file = std::fs::read_to_string(store.tokens_file()).unwrap();
        assert!(!file.contains(&made.token), "only the hash is stored");
        assert!(file.contains(&digest(&made.token)));
        assert!(
            !to_value(&made.record)
                .to_string()
                .contains(&made.record.sha256)
        );
        assert!(any_live(&store).unwrap());

        let grant = authenticate(&store, &made.token).unwrap();
        assert_eq!(grant.actor, agent());
        assert!(grant.may_write("demo").is_ok());
        let e = grant.may_read("other").unwrap_err();
        assert_eq!((e.code(), e.http_status()), ("unauthorized", 403));
        assert_eq!(grant.visible(vec!["demo".into(), "other".into()]), ["demo"]);
        assert!(grant.may_name("claude", Some("agent")).is_ok());
        assert!(grant.may_name("claude", None).is_ok());
        assert_eq!(
            grant.may_name("ada", None).unwrap_err().code(),
            "unauthorized"
        );
        assert_eq!(
            grant.may_name("claude", Some("human")).unwrap_err().code(),
            "unauthorized"
        );

        let wrong = authenticate(&store, "relay_0000").unwrap_err();
        assert_eq!(
            (wrong.code(), wrong.http_status()),
            ("unauthenticated", 401)
        );
    }

    #[test]
    fn secrets_are_equal_only_byte_for_byte_and_length_for_length() {
        assert!(same_secret(b"", b""));
        assert!(same_secret(b"relay_ab12", b"relay_ab12"));
        assert!(!same_secret(b"relay_ab12", b"relay_ab13"));
        assert!(!same_secret(b"relay_ab12", b"Relay_ab12"));
        assert!(!same_secret(b"relay_ab12", b"relay_ab1"));
        assert!(!same_secret(b"relay_ab1", b"relay_ab12"));
        // Among several tokens, each presented token finds its own.
        let (_dir, store) = store_with(&["demo"]);
        let made: Vec<Created> = (0..3).map(|_| make(&store, None, false)).collect();
        for m in &made {
            assert_eq!(
                authenticate(&store, &m.token).unwrap().token_id,
                m.record.token_id
            );
        }
    }

    #[test]
    fn read_only_tokens_read_everything_and_write_nothing() {
        let (_dir, store) = store_with(&["demo", "other"]);
        let made = make(&store, None, true);
        let grant = authenticate(&store, &made.token).unwrap();
        assert!(grant.may_read("demo").is_ok() && grant.may_read("other").is_ok());
        assert_eq!(grant.may_write("demo").unwrap_err().code(), "unauthorized");
    }

    #[test]
    fn a_revoked_token_is_refused_and_revoking_twice_changes_nothing() {
        let (_dir, store) = store_with(&["demo"]);
        let made = make(&store, None, false);
        let first = revoke(&store, &made.record.token_id).unwrap();
        assert!(first.revoked_at.is_some());
        let lines = std::fs::read_to_string(store.tokens_file()).unwrap();
        let again = revoke(&store, &made.record.token_id).unwrap();
        assert_eq!(again.revoked_at, first.revoked_at);
        let after = std::fs::read_to_string(store.tokens_file()).unwrap();
        assert_eq!(lines, after, "a second revocation writes nothing");
        let e = authenticate(&store, &made.token).unwrap_err();
        assert_eq!(e.code(), "unauthenticated");
        assert!(!any_live(&store).unwrap());
        assert_eq!(
            revoke(&store, "tok_none").unwrap_err().code(),
            "token_not_found"
        );
    }

    #[test]
    fn a_token_is_narrowed_never_widened_and_a_narrowing_that_changes_nothing_writes_nothing() {
        let (_dir, store) = store_with(&["demo", "web", "api"]);
        let made = make(&store, None, false);
        let id = made.record.token_id.clone();
        let to = |projects: Option<&[&str]>, read_only: bool| Narrow {
            projects: projects.map(|l| l.iter().map(|p| p.to_string()).collect()),
            read_only,
        };
        let t = narrow(&store, &id, to(Some(&["web", "demo"]), false)).unwrap();
        assert_eq!(
            t.projects,
            Some(vec!["demo".to_string(), "web".to_string()])
        );
        let grant = authenticate(&store, &made.token).unwrap();
        assert!(grant.may_write("web").is_ok());
        assert_eq!(grant.may_read("api").unwrap_err().code(), "unauthorized");
        let file = || std::fs::read_to_string(store.tokens_file()).unwrap();
        let lines = file();
        // The same scope again, or a project it does not cover: nothing written.
        narrow(&store, &id, to(Some(&["demo", "web"]), false)).unwrap();
        let wider = narrow(&store, &id, to(Some(&["api"]), false)).unwrap_err();
        assert_eq!(wider.code(), "invalid_input");
        assert!(wider.to_string().contains("adds none"), "{wider}");
        assert_eq!(
            narrow(&store, &id, to(None, false)).unwrap_err().code(),
            "invalid_input"
        );
        assert_eq!(
            narrow(&store, &id, to(Some(&[]), false))
                .unwrap_err()
                .code(),
            "invalid_input"
        );
        assert_eq!(
            narrow(&store, "tok_none", to(None, true))
                .unwrap_err()
                .code(),
            "token_not_found"
        );
        assert_eq!(file(), lines);
        // Read-only: it still reads, and writes nothing.
        let t = narrow(&store, &id, to(None, true)).unwrap();
        assert!(t.read_only && t.narrowed_at.is_some());
        let grant = authenticate(&store, &made.token).unwrap();
        assert!(grant.may_read("demo").is_ok());
        assert_eq!(grant.may_write("demo").unwrap_err().code(), "unauthorized");
        // An unscoped token narrowed to a project that does not exist.
        let other = make(&store, None, false).record.token_id;
        let e = narrow(&store, &other, to(Some(&["nope"]), false)).unwrap_err();
        assert_eq!(e.code(), "project_not_found");
        revoke(&store, &id).unwrap();
        assert_eq!(
            narrow(&store, &id, to(None, true)).unwrap_err().code(),
            "invalid_input"
        );
    }

    #[test]
    fn a_token_needs_an_actor_a_known_type_and_existing_projects() {
        let (_dir, store) = store_with(&["demo"]);
        let bad = |actor: Actor, projects: Option<Vec<String>>| {
            create(
                &store,
                NewToken {
                    actor,
                    projects,
                    read_only: false,
                },
            )
            .unwrap_err()
            .code()
        };
        let typed = |id: &str, t: &str| Actor {
            id: id.into(),
            actor_type: t.into(),
        };
        assert_eq!(bad(typed(" ", "agent"), None), "invalid_input");
        assert_eq!(bad(typed("a", "robot"), None), "invalid_input");
        assert_eq!(
            bad(typed("a", "agent"), Some(vec!["nope".into()])),
            "project_not_found"
        );
        assert!(store.tokens().unwrap().is_empty(), "nothing was written");
    }
}
