//! `relay pull`: specific, latest, filters and errors.

use serde_json::json;

use crate::harness::{Env, json_snapshot, snapshot};

fn titles(env: &Env, args: &[&str]) -> Vec<String> {
    let mut all = vec!["pull", "--json"];
    all.extend_from_slice(args);
    let r = env.run(&all);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.packages()
        .iter()
        .map(|p| p["title"].as_str().unwrap().to_string())
        .collect()
}

fn deposit_at(env: &Env, title: &str, created_at: &str, extra: serde_json::Value) {
    let mut p = json!({"title": title, "created_at": created_at});
    p.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let r = env.run_stdin(&["deposit", "--from", "-"], p.to_string().as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn latest_is_newest_first_with_ties_by_id_and_defaults_to_five() {
    let env = Env::new();
    for i in 1..=7 {
        deposit_at(
            &env,
            &format!("p{i}"),
            &format!("2026-03-0{i}T00:00:00Z"),
            json!({}),
        );
    }
    deposit_at(
        &env,
        "tie-b",
        "2026-03-09T00:00:00Z",
        json!({"package_id": "pkg_b"}),
    );
    deposit_at(
        &env,
        "tie-a",
        "2026-03-09T00:00:00Z",
        json!({"package_id": "pkg_a"}),
    );
    assert_eq!(titles(&env, &[]), ["tie-a", "tie-b", "p7", "p6", "p5"]);
    assert_eq!(
        titles(&env, &["--latest"]),
        ["tie-a", "tie-b", "p7", "p6", "p5"]
    );
    assert_eq!(titles(&env, &["--latest", "3"]), ["tie-a", "tie-b", "p7"]);
    assert_eq!(titles(&env, &["--latest", "100"]).len(), 9);
    let r = env.run(&["pull", "--latest", "3", "--json"]);
    json_snapshot!("latest_json", r.json_lines());
    snapshot!("latest_cards", env.ok(&["pull", "--latest", "3"]));
    // Other precisions are compared as instants.
    deposit_at(&env, "late", "2026-03-09T00:00:00.5Z", json!({}));
    assert_eq!(
        titles(
            &env,
            &["--latest", "1", "--until", "2026-03-09T00:00:00.6Z"]
        ),
        ["late"]
    );
}

#[test]
fn filters() {
    let env = Env::new();
    deposit_at(
        &env,
        "a",
        "2026-01-10T00:00:00Z",
        json!({"package_type": "decision", "tags": ["x", "y"]}),
    );
    deposit_at(
        &env,
        "b",
        "2026-02-10T00:00:00Z",
        json!({"package_type": "milestone", "tags": ["x"], "status": "draft"}),
    );
    deposit_at(
        &env,
        "c",
        "2026-03-10T00:00:00Z",
        json!({"created_by": {"id": "ana", "type": "agent"}}),
    );
    assert_eq!(
        titles(&env, &["--type", "decision", "--type", "milestone"]),
        ["b", "a"]
    );
    assert_eq!(titles(&env, &["--tag", "x"]), ["b", "a"]);
    assert_eq!(titles(&env, &["--tag", "x", "--tag", "y"]), ["a"]);
    assert_eq!(titles(&env, &["--actor", "ana"]), ["c"]);
    assert_eq!(titles(&env, &["--status", "draft"]), ["b"]);
    assert_eq!(titles(&env, &["--since", "2026-02-10"]), ["c", "b"]);
    assert_eq!(titles(&env, &["--until", "2026-02-10T00:00:00Z"]), ["a"]);
    assert_eq!(
        titles(&env, &["--since", "2026-02-01", "--until", "2026-03-01"]),
        ["b"]
    );
    let r = env.run(&["pull", "--since", "last tuesday", "--json"]);
    assert_eq!(r.code, 4);
    snapshot!("bad_since_json", r.transcript());
    snapshot!(
        "bad_since",
        env.run(&["pull", "--since", "last tuesday"]).transcript()
    );
    // Packages land in the log of their month.
    let months: Vec<_> = std::fs::read_dir(env.store().join("projects/demo/packages"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(
        months,
        ["2026-01.ndjson", "2026-02.ndjson", "2026-03.ndjson"]
    );
}

#[test]
fn all_projects_and_specific_across_projects() {
    let env = Env::new();
    env.ok(&["projects", "create", "other"]);
    env.deposit("here", &[]);
    let there = env.deposit("there", &["--project", "other"]);
    assert_eq!(titles(&env, &[]), ["here"]);
    assert_eq!(titles(&env, &["--all-projects"]).len(), 2);
    assert_eq!(titles(&env, &["--project", "other"]), ["there"]);
    assert_eq!(
        env.ok_json(&["pull", &there])["package"]["title"],
        "there",
        "ids are found in any project"
    );
    let r = env.run(&["pull", "--project", "ghost", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("project_not_found"))
    );
    snapshot!("unknown_project_json", r.transcript());
    snapshot!(
        "unknown_project",
        env.run(&["pull", "--project", "ghost"]).transcript()
    );
}

#[test]
fn missing_package_is_exit_1_with_the_spec_code() {
    let env = Env::new();
    let r = env.run(&["pull", "pkg_nope", "--json"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.error(),
        json!({"error": "package_not_found", "message": "no package with id `pkg_nope` in this store"})
    );
    snapshot!("missing_package_json", r.transcript());
    let r = env.run(&["pull", "pkg_nope"]);
    assert_eq!(
        r.stderr,
        "relay: error: no package with id `pkg_nope` in this store\n"
    );
    snapshot!("missing_package", r.transcript());
}

#[test]
fn human_card_shows_the_parts_and_neutralises_control_characters() {
    let env = Env::new();
    let id = env.deposit(
        "Evil \u{1b}]0;owned\u{7} title",
        &[
            "--decision",
            "Use X",
            "--question",
            "Why Y?",
            "--handoff",
            "Do Z",
            "--tag",
            "t1",
        ],
    );
    let out = env.ok(&["pull", &id]);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    // The title with its control characters shown as U+FFFD, and every part of the card.
    snapshot!("card", &out);
    let r = env.run(&["pull", &id, "--json"]);
    json_snapshot!("card_json", r.json());
    let json = env.ok_json(&["pull", &id])["package"].clone();
    assert_eq!(
        json["title"], "Evil \u{1b}]0;owned\u{7} title",
        "--json stays exact"
    );
}

#[test]
fn empty_store_prints_nothing_and_exits_0() {
    let env = Env::new();
    let r = env.run(&["pull", "--json"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let env = Env::new();
    for i in 0..30 {
        env.deposit(
            &format!("p{i}"),
            &["--description", &"long text ".repeat(500)],
        );
    }
    let mut child = env
        .command(&["pull", "--latest", "30"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_unknown_status_is_refused_on_every_transport() {
    let env = Env::new();
    env.deposit("Something", &[]);
    let cli = env.run(&["pull", "--status", "shipped"]);
    assert_eq!(cli.code, 4, "{}", cli.stderr);
    assert!(cli.stderr.contains("shipped"), "{}", cli.stderr);
    let reply = &crate::mcp::serve(
        &env,
        &[crate::mcp::call(
            1,
            "pull",
            json!({"mode": "latest", "status": "shipped"}),
        )],
    )[0];
    assert_eq!(crate::mcp::tool_error(reply).0, "invalid_input");
    let server = crate::serve::Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/packages?status=shipped");
    let (status, e) = crate::serve::curl(&env, &[&url]);
    assert_eq!(
        (status, e["error"].as_str()),
        (400, Some("invalid_input")),
        "{e}"
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("status `shipped` is not one of"),
        "{e}"
    );
}
