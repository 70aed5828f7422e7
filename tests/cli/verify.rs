//! `relay verify [--fix]`: tampering, torn lines, conflict markers, forks, and writers killed
//! mid-write.

use serde_json::{Value, json};

use crate::harness::{Env, json_snapshot, read, snapshot};

fn log_path(env: &Env) -> std::path::PathBuf {
    env.package_lines_file()
}

fn problems(env: &Env) -> (i32, Vec<Value>) {
    let r = env.run(&["verify", "--json"]);
    (r.code, r.json_lines())
}

#[test]
fn a_sound_store_passes() {
    let env = Env::new();
    env.deposit("a", &[]);
    env.ok(&["facts", "assert", "s", "p", "v"]);
    env.ok(&["session", "start"]);
    assert_eq!(env.ok(&["verify"]), "The store is sound.\n");
    assert_eq!(problems(&env), (0, vec![]));
    snapshot!("sound", env.run(&["verify"]).transcript());
    snapshot!("sound_json", env.run(&["verify", "--json"]).transcript());
}

#[test]
fn a_tampered_line_is_named_and_quarantined_by_fix() {
    let env = Env::new();
    env.deposit("first", &[]);
    let id = env.deposit("second", &[]);
    let log = log_path(&env);
    let text = read(&log);
    let tampered = text.replace("\"second\"", "\"edited by hand\"");
    std::fs::write(&log, &tampered).unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    assert_eq!(found.len(), 1);
    let rel = log.strip_prefix(env.store()).unwrap().display().to_string();
    assert_eq!(found[0]["file"], rel.as_str());
    assert_eq!(found[0]["line"], 2);
    assert_eq!(found[0]["kind"], "hash_mismatch");
    json_snapshot!("tampered_json", &found);
    let human = env.run(&["verify"]);
    snapshot!("tampered", human.transcript());
    assert!(
        human.stdout.starts_with(&format!(
            "{rel}:2: package {id} does not match its stored hash"
        )),
        "{}",
        human.stdout
    );
    snapshot!("tampered_fix", env.run(&["verify", "--fix"]).transcript());
    assert_eq!(problems(&env), (0, vec![]));
    let q: Value =
        serde_json::from_str(read(&env.store().join("quarantine.ndjson")).trim()).unwrap();
    assert_eq!(q["reason"], "hash_mismatch");
    assert!(
        q["content"].as_str().unwrap().contains("edited by hand"),
        "nothing is lost"
    );
    assert_eq!(read(&log).lines().count(), 1);
}

#[test]
fn torn_lines_conflict_markers_and_stray_files() {
    let env = Env::new();
    env.deposit("a", &[]);
    let log = log_path(&env);
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    std::io::Write::write_all(&mut f, b"{\"package\": {\"title\"").unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    assert_eq!(
        found
            .iter()
            .map(|p| p["kind"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["torn_line"]
    );
    env.ok(&["verify", "--fix"]);
    assert_eq!(problems(&env), (0, vec![]));
    assert!(read(&log).ends_with('\n'));

    let facts = env.store().join("projects/demo/facts.ndjson");
    std::fs::write(&facts, "<<<<<<< HEAD\n=======\n>>>>>>> theirs\n").unwrap();
    std::fs::write(env.store().join("projects/demo/notes.txt"), "stray").unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    let kinds: Vec<&str> = found.iter().map(|p| p["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "conflict_marker",
            "conflict_marker",
            "conflict_marker",
            "unexpected_file"
        ]
    );
    json_snapshot!("conflict_markers_json", &found);
    snapshot!("conflict_markers", env.run(&["verify"]).transcript());
    let r = env.run(&["verify", "--fix"]);
    assert_eq!(r.code, 5, "conflict markers are not repaired silently");
    snapshot!("conflict_markers_fix", r.transcript());
}

#[test]
fn fix_closes_fact_forks_left_by_a_merge() {
    let env = Env::new();
    let fork = |id: &str, value: &str, from: &str| {
        json!({"fact_id": id, "project_id": "demo", "subject": "svc", "predicate": "status", "value": value,
               "valid_from": from, "created_at": from})
        .to_string()
    };
    let facts = env.store().join("projects/demo/facts.ndjson");
    std::fs::create_dir_all(facts.parent().unwrap()).unwrap();
    std::fs::write(
        &facts,
        format!(
            "{}\n{}\n",
            fork("fact_a", "up", "2026-01-01T00:00:00Z"),
            fork("fact_b", "down", "2026-02-01T00:00:00Z")
        ),
    )
    .unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 0, "a fork that reads resolve is a note, not damage");
    assert_eq!(
        found,
        [
            json!({"file": "projects/demo/facts.ndjson", "line": 1, "kind": "fact_fork",
                "message": "2 facts of (svc, status) are stored as open, as merged clones leave them; reads end each at the next one's start, and fact_b is current (`relay verify --fix` records that)",
                "severity": "note"})
        ]
    );
    let human = env.run(&["verify"]);
    assert_eq!(human.code, 0);
    assert!(
        human
            .stdout
            .starts_with("projects/demo/facts.ndjson:1: 2 facts of (svc, status)"),
        "{}",
        human.stdout
    );
    // Ends with "[fact_fork] (note)".
    snapshot!("fact_fork", human.transcript());
    let current = env.ok_json(&["facts", "get", "svc", "status"]);
    let history = env
        .run(&["facts", "history", "svc", "status", "--json"])
        .json_lines();
    assert_eq!(history[0]["valid_to"], "2026-02-01T00:00:00Z");
    assert_eq!(history[0]["x-stored_valid_to"], Value::Null);
    assert!(
        history[0]
            .as_object()
            .unwrap()
            .contains_key("x-stored_valid_to")
    );
    assert!(
        !history[1]
            .as_object()
            .unwrap()
            .contains_key("x-stored_valid_to")
    );
    env.ok(&["verify", "--fix"]);
    assert_eq!(problems(&env), (0, vec![]));
    assert_eq!(
        env.ok_json(&["facts", "get", "svc", "status"]),
        current,
        "the winner stays current"
    );
    let fixed = env
        .run(&["facts", "history", "svc", "status", "--json"])
        .json_lines();
    let mut expected = history.clone();
    expected[0]
        .as_object_mut()
        .unwrap()
        .remove("x-stored_valid_to");
    assert_eq!(fixed, expected, "--fix stores the chain that reads showed");
}

/// Writers killed at random moments: afterwards verify reports at most a torn last line,
/// --fix clears it, and every deposit that reported success is still there.
#[test]
fn writers_killed_mid_write_lose_nothing_that_was_reported() {
    let env = Env::new();
    let big = "x".repeat(200_000);
    std::fs::write(env.path("big.md"), &big).unwrap();
    let mut reported = Vec::new();
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    for trial in 0..50 {
        let mut children: Vec<std::process::Child> = (0..2)
            .map(|k| {
                env.command(&[
                    "deposit",
                    "--title",
                    &format!("t{trial}-{k}"),
                    "--content-md",
                    "big.md",
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
            })
            .collect();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // Chaos, not synchronisation: kill the first writer after a random few milliseconds.
        std::thread::sleep(std::time::Duration::from_micros(seed % 8_000));
        let _ = children[0].kill();
        for child in children {
            let out = child.wait_with_output().unwrap();
            if out.status.success() {
                let text = String::from_utf8_lossy(&out.stdout);
                reported.push(text.split(' ').next().unwrap().to_string());
            }
        }
    }
    let (_, found) = problems(&env);
    // Only torn writes: a last line cut off, or earlier ones that a later append sealed.
    assert!(found.iter().all(|p| p["kind"] == "torn_line"), "{found:?}");
    env.ok(&["verify", "--fix"]);
    assert_eq!(problems(&env), (0, vec![]));
    assert!(
        reported.len() >= 50,
        "the unkilled writers succeeded: {}",
        reported.len()
    );
    for id in &reported {
        env.ok(&["pull", id, "--json"]);
    }
}

/// The checks that look across lines: an id deposited twice with different content (in two
/// months' logs), a later version whose transition §5.3 does not allow, a package in the
/// wrong month's log, and two facts of a key that overlap in time.
#[test]
fn duplicates_illegal_transitions_misplaced_packages_and_overlaps_are_found() {
    let env = Env::new();
    let deposit = |body: Value| {
        let r = env.run_stdin(
            &["deposit", "--from", "-", "--json"],
            body.to_string().as_bytes(),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.json()["package"].clone()
    };
    deposit(json!({"package_id": "pkg_dup", "title": "One", "created_at": "2026-01-05T00:00:00Z"}));
    let other = deposit(
        json!({"package_id": "pkg_other", "title": "Two", "created_at": "2026-02-05T00:00:00Z"}),
    );
    let packages = env.store().join("projects/demo/packages");
    let append = |file: &str, line: String| {
        let path = packages.join(file);
        let mut text = read(&path);
        text.push_str(&line);
        text.push('\n');
        std::fs::write(&path, text).unwrap();
    };
    // The same id with other content, written straight into February's log (and so also
    // in the wrong month).
    let mut twin = other.clone();
    twin["package_id"] = json!("pkg_dup");
    twin["created_at"] = json!("2026-01-20T00:00:00Z");
    let hash = |p: &Value| {
        relay::wire::Package::from_value(p.clone())
            .unwrap()
            .content_hash()
    };
    append(
        "2026-02.ndjson",
        json!({"package": twin, "hash": hash(&twin)}).to_string(),
    );
    // A version 2 that claims complete → awaiting_review.
    let mut v2 = other.clone();
    v2["status"] = json!("awaiting_review");
    append(
        "2026-02.ndjson",
        json!({"package": v2, "hash": hash(&v2), "version": 2,
               "transition": {"action": "flag", "from": "complete", "to": "awaiting_review"}})
        .to_string(),
    );
    // Two facts of one key overlapping in time.
    let facts = env.store().join("projects/demo/facts.ndjson");
    let fact = |id: &str, from: &str, to: &str| {
        json!({"fact_id": id, "project_id": "demo", "subject": "api", "predicate": "status",
               "value": id, "valid_from": from, "valid_to": to, "created_at": from,
               "confidence": 1.0, "asserted_by": {"id": "me", "type": "human"}})
        .to_string()
    };
    std::fs::write(
        &facts,
        format!(
            "{}\n{}\n",
            fact("fact_a", "2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z"),
            fact("fact_b", "2026-02-01T00:00:00Z", "2026-04-01T00:00:00Z")
        ),
    )
    .unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    let seen: Vec<(String, u64, String, String)> = found
        .iter()
        .map(|p| {
            (
                p["file"].as_str().unwrap().to_string(),
                p["line"].as_u64().unwrap(),
                p["kind"].as_str().unwrap().to_string(),
                p["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let feb = "projects/demo/packages/2026-02.ndjson".to_string();
    let jan = "projects/demo/packages/2026-01.ndjson".to_string();
    let facts_rel = "projects/demo/facts.ndjson".to_string();
    assert_eq!(
        seen,
        [
            (feb.clone(), 2, "misplaced".into(), "error".into()),
            (feb, 3, "invalid_transition".into(), "error".into()),
            (jan, 1, "duplicate_id".into(), "error".into()),
            (facts_rel, 1, "fact_overlap".into(), "note".into()),
        ],
        "{found:#?}"
    );
    assert!(found[2]["message"].as_str().unwrap().contains("pkg_dup"));
    // The twin is read the quick way (a first version laid out as relay writes it); its
    // fields still name it exactly.
    assert_eq!(
        found[0]["message"],
        "package pkg_dup was created in 2026-01, not 2026-02"
    );
}

/// The fact and session logs, line by line: lines that are no object, records that fail
/// their schema, a tie between two versions of one fact (their ends alike, so their canonical
/// forms decide), an overlap only the tie's winner makes, and sessions that contradict
/// themselves or each other. Every problem is pinned with its words.
#[test]
fn versioned_logs_report_damage_invalid_records_ties_and_inconsistent_sessions() {
    let env = Env::new();
    let fact = |id: &str, from: &str, to: &str, created: &str| {
        json!({"fact_id": id, "project_id": "demo", "subject": "svc", "predicate": "status",
               "value": id, "valid_from": from, "valid_to": to, "created_at": created})
        .to_string()
    };
    // fact_t's two versions end alike; the one created later has the greater canonical form
    // and wins, and only it (from January) overlaps fact_u.
    let loser = fact(
        "fact_t",
        "2026-02-01T00:00:00Z",
        "2026-03-01T00:00:00Z",
        "2026-01-01T00:00:00Z",
    );
    let winner = fact(
        "fact_t",
        "2026-01-01T00:00:00Z",
        "2026-03-01T00:00:00Z",
        "2026-01-02T00:00:00Z",
    );
    let other = fact(
        "fact_u",
        "2026-01-15T00:00:00Z",
        "2026-01-25T00:00:00Z",
        "2026-01-15T00:00:00Z",
    );
    let no_value = r#"{"fact_id":"fact_v","project_id":"demo","subject":"svc","predicate":"status","valid_from":"2026-01-01T00:00:00Z","created_at":"2026-01-01T00:00:00Z"}"#;
    let facts = env.store().join("projects/demo/facts.ndjson");
    std::fs::create_dir_all(facts.parent().unwrap()).unwrap();
    std::fs::write(
        &facts,
        format!("[1,2]\n{loser}\n{{\"fact_id\": \n{winner}\n{no_value}\n{other}\n"),
    )
    .unwrap();
    let session = |id: &str, started: &str, ended: Option<&str>| {
        let mut s = json!({"session_id": id, "project_id": "demo", "actor_id": "me",
                           "actor_type": "human", "callsign": "blue-fox", "started_at": started});
        if let Some(end) = ended {
            s["ended_at"] = json!(end);
        }
        s.to_string()
    };
    let sessions = env.store().join("projects/demo/sessions.ndjson");
    std::fs::write(
        &sessions,
        [
            "\"text\"".to_string(),
            r#"{"session_id":"s0","project_id":"demo","actor_id":"me","actor_type":"human"}"#
                .to_string(),
            session("s1", "2026-02-01T00:00:00Z", Some("2026-01-01T00:00:00Z")),
            session("s2", "2026-02-01T00:00:00Z", None),
            session("s3", "2026-02-02T00:00:00Z", None),
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    let seen: Vec<(String, u64, String, String)> = found
        .iter()
        .map(|p| {
            let text = |k: &str| p[k].as_str().unwrap().to_string();
            (
                text("file"),
                p["line"].as_u64().unwrap(),
                text("kind"),
                text("message"),
            )
        })
        .collect();
    let f = "projects/demo/facts.ndjson".to_string();
    let s = "projects/demo/sessions.ndjson".to_string();
    let row = |file: &String, line: u64, kind: &str, message: &str| {
        (file.clone(), line, kind.to_string(), message.to_string())
    };
    assert_eq!(
        seen,
        [
            row(&f, 1, "corrupt_line", "the line is not a JSON object"),
            row(
                &f,
                3,
                "corrupt_line",
                "the line is not valid JSON (EOF while parsing a value at line 1 column 12)"
            ),
            row(
                &f,
                5,
                "invalid_record",
                "not a valid fact: `value` is required"
            ),
            row(
                &f,
                4,
                "fact_overlap",
                "facts fact_t and fact_u of (svc, status) overlap in time, as merged clones leave them; reads end each at the next one's start, and none is current (`relay verify --fix` records that)"
            ),
            row(&s, 1, "corrupt_line", "the line is not a JSON object"),
            row(
                &s,
                2,
                "invalid_record",
                "not a valid session: `started_at` is required"
            ),
            row(
                &s,
                3,
                "session_inconsistent",
                "session s1 ends before it starts"
            ),
            // A note: merged clones leave it, and verify still exits 5 for the rest.
            row(
                &s,
                5,
                "shared_callsign",
                "2 open sessions share the callsign blue-fox (merged clones each started one): \
                 s2 (me, human, started 2026-02-01T00:00:00Z) and s3 (me, human, started \
                 2026-02-02T00:00:00Z); a command given the callsign refuses it, so name each \
                 by its id (`relay session end s2`)"
            ),
        ],
        "{found:#?}"
    );
    let severities: Vec<&str> = found
        .iter()
        .map(|p| p["severity"].as_str().unwrap())
        .collect();
    assert_eq!(
        severities,
        [
            "error", "error", "error", "note", "error", "error", "error", "note"
        ]
    );
    // Export picks the same winner, and refuses to call the damaged logs a backup.
    let r = env.run(&["export", "--out", "-"]);
    assert_eq!(r.code, 5, "{}", r.stderr);
    assert!(
        r.stderr.contains("2 records could not be read (")
            && r.stderr.ends_with(
                "facts.ndjson:5: not a valid fact: `value` is required; skipped); run `relay \
                 verify --fix` before backing up\n"
            ),
        "{}",
        r.stderr
    );
    let exported: Vec<Value> = r.json_lines();
    let t: Vec<&Value> = exported
        .iter()
        .filter(|r| r["fact_id"] == "fact_t")
        .collect();
    assert_eq!(t.len(), 1);
    assert_eq!(t[0]["created_at"], "2026-01-02T00:00:00Z");
}

/// Times with an offset (as an import by relay before issue 59 kept them; import refuses them
/// now) are read correctly, kept (a hash covers them), and noted: a note, so verify still
/// passes.
#[test]
fn times_that_are_not_utc_are_noted_not_failed() {
    let env = Env::new();
    let package = json!({"package_id": "pkg_00000000000000000000000000000001", "project_id": "demo",
        "relay_version": "0.1", "title": "Offset", "status": "complete", "package_type": "standard",
        "review_type": "none", "created_at": "2026-05-01T12:00:00+02:00",
        "created_by": {"id": "x", "type": "human"}});
    let fact = json!({"fact_id": "fact_1", "project_id": "demo", "subject": "s", "predicate": "p",
        "value": "v", "valid_from": "2026-05-01T12:00:00+02:00", "created_at": "2026-05-01T10:00:00Z"});
    // Written as an older relay's import wrote them.
    let hash = relay::wire::Package::from_value(package.clone())
        .unwrap()
        .content_hash();
    let log = env.store().join("projects/demo/packages/2026-05.ndjson");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(
        &log,
        format!("{}\n", json!({"package": package, "hash": hash})),
    )
    .unwrap();
    let facts = env.store().join("projects/demo/facts.ndjson");
    std::fs::write(&facts, format!("{fact}\n")).unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 0);
    let note = |file: &str, message: &str| {
        json!({"file": file, "line": 1, "kind": "non_utc_time", "severity": "note",
               "message": format!("{message} not in UTC (RFC 3339 with Z); reads compare it correctly, and relay keeps it as written because the record's hash may cover it")})
    };
    assert_eq!(
        found,
        [
            note(
                "projects/demo/packages/2026-05.ndjson",
                "created_at 2026-05-01T12:00:00+02:00 is"
            ),
            note(
                "projects/demo/facts.ndjson",
                "valid_from 2026-05-01T12:00:00+02:00 is"
            ),
        ]
    );
    let stored = read(&env.store().join("projects/demo/packages/2026-05.ndjson"));
    assert!(stored.contains("\"created_at\":\"2026-05-01T12:00:00+02:00\""));
    assert_eq!(
        env.run(&[
            "facts",
            "get",
            "s",
            "p",
            "--at",
            "2026-05-01T10:00:00Z",
            "--json"
        ])
        .json()["value"],
        "v",
        "the offset is read as the instant it names"
    );
}

/// relay 0.1.0 imported any later review state of a package (e.g. `awaiting_review` back to
/// `draft`); such a version is noted, while the same step by review stays an error.
#[test]
fn a_backwards_version_an_older_import_wrote_is_a_note() {
    let env = Env::new();
    let id = env.deposit(
        "Waiting",
        &["--status", "awaiting_review", "--review", "human"],
    );
    let log = env.package_lines_file();
    let first: Value = serde_json::from_str(read(&log).lines().next().unwrap()).unwrap();
    let mut package = first["package"].clone();
    package["status"] = json!("draft");
    let version = |action: &str| {
        json!({"package": package, "hash": relay::wire::canonical::content_hash(&package),
               "version": 2, "transition": {"action": action, "from": "awaiting_review",
               "to": "draft", "by": {"id": "me", "type": "human"}, "at": "2026-06-01T00:00:00Z"}})
        .to_string()
    };
    let original = read(&log);
    std::fs::write(&log, format!("{original}{}\n", version("import"))).unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 0, "{found:?}");
    assert_eq!(
        (&found[0]["kind"], &found[0]["line"], &found[0]["severity"]),
        (&json!("imported_transition"), &json!(2), &json!("note"))
    );
    assert_eq!(
        found[0]["message"],
        format!(
            "version 2 of {id} records an illegal transition (import from awaiting_review to draft)"
        )
    );
    std::fs::write(&log, format!("{original}{}\n", version("approve"))).unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    assert_eq!(
        (&found[0]["kind"], &found[0]["severity"]),
        (&json!("invalid_transition"), &json!("error"))
    );
}
