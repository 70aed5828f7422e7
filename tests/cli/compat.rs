//! Stores written by earlier releases open in this one (DESIGN §4): every kind of record of
//! `tests/data/stores/relay-0.1.0` reads back as 0.1.0 wrote it, verifies clean, exports, and
//! takes new writes.

use std::path::Path;

use serde_json::{Value, json};

use crate::harness::Env;

/// Copies a directory tree.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn old_store() -> Env {
    let env = Env::empty();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/stores/relay-0.1.0/.relay");
    copy_tree(&fixture, &env.store());
    env
}

#[test]
fn a_store_written_by_0_1_0_opens() {
    let env = old_store();
    let r = env.run(&["verify", "--json"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);

    let latest = env.run(&["pull", "--latest", "10", "--json"]).packages();
    let titles: Vec<&str> = latest
        .iter()
        .map(|p| p["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        ["Agent handoff", "Moved sessions to Redis", "Nightly eval"]
    );
    let eval = &latest[2];
    assert_eq!(
        (&eval["status"], &eval["x-score"], &eval["created_at"]),
        (
            &json!("complete"),
            &json!(0.97),
            &json!("2026-05-01T12:00:00Z")
        ),
        "the approved version is current, unknown members and times kept"
    );
    let decision = env.ok_json(&["pull", latest[1]["package_id"].as_str().unwrap()]);
    assert_eq!(
        decision["package"]["decisions_made"],
        json!(["Redis over Postgres"])
    );

    let live = env.ok_json(&["facts", "get", "dashboard", "status"]);
    assert_eq!(live["value"], "live");
    assert_eq!(live["source_package_id"], decision["package"]["package_id"]);
    let history = env
        .run(&["facts", "history", "dashboard", "status", "--json"])
        .json_lines();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["valid_to"], "2026-04-10T00:00:00.000000Z");
    assert!(
        history.iter().all(|f| f.get("x-stored_valid_to").is_none()),
        "a chain 0.1.0 wrote is already the effective one"
    );
    let ended = env.run(&["facts", "get", "eval", "recall_at_5"]);
    assert_eq!(ended.code, 1, "an invalidated fact stays ended");
    let all = env
        .run(&["facts", "list", "--include-ended", "--json"])
        .json_lines();
    assert_eq!(all.len(), 3);

    let session = env.ok_json(&["session", "show", "coral-heron"]);
    assert_eq!(session["session"]["actor_id"], "claude");
    assert_eq!(
        session["session"]["packages_deposited"],
        json!([latest[0]["package_id"]])
    );
    let projects = env.run(&["projects", "list", "--json"]).json_lines();
    let web: Vec<&Value> = projects
        .iter()
        .filter(|p| p["project_id"] == "web")
        .collect();
    assert!(web[0]["archived_at"].is_string(), "{projects:?}");

    let export = env.run(&["export", "--all-projects", "--out", "-"]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert_eq!(export.json_lines().len(), 10, "{}", export.stdout);

    // New writes land beside the old lines.
    env.deposit("Written by this relay", &[]);
    let asserted = env.ok_json(&["facts", "assert", "eval", "recall_at_5", "98.0"]);
    assert_eq!(asserted["superseded"], json!([]));
    let r = env.run(&["verify", "--json"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
}
