//! Forgotten means forgotten on every path (issue 36, item 6): a fact's history marks a
//! retracted fact and never shows it as current, in the CLI, over HTTP and in the console;
//! facts asserted from a retracted package are hidden with it; watch, SSE and MCP replays
//! carry a retraction or expiry event in place of the content; purge leaves no copy in
//! `cache/`.

use serde_json::{Value, json};

use crate::harness::Env;
use crate::serve::{Served, curl};

/// The lines of the fact log of project `demo`.
fn fact_lines(env: &Env) -> usize {
    std::fs::read_to_string(env.path(".relay/projects/demo/facts.ndjson"))
        .unwrap_or_default()
        .lines()
        .count()
}

#[test]
fn a_retracted_fact_is_marked_in_its_history_never_current_its_value_withheld() {
    let env = Env::new();
    env.ok(&["facts", "assert", "api", "status", "beta"]);
    let live = env.ok_json(&["facts", "assert", "api", "status", "live-42"]);
    let id = live["fact"]["fact_id"].as_str().unwrap().to_string();
    env.ok(&[
        "retract",
        &id,
        "--reason",
        "Never went live",
        "--actor",
        "ana",
    ]);

    let history = env
        .run(&["facts", "history", "api", "status", "--json"])
        .json_lines();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["value"], "beta");
    assert!(history[0].get("x-hidden").is_none());
    let gone = &history[1];
    assert_eq!(gone["fact_id"], id.as_str());
    assert_eq!(gone["x-hidden"]["because"], "retracted");
    assert_eq!(gone["x-hidden"]["retraction"]["reason"], "Never went live");
    assert_eq!(gone["x-hidden"]["retraction"]["retracted_by"]["id"], "ana");
    assert!(gone.get("value").is_none(), "{gone}");
    assert!(!gone.to_string().contains("live-42"));

    let human = env.ok(&["facts", "history", "api", "status"]);
    let last = human.lines().last().unwrap();
    assert!(
        last.starts_with("api status = (withheld)  (from "),
        "never shown as current: {human}"
    );
    assert!(
        last.contains("; retracted by ana at ") && last.contains(": Never went live; "),
        "{human}"
    );
    assert!(!human.contains("live-42"), "{human}");

    let shown = env
        .run(&[
            "facts",
            "history",
            "api",
            "status",
            "--include-retracted",
            "--json",
        ])
        .json_lines();
    assert_eq!(shown[1]["value"], "live-42");
    assert_eq!(shown[1]["x-hidden"]["because"], "retracted");

    // The HTTP route and the console answer alike.
    let server = Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/facts/history?subject=api&predicate=status");
    let (status, body) = curl(&env, &[&url]);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["facts"], json!(history));
    let (_, body) = curl(&env, &[&format!("{url}&include_retracted=true")]);
    assert_eq!(body["facts"][1]["value"], "live-42");
    let page = env
        .program(
            "curl",
            &[
                "-s",
                &server.at("/facts?project=demo&subject=api&predicate=status"),
            ],
        )
        .output()
        .unwrap();
    let page = String::from_utf8_lossy(&page.stdout);
    assert!(page.contains("(withheld)"), "{page}");
    assert!(!page.contains("live-42"), "{page}");
    assert!(!page.contains("state current"), "{page}");
}

#[test]
fn facts_from_a_retracted_package_are_hidden_with_it_and_a_new_one_is_refused() {
    let env = Env::new();
    let source = env.deposit("Benchmark run", &[]);
    env.ok(&[
        "facts", "assert", "bench", "speed", "9000-rps", "--source", &source,
    ]);
    env.ok(&["facts", "assert", "bench", "owner", "ana"]);
    env.ok(&["retract", &source, "--reason", "A debug build"]);

    let run = env.run(&["facts", "get", "bench", "speed", "--json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.error()["error"], "fact_not_found");
    let message = run.error()["message"].as_str().unwrap().to_string();
    assert!(
        message.contains(&format!(
            "was asserted from package `{source}`, which was retracted by"
        )) && message.contains("A debug build; --include-retracted shows it"),
        "{message}"
    );
    let listed = env.run(&["facts", "list", "--json"]).json_lines();
    let keys: Vec<&Value> = listed.iter().map(|f| &f["predicate"]).collect();
    assert_eq!(keys, [&json!("owner")]);
    let orient = env.ok(&["orient"]);
    assert!(!orient.contains("9000-rps"), "{orient}");
    assert!(orient.contains("owner"), "{orient}");
    let shown = env.ok_json(&["facts", "get", "bench", "speed", "--include-retracted"]);
    assert_eq!(shown["value"], "9000-rps");
    let history = env
        .run(&["facts", "history", "bench", "speed", "--json"])
        .json_lines();
    assert_eq!(history[0]["x-hidden"]["because"], "source_retracted");
    assert_eq!(history[0]["x-hidden"]["retraction"]["id"], source.as_str());
    assert!(history[0].get("value").is_none());

    // A new fact from the retracted package would be hidden at once: refused, nothing written.
    let before = fact_lines(&env);
    let run = env.run(&[
        "facts", "assert", "bench", "speed", "8000-rps", "--source", &source, "--json",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.error()["error"], "package_not_found");
    assert!(
        run.error()["message"]
            .as_str()
            .unwrap()
            .contains("a fact asserted from it would be hidden from every read"),
        "{}",
        run.stderr
    );
    assert_eq!(fact_lines(&env), before);
}

/// A store with a retracted package, an expired package, a retracted fact and a fact from the
/// retracted package, then a last fact (`end = here`): every word of the forgotten records'
/// content is in the returned list, and none of it may come back.
fn forgotten_store(env: &Env) -> Vec<&'static str> {
    let gone = env.deposit(
        "Marmalade launch plan",
        &["--decision", "Use quokka pricing"],
    );
    let expired = json!({
        "package_id": "pkg_00000000000000000000000000000001", "project_id": "demo",
        "relay_version": "0.1", "title": "Zebra promo", "created_at": "2026-01-01T00:00:00Z",
        "created_by": {"id": "ana", "type": "human"}, "status": "complete",
        "review_type": "none", "package_type": "standard",
        "x-expires-at": "2026-02-01T00:00:00Z"
    });
    let run = env.run_stdin(&["import", "-"], format!("{expired}\n").as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    env.deposit("Kept note", &[]);
    let fact = env.ok_json(&["facts", "assert", "api", "key", "falcon-value"]);
    env.ok(&[
        "facts",
        "assert",
        "bench",
        "speed",
        "wombat-rps",
        "--source",
        &gone,
    ]);
    env.ok(&[
        "retract",
        fact["fact"]["fact_id"].as_str().unwrap(),
        "--reason",
        "wrong value",
    ]);
    env.ok(&["retract", &gone, "--reason", "leaked plan"]);
    env.ok(&["facts", "assert", "end", "is", "here"]);
    vec!["Marmalade", "quokka", "Zebra", "falcon-value", "wombat-rps"]
}

/// The hidden records of a list of events, as (kind, record, because), in order.
fn hidden_of(events: &[Value]) -> Vec<(String, String, String)> {
    (events.iter())
        .filter(|e| e["kind"] == "retracted" || e["kind"] == "expired")
        .map(|e| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (
                s(&e["kind"]),
                s(&e["record"]["record"]),
                s(&e["record"]["because"]),
            )
        })
        .collect()
}

fn expected_hidden() -> Vec<(String, String, String)> {
    [
        // The expired package's month comes first.
        ("expired", "package", "expired"),
        ("retracted", "package", "retracted"),
        ("retracted", "fact", "retracted"),
        ("retracted", "fact", "source_retracted"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect()
}

#[test]
fn watch_replays_carry_retraction_and_expiry_events_never_the_content() {
    let env = Env::new();
    let words = forgotten_store(&env);
    let run = env.run(&["watch", "--since", "beginning", "--once", "--json"]);
    let events = run.json_lines();
    for w in &words {
        assert!(!run.stdout.contains(w), "{w} came back: {}", run.stdout);
    }
    assert_eq!(hidden_of(&events), expected_hidden(), "{}", run.stdout);
    let gone = events.iter().find(|e| e["kind"] == "retracted").unwrap();
    assert_eq!(gone["record"]["record"], "package");
    assert_eq!(gone["record"]["retraction"]["reason"], "leaked plan");
    assert_eq!(events.last().unwrap()["record"]["subject"], "end");
    // Asked for packages only, the hidden packages still come in their place.
    let packages = env
        .run(&[
            "watch",
            "--since",
            "beginning",
            "--once",
            "--json",
            "--kind",
            "package",
        ])
        .json_lines();
    let kinds: Vec<&str> = packages
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["expired", "retracted", "package"]);
    let human = env.ok(&["watch", "--since", "beginning", "--once"]);
    for w in &words {
        assert!(!human.contains(w), "{w} came back: {human}");
    }
    assert!(human.contains(" retracted "), "{human}");
    assert!(
        human.contains("by ") && human.contains(": leaked plan"),
        "{human}"
    );
}

#[test]
fn sse_and_mcp_replays_carry_retraction_and_expiry_events_never_the_content() {
    use std::io::{BufRead, BufReader};
    let env = Env::new();
    let words = forgotten_store(&env);

    let replies = crate::mcp::serve(
        &env,
        &[crate::mcp::call(
            1,
            "watch",
            json!({"since": "beginning", "limit": 1000}),
        )],
    );
    let answer = crate::mcp::ok(&replies[0]);
    let text = answer.to_string();
    for w in &words {
        assert!(!text.contains(w), "{w} came back over MCP: {text}");
    }
    let events = answer["events"].as_array().unwrap();
    assert_eq!(hidden_of(events), expected_hidden(), "{text}");

    let server = Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/events?since=beginning");
    let mut curl = env
        .program("curl", &["-sN", "--max-time", "20", &url])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("curl runs");
    let mut out = BufReader::new(curl.stdout.take().unwrap());
    let mut stream = String::new();
    let mut events = Vec::new();
    // Up to the last fact of the store: everything before it has been replayed.
    while !events
        .last()
        .is_some_and(|e: &Value| e["record"]["subject"] == "end")
    {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "ended: {stream}");
        if let Some(data) = line.strip_prefix("data:") {
            events.push(serde_json::from_str(data.trim()).unwrap());
        }
        stream.push_str(&line);
    }
    let _ = curl.kill();
    let _ = curl.wait();
    for w in &words {
        assert!(!stream.contains(w), "{w} came back over SSE: {stream}");
    }
    assert!(stream.contains("event: retracted\n"), "{stream}");
    assert!(stream.contains("event: expired\n"), "{stream}");
    assert_eq!(hidden_of(&events), expected_hidden(), "{stream}");
}
