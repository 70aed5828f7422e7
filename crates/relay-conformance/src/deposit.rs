//! The L1 scenarios (§11.2): deposit with its content hash (§6.6) checked against relay's own
//! canonical JSON, which first proves itself on the spec's §6.7 example; idempotent deposit;
//! the same id with other content refused; and a package missing a required field refused
//! with nothing stored.

use chrono::TimeDelta;
use serde_json::Value;

use super::shape;
use super::{Check, Kind, Suite, expect, expect_error, fail, needs};
use relay_wire::canonical;

/// The spec's §6.7 example package, as `testdata/canonical/packages/` holds it.
const EXAMPLE: &str = r#"{"package_id": "pkg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d", "project_id": "proj_dev_relay", "relay_version": "0.1", "title": "Shipped archive/de-archive", "status": "complete", "package_type": "milestone", "review_type": "none", "created_at": "2026-04-18T20:00:00Z", "created_by": {"id": "jordan", "type": "human", "session_id": null}, "tags": ["archive", "cli"], "decisions_made": ["Soft archive via archived_at timestamp"], "open_questions": [], "handoff_note": "Migration 009 applied, dashboard filter works."}"#;

/// Its content hash (`spec-6.7-example.sha256`).
const EXAMPLE_HASH: &str =
    "sha256:0efe5d06aaaaf2dc735b3f9ce7cfc1a0f7cd715491ab61d991f57be1d4c0db33";

/// Whether relay's hasher gives the §6.7 example its known hash: the suite's reference for
/// every hash it checks.
fn reference_holds() -> Result<(), String> {
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
fn stored(
    a: &super::client::Answer,
    sent: &Value,
    statuses: &[u16],
    expected: &str,
) -> Check<Value> {
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
        Some(h) if h == ours => Ok(package.clone()),
        Some(h) if !shape::is_hash(h) => fail(format!(
            "{} answered the hash {h:?}; expected sha256: and 64 lowercase hex digits (§6.6)",
            a.request
        )),
        Some(h) => fail(format!(
            "{} answered the hash {h}, but the canonical hash of the package it returned is \
             {ours} (§6.6, Appendix A)",
            a.request
        )),
        None => fail(format!(
            "{}; expected the content hash beside the package (§8.1: it returns the stored \
             package with its content hash; relay answers {{\"package\", \"hash\"}})",
            a.answered()
        )),
    }
}

/// deposit (§8.1): 201, the package as sent, its hash relay's own; and a pull of it gives it
/// back unchanged.
pub fn deposit(s: &mut Suite) -> Check {
    reference_holds().map_err(super::Stop::Fail)?;
    let sent = s.package("Conformance deposit", "complete", TimeDelta::zero());
    let a = s.deposit(&sent);
    let package = stored(
        &a,
        &sent,
        &[201],
        "201 and the stored package with its hash (§8.1)",
    )?;
    s.saw(Kind::Package, &a, &[&package]);
    s.deposited = Some(package.clone());
    let id = shape::text(&package, "package_id");
    let b = s.client.get(&["v1", "packages", id], &[]);
    let body = expect(&b, &[200], "200 and the package just deposited (§8.2)")?;
    match shape::package_of(body) {
        Some(p) if canonical::content_hash(p) == canonical::content_hash(&package) => Ok(()),
        _ => fail(format!(
            "{}; expected the package just deposited, unchanged (§6.6)",
            b.answered()
        )),
    }
}

/// The package `deposit` stored, or a skip.
fn deposited(s: &Suite) -> Check<Value> {
    needs(&s.deposited, "the package of `deposit`")
}

/// Idempotent deposit (§11.2): the same package again succeeds with the same package.
pub fn idempotent(s: &mut Suite) -> Check {
    let package = deposited(s)?;
    let a = s.deposit(&package);
    let again = stored(
        &a,
        &package,
        &[200, 201],
        "success and the existing package (§11.2: idempotent deposit)",
    )?;
    s.saw(Kind::Package, &a, &[&again]);
    if canonical::content_hash(&again) != canonical::content_hash(&package) {
        return fail(format!(
            "{} answered another package: {again}; expected the existing one (§11.2)",
            a.request
        ));
    }
    Ok(())
}

/// The same id with other content (§11.2, §8.1): 409 `duplicate_package_id`, and the stored
/// package unchanged (§6.6).
pub fn conflict(s: &mut Suite) -> Check {
    let package = deposited(s)?;
    let mut other = package.clone();
    other["title"] = Value::from(format!("{} (changed)", shape::text(&package, "title")));
    let a = s.deposit(&other);
    expect_error(&a, 409, "duplicate_package_id", "§11.2, §8.1")?;
    let id = shape::text(&package, "package_id");
    let b = s.client.get(&["v1", "packages", id], &[]);
    match b.body.as_ref().and_then(shape::package_of) {
        Some(p) if b.status == 200 && p["title"] == package["title"] => Ok(()),
        _ => fail(format!(
            "{}; expected the package as first deposited (§6.6: packages are immutable)",
            b.answered()
        )),
    }
}

/// A package without `title`, and one whose `status` is not of §6.1's enum: each 400
/// `invalid_schema` (§8.1), and nothing stored.
pub fn invalid(s: &mut Suite) -> Check {
    let mut untitled = s.package("Conformance invalid", "complete", TimeDelta::zero());
    if let Some(m) = untitled.as_object_mut() {
        m.remove("title");
    }
    let cases = [
        (untitled, "a required field (title, §6.1) missing"),
        (
            s.package("Conformance invalid", "finished", TimeDelta::zero()),
            "a status outside draft, complete, awaiting_review, revision_requested (§6.1)",
        ),
    ];
    for (package, what) in cases {
        let a = s.deposit(&package);
        expect_error(&a, 400, "invalid_schema", &format!("§8.1: {what}"))?;
        let id = shape::text(&package, "package_id");
        let b = s.client.get(&["v1", "packages", id], &[]);
        expect_error(
            &b,
            404,
            "package_not_found",
            "§8.1, §8.2: a refused package is not stored",
        )?;
    }
    Ok(())
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Answer;
    use serde_json::json;

    fn testdata(name: &str) -> String {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/testdata/canonical/packages/"
        );
        std::fs::read_to_string(format!("{dir}{name}")).unwrap()
    }

    #[test]
    fn the_reference_is_the_spec_example_and_its_hash_from_testdata() {
        assert_eq!(EXAMPLE, testdata("spec-6.7-example.json").trim_end());
        assert_eq!(EXAMPLE_HASH, testdata("spec-6.7-example.sha256").trim());
        reference_holds().unwrap();
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
                "expected sha256: and 64",
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
