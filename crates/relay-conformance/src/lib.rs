//! `relay conformance --check URL`: the conformance test suite the spec's §16 asks for. It runs
//! the scenarios of the levels of §11 (L0 read-only, L1 deposit, L2 facts, L3 review) and the
//! capability checks of §10.2 against any server that implements the HTTP mapping of §9.1, as
//! a client only: it knows the server by its answers, checks packages and facts with
//! [`relay_wire`]'s validation and takes content hashes with its canonical JSON, and never
//! prints. Each scenario's [`Outcome`] goes to the caller as it is known; the [`Report`] says
//! the highest level whose scenarios, and those of the levels below, all passed. A scenario is
//! skipped only when the server's own descriptor declares the capability it needs `false`
//! (or lacks the kind of search it needs), for orchestrate, which no level requires, and for
//! realtime declared over another wire than relay's event stream (§16 leaves it open); a
//! route a level requires that answers 404 or 501, or a scenario whose prerequisite failed,
//! is a failure. The table of scenarios is [`SCENARIOS`]. The `relay-conformance` binary
//! (main.rs) runs the suite on its own; tests/stub is the server it is proven on.
//!
//! Everything the suite writes goes into one project: the one it is given, or one it makes
//! with relay's extension `POST /v1/projects`; at the end it invalidates the facts it asserted
//! and archives the project it made when the server offers relay's `POST
//! /v1/projects/{id}/archive`.

pub mod client;
mod deposit;
mod facts;
mod hash;
mod read;
mod realtime;
mod report;
mod review;
mod scenarios;
mod search;
mod setup;
mod shape;

use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};

use client::{Answer, Client};
use relay_wire::error::Result;
use relay_wire::{ids, time};
pub use report::{REPORT_FORMAT, exit};
pub use scenarios::{SCENARIOS, Scenario};

/// The conformance levels of §11, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Level {
    L0,
    L1,
    L2,
    L3,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::L0, Level::L1, Level::L2, Level::L3];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::L0 => "L0",
            Level::L1 => "L1",
            Level::L2 => "L2",
            Level::L3 => "L3",
        }
    }
}

/// How a scenario ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
    /// Not checked because the server's own descriptor declares the capability it needs
    /// `false` (§10.2), because it lacks orchestrate, which no level requires (§11.1), or
    /// because it declares realtime without relay's event stream (§16 leaves the wire open);
    /// not a failure. Anything else not checked (a route a level requires answering 404 or
    /// 501, a scenario it depends on failing) is a failure.
    Skip,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Skip => "skip",
        }
    }
}

/// One scenario's result: `reason` says, for a failure or a skip, what was sent, what was
/// expected (and by which section of the spec), and what came back.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub scenario: &'static str,
    pub level: Level,
    pub result: Verdict,
    pub reason: Option<String>,
    /// The sections of the spec the scenario checks.
    pub section: &'static str,
}

/// The counts, and the highest level passed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub level_passed: Option<Level>,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Summary {
    pub fn of(outcomes: &[Outcome]) -> Summary {
        let count = |v: Verdict| outcomes.iter().filter(|o| o.result == v).count();
        Summary {
            level_passed: level_passed(outcomes),
            passed: count(Verdict::Pass),
            failed: count(Verdict::Fail),
            skipped: count(Verdict::Skip),
        }
    }
}

/// The highest level whose scenarios, and all those of the levels below, passed or were
/// skipped (§11: higher levels include all requirements of lower levels); `None` when an L0
/// scenario failed.
pub fn level_passed(outcomes: &[Outcome]) -> Option<Level> {
    let failed = |l: Level| {
        outcomes
            .iter()
            .any(|o| o.level == l && o.result == Verdict::Fail)
    };
    Level::ALL.into_iter().take_while(|l| !failed(*l)).last()
}

impl Outcome {
    /// Its line: `pass  L0  descriptor`, or `fail  L1  deposit: REASON`.
    pub fn line(&self) -> String {
        let head = format!(
            "{}  {}  {}",
            self.result.as_str(),
            self.level.as_str(),
            self.scenario
        );
        match &self.reason {
            Some(r) => format!("{head}: {r}"),
            None => head,
        }
    }
}

/// What to check, and where.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server's base URL (http or https); the routes of §9.1 are under it.
    pub url: String,
    /// Sent as `Authorization: Bearer TOKEN` (§9.2).
    pub token: Option<String>,
    /// An existing project to write into; without it the suite makes one.
    pub project: Option<String>,
    /// How long one request may take.
    pub timeout: Duration,
}

/// The whole run.
#[derive(Debug, Clone)]
pub struct Report {
    pub outcomes: Vec<Outcome>,
    pub summary: Summary,
    /// The level the server's descriptor declares (§11.5), when it declares one.
    pub declared_level: Option<String>,
    /// The project the suite wrote into.
    pub project: String,
    /// What happened around the scenarios: the project made, archived or left, the actor the
    /// server chose for the suite's packages.
    pub notes: Vec<String>,
}

/// Runs every scenario against the server of `options`, handing each outcome to `seen` as it
/// is known. Fails only when the server cannot be reached at all or the suite has no project
/// to write into; every other problem is a scenario's failure.
pub fn run(options: &Options, seen: &mut dyn FnMut(&Outcome)) -> Result<Report> {
    let client = Client::new(&options.url, options.token.clone(), options.timeout)?;
    let descriptor = client.reach(&["v1", "conformance"])?;
    let project = setup::project(&client, options.project.as_deref())?;
    let mut suite = Suite::new(client, project.id.clone(), descriptor);
    if project.created {
        suite
            .notes
            .push(format!("made the project `{}` for this run", project.id));
    }
    suite.seed();
    let mut outcomes = Vec::new();
    for scenario in SCENARIOS {
        let (result, reason) = match (scenario.check)(&mut suite) {
            Ok(()) => (Verdict::Pass, None),
            Err(Stop::Fail(r)) => (Verdict::Fail, Some(r)),
            Err(Stop::Skip(r)) => (Verdict::Skip, Some(r)),
        };
        let outcome = Outcome {
            scenario: scenario.name,
            level: scenario.level,
            result,
            reason,
            section: scenario.sections,
        };
        seen(&outcome);
        outcomes.push(outcome);
    }
    suite.clean_up(project.created);
    let declared_level = (suite.descriptor.body.as_ref())
        .and_then(|d| d.get("conformance_level"))
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(Report {
        summary: Summary::of(&outcomes),
        outcomes,
        declared_level,
        project: project.id,
        notes: suite.notes,
    })
}

/// Why a scenario stopped short of passing.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stop {
    Fail(String),
    Skip(String),
}

pub(crate) type Check<T = ()> = std::result::Result<T, Stop>;

pub(crate) fn fail<T>(reason: impl Into<String>) -> Check<T> {
    Err(Stop::Fail(reason.into()))
}

pub(crate) fn skip<T>(reason: impl Into<String>) -> Check<T> {
    Err(Stop::Skip(reason.into()))
}

/// The JSON body of an answer with one of `statuses`; otherwise a failure saying what came
/// back and what was `expected` (with its section).
pub(crate) fn expect<'a>(a: &'a Answer, statuses: &[u16], expected: &str) -> Check<&'a Value> {
    if !statuses.contains(&a.status) {
        return fail(format!("{}; expected {expected}", a.answered()));
    }
    json_body(a, expected)
}

/// The JSON body of an answer that says it is JSON (§9.1: every body is application/json).
fn json_body<'a>(a: &'a Answer, expected: &str) -> Check<&'a Value> {
    match &a.body {
        Some(v) if a.content_type.starts_with("application/json") => Ok(v),
        Some(_) => fail(format!(
            "{} answered {} with Content-Type `{}`; expected {expected} as application/json \
             (§9.1)",
            a.request, a.status, a.content_type
        )),
        None => fail(format!(
            "{} answered {} with a body that is not JSON; expected {expected} (§9.1: bodies are \
             application/json)",
            a.request, a.status
        )),
    }
}

/// A refusal: `status` with the error code `code`.
pub(crate) fn expect_error(a: &Answer, status: u16, code: &str, section: &str) -> Check {
    expect_error_in(a, status, &[code], section)
}

/// A refusal: `status` with one of the error codes `codes` (where the spec leaves the code
/// open, every one the suite accepts).
pub(crate) fn expect_error_in(a: &Answer, status: u16, codes: &[&str], section: &str) -> Check {
    if a.status == status && a.error_code().is_some_and(|c| codes.contains(&c)) {
        return json_body(a, &format!("the error {}", codes.join(" or "))).map(drop);
    }
    let expected: Vec<String> = (codes.iter())
        .map(|c| format!("{{\"error\": \"{c}\"}}"))
        .collect();
    fail(format!(
        "{}; expected {status} with {} ({section})",
        a.answered(),
        expected.join(" or ")
    ))
}

/// The answer, or a skip when the server has no such route (a route relay adds where §9.1
/// maps none).
pub(crate) fn offered<'a>(a: &'a Answer, what: &str) -> Check<&'a Answer> {
    if a.no_route() {
        return skip(format!("{}: the server offers no {what}", a.answered()));
    }
    Ok(a)
}

/// The answer's list of `key` (the body itself when an array, else its member `key`) in a
/// 200 answer; otherwise a failure saying what was `expected`.
pub(crate) fn expect_list<'a>(a: &'a Answer, key: &str, expected: &str) -> Check<&'a [Value]> {
    let body = expect(a, &[200], expected)?;
    match shape::list_of(body, key) {
        Some(list) => Ok(list),
        None => fail(format!(
            "{}; expected {expected}: an array, or {{\"{key}\": […]}}",
            a.answered()
        )),
    }
}

/// The packages of a 200 answer's list of `packages` (see [`expect_list`], [`packages_in`]).
pub(crate) fn expect_packages(a: &Answer, expected: &str) -> Check<Vec<Value>> {
    packages_in(a, expect_list(a, "packages", expected)?)
}

/// The packages of a list whose entries are packages or hold one (`{"package", …}`).
pub(crate) fn packages_in(a: &Answer, list: &[Value]) -> Check<Vec<Value>> {
    let mut packages = Vec::new();
    for entry in list {
        match shape::package_of(entry) {
            Some(p) => packages.push(p.clone()),
            None => {
                return fail(format!(
                    "{} answered an entry that is neither a package nor {{\"package\": …}}: \
                     {entry}",
                    a.request
                ));
            }
        }
    }
    Ok(packages)
}

/// The answer, or a failure when the server has no such route: one a level requires, though
/// §9.1 may map none (then the suite uses relay's, named in `what`).
pub(crate) fn required<'a>(a: &'a Answer, what: &str, section: &str) -> Check<&'a Answer> {
    if a.no_route() {
        return fail(format!(
            "{}: the server offers no {what}, required by {section}",
            a.answered()
        ));
    }
    Ok(a)
}

/// What an earlier scenario left, or a failure saying it failed (a level needs both).
pub(crate) fn needs<T: Clone>(left: &Option<T>, what: &str) -> Check<T> {
    match left {
        Some(v) => Ok(v.clone()),
        None => fail(format!("not checked: it needs {what}, which failed")),
    }
}

/// What kind of record the server returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Package,
    Fact,
}

/// A record the server returned, and the request that returned it.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub kind: Kind,
    pub from: String,
    pub value: Value,
}

/// The state of one run: the client, the project, and what earlier steps left for later ones.
pub(crate) struct Suite {
    pub client: Client,
    pub project: String,
    /// The answer of `GET /v1/conformance`.
    pub descriptor: Answer,
    /// A word no other package holds, in the title of every package this run writes.
    pub word: String,
    /// The `created_by` of the packages the suite writes.
    pub actor: Value,
    /// The seeded packages as stored, oldest first.
    pub seeds: Vec<Value>,
    /// Why seeding failed, when it did.
    pub seed_problem: Option<String>,
    /// The packages `pull_relevant_order` ranks (all the query's words, one of them, none),
    /// as stored; or why depositing them failed. Not among `seeds`.
    pub ranked: std::result::Result<search::Ranking, String>,
    /// The package `orient_window` must not see, made days ago, as stored; or why depositing
    /// it failed. Not among `seeds`.
    pub old: std::result::Result<Value, String>,
    /// The package `deposit` stored.
    pub deposited: Option<Value>,
    /// The keys of the facts asserted, for the clean-up; and the facts of `assert_fact` and
    /// `fact_supersession`.
    pub fact_keys: Vec<(String, String)>,
    pub first_fact: Option<Value>,
    pub second_fact: Option<Value>,
    /// The package `flag_for_review` flagged, and whether `approve` completed it.
    pub flagged: Option<String>,
    pub approved: bool,
    /// The review_type the suite flags its packages for: `human`, or `agent` once the server
    /// has shown that it reviews as an agent (403 `unauthorized` approving a package flagged
    /// `human`).
    pub review_kind: &'static str,
    pub seen: Vec<Seen>,
    pub notes: Vec<String>,
}

/// Who the suite's packages say made them, unless the server wants its own.
const ACTOR: &str = "relay-conformance";

/// A word of 16 lowercase letters made from a random id: one no other package holds.
pub(crate) fn fresh_word() -> String {
    ids::new_id("x")[2..18]
        .bytes()
        .map(|b| char::from(b'a' + (b % 26)))
        .collect()
}

impl Suite {
    fn new(client: Client, project: String, descriptor: Answer) -> Suite {
        Suite {
            client,
            project,
            descriptor,
            word: fresh_word(),
            actor: json!({"id": ACTOR, "type": "agent"}),
            seeds: Vec::new(),
            seed_problem: None,
            ranked: Err("not deposited".into()),
            old: Err("not deposited".into()),
            deposited: None,
            fact_keys: Vec::new(),
            first_fact: None,
            second_fact: None,
            flagged: None,
            approved: false,
            review_kind: "human",
            seen: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// A complete wire package (§6.1) of the suite's project, made `age` ago, with an open
    /// question for orient to gather (§8.3), and members that must come back unchanged: text
    /// beyond ASCII and with escapes (Appendix A), an unknown member (§6) and an `x-*` one
    /// holding numbers (§12.1).
    pub fn package(&self, title: &str, status: &str, age: chrono::TimeDelta) -> Value {
        json!({
            "package_id": ids::new_id("pkg"),
            "project_id": self.project,
            "relay_version": relay_wire::PROTOCOL_VERSION,
            "title": format!("{title} ({})", self.word),
            "status": status,
            "package_type": "standard",
            "review_type": "none",
            "created_at": time::format(time::now() - age),
            "created_by": self.actor,
            "tags": ["conformance"],
            "description": "Written by relay's conformance suite: café, 日本, 🚀, \"quoted\", tab\t.",
            "significance": 3,
            "open_questions": [format!("Does orient gather the question of {}?", self.word)],
            "conformance_note": "an unknown member: kept as sent (§6)",
            "x-conformance": {"suite": "relay", "run": self.word, "ratio": 0.25, "count": 3},
        })
    }

    /// The path of the project's `tail` route: `/v1/projects/{p}/{tail…}`.
    pub fn project_path(&self, tail: &[&str]) -> Vec<String> {
        let head = ["v1", "projects", self.project.as_str()];
        head.iter().chain(tail).map(|s| s.to_string()).collect()
    }

    /// Records the packages or facts of an answer for the `wire_format` scenario.
    pub fn saw(&mut self, kind: Kind, from: &Answer, values: &[&Value]) {
        for v in values {
            self.seen.push(Seen {
                kind,
                from: from.request.clone(),
                value: (*v).clone(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(level: Level, result: Verdict) -> Outcome {
        Outcome {
            scenario: "x",
            level,
            result,
            reason: None,
            section: "§x",
        }
    }

    #[test]
    fn the_level_passed_is_the_highest_with_no_failure_at_or_below_it() {
        use Level::*;
        use Verdict::*;
        let all = |r: [Verdict; 4]| -> Vec<Outcome> {
            Level::ALL
                .into_iter()
                .zip(r)
                .map(|(l, v)| outcome(l, v))
                .collect()
        };
        assert_eq!(level_passed(&all([Pass, Pass, Pass, Pass])), Some(L3));
        assert_eq!(level_passed(&all([Pass, Pass, Fail, Pass])), Some(L1));
        assert_eq!(level_passed(&all([Pass, Pass, Pass, Fail])), Some(L2));
        assert_eq!(level_passed(&all([Fail, Pass, Pass, Pass])), None);
        assert_eq!(
            level_passed(&all([Skip, Skip, Pass, Skip])),
            Some(L3),
            "skips are no failures"
        );
        let mut late = all([Pass, Pass, Pass, Pass]);
        late.push(outcome(L0, Fail));
        assert_eq!(
            level_passed(&late),
            None,
            "an L0 failure reported last counts"
        );
        let s = Summary::of(&all([Pass, Skip, Fail, Pass]));
        assert_eq!(
            (s.level_passed, s.passed, s.failed, s.skipped),
            (Some(L1), 2, 1, 1)
        );
    }

    #[test]
    fn outcomes_and_summaries_serialize_as_the_cli_prints_them() {
        let o = Outcome {
            scenario: "deposit",
            level: Level::L1,
            result: Verdict::Fail,
            reason: Some("why".into()),
            section: "§8.1",
        };
        assert_eq!(
            serde_json::to_value(&o).unwrap(),
            json!({"scenario": "deposit", "level": "L1", "result": "fail", "reason": "why",
                "section": "§8.1"})
        );
        assert_eq!(o.line(), "fail  L1  deposit: why");
        let s = Summary::of(&[]);
        assert_eq!(
            serde_json::to_value(&s).unwrap(),
            json!({"level_passed": "L3", "passed": 0, "failed": 0, "skipped": 0})
        );
    }

    #[test]
    fn answers_must_be_json_with_the_status_and_code_expected() {
        let a = Answer::canned("GET /v1/x", 404, json!({"error": "package_not_found"}));
        assert_eq!(expect_error(&a, 404, "package_not_found", "§8.2"), Ok(()));
        let Err(Stop::Fail(why)) = expect_error(&a, 404, "project_not_found", "§8.2") else {
            panic!("another code passed")
        };
        assert_eq!(
            why,
            r#"GET /v1/x answered 404 {"error":"package_not_found"}; expected 404 with {"error": "project_not_found"} (§8.2)"#
        );
        let mut text = Answer::canned("GET /v1/x", 200, json!({"ok": true}));
        assert!(expect(&text, &[200], "the thing").is_ok());
        assert!(expect(&text, &[201], "the thing").is_err());
        text.content_type = "text/plain".into();
        let Err(Stop::Fail(why)) = expect(&text, &[200], "the thing") else {
            panic!("text/plain passed")
        };
        assert!(
            why.contains("Content-Type `text/plain`") && why.contains("§9.1"),
            "{why}"
        );
        let missing = Answer::canned("GET /v1/x", 404, json!({"error": "not_found"}));
        assert!(matches!(offered(&missing, "thing"), Err(Stop::Skip(_))));
        let Err(Stop::Fail(why)) = required(&missing, "thing", "§11.3") else {
            panic!("a missing required route passed")
        };
        assert!(
            why.ends_with("the server offers no thing, required by §11.3"),
            "{why}"
        );
        assert_eq!(needs(&Some(1), "x"), Ok(1));
        assert_eq!(
            needs::<u8>(&None, "the fact of `assert_fact`"),
            Err(Stop::Fail(
                "not checked: it needs the fact of `assert_fact`, which failed".into()
            ))
        );
    }

    #[test]
    fn every_level_has_scenarios_and_names_are_unique() {
        for level in Level::ALL {
            assert!(SCENARIOS.iter().any(|s| s.level == level), "{level:?}");
        }
        let mut names: Vec<&str> = SCENARIOS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SCENARIOS.len());
        assert_eq!(
            SCENARIOS.last().unwrap().name,
            "wire_format",
            "it checks all seen"
        );
    }

    #[test]
    fn the_run_word_is_lowercase_letters() {
        let client = Client::new("http://127.0.0.1:9", None, Duration::from_secs(1)).unwrap();
        let answer = client.get(&["v1"], &[]);
        let s = Suite::new(client, "p".into(), answer);
        assert_eq!(s.word.len(), 16);
        assert!(s.word.bytes().all(|b| b.is_ascii_lowercase()), "{}", s.word);
        let p = s.package("T", "draft", chrono::TimeDelta::seconds(1));
        relay_wire::Package::from_value(p.clone()).unwrap();
        assert!(p["title"].as_str().unwrap().contains(&s.word));
    }
}
