//! The sessions of `/mcp` ([`super::mcp_http`]): who opened each, what it subscribed to, and
//! when it was last used. Each caller (a token, or the local user) holds at most
//! [`MAX_SESSIONS_PER_CALLER`]: one more ends that caller's own session used longest ago,
//! never another caller's. The table holds at most [`MAX_SESSIONS`]; when it is full, a
//! caller under its own cap is refused (503) rather than take anyone's place. Apart from the
//! transport so that the server's state can hold the table without the handlers.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The most sessions kept at once, in all.
pub const MAX_SESSIONS: usize = 1024;
/// The most sessions one caller keeps; its own used longest ago goes first.
pub const MAX_SESSIONS_PER_CALLER: usize = 64;
/// One client's session.
pub(crate) struct Session {
    /// Who opened it: a token's id, or `None` for the local user. Only they may use it.
    owner: Option<String>,
    /// The feeds the client subscribed to.
    subscriptions: Arc<Mutex<BTreeSet<String>>>,
    last_used: Instant,
}

/// The open sessions, by id.
#[derive(Default)]
pub struct Sessions(Mutex<HashMap<String, Session>>);

/// Why a request names no usable session.
#[derive(Debug, PartialEq, Eq)]
pub enum Missing {
    /// No `Mcp-Session-Id`: 400.
    NotSent,
    /// An id no session has (ended, evicted), or another caller's: 404.
    Unknown,
}

impl Sessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Session>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens a session for `owner` under `id`, ending the owner's own session used longest
    /// ago when it holds [`MAX_SESSIONS_PER_CALLER`]; `Err` (with how many are open) when the
    /// table is full of other callers' sessions.
    pub fn open(&self, id: String, owner: Option<String>) -> Result<(), usize> {
        let mut map = self.lock();
        let own = || map.iter().filter(|(_, s)| s.owner == owner);
        if own().count() >= MAX_SESSIONS_PER_CALLER
            && let Some(oldest) = own()
                .min_by_key(|(_, s)| s.last_used)
                .map(|(k, _)| k.clone())
        {
            map.remove(&oldest);
        }
        if map.len() >= MAX_SESSIONS {
            return Err(map.len());
        }
        let session = Session {
            owner,
            subscriptions: Arc::default(),
            last_used: Instant::now(),
        };
        map.insert(id, session);
        Ok(())
    }

    /// The subscriptions of the session `id` names, if `owner` opened it.
    pub(crate) fn find(
        &self,
        id: Option<&str>,
        owner: &Option<String>,
    ) -> Result<Arc<Mutex<BTreeSet<String>>>, Missing> {
        let id = id.ok_or(Missing::NotSent)?;
        let mut map = self.lock();
        match map.get_mut(id) {
            Some(s) if s.owner == *owner => {
                s.last_used = Instant::now();
                Ok(s.subscriptions.clone())
            }
            _ => Err(Missing::Unknown),
        }
    }

    /// Ends the session `id` names, if `owner` opened it.
    pub(crate) fn end(&self, id: Option<&str>, owner: &Option<String>) -> Result<(), Missing> {
        self.find(id, owner)?;
        self.lock().remove(id.unwrap_or_default());
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_over_its_cap_ends_its_own_oldest_session_never_anothers() {
        let sessions = Sessions::default();
        let (alice, mallory) = (Some("tok_a".to_string()), Some("tok_m".to_string()));
        sessions.open("alice".into(), alice.clone()).unwrap();
        for i in 0..MAX_SESSIONS_PER_CALLER {
            sessions.open(format!("m{i}"), mallory.clone()).unwrap();
        }
        // m0 is used again, so m1 is now mallory's used longest ago.
        assert!(sessions.find(Some("m0"), &mallory).is_ok());
        for i in 0..1100 {
            sessions.open(format!("flood{i}"), mallory.clone()).unwrap();
        }
        assert!(
            sessions.find(Some("alice"), &alice).is_ok(),
            "alice keeps hers"
        );
        assert_eq!(sessions.len(), 1 + MAX_SESSIONS_PER_CALLER);
        assert_eq!(
            sessions.find(Some("m1"), &mallory).err(),
            Some(Missing::Unknown)
        );
        assert!(sessions.find(Some("flood1099"), &mallory).is_ok());
    }

    #[test]
    fn a_full_table_refuses_a_new_caller_and_keeps_every_session() {
        let sessions = Sessions::default();
        for i in 0..MAX_SESSIONS {
            let owner = Some(format!("tok_{}", i / MAX_SESSIONS_PER_CALLER));
            sessions.open(format!("s{i}"), owner).unwrap();
        }
        assert_eq!(sessions.open("late".into(), None), Err(MAX_SESSIONS));
        assert_eq!(sessions.len(), MAX_SESSIONS);
        // A caller at its own cap still gets a new one, in place of its own oldest.
        assert!(sessions.open("again".into(), Some("tok_0".into())).is_ok());
        assert_eq!(
            sessions.find(Some("s0"), &Some("tok_0".into())).err(),
            Some(Missing::Unknown)
        );
    }
}
