//! The console's logins, kept by the server process ([`Logins`]): a browser cannot send
//! `Authorization: Bearer`, so a console login lives in a cookie ([`COOKIE`]) that holds
//! either a token pasted into the login form or a key made from the one-time link of
//! `relay ui`. This module knows those keys, the process's secret that form tokens derive
//! from ([`Logins::csrf`]), and how to read the cookie; [`super::auth`] turns it into a
//! caller, and `console/login.rs` serves the pages.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::http::{HeaderMap, header};
use sha2::{Digest, Sha256};

use relay_core::ops::trust::tokens::{self, Grant};
use relay_wire::error::Result;

/// The cookie that holds a console login.
pub const COOKIE: &str = "relay_console";

/// What starts the key of a login made by a `relay ui` link.
const UI_PREFIX: &str = "relayui_";

/// The logins of this server process: its form secret, the one-time code of `relay ui`, and
/// the logins that code made. None of it is stored: a restarted server forgets them.
pub struct Logins {
    secret: String,
    inner: Mutex<UiLogins>,
    /// How many logins were forgotten: an open stream checks its caller again when it grows.
    forgotten: AtomicU64,
}

#[derive(Default)]
struct UiLogins {
    /// The SHA-256 of the one-time code and the grant it gives, until it is used.
    code: Option<(String, Grant)>,
    /// The SHA-256 of each login key, and its grant.
    keys: HashMap<String, Grant>,
}

fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares two strings in time that depends on their length only.
pub fn same(a: &str, b: &str) -> bool {
    tokens::same_secret(a.as_bytes(), b.as_bytes())
}

impl Logins {
    pub fn new() -> Result<Logins> {
        Ok(Logins {
            secret: tokens::random_hex("the console's form secret")?,
            inner: Mutex::default(),
            forgotten: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, UiLogins> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new one-time login code for `grant` (the one `relay ui` puts in its link); it
    /// replaces any code not used yet.
    pub fn one_time_code(&self, grant: Grant) -> Result<String> {
        let code = tokens::random_hex("a console login")?;
        self.lock().code = Some((sha256_hex(&[code.as_bytes()]), grant));
        Ok(code)
    }

    /// Uses the one-time `code`: a new login key, or `None` if the code is not (or no
    /// longer) the one.
    pub fn redeem(&self, code: &str) -> Result<Option<String>> {
        let mut inner = self.lock();
        let matches = (inner.code.as_ref())
            .is_some_and(|(hash, _)| same(hash, &sha256_hex(&[code.trim().as_bytes()])));
        if !matches {
            return Ok(None);
        }
        let Some((_, grant)) = inner.code.take() else {
            return Ok(None);
        };
        let key = format!("{UI_PREFIX}{}", tokens::random_hex("a console login")?);
        inner.keys.insert(sha256_hex(&[key.as_bytes()]), grant);
        Ok(Some(key))
    }

    /// The grant of a login key made by [`Self::redeem`].
    pub fn grant(&self, key: &str) -> Option<Grant> {
        if !key.starts_with(UI_PREFIX) {
            return None;
        }
        self.lock()
            .keys
            .get(&sha256_hex(&[key.as_bytes()]))
            .cloned()
    }

    pub fn forget(&self, key: &str) {
        self.lock().keys.remove(&sha256_hex(&[key.as_bytes()]));
        self.forgotten.fetch_add(1, Ordering::Relaxed);
    }

    /// Changes whenever a login is forgotten (a logout).
    pub fn generation(&self) -> u64 {
        self.forgotten.load(Ordering::Relaxed)
    }

    /// The form token of the login held in `cookie`.
    pub fn csrf(&self, cookie: &str) -> String {
        sha256_hex(&[
            self.secret.as_bytes(),
            b"relay console form",
            cookie.as_bytes(),
        ])
    }
}

/// The console login a request's cookies carry, if any.
pub fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_string())
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use relay_core::ops::Actor;

    fn grant() -> Grant {
        Grant {
            token_id: "console".into(),
            actor: Actor {
                id: "ana".into(),
                actor_type: "human".into(),
            },
            projects: None,
            read_only: false,
        }
    }

    #[test]
    fn a_one_time_code_logs_in_once() {
        let logins = Logins::new().unwrap();
        let code = logins.one_time_code(grant()).unwrap();
        assert_eq!(logins.redeem("wrong").unwrap(), None);
        let key = logins.redeem(&code).unwrap().unwrap();
        assert_eq!(logins.grant(&key), Some(grant()));
        assert_eq!(logins.redeem(&code).unwrap(), None, "used twice");
        logins.forget(&key);
        assert_eq!(logins.grant(&key), None);
    }

    #[test]
    fn form_tokens_differ_per_login_and_per_process() {
        let (a, b) = (Logins::new().unwrap(), Logins::new().unwrap());
        assert_ne!(a.csrf("relay_x"), a.csrf("relay_y"));
        assert_ne!(a.csrf("relay_x"), b.csrf("relay_x"));
        assert_eq!(a.csrf("relay_x"), a.csrf("relay_x"));
    }

    #[test]
    fn the_cookie_is_found_among_others() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; relay_console=relay_abc; b=2"),
        );
        assert_eq!(cookie(&h).as_deref(), Some("relay_abc"));
        h.insert(header::COOKIE, HeaderValue::from_static("relay_console="));
        assert_eq!(cookie(&h), None);
    }
}
