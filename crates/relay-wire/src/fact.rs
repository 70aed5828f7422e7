//! The Fact (§7): a subject/predicate/value triple valid from `valid_from` until `valid_to`.

use serde_json::Value;

use super::time::{self, Timestamp};
use super::tree::{Node, Object, View};
use super::validate::{Check, Fields};
use crate::error::SchemaError;

wire_record! {
    /// A validated Fact.
    Fact, validate
}

impl Fact {
    pub fn id(&self) -> &str {
        self.str_field("fact_id").unwrap_or_default()
    }

    pub fn subject(&self) -> &str {
        self.str_field("subject").unwrap_or_default()
    }

    pub fn predicate(&self) -> &str {
        self.str_field("predicate").unwrap_or_default()
    }

    pub fn value(&self) -> &str {
        self.str_field("value").unwrap_or_default()
    }

    pub fn valid_from(&self) -> Timestamp {
        self.str_field("valid_from")
            .and_then(|s| time::parse(s).ok())
            .unwrap_or_default()
    }

    /// `None` while the fact is current.
    pub fn valid_to(&self) -> Option<Timestamp> {
        self.str_field("valid_to").and_then(|s| time::parse(s).ok())
    }

    pub fn created_at(&self) -> Timestamp {
        self.str_field("created_at")
            .and_then(|s| time::parse(s).ok())
            .unwrap_or_default()
    }

    pub fn is_current(&self) -> bool {
        self.valid_to().is_none()
    }

    /// Whether the fact held at `t`: `valid_from ≤ t < valid_to`, a missing `valid_to` being +∞.
    pub fn valid_at(&self, t: Timestamp) -> bool {
        self.valid_from() <= t && self.valid_to().is_none_or(|end| t < end)
    }

    pub fn confidence(&self) -> f64 {
        self.0
            .get("confidence")
            .and_then(Value::as_f64)
            .unwrap_or(1.0)
    }
}

/// Checks every constraint of §7.
pub fn validate<O: Object>(map: &O) -> Check<()> {
    let f = Fields::root(map);
    f.id("fact_id")?;
    f.id("project_id")?;
    f.id("subject")?;
    f.id("predicate")?;
    let Some(value) = f.get("value") else {
        return Err(SchemaError::new("value", "is required"));
    };
    match value.view() {
        View::Str(_) => {}
        View::Number(n) => {
            return Err(SchemaError::new(
                "value",
                format!(
                    "must be a string; numbers are stored as text (§7.1), so write \"{n}\" instead of {n}"
                ),
            ));
        }
        _ => {
            return Err(SchemaError::new(
                "value",
                format!("must be a string, got {}", super::validate::kind(value)),
            ));
        }
    }
    let from = f.required_timestamp("valid_from")?;
    f.required_timestamp("created_at")?;
    if let Some(to) = f.optional_timestamp("valid_to")?
        && let (Ok(a), Ok(b)) = (time::parse(from), time::parse(to))
        && b < a
    {
        return Err(SchemaError::new(
            "valid_to",
            "must not be earlier than valid_from",
        ));
    }
    f.optional_str("source_package_id")?;
    f.optional_number("confidence", 0.0, 1.0)?;
    if let Some(by) = f.optional_object("asserted_by")? {
        by.actor()?;
    }
    f.string_list("tags")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fact() -> Value {
        json!({
            "fact_id": "fact_1", "project_id": "p", "subject": "s", "predicate": "p",
            "value": "97.0", "valid_from": "2026-04-10T12:00:00Z", "valid_to": null,
            "confidence": 1.0, "created_at": "2026-04-10T12:00:00Z"
        })
    }

    #[test]
    fn accepts_the_spec_shape_and_answers_time_travel() {
        let mut v = fact();
        v["valid_to"] = json!("2026-04-11T00:00:00Z");
        let f = Fact::from_value(v).unwrap();
        let t = |s: &str| time::parse(s).unwrap();
        assert!(!f.valid_at(t("2026-04-10T11:59:59Z")));
        assert!(f.valid_at(t("2026-04-10T12:00:00Z")));
        assert!(!f.valid_at(t("2026-04-11T00:00:00Z")));
        assert!(Fact::from_value(fact()).unwrap().is_current());
    }

    #[test]
    fn numeric_value_gets_a_hint() {
        let mut v = fact();
        v["value"] = json!(97.5);
        let e = Fact::from_value(v).unwrap_err();
        assert_eq!(e.field, "value");
        assert!(e.problem.contains("\"97.5\""), "{e}");
    }

    #[test]
    fn confidence_keeps_its_text_and_reads_as_the_number_it_names() {
        for (text, want) in [("0.90", 0.9), ("1.0000000000000000001", 1.0), ("5e-1", 0.5)] {
            let mut v = fact();
            v["confidence"] = crate::strict::from_str(text).unwrap();
            let f = Fact::from_value(v).unwrap();
            assert_eq!(f.confidence(), want, "{text}");
            assert_eq!(f.to_value()["confidence"].to_string(), text);
        }
        let mut v = fact();
        v["confidence"] = crate::strict::from_str("1.000000000001").unwrap();
        assert_eq!(Fact::from_value(v).unwrap_err().field, "confidence");
    }

    #[test]
    fn confidence_range_and_empty_keys() {
        for (field, bad) in [
            ("confidence", json!(1.5)),
            ("confidence", json!(-0.1)),
            ("subject", json!("")),
            ("predicate", json!("")),
        ] {
            let mut v = fact();
            v[field] = bad;
            assert_eq!(Fact::from_value(v).unwrap_err().field, field);
        }
        let mut v = fact();
        v["asserted_by"] = json!({"id": "a", "type": "bot"});
        assert_eq!(Fact::from_value(v).unwrap_err().field, "asserted_by.type");
    }
}
