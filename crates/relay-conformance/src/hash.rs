//! The `content_hash` scenario (L1; §6.6, §6.7, Appendix A): the hash a server stores with a
//! package must be the SHA-256 of the protocol's canonical JSON, on the cases where a hasher
//! that merely sorts keys and strips whitespace (Python's `json.dumps(sort_keys=True)`, say)
//! goes wrong: `null` members at depth (omitted), exponents and other numbers (ECMAScript's
//! shortest form), integers above 2^53 (as doubles), `-0.0` (`0`), U+2028 (kept raw), and keys
//! whose UTF-8 byte order differs from their UTF-16 order. The suite's reference is relay's
//! own canonical JSON, which first proves itself on the spec's §6.7 example; [`stored`] is the
//! check of one deposit's answer that every deposit scenario shares.

use chrono::TimeDelta;
use serde_json::Value;

use super::client::Answer;
use super::shape;
use super::{Check, Kind, Stop, Suite, expect, fail};
use relay_wire::{canonical, ids};

/// The spec's §6.7 example package, as `testdata/canonical/packages/` holds it.
pub(crate) const EXAMPLE: &str = r#"{"package_id": "pkg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d", "project_id": "proj_dev_relay", "relay_version": "0.1", "title": "Shipped archive/de-archive", "status": "complete", "package_type": "milestone", "review_type": "none", "created_at": "2026-04-18T20:00:00Z", "created_by": {"id": "jordan", "type": "human", "session_id": null}, "tags": ["archive", "cli"], "decisions_made": ["Soft archive via archived_at timestamp"], "open_questions": [], "handoff_note": "Migration 009 applied, dashboard filter works."}"#;

/// Its content hash (`spec-6.7-example.sha256`).
pub(crate) const EXAMPLE_HASH: &str =
    "sha256:0efe5d06aaaaf2dc735b3f9ce7cfc1a0f7cd715491ab61d991f57be1d4c0db33";

/// The cases, each the value of an `x-conformance-vector` member of one package (the keys
/// one is `testdata/jcs/input/weird.json`).
pub const VECTORS: [(&str, &str); 6] = [
    (
        "nulls at depth",
        r#"{"a": {"b": null, "c": [null, {"d": null, "e": 1}]}, "f": null, "g": [{"h": null}]}"#,
    ),
    (
        "exponents",
        r#"[1E30, 4.50, 2e-3, 1e-7, 0.000001, 333333333.33333329, 1e21, 1e-27, 5e-324]"#,
    ),
    (
        "integers above 2^53",
        r#"[9007199254740993, 1152921504606846976, 18446744073709551615]"#,
    ),
    ("-0.0", r#"{"zero": -0.0, "list": [-0.0, 0.0]}"#),
    (
        "U+2028 and U+2029",
        "\"line\u{2028}separator\u{2029}paragraph\\u2028 </script>\"",
    ),
    (
        "keys whose UTF-8 order is not their UTF-16 order",
        r#"{"\u20ac": "Euro Sign", "1": "One", "\u0080": "Control\u007f", "\ud83d\ude02": "Smiley", "\u00f6": "Latin Small Letter O With Diaeresis", "\ufb33": "Hebrew Letter Dalet With Dagesh", "</script>": "Browser Challenge"}"#,
    ),
];

/// Whether relay's hasher gives the §6.7 example its known hash: the suite's reference for
/// every hash it checks.
pub(crate) fn reference_holds() -> Result<(), String> {
    let example: Value = serde_json::from_str(EXAMPLE).map_err(|e| e.to_string())?;
    match canonical::content_hash(&example) {
        h if h == EXAMPLE_HASH => Ok(()),
        h => Err(format!(
            "relay's own hasher gives the §6.7 example {h}, not {EXAMPLE_HASH}: the suite \
             cannot judge hashes"
        )),
    }
}

/// The package a deposit answered with, its hash, and where it stands: the package as sent
/// comes back with every member unchanged (§6, §12.1), beside a hash equal to relay's
/// canonical hash of it (§6.6, §8.1).
pub(crate) fn stored(a: &Answer, sent: &Value, statuses: &[u16], expected: &str) -> Check<Value> {
    let body = expect(a, statuses, expected)?;
    let Some(package) = shape::package_of(body) else {
        return fail(format!(
            "{}; expected the stored package (§8.1)",
            a.answered()
        ));
    };
    let changed = shape::changed_members(sent, package);
    if !changed.is_empty() {
        return fail(format!(
            "{} answered a package whose {} differ from what was sent: {package} (§6: fields, \
             x-* ones too, are kept exactly, §12.1)",
            a.request,
            changed.join(", ")
        ));
    }
    let ours = canonical::content_hash(package);
    match shape::hash_of(body) {
        Some(h) if shape::hash_hex(h) == shape::hash_hex(&ours) => Ok(package.clone()),
        Some(h) if shape::hash_hex(h).is_none() => fail(format!(
            "{} answered the hash {h:?}; expected 64 lowercase hex digits of SHA-256, with or \
             without `sha256:` (§6.6)",
            a.request
        )),
        Some(h) => fail(format!(
            "{} answered the hash {h}, but the canonical hash of the package it returned is \
             {ours} (§6.6, Appendix A)",
            a.request
        )),
        None => fail(format!(
            "{}; expected the content hash beside the package, as `{}` (§8.1: it returns the \
             stored package with its content hash)",
            a.answered(),
            shape::HASH_NAMES.join("`, `")
        )),
    }
}

/// The packages of the scenario: the §6.7 example in the suite's project (with a new id), and
/// one of the suite's packages for each of [`VECTORS`].
fn cases(s: &Suite) -> Vec<(String, Value)> {
    let mut example: Value = serde_json::from_str(EXAMPLE).expect("the example is JSON");
    example["package_id"] = Value::from(ids::new_id("pkg"));
    example["project_id"] = Value::from(s.project.clone());
    example["title"] = Value::from(format!("Shipped archive/de-archive ({})", s.word));
    // The actor the server lets the suite write as, with the example's `session_id: null`.
    example["created_by"] = s.actor.clone();
    example["created_by"]["session_id"] = Value::Null;
    let mut all = vec![("the §6.7 example".to_string(), example)];
    for (name, vector) in VECTORS {
        let mut p = s.package("Conformance hash", "complete", TimeDelta::zero());
        p["x-conformance-vector"] = serde_json::from_str(vector).expect("the vectors are JSON");
        all.push((name.to_string(), p));
    }
    all
}

/// content_hash (§6.6): each case deposited, and the hash the server answers, at deposit and
/// on a pull when it gives one there, is the canonical hash of the package.
pub fn content_hash(s: &mut Suite) -> Check {
    reference_holds().map_err(Stop::Fail)?;
    let mut wrong = Vec::new();
    for (name, package) in cases(s) {
        let a = s.deposit(&package);
        let stored = match stored(&a, &package, &[200, 201], "success and the package (§8.1)") {
            Ok(p) => p,
            Err(Stop::Fail(why)) => {
                wrong.push(format!("{name}: {why}"));
                continue;
            }
            Err(other) => return Err(other),
        };
        s.saw(Kind::Package, &a, &[&stored]);
        let id = shape::text(&stored, "package_id");
        let b = s.client.get(&["v1", "packages", id], &[]);
        let body = expect(&b, &[200], "200 and the package (§8.2)")?;
        let ours = canonical::content_hash(&stored);
        if let Some(h) = shape::hash_of(body)
            && shape::hash_hex(h) != shape::hash_hex(&ours)
        {
            wrong.push(format!(
                "{name}: {} answered the hash {h}; the canonical hash is {ours}",
                b.request
            ));
        }
    }
    match wrong.is_empty() {
        true => Ok(()),
        false => fail(format!(
            "{} of {} packages hashed otherwise than Appendix A's canonical JSON (§6.6): {}",
            wrong.len(),
            VECTORS.len() + 1,
            wrong.join("; ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn testdata(name: &str) -> String {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/testdata/");
        std::fs::read_to_string(format!("{dir}{name}")).unwrap()
    }

    #[test]
    fn the_reference_is_the_spec_example_and_its_hash_from_testdata() {
        let example = "canonical/packages/spec-6.7-example";
        assert_eq!(EXAMPLE, testdata(&format!("{example}.json")).trim_end());
        assert_eq!(EXAMPLE_HASH, testdata(&format!("{example}.sha256")).trim());
        reference_holds().unwrap();
    }

    #[test]
    fn the_keys_vector_is_the_jcs_one_and_sorts_as_the_protocol_output_says() {
        let weird: Value = serde_json::from_str(&testdata("jcs/input/weird.json")).unwrap();
        let ours: Value = serde_json::from_str(VECTORS[5].1).unwrap();
        assert_eq!(weird, ours);
        assert_eq!(
            canonical::to_canonical_string(&ours),
            testdata("canonical/output/weird.json").trim_end()
        );
    }

    /// What a hasher that sorts keys and keeps everything else as serde_json writes it gives.
    fn sort_keys(v: &Value) -> String {
        match v {
            Value::Object(m) => {
                let mut members: Vec<_> = m.iter().collect();
                members.sort_by(|a, b| a.0.cmp(b.0));
                let inner: Vec<String> = (members.iter())
                    .map(|(k, v)| format!("{}:{}", Value::from(k.as_str()), sort_keys(v)))
                    .collect();
                format!("{{{}}}", inner.join(","))
            }
            Value::Array(a) => format!(
                "[{}]",
                a.iter().map(sort_keys).collect::<Vec<_>>().join(",")
            ),
            other => other.to_string(),
        }
    }

    #[test]
    fn a_sort_keys_hasher_gets_every_vector_but_the_text_and_keys_ones_wrong() {
        for (name, vector) in VECTORS {
            let v: Value = serde_json::from_str(vector).unwrap();
            let agree = sort_keys(&v) == canonical::to_canonical_string(&v);
            let expected = name.starts_with("U+2028") || name.starts_with("keys");
            assert_eq!(agree, expected, "{name}: {}", sort_keys(&v));
        }
    }

    fn answer(status: u16, body: Value) -> Answer {
        Answer::canned("POST /v1/projects/p/packages", status, body)
    }

    #[test]
    fn a_deposit_answer_needs_the_package_as_sent_and_its_own_hash() {
        let sent: Value = serde_json::from_str(EXAMPLE).unwrap();
        let good = json!({"package": sent, "hash": EXAMPLE_HASH});
        assert_eq!(
            stored(&answer(201, good.clone()), &sent, &[201], "201").unwrap(),
            sent
        );
        let Err(super::super::Stop::Fail(why)) =
            stored(&answer(200, good), &sent, &[201], "201 (§8.1)")
        else {
            panic!("a 200 passed")
        };
        assert!(why.ends_with("expected 201 (§8.1)"), "{why}");
        let cases = [
            (
                json!({"package": sent, "hash": "sha256:00"}),
                "expected 64 lowercase hex digits",
            ),
            (
                json!({"package": sent, "hash": format!("sha256:{}", "0".repeat(64))}),
                "but the canonical hash of the package it returned is sha256:0efe",
            ),
            (json!(sent), "expected the content hash beside the package"),
            (json!({"ok": true}), "expected the stored package"),
        ];
        for (body, said) in cases {
            let Err(super::super::Stop::Fail(why)) =
                stored(&answer(201, body), &sent, &[201], "201")
            else {
                panic!("passed: {said}")
            };
            assert!(why.contains(said), "{why}");
        }
        let mut lost = sent.clone();
        lost["x-k"] = json!(1);
        let body = json!({"package": sent, "hash": EXAMPLE_HASH});
        let Err(super::super::Stop::Fail(why)) = stored(&answer(201, body), &lost, &[201], "201")
        else {
            panic!("a lost x- member passed")
        };
        assert!(why.contains("whose x-k differ"), "{why}");
    }
}
