//! `relay import` restores a backup another conformant implementation wrote (§10.3: backups
//! MUST be restorable into any other conformant implementation). The fixture
//! `tests/data/backups/other-implementation.ndjson` holds only what the spec shapes: packages
//! (the §6.7 example among them, ids not in relay's format, an `x-*` type, `x-*` members with
//! numbers no double holds), facts with a supersession, sessions, and project records without
//! relay's own members (`updated_at`, even `name` and `created_at`). Nothing is refused; what
//! relay keeps beside a record is filled; every record reads back as it was written.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::harness::{Env, read};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/backups/other-implementation.ndjson")
}

/// The fixture's records of the kind named by `id_member`, as written.
fn lines_with(id_member: &str) -> Vec<String> {
    (read(&fixture()).lines())
        .filter(|l| l.starts_with(&format!("{{\"{id_member}\"")))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_backup_of_another_implementation_imports_verifies_and_reads_back_as_written() {
    let env = Env::new();
    let backup = fixture();
    let run = env.run(&["import", backup.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json(),
        json!({"added": {"projects": 2, "packages": 4, "facts": 3, "sessions": 2},
               "unchanged": {}, "skipped": {}, "dry_run": false})
    );
    let verify = env.run(&["verify", "--json"]);
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);

    // Each package reads back byte for byte, 30-digit integer and long decimal included.
    for line in lines_with("package_id") {
        let written: Value = serde_json::from_str(&line).unwrap();
        let id = written["package_id"].as_str().unwrap();
        let pulled = env.run(&["pull", id, "--json"]);
        assert_eq!(pulled.code, 0, "{id}: {}", pulled.stderr);
        assert!(
            pulled.stdout.starts_with(&format!("{{\"package\":{line}")),
            "{id} changed: {}",
            pulled.stdout
        );
    }
    // The §6.7 example keeps the hash the test vectors give it.
    let stored = env.package_lines("proj_dev_relay").join("\n");
    let vector = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/testdata/canonical/packages/spec-6.7-example.sha256");
    if let Ok(hash) = std::fs::read_to_string(vector) {
        assert!(stored.contains(&format!("\"hash\":\"{}\"", hash.trim())));
    }

    // Facts, current and superseded, as written.
    let facts = lines_with("fact_id");
    let history = env.ok(&[
        "facts",
        "history",
        "longmemeval_s",
        "recall_any_at_5",
        "--project",
        "proj_dev_relay",
        "--json",
    ]);
    assert_eq!(history, format!("{}\n{}\n", facts[0], facts[1]));
    let current = env.ok(&[
        "facts",
        "get",
        "docs",
        "owner",
        "--project",
        "proj_docs",
        "--json",
    ]);
    let current: Value = serde_json::from_str(&current).unwrap();
    assert_eq!(current["value"], json!("sam"));

    // Sessions as written.
    let sessions = lines_with("session_id");
    let listed = env.ok(&["session", "list", "--project", "proj_dev_relay", "--json"]);
    assert_eq!(listed, format!("{}\n", sessions[0]));

    // Projects: what the backup says, and what relay keeps beside it filled.
    let projects: Vec<Value> = (env.ok(&["projects", "list", "--json"]).lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of = |id: &str| {
        projects
            .iter()
            .find(|p| p["project_id"] == id)
            .unwrap()
            .clone()
    };
    let dev = of("proj_dev_relay");
    assert_eq!(
        (&dev["name"], &dev["created_at"], &dev["updated_at"]),
        (
            &json!("Relay development"),
            &json!("2026-04-01T09:00:00Z"),
            &json!("2026-04-01T09:00:00Z")
        )
    );
    let docs = of("proj_docs");
    assert_eq!(docs["name"], json!("Documentation"));
    assert_eq!(docs["created_at"], docs["updated_at"]);

    // Importing it again changes nothing.
    let again = env.run(&["import", backup.to_str().unwrap(), "--json"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(
        again.json(),
        json!({"added": {}, "unchanged": {"projects": 2, "packages": 4, "facts": 3, "sessions": 2},
               "skipped": {}, "dry_run": false})
    );
}
