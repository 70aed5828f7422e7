//! The JSON values property tests draw, here and in the crates above (their tests enable the
//! `proptest` feature).

use proptest::prelude::*;
use serde_json::{Map, Value};

/// JSON values without `null` members (canonical JSON drops those) and with integer numbers
/// (a float such as 1.0 comes back as the integer 1).
pub fn json() -> impl Strategy<Value = Value> {
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
