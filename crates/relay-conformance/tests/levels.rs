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

/// What the stub's descriptor declares missing: search by meaning (semantic, hybrid) and
/// realtime.
const SKIPPED: [&str; 2] = ["pull_by_meaning", "realtime"];

/// The level reached, the scenarios failed, and the exit code.
#[track_caller]
fn reaches(broken: Break, level: Option<Level>, failed: &[&str], code: i32) -> Report {
    reaches_skipping(broken, level, failed, &SKIPPED, code)
}

/// The level reached, the scenarios failed and skipped, and the exit code.
#[track_caller]
fn reaches_skipping(
    broken: Break,
    level: Option<Level>,
    failed: &[&str],
    skipped: &[&str],
    code: i32,
) -> Report {
    judged(check(broken), level, failed, skipped, code)
}

/// Asserts what a run's report says: the level reached, the scenarios failed and skipped,
/// and the exit code.
#[track_caller]
fn judged(
    report: Report,
    level: Option<Level>,
    failed: &[&str],
    skipped: &[&str],
    code: i32,
) -> Report {
    let why: Vec<String> = report.outcomes.iter().map(|o| o.line()).collect();
    assert_eq!(named(&report, Verdict::Fail), failed, "{why:#?}");
    assert_eq!(named(&report, Verdict::Skip), skipped, "{why:#?}");
    assert_eq!(report.summary.level_passed, level, "{why:#?}");
    assert_eq!(report.exit_code(), code);
    report
}

/// The reason of a scenario.
fn reason<'a>(report: &'a Report, scenario: &str) -> &'a str {
    let outcome = (report.outcomes.iter()).find(|o| o.scenario == scenario);
    outcome
        .and_then(|o| o.reason.as_deref())
        .unwrap_or_default()
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
        &[
            "fact_supersession",
            "fact_point_in_time",
            "invalidate_fact",
            "fact_numeric_string",
            "fact_extension_members",
        ],
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

#[test]
fn a_token_that_writes_and_reviews_as_its_own_agent_passes_l3() {
    let report = reaches(
        Break::AgentToken,
        Some(Level::L3),
        &[],
        exit::CLAIMED_LEVEL_PASSED,
    );
    let notes = report.notes.join("\n");
    assert!(
        notes
            .contains(r#"name the actor named in its refusal: {"id":"stub-agent","type":"agent"}"#),
        "{notes}"
    );
    assert!(
        notes.contains("flags its packages for `agent` review from then on"),
        "{notes}"
    );
}

/// Exactly `scenario` fails, for a reason that says each of `saying`; `level` is reached,
/// with the exit code `code`.
#[track_caller]
fn fails_one(broken: Break, scenario: &str, level: Option<Level>, code: i32, saying: &[&str]) {
    let skipped = match broken {
        Break::ClaimsSemanticReturnsNothing => &SKIPPED[1..],
        _ => &SKIPPED[..],
    };
    let report = judged(check(broken), level, &[scenario], skipped, code);
    let why = reason(&report, scenario);
    for said in saying {
        assert!(why.contains(said), "{broken:?}: {said:?} in {why}");
    }
}

#[test]
fn deposits_off_the_enums_and_ranges_of_6_stop_at_l0() {
    let cases = [
        (
            Break::AcceptsUnknownPackageType,
            "a package_type outside §6.3",
        ),
        (
            Break::AcceptsBadActorType,
            "a created_by.type outside human, agent, script",
        ),
        (Break::AcceptsSignificanceOutOfRange, "significance 0"),
    ];
    for (broken, what) in cases {
        fails_one(
            broken,
            "deposit_invalid",
            Some(Level::L0),
            exit::REACHED_L0,
            &[what, "answered 201"],
        );
    }
}

#[test]
fn a_server_refusing_x_package_types_stops_at_l0() {
    fails_one(
        Break::RefusesExtensionType,
        "deposit_extension_type",
        Some(Level::L0),
        exit::REACHED_L0,
        &["x-* package types are accepted"],
    );
}

#[test]
fn a_package_of_another_project_than_its_path_stops_at_l0() {
    let codes = r#"{"error": "invalid_schema"} or {"error": "invalid_input"}"#;
    fails_one(
        Break::IgnoresPathProject,
        "deposit_project_mismatch",
        Some(Level::L0),
        exit::REACHED_L0,
        &[codes],
    );
}

#[test]
fn a_missing_status_filled_in_stops_at_l0() {
    let what = "the required field `status` missing";
    fails_one(
        Break::FillsMissingStatus,
        "deposit_missing_field",
        Some(Level::L0),
        exit::REACHED_L0,
        &[what],
    );
}

#[test]
fn relevant_matches_unordered_reach_no_level() {
    let what = "(one of the words, once, in its description) before";
    fails_one(
        Break::UnorderedRelevance,
        "pull_relevant_order",
        None,
        exit::NO_LEVEL,
        &[what],
    );
}

#[test]
fn semantic_search_declared_that_finds_nothing_reaches_no_level() {
    fails_one(
        Break::ClaimsSemanticReturnsNothing,
        "pull_by_meaning",
        None,
        exit::NO_LEVEL,
        &["search=semantic", "found nothing"],
    );
}

#[test]
fn orient_ignoring_its_window_reaches_no_level() {
    let what = "outside a window of one day";
    fails_one(
        Break::OrientIgnoresWindow,
        "orient_window",
        None,
        exit::NO_LEVEL,
        &[what],
    );
}

#[test]
fn orient_listing_ended_facts_stops_at_l1() {
    let what = "`active_facts` holds a fact with valid_to";
    fails_one(
        Break::OrientListsEndedFacts,
        "orient_active_facts",
        Some(Level::L1),
        exit::REACHED_L1,
        &[what],
    );
}

#[test]
fn fact_values_stored_as_numbers_stop_at_l1() {
    let what = "answered the value 97.0;";
    fails_one(
        Break::FactValueAsNumber,
        "fact_numeric_string",
        Some(Level::L1),
        exit::REACHED_L1,
        &[what],
    );
}

#[test]
fn fact_extensions_dropped_stop_at_l1() {
    let what = "answered `x-conformance` absent";
    fails_one(
        Break::DropsFactExtensions,
        "fact_extension_members",
        Some(Level::L1),
        exit::REACHED_L1,
        &[what],
    );
}

#[test]
fn flags_for_an_unknown_review_type_stop_at_l2() {
    let what = "§8.5: review_type is one of human, agent";
    fails_one(
        Break::FlagAcceptsUnknownReviewType,
        "flag_unknown_review_type",
        Some(Level::L2),
        exit::REACHED_L2,
        &[what],
    );
}

#[test]
fn flags_of_a_package_awaiting_review_stop_at_l2() {
    let what = "expected 400 with {\"error\": \"invalid_transition\"}";
    fails_one(
        Break::FlagFromAwaitingReview,
        "flag_awaiting_refused",
        Some(Level::L2),
        exit::REACHED_L2,
        &[what],
    );
}

#[test]
fn realtime_over_another_wire_is_skipped_not_failed() {
    let report = reaches(
        Break::RealtimeOtherWire,
        Some(Level::L3),
        &[],
        exit::CLAIMED_LEVEL_PASSED,
    );
    let why = reason(&report, "realtime");
    assert!(why.starts_with("relay's SSE route not offered"), "{why}");
    assert!(why.contains("answered 404"), "{why}");
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
        "Level passed: L3 (the server declares L3); 35 passed, 0 failed, 2 skipped"
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
