//! Snapshot reads: `--as-of TIME` reads the store as it stood then, the same bytes however
//! much is written since (reviews, deposits, facts superseded, retractions).

use serde_json::Value;

use crate::harness::{Env, snapshot};

#[test]
fn as_of_reproduces_an_earlier_orient_byte_for_byte_whatever_is_written_since() {
    let env = Env::new();
    env.ok(&["facts", "assert", "api", "status", "beta"]);
    env.ok(&[
        "lesson",
        "add",
        "Migrations need a lock timeout",
        "--content",
        "Use --lock-timeout 5s",
        "--severity",
        "critical",
    ]);
    env.ok(&[
        "checkpoint",
        "--working-on",
        "the schema plan",
        "--actor",
        "claude",
    ]);
    let first = env.ok_json(&[
        "deposit",
        "--title",
        "Schema plan",
        "--status",
        "awaiting_review",
        "--review",
        "human",
        "--question",
        "Which index first?",
        "--handoff",
        "Review the plan",
    ]);
    let id = first["package"]["package_id"].as_str().unwrap().to_string();
    let t = first["package"]["created_at"].as_str().unwrap().to_string();
    let reads = |env: &Env| -> Vec<String> {
        [
            vec!["orient", "--as-of", &t, "--json"],
            vec!["orient", "--as-of", &t],
            vec!["pull", "--latest", "10", "--as-of", &t, "--json"],
            vec!["pull", &id, "--as-of", &t, "--json"],
            vec!["facts", "list", "--as-of", &t, "--json"],
            vec!["lesson", "list", "--as-of", &t, "--json"],
            vec!["checkpoint", "show", "--as-of", &t, "--json"],
        ]
        .iter()
        .map(|args| env.ok(args))
        .collect()
    };
    let before = reads(&env);
    // What happens next changes the store, but not the store as it stood at t.
    env.ok(&["review", "approve", &id, "--note", "Go"]);
    env.deposit("A later package", &["--decision", "Later decision"]);
    env.ok(&["facts", "assert", "api", "status", "live"]);
    env.ok(&[
        "facts",
        "assert",
        "api",
        "owner",
        "ana",
        "--valid-from",
        "2020-01-01",
    ]);
    env.ok(&["retract", &id, "--reason", "Replaced"]);
    env.ok(&[
        "lesson",
        "add",
        "A later lesson",
        "--content",
        "x",
        "--severity",
        "critical",
    ]);
    env.ok(&[
        "checkpoint",
        "--working-on",
        "something later",
        "--actor",
        "claude",
    ]);
    assert_eq!(reads(&env), before);

    let orient: Value = serde_json::from_str(&before[0]).unwrap();
    assert_eq!(orient["generated_at"], Value::String(t.clone()));
    assert_eq!(
        orient["open_questions"],
        serde_json::json!(["Which index first?"])
    );
    assert_eq!(orient["x-lessons"].as_array().unwrap().len(), 1, "{orient}");
    assert_eq!(
        orient["x-checkpoints"][0]["x-working-on"],
        "the schema plan"
    );
    let pulled: Value = serde_json::from_str(&before[3]).unwrap();
    assert_eq!(
        pulled["package"]["status"], "awaiting_review",
        "the version current then"
    );
    let facts: Vec<Value> = before[4]
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        facts.len(),
        1,
        "a fact recorded since is left out, even backdated"
    );
    assert_eq!(facts[0]["value"], "beta");
    // Now, the same reads see what was written.
    assert_eq!(env.run(&["pull", &id]).code, 1, "retracted now");
    assert_eq!(
        env.ok_json(&["facts", "get", "api", "status"])["value"],
        "live"
    );
}

#[test]
fn as_of_before_the_project_or_in_the_future_reads_with_a_note() {
    let env = Env::new();
    let id = env.deposit("Only package", &[]);
    let run = env.run(&["pull", &id, "--as-of", "2001-01-01", "--json"]);
    assert_eq!(run.code, 1);
    // "did not exist yet"
    snapshot!("as_of_before_the_package", run.transcript());
    for args in [
        vec!["pull", "--latest", "--as-of", "2001-01-01"],
        vec!["search", "package", "--as-of", "2001-01-01"],
        vec!["session", "list", "--as-of", "2001-01-01"],
    ] {
        let early = env.run(&args);
        assert_eq!((early.code, early.stdout.as_str()), (0, ""), "{args:?}");
        // "--as-of 2001-01-01T00:00:00.000000Z is before project `demo` was created"
        let name = format!("as_of_before_the_project-{}", args[0]);
        snapshot!(name, early.transcript());
    }
    let future = env.run(&["orient", "--as-of", "2999-01-01"]);
    assert_eq!(future.code, 0, "{}", future.stderr);
    // "is in the future"
    snapshot!("as_of_in_the_future", future.stderr);
    // A time inside the store's life says nothing; --json keeps stderr for errors.
    let second = env.ok_json(&["deposit", "--title", "Second package"]);
    let t = second["package"]["created_at"].as_str().unwrap();
    let now = env.run(&["pull", "--latest", "--as-of", t]);
    assert_eq!(now.stderr, "");
    let early = env.run(&["pull", "--latest", "--as-of", "2001-01-01", "--json"]);
    assert_eq!((early.stdout.as_str(), early.stderr.as_str()), ("", ""));
}

#[test]
fn search_relevant_pull_orchestrate_and_sessions_as_of_rank_and_list_the_store_as_it_stood() {
    let env = Env::new();
    env.ok(&["session", "start", "--actor", "agent-a"]);
    let first = env.deposit(
        "Cache eviction policy",
        &[
            "--decision",
            "Evict least recently used",
            "--actor",
            "agent-a",
        ],
    );
    let second = env.ok_json(&[
        "deposit",
        "--title",
        "Cache warmup on deploy",
        "--question",
        "Warm which keys?",
        "--actor",
        "agent-a",
    ]);
    let t = second["package"]["created_at"]
        .as_str()
        .unwrap()
        .to_string();
    let model = crate::search_semantic::test_model();
    let model_dir = model.as_ref().map(|m| m.display().to_string());
    let reads = |env: &Env| -> Vec<String> {
        let mut all = vec![
            vec!["search", "cache", "--as-of", &t, "--json"],
            vec!["search", "cache", "--as-of", &t],
            vec![
                "pull",
                "--relevant",
                "cache eviction",
                "--as-of",
                &t,
                "--json",
            ],
            vec!["orchestrate", "--as-of", &t, "--json"],
            vec!["orchestrate", "--focus", "cache", "--as-of", &t, "--json"],
            vec!["orchestrate", "--as-of", &t],
            vec!["session", "list", "--as-of", &t, "--json"],
        ];
        if let Some(m) = &model_dir {
            for mode in ["semantic", "hybrid"] {
                all.push(vec![
                    "search", "caching", "--mode", mode, "--model", m, "--as-of", &t, "--json",
                ]);
            }
        }
        all.iter().map(|args| env.ok(args)).collect()
    };
    let before = reads(&env);
    // Later writes: the session ends, a package that matches better, a retraction, a review.
    env.ok(&["session", "end"]);
    env.deposit(
        "Cache cache cache: the cache layer",
        &["--question", "Later?"],
    );
    env.ok(&["retract", &first, "--reason", "Superseded"]);
    assert_eq!(reads(&env), before);

    let hits: Vec<Value> = before[0]
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let titles: Vec<&str> = hits
        .iter()
        .map(|h| h["package"]["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert!(titles.contains(&"Cache eviction policy"), "{titles:?}");
    let digest: Value = serde_json::from_str(&before[3]).unwrap();
    assert_eq!(digest["generated_at"], Value::String(t.clone()));
    assert_eq!(
        digest["open_questions"],
        serde_json::json!(["Warm which keys?"])
    );
    let session: Value = serde_json::from_str(before[6].trim()).unwrap();
    assert_eq!(
        session["ended_at"],
        Value::Null,
        "open at the time: {session}"
    );
    assert_eq!(
        session["packages_deposited"].as_array().unwrap().len(),
        2,
        "{session}"
    );
    // Now: the retracted package is gone from search, the session has ended.
    let now = env.ok(&["search", "cache", "--json"]);
    assert!(!now.contains("Cache eviction policy"), "{now}");
    let sessions = env.ok_json(&["session", "list"]);
    assert!(sessions["ended_at"].is_string(), "{sessions}");
}

#[test]
fn mcp_and_http_take_as_of_like_the_cli() {
    let env = Env::new();
    let first = env.ok_json(&["deposit", "--title", "Cache plan", "--question", "Which?"]);
    let t = first["package"]["created_at"].as_str().unwrap().to_string();
    env.deposit("Cache later", &["--question", "Later?"]);
    // Memory and a session that came after t.
    env.ok(&["lesson", "add", "Later lesson", "--content", "x"]);
    env.ok(&["session", "start", "--actor", "agent-a"]);
    let calls = [
        ("orient", serde_json::json!({"as_of": t})),
        (
            "pull",
            serde_json::json!({"mode": "latest", "limit": 10, "as_of": t}),
        ),
        (
            "pull",
            serde_json::json!({"mode": "relevant", "query": "cache", "as_of": t}),
        ),
        ("orchestrate", serde_json::json!({"as_of": t})),
        ("amp_list", serde_json::json!({"as_of": t})),
        ("amp_list", serde_json::json!({})),
    ];
    let mut input = String::from(
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n",
    );
    for (i, (tool, args)) in calls.iter().enumerate() {
        let call = serde_json::json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
            "params": {"name": tool, "arguments": args}});
        input.push_str(&format!("{call}\n"));
    }
    let run = env.run_stdin(&["mcp"], input.as_bytes());
    let replies: Vec<Value> = run.json_lines();
    let answer = |id: usize| {
        let reply = replies.iter().find(|r| r["id"] == id).unwrap();
        assert_eq!(reply["result"]["isError"], false, "{reply}");
        reply["result"]["structuredContent"].clone()
    };
    assert_eq!(answer(1)["open_questions"], serde_json::json!(["Which?"]));
    assert_eq!(answer(1)["generated_at"], Value::String(t.clone()));
    let latest = answer(2)["packages"].as_array().unwrap().clone();
    assert_eq!(latest.len(), 1);
    assert_eq!(latest[0]["title"], "Cache plan");
    let relevant = answer(3)["packages"].as_array().unwrap().clone();
    assert_eq!(relevant.len(), 1, "{relevant:?}");
    assert_eq!(relevant[0]["package"]["title"], "Cache plan");
    assert_eq!(answer(4)["open_questions"], serde_json::json!(["Which?"]));
    assert_eq!(answer(5)["total"], 0, "the lesson came after t");
    assert_eq!(answer(6)["total"], 1, "and is there now");

    let server = crate::serve::Served::start(&env, &[]);
    let at = &t;
    let (code, orient) = crate::serve::curl(
        &env,
        &[&server.at(&format!("/v1/projects/demo/orient?as_of={at}"))],
    );
    assert_eq!(code, 200, "{orient}");
    assert_eq!(orient["open_questions"], serde_json::json!(["Which?"]));
    let (_, relevant) = crate::serve::curl(
        &env,
        &[&server.at(&format!(
            "/v1/projects/demo/packages?mode=relevant&query=cache&as_of={at}"
        ))],
    );
    assert_eq!(
        relevant["packages"].as_array().unwrap().len(),
        1,
        "{relevant}"
    );
    let (_, digest) = crate::serve::curl(
        &env,
        &[&server.at(&format!("/v1/orchestrate?project=demo&as_of={at}"))],
    );
    assert_eq!(
        digest["open_questions"],
        serde_json::json!(["Which?"]),
        "{digest}"
    );
    let sessions = |query: &str| {
        let (code, v) = crate::serve::curl(
            &env,
            &[&server.at(&format!("/v1/projects/demo/sessions{query}"))],
        );
        assert_eq!(code, 200, "{v}");
        v["sessions"].as_array().unwrap().len()
    };
    assert_eq!(sessions(&format!("?as_of={at}")), 0, "started after t");
    assert_eq!(sessions(""), 1);
    let (code, bad) = crate::serve::curl(
        &env,
        &[&server.at("/v1/projects/demo/orient?as_of=yesterday-ish")],
    );
    assert_eq!(code, 400, "{bad}");
    server.stop();
}
