//! The requests that name one fact key (subject and predicate): facts_get, the current value
//! or the one valid at a past time, and invalidate_fact (§8.7), which ends the current fact
//! without a replacement, only where it holds `object` when that is given.

use serde::Deserialize;

use super::listing::Reveal;
use relay_wire::error::{Result, SchemaError};

/// What facts_get is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetFactRequest {
    /// What the fact is about, e.g. dashboard
    pub subject: String,
    /// Which property of the subject, e.g. status
    pub predicate: String,
    /// The fact valid at this time instead of now: an RFC 3339 timestamp, a date or an age
    pub at: Option<String>,
    /// Also show a fact whose x-expires-at has passed (hidden by default)
    #[serde(default)]
    pub include_expired: bool,
    /// Also show a retracted fact (hidden by default)
    #[serde(default)]
    pub include_retracted: bool,
}

impl GetFactRequest {
    /// Refuses an empty key.
    pub fn validate(&self) -> Result<()> {
        check_key(&self.subject, &self.predicate)
    }

    /// Which hidden facts the read shows.
    pub fn reveal(&self) -> Reveal {
        Reveal {
            expired: self.include_expired,
            retracted: self.include_retracted,
        }
    }
}

/// What invalidate_fact (§8.7) is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InvalidateFactRequest {
    /// What the fact is about, e.g. dashboard
    pub subject: String,
    /// Which property of the subject, e.g. status
    pub predicate: String,
    /// Only end the current fact if it holds this value (§8.7's `object`; `value` is
    /// accepted too)
    #[serde(alias = "value")]
    pub object: Option<String>,
}

impl InvalidateFactRequest {
    /// Refuses an empty key.
    pub fn validate(&self) -> Result<()> {
        check_key(&self.subject, &self.predicate)
    }
}

/// A fact key's parts must not be empty (`invalid_schema`, as a fact with one is refused).
fn check_key(subject: &str, predicate: &str) -> Result<()> {
    for (name, v) in [("subject", subject), ("predicate", predicate)] {
        if v.is_empty() {
            return Err(SchemaError::new(name, "must not be empty").into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn invalidate_takes_the_spec_s_object_and_today_s_value() {
        for key in ["object", "value"] {
            let r: InvalidateFactRequest =
                serde_json::from_value(json!({"subject": "s", "predicate": "p", key: "live"}))
                    .unwrap();
            assert_eq!(r.object.as_deref(), Some("live"));
        }
        let r: InvalidateFactRequest =
            serde_json::from_value(json!({"subject": "s", "predicate": "p"})).unwrap();
        assert_eq!(r.object, None);
    }

    #[test]
    fn a_key_is_required_and_not_empty() {
        assert!(serde_json::from_value::<GetFactRequest>(json!({"subject": "s"})).is_err());
        let r = GetFactRequest {
            subject: "s".into(),
            ..GetFactRequest::default()
        };
        assert_eq!(r.validate().unwrap_err().code(), "invalid_schema");
    }
}
