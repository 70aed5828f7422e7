//! The L1 scenarios (§11.2): deposit with its content hash (§6.6) checked against relay's own
//! canonical JSON (the hard cases are in [`super::hash`]); idempotent deposit; the same id
//! with other content refused; and packages missing each required field of §6.1, or holding
//! a value it does not allow, refused with nothing stored. Where the spec leaves a choice
//! (201 or 200 for a new package; the hash's name beside it) every choice is accepted.

use chrono::TimeDelta;
use serde_json::{Value, json};

use super::client::Answer;
use super::hash::{reference_holds, stored};
use super::shape;
use super::{Check, Kind, Suite, expect, expect_error, fail, needs};
use relay_wire::{canonical, ids};

/// deposit (§8.1): 201, the package as sent, its hash relay's own; and a pull of it gives it
/// back unchanged.
pub fn deposit(s: &mut Suite) -> Check {
    reference_holds().map_err(super::Stop::Fail)?;
    let sent = s.package("Conformance deposit", "complete", TimeDelta::zero());
    let a = s.deposit(&sent);
    let package = stored(
        &a,
        &sent,
        &[200, 201],
        "success and the stored package with its hash (§8.1)",
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

/// The one required field of §6.1 a server cannot fill in itself when a deposit lacks it: a
/// title says what only the depositor knows. The others a server may fill (§8.1: it returns
/// the package "with its package_id … set"; the project is in the path; the version is the
/// one it speaks; the time and the actor are its to know; relay fills the enums' plainest
/// values too): a deposit without one is refused, or stores a valid package that has it.
const MUST_REFUSE: &str = "title";

/// Every required field of §6.1, each missing from one package, and values §6 does not
/// allow: each 400 `invalid_schema` (§8.1) with nothing stored; or, for a missing field but
/// [`MUST_REFUSE`], a package stored with that field set.
pub fn invalid(s: &mut Suite) -> Check {
    let valid = s.package("Conformance invalid", "complete", TimeDelta::zero());
    let mut cases: Vec<(Value, String)> = Vec::new();
    for &field in relay_wire::package::REQUIRED_FIELDS {
        let mut p = valid.clone();
        p["package_id"] = Value::from(ids::new_id("pkg"));
        if let Some(m) = p.as_object_mut() {
            m.remove(field);
        }
        cases.push((p, format!("the required field `{field}` missing (§6.1)")));
    }
    let wrong = [
        ("status", json!("finished"), "a status outside §6.1's enum"),
        (
            "review_type",
            json!("robot"),
            "a review_type outside none, human, agent (§6.1)",
        ),
        (
            "relay_version",
            json!("0.2"),
            "relay_version other than \"0.1\" (§6.1)",
        ),
        (
            "title",
            json!(""),
            "an empty title (§6.1: 1–200 characters)",
        ),
        (
            "title",
            json!("t".repeat(201)),
            "a title of 201 characters (§6.1: 1–200)",
        ),
        (
            "created_at",
            json!("yesterday"),
            "created_at not RFC 3339 (§6.1)",
        ),
        (
            "created_by",
            json!({"type": "agent"}),
            "created_by without id (§6.2)",
        ),
        ("tags", json!("conformance"), "tags not an array (§6.4)"),
    ];
    for (field, value, what) in wrong {
        let mut p = valid.clone();
        p["package_id"] = Value::from(ids::new_id("pkg"));
        p[field] = value;
        cases.push((p, what.to_string()));
    }
    for (package, what) in cases {
        let a = s.deposit(&package);
        let missing = (relay_wire::package::REQUIRED_FIELDS.iter())
            .find(|f| **f != MUST_REFUSE && package.get(**f).is_none());
        if let Some(field) = missing
            && a.success()
        {
            filled(&a, field, &what)?;
            continue;
        }
        expect_error(&a, 400, "invalid_schema", &format!("§8.1: {what}"))?;
        let id = shape::text(&package, "package_id");
        if id.is_empty() {
            continue;
        }
        let b = s.client.get(&["v1", "packages", id], &[]);
        expect_error(
            &b,
            404,
            "package_not_found",
            &format!("§8.1, §8.2: a package refused for {what} is not stored"),
        )?;
    }
    Ok(())
}

/// A deposit that lacked `field` and succeeded: the stored package has it, and is the wire
/// format of §6.
fn filled(a: &Answer, field: &str, what: &str) -> Check {
    let package = a.body.as_ref().and_then(shape::package_of);
    match package {
        Some(p) if p.get(field).is_some_and(|v| !v.is_null()) => match shape::package_problem(p) {
            None => Ok(()),
            Some(problem) => fail(format!(
                "{} accepted a package with {what} and stored one that is not the wire \
                     format: {problem} (§6.1)",
                a.request
            )),
        },
        _ => fail(format!(
            "{}; a package with {what} must be refused with 400 invalid_schema, or stored \
             with `{field}` set (§8.1)",
            a.answered()
        )),
    }
}
