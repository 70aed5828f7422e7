//! Package ids are unique in the whole store (§6.1), and times given to relay are stored in UTC
//! (§6.1): deposit, import and `pull ID` across projects, and offsets converted before hashing.

use serde_json::{Value, json};

use crate::harness::{Env, read};

/// A store with the projects `demo` (the default) and `other`.
fn two_projects() -> Env {
    let env = Env::new();
    env.ok(&["projects", "create", "other"]);
    env
}

/// The content hash of a package, as relay computes it.
fn hash_of(package: &Value) -> String {
    relay::wire::Package::from_value(package.clone())
        .unwrap()
        .content_hash()
}

#[test]
fn an_id_taken_in_another_project_is_a_replay_or_a_duplicate() {
    let env = two_projects();
    let same = ["deposit", "--id", "pkg_one", "--title", "Same", "--json"];
    let first = env.run(&same).json();
    assert_eq!(first["package"]["project_id"], "demo");
    // The same partial package again with another project selected by RELAY_PROJECT, which
    // only fills the project in (as relay fills the time in): identical content, so the stored
    // package is returned.
    let r = env.run_env(&same, &[("RELAY_PROJECT", "other")]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(r.json(), first);
    // Other content under the same id, in the other project: refused, nothing written.
    let r = env.run(&[
        "deposit",
        "--id",
        "pkg_one",
        "--title",
        "Different",
        "--project",
        "other",
        "--json",
    ]);
    assert_eq!(r.code, 3);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.error(),
        json!({
            "error": "duplicate_package_id",
            "message": "a package with id `pkg_one` already exists with different content, and \
                        packages are immutable; deposit a new package with `--parent pkg_one` instead"
        })
    );
    // So is the same package named into the other project (selected, as every door must).
    let mut whole = first["package"].clone();
    whole["project_id"] = json!("other");
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--project", "other", "--json"],
        whole.to_string().as_bytes(),
    );
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (3, Some("duplicate_package_id"))
    );
    assert_eq!(env.package_lines("other"), Vec::<String>::new());
    assert_eq!(env.package_lines("demo").len(), 1);
}

#[test]
fn import_refuses_an_id_another_project_holds() {
    let env = two_projects();
    env.deposit("Kept", &["--id", "pkg_one"]);
    let stream = env.ok(&["export", "--out", "-"]);
    // The same backup again: nothing new.
    let r = env.run_stdin(&["import", "-", "--json"], stream.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["unchanged"]["packages"], 1);
    // Restored under another project name into the same store: its ids are taken.
    let lines_before = env.package_lines("demo");
    let projects_before = read(&env.store().join("projects.ndjson"));
    let r = env.run_stdin(
        &["import", "-", "--project-map", "demo=other", "--json"],
        stream.as_bytes(),
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert_eq!(r.error()["error"], "duplicate_package_id");
    assert!(
        r.error()["message"].as_str().unwrap().contains("`pkg_one`"),
        "{}",
        r.stderr
    );
    assert_eq!(env.package_lines("other"), Vec::<String>::new());
    assert_eq!(env.package_lines("demo"), lines_before);
    assert_eq!(read(&env.store().join("projects.ndjson")), projects_before);
    // Skipped on request, and said so.
    let r = env.run_stdin(
        &[
            "import",
            "-",
            "--project-map",
            "demo=other",
            "--on-conflict",
            "skip",
            "--json",
        ],
        stream.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["skipped"], json!({"packages": 1}));
    assert_eq!(r.json()["skipped_records"][0]["id"], "pkg_one");
    assert_eq!(env.package_lines("other"), Vec::<String>::new());
    // Two projects of one stream cannot share an id either.
    let fresh = Env::new();
    let mut copy: Value = serde_json::from_str(
        stream
            .lines()
            .find(|l| l.contains("\"package_id\""))
            .unwrap(),
    )
    .unwrap();
    let mut twice = serde_json::to_string(&copy).unwrap() + "\n";
    copy["project_id"] = json!("other");
    twice += &(serde_json::to_string(&copy).unwrap() + "\n");
    let r = fresh.run_stdin(&["import", "-", "--json"], twice.as_bytes());
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (3, Some("duplicate_package_id")),
        "{}",
        r.stderr
    );
    assert_eq!(fresh.package_lines("demo"), Vec::<String>::new());
}

#[test]
fn pull_by_id_needs_no_project() {
    let env = two_projects();
    let id = env.deposit("Elsewhere", &["--project", "other"]);
    let v = env.ok_json(&["pull", &id])["package"].clone();
    assert_eq!(
        (v["title"].as_str(), v["project_id"].as_str()),
        (Some("Elsewhere"), Some("other"))
    );
    let r = env.run(&["pull", "pkg_nowhere", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("package_not_found"))
    );
}

/// A store that already holds `pkg_dup` in `demo` and in `zeta` (as two clones merged, or an
/// older relay, can leave it).
fn store_with_a_duplicate() -> Env {
    let env = Env::new();
    env.deposit("In demo", &["--id", "pkg_dup"]);
    let elsewhere = Env::new();
    elsewhere.ok(&["projects", "create", "zeta"]);
    elsewhere.deposit("In zeta", &["--id", "pkg_dup", "--project", "zeta"]);
    let from = elsewhere.store().join("projects/zeta");
    let to = env.store().join("projects/zeta/packages");
    std::fs::create_dir_all(&to).unwrap();
    for f in std::fs::read_dir(from.join("packages")).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
    }
    let record = read(&elsewhere.store().join("projects.ndjson"))
        .lines()
        .find(|l| l.contains("\"zeta\""))
        .unwrap()
        .to_string();
    let projects = env.store().join("projects.ndjson");
    std::fs::write(&projects, read(&projects) + &record + "\n").unwrap();
    env
}

#[test]
fn a_duplicate_left_by_an_older_store_answers_from_the_first_project_and_warns() {
    let env = store_with_a_duplicate();
    for args in [
        &["pull", "pkg_dup", "--json"][..],
        &["pull", "pkg_dup", "--project", "zeta", "--json"],
        &[
            "pull",
            "pkg_dup",
            "--history",
            "--project",
            "zeta",
            "--json",
        ],
    ] {
        let r = env.run(args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let v = r.json();
        let p = v.get("package").unwrap_or(&v);
        assert_eq!(p["title"], "In demo", "{args:?}");
        let w: Value = serde_json::from_str(r.stderr.lines().next().unwrap()).unwrap();
        assert_eq!(w["warning"], "duplicate_package_id");
        let file = w["file"].as_str().unwrap();
        assert!(file.starts_with(".relay/projects/zeta/packages/"), "{file}");
        assert_eq!(w["line"], 1);
        assert_eq!(
            w["message"],
            "package `pkg_dup` is stored in project `demo` and again in project `zeta`, but \
             package ids are unique in a store; this answer is the one in `demo` (the project \
             whose id sorts first); `relay verify` lists such ids"
        );
    }
    // Depositing the id anywhere stays refused.
    let r = env.run(&["deposit", "--id", "pkg_dup", "--title", "Third", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (3, Some("duplicate_package_id"))
    );
    // verify lists it, as a note (reads answer soundly; no repair can choose for the user).
    let r = env.run(&["verify", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let notes = r.json_lines();
    assert_eq!(notes.len(), 1, "{notes:?}");
    let file = notes[0]["file"].as_str().unwrap();
    assert!(file.starts_with("projects/zeta/packages/"), "{file}");
    assert_eq!(
        (&notes[0]["line"], &notes[0]["kind"], &notes[0]["severity"]),
        (&json!(1), &json!("duplicate_package_id"), &json!("note"))
    );
    assert_eq!(
        notes[0]["message"],
        "package id pkg_dup is stored in projects `demo` and `zeta`; ids are unique in a store \
         (§6.1), and `relay pull pkg_dup` answers from `demo`"
    );
}

#[test]
fn a_deposited_time_with_an_offset_is_refused_and_one_in_utc_is_stored_as_given() {
    let env = Env::new();
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        br#"{"package_id":"pkg_t","title":"T","created_at":"2026-05-01T01:00:00.250+02:00"}"#,
    );
    assert_eq!(r.code, 4, "{}", r.stderr);
    let e = r.error();
    assert_eq!(e["error"], "invalid_schema");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.contains("write it as `2026-04-30T23:00:00.250Z`"),
        "{message}"
    );
    assert_eq!(
        env.ok(&["pull", "--latest", "--json"]),
        "",
        "nothing stored"
    );
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        br#"{"package_id":"pkg_t","title":"T","created_at":"2026-04-30T23:00:00.250Z"}"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["package"]["created_at"], "2026-04-30T23:00:00.250Z");
    assert_eq!(v["hash"].as_str().unwrap(), hash_of(&v["package"]));
    // Stored in the month of its time, exactly as printed.
    let log = env.store().join("projects/demo/packages/2026-04.ndjson");
    let stored: Value = serde_json::from_str(read(&log).trim_end()).unwrap();
    assert_eq!(
        (&stored["package"], &stored["hash"]),
        (&v["package"], &v["hash"])
    );
}

#[test]
fn an_imported_time_with_an_offset_is_refused_as_deposit_refuses_it() {
    let env = Env::new();
    let package = json!({
        "package_id": "pkg_t", "project_id": "demo", "relay_version": "0.1", "title": "T",
        "status": "complete", "package_type": "standard", "review_type": "none",
        "created_at": "2026-05-01T12:00:00+02:00", "created_by": {"id": "jo", "type": "human"}
    });
    let line = serde_json::to_string(&package).unwrap();
    let r = env.run_stdin(&["import", "-", "--json"], format!("{line}\n").as_bytes());
    assert_eq!(r.code, 4, "{}", r.stderr);
    let message = r.error()["message"].as_str().unwrap().to_string();
    assert!(
        message.contains("write it as `2026-05-01T10:00:00Z`"),
        "{message}"
    );
    assert!(env.package_lines("demo").is_empty(), "nothing imported");
}

#[test]
fn writers_racing_one_id_into_several_projects_leave_it_in_one() {
    const PROJECTS: [&str; 4] = ["p0", "p1", "p2", "p3"];
    let env = Env::new();
    for p in PROJECTS {
        env.ok(&["projects", "create", p]);
    }
    for round in 0..8 {
        let id = format!("pkg_race_{round}");
        let codes: Vec<i32> = std::thread::scope(|s| {
            let handles: Vec<_> = (PROJECTS.iter())
                .map(|p| {
                    let (env, id) = (&env, &id);
                    s.spawn(move || {
                        let args = ["deposit", "--id", id, "--title", p, "--project", p];
                        env.command(&args).output().unwrap().status.code().unwrap()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut sorted = codes.clone();
        sorted.sort();
        assert_eq!(sorted, [0, 3, 3, 3], "round {round}: {codes:?}");
        let r = env.run(&["pull", &id, "--json"]);
        assert_eq!((r.code, r.stderr.as_str()), (0, ""), "one copy only");
        let winner = PROJECTS[codes.iter().position(|&c| c == 0).unwrap()];
        assert_eq!(r.json()["package"]["project_id"], winner);
    }
}
