//! `relay verify [--fix]`: tampering, torn lines, conflict markers, forks, and writers killed
//! mid-write.

use serde_json::{Value, json};

use crate::harness::{Env, read};

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
    let human = env.run(&["verify"]);
    assert!(
        human.stdout.starts_with(&format!(
            "{rel}:2: package {id} does not match its stored hash"
        )),
        "{}",
        human.stdout
    );
    env.ok(&["verify", "--fix"]);
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
    let r = env.run(&["verify", "--fix"]);
    assert_eq!(r.code, 5, "conflict markers are not repaired silently");
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
    assert_eq!(code, 5);
    assert_eq!(found[0]["kind"], "fact_fork");
    let current = env.ok_json(&["facts", "get", "svc", "status"]);
    env.ok(&["verify", "--fix"]);
    assert_eq!(problems(&env), (0, vec![]));
    assert_eq!(
        env.ok_json(&["facts", "get", "svc", "status"]),
        current,
        "the winner stays current"
    );
    let history = env
        .run(&["facts", "history", "svc", "status", "--json"])
        .json_lines();
    assert_eq!(history[0]["valid_to"], "2026-02-01T00:00:00.000000Z");
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
