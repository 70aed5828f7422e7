//! Per-clone state under `local/` (never committed): which session this clone is in.

use serde::{Deserialize, Serialize};

use super::{Store, log};
use relay_wire::error::{Error, Result};

const CURRENT_SESSION: &str = "session.json";

/// The clone's current session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrentSession {
    pub project_id: String,
    pub session_id: String,
}

impl Store {
    /// The clone's current session, if one is set. An unreadable file counts as none.
    pub fn current_session(&self) -> Option<CurrentSession> {
        let text = std::fs::read(self.layout.local_dir().join(CURRENT_SESSION)).ok()?;
        serde_json::from_slice(&text).ok()
    }

    /// Sets (or with `None` clears) the clone's current session.
    pub fn set_current_session(&self, current: Option<&CurrentSession>) -> Result<()> {
        let path = self.layout.local_dir().join(CURRENT_SESSION);
        match current {
            Some(c) => log::write_atomic(&path, &log::to_line(c)?),
            None => match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(Error::io(format!("cannot remove {}", path.display()), e))
                }
                _ => Ok(()),
            },
        }
    }
}
