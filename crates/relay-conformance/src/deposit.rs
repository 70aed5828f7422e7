//! The L1 scenarios (§11.2): deposit with its content hash (§6.6) checked against relay's own
//! canonical JSON (the hard cases are in [`super::hash`]); idempotent deposit; the same id
//! with other content refused; packages missing each required field of §6.1, holding a
//! value §6 does not allow, or naming another project than their path's, refused with
//! nothing stored; and an `x-*` package type accepted (§12.2). Where the spec leaves a choice
//! (201 or 200 for a new package; the hash's name beside it; the code of a project that
//! differs from the path's) every choice is accepted.

use chrono::TimeDelta;
use serde_json::{Value, json};

use super::hash::{reference_holds, stored};
use super::shape;
use super::{Check, Kind, Suite, expect, expect_error, expect_error_in, fail, needs};
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

/// Every required field of §6.1, each missing from one package: 400 `invalid_schema` (§8.1:
/// "Required fields MUST be present"; its error for a required field missing), with nothing
/// stored. A server may not fill one in.
pub fn missing_field(s: &mut Suite) -> Check {
    let valid = s.package("Conformance missing field", "complete", TimeDelta::zero());
    let cases = (relay_wire::package::REQUIRED_FIELDS.iter()).map(|&field| {
        let mut p = valid.clone();
        p["package_id"] = Value::from(ids::new_id("pkg"));
        if let Some(m) = p.as_object_mut() {
            m.remove(field);
        }
        (p, format!("the required field `{field}` missing (§6.1)"))
    });
    for (package, what) in cases.collect::<Vec<_>>() {
        refused(s, &package, &what, &["invalid_schema"])?;
    }
    Ok(())
}

/// Values §6 does not allow, each in one package: 400 `invalid_schema` (§8.1) with nothing
/// stored.
pub fn invalid(s: &mut Suite) -> Check {
    let valid = s.package("Conformance invalid", "complete", TimeDelta::zero());
    let mut by = valid["created_by"].clone();
    by["type"] = json!("robot");
    let wrong = [
        ("status", json!("finished"), "a status outside §6.1's enum"),
        (
            "review_type",
            json!("robot"),
            "a review_type outside none, human, agent (§6.1)",
        ),
        (
            "package_type",
            json!("custom"),
            "a package_type outside §6.3 and not x-* (§6.3: no new values outside the x-* \
             namespace)",
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
        (
            "created_by",
            by,
            "a created_by.type outside human, agent, script (§6.2)",
        ),
        ("significance", json!(0), "significance 0 (§6.4: 1–10)"),
        ("significance", json!(11), "significance 11 (§6.4: 1–10)"),
        ("tags", json!("conformance"), "tags not an array (§6.4)"),
    ];
    for (field, value, what) in wrong {
        let mut p = valid.clone();
        p["package_id"] = Value::from(ids::new_id("pkg"));
        p[field] = value;
        refused(s, &p, what, &["invalid_schema"])?;
    }
    Ok(())
}

/// A package whose `project_id` is not the project of the path it is deposited to (§9.1:
/// `POST /v1/projects/{project_id}/packages`; §6.1: the owning project): 400, with nothing
/// stored anywhere. The spec names no code for the conflict; the suite accepts
/// `invalid_schema` (§8.1's) and `invalid_input` (a valid member refused, relay's).
pub fn project_mismatch(s: &mut Suite) -> Check {
    let mut p = s.package("Conformance other project", "complete", TimeDelta::zero());
    let other = format!("conformance-other-{}", s.word);
    p["project_id"] = Value::from(other.clone());
    let what = format!(
        "the project_id `{other}` in a package sent to the project `{}`",
        s.project
    );
    refused(s, &p, &what, &["invalid_schema", "invalid_input"])
}

/// A package_type in the `x-*` namespace (§6.3: implementations MAY define them; §12.2: others
/// MUST accept them): deposited like any other, kept as sent, with its hash (§6.6).
pub fn extension_type(s: &mut Suite) -> Check {
    let mut sent = s.package("Conformance extension type", "complete", TimeDelta::zero());
    sent["package_type"] = json!("x-conformance");
    let a = s.deposit(&sent);
    let package = stored(
        &a,
        &sent,
        &[200, 201],
        "success and the stored package with its hash (§6.3, §12.2: x-* package types are \
         accepted)",
    )?;
    s.saw(Kind::Package, &a, &[&package]);
    Ok(())
}

/// A deposit of `package` refused with 400 and one of `codes` (§8.1), and a pull of its id
/// finding nothing. It is sent as it is, never adapted to the server's actor.
fn refused(s: &Suite, package: &Value, what: &str, codes: &[&str]) -> Check {
    let a = s.post_package(package);
    expect_error_in(&a, 400, codes, &format!("§8.1: {what}"))?;
    let id = shape::text(package, "package_id");
    if id.is_empty() {
        return Ok(());
    }
    let b = s.client.get(&["v1", "packages", id], &[]);
    expect_error(
        &b,
        404,
        "package_not_found",
        &format!("§8.1, §8.2: a package refused for {what} is not stored"),
    )
}
