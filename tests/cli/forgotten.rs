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
