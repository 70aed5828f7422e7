//! Property tests for the pure core (and [`json`], the JSON values they draw, for others'), with a bounded number of cases so that `cargo test` stays
//! fast (the fuzz targets under `fuzz/` go further).

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::canonical::{content_hash, to_canonical_string};

/// JSON values without `null` members (canonical JSON drops those) and with integer numbers
/// (a float such as 1.0 comes back as the integer 1).
pub(crate) fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        (-(1i64 << 53)..(1i64 << 53)).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::String),
        Just(Value::String("\u{0}\u{1f}\"\\/😂é\u{7f}".into())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("\\PC{0,6}", inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

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
