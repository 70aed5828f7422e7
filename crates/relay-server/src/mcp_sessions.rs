//! The sessions of `/mcp` ([`super::mcp_http`]): who opened each, what it subscribed to, and
//! when it was last used, capped at [`MAX_SESSIONS`]. Apart from the transport so that the
//! server's state can hold the table without the handlers.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The most sessions kept at once; the one used longest ago goes first.
pub const MAX_SESSIONS: usize = 1024;
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

    /// Opens a session for `owner` under `id`, evicting the one used longest ago when full.
    pub fn open(&self, id: String, owner: Option<String>) {
        let mut map = self.lock();
        if map.len() >= MAX_SESSIONS
            && let Some(oldest) = (map.iter())
                .min_by_key(|(_, s)| s.last_used)
                .map(|(k, _)| k.clone())
        {
            map.remove(&oldest);
        }
        let session = Session {
            owner,
            subscriptions: Arc::default(),
            last_used: Instant::now(),
        };
        map.insert(id, session);
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
