//! `relay review`, `pull --history`, drafts, `relay status` and `relay conformance`.

use serde_json::{Value, json};

use crate::harness::{Env, json_snapshot, read, snapshot};

fn deposit_with_status(env: &Env, status: &str) -> String {
    env.deposit(&format!("a {status} package"), &["--status", status])
}

fn status_of(env: &Env, id: &str) -> String {
    env.ok_json(&["pull", id])["package"]["status"]
        .as_str()
        .unwrap()
        .to_string()
}

fn log_bytes(env: &Env) -> Vec<String> {
    env.package_lines("demo")
}

#[test]
fn every_transition_of_the_section_5_3_table() {
    let env = Env::new();
    // (starting status, command, resulting status or the refusal)
    let cases: &[(&str, &[&str], Option<&str>)] = &[
        ("draft", &["flag", "--human"], Some("awaiting_review")),
        ("draft", &["approve"], Some("complete")),
        ("draft", &["request-changes", "--note", "n"], None),
        // Flagged once is enough: awaiting_review leads only to complete or
        // revision_requested.
        ("awaiting_review", &["flag", "--agent"], None),
        ("awaiting_review", &["approve"], Some("complete")),
        (
            "awaiting_review",
            &["request-changes", "--note", "n"],
            Some("revision_requested"),
        ),
        (
            "revision_requested",
            &["flag", "--human"],
            Some("awaiting_review"),
        ),
        ("revision_requested", &["approve"], Some("complete")),
        (
            "revision_requested",
            &["request-changes", "--note", "n"],
            None,
        ),
        ("complete", &["flag", "--human"], None),
        ("complete", &["approve"], None),
        ("complete", &["request-changes", "--note", "n"], None),
    ];
    let mut refusals = Vec::new();
    for (from, cmd, to) in cases {
        let id = deposit_with_status(&env, from);
        let mut args = vec!["review", cmd[0], id.as_str()];
        args.extend_from_slice(&cmd[1..]);
        args.push("--json");
        let before = log_bytes(&env);
        let r = env.run(&args);
        match to {
            Some(to) => {
                assert_eq!(r.code, 0, "{from} {cmd:?}: {}", r.stderr);
                let v = r.json();
                assert_eq!(v["package"]["status"], *to);
                assert_eq!(v["version"], 2);
                assert_eq!(v["transition"]["from"], *from);
                assert_eq!(v["transition"]["to"], *to);
                assert_eq!(status_of(&env, &id), *to);
                assert_eq!(log_bytes(&env).len(), before.len() + 1);
            }
            None => {
                assert_eq!(r.code, 3, "{from} {cmd:?} must be refused: {}", r.stdout);
                assert_eq!(r.error()["error"], "invalid_transition");
                refusals.push(format!("{from} {cmd:?}\n{}", r.transcript()));
                assert_eq!(log_bytes(&env), before, "{from} {cmd:?} wrote something");
                assert_eq!(status_of(&env, &id), *from);
            }
        }
    }
    snapshot!("invalid_transitions", refusals.join("\n"));
    let r = env.run(&["review", "approve", "pkg_missing", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("package_not_found"))
    );
    let mut errors = vec![r.transcript()];
    let r = env.run(&["review", "flag", "pkg_missing"]);
    assert_eq!(r.code, 4, "flag needs --human or --agent");
    errors.push(r.transcript());
    let r = env.run(&["review", "request-changes", "pkg_missing"]);
    assert_eq!(r.code, 4, "request-changes needs --note");
    errors.push(r.transcript());
    let id = deposit_with_status(&env, "complete");
    errors.push(env.run(&["review", "approve", &id]).transcript());
    snapshot!("usage_and_not_found", errors.join("\n"));
}

#[test]
fn a_transition_is_a_new_version_with_its_metadata_and_history_shows_all() {
    let env = Env::new();
    let id = deposit_with_status(&env, "draft");
    let flagged = env.ok_json(&[
        "review",
        "flag",
        &id,
        "--human",
        "--note",
        "Check the SQL",
        "--actor",
        "ana",
    ]);
    assert_eq!(flagged["package"]["review_type"], "human");
    let t = &flagged["transition"];
    assert_eq!(t["action"], "flag");
    assert_eq!(t["by"], json!({"id": "ana", "type": "human"}));
    assert_eq!(t["note"], "Check the SQL");
    assert!(t["at"].as_str().unwrap().ends_with('Z'));
    // The hash covers the new package, not the envelope.
    let line: Value = serde_json::from_str(log_bytes(&env).last().unwrap()).unwrap();
    assert_eq!(line, flagged);
    env.ok_json(&["review", "request-changes", &id, "--note", "Add a rollback"]);
    env.ok_json(&["review", "approve", &id]);

    let history = env.run(&["pull", &id, "--history", "--json"]).json_lines();
    let statuses: Vec<_> = history
        .iter()
        .map(|v| v["package"]["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["draft", "awaiting_review", "revision_requested", "complete"]
    );
    assert!(history[0].get("version").is_none() && history[0].get("transition").is_none());
    assert_eq!(
        history
            .iter()
            .skip(1)
            .map(|v| v["version"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [2, 3, 4]
    );
    json_snapshot!("history_json", &history);
    let human = env.ok(&["pull", &id, "--history"]);
    // v3 shows "awaiting_review → revision_requested  request changes by tester" and its note.
    snapshot!("history", human);
    // Plain pull shows the current version; the latest listing counts the package once.
    assert_eq!(status_of(&env, &id), "complete");
    assert_eq!(env.run(&["pull", "--json"]).json_lines().len(), 1);
}

#[test]
fn review_list_shows_who_flagged_when_and_why() {
    let env = Env::new();
    let a = deposit_with_status(&env, "draft");
    let b = deposit_with_status(&env, "draft");
    let c = env.deposit(
        "born awaiting",
        &["--status", "awaiting_review", "--review", "agent"],
    );
    env.ok(&[
        "review",
        "flag",
        &a,
        "--human",
        "--note",
        "Needs a DBA",
        "--actor",
        "ana",
    ]);
    env.ok(&["review", "flag", &b, "--agent"]);
    let all = env.run(&["review", "list", "--json"]).json_lines();
    let ids: Vec<_> = all
        .iter()
        .map(|v| v["package"]["package_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [c.as_str(), a.as_str(), b.as_str()],
        "oldest request first"
    );
    json_snapshot!("list_json", &all);
    assert_eq!(all[1]["flagged_by"], json!({"id": "ana", "type": "human"}));
    assert_eq!(all[1]["note"], "Needs a DBA");
    assert_eq!(
        all[0]["flagged_by"]["id"], "tester",
        "deposited awaiting review: the depositor asked"
    );
    let humans = env
        .run(&["review", "list", "--human", "--json"])
        .json_lines();
    assert_eq!(humans.len(), 1);
    assert_eq!(
        env.run(&["review", "list", "--agent", "--json"])
            .json_lines()
            .len(),
        2
    );
    let text = env.ok(&["review", "list", "--human"]);
    // Flagged by ana, with her note "Needs a DBA".
    snapshot!("list_human", text);
    snapshot!("list", env.ok(&["review", "list"]));
    env.ok(&["review", "approve", &a]);
    assert_eq!(env.run(&["review", "list", "--json"]).json_lines().len(), 2);
    env.ok(&["projects", "create", "side"]);
    env.deposit(
        "elsewhere",
        &["--project", "side", "--status", "awaiting_review"],
    );
    assert_eq!(env.run(&["review", "list", "--json"]).json_lines().len(), 2);
    assert_eq!(
        env.run(&["review", "list", "--all-projects", "--json"])
            .json_lines()
            .len(),
        3
    );
}

/// Two clones transition one package differently; git's union merge concatenates their lines
/// in either order. Every clone must pick the same current version.
#[test]
fn forked_transitions_resolve_the_same_in_both_merge_orders() {
    // (clone A's review commands, clone B's, the status every merge must show; "" = either)
    type Steps<'a> = &'a [&'a [&'a str]];
    let scenarios: &[(Steps, Steps, &str)] = &[
        // complete wins, even against a higher version number
        (
            &[&["approve"]],
            &[&["request-changes", "--note", "x"], &["flag", "--agent"]],
            "complete",
        ),
        // otherwise the higher version wins
        (
            &[&["request-changes", "--note", "x"]],
            &[&["request-changes", "--note", "y"], &["flag", "--agent"]],
            "awaiting_review",
        ),
        // same version: the greater hash wins, whichever line comes first
        (
            &[&["request-changes", "--note", "x"], &["flag", "--human"]],
            &[&["request-changes", "--note", "y"], &["flag", "--agent"]],
            "",
        ),
    ];
    for (steps_a, steps_b, expected) in scenarios {
        let base = Env::new();
        let id = base.deposit(
            "shared",
            &["--status", "awaiting_review", "--review", "human"],
        );
        let common = base.package_lines("demo");
        let run_clone = |steps: &[&[&str]]| -> Vec<String> {
            let env = Env::new();
            let log = common_log_path(&env, &base);
            std::fs::create_dir_all(log.parent().unwrap()).unwrap();
            std::fs::write(&log, format!("{}\n", common.join("\n"))).unwrap();
            for step in steps {
                let mut args = vec!["review", step[0], id.as_str()];
                args.extend_from_slice(&step[1..]);
                env.ok(&args);
            }
            env.package_lines("demo")[common.len()..].to_vec()
        };
        let (a, b) = (run_clone(steps_a), run_clone(steps_b));
        let mut results = Vec::new();
        for order in [[&a, &b], [&b, &a]] {
            let env = Env::new();
            let log = common_log_path(&env, &base);
            std::fs::create_dir_all(log.parent().unwrap()).unwrap();
            let mut lines = common.clone();
            lines.extend(order[0].iter().cloned());
            lines.extend(order[1].iter().cloned());
            std::fs::write(&log, format!("{}\n", lines.join("\n"))).unwrap();
            results.push(env.ok_json(&["pull", &id])["package"].clone());
        }
        assert_eq!(results[0], results[1], "merge order changed the answer");
        if !expected.is_empty() {
            assert_eq!(results[0]["status"], *expected);
        }
    }
}

#[test]
fn identical_transitions_by_two_people_resolve_the_same_in_both_orders() {
    let base = Env::new();
    let id = base.deposit("shared draft", &["--status", "draft"]);
    let common = base.package_lines("demo");
    let clone = |actor: &str, note: &str| -> String {
        let env = Env::new();
        let log = common_log_path(&env, &base);
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        std::fs::write(&log, format!("{}\n", common.join("\n"))).unwrap();
        env.ok(&[
            "review", "flag", &id, "--human", "--note", note, "--actor", actor,
        ]);
        env.package_lines("demo").last().unwrap().clone()
    };
    let (a, b) = (clone("alice", "from A"), clone("bob", "from B"));
    let mut answers = Vec::new();
    for order in [[&a, &b], [&b, &a]] {
        let env = Env::new();
        let log = common_log_path(&env, &base);
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        std::fs::write(
            &log,
            format!("{}\n{}\n{}\n", common.join("\n"), order[0], order[1]),
        )
        .unwrap();
        let listed = env.run(&["review", "list", "--json"]).json_lines();
        let history = env.run(&["pull", &id, "--history", "--json"]).json_lines();
        assert_eq!(history.len(), 3, "both forks of version 2 are shown");
        answers.push((listed, history));
    }
    assert_eq!(answers[0], answers[1]);
}

fn common_log_path(env: &Env, base: &Env) -> std::path::PathBuf {
    let dir = base.store().join("projects/demo/packages");
    let name = std::fs::read_dir(dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    env.store().join("projects/demo/packages").join(name)
}

#[test]
fn drafts_are_visible_to_their_creator_only() {
    let env = Env::new();
    env.deposit("mine", &["--status", "draft", "--actor", "ana"]);
    let theirs = env.deposit("theirs", &["--status", "draft", "--actor", "bob"]);
    env.deposit("public", &["--actor", "bob"]);
    let titles = |actor: &str| -> Vec<String> {
        env.run_env(&["pull", "--json"], &[("RELAY_ACTOR", actor)])
            .packages()
            .iter()
            .map(|p| p["title"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(titles("ana"), ["public", "mine"]);
    assert_eq!(titles("bob"), ["public", "theirs"]);
    assert_eq!(titles("carol"), ["public"]);
    // A relevant pull hides them the same way, and git's identity decides when nothing else does.
    let found = |env_vars: &[(&str, &str)]| -> Vec<String> {
        env.run_env(&["pull", "--relevant", "theirs", "--json"], env_vars)
            .json_lines()
            .iter()
            .map(|r| r["package"]["title"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(found(&[("RELAY_ACTOR", "bob")]), ["theirs"]);
    assert!(found(&[("RELAY_ACTOR", "carol")]).is_empty());
    assert!(found(&[("USER", "carol")]).is_empty());
    assert_eq!(found(&[("USER", "bob")]), ["theirs"]);
    // Asked for by id, a draft is shown.
    assert_eq!(
        env.run_env(&["pull", &theirs, "--json"], &[("RELAY_ACTOR", "carol")])
            .json()["package"]["title"],
        "theirs"
    );
}

#[test]
fn conformance_descriptor_is_exact() {
    let env = Env::empty();
    let v = env.ok_json(&["conformance"]);
    assert_eq!(
        v,
        json!({
            "protocol_version": "0.1",
            "conformance_level": "L3",
            "capabilities": {"hybrid_search": false, "semantic_search": false, "realtime": true, "blob_storage": false,
                             "x-keyword_search": true, "x-expiry": true, "x-retraction": true,
                             "x-signed_records": true},
            "implementation": {"name": "relay", "version": env!("CARGO_PKG_VERSION")}
        })
    );
    json_snapshot!("conformance_json", &v);
    let text = env.ok(&["conformance"]);
    assert!(
        text.starts_with("Agentic Protocol 0.1, conformance level L3\n"),
        "{text}"
    );
    assert!(text.ends_with("  x-signed_records: yes\n"), "{text}");
    // Every capability on its own line: semantic_search no, x-keyword_search and x-retraction yes.
    snapshot!("conformance", text);
}

#[test]
fn status_on_an_empty_and_a_populated_store() {
    let env = Env::new();
    let v = env.ok_json(&["status"]);
    assert_eq!(
        v["projects"],
        json!([{"project_id": "demo", "name": "demo", "archived": false, "packages": 0}])
    );
    assert_eq!(v["packages"], 0);
    assert_eq!(v["packages_by_type"], json!({}));
    assert_eq!(v["awaiting_review"], 0);
    assert_eq!(v["facts"], json!({"total": 0, "live": 0}));
    assert_eq!(v["sessions"], json!({"total": 0, "live": 0}));
    assert!(v["last_deposit"].is_null());
    assert_eq!(v["warnings"], json!([]));
    assert!(v["size_bytes"].as_u64().unwrap() > 0);
    json_snapshot!("status_empty_json", &v);
    snapshot!("status_empty", env.ok(&["status"]));

    env.ok(&["projects", "create", "old"]);
    env.deposit("in old", &["--project", "old", "--type", "milestone"]);
    env.ok(&["projects", "archive", "old"]);
    let d = env.deposit("draft", &["--status", "draft"]);
    env.ok(&["review", "flag", &d, "--human"]);
    env.deposit("decided", &["--type", "decision"]);
    let last = env.ok_json(&["deposit", "--title", "last"])["package"]["created_at"].clone();
    env.ok(&["facts", "assert", "a", "b", "1"]);
    env.ok(&["facts", "assert", "a", "b", "2"]);
    env.ok(&["facts", "assert", "c", "d", "x"]);
    // Named callsigns: the store's size in the snapshot does not depend on a drawn one.
    env.ok(&["session", "start", "--callsign", "calm-otter"]);
    env.ok(&["session", "start", "--shell", "--callsign", "bold-lynx"]);
    env.ok(&["session", "end"]);
    let log = env.store().join("projects/demo/packages");
    let file = std::fs::read_dir(&log)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = read(&file);
    std::fs::write(&file, format!("{text}not json\n")).unwrap();

    let v = env.ok_json(&["status"]);
    assert_eq!(v["packages"], 4, "a transitioned package counts once");
    assert_eq!(
        v["packages_by_type"],
        json!({"decision": 1, "milestone": 1, "standard": 2})
    );
    assert_eq!(
        v["packages_by_status"],
        json!({"awaiting_review": 1, "complete": 3})
    );
    assert_eq!(v["awaiting_review"], 1);
    assert_eq!(v["facts"], json!({"total": 3, "live": 2}));
    assert_eq!(v["sessions"], json!({"total": 2, "live": 1}));
    assert_eq!(v["last_deposit"], last);
    let projects = v["projects"].as_array().unwrap();
    assert_eq!(
        projects[1],
        json!({"project_id": "old", "name": "old", "archived": true, "packages": 1})
    );
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1);
    assert_eq!(v["warnings"][0]["warning"], "corrupt_line");
    json_snapshot!("status_json", &v);
    let human = env.ok(&["status"]);
    // "old  archived  1 packages", "awaiting review: 1", "Facts 2 current, 3 in all",
    // "Integrity warnings 1".
    snapshot!("status", human);
}
