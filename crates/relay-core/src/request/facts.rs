//! The facts operations' requests: assert_fact (§8.6) and the listing of facts. A fact's value
//! is text (§7.1: "Numeric values MUST be serialized as strings to avoid type ambiguity across
//! transports"): a JSON number is accepted and stringified here, by one rule for every door
//! ([`fact_value`]); a boolean or null is refused. Members named `x-*` are kept (§12.1).

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::check_exclusive;
use relay_wire::error::{Result, SchemaError};

/// What assert_fact is asked for. Unknown members are refused, except `x-*` extensions,
/// which the fact keeps (§12.1). The field docs are what an agent reads in MCP's tool schema.
///
/// Its `Deserialize` reads the members into a map first and takes the `x-*` ones out
/// (`remote = "Self"` keeps the derived reader for the rest): serde's `flatten` would pass
/// them through its own buffer, which holds no 128-bit integer, so an `x-*` integer of 20
/// to 39 digits would be refused instead of kept as written.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(remote = "Self", deny_unknown_fields)]
#[schemars(extend("patternProperties" = {"^x-": {}}))]
pub struct AssertFactRequest {
    /// What the fact is about, e.g. dashboard
    pub subject: String,
    /// Which property of the subject, e.g. status
    pub predicate: String,
    /// The value, as text (numbers too, e.g. "97.0"; a JSON number is stored as its text)
    #[serde(deserialize_with = "fact_value")]
    #[schemars(schema_with = "fact_value_schema")]
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
    /// `x-*` extension members, kept on the fact as given (§12.1); any other member is
    /// refused when read (and by [`AssertFactRequest::validate`] when built). The schema
    /// admits them by name pattern.
    #[serde(skip)]
    #[schemars(skip)]
    pub extensions: Map<String, Value>,
}

impl<'de> Deserialize<'de> for AssertFactRequest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let mut members = Map::<String, Value>::deserialize(d)?;
        let names: Vec<String> = (members.keys())
            .filter(|k| k.starts_with("x-"))
            .cloned()
            .collect();
        let mut extensions = Map::new();
        for name in names {
            let value = members.remove(&name).unwrap_or_default();
            extensions.insert(name, value);
        }
        let mut request = AssertFactRequest::deserialize(Value::Object(members))
            .map_err(serde::de::Error::custom)?;
        request.extensions = extensions;
        Ok(request)
    }
}

/// A fact's value is text, or a number that becomes its text ([`fact_value`]).
fn fact_value_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": ["string", "number"]})
}

/// Why a value that is neither text nor a number is refused.
pub const NOT_TEXT: &str = "must be a string (a number is stored as its text, §7.1)";

/// Deserializes a fact's value: a JSON string as it is, a JSON number as its JSON text
/// ([`number_text`]); anything else is refused.
pub fn fact_value<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    match Value::deserialize(d)? {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(number_text(&n)),
        other => Err(serde::de::Error::custom(format!(
            "`value` {NOT_TEXT}; got {other}"
        ))),
    }
}

/// The one rule that turns a numeric fact value into text on every door: the number as
/// JSON writes it (`100` → `"100"`, `97.5` → `"97.5"`, `1e2` → `"100.0"`). The CLI's value
/// is text already, so `relay facts assert k p 100.0` stores what the other doors store
/// for `100.0`.
pub fn number_text(n: &serde_json::Number) -> String {
    n.to_string()
}

impl AssertFactRequest {
    /// Refuses a member that is neither the request's own nor an `x-*` extension.
    pub fn validate(&self) -> Result<()> {
        match self.extensions.keys().find(|k| !k.starts_with("x-")) {
            Some(k) => Err(SchemaError::new(
                k,
                "is not a member of assert_fact (§8.6); extensions are named x-* (§12.1)",
            )
            .into()),
            None => Ok(()),
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Spelling;
    use serde_json::json;

    #[test]
    fn a_value_is_text_and_a_number_becomes_its_text() {
        let value = |v: Value| -> String {
            let r: AssertFactRequest =
                serde_json::from_value(json!({"subject": "s", "predicate": "p", "value": v}))
                    .unwrap();
            r.value
        };
        assert_eq!(value(json!("100")), "100");
        assert_eq!(value(json!(100)), "100");
        assert_eq!(value(json!(97.5)), "97.5");
        assert_eq!(value(json!(1e2)), "100.0");
        for v in [json!(true), json!(null), json!(["1"])] {
            let e = serde_json::from_value::<AssertFactRequest>(
                json!({"subject": "s", "predicate": "p", "value": v}),
            )
            .unwrap_err();
            assert!(e.to_string().contains("must be a string"), "{e}");
        }
    }

    #[test]
    fn x_members_are_kept_and_other_members_refused() {
        let r: AssertFactRequest = serde_json::from_value(
            json!({"subject": "s", "predicate": "p", "value": "v", "x-unit": "ms"}),
        )
        .unwrap();
        let a = r.into_assert(Spelling::Param).unwrap();
        assert_eq!(
            a.extensions,
            json!({"x-unit": "ms"}).as_object().unwrap().clone()
        );
        let e = serde_json::from_value::<AssertFactRequest>(
            json!({"subject": "s", "predicate": "p", "value": "v", "colour": "red"}),
        )
        .unwrap_err();
        assert!(e.to_string().contains("unknown field `colour`"), "{e}");
        // An integer no 64 bits hold, kept as written (serde's flatten buffer refuses it).
        let text = r#"{"subject": "s", "predicate": "p", "value": "v", "x-id": 123456789012345678901234567890}"#;
        let from_text: AssertFactRequest = serde_json::from_str(text).unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        let from_value: AssertFactRequest = serde_json::from_value(value).unwrap();
        for r in [from_text, from_value] {
            assert_eq!(
                r.extensions["x-id"].to_string(),
                "123456789012345678901234567890"
            );
        }
    }

    #[test]
    fn a_past_time_and_every_fact_exclude_each_other() {
        let r = ListFactsRequest {
            at: Some("2026-01-01".into()),
            include_ended: true,
            ..ListFactsRequest::default()
        };
        let e = r.validate().unwrap_err().to_string();
        assert!(
            e.contains("`at` and `include_ended` cannot be used together"),
            "{e}"
        );
    }
}
