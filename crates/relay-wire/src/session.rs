//! The Session (§5.5): one actor's continuous work period, named by a callsign.

use super::tree::Object;
use super::validate::{Check, Fields};

wire_record! {
    /// A validated Session.
    Session, validate
}

impl Session {
    pub fn id(&self) -> &str {
        self.str_field("session_id").unwrap_or_default()
    }

    pub fn callsign(&self) -> Option<&str> {
        self.str_field("callsign")
    }

    pub fn is_active(&self) -> bool {
        self.str_field("ended_at").is_none()
    }
}

/// Checks every constraint of §5.5.
pub fn validate<O: Object>(map: &O) -> Check<()> {
    let f = Fields::root(map);
    f.id("session_id")?;
    f.id("project_id")?;
    f.id("actor_id")?;
    f.required_enum("actor_type", super::ACTOR_TYPES)?;
    f.optional_str("callsign")?;
    f.required_timestamp("started_at")?;
    f.optional_timestamp("ended_at")?;
    f.string_list("packages_deposited")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn validates_sessions() {
        let v = json!({"session_id": "sess_1", "project_id": "p", "actor_id": "a", "actor_type": "agent",
                       "callsign": "coral-heron", "started_at": "2026-04-10T12:00:00Z", "ended_at": null,
                       "packages_deposited": []});
        let s = Session::from_value(v.clone()).unwrap();
        assert!(s.is_active());
        assert_eq!(s.callsign(), Some("coral-heron"));
        let mut bad = v;
        bad["actor_type"] = json!("robot");
        assert_eq!(Session::from_value(bad).unwrap_err().field, "actor_type");
    }
}
