//! Numbers in `x-*` members keep the text they were written with (issue 38): a 30-digit
//! integer and a long decimal come back byte for byte from every door that deposits and pulls
//! (CLI `--json`, MCP, HTTP), and the stored line holds them as written. The content hash is
//! still that of canonical JSON (§6.6, Appendix A), where a number is the double it names.

use serde_json::{Value, json};

use crate::harness::Env;
use crate::mcp;
use crate::serve::Served;
use crate::transports::{self, Answer, HttpCall};
use relay::wire::canonical;

/// The extension members, as written: more digits than a double holds.
const EXTENSIONS: &str =
    r#""x-big": 123456789012345678901234567890, "x-ratio": 0.12345678901234567890123"#;

/// The same members with each number written as the double it names, the short way: the text
/// canonical JSON hashes.
const AS_DOUBLES: &str = r#""x-big": 1.2345678901234568e29, "x-ratio": 0.12345678901234568"#;

/// How the members read back in compact JSON.
const COMPACT: &str = r#""x-big":123456789012345678901234567890"#;
const COMPACT_RATIO: &str = r#""x-ratio":0.12345678901234567890123"#;

/// A package of `demo` named `id`, with `members` appended.
fn package(id: &str, members: &str) -> String {
    format!(
        r#"{{"package_id": "{id}", "project_id": "demo", "relay_version": "0.1", "title": "Numbers",
        "status": "complete", "package_type": "standard", "review_type": "none",
        "created_at": "2026-05-01T10:00:00Z", "created_by": {{"id": "jo", "type": "human"}},
        {members}}}"#
    )
}

/// The hash the vector rule gives the package: that of the same package with its numbers
/// written as doubles.
fn expected_hash(id: &str) -> String {
    let doubles: Value = serde_json::from_str(&package(id, AS_DOUBLES)).unwrap();
    canonical::content_hash(&doubles)
}

/// Asserts that `text` (a door's answer, or a stored line) holds both numbers as written.
#[track_caller]
fn holds_the_digits(text: &str, what: &str) {
    for member in [COMPACT, COMPACT_RATIO] {
        assert!(text.contains(member), "{what} lost {member}: {text}");
    }
}

/// The one stored line of package `id`.
fn stored_line(env: &Env, id: &str) -> String {
    (env.package_lines("demo").into_iter())
        .find(|l| l.contains(id))
        .unwrap_or_else(|| panic!("{id} is not stored"))
}

#[test]
fn the_cli_keeps_the_digits_from_deposit_to_pull() {
    let env = Env::new();
    let file = env.path("numbers.json");
    std::fs::write(&file, package("pkg_numbers_cli", EXTENSIONS)).unwrap();
    let file = file.to_str().unwrap();
    let run = env.run(&["deposit", "--from", file, "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    holds_the_digits(&run.stdout, "deposit --json");
    let deposited: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(deposited["hash"], json!(expected_hash("pkg_numbers_cli")));
    holds_the_digits(&stored_line(&env, "pkg_numbers_cli"), "the stored line");

    let pulled = env.run(&["pull", "pkg_numbers_cli", "--json"]);
    assert_eq!(pulled.code, 0, "{}", pulled.stderr);
    holds_the_digits(&pulled.stdout, "pull --json");
    // Stored and hashed as deposited: the store verifies.
    let verify = env.run(&["verify", "--json"]);
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);
}

#[test]
fn mcp_keeps_the_digits_from_deposit_to_pull() {
    let env = Env::new();
    let extensions: Value = serde_json::from_str(&format!("{{{EXTENSIONS}}}")).unwrap();
    let replies = mcp::serve(
        &env,
        &[
            mcp::call(
                1,
                "deposit",
                json!({"title": "Numbers", "package_id": "pkg_numbers_mcp", "package": extensions}),
            ),
            mcp::call(
                2,
                "pull",
                json!({"mode": "specific", "id": "pkg_numbers_mcp"}),
            ),
        ],
    );
    // The replies were read with serde_json keeping each number's text: a rounded number
    // would read back rounded.
    let deposited = mcp::ok(&replies[0]);
    holds_the_digits(&deposited.to_string(), "MCP deposit");
    holds_the_digits(&mcp::ok(&replies[1]).to_string(), "MCP pull");
    holds_the_digits(&stored_line(&env, "pkg_numbers_mcp"), "the stored line");
    let stored: Value = serde_json::from_str(&stored_line(&env, "pkg_numbers_mcp")).unwrap();
    assert_eq!(
        stored["hash"],
        json!(canonical::content_hash(&number_free_twin(
            &stored["package"]
        )))
    );
}

/// `package` with its two numbers written as the doubles they name.
fn number_free_twin(package: &Value) -> Value {
    let mut twin = package.clone();
    let doubles: Value = serde_json::from_str(&format!("{{{AS_DOUBLES}}}")).unwrap();
    for (k, v) in doubles.as_object().unwrap() {
        twin[k] = v.clone();
    }
    assert_ne!(&twin, package, "the numbers are written differently");
    twin
}

#[test]
fn http_keeps_the_digits_from_deposit_to_pull() {
    let env = Env::new();
    // The token's actor is the package's author: a token writes as its own actor only.
    let token = env.ok(&[
        "token",
        "create",
        "--actor",
        "jo",
        "--actor-type",
        "human",
        "-q",
    ]);
    let server = Served::start(&env, &[]);
    let call = |method, path: &str, body: Option<&str>| {
        let call = HttpCall {
            method,
            path: path.to_string(),
            body: body.map(str::to_string),
        };
        match transports::http(&env, &server, token.trim(), &call) {
            Answer::Ok(v) => v,
            Answer::Failed(code) => panic!("{method} {path}: {code}"),
        }
    };
    let body = package("pkg_numbers_http", EXTENSIONS);
    let deposited = call("POST", "/v1/projects/demo/packages", Some(&body));
    holds_the_digits(&deposited.to_string(), "HTTP deposit");
    let pulled = call("GET", "/v1/packages/pkg_numbers_http", None);
    holds_the_digits(&pulled.to_string(), "HTTP pull");
    holds_the_digits(&stored_line(&env, "pkg_numbers_http"), "the stored line");
    let stored: Value = serde_json::from_str(&stored_line(&env, "pkg_numbers_http")).unwrap();
    assert_eq!(stored["hash"], json!(expected_hash("pkg_numbers_http")));
    server.stop();
}

/// A fact's `x-*` members keep their digits on every door that asserts and reads facts (CLI
/// `--field`, MCP, HTTP): the reader that takes the `x-*` members out of a request must not
/// pass them through serde's `flatten` buffer, which holds no integer over 64 bits.
#[test]
fn a_fact_keeps_the_digits_of_its_extension_members_on_every_door() {
    let env = Env::new();
    let extensions: Value = serde_json::from_str(&format!("{{{EXTENSIONS}}}")).unwrap();
    let cli = env.ok(&[
        "facts",
        "assert",
        "cli",
        "size",
        "1",
        "--field",
        "x-big=123456789012345678901234567890",
        "--field",
        "x-ratio=0.12345678901234567890123",
        "--json",
    ]);
    holds_the_digits(&cli, "CLI facts assert");

    let mut arguments = json!({"subject": "mcp", "predicate": "size", "value": 1});
    arguments
        .as_object_mut()
        .unwrap()
        .extend(extensions.as_object().unwrap().clone());
    let replies = mcp::serve(
        &env,
        &[
            mcp::call(1, "facts_assert", arguments),
            mcp::call(
                2,
                "facts_get",
                json!({"subject": "mcp", "predicate": "size"}),
            ),
        ],
    );
    holds_the_digits(&mcp::ok(&replies[0]).to_string(), "MCP facts_assert");
    holds_the_digits(&mcp::ok(&replies[1]).to_string(), "MCP facts_get");

    let token = env.ok(&["token", "create", "--actor", "jo", "-q"]);
    let server = Served::start(&env, &[]);
    let call = |method, path: &str, body: Option<String>| {
        let call = HttpCall {
            method,
            path: path.to_string(),
            body,
        };
        match transports::http(&env, &server, token.trim(), &call) {
            Answer::Ok(v) => v,
            Answer::Failed(code) => panic!("{method} {path}: {code}"),
        }
    };
    let body = format!(r#"{{"subject": "http", "predicate": "size", "value": 1, {EXTENSIONS}}}"#);
    let asserted = call("POST", "/v1/projects/demo/facts", Some(body));
    holds_the_digits(&asserted.to_string(), "HTTP assert_fact");
    let listed = call("GET", "/v1/projects/demo/facts?subject=http", None);
    holds_the_digits(&listed.to_string(), "HTTP facts");
    server.stop();

    let facts = crate::harness::read(&env.store().join("projects/demo/facts.ndjson"));
    for subject in ["cli", "mcp", "http"] {
        let line = (facts.lines())
            .find(|l| l.contains(&format!(r#""subject":"{subject}""#)))
            .unwrap_or_else(|| panic!("no stored fact about {subject}: {facts}"));
        holds_the_digits(line, "the stored fact");
    }
}
