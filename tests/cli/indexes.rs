//! The disposable indexes under `cache/` (package catalogs and ids, the fact index) must never
//! change an answer: every read gives the same bytes with `search_index = false` (full scans),
//! with a fresh index, with an index that lags a grown log, and after a log is rewritten under
//! it, as a git checkout or merge does.

use serde_json::json;

use crate::harness::{Env, snapshot};

pub(crate) fn set_index(env: &Env, on: bool) {
    let path = env.store().join("config.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("search_index"))
        .collect();
    std::fs::write(
        &path,
        format!("search_index = {on:<5}\n{}\n", kept.join("\n")),
    )
    .unwrap();
}

/// Every read the indexes serve, with its output (stdout, stderr and exit code).
fn answers(env: &Env, ids: &[String]) -> Vec<(String, String)> {
    let mut queries: Vec<Vec<String>> = [
        "pull --latest 100 --json",
        "pull --latest 3 --json",
        "pull --latest 100 --type analysis --json",
        "pull --latest 100 --tag db --json",
        "pull --latest 100 --status awaiting_review --json",
        "pull --latest 100 --since 2026-02-01 --json",
        "pull --latest 100 --until 2026-02-01 --json",
        "pull --latest 2 --since 2026-01-10 --until 2026-03-02 --json",
        "facts list --json",
        "facts list --subject api --json",
        "facts get api status --json",
        "facts get db engine --json",
        "facts get gone key --json",
        "facts history api status --json",
        "status --json",
        "orient --json --window-days 36500",
        "orient --json --window-days 36500 --limit 2",
        "orient --window-days 36500 --limit 2",
    ]
    .iter()
    .map(|q| q.split(' ').map(str::to_string).collect())
    .collect();
    for id in ids {
        queries.push(vec!["pull".into(), id.clone(), "--json".into()]);
        queries.push(vec![
            "pull".into(),
            id.clone(),
            "--history".into(),
            "--json".into(),
        ]);
    }
    queries.push(vec!["pull".into(), "pkg_nothing".into(), "--json".into()]);
    queries
        .iter()
        .map(|q| {
            let args: Vec<&str> = q.iter().map(String::as_str).collect();
            let r = env.run(&args);
            // orient says when it ran: the one difference allowed.
            let stdout = match r.stdout.find("\"generated_at\":\"") {
                Some(at) => r.stdout[..at].to_string(),
                None => match r.stdout.split_once("\nGenerated ") {
                    Some((head, rest)) => {
                        let rest = rest.split_once(" · ").map_or("", |(_, r)| r);
                        format!("{head}\nGenerated … · {rest}")
                    }
                    None => r.stdout.clone(),
                },
            };
            (
                q.join(" "),
                format!("{stdout}\n{}\nexit {}", r.stderr, r.code),
            )
        })
        .collect()
}

#[track_caller]
fn assert_index_agrees(env: &Env, ids: &[String], when: &str) {
    set_index(env, true);
    let indexed = answers(env, ids);
    let again = answers(env, ids); // from the index files written by the first pass
    set_index(env, false);
    let scanned = answers(env, ids);
    set_index(env, true);
    for ((q, a), (_, b)) in indexed.iter().zip(&scanned) {
        assert_eq!(
            a, b,
            "{when}: `relay {q}` differs with and without the index"
        );
    }
    assert_eq!(indexed, again, "{when}: a second indexed read differs");
}

fn deposit_at(env: &Env, body: serde_json::Value) -> String {
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        body.to_string().as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.json()["package"]["package_id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn indexes_never_change_an_answer() {
    let env = Env::new();
    let mut ids = Vec::new();
    for (i, (day, ptype, tag)) in [
        ("2026-01-05", "standard", "db"),
        ("2026-01-20", "analysis", "api"),
        ("2026-02-03", "analysis", "db"),
        ("2026-02-03", "standard", "ui"),
        ("2026-03-01", "standard", "db"),
        ("2026-03-09", "analysis", "api"),
    ]
    .into_iter()
    .enumerate()
    {
        ids.push(deposit_at(
            &env,
            json!({"title": format!("Package {i}"), "created_at": format!("{day}T10:00:00Z"),
                   "package_type": ptype, "tags": [tag], "status": if i == 3 { "draft" } else { "complete" },
                   "created_by": {"id": if i == 3 { "someone-else" } else { "me" }, "type": "human"}}),
        ));
    }
    // Review versions: a package with several versions in its month's log.
    ids.push(deposit_at(
        &env,
        json!({"title": "Needs eyes", "created_at": "2026-02-10T00:00:00Z", "status": "draft",
               "created_by": {"id": "me", "type": "human"}}),
    ));
    let reviewed = ids.last().unwrap().clone();
    env.ok(&["review", "flag", &reviewed, "--human", "--actor", "me"]);
    for (s, p, v) in [
        ("api", "status", "planned"),
        ("api", "status", "live"),
        ("db", "engine", "sqlite"),
        ("api", "owner", "ana"),
    ] {
        env.ok(&["facts", "assert", s, p, v]);
    }
    env.ok(&["facts", "invalidate", "api", "owner"]);
    assert_index_agrees(&env, &ids, "a fresh index");

    // The logs grow past what the indexes cover.
    ids.push(env.deposit("Grown", &["--tag", "db"]));
    env.ok(&["facts", "assert", "api", "status", "retired"]);
    env.ok(&["review", "approve", &reviewed, "--actor", "me"]);
    assert_index_agrees(&env, &ids, "logs that grew");

    // A merge brings a fork: a second open fact for one key, appended by hand.
    let facts = env.store().join("projects/demo/facts.ndjson");
    let mut text = std::fs::read_to_string(&facts).unwrap();
    text.push_str(
        &json!({"fact_id": "fact_fork", "project_id": "demo", "subject": "db", "predicate": "engine",
                "value": "postgres", "valid_from": "2030-01-01T00:00:00Z", "created_at": "2026-03-01T00:00:00Z",
                "confidence": 1.0, "asserted_by": {"id": "bo", "type": "human"}})
        .to_string(),
    );
    text.push('\n');
    std::fs::write(&facts, &text).unwrap();
    assert_index_agrees(&env, &ids, "a merged fork");

    // A checkout rewrites logs under the indexes: older content, same or shorter length.
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&facts, lines[..3].join("\n") + "\n").unwrap();
    let march = env.store().join("projects/demo/packages/2026-03.ndjson");
    let kept = std::fs::read_to_string(&march).unwrap();
    let first = kept.lines().next().unwrap().to_string();
    std::fs::write(&march, first + "\n").unwrap();
    assert_index_agrees(&env, &ids, "logs rewritten by a checkout");
    let r = env.run(&["facts", "get", "api", "status", "--json"]);
    assert_eq!(r.json()["value"], "live", "the index follows the rewrite");
}

#[test]
fn damaged_lines_are_reported_through_the_indexes_too() {
    let env = Env::new();
    let id = env.deposit("Kept", &[]);
    env.ok(&["facts", "assert", "api", "status", "live"]);
    env.ok(&["pull", "--latest", "--json"]); // builds the indexes
    let facts = env.store().join("projects/demo/facts.ndjson");
    let mut text = std::fs::read_to_string(&facts).unwrap();
    text.push_str("{not json\n");
    std::fs::write(&facts, text).unwrap();
    let log = env.package_lines_file();
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("{not json either\n");
    std::fs::write(&log, text).unwrap();
    let r = env.run(&["facts", "get", "api", "status", "--json"]);
    assert_eq!(r.code, 0);
    // The warning names the file and the line: facts.ndjson, line 2.
    snapshot!("corrupt_fact_line", r.stderr);
    let r = env.run(&["pull", "--latest", "--json"]);
    assert_eq!(r.json()["package"]["package_id"], id.as_str());
    // The warning names the package log and the line: packages/…, line 2.
    snapshot!("corrupt_package_line", r.stderr);
}

/// A cold `cache/` is rebuilt by the first command that needs it, which says so on a terminal
/// with a bar of the bytes indexed (never in a pipe), and once only.
#[test]
fn a_cold_cache_is_announced_on_a_terminal_once() {
    let env = Env::new();
    env.deposit("Something to index", &[]);
    let cmd = format!(
        "TERM=xterm RELAY_COLD_NOTE_BYTES=1 {} status",
        env!("CARGO_BIN_EXE_relay")
    );
    let run = || {
        let out = env
            .program("script", &["-qec", &cmd, "/dev/null"])
            .output()
            .ok()?;
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let Some(first) = run() else {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    };
    assert!(
        first.contains("relay: indexing") && first.contains("into .relay/cache/"),
        "{first}"
    );
    // The bar, drawn over the bytes of the one log, then cleared.
    let log_bytes: u64 = (std::fs::read_dir(env.store().join("projects")).unwrap())
        .flat_map(|p| std::fs::read_dir(p.unwrap().path().join("packages")).unwrap())
        .map(|f| f.unwrap().metadata().unwrap().len())
        .sum();
    assert!(
        first.contains("indexing [") && first.contains(&format!("/ {log_bytes} B")),
        "{first}"
    );
    let second = run().unwrap();
    assert!(!second.contains("relay: indexing"), "{second}");
    // In a pipe, never.
    std::fs::remove_dir_all(env.store().join("cache")).unwrap();
    let r = env.run_env(&["status"], &[("RELAY_COLD_NOTE_BYTES", "1")]);
    assert!(!r.stderr.contains("indexing"), "{}", r.stderr);
}
