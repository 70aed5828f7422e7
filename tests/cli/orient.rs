//! `relay orient` and `relay orchestrate`: the bundles, the Markdown views, and the window.

use serde_json::{Value, json};

use crate::harness::Env;

fn days_ago(n: i64) -> String {
    (chrono::Utc::now() - chrono::TimeDelta::days(n))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn deposit_json(env: &Env, v: Value) {
    let r = env.run_stdin(&["deposit", "--from", "-"], v.to_string().as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
}

fn populated() -> Env {
    let env = Env::new();
    deposit_json(
        &env,
        json!({"title": "Old work", "created_at": days_ago(40), "open_questions": ["Ancient?"]}),
    );
    deposit_json(
        &env,
        json!({"title": "Chose Redis", "package_type": "decision", "created_at": days_ago(3),
        "decisions_made": ["Redis for sessions"], "open_questions": ["TTL for sessions?", "Who pays?"],
        "handoff_note": "Load-test it", "significance": 8}),
    );
    deposit_json(
        &env,
        json!({"title": "Minor cleanup", "created_at": days_ago(2), "open_questions": ["ttl for sessions?  "],
        "significance": 2}),
    );
    deposit_json(
        &env,
        json!({"title": "Secret draft", "status": "draft", "created_at": days_ago(1)}),
    );
    deposit_json(
        &env,
        json!({"title": "Latest handoff", "package_type": "handoff", "created_at": days_ago(1),
        "handoff_note": "Deploy on Monday", "estimated_next_actor": "agent"}),
    );
    env.ok(&["facts", "assert", "cache", "backend", "redis"]);
    env.ok(&["facts", "assert", "old", "thing", "x"]);
    env.ok(&["facts", "invalidate", "old", "thing"]);
    env
}

#[test]
fn orient_json_is_the_orientation_bundle() {
    let env = populated();
    let v = env.ok_json(&["orient"]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "project",
            "recent_packages",
            "active_facts",
            "open_questions",
            "window_days",
            "generated_at",
            "x-lessons",
            "x-checkpoints"
        ]
    );
    assert_eq!(v["project"]["project_id"], "demo");
    assert_eq!(v["window_days"], 14);
    let titles: Vec<&str> = v["recent_packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        ["Latest handoff", "Minor cleanup", "Chose Redis"],
        "newest first; no drafts, nothing older than the window"
    );
    assert_eq!(
        v["open_questions"],
        json!(["ttl for sessions?", "Who pays?"]),
        "de-duplicated, newest first"
    );
    let facts: Vec<&str> = v["active_facts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["subject"].as_str().unwrap())
        .collect();
    assert_eq!(facts, ["cache"]);
    let wide = env.ok_json(&["orient", "--window-days", "60"]);
    assert_eq!(wide["recent_packages"].as_array().unwrap().len(), 4);
}

#[test]
fn orient_markdown_has_the_sections_and_fits_a_budget() {
    let env = populated();
    let md = env.ok(&["orient"]);
    for part in [
        "# Orientation: demo (`demo`)",
        "## Latest handoff",
        "> Deploy on Monday",
        "for the next agent",
        "## Recent activity",
        "- **Chose Redis** (decision, significance 8",
        "  - Decided: Redis for sessions",
        "- 1 more package: 1 standard",
        "## Open questions",
        "- Who pays?",
        "## Active facts",
        "- cache backend = redis",
    ] {
        assert!(md.contains(part), "missing {part:?} in:\n{md}");
    }
    assert!(!md.contains("Secret draft") && !md.contains("Old work"));
    let without_stamp = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("Generated "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        without_stamp(&env.ok(&["orient", "--md"])),
        without_stamp(&md)
    );
    let full = md.chars().count();
    for budget in [full - 40, 500, 200] {
        let trimmed = env.ok(&["orient", "--max-chars", &budget.to_string()]);
        assert!(
            trimmed.chars().count() <= budget,
            "{budget}: {}",
            trimmed.chars().count()
        );
        assert!(trimmed.starts_with("# Orientation: demo"));
    }
    let trimmed = env.ok(&["orient", "--max-chars", &(full - 40).to_string()]);
    assert!(
        trimmed.contains("Chose Redis"),
        "the most significant package survives a small trim:\n{trimmed}"
    );
}

#[test]
fn orient_reads_only_the_logs_its_window_needs() {
    let env = populated();
    // Damage a log far older than the window: orient reads it only for the lesson ids of the
    // types index (cache/types-v1), which skips what is not a package line, so nothing warns.
    let old = env.store().join("projects/demo/packages/2001-01.ndjson");
    std::fs::write(&old, "garbage that would warn\n").unwrap();
    let r = env.run(&["orient", "--json"]);
    assert_eq!(r.code, 0);
    assert!(r.stderr.is_empty(), "orient read an old log: {}", r.stderr);
    let r = env.run(&["verify", "--json"]);
    assert!(
        r.stdout.contains("2001-01.ndjson"),
        "a full read does see it"
    );
}

#[test]
fn orchestrate_digest_for_a_project_and_globally() {
    let env = populated();
    env.ok(&["projects", "create", "web"]);
    deposit_json(
        &env,
        json!({"project_id": "web", "title": "Landing page cache", "created_at": days_ago(1),
        "open_questions": ["CDN?"]}),
    );
    env.ok(&["projects", "create", "attic"]);
    deposit_json(
        &env,
        json!({"project_id": "attic", "title": "Archived work", "created_at": days_ago(1)}),
    );
    env.ok(&["projects", "archive", "attic"]);

    let d = env.ok_json(&["orchestrate", "--focus", "sessions redis"]);
    assert_eq!(d["scope"], "project");
    assert_eq!(d["summary"]["packages"], 3);
    assert_eq!(
        d["summary"]["by_type"],
        json!({"decision": 1, "handoff": 1, "standard": 1})
    );
    assert_eq!(
        d["summary"]["decisions"][0]["decision"],
        "Redis for sessions"
    );
    let handoffs: Vec<&str> = d["summary"]["handoffs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["handoff_note"].as_str().unwrap())
        .collect();
    assert_eq!(handoffs, ["Deploy on Monday", "Load-test it"]);
    assert_eq!(d["snippets"][0]["title"], "Chose Redis");
    assert!(d.get("projects").is_none());
    assert_eq!(d["active_facts"].as_array().unwrap().len(), 1);

    let g = env.ok_json(&[
        "orchestrate",
        "--all-projects",
        "--snippets",
        "1",
        "--focus",
        "cache",
    ]);
    assert_eq!(g["scope"], "global");
    let ids: Vec<&str> = g["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["project_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["demo", "web"], "archived projects are left out");
    assert_eq!(g["projects"][1]["recent_packages"], 1);
    assert_eq!(g["projects"][1]["open_questions"], 1);
    assert_eq!(g["snippets"].as_array().unwrap().len(), 1);
    let all = env.ok_json(&["orchestrate", "--all-projects", "--include-archived"]);
    assert_eq!(all["projects"].as_array().unwrap().len(), 3);
    let md = env.ok(&["orchestrate", "--all-projects", "--focus", "cache"]);
    for part in [
        "# Digest: all 2 projects",
        "## Projects",
        "- `web`: 1 recent packages",
        "## Relevant to “cache”",
        "**Landing page cache**",
    ] {
        assert!(md.contains(part), "missing {part:?} in:\n{md}");
    }
}

#[test]
fn search_human_output_highlights_and_empty_queries_are_quiet() {
    let env = Env::new();
    env.deposit(
        "Connection pool leaking",
        &["--decision", "Cap the pool at 50"],
    );
    let out = env
        .run_env(&["search", "leak", "--color", "always"], &[])
        .stdout;
    assert!(out.contains("1. ") && out.contains("score"), "{out}");
    assert!(
        out.contains("\u{1b}["),
        "matched words are highlighted: {out:?}"
    );
    let plain = env.ok(&["search", "leak"]);
    assert!(plain.contains("title: Connection pool leaking"), "{plain}");
    let r = env.run(&["search", "zebra", "--json"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    let r = env.run(&["search", "the", "--json"]);
    assert_eq!(r.code, 0);
    let r = env.run(&["pull", "--relevant", "pool", "--limit", "1", "--json"]);
    assert_eq!(r.json()["package"]["title"], "Connection pool leaking");
}

#[test]
fn search_finds_every_inflection_and_phrases_across_wrapped_lines() {
    let env = Env::new();
    let retries = env.deposit(
        "Network retries",
        &["--description", "The client retried twice"],
    );
    let settings = env.deposit("Cache settings page", &[]);
    let wrapped = env.deposit(
        "Pool notes",
        &["--description", "We saw an out of\nmemory error"],
    );
    let top = |q: &str| -> Option<String> {
        env.run(&["search", q, "--json"])
            .json_lines()
            .first()
            .map(|r| r["package"]["package_id"].as_str().unwrap().to_string())
    };
    for q in ["retry", "retries", "retried", "retrying"] {
        assert_eq!(top(q).as_deref(), Some(retries.as_str()), "{q}");
    }
    assert_eq!(top("setting").as_deref(), Some(settings.as_str()));
    assert_eq!(
        top(r#""out of memory""#).as_deref(),
        Some(wrapped.as_str()),
        "a phrase may wrap a line"
    );
    assert_eq!(top("the of"), None, "stopwords alone search nothing");
}

#[test]
fn a_tampered_newer_line_does_not_hide_the_package_from_search() {
    let env = Env::new();
    let id = env.deposit("Caching layer", &["--description", "caching for the API"]);
    let log = std::fs::read_dir(env.store().join("projects/demo/packages"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let line = crate::harness::read(&log);
    let mut forged: Value = serde_json::from_str(line.trim()).unwrap();
    forged["version"] = json!(9);
    forged["package"]["description"] = json!("caching caching caching, forged");
    std::fs::write(&log, format!("{line}{forged}\n")).unwrap();
    let r = env.run(&["search", "caching", "--json"]);
    assert_eq!(r.code, 0);
    let hits = r.json_lines();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0]["package"]["package_id"], id.as_str());
    assert_eq!(
        hits[0]["package"]["description"], "caching for the API",
        "the verified version is returned"
    );
    assert!(r.stderr.contains("hash_mismatch"), "{}", r.stderr);
}

#[test]
fn odd_windows_and_tiny_budgets() {
    let env = populated();
    let r = env.run(&["orient", "--window-days", "4294967295"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let v = env.ok_json(&["orient", "--window-days", "36500"]);
    assert_eq!(v["recent_packages"].as_array().unwrap().len(), 4);
    assert_eq!(
        env.ok_json(&["orient", "--window-days", "0"])["recent_packages"],
        json!([])
    );
    for budget in [0usize, 5, 39, 41] {
        let out = env.ok(&["orient", "--max-chars", &budget.to_string()]);
        assert!(out.chars().count() <= budget, "{budget}: {out:?}");
    }
}

#[test]
fn the_search_index_is_disposable_incremental_and_follows_rewrites() {
    let env = Env::new();
    let a = env.deposit(
        "Flaky integration tests",
        &["--decision", "Quarantine the flaky ones"],
    );
    let ids = |q: &str| -> Vec<String> {
        env.run(&["search", q, "--limit", "10", "--json"])
            .json_lines()
            .iter()
            .map(|r| r["package"]["package_id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids("flaky"), std::slice::from_ref(&a));
    let cache = env.store().join("cache");
    assert!(
        cache.join("search-v2/demo").is_dir(),
        "the first search built the index"
    );
    // A log that grows is indexed incrementally.
    let b = env.deposit("More flaky tests", &[]);
    let mut got = ids("flaky");
    got.sort();
    let mut want = vec![a.clone(), b.clone()];
    want.sort();
    assert_eq!(got, want);
    // Deleting the cache changes no answer.
    let before = env.run(&["search", "flaky", "--json"]).stdout;
    std::fs::remove_dir_all(&cache).unwrap();
    assert_eq!(env.run(&["search", "flaky", "--json"]).stdout, before);
    // A log rewritten under the index (as a git checkout would) is indexed again.
    let dir = env.store().join("projects/demo/packages");
    let log = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = crate::harness::read(&log);
    let first = text.lines().next().unwrap().to_string();
    std::fs::write(&log, format!("{first}\n")).unwrap();
    assert_eq!(ids("flaky"), std::slice::from_ref(&a));
    // A damaged index file is rebuilt, not trusted.
    for entry in walk(&cache) {
        std::fs::write(
            entry,
            b"{\"format\":1,\"covered\":1,\"head\":\"x\",\"tail\":\"y\"}\ngarbage",
        )
        .unwrap();
    }
    assert_eq!(ids("flaky"), [a]);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn searching_without_the_index_scans_and_agrees() {
    let env = Env::new();
    let corpus = [
        ("Connection pool leaking under load", "Cap the pool at 50"),
        ("Memory leak in the image cache", "Evict decoded bitmaps"),
        ("Timezone bug in invoices", "Store UTC, render local"),
        ("Flaky tests in CI", "Retry twice, then quarantine"),
        (
            "Leak detector for the pool",
            "Log a stack trace when a connection is held too long",
        ),
    ];
    for (title, decision) in corpus {
        env.deposit(title, &["--decision", decision]);
    }
    let queries = [
        "leak",
        "pool leaking",
        "\"image cache\"",
        "timezones",
        "retried",
        "quarantine",
    ];
    let run = |q: &str| -> Vec<String> {
        env.run(&["search", q, "--limit", "10", "--json"])
            .json_lines()
            .iter()
            .map(|r| r["package"]["package_id"].as_str().unwrap().to_string())
            .collect()
    };
    let indexed: Vec<Vec<String>> = queries.iter().map(|q| run(q)).collect();
    let config = env.store().join("config.toml");
    let text = crate::harness::read(&config).replace("search_index = true", "search_index = false");
    std::fs::write(&config, text).unwrap();
    std::fs::remove_dir_all(env.store().join("cache")).unwrap();
    let scanned: Vec<Vec<String>> = queries.iter().map(|q| run(q)).collect();
    assert_eq!(indexed, scanned);
    assert!(
        !env.store().join("cache").exists(),
        "no index without search_index"
    );
    assert_eq!(
        indexed[0].len(),
        3,
        "leak: the pool, the image cache, the detector"
    );
}
