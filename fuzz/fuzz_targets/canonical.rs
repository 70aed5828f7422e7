//! Canonical JSON is idempotent, parses back, and its hash ignores key order and whitespace.
#![no_main]
use libfuzzer_sys::fuzz_target;
use relay::wire::canonical::{content_hash, to_canonical_string};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let once = to_canonical_string(&value);
    let reparsed: serde_json::Value =
        serde_json::from_str(&once).expect("canonical output is JSON");
    assert_eq!(
        to_canonical_string(&reparsed),
        once,
        "canonical form is idempotent"
    );
    let pretty = serde_json::to_string_pretty(&value).expect("serialises");
    let again: serde_json::Value = serde_json::from_str(&pretty).expect("parses");
    assert_eq!(content_hash(&again), content_hash(&value));
});
