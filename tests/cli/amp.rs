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

/// Issue 36: AMP over HTTP writes where `project` says (the record's, or `?project=`, and
/// never the default project instead), refuses parameters it does not take with 400 and
/// writes nothing, and keeps the reason the caller gave for a delete.
#[test]
fn amp_over_http_honours_project_refuses_unknown_parameters_and_keeps_the_reason() {
    use crate::serve::{Served, curl, logs, post_json};
    use serde_json::json;
    let env = Env::new();
    env.ok(&["projects", "create", "web"]);
    let server = Served::start(&env, &[]);
    let post = |path: &str, body: serde_json::Value| post_json(&env, &server.at(path), &body);
    let lesson = |title: &str| json!({"type": "lesson", "title": title, "content": "Pin the base image by digest"});
    let project_of = |id: &str| {
        let (_, got) = curl(&env, &[&server.at(&format!("/amp/records/{id}"))]);
        got["record"]["project"].as_str().unwrap().to_string()
    };
    // ?project= on store and on search.
    let (status, stored) = post(
        "/amp/store?project=web",
        json!({"record": lesson("Digests")}),
    );
    assert_eq!(status, 201, "{stored}");
    let by_query = stored["id"].as_str().unwrap().to_string();
    assert_eq!(project_of(&by_query), "web");
    let mut in_record = lesson("Digests, again");
    in_record["project"] = json!("web");
    let (status, stored) = post("/amp/store", json!({"record": in_record.clone()}));
    assert_eq!(status, 201, "{stored}");
    assert_eq!(project_of(stored["id"].as_str().unwrap()), "web");
    let (status, found) = post("/amp/search?project=web", json!({"query": "digest"}));
    assert_eq!((status, found["total"].as_u64()), (200, Some(2)), "{found}");
    // Issue 38: without a project, search covers every project the caller may read.
    let (_, found) = post("/amp/search", json!({"query": "digest"}));
    assert_eq!(found["total"], 2, "every project: {found}");
    let (_, found) = post("/amp/search", json!({"query": "digest", "project": "web"}));
    assert_eq!(found["total"], 2, "{found}");

    // Refused with 400, nothing written: unknown parameters in the query or the body, a
    // project named twice differently, another operation's name.
    // As on every route, a query parameter is `invalid_input` and a body member
    // `invalid_schema`.
    let before = logs(&env);
    let (input, schema) = ("invalid_input", "invalid_schema");
    for (path, body, code) in [
        (
            "/amp/store?projects=web",
            json!({"record": lesson("a")}),
            schema,
        ),
        (
            "/amp/store",
            json!({"record": lesson("b"), "project": "web"}),
            schema,
        ),
        (
            "/amp/store?project=demo",
            json!({"record": in_record}),
            input,
        ),
        (
            "/amp/store",
            json!({"operation": "search", "record": lesson("c")}),
            input,
        ),
        ("/amp/search?limit=3", json!({"query": "digest"}), schema),
        (
            "/amp/search",
            json!({"query": "digest", "colour": "red"}),
            schema,
        ),
        (
            "/amp/search?project=demo",
            json!({"query": "digest", "project": "web"}),
            input,
        ),
    ] {
        let (status, answer) = post(path, body.clone());
        assert_eq!(
            (status, answer["error"].as_str()),
            (400, Some(code)),
            "{path} {body}: {answer}"
        );
    }
    let (_, answer) = post(
        "/amp/store",
        json!({"record": lesson("b"), "project": "web"}),
    );
    assert!(
        (answer["message"].as_str().unwrap())
            .contains("an AMP store request takes `operation` and `record` only"),
        "{answer}"
    );
    for args in [
        vec![server.at(&format!("/amp/records/{by_query}?project=web"))],
        vec![server.at("/amp/records?colour=red")],
        vec![server.at("/amp/status?colour=red")],
        vec![
            "-X".into(),
            "DELETE".into(),
            server.at(&format!("/amp/records/{by_query}?why=old")),
        ],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (status, answer) = curl(&env, &args);
        // A parameter the route does not take is unknown: the request's shape is wrong.
        assert_eq!(
            (status, answer["error"].as_str()),
            (400, Some("invalid_schema")),
            "{args:?}: {answer}"
        );
    }
    assert!(logs(&env) == before, "a refused request wrote nothing");

    // The caller's reason is the retraction's, from the query string or the body.
    let (status, deleted) = curl(
        &env,
        &[
            "-X",
            "DELETE",
            &server.at(&format!(
                "/amp/records/{by_query}?reason=superseded%20by%20ADR-7"
            )),
        ],
    );
    assert_eq!(status, 200, "{deleted}");
    assert_eq!(deleted["retraction"]["reason"], "superseded by ADR-7");
    let (status, stored) = post("/amp/store", json!({"record": lesson("Third")}));
    assert_eq!(status, 201);
    let third = stored["id"].as_str().unwrap().to_string();
    let (status, deleted) = curl(
        &env,
        &[
            "-X",
            "DELETE",
            "-H",
            "Content-Type: application/json",
            "-d",
            r#"{"reason": "wrong project"}"#,
            &server.at(&format!("/amp/records/{third}")),
        ],
    );
    assert_eq!(status, 200, "{deleted}");
    let history = env
        .run(&["pull", &third, "--history", "--json"])
        .json_lines();
    assert_eq!(
        history.last().unwrap()["retraction"]["reason"],
        "wrong project"
    );
}

/// Issue 36: MCP `amp_store` writes into the record's `project`, and refuses a call whose
/// `project` argument names another, writing nothing.
#[test]
fn mcp_amp_store_honours_the_records_project() {
    use crate::mcp::{call, ok, serve, tool_error};
    use serde_json::json;
    let env = Env::new();
    env.ok(&["projects", "create", "web"]);
    let record = json!({"type": "lesson", "title": "Digests", "content": "Pin by digest",
        "project": "web"});
    let before = crate::serve::logs(&env);
    let replies = serve(
        &env,
        &[call(
            1,
            "amp_store",
            json!({"record": record.clone(), "project": "demo"}),
        )],
    );
    let (code, message) = tool_error(&replies[0]);
    assert_eq!(code, "invalid_input");
    assert!(
        message.contains("`demo`") && message.contains("`web`"),
        "{message}"
    );
    assert!(crate::serve::logs(&env) == before, "nothing written");
    let replies = serve(
        &env,
        &[
            call(2, "amp_store", json!({"record": record})),
            call(3, "amp_list", json!({"project": "web"})),
            call(4, "amp_list", json!({})),
        ],
    );
    let stored = ok(&replies[0]);
    let listed = ok(&replies[1]);
    assert_eq!(listed["total"], 1, "{listed}");
    assert_eq!(listed["records"][0]["id"], stored["id"]);
    assert_eq!(listed["records"][0]["project"], "web");
    // Issue 38: without a project, list covers every project.
    assert_eq!(ok(&replies[2])["total"], 1, "every project");
}
