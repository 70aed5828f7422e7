//! The shapes of the server's answers, as pure checks over JSON: where a package, a fact, a
//! list, a hash or a count sits in a body (tolerant where §9.1 fixes no body: a package bare
//! or in an envelope `{"package": …}`), and whether a conformance descriptor (§11.5) or an
//! orientation bundle (§8.3) has the spec's shape. A failed check is a sentence for a
//! scenario's reason.

use serde_json::Value;

use relay_wire::time::{self, Timestamp};
use relay_wire::{Fact, Package, canonical};

/// The package of a body: the body itself, or its `package` member.
pub fn package_of(v: &Value) -> Option<&Value> {
    match v.get("package") {
        Some(p @ Value::Object(_)) => Some(p),
        _ if v.get("package_id").is_some() => Some(v),
        _ => None,
    }
}

/// The fact of a body: the body itself, or its `fact` member.
pub fn fact_of(v: &Value) -> Option<&Value> {
    match v.get("fact") {
        Some(f @ Value::Object(_)) => Some(f),
        _ if v.get("fact_id").is_some() => Some(v),
        _ => None,
    }
}

/// The list of a body: the body itself when it is an array, or its member `key`.
pub fn list_of<'a>(v: &'a Value, key: &str) -> Option<&'a [Value]> {
    match v {
        Value::Array(items) => Some(items),
        _ => v.get(key)?.as_array().map(Vec::as_slice),
    }
}

/// The names under which an answer may give the content hash beside the package: §8.1 says a
/// deposit returns it without naming it.
pub const HASH_NAMES: [&str; 4] = ["hash", "content_hash", "package_hash", "sha256"];

/// The content hash an answer gives beside the package (§8.1), under any of [`HASH_NAMES`].
pub fn hash_of(v: &Value) -> Option<&str> {
    HASH_NAMES
        .iter()
        .find_map(|n| v.get(*n))
        .and_then(Value::as_str)
}

/// The hex digits of a content hash: `sha256:` and 64 lowercase hex digits, or the 64 digits
/// alone (§6.6 fixes the algorithm, not how the hash is written).
pub fn hash_hex(h: &str) -> Option<&str> {
    let hex = h.strip_prefix("sha256:").unwrap_or(h);
    let fits = hex.len() == 64
        && hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    fits.then_some(hex)
}

/// A count (§8.7): the body itself, or its member `key`, or `count`.
pub fn count_of(v: &Value, key: &str) -> Option<u64> {
    v.as_u64()
        .or_else(|| v.get(key).and_then(Value::as_u64))
        .or_else(|| v.get("count").and_then(Value::as_u64))
}

/// A string member, or "".
pub fn text<'a>(v: &'a Value, name: &str) -> &'a str {
    v.get(name).and_then(Value::as_str).unwrap_or_default()
}

/// A time member, parsed.
pub fn time_of(v: &Value, name: &str) -> Option<Timestamp> {
    time::parse(v.get(name)?.as_str()?).ok()
}

/// Whether a fact is current: `valid_to` absent or null (§7.3).
pub fn is_current(fact: &Value) -> bool {
    fact.get("valid_to").is_none_or(Value::is_null)
}

/// The flags of §10.2 a descriptor declares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Capabilities {
    pub hybrid_search: bool,
    pub semantic_search: bool,
    pub realtime: bool,
    pub blob_storage: bool,
    /// relay's `x-keyword_search`: relevant pull by keyword search. Declaring it at all
    /// (true or false) says the server knows relay's `search=` parameter of relevant pull.
    pub keyword_search: Option<bool>,
}

impl Capabilities {
    /// Whether relevant pull is declared supported by some kind of search.
    pub fn any_search(&self) -> bool {
        self.hybrid_search || self.semantic_search || self.keyword_search == Some(true)
    }
}

/// The four flags of §10.2.
pub const FLAGS: [&str; 4] = [
    "hybrid_search",
    "semantic_search",
    "realtime",
    "blob_storage",
];

/// Checks a conformance descriptor against §11.5 and returns its capabilities.
pub fn descriptor(v: &Value) -> Result<Capabilities, String> {
    if !v.is_object() {
        return Err(format!("the descriptor is not a JSON object but {v}"));
    }
    match v.get("protocol_version") {
        Some(Value::String(p)) if p == "0.1" => {}
        other => {
            return Err(format!(
                "`protocol_version` is {}, expected \"0.1\" (§11.5, §15.1)",
                shown(other)
            ));
        }
    }
    match v.get("conformance_level").and_then(Value::as_str) {
        Some("L0" | "L1" | "L2" | "L3") => {}
        _ => {
            return Err(format!(
                "`conformance_level` is {}, expected one of \"L0\" … \"L3\" (§11.5)",
                shown(v.get("conformance_level"))
            ));
        }
    }
    let Some(caps) = v.get("capabilities").and_then(Value::as_object) else {
        return Err(format!(
            "`capabilities` is {}, expected an object of booleans (§10.2, §11.5)",
            shown(v.get("capabilities"))
        ));
    };
    let mut flags = [false; 4];
    for (flag, name) in flags.iter_mut().zip(FLAGS) {
        match caps.get(name) {
            Some(Value::Bool(b)) => *flag = *b,
            other => {
                return Err(format!(
                    "`capabilities.{name}` is {}, expected a boolean (§10.2 declares each of {})",
                    shown(other),
                    FLAGS.join(", ")
                ));
            }
        }
    }
    if let Some(i) = v.get("implementation")
        && !i.is_object()
    {
        return Err(format!(
            "`implementation` is {i}, expected an object (§11.5)"
        ));
    }
    let [hybrid_search, semantic_search, realtime, blob_storage] = flags;
    Ok(Capabilities {
        hybrid_search,
        semantic_search,
        realtime,
        blob_storage,
        keyword_search: caps.get("x-keyword_search").and_then(Value::as_bool),
    })
}

/// A member as a reason quotes it: its JSON, or "absent".
fn shown(v: Option<&Value>) -> String {
    match v {
        Some(v) => v.to_string(),
        None => "absent".into(),
    }
}

/// Checks an OrientationBundle against §8.3: its six members, with their types; the active
/// facts current; `window_days` the one asked for.
pub fn orient_bundle(v: &Value, window_days: u64) -> Result<(), String> {
    if !v.is_object() {
        return Err(format!("the bundle is not a JSON object but {v}"));
    }
    let kinds = [
        (
            "project",
            Value::is_object as fn(&Value) -> bool,
            "an object",
        ),
        ("recent_packages", Value::is_array, "an array"),
        ("active_facts", Value::is_array, "an array"),
        ("open_questions", Value::is_array, "an array"),
    ];
    for (name, is, kind) in kinds {
        match v.get(name) {
            Some(m) if is(m) => {}
            other => {
                return Err(format!(
                    "`{name}` is {}, expected {kind} (§8.3)",
                    shown(other)
                ));
            }
        }
    }
    if v.get("window_days").and_then(Value::as_u64) != Some(window_days) {
        return Err(format!(
            "`window_days` is {}, expected {window_days}, the window asked for (§8.3)",
            shown(v.get("window_days"))
        ));
    }
    if time_of(v, "generated_at").is_none() {
        return Err(format!(
            "`generated_at` is {}, expected an RFC 3339 UTC time (§8.3, §9.1)",
            shown(v.get("generated_at"))
        ));
    }
    let facts = v["active_facts"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if let Some(ended) = facts.iter().find(|f| !is_current(f)) {
        return Err(format!(
            "`active_facts` holds a fact with valid_to {} (§8.3: facts where valid_to IS NULL)",
            ended["valid_to"]
        ));
    }
    Ok(())
}

/// Checks that packages are ordered by `created_at`, newest first (§8.2 latest).
pub fn newest_first(packages: &[Value]) -> Result<(), String> {
    let mut last: Option<Timestamp> = None;
    for p in packages {
        let Some(t) = time_of(p, "created_at") else {
            return Err(format!(
                "package `{}` has no RFC 3339 created_at",
                text(p, "package_id")
            ));
        };
        if last.is_some_and(|l| t > l) {
            return Err(format!(
                "package `{}` (created_at {}) comes after an older one: not ordered by \
                 created_at descending (§8.2)",
                text(p, "package_id"),
                text(p, "created_at")
            ));
        }
        last = Some(t);
    }
    Ok(())
}

/// The members of `sent` that `got` lacks or holds with another value (§6: fields, unknown
/// and `x-*` ones too, survive a write unchanged). Values are compared by their canonical
/// JSON (Appendix A), which the content hash covers: `-0.0` written back as `0`, or a `null`
/// member left out, is no change.
pub fn changed_members(sent: &Value, got: &Value) -> Vec<String> {
    let Some(sent) = sent.as_object() else {
        return Vec::new();
    };
    (sent.iter())
        .filter(|(k, v)| match got.get(k.as_str()) {
            Some(g) => canonical::to_canonical_string(g) != canonical::to_canonical_string(v),
            None => !v.is_null(),
        })
        .map(|(k, _)| k.clone())
        .collect()
}

/// Why a package does not validate as the wire format of §6, if it does not.
pub fn package_problem(v: &Value) -> Option<String> {
    Package::from_value(v.clone()).err().map(|e| e.to_string())
}

/// Why a fact does not validate as the wire format of §7, if it does not.
pub fn fact_problem(v: &Value) -> Option<String> {
    Fact::from_value(v.clone()).err().map(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn relay_descriptor() -> Value {
        json!({"protocol_version": "0.1", "conformance_level": "L3", "capabilities":
            {"hybrid_search": false, "semantic_search": false, "realtime": true,
             "blob_storage": false, "x-keyword_search": true},
            "implementation": {"name": "relay", "version": "0.1.0"}})
    }

    #[test]
    fn packages_facts_lists_hashes_and_counts_are_found_bare_or_wrapped() {
        let p = json!({"package_id": "pkg_1", "title": "t"});
        assert_eq!(package_of(&p), Some(&p));
        let env = json!({"package": p, "hash": "sha256:x"});
        assert_eq!(package_of(&env), Some(&p));
        assert_eq!(hash_of(&env), Some("sha256:x"));
        assert_eq!(hash_of(&json!({"content_hash": "h"})), Some("h"));
        assert_eq!(package_of(&json!({"packages": []})), None);
        let f = json!({"fact_id": "fact_1"});
        assert_eq!(fact_of(&json!({"fact": f, "unchanged": false})), Some(&f));
        assert_eq!(fact_of(&f), Some(&f));
        assert_eq!(
            list_of(&json!({"packages": [1, 2]}), "packages")
                .unwrap()
                .len(),
            2
        );
        assert_eq!(list_of(&json!([1]), "packages").unwrap().len(), 1);
        assert_eq!(list_of(&json!({"items": []}), "packages"), None);
        assert_eq!(count_of(&json!({"invalidated": 1}), "invalidated"), Some(1));
        assert_eq!(count_of(&json!({"count": 2}), "invalidated"), Some(2));
        assert_eq!(count_of(&json!(3), "invalidated"), Some(3));
        assert_eq!(count_of(&json!({"n": 3}), "invalidated"), None);
    }

    #[test]
    fn hashes_are_64_lowercase_hex_digits_with_or_without_sha256() {
        let hex = "0a".repeat(32);
        let good = format!("sha256:{hex}");
        assert_eq!(hash_hex(&good), Some(hex.as_str()));
        assert_eq!(hash_hex(&hex), Some(hex.as_str()));
        assert_eq!(hash_hex(&good.to_uppercase()), None);
        assert_eq!(hash_hex(&good[..70]), None);
        assert_eq!(hash_hex(&format!("sha1:{hex}")), None);
        for name in HASH_NAMES {
            assert_eq!(hash_of(&json!({name: "h"})), Some("h"), "{name}");
        }
    }

    #[test]
    fn relays_descriptor_has_the_shape_of_11_5() {
        let caps = descriptor(&relay_descriptor()).unwrap();
        assert!(caps.realtime && !caps.semantic_search && !caps.hybrid_search);
        assert_eq!(caps.keyword_search, Some(true));
        assert!(caps.any_search());
        let mut none = relay_descriptor();
        none["capabilities"]["x-keyword_search"] = json!(false);
        assert!(!descriptor(&none).unwrap().any_search());
        none["capabilities"]
            .as_object_mut()
            .unwrap()
            .remove("x-keyword_search");
        assert_eq!(descriptor(&none).unwrap().keyword_search, None);
    }

    #[test]
    fn descriptors_off_the_spec_are_refused_with_the_member_named() {
        let cases: [(&str, Value, &str); 6] = [
            (
                "/protocol_version",
                json!("0.2"),
                "`protocol_version` is \"0.2\"",
            ),
            (
                "/conformance_level",
                json!("L4"),
                "`conformance_level` is \"L4\"",
            ),
            ("/capabilities", json!([]), "`capabilities` is []"),
            (
                "/capabilities/realtime",
                json!("yes"),
                "`capabilities.realtime` is \"yes\"",
            ),
            (
                "/capabilities/blob_storage",
                json!(1),
                "`capabilities.blob_storage` is 1",
            ),
            (
                "/implementation",
                json!("relay"),
                "`implementation` is \"relay\"",
            ),
        ];
        for (pointer, value, said) in cases {
            let mut d = relay_descriptor();
            *d.pointer_mut(pointer).unwrap() = value;
            let e = descriptor(&d).unwrap_err();
            assert!(e.starts_with(said), "{pointer}: {e}");
        }
        let mut d = relay_descriptor();
        d["capabilities"]
            .as_object_mut()
            .unwrap()
            .remove("semantic_search");
        assert!(descriptor(&d).unwrap_err().contains("is absent"));
        assert!(descriptor(&json!([])).is_err());
    }

    fn bundle() -> Value {
        json!({"project": {"project_id": "p"}, "recent_packages": [], "active_facts":
            [{"fact_id": "f", "valid_to": null}], "open_questions": ["why?"],
            "window_days": 14, "generated_at": "2026-04-18T20:00:00Z"})
    }

    #[test]
    fn orient_bundles_need_the_six_members_of_8_3() {
        orient_bundle(&bundle(), 14).unwrap();
        for name in [
            "project",
            "recent_packages",
            "active_facts",
            "open_questions",
        ] {
            let mut b = bundle();
            b.as_object_mut().unwrap().remove(name);
            let e = orient_bundle(&b, 14).unwrap_err();
            assert!(e.starts_with(&format!("`{name}` is absent")), "{e}");
        }
        let e = orient_bundle(&bundle(), 7).unwrap_err();
        assert!(e.contains("expected 7"), "{e}");
        let mut b = bundle();
        b["generated_at"] = json!("yesterday");
        assert!(orient_bundle(&b, 14).unwrap_err().contains("generated_at"));
        let mut b = bundle();
        b["active_facts"][0]["valid_to"] = json!("2026-04-18T20:00:00Z");
        assert!(
            orient_bundle(&b, 14)
                .unwrap_err()
                .contains("valid_to IS NULL")
        );
    }

    #[test]
    fn latest_pulls_must_be_newest_first() {
        let p = |id: &str, t: &str| json!({"package_id": id, "created_at": t});
        let good = [
            p("b", "2026-04-18T20:00:01Z"),
            p("a", "2026-04-18T20:00:00.5Z"),
            p("c", "2026-04-18T20:00:00.5Z"),
        ];
        newest_first(&good).unwrap();
        let bad = [
            p("a", "2026-04-18T20:00:00Z"),
            p("b", "2026-04-18T21:00:00+00:30"),
        ];
        assert!(newest_first(&bad).unwrap_err().contains("`b`"));
        assert!(newest_first(&[json!({"package_id": "x"})]).is_err());
    }

    #[test]
    fn changed_members_names_what_a_write_lost_or_altered() {
        let sent = json!({"a": 1, "x-k": {"n": [1]}, "b": "s"});
        let got = json!({"a": 1, "x-k": {"n": [2]}, "c": true});
        assert_eq!(changed_members(&sent, &got), ["x-k", "b"]);
        assert!(changed_members(&sent, &sent).is_empty());
        let sent = json!({"z": -0.0, "n": null, "k": {"a": null, "b": 1}});
        let got = json!({"z": 0, "k": {"b": 1.0}});
        assert!(changed_members(&sent, &got).is_empty());
    }

    #[test]
    fn wire_problems_come_from_relays_own_validation() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/testdata/canonical/packages/spec-6.7-example.json"
        ))
        .unwrap();
        let mut p: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(package_problem(&p), None);
        p.as_object_mut().unwrap().remove("title");
        assert_eq!(package_problem(&p).unwrap(), "`title` is required");
        let f = json!({"fact_id": "fact_1", "project_id": "p", "subject": "s", "predicate": "p",
            "value": 97, "valid_from": "2026-04-10T12:00:00Z", "created_at": "2026-04-10T12:00:00Z"});
        assert!(fact_problem(&f).unwrap().contains("must be a string"));
        assert!(is_current(&f));
        assert!(!is_current(&json!({"valid_to": "2026-04-10T12:00:00Z"})));
    }
}
