//! Import applies the rules deposit, review and `facts assert` apply: a package moves on only
//! along §5.3, and a fact's source package exists in its project. A refused record stops the
//! whole import before anything is written, unless `--on-conflict skip` leaves it out.

use std::path::Path;

use serde_json::{Value, json};

use crate::harness::{Env, read};

/// A package of `demo` at `status`: the same package at every status.
fn package(id: &str, status: &str) -> Value {
    json!({
        "package_id": id, "project_id": "demo", "relay_version": "0.1", "title": "Reviewed",
        "status": status, "package_type": "standard", "review_type": "human",
        "created_at": "2026-05-01T10:00:00Z", "created_by": {"id": "jo", "type": "human"}
    })
}

/// A fact of `project` whose source is `source`.
fn fact(id: &str, project: &str, source: &str) -> Value {
    json!({
        "fact_id": id, "project_id": project, "subject": "db", "predicate": "engine",
        "value": "postgres", "valid_from": "2026-05-01T10:00:00Z", "valid_to": null,
        "created_at": "2026-05-01T10:00:00Z", "source_package_id": source,
        "asserted_by": {"id": "jo", "type": "human"}
    })
}

fn ndjson(records: &[Value]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

/// Every file of the store but `cache/` and `local/`, with its contents.
fn snapshot(env: &Env) -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            if rel == "cache" || rel == "local" {
                continue;
            }
            if path.is_dir() {
                walk(&path, root, out);
            } else {
                out.push((rel, read(&path)));
            }
        }
    }
    let mut out = Vec::new();
    walk(&env.store(), &env.store(), &mut out);
    out.sort();
    out
}

fn import(env: &Env, records: &[Value], extra: &[&str]) -> crate::harness::Run {
    let mut args = vec!["import", "-", "--json"];
    args.extend_from_slice(extra);
    env.run_stdin(&args, ndjson(records).as_bytes())
}

#[test]
fn a_package_taken_back_in_its_review_is_refused_and_nothing_is_written() {
    let env = Env::new();
    let r = import(&env, &[package("pkg_r", "awaiting_review")], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let before = snapshot(&env);
    // A new package comes along too: it is not written either.
    let stream = [package("pkg_new", "complete"), package("pkg_r", "draft")];
    let r = import(&env, &stream, &[]);
    assert_eq!((r.code, r.stdout.as_str()), (3, ""));
    assert_eq!(
        r.error(),
        json!({
            "error": "invalid_transition",
            "message": "cannot import a `draft` version of package `pkg_r`: it is `awaiting_review`"
        })
    );
    assert_eq!(snapshot(&env), before);
    // Complete is terminal.
    let done = Env::new();
    import(&done, &[package("pkg_r", "complete")], &[]);
    let before_done = snapshot(&done);
    let r = import(&done, &[package("pkg_r", "revision_requested")], &[]);
    assert_eq!(r.code, 3);
    assert_eq!(
        r.error()["message"],
        "cannot import a `revision_requested` version of package `pkg_r`: it is `complete`, and \
         complete is terminal; to correct it, deposit a new package with `--parent pkg_r`"
    );
    assert_eq!(snapshot(&done), before_done);
}

#[test]
fn with_on_conflict_skip_the_refused_package_is_left_out_and_listed() {
    let env = Env::new();
    import(&env, &[package("pkg_r", "awaiting_review")], &[]);
    let before = env.package_lines("demo");
    let stream = [package("pkg_r", "draft"), package("pkg_new", "complete")];
    let r = import(&env, &stream, &["--on-conflict", "skip"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.json(),
        json!({
            "added": {"packages": 1},
            "unchanged": {},
            "skipped": {"packages": 1},
            "skipped_records": [{
                "kind": "packages", "id": "pkg_r", "error": "invalid_transition",
                "message": "cannot import a `draft` version of package `pkg_r`: it is `awaiting_review`"
            }],
            "dry_run": false
        })
    );
    let after = env.package_lines("demo");
    assert_eq!(after.len(), before.len() + 1);
    assert_eq!(after[..before.len()], before[..]);
    assert!(after[before.len()].contains("pkg_new"));
    let r = env.run_stdin(
        &["import", "-", "--on-conflict", "skip"],
        ndjson(&stream).as_bytes(),
    );
    assert_eq!(
        r.stdout,
        "Added: nothing\nAlready present: 1 package\nSkipped (refused): 1 package\n  \
         invalid_transition: cannot import a `draft` version of package `pkg_r`: it is \
         `awaiting_review`\n"
    );
}

#[test]
fn a_legal_path_of_versions_is_imported_in_order() {
    let env = Env::new();
    import(&env, &[package("pkg_r", "draft")], &[]);
    let stream = [
        package("pkg_r", "awaiting_review"),
        package("pkg_r", "complete"),
    ];
    let r = import(&env, &stream, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["added"], json!({"packages": 2}));
    let history = env
        .run(&["pull", "pkg_r", "--history", "--json"])
        .json_lines();
    let steps: Vec<(u64, &str, &str)> = history
        .iter()
        .map(|v| {
            (
                v["version"].as_u64().unwrap_or(1),
                v["package"]["status"].as_str().unwrap(),
                v["transition"]["from"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        steps,
        vec![
            (1, "draft", "-"),
            (2, "awaiting_review", "draft"),
            (3, "complete", "awaiting_review")
        ]
    );
    // The same versions again: nothing new.
    let r = import(&env, &stream, &[]);
    assert_eq!(r.json()["added"], json!({}));
    // A fresh store takes the whole path from one stream.
    let fresh = Env::new();
    let all = [
        package("pkg_r", "draft"),
        stream[0].clone(),
        stream[1].clone(),
    ];
    let r = import(&fresh, &all, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = fresh.ok_json(&["pull", "pkg_r"])["package"].clone();
    assert_eq!(v["status"], "complete");
}

#[test]
fn a_fact_whose_source_package_is_missing_is_refused() {
    let env = Env::new();
    env.ok(&["projects", "create", "other"]);
    let mut elsewhere = package("pkg_other", "complete");
    elsewhere["project_id"] = json!("other");
    import(&env, &[elsewhere], &[]);
    let before = snapshot(&env);
    for source in ["pkg_missing", "pkg_other"] {
        let r = import(&env, &[fact("fact_1", "demo", source)], &[]);
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert_eq!(
            r.error(),
            json!({
                "error": "package_not_found",
                "message": format!(
                    "fact `fact_1` names `{source}` as its source_package_id, but its project \
                     holds no such package"
                )
            })
        );
        assert_eq!(snapshot(&env), before);
    }
    let r = import(
        &env,
        &[fact("fact_1", "demo", "pkg_missing")],
        &["--on-conflict", "skip"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["skipped"], json!({"facts": 1}));
    assert_eq!(r.json()["skipped_records"][0]["error"], "package_not_found");
    assert_eq!(snapshot(&env), before);
    // With its package in the same stream (before or after it), or in the store, it is taken.
    let r = import(
        &env,
        &[
            fact("fact_1", "demo", "pkg_src"),
            package("pkg_src", "complete"),
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["added"], json!({"facts": 1, "packages": 1}));
    let r = import(&env, &[fact("fact_2", "demo", "pkg_src")], &[]);
    assert_eq!(r.json()["added"], json!({"facts": 1}), "{}", r.stderr);
    let facts_file = env.store().join("projects/demo/facts.ndjson");
    assert_eq!(read(&facts_file).lines().count(), 2);
    // A fact an older relay stored without its source is left alone, as it is: importing it
    // again changes nothing, and is no error.
    let dangling = fact("fact_old", "demo", "pkg_gone");
    std::fs::write(
        &facts_file,
        read(&facts_file) + &ndjson(std::slice::from_ref(&dangling)),
    )
    .unwrap();
    let r = import(&env, &[dangling], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["unchanged"], json!({"facts": 1}));
}
