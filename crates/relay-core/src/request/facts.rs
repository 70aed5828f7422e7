//! The facts operations' requests: assert_fact (§8.6) and the listing of facts. A fact's value is text (§7: "Numeric values MUST be
//! serialized as strings to avoid type ambiguity across transports"), so a JSON number or
//! boolean is refused on every door rather than stringified by one (`1e2` → `"100.0"`) and
//! refused by another.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{Spelling, check_exclusive};
use crate::ops::facts::{AssertRequest, ListQuery};
use crate::search::filter::Reveal;
use relay_wire::error::Result;
use relay_wire::time;

/// What assert_fact is asked for. The field docs are what an agent reads in MCP's tool
/// schema.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AssertFactRequest {
    /// What the fact is about, e.g. dashboard
    pub subject: String,
    /// Which property of the subject, e.g. status
    pub predicate: String,
    /// The value, as text (numbers too, e.g. "97.0")
    #[serde(deserialize_with = "fact_value")]
    #[schemars(with = "String")]
    pub value: String,
    /// The package this fact comes from; its author becomes the fact's asserted_by unless
    /// actor is given
    pub source_package_id: Option<String>,
    /// How sure, from 0 to 1 (default 1)
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
    /// Labels
    #[serde(default)]
    pub tags: Vec<String>,
    /// When it became true (default now; not before the current fact's): an RFC 3339
    /// timestamp, a date or an age
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

/// What a listing of facts is asked for: the current facts (one per key), filtered; or those
/// valid at a past time (`at`), or every fact ever recorded (`include_ended`). The field docs
/// are what an agent reads in MCP's tool schema.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListFactsRequest {
    /// Only facts about this subject
    pub subject: Option<String>,
    /// Only facts with this predicate
    pub predicate: Option<String>,
    /// Only facts carrying this tag
    pub tag: Option<String>,
    /// The facts valid at this time instead of now: an RFC 3339 timestamp, a date or an age
    pub at: Option<String>,
    /// Every fact, ended ones included
    #[serde(default)]
    pub include_ended: bool,
    /// The facts as the store stood at this time: recorded by then and valid then
    pub as_of: Option<String>,
    /// Also show facts whose x-expires-at has passed (hidden by default)
    #[serde(default)]
    pub include_expired: bool,
    /// Also show retracted facts (hidden by default)
    #[serde(default)]
    pub include_retracted: bool,
}

impl ListFactsRequest {
    /// Refuses a past time with every fact ever recorded.
    pub fn validate(&self) -> Result<()> {
        check_exclusive(
            ("at", self.at.is_some()),
            ("include_ended", self.include_ended),
        )
    }

    /// The core's query, its times named as the door `spelling` spells them.
    pub fn query(self, spelling: Spelling) -> Result<ListQuery> {
        self.validate()?;
        let when = |name: &str, text: Option<&str>| time::parse_time(&spelling.name(name), text);
        Ok(ListQuery {
            at: when("at", self.at.as_deref())?,
            as_of: when("as_of", self.as_of.as_deref())?,
            subject: self.subject,
            predicate: self.predicate,
            tag: self.tag,
            include_ended: self.include_ended,
            reveal: Reveal {
                expired: self.include_expired,
                retracted: self.include_retracted,
            },
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

    #[test]
    fn a_past_time_and_every_fact_exclude_each_other() {
        let r = ListFactsRequest {
            at: Some("2026-01-01".into()),
            include_ended: true,
            ..ListFactsRequest::default()
        };
        let e = r.query(Spelling::Param).unwrap_err().to_string();
        assert!(
            e.contains("`at` and `include_ended` cannot be used together"),
            "{e}"
        );
    }
}
