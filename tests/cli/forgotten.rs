//! Forgotten means forgotten on every path (issue 36, item 6): a fact's history marks a
//! retracted fact and never shows it as current, in the CLI, over HTTP and in the console;
//! facts asserted from a retracted package are hidden with it; watch, SSE and MCP replays
//! carry a retraction or expiry event in place of the content; purge leaves no copy in
//! `cache/`.

use serde_json::{Value, json};

use crate::harness::{Env, snapshot};
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
    assert!(!human.contains("live-42"), "{human}");
    // The withheld value, "; retracted by ana at …: Never went live; …".
    snapshot!("history_withheld", human);

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
    // "was asserted from package `…`, which was retracted by …: A debug build;
    // --include-retracted shows it"
    snapshot!("fact_of_a_retracted_source", run.transcript());
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
    // "a fact asserted from it would be hidden from every read"
    snapshot!("assert_from_a_retracted_source", run.transcript());
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

/// Every file under `cache/`, by path relative to it, with its bytes.
fn cache_files(env: &Env) -> Vec<(String, Vec<u8>)> {
    let cache = env.store().join("cache");
    let mut out: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(&cache)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(&cache).unwrap();
            (
                rel.to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// The files of `cache/` that hold `needle`, as given or in lower case (the search index
/// keeps lower-case stems).
fn holding(env: &Env, needle: &str) -> Vec<String> {
    let lower = needle.to_lowercase();
    let has = |bytes: &[u8], n: &str| memchr::memmem::find(bytes, n.as_bytes()).is_some();
    (cache_files(env).into_iter())
        .filter(|(_, bytes)| has(bytes, needle) || has(bytes, &lower))
        .map(|(path, _)| path)
        .collect()
}

/// The fingerprints `cache/logs-v1/demo.json` holds, by log.
fn witnessed(env: &Env) -> Value {
    let text = std::fs::read_to_string(env.path(".relay/cache/logs-v1/demo.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let logs = file["logs"].as_object().unwrap();
    let sums: serde_json::Map<String, Value> = (logs.iter())
        .map(|(log, entry)| (log.clone(), entry["sum"].clone()))
        .collect();
    Value::Object(sums)
}

#[test]
fn purge_leaves_no_copy_of_a_purged_record_in_cache() {
    let env = Env::new();
    let plan = env.path("wombat-plan.md");
    std::fs::write(&plan, "the plan\n").unwrap();
    // Settled, so that a read keeps its hash in cache/file-hashes-v1.
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    (std::fs::File::options().append(true).open(&plan).unwrap())
        .set_modified(old)
        .unwrap();
    let gone = env.deposit(
        "Marmalade launch plan",
        &[
            "--decision",
            "Use quokka pricing",
            "--deliverable",
            "wombat-plan.md",
        ],
    );
    let lesson = env.ok_json(&[
        "lesson",
        "add",
        "Pangolin lesson",
        "--content",
        "Narwhal detail",
    ]);
    let lesson = lesson["package"]["package_id"]
        .as_str()
        .unwrap()
        .to_string();
    env.deposit("Kept note about caching", &[]);
    let fact = env.ok_json(&["facts", "assert", "api", "key", "falcon-value"]);
    let fact = fact["fact"]["fact_id"].as_str().unwrap().to_string();
    let derived = env.ok_json(&[
        "facts",
        "assert",
        "bench",
        "speed",
        "wombat-rps",
        "--source",
        &gone,
    ]);
    let derived = derived["fact"]["fact_id"].as_str().unwrap().to_string();
    env.ok(&["facts", "assert", "kept", "is", "here"]);
    // Reads that build every index: search, types, facts (with its copy of current lines),
    // the deliverables' hashes, the witnesses.
    for args in [
        vec!["search", "marmalade"],
        vec!["lesson", "list"],
        vec!["facts", "list"],
        vec!["facts", "get", "api", "key"],
        vec!["orient"],
        vec!["pull", &gone],
    ] {
        env.ok(&args);
    }
    let words = [
        "Marmalade",
        "marmalad",
        "quokka",
        "wombat-plan.md",
        "Pangolin",
        "Narwhal",
        "falcon-value",
        "wombat-rps",
    ];
    for w in [
        "falcon-value",
        "quokka",
        "wombat-plan.md",
        "Pangolin",
        &gone,
    ] {
        assert!(
            !holding(&env, w).is_empty(),
            "{w} was not cached to begin with"
        );
    }
    for id in [&gone, &lesson, &fact] {
        env.ok(&["retract", id, "--reason", "must go"]);
    }
    let before = witnessed(&env);
    let done = env.ok_json(&["purge", "--retracted", "--no-backup"]);
    let removed: Vec<(&str, &str)> = (done["removed"].as_array().unwrap().iter())
        .map(|r| (r["id"].as_str().unwrap(), r["because"].as_str().unwrap()))
        .collect();
    let mut want = vec![
        (gone.as_str(), "retracted"),
        (lesson.as_str(), "retracted"),
        (fact.as_str(), "retracted"),
        (derived.as_str(), "source_retracted"),
    ];
    want.sort();
    let mut got = removed.clone();
    got.sort();
    assert_eq!(got, want);

    for w in words
        .iter()
        .chain([&gone.as_str(), &lesson.as_str(), &fact.as_str()])
    {
        assert_eq!(
            holding(&env, w),
            Vec::<String>::new(),
            "{w} stayed in cache/"
        );
    }
    // The witnesses held only fingerprints, and no longer hold those of the old logs.
    let after = witnessed(&env);
    for (log, sum) in before.as_object().unwrap() {
        assert_ne!(after.get(log), Some(sum), "{log}'s old fingerprint stayed");
    }
    // Reads answer from the logs as they are now, and what they rebuild holds none of it.
    assert_eq!(env.run(&["verify"]).code, 0);
    let list = env.run(&["facts", "list", "--json"]).json_lines();
    let keys: Vec<&str> = list
        .iter()
        .map(|f| f["subject"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["kept"]);
    assert_eq!(
        env.run(&["search", "caching", "--json"]).json_lines().len(),
        1
    );
    env.ok(&["lesson", "list"]);
    env.ok(&["orient"]);
    for w in words {
        assert_eq!(
            holding(&env, w),
            Vec::<String>::new(),
            "{w} came back in cache/"
        );
    }
}
