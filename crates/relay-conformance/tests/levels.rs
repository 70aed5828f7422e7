//! The suite against the stub server of `stub/`: unbroken, it passes L3; each breakage stops it
//! at exactly the level below the one broken, with exactly the scenarios that check the broken
//! thing failing. The `--json` report of the wrong hasher's run is snapshotted, as the shape
//! other implementations read.

mod stub;

use std::time::Duration;

use relay_conformance::{Level, Options, Report, Verdict, exit, run};
use stub::{Break, PROJECT, Stub};

fn check(broken: Break) -> Report {
    let server = Stub::start(broken);
    let options = Options {
        url: server.url.clone(),
        token: None,
        project: Some(PROJECT.into()),
        timeout: Duration::from_secs(10),
    };
    run(&options, &mut |_| {}).expect("the stub answers")
}

fn named(report: &Report, verdict: Verdict) -> Vec<&'static str> {
    (report.outcomes.iter())
        .filter(|o| o.result == verdict)
        .map(|o| o.scenario)
        .collect()
}

/// The level reached, the scenarios failed, and the exit code.
#[track_caller]
fn reaches(broken: Break, level: Option<Level>, failed: &[&str], code: i32) -> Report {
    let report = check(broken);
    let why: Vec<String> = report.outcomes.iter().map(|o| o.line()).collect();
    assert_eq!(named(&report, Verdict::Fail), failed, "{why:#?}");
    // Skipped: what the stub's descriptor declares missing (search, realtime), only.
    assert_eq!(
        named(&report, Verdict::Skip),
        ["pull_relevant", "realtime"],
        "{why:#?}"
    );
    assert_eq!(report.summary.level_passed, level);
    assert_eq!(report.exit_code(), code);
    report
}

#[test]
fn the_stub_unbroken_passes_l3() {
    let report = reaches(
        Break::Nothing,
        Some(Level::L3),
        &[],
        exit::CLAIMED_LEVEL_PASSED,
    );
    assert!(report.claim_holds());
    for skipped in report.outcomes.iter().filter(|o| o.result == Verdict::Skip) {
        let reason = skipped.reason.as_deref().unwrap();
        assert!(reason.contains("declares"), "{reason}");
    }
}

#[test]
fn a_sort_keys_hasher_stops_at_l0() {
    let report = reaches(
        Break::SortKeysHasher,
        Some(Level::L0),
        &["content_hash"],
        exit::REACHED_L0,
    );
    let reason = report
        .outcomes
        .iter()
        .find(|o| o.result == Verdict::Fail)
        .unwrap();
    let reason = reason.reason.as_deref().unwrap();
    // Every vector but the text one and the keys one (a sort-keys order is the UTF-8 one).
    assert!(
        reason.starts_with("5 of 7 packages hashed otherwise"),
        "{reason}"
    );
    for wrong in [
        "the §6.7 example",
        "nulls at depth",
        "exponents",
        "integers above 2^53",
        "-0.0",
    ] {
        assert!(reason.contains(&format!("{wrong}: ")), "{wrong}: {reason}");
    }
    let json = report.to_json().to_string();
    insta::with_settings!({filters => vec![
        (r"sha256:[0-9a-f]{64}", "sha256:[hash]"),
        (r"pkg_[0-9a-f]{32}", "pkg_[id]"),
        (r"\b[a-z]{16}\b", "[word]"),
    ]}, {
        // Printed by serde_json, not insta: insta reads a value through serde's data model,
        // where serde_json (with `arbitrary_precision`) hands a number over as a private map.
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        insta::assert_snapshot!("sort_keys_hasher_report", serde_json::to_string_pretty(&report).unwrap());
    });
}

#[test]
fn no_fact_reads_stops_at_l1() {
    reaches(
        Break::NoFactReads,
        Some(Level::L1),
        &["fact_supersession", "fact_point_in_time", "invalidate_fact"],
        exit::REACHED_L1,
    );
}

#[test]
fn review_routes_that_change_nothing_stop_at_l2() {
    reaches(
        Break::NoReviewTransitions,
        Some(Level::L2),
        &["approve", "request_changes", "illegal_transitions"],
        exit::REACHED_L2,
    );
}

/// `relay-conformance URL --project stub [--json]`: its exit code and output.
fn binary(broken: Break, json: bool) -> (i32, String) {
    let server = Stub::start(broken);
    let mut args = vec![server.url.as_str(), "--project", PROJECT];
    if json {
        args.push("--json");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_relay-conformance"))
        .args(&args)
        .env_remove("RELAY_TOKEN")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    (out.status.code().unwrap(), stdout)
}

#[test]
fn the_binary_exits_by_the_level_reached_and_prints_one_report_under_json() {
    let (code, text) = binary(Break::Nothing, false);
    assert_eq!(code, exit::CLAIMED_LEVEL_PASSED, "{text}");
    let last = text.lines().last().unwrap();
    assert_eq!(
        last,
        "Level passed: L3 (the server declares L3); 24 passed, 0 failed, 2 skipped"
    );
    assert!(text.starts_with("pass  L0  descriptor\n"), "{text}");
    let (code, text) = binary(Break::NoReviewTransitions, true);
    assert_eq!(code, exit::REACHED_L2, "{text}");
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["format"], relay_conformance::REPORT_FORMAT);
    assert_eq!(report["level_passed"], "L2");
    assert_eq!(report["claim_holds"], false);
    assert_eq!(report["failed"], 3);
    let (code, _) = binary(Break::SortKeysHasher, true);
    assert_eq!(code, exit::REACHED_L0);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_relay-conformance"))
        .arg("--bogus")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(exit::USAGE));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_relay-conformance"))
        .arg("ftp://example.com")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(exit::CANNOT_RUN));
}
