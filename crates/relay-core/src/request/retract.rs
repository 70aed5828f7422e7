//! retract's request: take back a package or a fact (the Agent Memory Protocol's delete),
//! with the reason kept in the record's history.

use serde::Deserialize;

use relay_wire::error::{Result, SchemaError};

/// What a retraction is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RetractRequest {
    /// The package (pkg_…) or fact (fact_…) to retract
    pub id: String,
    /// Why: kept with the retraction and shown in the record's history
    pub reason: String,
}

impl RetractRequest {
    /// Refuses an empty id and a blank reason.
    pub fn validate(&self) -> Result<()> {
        if self.id.is_empty() {
            return Err(SchemaError::new("id", "must not be empty: name a pkg_… or fact_…").into());
        }
        check_reason(&self.reason)
    }
}

/// Refuses a blank reason: it is what readers of the record's history see.
pub fn check_reason(reason: &str) -> Result<()> {
    if reason.trim().is_empty() {
        return Err(relay_wire::error::Error::InvalidInput(
            "a retraction needs a reason (--reason TEXT): it is what readers of the history see"
                .into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_retraction_names_its_record_and_says_why() {
        let r: RetractRequest =
            serde_json::from_value(json!({"id": "pkg_1", "reason": "wrong"})).unwrap();
        assert!(r.validate().is_ok());
        let blank = RetractRequest {
            reason: " ".into(),
            ..r.clone()
        };
        assert_eq!(blank.validate().unwrap_err().code(), "invalid_input");
        let nameless = RetractRequest {
            id: String::new(),
            ..r
        };
        assert_eq!(nameless.validate().unwrap_err().code(), "invalid_schema");
        assert!(serde_json::from_value::<RetractRequest>(json!({"id": "pkg_1"})).is_err());
    }
}
