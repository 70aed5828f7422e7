//! The Agent Memory Protocol over MCP: the official Python client runs AMP's example session
//! (tests/mcp/test_amp_session.py), with an embedding model when RELAY_TEST_MODEL names one,
//! so the lesson is found by meaning.

use crate::harness::{BIN, Env};

#[test]
fn amp_example_session_through_the_official_mcp_client() {
    let Some(python) = std::env::var("RELAY_MCP_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
    else {
        println!("SKIPPED amp_example_session: set RELAY_MCP_PYTHON (.ci/run does)");
        return;
    };
    let env = Env::new();
    match std::env::var("RELAY_TEST_MODEL")
        .ok()
        .filter(|m| !m.is_empty())
    {
        Some(model) => {
            let config = env.store().join("config.toml");
            let text = std::fs::read_to_string(&config).unwrap();
            let text = format!("{text}\n[search]\nmodel = {}\n", toml_string(&model));
            std::fs::write(&config, text).unwrap();
        }
        None => println!("SKIPPED search by meaning: set RELAY_TEST_MODEL (.ci/run does)"),
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp/test_amp_session.py");
    let out = env
        .program(&python, &[script])
        .env("RELAY_MCP_BIN", BIN)
        .env("RELAY_MCP_STORE", env.store())
        .output()
        .expect("run the AMP session");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "tests/mcp/test_amp_session.py failed:\nstdout: {stdout}\nstderr: {stderr}"
    );
    println!("{stdout}");
    assert!(stdout.contains("ok: the AMP example session"), "{stdout}");
    // What the session wrote is ordinary packages: the store verifies, and the CLI reads them.
    assert_eq!(env.run(&["verify"]).code, 0);
    let lessons = env.run(&["pull", "--latest", "10", "--type", "x-lesson", "--json"]);
    assert_eq!(lessons.json_lines().len(), 4);
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

#[test]
fn amp_over_http_stores_searches_lists_gets_and_deletes() {
    use crate::serve::{Served, curl, post_json};
    use serde_json::json;
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let post = |path: &str, body: serde_json::Value| post_json(&env, &server.at(path), &body);
    let (status, stored) = post(
        "/amp/store",
        json!({"operation": "store", "record": {"type": "lesson",
            "title": "Migrations need a lock timeout",
            "content": "Always run migrations with --lock-timeout 5s", "severity": "critical",
            "tags": ["db"]}}),
    );
    assert_eq!(status, 201, "{stored}");
    let id = stored["id"].as_str().unwrap().to_string();
    assert_eq!(stored, json!({"success": true, "id": id, "created": true}));
    let (status, bad) = post(
        "/amp/store",
        json!({"record": {"type": "lesson", "title": "x", "content": 7}}),
    );
    assert_eq!(
        (status, bad["error"].as_str()),
        (400, Some("invalid_input")),
        "{bad}"
    );
    assert_eq!(
        bad["message"],
        "record.content must be a string, not a number"
    );
    let (status, found) = post(
        "/amp/search",
        json!({"query": "migration lock", "type": "lesson"}),
    );
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["results"][0]["id"], id.as_str());
    assert_eq!(found["results"][0]["record"]["severity"], "critical");
    let (_, got) = curl(&env, &[&server.at(&format!("/amp/records/{id}"))]);
    assert_eq!(got["record"]["title"], "Migrations need a lock timeout");
    assert_eq!(got["record"]["project"], "demo");
    let (_, listed) = curl(&env, &[&server.at("/amp/records?type=lesson&limit=5")]);
    assert_eq!(
        (listed["total"].as_u64(), listed["has_more"].as_bool()),
        (Some(1), Some(false))
    );
    // A snippet is listed too (its type is not in the index of lessons and checkpoints).
    let (status, _) = post(
        "/amp/store",
        json!({"record": {"type": "snippet", "content": "fn main() {}\n",
            "file_path": "src/main.rs", "language": "rust"}}),
    );
    assert_eq!(status, 201);
    let (_, snippets) = curl(&env, &[&server.at("/amp/records?type=snippet")]);
    assert_eq!(snippets["total"], 1, "{snippets}");
    assert_eq!(snippets["records"][0]["file_path"], "src/main.rs");
    let (_, all) = curl(&env, &[&server.at("/amp/records")]);
    assert_eq!(all["total"], 2, "{all}");
    let (_, status_body) = curl(&env, &[&server.at("/amp/status")]);
    assert_eq!(status_body["stats"]["lessons"], 1, "{status_body}");
    assert_eq!(status_body["stats"]["snippets"], 1, "{status_body}");
    let (status, deleted) = curl(
        &env,
        &["-X", "DELETE", &server.at(&format!("/amp/records/{id}"))],
    );
    assert_eq!(
        (status, deleted["deleted"].as_bool()),
        (200, Some(true)),
        "{deleted}"
    );
    let (status, gone) = curl(&env, &[&server.at(&format!("/amp/records/{id}"))]);
    assert_eq!(
        (status, gone["error"].as_str()),
        (404, Some("package_not_found"))
    );
    // The CLI sees the retraction in the record's history.
    let history = env.run(&["pull", &id, "--history", "--json"]).json_lines();
    assert_eq!(
        history.last().unwrap()["retraction"]["reason"],
        "deleted through the Agent Memory Protocol"
    );
}
