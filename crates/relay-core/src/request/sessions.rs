//! The session operations' requests (§5.5): start one (with a callsign, made this clone's
//! current session unless asked otherwise), end one, and list a project's sessions.

use serde::Deserialize;

use relay_wire::error::{Error, Result};

/// Whether a new session becomes this clone's current one unless asked otherwise.
pub const DEFAULT_MAKE_CURRENT: bool = true;

/// What a session start is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionStartRequest {
    /// Use this callsign instead of a generated one
    pub callsign: Option<String>,
    /// Make it this clone's current session (default true); if false, pass its id as session
    /// to later calls
    pub make_current: Option<bool>,
}

impl SessionStartRequest {
    /// Nothing to refuse here: the callsign is checked when the session starts, after the
    /// store's secrets policy has had its say (`ops::sessions::start`).
    pub fn validate(&self) -> Result<()> {
        Ok(())
    }

    /// Whether the session becomes this clone's current one ([`DEFAULT_MAKE_CURRENT`] unless
    /// asked otherwise).
    pub fn make_current(&self) -> bool {
        self.make_current.unwrap_or(DEFAULT_MAKE_CURRENT)
    }
}

/// What a session end is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionEndRequest {
    /// The session to end (id or callsign); default: the server's session, else this
    /// clone's current one
    pub session: Option<String>,
}

impl SessionEndRequest {
    /// Refuses an empty session name.
    pub fn validate(&self) -> Result<()> {
        if self.session.as_deref().is_some_and(str::is_empty) {
            return Err(Error::InvalidInput(
                "name the session to end by its id or callsign".into(),
            ));
        }
        Ok(())
    }
}

/// What the listing of a project's sessions is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionListRequest {
    /// Only the sessions that have not ended
    #[serde(default)]
    pub active: bool,
    /// The sessions as they were at this time: those started by then, open if they ended
    /// since, with the packages deposited by then
    pub as_of: Option<String>,
}

impl SessionListRequest {
    /// Nothing to refuse beyond what deserializing checks.
    pub fn validate(&self) -> Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_new_session_is_made_current_unless_asked_otherwise() {
        let r: SessionStartRequest = serde_json::from_value(json!({})).unwrap();
        assert_eq!(r.make_current(), DEFAULT_MAKE_CURRENT);
        let r: SessionStartRequest =
            serde_json::from_value(json!({"make_current": false})).unwrap();
        assert!(!r.make_current());
    }

    #[test]
    fn an_empty_session_name_is_refused() {
        let end = SessionEndRequest {
            session: Some(String::new()),
        };
        assert!(end.validate().is_err());
    }
}
