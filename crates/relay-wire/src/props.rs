//! Property tests for the pure core, with a bounded number of cases so that `cargo test` stays
//! fast (the fuzz targets under `fuzz/` go further).

use proptest::prelude::*;
use serde_json::Value;

use super::canonical::{content_hash, to_canonical_string};
use super::strategies::json;

/// The same value with every object's members in reverse order.
fn reversed(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .rev()
                .map(|(k, v)| (k.clone(), reversed(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(reversed).collect()),
        other => other.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn canonical_form_is_idempotent(v in json()) {
        let once = to_canonical_string(&v);
        let reparsed: Value = serde_json::from_str(&once).unwrap();
        prop_assert_eq!(to_canonical_string(&reparsed), once);
    }

    #[test]
    fn parse_canonical_parse_is_the_identity(v in json()) {
        let back: Value = serde_json::from_str(&to_canonical_string(&v)).unwrap();
        // Member order aside (maps compare by content), nothing changes.
        prop_assert_eq!(back, v);
    }

    #[test]
    fn the_hash_ignores_key_order_and_whitespace(v in json()) {
        let pretty: Value = serde_json::from_str(&serde_json::to_string_pretty(&reversed(&v)).unwrap()).unwrap();
        prop_assert_eq!(content_hash(&pretty), content_hash(&v));
    }
}
