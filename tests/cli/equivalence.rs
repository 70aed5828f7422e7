//! One transport-equivalence test (issue 37): every operation that more than one door
//! offers — CLI `--json`, MCP `tools/call`, HTTP `relay serve` — answers the same request
//! the same way, up to each door's envelope. One table of cases (an operation and its
//! request as JSON), one driver per door that turns the request into that door's call
//! ([`crate::transports`]), one shaper per envelope; then a comparison. Reads run on one
//! seeded store; a write runs on three identical copies of it, its new ids and times named
//! in order of appearance. The operations are checked against the MCP tools list and the
//! HTTP route table, so a new operation without a case fails here.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use crate::equivalence_inputs::bad_inputs;
use crate::harness::Env;
use crate::serve::Served;
use crate::transports::{self, Answer, OPS, Op, cli_call, http_call, mcp_arguments, shape};

/// MCP tools and HTTP routes no case drives, and why.
const ONE_DOOR_OR_STREAMING: &[(&str, &str)] = &[
    (
        "mcp:watch",
        "a stream: the CLI's `relay watch` follows until interrupted, HTTP's is Server-Sent Events",
    ),
    (
        "GET /v1/projects/{project_id}/events",
        "a stream of Server-Sent Events, not one answer",
    ),
];

/// Cases whose answers differ today (none: every door answers every case alike). An entry
/// here is asserted to STILL differ: when one agrees, the test fails and asks for it to go.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// Cases the CLI's argument parser refuses before any request is built, with its own code
/// `usage`, as every clap command does; MCP and HTTP must agree with each other.
const CLI_PARSER_REFUSES: &[(&str, &str)] = &[];

/// One case: a name, the operation and its request as JSON (`{P1}`, `{P2}`, `{P3}` stand
/// for the seeded packages' ids, `{L1}` for the seeded lesson's).
pub(crate) struct Case {
    pub name: String,
    pub op: Op,
    pub request: Value,
}

pub(crate) fn case(name: &str, op: Op, request: Value) -> Case {
    Case {
        name: name.to_string(),
        op,
        request,
    }
}

/// A time before any seeded record.
const PAST: &str = "2001-01-01T00:00:00Z";

pub(crate) fn cases() -> Vec<Case> {
    use Op::*;
    vec![
        case("conformance", Conformance, json!({})),
        case("status", Status, json!({})),
        case(
            "deposit",
            Deposit,
            json!({"title": "Cache warmer", "decisions_made": ["Warm on boot"], "tags": ["cache"]}),
        ),
        case(
            "deposit_without_title",
            Deposit,
            json!({"description": "no title"}),
        ),
        case("pull_latest", PullLatest, json!({"limit": 5})),
        case(
            "pull_latest_by_status",
            PullLatest,
            json!({"limit": 5, "status": "draft"}),
        ),
        case(
            "pull_latest_by_tag",
            PullLatest,
            json!({"limit": 5, "tags": ["db"]}),
        ),
        case(
            "pull_latest_bad_status",
            PullLatest,
            json!({"status": "bogus"}),
        ),
        case(
            "pull_latest_bad_since",
            PullLatest,
            json!({"since": "next blue moon"}),
        ),
        // Snapshot reads, from before the store held anything.
        case("pull_latest_as_of", PullLatest, json!({"as_of": PAST})),
        // Lists: any of two types, all of two tags.
        case(
            "pull_latest_two_types",
            PullLatest,
            json!({"types": ["standard", "decision"]}),
        ),
        case(
            "pull_latest_two_tags",
            PullLatest,
            json!({"tags": ["db", "ops"]}),
        ),
        case("orient_as_of", Orient, json!({"as_of": PAST})),
        case(
            "orchestrate_as_of",
            Orchestrate,
            json!({"project": "demo", "as_of": PAST}),
        ),
        case("facts_list_as_of", FactsList, json!({"as_of": PAST})),
        case("pull_one", PullOne, json!({"id": "{P1}"})),
        case(
            "pull_one_unknown",
            PullOne,
            json!({"id": "pkg_00000000000000000000000000000000"}),
        ),
        case(
            "pull_relevant",
            PullRelevant,
            json!({"query": "connection pool", "limit": 3, "search": "keyword"}),
        ),
        case(
            "search",
            Search,
            json!({"query": "schema migration", "search": "keyword"}),
        ),
        // Without a model, the default mode is keyword on every door.
        case("search_default_mode", Search, json!({"query": "pool leak"})),
        case(
            "pull_relevant_without_query",
            PullRelevant,
            json!({"limit": 3}),
        ),
        case("orient", Orient, json!({"window_days": 14, "limit": 5})),
        case("orient_max_chars", Orient, json!({"max_chars": 600})),
        case("orient_max_tokens", Orient, json!({"max_tokens": 150})),
        case(
            "orchestrate",
            Orchestrate,
            json!({"project": "demo", "focus": "pool", "snippets": 5, "search": "keyword"}),
        ),
        // Every project the caller may see: `--all-projects`, `all_projects`, no `?project=`.
        case(
            "orchestrate_all_projects",
            Orchestrate,
            json!({"all_projects": true, "snippets": 5}),
        ),
        case(
            "retract",
            Retract,
            json!({"id": "{P2}", "reason": "superseded"}),
        ),
        case(
            "facts_assert",
            FactsAssert,
            json!({"subject": "api", "predicate": "owner", "value": "ops", "tags": ["team"]}),
        ),
        case(
            "facts_assert_number",
            FactsAssert,
            json!({"subject": "api", "predicate": "p99_ms", "value": 1e2}),
        ),
        case(
            "facts_assert_extension",
            FactsAssert,
            json!({"subject": "api", "predicate": "p99_ms", "value": "120", "x-unit": "ms", "x-runs": 30}),
        ),
        case(
            "facts_assert_without_value",
            FactsAssert,
            json!({"subject": "api", "predicate": "owner"}),
        ),
        case(
            "facts_get",
            FactsGet,
            json!({"subject": "api", "predicate": "status"}),
        ),
        case("facts_list", FactsList, json!({})),
        case("facts_list_by_subject", FactsList, json!({"subject": "db"})),
        case("facts_list_by_tag", FactsList, json!({"tag": "db"})),
        case(
            "facts_list_with_ended",
            FactsList,
            json!({"include_ended": true}),
        ),
        case(
            "facts_history",
            FactsHistory,
            json!({"subject": "api", "predicate": "status"}),
        ),
        case(
            "facts_history_unknown",
            FactsHistory,
            json!({"subject": "api", "predicate": "nothing"}),
        ),
        case(
            "facts_invalidate",
            FactsInvalidate,
            json!({"subject": "api", "predicate": "status"}),
        ),
        // Only the current fact holding this value ends: `down` is current, `live` is not.
        case(
            "facts_invalidate_value",
            FactsInvalidate,
            json!({"subject": "api", "predicate": "status", "value": "live"}),
        ),
        case(
            "facts_invalidate_object",
            FactsInvalidate,
            json!({"subject": "api", "predicate": "status", "object": "down"}),
        ),
        case(
            "session_start",
            SessionStart,
            json!({"callsign": "amber-otter"}),
        ),
        case("session_list", SessionList, json!({})),
        case("session_list_active", SessionList, json!({"active": true})),
        case("session_list_as_of", SessionList, json!({"as_of": PAST})),
        case("session_end", SessionEnd, json!({"session": "coral-heron"})),
        case(
            "session_end_unknown",
            SessionEnd,
            json!({"session": "no-such-heron"}),
        ),
        case(
            "review_flag",
            ReviewFlag,
            json!({"package_id": "{P2}", "review_type": "agent", "note": "Check the order"}),
        ),
        case(
            "review_approve",
            ReviewApprove,
            json!({"package_id": "{P3}", "note": "Ship it"}),
        ),
        case(
            "review_request_changes",
            ReviewRequestChanges,
            json!({"package_id": "{P3}", "note": "Add a rollback step"}),
        ),
        case(
            "review_request_changes_without_note",
            ReviewRequestChanges,
            json!({"package_id": "{P3}"}),
        ),
        case(
            "review_flag_unknown",
            ReviewFlag,
            json!({"package_id": "pkg_00000000000000000000000000000000", "review_type": "human"}),
        ),
        case("review_list", ReviewList, json!({})),
        case(
            "review_list_human",
            ReviewList,
            json!({"review_type": "human"}),
        ),
        case(
            "review_list_bad_type",
            ReviewList,
            json!({"review_type": "robot"}),
        ),
        case("projects_list", ProjectsList, json!({})),
        case(
            "projects_create",
            ProjectsCreate,
            json!({"project_id": "api", "name": "API"}),
        ),
        case(
            "projects_archive",
            ProjectsArchive,
            json!({"project_id": "web"}),
        ),
        case(
            "amp_store",
            AmpStore,
            json!({"record": {"type": "lesson", "title": "Pool size", "content": "The pool holds 20", "tags": ["db"]}}),
        ),
        case(
            "amp_store_in_project",
            AmpStore,
            json!({"record": {"type": "lesson", "title": "React", "content": "Web uses React", "project": "web"}}),
        ),
        case("amp_store_without_record", AmpStore, json!({})),
        case(
            "amp_search",
            AmpSearch,
            json!({"query": "migrations lock", "limit": 3}),
        ),
        case("amp_list", AmpList, json!({"limit": 10})),
        case(
            "amp_list_lessons",
            AmpList,
            json!({"type": "lesson", "limit": 10}),
        ),
        case("amp_get", AmpGet, json!({"id": "{L1}"})),
        case(
            "amp_get_unknown",
            AmpGet,
            json!({"id": "pkg_00000000000000000000000000000000"}),
        ),
        case(
            "amp_delete",
            AmpDelete,
            json!({"id": "{L1}", "reason": "wrong"}),
        ),
        case("amp_status", AmpStatus, json!({})),
    ]
}

/// A seeded store: three packages (one complete, one draft, one awaiting a human's review),
/// a lesson, facts with a history, an open session `coral-heron` (not the clone's current
/// one), a second project `web`, and a token for the CLI's own actor.
pub(crate) struct Seed {
    pub env: Env,
    ids: BTreeMap<&'static str, String>,
    token: String,
    /// A token of each other kind of remote caller, by name (see `equivalence_callers`).
    pub callers: BTreeMap<&'static str, String>,
}

pub(crate) fn seed() -> Seed {
    let env = Env::new();
    let mut ids = BTreeMap::new();
    let p1 = env.deposit(
        "Connection pool leak",
        &[
            "--decision",
            "Use a bounded pool",
            "--tag",
            "db",
            "--handoff",
            "Watch the pool",
        ],
    );
    let p2 = env.deposit("Schema migration plan", &["--status", "draft"]);
    let p3 = env.deposit("Rollback script", &["--status", "draft", "--tag", "db"]);
    env.ok(&["review", "flag", &p3, "--human", "--note", "Needs a DBA"]);
    env.ok(&["facts", "assert", "api", "status", "live"]);
    env.ok(&["facts", "assert", "api", "status", "down"]);
    env.ok(&["facts", "assert", "db", "engine", "postgres", "--tag", "db"]);
    // Not the clone's current session, so no write below is attributed to it.
    let started = crate::mcp::serve(
        &env,
        &[crate::mcp::call(
            1,
            "session_start",
            json!({"callsign": "coral-heron", "make_current": false}),
        )],
    );
    crate::mcp::ok(&started[0]);
    let lesson = env.ok_json(&[
        "lesson",
        "add",
        "Migrations need a lock timeout",
        "--content",
        "Run migrations with a lock timeout",
        "--severity",
        "critical",
        "--tag",
        "db",
    ]);
    env.ok(&["projects", "create", "web"]);
    let mut callers = BTreeMap::new();
    // The write token every remote door uses, then one of each other kind of caller.
    let mut token_of = |name, extra: &[&str]| {
        let mut args = vec!["token", "create", "--actor", "tester"];
        args.extend(["--actor-type", "human"]);
        args.extend(extra);
        let made = env.ok_json(&args);
        callers.insert(name, made["token"].as_str().unwrap().to_string());
        made["token_id"].as_str().unwrap().to_string()
    };
    token_of("write", &[]);
    token_of("read-only", &["--read-only"]);
    token_of("scoped-to-web", &["--scope", "web"]);
    let revoked = token_of("revoked", &[]);
    env.ok(&["token", "revoke", &revoked]);
    // An empty bearer: a request with no valid token.
    callers.insert("no-token", String::new());
    let token = callers.remove("write").unwrap();
    ids.insert("{P1}", p1);
    ids.insert("{P2}", p2);
    ids.insert("{P3}", p3);
    let lesson = lesson["package"]["package_id"].as_str().unwrap();
    ids.insert("{L1}", lesson.to_string());
    Seed {
        env,
        ids,
        token,
        callers,
    }
}

impl Seed {
    /// A fresh folder holding a byte-for-byte copy of the seeded store.
    fn copy(&self) -> Env {
        let env = Env::empty();
        copy_dir(&self.env.store(), &env.store());
        env
    }

    /// `request` with the seeded ids in place of `{P1}`…
    fn fill(&self, request: &Value) -> Value {
        let mut text = request.to_string();
        for (name, id) in &self.ids {
            text = text.replace(name, id);
        }
        serde_json::from_str(&text).unwrap()
    }

    /// The lines `env`'s copy of the store appended to its logs since it was copied: each
    /// log's new lines as JSON, by the log's path in the store.
    fn appended(&self, env: &Env) -> Value {
        let mut out = serde_json::Map::new();
        for (path, text) in logs(&env.store()) {
            let before = std::fs::read_to_string(self.env.store().join(&path)).unwrap_or_default();
            let new: Vec<Value> = (text.lines())
                .filter(|line| !before.lines().any(|old| old == *line))
                .map(|line| serde_json::from_str(line).unwrap())
                .collect();
            if !new.is_empty() {
                out.insert(path, Value::Array(new));
            }
        }
        Value::Object(out)
    }

    /// Every id the seeded store holds already, so a write's new ones can be told apart.
    fn known(&self) -> String {
        let mut all = String::new();
        for entry in walkdir::WalkDir::new(self.env.store())
            .into_iter()
            .flatten()
        {
            if entry.file_type().is_file() {
                all.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
            }
        }
        all
    }
}

/// Every log of the store at `root` (its NDJSON files, not the cache's) with its text, by
/// its path in the store.
fn logs(root: &Path) -> Vec<(String, String)> {
    (walkdir::WalkDir::new(root).into_iter().flatten())
        .filter(|e| e.file_type().is_file())
        .filter(|e| e.path().extension().is_some_and(|x| x == "ndjson"))
        .filter(|e| !e.path().starts_with(root.join("cache")))
        .map(|e| {
            let path = e.path().strip_prefix(root).unwrap().display().to_string();
            (path, std::fs::read_to_string(e.path()).unwrap())
        })
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().flatten() {
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// `answer` and `appended` with what the call itself generated — new ids, times, hashes
/// (a write's, or a read's `generated_at`) — named in order of first appearance, so the
/// outcomes of three stores compare.
fn scrub(answer: Answer, appended: Value, known: &str) -> Outcome {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let answer = match answer {
        Answer::Ok(v) => Answer::Ok(scrub_value(v, known, &mut names)),
        failed => failed,
    };
    let appended = scrub_value(appended, known, &mut names);
    Outcome { answer, appended }
}

fn scrub_value(v: Value, known: &str, names: &mut BTreeMap<String, String>) -> Value {
    match v {
        Value::String(s) => {
            let time = s.len() >= 20
                && s.as_bytes()[4] == b'-'
                && s.contains('T')
                && s.ends_with('Z')
                && !known.contains(&s);
            let generated = s.starts_with("sha256:")
                || (s.len() > 20
                    && s.contains('_')
                    && !s.contains(' ')
                    && s.rsplit('_')
                        .next()
                        .unwrap()
                        .chars()
                        .all(|c| c.is_ascii_hexdigit())
                    && !known.contains(&s));
            if time {
                Value::String("<time>".into())
            } else if generated {
                let n = names.len() + 1;
                Value::String(
                    names
                        .entry(s)
                        .or_insert_with(|| format!("<new {n}>"))
                        .clone(),
                )
            } else {
                Value::String(s)
            }
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|i| scrub_value(i, known, names))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, i)| (k, scrub_value(i, known, names)))
                .collect(),
        ),
        other => other,
    }
}

/// What one door did with a case: its answer, and for a write the lines it appended to
/// the store's logs (by file), both with what the call generated named.
#[derive(Debug, PartialEq)]
pub(crate) struct Outcome {
    pub answer: Answer,
    pub appended: Value,
}

/// Each door's outcome of `case`, shaped, by door name.
fn outcomes(seed: &Seed, shared: &Served, case: &Case) -> Vec<(&'static str, Outcome)> {
    outcomes_as(seed, shared, case, None)
}

/// [`outcomes`], or with `remote` (a token) the outcomes of the doors a remote caller
/// uses, HTTP and MCP over HTTP, for that caller.
pub(crate) fn outcomes_as(
    seed: &Seed,
    shared: &Served,
    case: &Case,
    remote: Option<&str>,
) -> Vec<(&'static str, Outcome)> {
    let bearer = remote.unwrap_or(&seed.token);
    let local = remote.is_none();
    let request = seed.fill(&case.request);
    let op = case.op;
    // A write gets its own copy of the seeded store; a read shares the seeded one.
    let store = || op.writes().then(|| seed.copy());
    let appended = |copy: &Option<Env>| copy.as_ref().map_or(Value::Null, |env| seed.appended(env));
    let mut raw = Vec::new();
    // A case only a JSON door can say is not the CLI's (see `equivalence_inputs`).
    let cli = (local && !case.name.starts_with("json:")).then(|| cli_call(op, &request));
    if let Some((args, stdin)) = cli.flatten() {
        let copy = store();
        let env = copy.as_ref().unwrap_or(&seed.env);
        let listing = op.cli_listing();
        let answer = transports::cli(env, &args, stdin.as_deref(), listing);
        raw.push(("cli", answer, appended(&copy)));
    }
    if let Some(tool) = op.mcp_tool().filter(|_| local) {
        let copy = store();
        let env = copy.as_ref().unwrap_or(&seed.env);
        let answer = transports::mcp(env, tool, mcp_arguments(op, &request));
        raw.push(("mcp", answer, appended(&copy)));
    }
    if let Some(call) = http_call(op, &request) {
        let copy = store();
        let answer = match &copy {
            Some(env) => {
                let server = Served::start(env, &[]);
                transports::http(env, &server, bearer, &call)
            }
            None => transports::http(&seed.env, shared, bearer, &call),
        };
        raw.push(("http", answer, appended(&copy)));
    }
    if let Some(tool) = op.mcp_tool() {
        let copy = store();
        let arguments = mcp_arguments(op, &request);
        let answer = match &copy {
            Some(env) => {
                let server = Served::start(env, &[]);
                transports::mcp_http(env, &server, bearer, tool, &arguments)
            }
            None => transports::mcp_http(&seed.env, shared, bearer, tool, &arguments),
        };
        raw.push(("mcp-http", answer, appended(&copy)));
    }
    let known = seed.known();
    (raw.into_iter())
        .map(|(door, answer, appended)| {
            let answer = shape(op, door, answer);
            (door, scrub(answer, appended, &known))
        })
        .collect()
}

/// Whether every door answered alike.
pub(crate) fn agree(answers: &[(&str, Outcome)]) -> bool {
    answers.windows(2).all(|w| w[0].1 == w[1].1)
}

pub(crate) fn show(outcomes: &[(&str, Outcome)]) -> String {
    (outcomes.iter())
        .map(|(door, o)| {
            let answer = match &o.answer {
                Answer::Ok(v) => serde_json::to_string_pretty(v).unwrap(),
                Answer::Failed(code) => format!("error {code}"),
            };
            match &o.appended {
                Value::Null => format!("  {door}: {answer}"),
                logs => format!("  {door}: {answer}\n  {door} appended: {logs:#}"),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_operation_more_than_one_door_offers_has_a_case() {
    let env = Env::new();
    let exempt = |name: &str| ONE_DOOR_OR_STREAMING.iter().any(|(n, _)| *n == name);
    let mut missing = Vec::new();
    for tool in transports::mcp_tools(&env) {
        let covered = OPS.iter().any(|op| op.mcp_tool() == Some(tool.as_str()));
        if !covered && !exempt(&format!("mcp:{tool}")) {
            missing.push(format!("MCP tool {tool}"));
        }
    }
    let cases: Vec<Case> = cases().into_iter().chain(bad_inputs()).collect();
    let api = (relay::http::route_table::ROUTES.iter())
        .filter(|r| r.path.starts_with("/v1/") || r.path.starts_with("/amp/"));
    for route in api {
        let covered = OPS
            .iter()
            .any(|op| op.http_route() == Some((route.method, route.path)));
        let name = format!("{} {}", route.method, route.path);
        if !covered && !exempt(&name) {
            missing.push(format!("HTTP route {name}"));
        }
    }
    assert!(
        missing.is_empty(),
        "operations without a case in OPS: {missing:?}"
    );
    for op in OPS {
        let doors = [
            op.on_cli(),
            op.mcp_tool().is_some(),
            op.http_route().is_some(),
        ];
        let count = doors.iter().filter(|d| **d).count();
        assert!(
            count >= 2,
            "{op:?} is offered by one door only: it needs no case"
        );
        assert!(cases.iter().any(|c| c.op == *op), "{op:?} has no case");
    }
    for (name, _) in KNOWN_DIFFERENCES.iter().chain(CLI_PARSER_REFUSES) {
        assert!(
            cases.iter().any(|c| c.name == *name),
            "KNOWN_DIFFERENCES or CLI_PARSER_REFUSES names no case {name}"
        );
    }
}

#[test]
fn every_door_answers_the_same_request_alike() {
    let seed = seed();
    let shared = Served::start(&seed.env, &[]);
    let only = std::env::var("EQUIVALENCE_CASE").ok();
    let mut failures = Vec::new();
    for case in cases().into_iter().chain(bad_inputs()) {
        if only.as_deref().is_some_and(|o| o != case.name) {
            continue;
        }
        let mut answers = outcomes(&seed, &shared, &case);
        if CLI_PARSER_REFUSES.iter().any(|(n, _)| *n == case.name) {
            let (door, cli) = answers.remove(0);
            let usage = Answer::Failed("usage".into());
            if door != "cli" || cli.answer != usage {
                failures.push(format!(
                    "{}: the CLI answered {cli:?}, not usage",
                    case.name
                ));
            }
        }
        let known = KNOWN_DIFFERENCES.iter().find(|(n, _)| *n == case.name);
        if std::env::var_os("EQUIVALENCE_SHOW").is_some() {
            eprintln!("== {}\n{}", case.name, show(&answers));
        }
        match (agree(&answers), known) {
            (true, None) | (false, Some(_)) => {}
            (false, None) => failures.push(format!(
                "{} ({:?}) differs between doors:\n{}",
                case.name,
                case.op,
                show(&answers)
            )),
            (true, Some((_, why))) => failures.push(format!(
                "{} now agrees on every door: remove it from KNOWN_DIFFERENCES ({why})",
                case.name
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
