//! Expiry and retraction, as a user meets them: `--ttl` / `--expires-at` on deposit and facts
//! assert, expired and retracted records hidden from every read but `--history` and the
//! `--include-*` flags, `relay retract`, and a retraction merged through git.

use serde_json::{Value, json};

use crate::git::{git, in_dir, origin_and_clone, publish_and_clone};
use crate::harness::{Env, json_snapshot, snapshot};

/// A package that expired in the past, as another store would hand it over (a deposit refuses
/// an expiry that is not in the future, so it arrives by import).
fn import_expired(env: &Env, id: &str, title: &str) {
    let package = json!({
        "package_id": id, "project_id": "demo", "relay_version": "0.1", "title": title,
        "created_at": "2026-01-01T00:00:00Z", "created_by": {"id": "ana", "type": "human"},
        "status": "complete", "review_type": "none", "package_type": "standard",
        "decisions_made": ["Run the spring promo"],
        "x-expires-at": "2026-02-01T00:00:00Z"
    });
    let run = env.run_stdin(&["import", "-"], format!("{package}\n").as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// The bytes of every package log of project `demo`, in file-name order.
fn package_logs(env: &Env) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(env.path(".relay/projects/demo/packages"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn titles(env: &Env, args: &[&str]) -> Vec<String> {
    let mut all = vec!["--json"];
    all.extend(args);
    env.run(&all)
        .json_lines()
        .iter()
        .map(|p| {
            p.get("package")
                .unwrap_or(p)
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

#[test]
fn an_expiry_is_a_hashed_member_and_a_past_one_is_refused_with_nothing_written() {
    let env = Env::new();
    let out = env.ok_json(&[
        "deposit",
        "--title",
        "Promo code",
        "--expires-at",
        "2999-01-01",
    ]);
    assert_eq!(
        out["package"]["x-expires-at"],
        "2999-01-01T00:00:00.000000Z"
    );
    let ttl = env.ok_json(&["deposit", "--title", "Temp", "--ttl", "30d"]);
    assert!(ttl["package"]["x-expires-at"].as_str().is_some());
    let fact = env.ok_json(&["facts", "assert", "promo", "code", "SPRING", "--ttl", "2w"]);
    assert!(fact["fact"]["x-expires-at"].as_str().is_some());
    let before = package_logs(&env);
    for bad in [
        vec![
            "deposit",
            "--title",
            "x",
            "--expires-at",
            "2020-01-01",
            "--json",
        ],
        vec!["deposit", "--title", "x", "--ttl", "0m", "--json"],
        vec!["deposit", "--title", "x", "--ttl", "soon", "--json"],
        vec![
            "facts",
            "assert",
            "a",
            "b",
            "c",
            "--expires-at",
            "2001-01-01",
            "--json",
        ],
    ] {
        let run = env.run(&bad);
        assert_eq!(run.code, 4, "{bad:?}: {}", run.stderr);
        assert_eq!(run.error()["error"], "invalid_input");
    }
    let run = env.run(&[
        "deposit",
        "--title",
        "x",
        "--ttl",
        "1d",
        "--expires-at",
        "2999-01-01",
    ]);
    assert_eq!(run.code, 2, "both at once is a usage error");
    let after = package_logs(&env);
    assert_eq!(before, after, "nothing written");
    // A package's expiry from JSON input is checked the same way.
    let run = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        br#"{"title": "x", "x-expires-at": "2001-01-01T00:00:00Z"}"#,
    );
    assert_eq!(run.code, 4, "{}", run.stderr);
}

#[test]
fn expired_packages_leave_every_read_unless_asked_for_and_verify_calls_them_sound() {
    let env = Env::new();
    env.deposit("Current plan", &["--decision", "Ship in May"]);
    import_expired(&env, "pkg_00000000000000000000000000000001", "Spring promo");
    assert_eq!(titles(&env, &["pull", "--latest", "10"]), ["Current plan"]);
    assert_eq!(
        titles(&env, &["pull", "--latest", "10", "--include-expired"]),
        ["Current plan", "Spring promo"]
    );
    assert!(titles(&env, &["search", "promo"]).is_empty());
    assert_eq!(
        titles(&env, &["search", "promo", "--include-expired"]),
        ["Spring promo"]
    );
    let run = env.run(&["pull", "pkg_00000000000000000000000000000001", "--json"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.error(),
        json!({"error": "package_not_found", "message": "package \
            `pkg_00000000000000000000000000000001` expired at 2026-02-01T00:00:00.000000Z; \
            --include-expired shows it"})
    );
    let shown = env.ok_json(&[
        "pull",
        "pkg_00000000000000000000000000000001",
        "--include-expired",
    ]);
    assert_eq!(shown["package"]["title"], "Spring promo");
    let history = env.ok(&["pull", "pkg_00000000000000000000000000000001", "--history"]);
    assert!(history.starts_with("v1  complete"), "{history}");
    let orient = env.ok(&["orient", "--window-days", "36500"]);
    assert!(!orient.contains("Spring promo"), "{orient}");
    assert!(orient.contains(" · 1 package · "), "{orient}");
    let verify = env.run(&["verify"]);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
}

#[test]
fn a_retracted_package_and_fact_are_hidden_with_who_when_and_why_kept_in_the_history() {
    let env = Env::new();
    let keep = env.deposit("Kept result", &[]);
    let gone = env.deposit("Benchmark numbers", &["--decision", "Use the fast path"]);
    env.ok(&["facts", "assert", "api", "status", "beta"]);
    let fact = env.ok_json(&["facts", "assert", "api", "status", "live"]);
    let fact_id = fact["fact"]["fact_id"].as_str().unwrap().to_string();

    let done = env.ok_json(&[
        "retract",
        &gone,
        "--reason",
        "Numbers were from a debug build",
        "--actor",
        "ana",
    ]);
    json_snapshot!("retract_json", &done);
    let r = &done["retraction"];
    assert_eq!(
        (r["record"].as_str(), r["id"].as_str(), r["reason"].as_str()),
        (
            Some("package"),
            Some(gone.as_str()),
            Some("Numbers were from a debug build")
        )
    );
    assert_eq!(r["retracted_by"], json!({"id": "ana", "type": "human"}));
    assert_eq!(
        (done["project_id"].as_str(), done["unchanged"].as_bool()),
        (Some("demo"), Some(false))
    );
    let log = env.path(".relay/projects/demo/retractions.ndjson");
    let lines = std::fs::read_to_string(&log).unwrap();
    assert_eq!(lines.lines().count(), 1);
    assert!(
        lines.starts_with("{\"retraction\":{\"record\":\"package\""),
        "{lines}"
    );
    // Twice: the first retraction stands, nothing is written.
    let again = env.ok_json(&["retract", &gone, "--reason", "other"]);
    assert_eq!(again["unchanged"], true);
    assert_eq!(
        again["retraction"]["reason"],
        "Numbers were from a debug build"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), lines);

    assert_eq!(titles(&env, &["pull", "--latest", "10"]), ["Kept result"]);
    assert_eq!(
        titles(&env, &["pull", "--latest", "10", "--include-retracted"]).len(),
        2
    );
    assert!(titles(&env, &["search", "benchmark"]).is_empty());
    let run = env.run(&["pull", &gone]);
    assert_eq!(run.code, 1);
    // Who retracted it, when and why: "was retracted by ana at …: Numbers were from a debug
    // build; --include-retracted shows it".
    snapshot!("pull_retracted", run.transcript());
    snapshot!(
        "pull_retracted_json",
        env.run(&["pull", &gone, "--json"]).transcript()
    );
    let orient = env.ok(&["orient"]);
    assert!(
        !orient.contains("Benchmark numbers") && !orient.contains("fast path"),
        "{orient}"
    );
    assert!(env.ok(&["pull", &keep]).contains("Kept result"));
    // The history shows the versions, then the retraction.
    let history = env
        .run(&["pull", &gone, "--history", "--json"])
        .json_lines();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["package"]["title"], "Benchmark numbers");
    assert_eq!(
        history[1]["retraction"]["reason"],
        "Numbers were from a debug build"
    );
    let human = env.ok(&["pull", &gone, "--history"]);
    assert!(
        human
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("retracted by ana at "),
        "{human}"
    );
    snapshot!("history_retracted", human);

    // A fact: the key has no current value any more.
    env.ok(&["retract", &fact_id, "--reason", "Never went live"]);
    let run = env.run(&["facts", "get", "api", "status", "--json"]);
    assert_eq!(run.code, 1);
    assert_eq!(run.error()["error"], "fact_not_found");
    assert!(env.ok(&["facts", "list", "--json"]).is_empty());
    let shown = env.ok_json(&["facts", "get", "api", "status", "--include-retracted"]);
    assert_eq!(shown["value"], "live");
    // Unknown ids, empty reasons: refused, nothing written.
    let mut refusals = Vec::new();
    for bad in [
        vec!["retract", "pkg_nope", "--reason", "x", "--json"],
        vec!["retract", &keep, "--reason", " ", "--json"],
    ] {
        let run = env.run(&bad);
        assert_eq!(run.code, 4, "{bad:?}: {}", run.stderr);
        refusals.push(run.transcript());
    }
    snapshot!("retract_refusals", refusals.join("\n"));
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
    assert_eq!(env.run(&["verify"]).code, 0);
    let status = env.ok_json(&["status"]);
    assert_eq!(
        (
            &status["retention"]["retracted_packages"],
            &status["retention"]["retracted_facts"]
        ),
        (&json!(1), &json!(1))
    );
    // "Retention 1 packages and 1 facts retracted"
    let status = env.ok(&["status"]);
    let retention = status.lines().find(|l| l.starts_with("Retention "));
    snapshot!("status_retention", retention.unwrap_or(&status));
}

#[test]
fn a_retraction_merges_through_git_and_both_clones_hide_the_same_records() {
    let env = Env::empty();
    let Some((origin, a)) = origin_and_clone(&env) else {
        return;
    };
    let root = env.dir.clone();
    in_dir(&env, &a, &["init", "--project", "demo"]);
    let wrong = in_dir(&env, &a, &["deposit", "--title", "Wrong turn"]);
    let wrong = wrong.split(' ').next().unwrap().to_string();
    let b = root.join("b");
    publish_and_clone(&a, &origin, &b, "relay store");
    // A retracts while B keeps depositing; both push, both pull.
    in_dir(&env, &a, &["retract", &wrong, "--reason", "Reverted"]);
    in_dir(&env, &b, &["deposit", "--title", "From B"]);
    for (dir, message) in [(&a, "a"), (&b, "b")] {
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-q", "-m", message]);
        git(dir, &["pull", "-q", "--no-edit", "origin", "main"]);
        git(dir, &["push", "-q", "origin", "HEAD:main"]);
    }
    git(&a, &["pull", "-q", "--no-edit", "origin", "main"]);
    let seen = |dir| {
        let out = in_dir(&env, dir, &["pull", "--latest", "10", "--json"]);
        let mut t: Vec<String> = out
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["package"]["title"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        t.sort();
        t
    };
    assert_eq!(seen(&a), ["From B"]);
    assert_eq!(seen(&b), ["From B"]);
    in_dir(&env, &b, &["verify"]);
}

#[test]
fn purge_takes_out_expired_and_retracted_lines_keeps_a_backup_and_leaves_a_sound_store() {
    let env = Env::new();
    let keep = env.deposit("Kept", &[]);
    let gone = env.deposit("Leaked a token", &[]);
    import_expired(&env, "pkg_00000000000000000000000000000001", "Spring promo");
    env.ok(&["retract", &gone, "--reason", "Held a credential"]);
    let run = env.run(&["purge"]);
    assert_eq!(run.code, 2, "nothing named is a usage error");
    let logs = || -> String {
        let dir = env.path(".relay/projects/demo/packages");
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect()
    };
    let before = logs();
    let dry = env.ok_json(&["purge", "--expired", "--retracted", "--dry-run"]);
    assert_eq!(dry["dry_run"], true);
    assert_eq!(dry["backup"], Value::Null);
    assert_eq!(
        dry["removed"],
        json!([
            {"project_id": "demo", "record": "package", "id": "pkg_00000000000000000000000000000001",
             "because": "expired", "lines": 1},
            {"project_id": "demo", "record": "package", "id": gone, "because": "retracted", "lines": 1},
        ])
    );
    assert_eq!(logs(), before, "a dry run writes nothing");
    let done = env.ok_json(&["purge", "--expired", "--retracted"]);
    assert_eq!(done["removed"], dry["removed"]);
    let after = logs();
    assert!(!after.contains("Leaked a token") && !after.contains("Spring promo"));
    assert!(after.contains("Kept"));
    let backup = std::path::PathBuf::from(done["backup"].as_str().unwrap());
    assert!(
        backup.starts_with(env.store().join("local/purged")),
        "{backup:?}"
    );
    let kept_copy: String = std::fs::read_dir(backup.join("projects/demo/packages"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(kept_copy, before);
    // The retraction stays; the store is sound; reads are as before the purge.
    assert!(
        std::fs::read_to_string(env.path(".relay/projects/demo/retractions.ndjson"))
            .unwrap()
            .contains(&gone)
    );
    assert_eq!(env.run(&["verify"]).code, 0);
    assert_eq!(
        titles(&env, &["pull", "--latest", "10", "--include-retracted"]),
        ["Kept"]
    );
    assert!(env.ok(&["pull", &keep]).contains("Kept"));
    let again = env.ok_json(&["purge", "--expired", "--retracted", "--no-backup"]);
    assert_eq!(again["removed"], json!([]));
    let human = env.run(&["purge", "--retracted"]);
    // "Nothing to purge."
    snapshot!("purge_nothing", human.transcript());
}

#[test]
fn purge_waits_for_another_writer_then_times_out_with_exit_6_writing_nothing() {
    let env = Env::new();
    let gone = env.deposit("Wrong", &[]);
    env.ok(&["retract", &gone, "--reason", "wrong"]);
    let config = env.path(".relay/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let text = text
        .lines()
        .map(|l| match l.starts_with("lock_timeout_ms") {
            true => "lock_timeout_ms = 200".to_string(),
            false => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&config, text).unwrap();
    let lock_path = env.path(".relay/local/locks/project-demo.lock");
    std::fs::create_dir_all(lock_path.parent().unwrap()).unwrap();
    let held = std::fs::File::create(&lock_path).unwrap();
    held.lock().unwrap();
    let before = package_logs(&env);
    let run = env.run(&["purge", "--retracted", "--json"]);
    assert_eq!(run.code, 6, "{}", run.stderr);
    assert_eq!(run.error()["error"], "lock_timeout");
    snapshot!("lock_timeout_json", run.transcript());
    snapshot!(
        "lock_timeout",
        env.run(&["purge", "--retracted"]).transcript()
    );
    let after = package_logs(&env);
    assert_eq!(before, after);
    held.unlock().unwrap();
    assert_eq!(
        env.ok_json(&["purge", "--retracted"])["removed"][0]["id"],
        gone
    );
}

#[test]
fn export_leaves_retracted_records_behind_and_a_share_profile_leaves_expired_ones_too() {
    let env = Env::new();
    let kept = env.deposit("Kept result", &[]);
    let gone = env.deposit("Retracted result", &[]);
    env.ok(&[
        "facts", "assert", "bench", "speed", "fast", "--source", &gone,
    ]);
    env.ok(&["facts", "assert", "bench", "owner", "ana"]);
    import_expired(&env, "pkg_00000000000000000000000000000001", "Spring promo");
    env.ok(&["retract", &gone, "--reason", "Wrong numbers"]);
    let backup = env.dir.join("backup");
    env.ok(&["export", "--out", backup.to_str().unwrap()]);
    let exported = |file: &str| std::fs::read_to_string(backup.join(file)).unwrap();
    let packages = exported("packages.ndjson");
    assert!(
        packages.contains(&kept) && !packages.contains(&gone),
        "{packages}"
    );
    assert!(
        packages.contains("Spring promo"),
        "expired records travel with their expiry"
    );
    let facts = exported("facts.ndjson");
    assert!(
        !facts.contains("\"speed\""),
        "a fact from a retracted package stays: {facts}"
    );
    assert!(facts.contains("\"owner\""));
    // The copy imports into a fresh store, verifies, and hides the expired package there too.
    let other = Env::new();
    let run = other.run(&["import", backup.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(other.run(&["verify"]).code, 0);
    assert_eq!(titles(&other, &["pull", "--latest", "10"]), ["Kept result"]);
    assert_eq!(
        titles(&other, &["pull", "--latest", "10", "--include-expired"]),
        ["Kept result", "Spring promo"]
    );
    // A share profile withholds the expired package as well, and counts both.
    let config = env.path(".relay/config.toml");
    let text = std::fs::read_to_string(&config).unwrap() + "\n[share.all]\n";
    std::fs::write(&config, text).unwrap();
    let shared = env.dir.join("shared");
    env.ok(&[
        "export",
        "--share",
        "all",
        "--out",
        shared.to_str().unwrap(),
    ]);
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(shared.join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["share"]["withheld"]["packages"], 2, "{manifest}");
    assert_eq!(manifest["share"]["withheld"]["facts"], 1, "{manifest}");
    let packages = std::fs::read_to_string(shared.join("packages.ndjson")).unwrap();
    assert!(!packages.contains("Spring promo") && packages.contains("Kept result"));
}

#[test]
fn relay_serve_hides_retracted_and_expired_packages_and_refuses_a_past_expiry() {
    use crate::serve::{Served, curl, post_json};
    let env = Env::new();
    let kept = env.deposit("Kept result", &[]);
    let gone = env.deposit("Retracted result", &[]);
    import_expired(&env, "pkg_00000000000000000000000000000001", "Spring promo");
    env.ok(&["retract", &gone, "--reason", "Wrong numbers"]);
    let server = Served::start(&env, &[]);
    let (status, body) = curl(
        &env,
        &[&server.at("/v1/projects/demo/packages?mode=latest")],
    );
    assert_eq!(status, 200, "{body}");
    let ids: Vec<&str> = (body["packages"].as_array().unwrap().iter())
        .map(|p| p["package_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [kept.as_str()]);
    let revealing = server
        .at("/v1/projects/demo/packages?mode=latest&include_expired=true&include_retracted=true");
    assert_eq!(
        curl(&env, &[&revealing]).1["packages"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let (status, body) = curl(&env, &[&server.at(&format!("/v1/packages/{gone}"))]);
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("package_not_found"))
    );
    assert!(
        body["message"].as_str().unwrap().contains("Wrong numbers"),
        "{body}"
    );
    let url = server.at("/v1/projects/demo/packages");
    let past = json!({"title": "x", "x-expires-at": "2001-01-01T00:00:00Z"}).to_string();
    let (status, body) = post_json(&env, &url, &serde_json::from_str(&past).unwrap());
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_input")),
        "{body}"
    );
}
