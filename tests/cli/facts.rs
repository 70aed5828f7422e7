//! `relay facts`: supersession, time travel, invalidation, merged clones and concurrency.

use serde_json::{Value, json};

use crate::harness::{Env, json_snapshot, read, snapshot};

fn facts_file(env: &Env) -> std::path::PathBuf {
    env.store().join("projects/demo/facts.ndjson")
}

/// Asserts `svc status VALUE` from `valid_from`; returns the fact of the answer.
fn assert_at(env: &Env, value: &str, valid_from: &str) -> Value {
    env.ok_json(&[
        "facts",
        "assert",
        "svc",
        "status",
        value,
        "--valid-from",
        valid_from,
    ])["fact"]
        .clone()
}

#[test]
fn assert_supersedes_atomically_and_keeps_history() {
    let env = Env::new();
    let a = assert_at(&env, "starting", "2026-01-01T00:00:00Z");
    assert_eq!(a["value"], "starting");
    assert_eq!(a["confidence"], 1.0);
    assert!(a["valid_to"].is_null());
    assert_eq!(a["asserted_by"], json!({"id": "tester", "type": "human"}));
    let b = assert_at(&env, "live", "2026-02-01T00:00:00Z");
    let lines: Vec<Value> = read(&facts_file(&env))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        3,
        "one line for the first fact, then the closed version and the new fact"
    );
    assert_eq!(lines[1]["fact_id"], a["fact_id"]);
    assert_eq!(lines[1]["valid_to"], "2026-02-01T00:00:00.000000Z");
    assert_eq!(lines[2], b);

    let history = env
        .run(&["facts", "history", "svc", "status", "--json"])
        .json_lines();
    let values: Vec<_> = history
        .iter()
        .map(|f| f["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["starting", "live"]);
    assert_eq!(
        history[0]["valid_to"], history[1]["valid_from"],
        "the chain has no gap"
    );
    assert_eq!(
        env.ok_json(&["facts", "get", "svc", "status"])["value"],
        "live"
    );
    json_snapshot!("history_json", history);
    snapshot!("history", env.ok(&["facts", "history", "svc", "status"]));
    snapshot!("get", env.ok(&["facts", "get", "svc", "status"]));
    json_snapshot!("get_json", env.ok_json(&["facts", "get", "svc", "status"]));
    snapshot!("list", env.ok(&["facts", "list", "--include-ended"]));
    let list = env.run(&["facts", "list", "--json"]).json_lines();
    json_snapshot!("list_json", list);
    let r = env.run(&["facts", "get", "svc", "missing", "--json"]);
    assert_eq!(r.code, 1);
    snapshot!("not_found_json", r.transcript());
    snapshot!(
        "not_found",
        env.run(&["facts", "get", "svc", "missing"]).transcript()
    );
}

#[test]
fn numbers_stay_text_and_repeating_the_current_value_writes_nothing() {
    let env = Env::new();
    let f = env.ok_json(&["facts", "assert", "eval", "recall", "97.0"]);
    json_snapshot!("assert_json", &f);
    assert_eq!(f["fact"]["value"], "97.0");
    assert_eq!(
        (&f["unchanged"], &f["superseded"]),
        (&json!(false), &json!([]))
    );
    let before = read(&facts_file(&env));
    let again = env.ok_json(&["facts", "assert", "eval", "recall", "97.0"]);
    assert_eq!(
        again,
        json!({"fact": f["fact"], "unchanged": true, "superseded": []})
    );
    assert_eq!(read(&facts_file(&env)), before);
    let r = env.run(&["facts", "assert", "eval", "recall", "97.0"]);
    assert_eq!(r.code, 0);
    // "Unchanged: that value is already current" on stderr.
    snapshot!("assert_unchanged", r.transcript());
    let r = env.run(&["facts", "assert", "eval", "recall", "98.5"]);
    snapshot!("assert_supersedes", r.transcript());
}

#[test]
fn time_travel_at_the_boundaries() {
    let env = Env::new();
    assert_at(&env, "one", "2026-01-01T00:00:00Z");
    assert_at(&env, "two", "2026-02-01T00:00:00Z");
    let get_at = |t: &str| {
        let r = env.run(&["facts", "get", "svc", "status", "--at", t, "--json"]);
        if r.code == 0 {
            Some(r.json()["value"].as_str().unwrap().to_string())
        } else {
            None
        }
    };
    assert_eq!(
        get_at("2025-12-31T23:59:59Z"),
        None,
        "before the first fact"
    );
    // The answer names the time it was asked about.
    let before = env.run(&[
        "facts",
        "get",
        "svc",
        "status",
        "--at",
        "2025-12-31",
        "--json",
    ]);
    assert_eq!(
        before.error()["message"],
        "no fact for subject `svc`, predicate `status` at 2025-12-31T00:00:00.000000Z"
    );
    assert_eq!(
        get_at("2026-01-01T00:00:00Z").as_deref(),
        Some("one"),
        "exactly at valid_from"
    );
    assert_eq!(
        get_at("2026-01-31T23:59:59.999999Z").as_deref(),
        Some("one")
    );
    assert_eq!(
        get_at("2026-02-01T00:00:00Z").as_deref(),
        Some("two"),
        "exactly at valid_to the next one holds"
    );
    assert_eq!(get_at("2026-01-15").as_deref(), Some("one"));
    let r = env.run(&[
        "facts",
        "get",
        "svc",
        "status",
        "--at",
        "2025-01-01",
        "--json",
    ]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("fact_not_found"))
    );
    let listed = env
        .run(&["facts", "list", "--at", "2026-01-10", "--json"])
        .json_lines();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["value"], "one");
}

#[test]
fn an_earlier_valid_from_is_refused_and_writes_nothing() {
    let env = Env::new();
    assert_at(&env, "one", "2026-02-01T00:00:00Z");
    let before = read(&facts_file(&env));
    let r = env.run(&[
        "facts",
        "assert",
        "svc",
        "status",
        "zero",
        "--valid-from",
        "2026-01-01T00:00:00Z",
        "--json",
    ]);
    assert_eq!(r.code, 3);
    assert_eq!(r.error()["error"], "fact_chain_conflict");
    // "earlier than the valid_from 2026-02-01T00:00:00.000000Z of the key's latest fact"
    snapshot!("earlier_valid_from", r.transcript());
    assert_eq!(read(&facts_file(&env)), before);
}

#[test]
fn invalidate_ends_without_replacement_and_counts() {
    let env = Env::new();
    env.ok(&["facts", "assert", "a", "b", "x"]);
    let r = env.ok_json(&["facts", "invalidate", "a", "b", "other-value"]);
    assert_eq!(r, json!({"invalidated": 0}));
    assert_eq!(
        env.ok(&["facts", "invalidate", "a", "b"]),
        "Ended 1 fact.\n"
    );
    let r = env.run(&["facts", "get", "a", "b"]);
    assert_eq!(r.code, 1);
    assert_eq!(
        env.ok_json(&["facts", "invalidate", "a", "b"]),
        json!({"invalidated": 0})
    );
    assert!(env.run(&["facts", "list", "--json"]).stdout.is_empty());
    let all = env
        .run(&["facts", "list", "--include-ended", "--json"])
        .json_lines();
    assert_eq!(all.len(), 1);
    assert!(all[0]["valid_to"].is_string());
}

#[test]
fn list_filters_and_source_package_attribution() {
    let env = Env::new();
    let pkg = env.deposit("eval run", &["--actor", "ana", "--actor-type", "agent"]);
    let f = env.ok_json(&[
        "facts",
        "assert",
        "eval",
        "score",
        "0.9",
        "--source",
        &pkg,
        "--tag",
        "bench",
        "--confidence",
        "0.5",
    ])["fact"]
        .clone();
    assert_eq!(f["source_package_id"], pkg.as_str());
    assert_eq!(
        f["asserted_by"],
        json!({"id": "ana", "type": "agent"}),
        "asserted_by copies the package's created_by"
    );
    assert_eq!(f["confidence"], 0.5);
    assert_eq!(f["tags"], json!(["bench"]));
    env.ok(&["facts", "assert", "web", "status", "up"]);
    let subjects = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["facts", "list", "--json"];
        all.extend_from_slice(args);
        env.run(&all)
            .json_lines()
            .iter()
            .map(|f| f["subject"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(subjects(&[]), ["eval", "web"]);
    assert_eq!(subjects(&["--subject", "web"]), ["web"]);
    assert_eq!(subjects(&["--predicate", "score"]), ["eval"]);
    assert_eq!(subjects(&["--tag", "bench"]), ["eval"]);
    let r = env.run(&[
        "facts",
        "assert",
        "x",
        "y",
        "z",
        "--source",
        "pkg_missing",
        "--json",
    ]);
    assert_eq!(r.error()["error"], "package_not_found");
}

#[test]
fn bad_input_is_refused_and_writes_nothing() {
    let env = Env::new();
    // Each message names what was wrong: the empty subject or predicate, the confidence out of
    // range, the flag with an unreadable time, the unknown session.
    let cases: &[(&[&str], i32)] = &[
        (&["facts", "assert", "", "p", "v"], 4),
        (&["facts", "assert", "s", "", "v"], 4),
        (
            &["facts", "assert", "s", "p", "v", "--confidence", "1.5"],
            4,
        ),
        (
            &["facts", "assert", "s", "p", "v", "--confidence", "-0.1"],
            4,
        ),
        (
            &["facts", "assert", "s", "p", "v", "--valid-from", "someday"],
            4,
        ),
        (&["facts", "get", "s", "p", "--at", "noon"], 4),
        (
            &["facts", "assert", "s", "p", "v", "--session", "sess_nope"],
            1,
        ),
        (
            &["facts", "assert", "s", "p", "v", "--session", "calm-otter"],
            1,
        ),
    ];
    let mut errors = Vec::new();
    for (args, code) in cases {
        let mut all = args.to_vec();
        all.push("--json");
        let r = env.run(&all);
        assert_eq!(r.code, *code, "{args:?}: {}", r.stderr);
        errors.push(format!("$ relay {all:?}\n{}", r.transcript()));
    }
    snapshot!("bad_input", errors.join("\n"));
    assert!(!facts_file(&env).exists(), "nothing was written");
}

/// Two clones assert the same key independently; git's union driver concatenates their lines in
/// either order. Both orders must give the same current fact and the same history.
#[test]
fn merged_clones_agree_whatever_the_line_order() {
    let base = Env::new();
    assert_at(&base, "v1", "2026-01-01T00:00:00Z");
    let common = read(&facts_file(&base));
    let clone_a = Env::new();
    let clone_b = Env::new();
    for clone in [&clone_a, &clone_b] {
        std::fs::create_dir_all(facts_file(clone).parent().unwrap()).unwrap();
        std::fs::write(facts_file(clone), &common).unwrap();
    }
    assert_at(&clone_a, "from-a", "2026-03-01T00:00:00Z");
    assert_at(&clone_b, "from-b", "2026-02-01T00:00:00Z");
    assert_at(&clone_b, "from-b2", "2026-03-01T00:00:00Z");
    let only = |env: &Env| {
        read(&facts_file(env))
            .strip_prefix(&common)
            .unwrap()
            .to_string()
    };
    let (a, b) = (only(&clone_a), only(&clone_b));

    let mut answers = Vec::new();
    for merged in [
        format!("{common}{a}{b}"),
        format!("{common}{b}{a}"),
        format!("{common}{b}{a}{a}"),
    ] {
        let env = Env::new();
        std::fs::create_dir_all(facts_file(&env).parent().unwrap()).unwrap();
        std::fs::write(facts_file(&env), merged).unwrap();
        let current = env.ok_json(&["facts", "get", "svc", "status"]);
        let history = env
            .run(&["facts", "history", "svc", "status", "--json"])
            .stdout;
        let at_feb = env.ok_json(&["facts", "get", "svc", "status", "--at", "2026-02-15"]);
        answers.push((current, history, at_feb));
        // The next assert closes every open fact of the key, healing the fork.
        env.ok(&["facts", "assert", "svc", "status", "healed"]);
        let open = env
            .run(&["facts", "list", "--include-ended", "--json"])
            .json_lines();
        assert_eq!(open.iter().filter(|f| f["valid_to"].is_null()).count(), 1);
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:#?}");
    let (current, _, at_feb) = &answers[0];
    // Both forks start at 2026-03-01; the tie goes to the later created_at, then the greater id.
    assert!(["from-a", "from-b2"].contains(&current["value"].as_str().unwrap()));
    assert_eq!(at_feb["value"], "from-b");
}

#[test]
fn concurrent_asserts_form_one_gapless_chain() {
    let env = Env::new();
    let writers = 8;
    let per_writer = 100;
    std::thread::scope(|s| {
        for w in 0..writers {
            let env = &env;
            s.spawn(move || {
                for i in 0..per_writer {
                    let value = format!("w{w}-{i}");
                    let r = env.run(&["facts", "assert", "counter", "value", &value]);
                    assert_eq!(r.code, 0, "{}", r.stderr);
                }
            });
        }
    });
    let text = read(&facts_file(&env));
    assert!(text.ends_with('\n'));
    for line in text.lines() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("torn line {line:?}: {e}"));
    }
    // The first assert writes one line, each later one two.
    assert_eq!(text.lines().count(), 2 * writers * per_writer - 1);
    let history = env
        .run(&["facts", "history", "counter", "value", "--json"])
        .json_lines();
    assert_eq!(history.len(), writers * per_writer);
    assert_eq!(
        history.iter().filter(|f| f["valid_to"].is_null()).count(),
        1,
        "exactly one current fact"
    );
    for pair in history.windows(2) {
        assert_eq!(
            pair[0]["valid_to"], pair[1]["valid_from"],
            "gap or overlap between {} and {}",
            pair[0], pair[1]
        );
    }
    assert!(history.last().unwrap()["valid_to"].is_null());
}

#[test]
fn non_finite_confidence_empty_keys_and_archived_projects_are_refused() {
    let env = Env::new();
    let mut errors = Vec::new();
    for bad in ["--confidence=NaN", "--confidence=inf", "--confidence=-inf"] {
        let r = env.run(&["facts", "assert", "s", "p", "v", bad, "--json"]);
        assert_eq!(r.code, 4, "{bad}: {}", r.stderr);
        errors.push(r.transcript());
    }
    // Each names the confidence.
    snapshot!("non_finite_confidence", errors.join("\n"));
    let r = env.run(&["facts", "invalidate", "", "", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (4, Some("invalid_schema"))
    );
    assert!(!facts_file(&env).exists());
    env.ok(&["projects", "create", "old"]);
    env.ok(&["projects", "archive", "old"]);
    let r = env.run(&[
        "facts",
        "assert",
        "s",
        "p",
        "v",
        "--project",
        "old",
        "--json",
    ]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (3, Some("project_archived"))
    );
}

#[test]
fn an_explicit_actor_beats_the_source_package_author() {
    let env = Env::new();
    let pkg = env.deposit("eval", &["--actor", "bob"]);
    let f = env.ok_json(&[
        "facts", "assert", "k", "q", "v", "--source", &pkg, "--actor", "dave",
    ])["fact"]
        .clone();
    assert_eq!(f["asserted_by"], json!({"id": "dave", "type": "human"}));
    assert_eq!(f["source_package_id"], pkg.as_str());
}

#[test]
fn foreign_precision_valid_from_can_be_superseded_at_the_same_instant() {
    let env = Env::new();
    let line = json!({"fact_id": "fact_ns", "project_id": "demo", "subject": "s", "predicate": "p", "value": "old",
                      "valid_from": "2026-01-01T00:00:00.0000019Z", "created_at": "2026-01-01T00:00:00Z"});
    std::fs::create_dir_all(facts_file(&env).parent().unwrap()).unwrap();
    std::fs::write(facts_file(&env), format!("{line}\n")).unwrap();
    let f = env.ok_json(&[
        "facts",
        "assert",
        "s",
        "p",
        "new",
        "--valid-from",
        "2026-01-01T00:00:00.0000019Z",
    ])["fact"]
        .clone();
    assert_eq!(
        f["valid_from"], "2026-01-01T00:00:00.000001900Z",
        "no precision is lost"
    );
    let history = env
        .run(&["facts", "history", "s", "p", "--json"])
        .json_lines();
    assert_eq!(
        history[0]["valid_to"], "2026-01-01T00:00:00.0000019Z",
        "closed at its own start, verbatim"
    );
    assert_eq!(env.ok_json(&["facts", "get", "s", "p"])["value"], "new");
}

/// §8.6: an assert supersedes unless it restates the current fact exactly. The same value
/// with another confidence, source, tag or start is a new fact; only the identical assert is
/// a no-op, and it says `"unchanged": true`.
#[test]
fn the_same_value_with_other_metadata_supersedes() {
    let env = Env::new();
    let pkg = env.deposit("eval run", &[]);
    let first = assert_at(&env, "live", "2026-01-01T00:00:00Z");
    let mut current = first.clone();
    for (extra, member, expected) in [
        (
            vec!["--valid-from", "2026-02-01T00:00:00Z"],
            "valid_from",
            json!("2026-02-01T00:00:00.000000Z"),
        ),
        (vec!["--confidence", "0.5"], "confidence", json!(0.5)),
        (
            vec!["--source", pkg.as_str()],
            "source_package_id",
            json!(pkg),
        ),
        (vec!["--tag", "ops"], "tags", json!(["ops"])),
    ] {
        let mut args = vec!["facts", "assert", "svc", "status", "live"];
        args.extend(&extra);
        let r = env.ok_json(&args);
        assert_eq!(r["unchanged"], false, "{extra:?}");
        assert_eq!(r["fact"][member], expected, "{extra:?}");
        assert_ne!(
            r["fact"]["fact_id"], current["fact_id"],
            "{extra:?}: a new fact"
        );
        assert_eq!(r["superseded"], json!([current["fact_id"]]), "{extra:?}");
        current = r["fact"].clone();
    }
    let before = read(&facts_file(&env));
    let same = env.ok_json(&["facts", "assert", "svc", "status", "live", "--tag", "ops"]);
    assert_eq!(
        same,
        json!({"fact": current, "unchanged": true, "superseded": []}),
        "the identical assert is a no-op"
    );
    assert_eq!(read(&facts_file(&env)), before);
    let history = env
        .run(&["facts", "history", "svc", "status", "--json"])
        .json_lines();
    assert_eq!(history.len(), 5);
    assert_eq!(history[0]["fact_id"], first["fact_id"]);
}

/// §7.1: a fact's value is text ("Numeric values MUST be serialized as strings"): a JSON
/// number is accepted and stored as its JSON text by one rule in the core request
/// (`request::facts::number_text`, `1e2` → `"100.0"`), and the text `1e2` is stored as
/// written on every door. (MCP's number goes through the same request type; its tool schema
/// is generated from it by the MCP conversion, so it is not asserted here.)
#[test]
fn a_numeric_value_is_stringified_by_one_rule_and_its_text_kept_as_written() {
    let env = Env::new();
    let server = crate::serve::Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/facts");
    let http = |value: Value| {
        let body = json!({"subject": "bench", "predicate": "score", "value": value});
        crate::serve::post_json(&env, &url, &body)
    };
    let mcp = |value: Value| {
        let args = json!({"subject": "bench", "predicate": "score", "value": value});
        crate::mcp::serve(&env, &[crate::mcp::call(1, "facts_assert", args)]).remove(0)
    };
    let (status, by_http) = http(json!(1e2));
    assert_eq!(status, 201, "{by_http}");
    assert_eq!(by_http["fact"]["value"], "100.0");
    let (status, by_http) = http(json!(42));
    assert_eq!(status, 201, "{by_http}");
    assert_eq!(by_http["fact"]["value"], "42");
    let (status, e) = http(json!(true));
    assert_eq!(
        (status, e["error"].as_str()),
        (400, Some("invalid_schema")),
        "{e}"
    );
    let (status, by_http) = http(json!("1e2"));
    assert_eq!(status, 201, "{by_http}");
    assert_eq!(by_http["fact"]["value"], "1e2");
    let by_mcp = crate::mcp::ok(&mcp(json!("2e2")));
    assert_eq!(by_mcp["fact"]["value"], "2e2");
    let by_cli = env.ok_json(&["facts", "assert", "bench", "score", "3e2"]);
    assert_eq!(by_cli["fact"]["value"], "3e2");
}

/// §12.1: `x-*` members of an asserted fact are kept and returned, on the CLI (`--field`) and
/// over HTTP; another unknown member is refused as `invalid_schema`.
#[test]
fn x_members_of_a_fact_are_kept_and_returned() {
    let env = Env::new();
    let by_cli = env.ok_json(&[
        "facts",
        "assert",
        "api",
        "p99",
        "120",
        "--field",
        "x-unit=ms",
        "--field",
        "x-runs=30",
    ]);
    assert_eq!(by_cli["fact"]["x-unit"], "ms");
    assert_eq!(by_cli["fact"]["x-runs"], 30);
    let got = env.ok_json(&["facts", "get", "api", "p99"]);
    assert_eq!((&got["x-unit"], &got["x-runs"]), (&json!("ms"), &json!(30)));
    // The same value with the same members restates the fact; other members supersede it.
    let same = [
        "facts",
        "assert",
        "api",
        "p99",
        "120",
        "--field",
        "x-unit=ms",
    ];
    let again = env.ok_json(&[&same[..], &["--field", "x-runs=30"]].concat());
    assert_eq!(again["unchanged"], true, "{again}");
    let other = env.ok_json(&same);
    assert_eq!(
        other["superseded"],
        json!([by_cli["fact"]["fact_id"]]),
        "{other}"
    );
    assert_eq!(other["fact"].get("x-runs"), None, "{other}");
    let refused = env.run(&["facts", "assert", "api", "p99", "1", "--field", "unit=ms"]);
    assert_ne!(refused.code, 0);
    assert!(refused.stderr.contains("x-"), "{}", refused.stderr);

    let server = crate::serve::Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/facts");
    let body = json!({"subject": "web", "predicate": "p99", "value": "80", "x-unit": "ms"});
    let (status, r) = crate::serve::post_json(&env, &url, &body);
    assert_eq!(status, 201, "{r}");
    assert_eq!(r["fact"]["x-unit"], "ms");
    let listed = env.ok_json(&["facts", "get", "web", "p99"]);
    assert_eq!(listed["x-unit"], "ms");
    let body = json!({"subject": "web", "predicate": "p99", "value": "80", "unit": "ms"});
    let (status, e) = crate::serve::post_json(&env, &url, &body);
    assert_eq!(
        (status, e["error"].as_str()),
        (400, Some("invalid_schema")),
        "{e}"
    );
}

/// §8.7: invalidate ends the current fact only where it holds `object`, given as the CLI's
/// VALUE argument or HTTP's `?object=` (`?value=` still works).
#[test]
fn invalidate_takes_the_object_filter_on_every_transport() {
    let env = Env::new();
    env.ok(&["facts", "assert", "api", "status", "live"]);
    let cli = env.ok_json(&["facts", "invalidate", "api", "status", "down"]);
    assert_eq!(cli, json!({"invalidated": 0}));
    let server = crate::serve::Served::start(&env, &[]);
    let delete = |query: &str| {
        let url = server.at(&format!(
            "/v1/projects/demo/facts?subject=api&predicate=status&{query}"
        ));
        crate::serve::curl(&env, &["-X", "DELETE", &url])
    };
    assert_eq!(delete("object=down"), (200, json!({"invalidated": 0})));
    assert_eq!(delete("object=live"), (200, json!({"invalidated": 1})));
    env.ok(&["facts", "assert", "api", "status", "up"]);
    assert_eq!(delete("value=up"), (200, json!({"invalidated": 1})));
}
