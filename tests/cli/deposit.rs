//! `relay deposit`: flags, `--from`, idempotency, and errors that write nothing.

use serde_json::{Value, json};

use crate::harness::{Env, json_snapshot, snapshot};

#[test]
fn deposit_fills_defaults_and_stores_exactly_what_it_prints() {
    let env = Env::new();
    let v = env.ok_json(&[
        "deposit",
        "--title",
        "Shipped archive",
        "--description",
        "Soft delete",
        "--type",
        "milestone",
        "--tag",
        "archive",
        "--tag",
        "cli",
        "--decision",
        "Soft archive via archived_at",
        "--question",
        "Hard delete later?",
        "--handoff",
        "Migration applied",
        "--next-actor",
        "agent",
        "--significance",
        "8",
        "--topic",
        "storage",
        "--artifact-type",
        "feature",
        "--parent",
        "pkg_0",
        "--ext",
        "x-trust=0.5",
        "--ext",
        "x-note=plain words",
        "--actor",
        "jordan",
        "--actor-type",
        "agent",
    ]);
    json_snapshot!("full_json", &v);
    let p = &v["package"];
    assert_eq!(p["title"], "Shipped archive");
    assert_eq!(p["project_id"], "demo");
    assert_eq!(p["relay_version"], "0.1");
    assert_eq!(p["status"], "complete");
    assert_eq!(p["review_type"], "none");
    assert_eq!(p["package_type"], "milestone");
    assert_eq!(p["tags"], json!(["archive", "cli"]));
    assert_eq!(p["decisions_made"], json!(["Soft archive via archived_at"]));
    assert_eq!(p["open_questions"], json!(["Hard delete later?"]));
    assert_eq!(p["handoff_note"], "Migration applied");
    assert_eq!(p["estimated_next_actor"], "agent");
    assert_eq!(p["significance"], 8);
    assert_eq!(p["parent_package_id"], "pkg_0");
    assert_eq!(p["x-trust"], 0.5);
    assert_eq!(p["x-note"], "plain words");
    assert_eq!(p["created_by"], json!({"id": "jordan", "type": "agent"}));
    let id = p["package_id"].as_str().unwrap();
    assert!(id.starts_with("pkg_") && id.len() == 36);
    assert!(p["created_at"].as_str().unwrap().ends_with('Z'));
    let hash = v["hash"].as_str().unwrap();
    assert!(hash.starts_with("sha256:") && hash.len() == 71);

    let lines = env.package_lines("demo");
    assert_eq!(lines.len(), 1);
    let stored: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(stored, v, "the log line is the envelope that was printed");
    assert_eq!(env.ok_json(&["pull", id])["package"], *p);
}

#[test]
fn human_output_is_id_and_hash() {
    let env = Env::new();
    let out = env.ok(&["deposit", "--title", "plain"]);
    let parts: Vec<_> = out.trim_end().split(' ').collect();
    assert_eq!(parts.len(), 2, "{out}");
    assert!(parts[0].starts_with("pkg_") && parts[1].starts_with("sha256:"));
    snapshot!("human", &out);
}

#[test]
fn actor_comes_from_env_then_user() {
    let env = Env::new();
    let v = env.ok_json(&["deposit", "--title", "t"]);
    assert_eq!(
        v["package"]["created_by"],
        json!({"id": "tester", "type": "human"})
    );
    let r = env.run_env(
        &["deposit", "--title", "t", "--json"],
        &[("RELAY_ACTOR", "bot-7"), ("RELAY_ACTOR_TYPE", "script")],
    );
    assert_eq!(
        r.json()["package"]["created_by"],
        json!({"id": "bot-7", "type": "script"})
    );
}

#[test]
fn deliverables_record_hash_size_and_type() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("docs")).unwrap();
    std::fs::write(env.path("docs/spec.md"), "hello\n").unwrap();
    let v = env.ok_json(&[
        "deposit",
        "--title",
        "d",
        "--deliverable",
        "docs/spec.md",
        "--deliverable",
        "missing.rs",
        "--deliverable",
        "https://example.com/x",
        "--deliverable",
        "docs",
    ]);
    assert_eq!(
        v["package"]["deliverables"],
        json!([
            {"path": "docs/spec.md", "type": "md",
             "hash": "sha256:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03", "size_bytes": 6},
            {"path": "missing.rs", "type": "rs"},
            {"path": "https://example.com/x", "type": "url"},
            {"path": "docs", "type": "dir"}
        ])
    );
}

#[test]
fn from_accepts_a_partial_package_and_keeps_unknown_fields() {
    let env = Env::new();
    let input = r#"{"title": "From a script", "package_type": "x-model-eval", "x-score": {"a": [1, null, ""]},
                    "future_field": "", "tags": ["a"], "topic": null}"#;
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--tag", "b", "--json"],
        input.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let p = &r.json()["package"];
    assert_eq!(p["x-score"], json!({"a": [1, null, ""]}));
    assert_eq!(p["future_field"], "");
    assert_eq!(
        p["tags"],
        json!(["a", "b"]),
        "list flags add to --from lists"
    );
    assert!(
        p.as_object().unwrap().contains_key("topic"),
        "an explicit null is kept as written"
    );
    assert_eq!(p["package_type"], "x-model-eval");
}

#[test]
fn the_spec_example_keeps_its_hash() {
    let env = Env::empty();
    env.ok(&["init", "--project", "proj_dev_relay"]);
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/testdata/canonical/packages/"
    );
    let input = std::fs::read(format!("{dir}spec-6.7-example.json")).unwrap();
    let expected = std::fs::read_to_string(format!("{dir}spec-6.7-example.sha256")).unwrap();
    let r = env.run_stdin(&["deposit", "--from", "-", "--json"], &input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["hash"], expected.trim());
    let out = env.ok(&["deposit", "--from", &format!("{dir}spec-6.7-example.json")]);
    assert!(
        out.starts_with("pkg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d sha256:0efe5d06"),
        "{out}"
    );
    assert_eq!(
        env.package_lines("proj_dev_relay").len(),
        1,
        "the identical re-deposit appended nothing"
    );
}

#[test]
fn idempotent_deposit_and_duplicate_id() {
    let env = Env::new();
    let first = env.ok_json(&[
        "deposit",
        "--id",
        "pkg_fixed",
        "--title",
        "Same",
        "--tag",
        "t",
    ]);
    // A retry of the same partial package (relay fills a new created_at) is still identical.
    let again = env.ok_json(&[
        "deposit",
        "--id",
        "pkg_fixed",
        "--title",
        "Same",
        "--tag",
        "t",
    ]);
    assert_eq!(again, first);
    let r = env.run(&[
        "deposit",
        "--id",
        "pkg_fixed",
        "--title",
        "Different",
        "--json",
    ]);
    assert_eq!(r.code, 3);
    assert_eq!(r.error()["error"], "duplicate_package_id");
    assert_eq!(r.stdout, "");
    snapshot!("duplicate_id_json", r.transcript());
    let r = env.run(&["deposit", "--id", "pkg_fixed", "--title", "Different"]);
    snapshot!("duplicate_id", r.transcript());
    assert_eq!(env.package_lines("demo").len(), 1);
}

#[test]
fn missing_title_without_a_terminal_is_invalid_schema() {
    let env = Env::new();
    let r = env.run(&["deposit", "--decision", "x"]);
    assert_eq!(r.code, 4);
    // Names the --title flag.
    snapshot!("missing_title", r.transcript());
    let r = env.run(&["deposit", "--json"]);
    assert_eq!(r.code, 4);
    assert_eq!(r.error()["error"], "invalid_schema");
    snapshot!("missing_title_json", r.transcript());
    assert!(env.package_lines("demo").is_empty());
}

#[test]
fn malformed_json_reports_line_and_column_and_writes_nothing() {
    let env = Env::new();
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        b"{\n  \"title\": \"x\",\n  \"tags\": [1,,]\n}",
    );
    assert_eq!(r.code, 4);
    let e = r.error();
    assert_eq!(e["error"], "invalid_schema");
    // Says where: line 3, column 14.
    snapshot!("malformed_json", r.transcript());
    let r = env.run_stdin(&["deposit", "--from", "-"], b"\xff\xfe garbage");
    assert_eq!(r.code, 4, "{}", r.stderr);
    let r = env.run(&["deposit", "--from", "no-such.json", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (4, Some("invalid_input"))
    );
    assert!(
        r.error()["message"]
            .as_str()
            .unwrap()
            .starts_with("--from no-such.json: ")
    );
    let r = env.run_stdin(&["deposit", "--from", "-"], b"[1, 2]");
    assert_eq!(r.code, 4);
    // Asks for one JSON object.
    snapshot!("from_an_array", r.transcript());
    assert!(env.package_lines("demo").is_empty());
}

#[test]
fn schema_errors_name_the_field() {
    let env = Env::new();
    // Each message names the field and what it must be.
    let cases: &[&[&str]] = &[
        &["--title", &"x".repeat(201)],
        &["--title", "t", "--type", "memo"],
    ];
    let mut errors = Vec::new();
    for args in cases {
        let mut all = vec!["deposit", "--json"];
        all.extend_from_slice(args);
        let r = env.run(&all);
        assert_eq!(r.code, 4, "{args:?}: {}", r.stderr);
        assert_eq!(r.error()["error"], "invalid_schema");
        errors.push(r.transcript());
    }
    for input in [
        r#"{"title": "t", "significance": 11}"#,
        r#"{"title": "t", "created_by": {"id": "a", "type": "robot"}}"#,
    ] {
        let r = env.run_stdin(&["deposit", "--from", "-", "--json"], input.as_bytes());
        assert_eq!(r.error()["error"], "invalid_schema");
        errors.push(r.transcript());
    }
    snapshot!("schema_errors", errors.join("\n"));
    let r = env.run(&["deposit", "--title", "t", "--ext", "trust=1"]);
    assert_eq!(r.code, 4);
    // Says that extensions are named x-….
    snapshot!("ext_without_x", r.transcript());
    let r = env.run(&["deposit", "--title", "t", "--significance", "11"]);
    assert_eq!(r.code, 4);
    assert!(env.package_lines("demo").is_empty());
}

#[test]
fn content_md_from_a_file() {
    let env = Env::new();
    std::fs::write(env.path("notes.md"), "# Notes\n\nBody\n").unwrap();
    let v = env.ok_json(&["deposit", "--title", "md", "--content-md", "notes.md"]);
    assert_eq!(v["package"]["content_md"], "# Notes\n\nBody\n");
    let r = env.run_stdin(&["deposit", "--from", "-", "--content-md", "-"], b"{}");
    assert_eq!(r.code, 2);
}

#[test]
fn on_a_terminal_a_missing_title_is_asked_for() {
    let env = Env::new();
    // Title, type (Enter keeps `standard`), description, two decisions, no questions, handoff.
    let typed = b"Prompted title\r\rWhy it matters\rFirst call\rSecond call\r\r\rOver to you\r";
    let Some(r) = env.in_terminal("deposit --tag t", typed) else {
        eprintln!("skipped: util-linux `script` is not installed");
        return;
    };
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("Title (what did you do?)"),
        "{}",
        r.stdout
    );
    let p = env.ok_json(&["pull", "--latest", "1"])["package"].clone();
    assert_eq!(p["title"], "Prompted title");
    assert_eq!(p["package_type"], "standard");
    assert_eq!(p["description"], "Why it matters");
    assert_eq!(p["decisions_made"], json!(["First call", "Second call"]));
    assert!(p.get("open_questions").is_none());
    assert_eq!(p["handoff_note"], "Over to you");
    assert_eq!(p["tags"], json!(["t"]));
}
