//! `relay conformance --check URL`: the suite passes `relay serve` at L3 (with the project
//! given, and with a token that writes as its own actor), and reports servers that break the
//! spec: a canned one that breaks most of it, and `relay serve` behind a proxy that breaks
//! one rule (a 409 turned into a 200). A server that cannot be reached, one that makes no
//! projects and one that refuses the token are clear errors, not lists of failures.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use crate::harness::{Env, Run, snapshot};
use crate::serve::Served;

/// A request as the test servers see it.
struct Request {
    method: String,
    /// Path and query.
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// An answer of a test server. An event stream sends its head only and closes.
struct Reply {
    status: u16,
    content_type: String,
    body: Vec<u8>,
}

fn json_reply(status: u16, body: Value) -> Reply {
    Reply {
        status,
        content_type: "application/json".into(),
        body: body.to_string().into_bytes(),
    }
}

/// A test server; it stops accepting when dropped.
struct TestServer {
    url: String,
    stop: Arc<AtomicBool>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread, which then sees `stop`.
        let _ = TcpStream::connect(self.url.trim_start_matches("http://"));
    }
}

/// Serves `handler` on a free loopback port, a thread a connection, one request each
/// (`Connection: close`).
fn http_server(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> TestServer {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let handler = Arc::new(handler);
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            if stopped.load(Ordering::SeqCst) {
                break;
            }
            let handler = handler.clone();
            std::thread::spawn(move || answer(stream, &*handler));
        }
    });
    TestServer { url, stop }
}

fn answer(stream: TcpStream, handler: &dyn Fn(&Request) -> Reply) {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut parts = line.split_whitespace();
    let (method, target) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or("/"),
    );
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let length = (headers.iter())
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let request = Request {
        method: method.to_string(),
        target: target.to_string(),
        headers,
        body,
    };
    let reply = handler(&request);
    let mut stream = reader.into_inner();
    let stream_only = reply.content_type.starts_with("text/event-stream");
    let mut head = format!(
        "HTTP/1.1 {} X\r\nContent-Type: {}\r\nConnection: close\r\n",
        reply.status, reply.content_type
    );
    if !stream_only {
        head.push_str(&format!("Content-Length: {}\r\n", reply.body.len()));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&reply.body);
}

/// `relay serve` at `upstream` behind a proxy: `handler` answers each request, and may hand
/// it on with the function it is given.
fn proxy(
    upstream: String,
    handler: impl Fn(&Request, &dyn Fn(&Request) -> Reply) -> Reply + Send + Sync + 'static,
) -> TestServer {
    let client = reqwest::blocking::Client::new();
    let forward = move |req: &Request| {
        let method = reqwest::Method::from_bytes(req.method.as_bytes()).unwrap();
        let mut out = client
            .request(method, format!("{upstream}{}", req.target))
            .body(req.body.clone());
        for (k, v) in &req.headers {
            if matches!(k.as_str(), "content-type" | "authorization" | "accept") {
                out = out.header(k.as_str(), v.as_str());
            }
        }
        let response = out.send().expect("the upstream relay serve answers");
        let status = response.status().as_u16();
        let content_type = (response.headers().get("content-type"))
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        let body = if content_type.starts_with("text/event-stream") {
            Vec::new()
        } else {
            response.bytes().unwrap().to_vec()
        };
        Reply {
            status,
            content_type,
            body,
        }
    };
    http_server(move |req| handler(req, &forward))
}

/// `relay conformance --check URL --json ARGS`.
fn check(env: &Env, url: &str, args: &[&str], vars: &[(&str, &str)]) -> Run {
    let mut all = vec!["conformance", "--check", url, "--json", "--timeout", "20"];
    all.extend_from_slice(args);
    env.run_env(&all, vars)
}

/// The scenario lines by name, and the summary line.
fn outcomes(run: &Run) -> (Vec<Value>, Value) {
    let mut lines = run.json_lines();
    let summary = lines
        .pop()
        .unwrap_or_else(|| panic!("no output: {}", run.stderr));
    (lines, summary)
}

fn result_of<'a>(lines: &'a [Value], scenario: &str) -> &'a Value {
    (lines.iter())
        .find(|o| o["scenario"] == scenario)
        .unwrap_or_else(|| panic!("no scenario {scenario}: {lines:#?}"))
}

/// The scenario a server without a model skips: search by meaning, which its descriptor
/// declares `false`.
const WITHOUT_A_MODEL: &str = "pull_by_meaning";

/// Asserts every scenario ran, in the suite's order, with its level, and passed, but for
/// search by meaning, skipped because the descriptor declares it missing.
#[track_caller]
fn all_pass(run: &Run) {
    assert_eq!(
        run.code, 0,
        "stdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    let (lines, summary) = outcomes(run);
    let skip_reason = lines
        .iter()
        .find(|o| o["scenario"] == WITHOUT_A_MODEL)
        .map(|o| o["reason"].clone())
        .unwrap_or_default();
    assert!(
        skip_reason.as_str().is_some_and(|r| r.contains("declares")),
        "{skip_reason}"
    );
    let expected: Vec<Value> = (relay::suite::SCENARIOS.iter())
        .map(|s| match s.name {
            WITHOUT_A_MODEL => json!({"scenario": s.name, "level": s.level.as_str(),
                "result": "skip", "reason": skip_reason, "section": s.sections}),
            _ => json!({"scenario": s.name, "level": s.level.as_str(), "result": "pass",
                "reason": null, "section": s.sections}),
        })
        .collect();
    assert_eq!(lines, expected);
    let n = expected.len();
    assert_eq!(
        summary,
        json!({"level_passed": "L3", "passed": n - 1, "failed": 0, "skipped": 1})
    );
}

#[test]
fn relay_serve_passes_every_scenario_at_l3_in_the_project_given() {
    let env = Env::new();
    env.ok(&["projects", "create", "suite-target"]);
    let server = Served::start(&env, &[]);
    let run = check(&env, &server.url, &["--project", "suite-target"], &[]);
    all_pass(&run);
    // Everything went into the project given, and the fact asserted is no longer current.
    assert_eq!(
        env.ok(&["pull", "--latest", "--json", "--project", "demo"]),
        ""
    );
    let written = env.ok(&[
        "pull",
        "--latest",
        "50",
        "--json",
        "--project",
        "suite-target",
    ]);
    // Eight seeds, one deposit, seven hashed, one of an x-* type, three ranked for relevance,
    // one made days ago for orient's window, two for realtime, and two reviewed; a draft
    // shows to its creator only, and nothing lacking a required member was stored.
    assert_eq!(written.lines().count(), 25, "{written}");
    let facts = env.ok(&["facts", "list", "--json", "--project", "suite-target"]);
    assert_eq!(facts, "", "the suite invalidates what it asserted");
    assert!(env.ok(&["verify"]).contains("sound"));
}

#[test]
fn without_a_project_a_server_that_cannot_make_one_is_a_clear_error_naming_project() {
    // A server without relay's `POST /v1/projects` extension (404, as §9.1 has no such route).
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let plain = proxy(server.url.clone(), move |req, forward| {
        match (req.method.as_str(), req.target.as_str()) {
            ("POST", "/v1/projects") => json_reply(
                404,
                json!({"error": "not_found", "message": "no route POST /v1/projects"}),
            ),
            _ => forward(req),
        }
    });
    let run = check(&env, &plain.url, &["--scratch-ok"], &[]);
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(run.stdout, "", "no scenario ran");
    let e = run.error();
    assert_eq!(e["error"], "invalid_input");
    let m = e["message"].as_str().unwrap();
    assert!(m.starts_with("POST /v1/projects answered 404"), "{m}");
    // "Pass --project ID"
    snapshot!("cannot_make_a_project", run.transcript());
}

#[test]
fn without_a_project_the_suite_makes_one_on_relay_serve_and_archives_it() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let run = check(&env, &server.url, &["--scratch-ok"], &[]);
    all_pass(&run);
    let projects: Vec<Value> = (env.ok(&["projects", "list", "--json"]).lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let made: Vec<&Value> = (projects.iter())
        .filter(|p| {
            p["project_id"]
                .as_str()
                .unwrap()
                .starts_with("conformance-")
        })
        .collect();
    assert_eq!(made.len(), 1, "{projects:#?}");
    assert!(made[0]["archived_at"].is_string(), "{:?}", made[0]);
    assert_eq!(
        env.ok(&["pull", "--latest", "--json", "--project", "demo"]),
        ""
    );
    let human = env.run(&["conformance", "--check", &server.url, "--scratch-ok"]);
    assert_eq!(human.code, 0, "{}", human.stderr);
    assert!(
        human.stderr.contains("archived the project `conformance-"),
        "{}",
        human.stderr
    );
}

#[test]
fn a_token_that_writes_as_its_own_actor_passes_and_its_actor_signs_the_packages() {
    let env = Env::new();
    let token =
        env.ok_json(&["token", "create", "--actor", "claude", "--project", "demo"])["token"]
            .as_str()
            .unwrap()
            .to_string();
    let server = Served::start(&env, &[]);
    let refused = check(&env, &server.url, &["--project", "demo"], &[]);
    assert_eq!(refused.code, 4, "{}", refused.stderr);
    // "answered 401", and how to pass a token: "--token TOKEN or RELAY_TOKEN".
    snapshot!("needs_a_token", refused.transcript());
    let run = check(
        &env,
        &server.url,
        &["--project", "demo"],
        &[("RELAY_TOKEN", &token)],
    );
    all_pass(&run);
    let latest = env.ok_json(&["pull", "--latest", "1", "--project", "demo"])["package"].clone();
    assert_eq!(latest["created_by"]["id"], "claude", "{latest}");
}

#[test]
fn a_server_that_turns_a_conflict_into_success_fails_deposit_conflict_only() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let broken = proxy(server.url.clone(), |req, forward| {
        // The proxy cannot pass a stream on: it says so, as §10.2 asks.
        if req.target.ends_with("/events") {
            return json_reply(
                501,
                json!({"error": "not_implemented", "capability": "realtime"}),
            );
        }
        match forward(req) {
            // As if the second deposit had overwritten the first.
            reply if reply.status == 409 => json_reply(200, json!({"ok": true})),
            reply if req.target == "/v1/conformance" => {
                let mut d: Value = serde_json::from_slice(&reply.body).unwrap();
                d["capabilities"]["realtime"] = json!(false);
                json_reply(200, d)
            }
            reply => reply,
        }
    });
    let run = check(&env, &broken.url, &["--project", "demo"], &[]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    let (lines, summary) = outcomes(&run);
    let failed: Vec<&Value> = lines.iter().filter(|o| o["result"] == "fail").collect();
    assert_eq!(failed.len(), 1, "{failed:#?}");
    let skipped: Vec<&Value> = lines.iter().filter(|o| o["result"] == "skip").collect();
    assert_eq!(skipped.len(), 2, "{skipped:#?}");
    assert_eq!(skipped[0]["scenario"], WITHOUT_A_MODEL);
    assert_eq!(
        skipped[1]["reason"],
        "the descriptor declares realtime: false (see `missing_capabilities`)"
    );
    assert_eq!(failed[0]["scenario"], "deposit_conflict");
    assert_eq!(failed[0]["level"], "L1");
    let reason = failed[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with(
            "POST /v1/projects/demo/packages answered 200 {\"ok\":true}; expected 409"
        ),
        "{reason}"
    );
    assert!(
        reason.contains("duplicate_package_id") && reason.contains("§11.2"),
        "{reason}"
    );
    assert_eq!(summary["level_passed"], "L0");
    assert_eq!(summary["failed"], 1);
    let e = run.error();
    assert_eq!(e["error"], "integrity_error");
    let m = e["message"].as_str().unwrap();
    let tail = format!("failed at {}: deposit_conflict", broken.url);
    assert!(m.ends_with(&tail), "{m}");
}

/// A server that declares protocol 0.2 and routes nothing else.
fn off_spec() -> TestServer {
    http_server(|req| match req.target.as_str() {
        "/v1/conformance" => json_reply(
            200,
            json!({"protocol_version": "0.2", "conformance_level": "L3", "capabilities":
                {"hybrid_search": false, "semantic_search": false, "realtime": false,
                 "blob_storage": false}}),
        ),
        _ => json_reply(404, json!({"error": "not_found", "message": "no route"})),
    })
}

#[test]
fn a_server_off_the_spec_fails_the_scenarios_it_breaks_and_passes_no_level() {
    let env = Env::new();
    let server = off_spec();
    let run = check(&env, &server.url, &["--project", "p"], &[]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    let (lines, summary) = outcomes(&run);
    assert_eq!(lines.len(), relay::suite::SCENARIOS.len());
    let descriptor = result_of(&lines, "descriptor");
    assert_eq!(descriptor["result"], "fail");
    assert_eq!(
        descriptor["reason"],
        "GET /v1/conformance answered: `protocol_version` is \"0.2\", expected \"0.1\" (§11.5, §15.1)"
    );
    let unknown = result_of(&lines, "pull_specific_unknown");
    assert_eq!(unknown["result"], "fail");
    assert!(
        unknown["reason"].as_str().unwrap().contains(
            "answered 404 {\"error\":\"not_found\",\"message\":\"no route\"}; expected 404 with {\"error\": \"package_not_found\"} (§8.2)"
        ),
        "{unknown}"
    );
    let latest = result_of(&lines, "pull_latest");
    assert_eq!(latest["result"], "fail", "nothing read is no pass");
    assert!(latest["reason"].as_str().unwrap().starts_with("not checked: no packages to read back, depositing them failed (POST /v1/projects/p/packages answered 404"), "{latest}");
    let facts = result_of(&lines, "fact_point_in_time");
    assert_eq!(facts["result"], "fail", "a route L2 requires is missing");
    let approve = result_of(&lines, "reviews_listed");
    assert_eq!(approve["result"], "fail");
    assert_eq!(result_of(&lines, "orchestrate")["result"], "skip");
    assert_eq!(result_of(&lines, "deposit")["result"], "fail");
    assert_eq!(summary["level_passed"], Value::Null);
    assert!(
        run.error()["message"]
            .as_str()
            .unwrap()
            .contains("descriptor")
    );
}

#[test]
fn human_output_is_a_line_per_scenario_then_the_level() {
    let env = Env::new();
    let server = off_spec();
    let run = env.run(&["conformance", "--check", &server.url, "--project", "p"]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines.len(),
        relay::suite::SCENARIOS.len() + 1,
        "{}",
        run.stdout
    );
    assert_eq!(
        lines[0],
        "fail  L0  descriptor: GET /v1/conformance answered: `protocol_version` is \"0.2\", expected \"0.1\" (§11.5, §15.1)"
    );
    let at = (relay::suite::SCENARIOS.iter())
        .position(|s| s.name == "orchestrate")
        .unwrap();
    assert!(
        lines[at].starts_with("skip  L0  orchestrate: GET /v1/orchestrate?project=p&focus="),
        "{}",
        lines[at]
    );
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("Level passed: none (the server declares L3); 0 passed, "),
        "{last}"
    );
    let error = run.stderr.lines().last().unwrap();
    let failed = (run.stdout.lines())
        .filter(|l| l.starts_with("fail "))
        .count();
    let total = relay::suite::SCENARIOS.len();
    assert!(
        error.starts_with(&format!(
            "relay: error: {failed} of {total} conformance scenarios failed at"
        )),
        "{error}"
    );
}

#[test]
fn a_server_that_cannot_be_reached_is_an_error_not_a_list_of_failures() {
    let env = Env::new();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let run = check(&env, &url, &["--scratch-ok"], &[]);
    assert_eq!(run.code, 7, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    let e = run.error();
    assert_eq!(e["error"], "io_error");
    let m = e["message"].as_str().unwrap();
    assert!(
        m.starts_with(&format!("cannot reach the server at {url}/: ")),
        "{m}"
    );
    let bad = env.run(&[
        "conformance",
        "--check",
        "ftp://example.com",
        "--scratch-ok",
        "--json",
    ]);
    assert_eq!(bad.code, 4, "{}", bad.stderr);
    // "not an http or https URL"
    snapshot!("not_http", bad.transcript());
}

#[test]
fn a_server_without_a_descriptor_fails_it_and_the_checks_that_need_it() {
    let env = Env::new();
    let server = http_server(|_| json_reply(404, json!({"error": "not_found"})));
    let run = check(&env, &server.url, &["--project", "p"], &[]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    let (lines, _) = outcomes(&run);
    let descriptor = result_of(&lines, "descriptor");
    assert_eq!(descriptor["result"], "fail");
    assert!(
        descriptor["reason"]
            .as_str()
            .unwrap()
            .ends_with("(§10.2; §11.5: a server SHOULD publish one)"),
        "{descriptor}"
    );
    for needs_it in ["pull_relevant", "missing_capabilities", "realtime"] {
        let outcome = result_of(&lines, needs_it);
        assert_eq!(outcome["result"], "fail", "{needs_it}");
        assert!(
            outcome["reason"]
                .as_str()
                .unwrap()
                .starts_with("not checked: the descriptor does not say"),
            "{outcome}"
        );
    }
}

#[test]
fn the_descriptor_the_docs_show_is_the_one_relay_publishes_on_every_door() {
    let guide = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/guide/conformance.md"
    ))
    .unwrap();
    let sample = (guide.lines())
        .find(|l| l.starts_with("{\"protocol_version\""))
        .expect("the guide shows the descriptor");
    let sample: Value = serde_json::from_str(sample).unwrap();
    let env = Env::new();
    assert_eq!(
        env.ok_json(&["conformance"]),
        sample,
        "relay conformance --json"
    );
    let server = Served::start(&env, &[]);
    let served: Value = reqwest::blocking::get(format!("{}/v1/conformance", server.url))
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(served, sample, "GET /v1/conformance");
}

#[test]
fn a_search_relay_serve_cannot_do_answers_501_naming_the_capability_flag() {
    let env = Env::new();
    env.ok(&["deposit", "--title", "Something to find"]);
    let server = Served::start(&env, &[]);
    for mode in ["semantic", "hybrid"] {
        let url = format!(
            "{}/v1/projects/demo/packages?mode=relevant&query=find&search={mode}",
            server.url
        );
        let response = reqwest::blocking::get(url).unwrap();
        assert_eq!(response.status().as_u16(), 501, "{mode}");
        let body: Value = response.json().unwrap();
        assert_eq!(body["error"], "search_not_supported", "{body}");
        assert_eq!(body["capability"], format!("{mode}_search"), "{body}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("embedding model")
        );
    }
}

/// `--check URL` with neither --project nor --scratch-ok refuses before it writes a thing,
/// and says how to check without leaving anything.
#[test]
fn a_check_that_would_leave_a_project_refuses_without_scratch_ok() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let before = env.ok(&["projects", "list", "--json"]);
    let run = check(&env, &server.url, &[], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stdout, "", "no scenario ran");
    let m = run.error()["message"].as_str().unwrap().to_string();
    for says in [
        "keeps them",
        "`relay conformance --check` alone",
        "--project ID",
        "--scratch-ok",
    ] {
        assert!(m.contains(says), "{says}: {m}");
    }
    assert_eq!(env.ok(&["projects", "list", "--json"]), before);
}

/// `--check` alone serves this build on a scratch store, passes L3 there, and deletes the
/// store: nothing is left in the user's store or in the temporary folder.
#[test]
fn a_check_without_a_url_runs_on_a_scratch_store_it_deletes() {
    let env = Env::new();
    let tmp = tempfile::tempdir().unwrap();
    let tmp_path = tmp.path().to_str().unwrap();
    let before = env.ok(&["projects", "list", "--json"]);
    let run = env.run_env(
        &["conformance", "--check", "--json", "--timeout", "20"],
        &[("TMPDIR", tmp_path)],
    );
    all_pass(&run);
    let human = env.run_env(
        &["conformance", "--check", "--timeout", "20"],
        &[("TMPDIR", tmp_path)],
    );
    assert_eq!(human.code, 0, "{}", human.stderr);
    assert!(
        (human.stderr).contains("on a scratch store at http://127.0.0.1:"),
        "{}",
        human.stderr
    );
    assert_eq!(env.ok(&["projects", "list", "--json"]), before);
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}
