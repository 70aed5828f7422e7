//! assert_fact's request (§8.6). A fact's value is text (§7: "Numeric values MUST be
//! serialized as strings to avoid type ambiguity across transports"), so a JSON number or
//! boolean is refused on every door rather than stringified by one (`1e2` → `"100.0"`) and
//! refused by another.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::Spelling;
use crate::ops::facts::AssertRequest;
use relay_wire::error::Result;
use relay_wire::time;

/// What assert_fact is asked for.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssertFactRequest {
    pub subject: String,
    pub predicate: String,
    /// The value, as text (see [`fact_value`]).
    #[serde(deserialize_with = "fact_value")]
    pub value: String,
    /// The package the fact comes from.
    pub source_package_id: Option<String>,
    /// How sure the asserter is, from 0 to 1 (1 by default).
    pub confidence: Option<f64>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// When the fact starts to hold (now by default).
    pub valid_from: Option<String>,
}

/// Why a value that is not text is refused.
pub const NOT_TEXT: &str = "must be a string: §7 serializes a fact's value as text, numbers included (send \"100\", not 100)";

/// Deserializes a fact's value: a JSON string, nothing else.
pub fn fact_value<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    match Value::deserialize(d)? {
        Value::String(s) => Ok(s),
        other => Err(serde::de::Error::custom(format!(
            "`value` {NOT_TEXT}; got {other}"
        ))),
    }
}

impl AssertFactRequest {
    /// The core's assert request; the asserter is the caller's to fill in.
    pub fn into_assert(self, spelling: Spelling) -> Result<AssertRequest> {
        let valid_from = self.valid_from.as_deref();
        Ok(AssertRequest {
            valid_from: time::parse_time(&spelling.name("valid_from"), valid_from)?,
            subject: self.subject,
            predicate: self.predicate,
            value: self.value,
            source_package_id: self.source_package_id,
            confidence: self.confidence,
            tags: self.tags,
            ..AssertRequest::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_value_is_text_and_a_number_is_refused() {
        let ok: AssertFactRequest =
            serde_json::from_value(json!({"subject": "s", "predicate": "p", "value": "100"}))
                .unwrap();
        assert_eq!(ok.value, "100");
        for v in [json!(1e2), json!(100), json!(true), json!(null)] {
            let e = serde_json::from_value::<AssertFactRequest>(
                json!({"subject": "s", "predicate": "p", "value": v}),
            )
            .unwrap_err();
            assert!(e.to_string().contains("must be a string"), "{e}");
        }
    }
}
