//! `relay export` and `relay import`: round trips, idempotence, damage and partial backups.

use serde_json::{Value, json};

use crate::harness::{Env, json_snapshot, read, snapshot};

/// A store holding every kind of record: packages with review history and x- fields, facts
/// with an ended one, sessions open and ended, two projects.
fn full_store() -> Env {
    let env = Env::new();
    env.ok(&[
        "projects",
        "create",
        "web",
        "--name",
        "Website",
        "--description",
        "the site",
    ]);
    env.ok(&[
        "session",
        "start",
        "--actor",
        "claude",
        "--actor-type",
        "agent",
        "--callsign",
        "coral-heron",
    ]);
    let draft = env.deposit(
        "Schema plan",
        &[
            "--status",
            "draft",
            "--ext",
            "x-trust={\"score\":0.75}",
            "--tag",
            "db",
        ],
    );
    env.ok(&["review", "flag", &draft, "--agent", "--note", "check"]);
    env.ok(&["review", "approve", &draft]);
    env.deposit(
        "Chose Redis",
        &[
            "--type",
            "decision",
            "--decision",
            "Redis",
            "--question",
            "TTL?",
        ],
    );
    env.ok(&["session", "end"]);
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--project", "web"],
        br#"{"title": "Landing page", "future_field": "", "x-extra": [1, null, "a"], "topic": null}"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    env.ok(&[
        "facts",
        "assert",
        "db",
        "engine",
        "postgres",
        "--valid-from",
        "2026-01-01T00:00:00Z",
    ]);
    env.ok(&["facts", "assert", "db", "engine", "redis"]);
    env.ok(&["facts", "assert", "tmp", "x", "1"]);
    env.ok(&["facts", "invalidate", "tmp", "x"]);
    env.ok(&[
        "facts",
        "assert",
        "site",
        "status",
        "live",
        "--project",
        "web",
    ]);
    env
}

/// Every record the store exports, less the `scratch` project a destination store starts with.
fn stream(env: &Env) -> Vec<Value> {
    let all = env
        .run(&["export", "--all-projects", "--out", "-"])
        .json_lines();
    all.into_iter()
        .filter(|r| r["project_id"] != "scratch")
        .collect()
}

/// An empty destination store (its own default project is `scratch`).
fn empty_store() -> Env {
    let env = Env::empty();
    env.ok(&["init", "--project", "scratch"]);
    env
}

#[test]
fn export_import_export_is_the_same_and_hashes_survive() {
    let src = full_store();
    let first = stream(&src);
    let kinds = |v: &[Value], key: &str| v.iter().filter(|r| r.get(key).is_some()).count();
    assert_eq!(kinds(&first, "package_id"), 3);
    assert_eq!(kinds(&first, "fact_id"), 4, "ended facts travel too");
    assert_eq!(kinds(&first, "session_id"), 1);
    let out = src.path("backup");
    let v = src.ok_json(&["export", "--all-projects", "--out", out.to_str().unwrap()]);
    json_snapshot!("export_json", &v);
    let human = src.path("backup-human");
    let r = src.run(&["export", "--all-projects", "--out", human.to_str().unwrap()]);
    snapshot!("export", r.transcript());
    assert_eq!(
        v["counts"],
        json!({"projects": 2, "packages": 3, "facts": 4, "sessions": 1})
    );
    let manifest: Value = serde_json::from_str(&read(&out.join("manifest.json"))).unwrap();
    assert_eq!(manifest["backup_format_version"], 1);
    assert_eq!(manifest["protocol_version"], "0.1");
    assert_eq!(manifest["projects"], json!(["demo", "web"]));
    assert!(
        manifest["files"]["packages.ndjson"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );

    let dst = empty_store();
    let summary = dst.ok_json(&["import", out.to_str().unwrap()]);
    json_snapshot!("import_json", &summary);
    assert_eq!(
        summary["added"],
        json!({"projects": 2, "packages": 3, "facts": 4, "sessions": 1})
    );
    assert_eq!(
        stream(&dst),
        first,
        "export → import → export gives the same records"
    );
    // Hashes: the current version of each package hashes the same in both stores.
    for p in first.iter().filter(|r| r.get("package_id").is_some()) {
        let id = p["package_id"].as_str().unwrap();
        let a = src.run(&["pull", id, "--json"]).json();
        let b = dst.run(&["pull", id, "--json"]).json();
        assert_eq!(a, b);
    }
    let again = dst.ok_json(&["import", out.to_str().unwrap()]);
    assert_eq!(again["added"], json!({}), "importing twice changes nothing");
    json_snapshot!("import_again_json", &again);
    snapshot!(
        "import_again",
        dst.run(&["import", out.to_str().unwrap()]).transcript()
    );
    assert_eq!(stream(&dst), first);
    // Fact histories arrive whole.
    let copy = dst
        .run(&[
            "facts",
            "history",
            "db",
            "engine",
            "--project",
            "demo",
            "--json",
        ])
        .json_lines();
    assert_eq!(copy.len(), 2);
    assert_eq!(copy[0]["valid_to"], copy[1]["valid_from"]);
}

#[test]
fn streams_and_other_stores_import_too() {
    let src = full_store();
    let text = src.run(&["export", "--all-projects", "--out", "-"]).stdout;
    let dst = empty_store();
    let r = dst.run_stdin(&["import", "-", "--json"], text.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(stream(&dst), stream(&src));
    let other = empty_store();
    let v = other.ok_json(&["import", src.store().to_str().unwrap()]);
    assert_eq!(v["added"]["packages"], 3);
    assert_eq!(stream(&other), stream(&src));
}

#[test]
fn dry_run_project_map_and_conflicts() {
    let src = full_store();
    let out = src.path("b");
    src.ok(&["export", "--out", out.to_str().unwrap()]);
    let dst = Env::new();
    let before = stream(&dst);
    let plan = dst.ok_json(&["import", out.to_str().unwrap(), "--dry-run"]);
    json_snapshot!("dry_run_json", &plan);
    snapshot!(
        "dry_run",
        (dst.run(&["import", out.to_str().unwrap(), "--dry-run"])).transcript()
    );
    assert_eq!(plan["dry_run"], true);
    assert_eq!(plan["added"]["packages"], 2);
    assert_eq!(stream(&dst), before, "a dry run writes nothing");
    let v = dst.ok_json(&[
        "import",
        out.to_str().unwrap(),
        "--project-map",
        "demo=restored",
    ]);
    assert_eq!(v["added"]["projects"], 1);
    let restored = dst
        .run(&["pull", "--project", "restored", "--latest", "10", "--json"])
        .packages();
    assert_eq!(restored.len(), 2);
    assert!(restored.iter().all(|p| p["project_id"] == "restored"));
    // A package id present with other content: fail (default) or skip.
    let clash = Env::new();
    let line = src
        .run(&["export", "--out", "-"])
        .json_lines()
        .into_iter()
        .find(|r| r.get("package_id").is_some())
        .unwrap();
    let mut changed = line.clone();
    changed["title"] = json!("Another title");
    let r = clash.run_stdin(&["deposit", "--from", "-"], changed.to_string().as_bytes());
    assert_eq!(r.code, 0);
    let r = clash.run(&["import", out.to_str().unwrap(), "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (3, Some("duplicate_package_id"))
    );
    snapshot!("conflict_json", r.transcript());
    let v = clash.ok_json(&["import", out.to_str().unwrap(), "--on-conflict", "skip"]);
    assert_eq!(v["skipped"]["packages"], 1);
    json_snapshot!("skipped_json", &v);
}

#[test]
fn damaged_partial_and_invalid_backups_are_refused_and_write_nothing() {
    let src = full_store();
    let out = src.path("b");
    src.ok(&["export", "--all-projects", "--out", out.to_str().unwrap()]);
    let dst = Env::new();
    let before = stream(&dst);
    // A file changed after the manifest was written.
    let facts = out.join("facts.ndjson");
    let text = read(&facts);
    std::fs::write(&facts, text.replace("redis", "mysql")).unwrap();
    let r = dst.run(&["import", out.to_str().unwrap(), "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (5, Some("integrity_error"))
    );
    // "facts.ndjson does not match the manifest"
    let mut errors = vec![r.transcript()];
    std::fs::write(&facts, text).unwrap();
    // No manifest: a partial backup.
    std::fs::remove_file(out.join("manifest.json")).unwrap();
    let r = dst.run(&["import", out.to_str().unwrap()]);
    assert_eq!(r.code, 4);
    // Names --force.
    errors.push(r.transcript());
    assert_eq!(stream(&dst), before);
    dst.ok(&["import", out.to_str().unwrap(), "--force"]);
    // An invalid record, and a package whose carried hash does not match: nothing written.
    let bad = Env::new();
    let r = bad.run_stdin(
        &["import", "-", "--json"],
        b"{\"package_id\": \"p\", \"title\": \"no fields\"}\n",
    );
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (4, Some("invalid_schema"))
    );
    // Names the line: stdin:1.
    errors.push(r.transcript());
    let env_line = src.package_lines("demo")[0].clone();
    let mut tampered: Value = serde_json::from_str(&env_line).unwrap();
    tampered["package"]["title"] = json!("tampered");
    let r = bad.run_stdin(
        &["import", "-", "--json"],
        format!("{tampered}\n").as_bytes(),
    );
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (5, Some("integrity_error"))
    );
    errors.push(r.transcript());
    assert!(
        bad.run(&["pull", "--all-projects", "--json"])
            .stdout
            .is_empty()
    );
    // export refuses to write into a folder that holds something.
    let r = src.run(&["export", "--out", out.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 4);
    errors.push(r.transcript());
    snapshot!("refusals", errors.join("\n"));
}

#[test]
fn a_conflict_anywhere_leaves_the_store_untouched() {
    let src = full_store();
    let text = src.run(&["export", "--all-projects", "--out", "-"]).stdout;
    let dst = empty_store();
    // The destination already holds one of the packages of `web` with other content.
    let line = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["project_id"] == "web" && r.get("package_id").is_some())
        .unwrap();
    let mut changed = line.clone();
    changed["title"] = json!("Different");
    dst.ok(&["projects", "create", "web"]);
    let r = dst.run_stdin(&["deposit", "--from", "-"], changed.to_string().as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let before = dst.run(&["export", "--all-projects", "--out", "-"]).stdout;
    let r = dst.run_stdin(&["import", "-", "--json"], text.as_bytes());
    assert_eq!(r.code, 3);
    assert_eq!(
        dst.run(&["export", "--all-projects", "--out", "-"]).stdout,
        before,
        "demo's records were not written either"
    );
}

#[test]
fn damaged_stores_are_not_backed_up_and_a_project_map_still_checks_hashes() {
    let src = full_store();
    let line = src.package_lines("demo")[0].clone();
    let mut tampered: Value = serde_json::from_str(&line).unwrap();
    tampered["package"]["title"] = json!("tampered");
    let dst = Env::new();
    let r = dst.run_stdin(
        &["import", "-", "--project-map", "demo=other", "--json"],
        format!("{tampered}\n").as_bytes(),
    );
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (5, Some("integrity_error"))
    );
    // A store with a line that fails its hash refuses to back up as if it were whole.
    let log = std::fs::read_dir(src.store().join("projects/demo/packages"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = read(&log);
    std::fs::write(&log, text.replacen("Schema plan", "Schema plan!", 1)).unwrap();
    let r = src.run(&["export", "--out", "-", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (5, Some("integrity_error"))
    );
    // Says how to repair: `relay verify --fix`.
    snapshot!("damaged_store_json", r.transcript());
}

#[test]
fn restoring_a_later_backup_brings_the_later_review_state() {
    let src = Env::new();
    let id = src.deposit(
        "Plan",
        &["--status", "awaiting_review", "--review", "human"],
    );
    let (bk1, bk2) = (src.path("bk1"), src.path("bk2"));
    src.ok(&["export", "--out", bk1.to_str().unwrap()]);
    src.ok(&["review", "approve", &id]);
    src.ok(&["export", "--out", bk2.to_str().unwrap()]);
    let dst = empty_store();
    dst.ok(&["import", bk1.to_str().unwrap()]);
    let v = dst.ok_json(&["import", bk2.to_str().unwrap()]);
    assert_eq!(v["added"]["packages"], 1, "a later version, not a conflict");
    assert_eq!(dst.ok_json(&["pull", &id])["package"]["status"], "complete");
    let again = dst.ok_json(&["import", bk1.to_str().unwrap()]);
    assert_eq!(again["added"], json!({}), "an older state changes nothing");
    assert_eq!(dst.ok_json(&["pull", &id])["package"]["status"], "complete");
    dst.ok(&["import", src.store().to_str().unwrap()]);
    assert_eq!(dst.ok(&["verify"]), "The store is sound.\n");
}

#[test]
fn import_takes_over_new_and_empty_logs_and_appends_to_the_rest() {
    let src = full_store();
    let text = src.run(&["export", "--all-projects", "--out", "-"]).stdout;
    let log_name = src.package_lines_file().file_name().unwrap().to_owned();

    // An empty log where the packages belong: it is replaced by the imported lines.
    let emptied = empty_store();
    let empty_log = emptied
        .store()
        .join("projects/demo/packages")
        .join(&log_name);
    std::fs::create_dir_all(empty_log.parent().unwrap()).unwrap();
    std::fs::write(&empty_log, b"").unwrap();
    let r = emptied.run_stdin(&["import", "-"], text.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(stream(&emptied), stream(&src));

    // A log with lines of its own keeps them, first, and gains the imported ones after.
    let holding = Env::new();
    let own = holding.deposit("Already here", &[]);
    let before = holding.package_lines("demo");
    let r = holding.run_stdin(&["import", "-"], text.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let after = holding.package_lines("demo");
    assert_eq!(after[..before.len()], before[..]);
    assert!(after.len() > before.len());
    assert!(read(&holding.package_lines_file()).ends_with('\n'));
    let ids: Vec<String> = stream(&holding)
        .iter()
        .filter_map(|r| r["package_id"].as_str().map(str::to_string))
        .collect();
    assert!(ids.contains(&own));
    assert_eq!(ids.len(), 1 + 3, "its own and the stream's three");

    for env in [&emptied, &holding] {
        assert_eq!(env.ok(&["verify"]), "The store is sound.\n");
        let leftovers: Vec<_> = std::fs::read_dir(env.store().join("cache"))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("staged"))
            .collect();
        assert!(leftovers.is_empty(), "staged files left in cache/");
    }
}

#[test]
fn fact_versions_that_end_alike_are_ordered_by_their_canonical_form() {
    let env = Env::new();
    env.ok(&["facts", "assert", "db", "engine", "postgres"]);
    let fact = env
        .run(&["export", "--out", "-"])
        .json_lines()
        .into_iter()
        .find(|r| r.get("fact_id").is_some())
        .unwrap();
    let import = |stream: &str| {
        let r = env.run_stdin(&["import", "-", "--json"], stream.as_bytes());
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v = r.json();
        (v["added"]["facts"].clone(), v["unchanged"]["facts"].clone())
    };
    let with_value = |v: &str| {
        let mut f = fact.clone();
        f["value"] = json!(v);
        format!("{f}\n")
    };
    // Both open, so their ends tie: the greater canonical form is the current version.
    let smaller = with_value("aaa");
    assert_eq!(import(&smaller), (json!(null), json!(1)));
    let greater = with_value("zzz");
    let twice = format!("{greater}{greater}");
    assert_eq!(import(&twice), (json!(1), json!(1)));
    let got = env.ok_json(&["facts", "get", "db", "engine"]);
    assert_eq!(got["value"], "zzz", "{got}");
    assert_eq!(import(&greater), (json!(null), json!(1)));
}
