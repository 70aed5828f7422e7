//! `relay mcp`: the MCP server over stdio, driven with raw JSON-RPC lines, and the official
//! Python SDK's client (tests/mcp) run against it.

use serde_json::{Value, json};

use crate::harness::{BIN, Env};

const TOOLS: [&str; 24] = [
    "amp_delete",
    "amp_get",
    "amp_list",
    "amp_search",
    "amp_status",
    "amp_store",
    "conformance",
    "deposit",
    "facts_assert",
    "facts_get",
    "facts_invalidate",
    "facts_list",
    "orchestrate",
    "orient",
    "pull",
    "retract",
    "review_approve",
    "review_flag",
    "review_list",
    "review_request_changes",
    "session_end",
    "session_start",
    "status",
    "watch",
];

fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

pub fn call(id: u64, tool: &str, arguments: Value) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
    )
}

fn initialize(version: &str) -> Value {
    request(
        0,
        "initialize",
        json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
    )
}

/// Runs `relay mcp` with `input` on stdin and returns every line it wrote to stdout, each of
/// which must be a JSON-RPC 2.0 message.
fn serve_raw(env: &Env, input: &str) -> Vec<Value> {
    serve_raw_with(env.command(&["mcp"]), input)
}

/// As [`serve`], with `command` (a `relay mcp` with its own flags or environment).
pub fn serve_with(command: std::process::Command, messages: &[Value]) -> Vec<Value> {
    let mut replies = serve_raw_with(command, &handshake(messages));
    assert_eq!(replies.remove(0)["id"], 0);
    replies
}

fn serve_raw_with(command: std::process::Command, input: &str) -> Vec<Value> {
    let r = Env::piped(command, input.as_bytes());
    assert_eq!(r.code, 0, "relay mcp failed: {}", r.stderr);
    let replies = r.json_lines();
    for reply in &replies {
        assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
    }
    replies
}

/// Sends `messages` (after an initialize handshake) and returns the replies.
pub fn serve(env: &Env, messages: &[Value]) -> Vec<Value> {
    serve_with(env.command(&["mcp"]), messages)
}

/// [`serve`] with messages given as JSON text, written as they are (a number keeps its
/// spelling).
pub fn serve_lines(env: &Env, lines: &[String]) -> Vec<Value> {
    let mut input = handshake(&[]);
    for line in lines {
        input.push_str(&format!("{line}\n"));
    }
    let mut replies = serve_raw_with(env.command(&["mcp"]), &input);
    assert_eq!(replies.remove(0)["id"], 0);
    replies
}

/// An initialize handshake, then `messages`, one a line.
fn handshake(messages: &[Value]) -> String {
    let mut input = format!(
        "{}\n{}\n",
        initialize("2025-06-18"),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    );
    for m in messages {
        input.push_str(&format!("{m}\n"));
    }
    input
}

/// A successful tool result's structured content, checked against its text.
#[track_caller]
pub fn ok(reply: &Value) -> Value {
    let result = &reply["result"];
    assert_eq!(result["isError"], false, "{reply}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(result["content"][0]["type"], "text");
    let structured = result["structuredContent"].clone();
    assert!(structured.is_object(), "{reply}");
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), structured);
    structured
}

/// A failed tool result's error code and message.
#[track_caller]
pub fn tool_error(reply: &Value) -> (String, String) {
    let result = &reply["result"];
    assert_eq!(result["isError"], true, "{reply}");
    let code = result["structuredContent"]["error"].as_str().unwrap();
    let message = result["structuredContent"]["message"].as_str().unwrap();
    assert_eq!(
        result["content"][0]["text"].as_str().unwrap(),
        format!("{code}: {message}")
    );
    (code.to_string(), message.to_string())
}

#[test]
fn mcp_initialize_negotiates_the_version_and_lists_every_tool_with_a_schema() {
    let env = Env::new();
    let input = [
        initialize("2024-11-05"),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        initialize("1999-01-01"),
        request(1, "ping", json!({})),
        request(2, "tools/list", json!({})),
    ]
    .map(|m| format!("{m}\n"))
    .concat();
    let replies = serve_raw(&env, &input);
    assert_eq!(replies.len(), 4, "a notification gets no reply");
    let init = &replies[0]["result"];
    assert_eq!(init["protocolVersion"], "2024-11-05");
    // Resources (each project's feed) are listed and read; stdio sends nothing unasked, so
    // it offers no subscriptions (relay serve's /mcp does).
    assert_eq!(
        init["capabilities"],
        json!({"tools": {}, "resources": {"subscribe": false, "listChanged": false}})
    );
    assert_eq!(init["serverInfo"]["name"], "relay");
    assert_eq!(init["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(init["instructions"].as_str().unwrap().contains("`orient`"));
    // Both the server's description and its instructions point at the conformance tool.
    assert_eq!(
        init["serverInfo"]["description"],
        "Shared context for agents and humans: an Agentic Protocol v0.1 store at conformance \
         level L3. The `conformance` tool returns the §11.5 descriptor."
    );
    assert!(init["instructions"].as_str().unwrap().contains(
        "`conformance` says what this server implements (Agentic Protocol §11.5): level L3; \
             relevant pull is keyword search (BM25), and semantic or hybrid search when a model \
             is configured."
    ));
    assert_eq!(replies[1]["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(replies[2], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));

    let tools = replies[3]["result"]["tools"].as_array().unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(names, TOOLS);
    for t in tools {
        let s = &t["inputSchema"];
        assert_eq!(s["type"], "object", "{t}");
        assert_eq!(s["additionalProperties"], false, "{t}");
        assert!(t["description"].as_str().is_some_and(|d| d.len() > 20));
        for (name, p) in s["properties"].as_object().unwrap() {
            // One type, or a few (a fact's value: a string or a number, §7.1).
            let typed = p["type"].is_string()
                || p["type"]
                    .as_array()
                    .is_some_and(|k| k.iter().all(Value::is_string));
            assert!(typed, "{name} of {t}");
            assert!(p["description"].is_string(), "{name} of {t}");
        }
        for r in s["required"].as_array().unwrap() {
            assert!(s["properties"].get(r.as_str().unwrap()).is_some(), "{t}");
        }
    }
    let required = |name: &str| {
        tools.iter().find(|t| t["name"] == name).unwrap()["inputSchema"]["required"].clone()
    };
    // §8.1: the title may come in `package` (issue 38), so the schema requires nothing.
    assert_eq!(required("deposit"), json!([]));
    assert_eq!(required("pull"), json!(["mode"]));
    assert_eq!(
        required("facts_assert"),
        json!(["subject", "predicate", "value"])
    );
    for read_only in ["orient", "conformance"] {
        let tool = tools.iter().find(|t| t["name"] == read_only).unwrap();
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
    }
}

#[test]
fn mcp_deposit_and_pull_latest_specific_and_relevant_answer_like_the_cli() {
    let env = Env::new();
    let replies = serve(
        &env,
        &[call(
            1,
            "deposit",
            json!({
                "title": "Moved sessions to Redis",
                "decisions_made": ["Redis over Postgres for sessions: fewer writes"],
                "open_questions": ["Do we need persistence across restarts?"],
                "handoff_note": "Load-test before Friday",
                "tags": ["infra"],
                "significance": 7,
                // `score` and `matched` are the package's own: a relevant pull keeps them.
                "package": {"x-origin": "mcp-test", "tags": ["cache"], "score": 1, "matched": "own"},
                "actor": "claude",
                "actor_type": "agent",
            }),
        )],
    );
    let deposited = ok(&replies[0]);
    let pkg = &deposited["package"];
    let id = pkg["package_id"].as_str().unwrap();
    assert_eq!(pkg["created_by"], json!({"id": "claude", "type": "agent"}));
    assert_eq!(pkg["tags"], json!(["cache", "infra"]), "lists are added to");
    assert_eq!(pkg["x-origin"], "mcp-test");
    assert_eq!(pkg["significance"], 7);
    // The same envelope the CLI stored and prints.
    let line: Value = serde_json::from_str(&env.package_lines("demo")[0]).unwrap();
    assert_eq!(deposited, line);
    env.deposit("Unrelated: renamed the logo files", &[]);

    let replies = serve(
        &env,
        &[
            call(1, "pull", json!({"mode": "specific", "id": id})),
            call(2, "pull", json!({"mode": "latest", "limit": 1})),
            call(
                3,
                "pull",
                json!({"mode": "relevant", "query": "redis persistence"}),
            ),
            call(
                4,
                "pull",
                json!({"mode": "latest", "tags": ["infra"], "history": false}),
            ),
            call(
                5,
                "pull",
                json!({"mode": "specific", "id": id, "history": true}),
            ),
        ],
    );
    // The package as stored, and among its members the verdict on its signature.
    let mut one = ok(&replies[0]);
    let cli = env.ok_json(&["pull", id]);
    assert_eq!(one["x-signature"], cli["x-signature"]);
    one.as_object_mut().unwrap().remove("x-signature");
    assert_eq!(one, cli["package"]);
    let latest = ok(&replies[1]);
    assert_eq!(latest["packages"].as_array().unwrap().len(), 1);
    assert_eq!(
        latest["packages"][0],
        env.ok_json(&["pull", "--latest", "1"])["package"]
    );
    let relevant = ok(&replies[2]);
    // The spec's mapping: the CLI's envelopes without the CLI's own `x-stale`.
    let mut cli = env
        .run(&["search", "redis persistence", "--json"])
        .json_lines();
    for line in &mut cli {
        assert_eq!(
            line.as_object_mut().unwrap().remove("x-stale"),
            Some(json!([]))
        );
    }
    assert_eq!(relevant["packages"], json!(cli));
    // One envelope per result: the package as stored, the ranking beside it.
    let top = &relevant["packages"][0];
    assert_eq!(top["package"], *pkg);
    assert_eq!(top["package"]["score"], 1);
    assert_eq!(top["package"]["matched"], "own");
    assert!(top["score"].as_f64().unwrap() > 0.0);
    assert_eq!(
        top["matched"],
        json!(["title", "decisions_made", "open_questions"])
    );
    assert_eq!(top.as_object().unwrap().len(), 3);
    let tagged = ok(&replies[3]);
    assert_eq!(tagged["packages"].as_array().unwrap().len(), 1);
    // Each version as stored, with the verdict on its signature.
    let mut versions = ok(&replies[4])["versions"].take();
    let version = versions[0].as_object_mut().unwrap();
    let seal = version.remove("signature");
    assert_eq!(seal, Some(json!({"verdict": "unsigned", "fails": false})));
    assert_eq!(versions, json!([line]));
}

#[test]
fn mcp_orient_orchestrate_facts_and_status_answer_like_the_cli() {
    let env = Env::new();
    env.deposit(
        "Dashboard shipped",
        &[
            "--question",
            "Who owns on-call?",
            "--handoff",
            "Watch the error rate",
        ],
    );
    let replies = serve(
        &env,
        &[
            call(
                1,
                "facts_assert",
                json!({"subject": "dashboard", "predicate": "status", "value": "live", "tags": ["ops"]}),
            ),
            call(
                2,
                "facts_get",
                json!({"subject": "dashboard", "predicate": "status"}),
            ),
            call(3, "orient", json!({"window_days": 7})),
            call(4, "facts_list", json!({"subject": "dashboard"})),
            call(
                5,
                "orchestrate",
                json!({"focus": "dashboard", "all_projects": false, "project": "demo"}),
            ),
            call(6, "status", json!({})),
        ],
    );
    let asserted = ok(&replies[0]);
    let fact = asserted["fact"].clone();
    assert_eq!(
        (&fact["value"], &fact["tags"]),
        (&json!("live"), &json!(["ops"]))
    );
    assert_eq!(
        (&asserted["unchanged"], &asserted["superseded"]),
        (&json!(false), &json!([]))
    );
    assert_eq!(ok(&replies[1]), fact);
    let orient = ok(&replies[2]);
    let mut cli = env.ok_json(&["orient", "--window-days", "7"]);
    cli["generated_at"] = orient["generated_at"].clone();
    assert_eq!(orient, cli);
    assert_eq!(orient["active_facts"], json!([fact]));
    assert_eq!(orient["open_questions"], json!(["Who owns on-call?"]));
    assert_eq!(ok(&replies[3])["facts"], json!([fact]));
    let digest = ok(&replies[4]);
    assert_eq!(digest["focus"], "dashboard");
    let status = ok(&replies[5]);
    assert_eq!(status["packages"], 1);
    assert_eq!(status["facts"]["live"], 1);
    let replies = serve(
        &env,
        &[
            call(
                1,
                "facts_invalidate",
                json!({"subject": "dashboard", "predicate": "status"}),
            ),
            call(
                2,
                "facts_get",
                json!({"subject": "dashboard", "predicate": "status"}),
            ),
        ],
    );
    assert_eq!(ok(&replies[0]), json!({"invalidated": 1}));
    assert_eq!(tool_error(&replies[1]).0, "fact_not_found");
    assert_eq!(env.ok_json(&["status"])["facts"]["live"], 0);
}

/// Issue 38: deposit takes `package`, the whole §6 package as §8.1 names it, and pull takes
/// `package_id` as §8.2 names it; the tools' original names keep working.
#[test]
fn mcp_deposit_takes_the_spec_s_package_and_pull_its_package_id() {
    let env = Env::new();
    let whole = json!({
        "title": "Cache warmed at boot",
        "decisions_made": ["Warm the cache from the last snapshot"],
        "handoff_note": "Measure cold starts next",
        "tags": ["cache"],
        "x-origin": "spec-shaped",
    });
    let replies = serve(
        &env,
        &[
            call(1, "deposit", json!({ "package": whole })),
            call(
                2,
                "deposit",
                json!({"package": {"title": "From the package", "tags": ["a"]}, "title": "Named", "tags": ["b"]}),
            ),
            call(
                3,
                "deposit",
                json!({"package": {"description": "no title"}}),
            ),
        ],
    );
    let spec = ok(&replies[0])["package"].clone();
    for key in [
        "title",
        "decisions_made",
        "handoff_note",
        "tags",
        "x-origin",
    ] {
        assert_eq!(spec[key], whole[key], "{key}");
    }
    let named = ok(&replies[1])["package"].clone();
    assert_eq!(
        named["title"], "Named",
        "a named argument overrides the package"
    );
    assert_eq!(named["tags"], json!(["a", "b"]), "and adds to its lists");
    let (code, message) = tool_error(&replies[2]);
    assert_eq!(code, "invalid_schema");
    assert!(message.contains("`title` is required"), "{message}");

    let id = spec["package_id"].as_str().unwrap();
    let replies = serve(
        &env,
        &[
            call(1, "pull", json!({"mode": "specific", "package_id": id})),
            call(2, "pull", json!({"mode": "specific", "id": id})),
            call(
                3,
                "pull",
                json!({"mode": "specific", "package_id": id, "id": id}),
            ),
            call(
                4,
                "pull",
                json!({"mode": "specific", "package_id": id, "id": named["package_id"]}),
            ),
            call(5, "pull", json!({"mode": "specific"})),
            call(6, "pull", json!({"mode": "latest", "package_id": id})),
        ],
    );
    for reply in &replies[..3] {
        let mut one = ok(reply);
        assert_eq!(
            one["x-signature"],
            json!({"verdict": "unsigned", "fails": false})
        );
        one.as_object_mut().unwrap().remove("x-signature");
        assert_eq!(one, spec);
    }
    let (code, message) = tool_error(&replies[3]);
    assert_eq!(code, "invalid_input");
    assert!(message.contains("name different packages"), "{message}");
    let message = tool_error(&replies[4]).1;
    assert!(
        message.contains("`package_id` is required by mode `specific`"),
        "{message}"
    );
    let message = tool_error(&replies[5]).1;
    assert!(
        message.contains("`package_id` does not apply to mode `latest`"),
        "{message}"
    );
}

#[test]
fn mcp_review_and_sessions_go_through_the_same_operations() {
    let env = Env::new();
    const PKG: &str = "pkg_0123456789abcdef0123456789abcdef";
    let replies = serve(
        &env,
        &[
            call(
                1,
                "session_start",
                json!({"actor": "claude", "actor_type": "agent", "callsign": "coral-heron"}),
            ),
            call(
                2,
                "deposit",
                json!({"title": "Schema migration plan", "status": "draft", "package_id": PKG}),
            ),
            call(
                3,
                "review_flag",
                // An agent's review: the session's actor, claude, is an agent (§5.3).
                json!({"package_id": PKG, "review_type": "agent", "note": "Needs a DBA"}),
            ),
            call(4, "review_list", json!({"review_type": "agent"})),
        ],
    );
    let session = ok(&replies[0]);
    assert_eq!(session["callsign"], "coral-heron");
    let sid = session["session_id"].as_str().unwrap();
    let pkg = ok(&replies[1]);
    let by = &pkg["package"]["created_by"];
    assert_eq!(by["session_id"], sid, "the session is current");
    assert_eq!(by["id"], "claude");
    let flagged = ok(&replies[2]);
    assert_eq!(flagged["package"]["status"], "awaiting_review");
    assert_eq!(flagged["transition"]["note"], "Needs a DBA");
    assert_eq!(
        ok(&replies[3])["packages"],
        json!(env.run(&["review", "list", "--json"]).json_lines())
    );

    let replies = serve(
        &env,
        &[
            call(
                1,
                "review_request_changes",
                json!({"package_id": PKG, "note": "Add a rollback step"}),
            ),
            call(2, "review_approve", json!({"package_id": PKG})),
            call(3, "review_approve", json!({"package_id": PKG})),
            call(4, "session_end", json!({})),
        ],
    );
    let sent_back = ok(&replies[0]);
    assert_eq!(sent_back["package"]["status"], "revision_requested");
    assert_eq!(ok(&replies[1])["package"]["status"], "complete");
    let (code, message) = tool_error(&replies[2]);
    assert_eq!(code, "invalid_transition");
    assert!(message.contains("--parent"), "the CLI's hint: {message}");
    let ended = ok(&replies[3]);
    assert_eq!(ended["session_id"], sid);
    assert!(ended["ended_at"].is_string());
    assert_eq!(ended["packages_deposited"], json!([PKG]));
}

#[test]
fn mcp_retract_hides_a_package_from_pull_and_history_keeps_it() {
    let env = Env::new();
    const PKG: &str = "pkg_00000000000000000000000000000abc";
    let replies = serve(
        &env,
        &[
            call(
                1,
                "deposit",
                json!({"title": "Wrong numbers", "package_id": PKG}),
            ),
            call(
                2,
                "retract",
                json!({"id": PKG, "reason": "From a debug build", "actor": "claude"}),
            ),
            call(3, "pull", json!({"mode": "latest"})),
            call(4, "pull", json!({"mode": "specific", "id": PKG})),
            call(
                5,
                "pull",
                json!({"mode": "specific", "id": PKG, "include_retracted": true}),
            ),
            call(6, "retract", json!({"id": "pkg_nope", "reason": "x"})),
        ],
    );
    let done = ok(&replies[1]);
    assert_eq!(done["retraction"]["record"], "package");
    assert_eq!(done["retraction"]["retracted_by"]["id"], "claude");
    assert_eq!(done["unchanged"], false);
    assert_eq!(ok(&replies[2])["packages"], json!([]));
    let (code, message) = tool_error(&replies[3]);
    assert_eq!(code, "package_not_found");
    assert!(message.contains("From a debug build"), "{message}");
    assert_eq!(ok(&replies[4])["title"], "Wrong numbers");
    assert_eq!(tool_error(&replies[5]).0, "invalid_input");
    let history = env.run(&["pull", PKG, "--history", "--json"]).json_lines();
    assert_eq!(history[1]["retraction"]["reason"], "From a debug build");
}

#[test]
fn mcp_tool_errors_name_the_spec_code_and_protocol_errors_are_json_rpc_errors() {
    let env = Env::new();
    env.ok(&["projects", "create", "web"]);
    let mut input = String::new();
    for m in [
        initialize("2025-06-18"),
        call(
            1,
            "pull",
            json!({"mode": "specific", "id": "pkg_00000000000000000000000000000000"}),
        ),
        json!("not a request"),
        request(3, "prompts/list", json!({})),
        call(4, "no_such_tool", json!({})),
        call(5, "deposit", json!({"description": "no title"})),
        call(6, "pull", json!({"mode": "latest", "limit": "ten"})),
        call(7, "pull", json!({"mode": "latest", "colour": "red"})),
        call(8, "pull", json!({"mode": "latest", "query": "x"})),
        call(
            9,
            "deposit",
            json!({"title": "t", "handoff_note": "deploy with AKIAIOSFODNN7EXAMPLE"}),
        ),
        call(10, "deposit", json!({"title": "t", "project": "nope"})),
        call(
            11,
            "deposit",
            json!({"title": "Landing page", "project": "web"}),
        ),
        call(12, "orient", json!({"project": "web"})),
        request(
            13,
            "tools/call",
            json!({"name": "status", "arguments": [1]}),
        ),
        call(
            16,
            "orchestrate",
            json!({"all_projects": true, "project": "web"}),
        ),
    ] {
        input.push_str(&format!("{m}\n"));
    }
    input.push_str("{\"jsonrpc\": \"2.0\", \"id\": 14, \"method\": \n");
    input.push_str("\n   \n");
    input.push_str(&format!("{}", request(15, "ping", json!({}))));
    let replies = serve_raw(&env, &input);
    let by_id = |id: u64| replies.iter().find(|r| r["id"] == id).unwrap();
    let rpc_error = |r: &Value| r["error"]["code"].as_i64().unwrap();

    let (code, message) = tool_error(by_id(1));
    assert_eq!(code, "package_not_found");
    assert!(message.contains("pkg_00000000000000000000000000000000"));
    let invalid = replies
        .iter()
        .find(|r| r["id"].is_null() && rpc_error(r) == -32600);
    assert!(invalid.is_some(), "{replies:?}");
    assert_eq!(rpc_error(by_id(3)), -32601);
    assert_eq!(rpc_error(by_id(4)), -32602);
    assert!(
        by_id(4)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no_such_tool")
    );
    let (code, message) = tool_error(by_id(5));
    assert_eq!(code, "invalid_schema");
    assert!(message.contains("`title` is required"), "{message}");
    assert!(
        tool_error(by_id(6))
            .1
            .contains("`limit` must be an integer")
    );
    assert!(
        tool_error(by_id(7))
            .1
            .contains("`colour` is not an argument of")
    );
    assert!(
        tool_error(by_id(8))
            .1
            .contains("`query` does not apply to mode `latest`")
    );
    let (code, message) = tool_error(by_id(9));
    assert_eq!(code, "secret_detected");
    assert!(!message.contains("AKIAIOSFODNN7EXAMPLE"));
    assert_eq!(tool_error(by_id(10)).0, "project_not_found");
    let landed = ok(by_id(11));
    assert_eq!(landed["package"]["project_id"], "web");
    assert_eq!(ok(by_id(12))["recent_packages"][0], landed["package"]);
    assert_eq!(rpc_error(by_id(13)), -32602);
    assert!(tool_error(by_id(16)).1.contains("cannot be used together"));
    // A line that is not JSON gets a parse error; blank lines are skipped; the server goes on.
    assert!(
        replies
            .iter()
            .any(|r| r["id"].is_null() && rpc_error(r) == -32700)
    );
    assert_eq!(by_id(15)["result"], json!({}));
    assert_eq!(replies.len(), 17, "{replies:#?}");
    assert_eq!(
        env.package_lines("demo").len(),
        0,
        "nothing failed was written"
    );
}

#[test]
fn mcp_conformance_is_the_11_5_descriptor_of_relay_conformance_even_without_a_store() {
    let expected = json!({
        "protocol_version": "0.1",
        "conformance_level": "L3",
        "capabilities": {
            "hybrid_search": false,
            "semantic_search": false,
            "realtime": true,
            "blob_storage": false,
            "x-keyword_search": true,
            "x-expiry": true,
            "x-retraction": true,
            "x-signed_records": true,
        },
        "implementation": {"name": "relay", "version": env!("CARGO_PKG_VERSION")},
    });
    for env in [Env::new(), Env::empty()] {
        let replies = serve(&env, &[call(1, "conformance", json!({}))]);
        let got = ok(&replies[0]);
        // Exact, member order included.
        assert_eq!(got.to_string(), expected.to_string());
        assert_eq!(got, env.ok_json(&["conformance"]));
    }
}

#[test]
fn mcp_without_a_store_says_to_run_relay_init() {
    let env = Env::empty();
    let replies = serve(&env, &[call(1, "status", json!({}))]);
    let (code, message) = tool_error(&replies[0]);
    assert_eq!(code, "store_not_found");
    assert!(message.contains("relay init"), "{message}");
}

/// The official Python SDK's client (`mcp` on PyPI, version pinned in
/// tests/mcp/requirements.txt) against `relay mcp`. `.ci/run` installs it into a venv and sets
/// RELAY_MCP_PYTHON to that venv's python.
#[test]
fn mcp_official_python_sdk_client() {
    // Read here: the harness keeps RELAY_* out of the programs it starts.
    let Some(python) = std::env::var("RELAY_MCP_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
    else {
        println!("skipped: set RELAY_MCP_PYTHON (.ci/run does)");
        return;
    };
    let env = Env::new();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp/test_mcp_client.py");
    let out = env
        .program(&python, &[script])
        .env("RELAY_MCP_BIN", BIN)
        .env("RELAY_MCP_STORE", env.store())
        .output()
        .expect("run the Python MCP client test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "tests/mcp/test_mcp_client.py failed:\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.contains("ok:"), "{stdout}");
}

/// The source rule of `facts assert --source` and of import holds over MCP too: the source
/// must be a package of the fact's own project.
#[test]
fn mcp_facts_assert_checks_its_source_as_the_cli_and_import_do() {
    let env = Env::new();
    env.ok(&["projects", "create", "other"]);
    let elsewhere = env.deposit("In other", &["--project", "other"]);
    let replies = serve(
        &env,
        &[call(
            1,
            "facts_assert",
            json!({"subject": "s", "predicate": "p", "value": "v", "source_package_id": elsewhere}),
        )],
    );
    let (code, message) = tool_error(&replies[0]);
    assert_eq!(code, "package_not_found");
    assert_eq!(
        message,
        format!("no package with id `{elsewhere}` in this store")
    );
    let cli = env.run(&[
        "facts", "assert", "s", "p", "v", "--source", &elsewhere, "--json",
    ]);
    assert_eq!(
        (cli.code, cli.error()["error"].as_str()),
        (1, Some("package_not_found"))
    );
}

#[test]
fn mcp_watch_returns_new_records_and_a_cursor_to_resume_from() {
    let env = Env::new();
    let first = ok(&serve(&env, &[call(1, "watch", json!({}))])[0]);
    assert_eq!(first["events"], json!([]));
    let cursor = first["cursor"].as_str().unwrap().to_string();
    let a = env.deposit("alpha", &[]);
    let b = env.deposit("beta", &[]);
    let replies = serve(
        &env,
        &[
            call(1, "watch", json!({"since": cursor, "limit": 1})),
            call(
                2,
                "watch",
                json!({"since": cursor, "kinds": "fact", "wait_ms": 50}),
            ),
            call(3, "watch", json!({"since": "yesterday"})),
        ],
    );
    let one = ok(&replies[0]);
    assert_eq!(one["events"].as_array().unwrap().len(), 1);
    let event = &one["events"][0];
    assert_eq!(event["kind"], "package");
    assert_eq!(event["record"]["package"]["package_id"], a.as_str());
    assert_eq!(one["cursor"], event["cursor"]);
    // No fact came: an empty list after the wait, and a cursor past the packages.
    let facts = ok(&replies[1]);
    assert_eq!(facts["events"], json!([]));
    let (code, message) = tool_error(&replies[2]);
    assert_eq!(code, "invalid_input");
    assert!(message.contains("not a watch cursor"), "{message}");

    let rest = ok(&serve(&env, &[call(1, "watch", json!({"since": one["cursor"]}))])[0]);
    let ids: Vec<&Value> = rest["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["record"]["package"]["package_id"])
        .collect();
    assert_eq!(ids, [&json!(b)]);
    let after = ok(&serve(&env, &[call(1, "watch", json!({"since": facts["cursor"]}))])[0]);
    assert_eq!(after["events"], json!([]));
}

#[test]
fn mcp_orient_fits_max_chars_or_max_tokens_and_counts_what_it_left_out() {
    let env = Env::new();
    env.deposit("Dashboard shipped", &["--question", "Who owns on-call?"]);
    let replies = serve(
        &env,
        &[
            call(1, "orient", json!({"max_chars": 100000})),
            call(2, "orient", json!({"max_tokens": 1})),
            call(3, "orient", json!({"max_chars": 1, "max_tokens": 1})),
            call(4, "orient", json!({"max_tokens": 150})),
        ],
    );
    let roomy = ok(&replies[0]);
    assert_eq!(
        roomy["x-omitted"],
        json!({"recent_packages": 0, "open_questions": 0, "active_facts": 0, "x-lessons": 0,
            "x-checkpoints": 0, "commands": []})
    );
    let (code, message) = tool_error(&replies[1]);
    assert_eq!(code, "invalid_input");
    assert!(
        message.starts_with("a budget of 4 characters is too small"),
        "{message}"
    );
    assert_eq!(
        tool_error(&replies[2]),
        (
            "invalid_input".to_string(),
            "`max_chars` and `max_tokens` cannot be used together".to_string()
        )
    );
    let fitted = ok(&replies[3]);
    assert!(fitted.to_string().chars().count() <= 600, "{fitted}");
    assert_eq!(fitted["x-omitted"]["recent_packages"], 1, "{fitted}");
    assert_eq!(
        fitted["x-omitted"]["commands"],
        json!(["relay pull --project demo --latest 1"])
    );
}

/// Each project's feed is a resource, listed and read (its newest packages, as `pull` gives
/// them); stdio sends nothing unasked, so subscribing is for `relay serve`'s /mcp.
#[test]
fn mcp_resources_list_and_read_each_project_s_feed() {
    let env = Env::new();
    let id = env.deposit("Feed entry", &[]);
    let replies = serve(
        &env,
        &[
            request(2, "resources/list", json!({})),
            request(
                3,
                "resources/read",
                json!({"uri": "relay://projects/demo/packages"}),
            ),
            request(
                4,
                "resources/read",
                json!({"uri": "relay://projects/nope/packages"}),
            ),
            request(
                5,
                "resources/subscribe",
                json!({"uri": "relay://projects/demo/packages"}),
            ),
        ],
    );
    let listed = &replies[0]["result"]["resources"];
    assert_eq!(
        listed[0]["uri"], "relay://projects/demo/packages",
        "{listed}"
    );
    assert_eq!(listed[0]["mimeType"], "application/json");
    let text = replies[1]["result"]["contents"][0]["text"]
        .as_str()
        .unwrap();
    let packages: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        packages["packages"][0]["package_id"],
        id.as_str(),
        "{packages}"
    );
    assert_eq!(replies[2]["error"]["code"], -32002, "{}", replies[2]);
    assert_eq!(replies[3]["error"]["code"], -32601, "{}", replies[3]);
}
