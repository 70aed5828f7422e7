//! Git as the distributed engine: two clones change the store independently and merge both
//! ways through real `git pull`; the union driver must merge without conflicts, `verify --fix`
//! must leave both clean, and both must then export the same records.

use std::path::Path;
use std::process::Command;

use crate::harness::Env;

pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Test",
            "-c",
            "user.email=test@example.com",
            "-c",
            "pull.rebase=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Commits everything in `from`, pushes it to `origin`'s main, and clones that into `to`.
pub fn publish_and_clone(from: &Path, origin: &Path, to: &Path, message: &str) {
    git(from, &["add", "-A"]);
    git(from, &["commit", "-q", "-m", message]);
    git(from, &["push", "-q", "origin", "HEAD:main"]);
    let parent = to.parent().expect("a folder to clone into");
    let (origin, to) = (origin.to_str().unwrap(), to.to_str().unwrap());
    git(parent, &["clone", "-q", "-b", "main", origin, to]);
}

/// A bare `origin.git` in the test's folder and a first clone of it, `a` (both paths); `None`
/// (with a note that the test is skipped) where git is not installed.
pub fn origin_and_clone(env: &Env) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("skipped: git is not installed");
        return None;
    }
    let root = env.dir.clone();
    let origin = root.join("origin.git");
    git(&root, &["init", "--bare", "-q", origin.to_str().unwrap()]);
    let a = root.join("a");
    git(
        &root,
        &["clone", "-q", origin.to_str().unwrap(), a.to_str().unwrap()],
    );
    Some((origin, a))
}

pub fn in_dir(env: &Env, dir: &Path, args: &[&str]) -> String {
    let out = env.command(args).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "relay {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn two_clones_merge_both_ways_without_conflicts_and_agree() {
    let env = Env::empty();
    let Some((origin, a)) = origin_and_clone(&env) else {
        return;
    };
    let root = env.dir.clone();
    in_dir(&env, &a, &["init", "--project", "demo"]);
    let shared = in_dir(
        &env,
        &a,
        &[
            "deposit",
            "--title",
            "Shared plan",
            "--status",
            "awaiting_review",
            "--review",
            "human",
        ],
    );
    let shared = shared.split(' ').next().unwrap().to_string();
    in_dir(
        &env,
        &a,
        &[
            "facts",
            "assert",
            "svc",
            "status",
            "up",
            "--valid-from",
            "2026-01-01T00:00:00Z",
        ],
    );
    let b = root.join("b");
    publish_and_clone(&a, &origin, &b, "relay store");

    // Independent work in each clone.
    in_dir(
        &env,
        &a,
        &["deposit", "--title", "From A", "--decision", "A decided"],
    );
    in_dir(
        &env,
        &a,
        &[
            "facts",
            "assert",
            "svc",
            "status",
            "degraded",
            "--valid-from",
            "2026-03-01T00:00:00Z",
        ],
    );
    in_dir(&env, &a, &["review", "approve", &shared]);
    in_dir(&env, &a, &["session", "start", "--callsign", "amber-fox"]);
    in_dir(&env, &a, &["session", "end"]);
    in_dir(&env, &b, &["deposit", "--title", "From B"]);
    in_dir(
        &env,
        &b,
        &[
            "facts",
            "assert",
            "svc",
            "status",
            "down",
            "--valid-from",
            "2026-02-01T00:00:00Z",
        ],
    );
    in_dir(
        &env,
        &b,
        &["review", "request-changes", &shared, "--note", "needs work"],
    );
    in_dir(&env, &b, &["session", "start", "--callsign", "coral-heron"]);
    for (dir, msg) in [(&a, "work in a"), (&b, "work in b")] {
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-q", "-m", msg]);
    }
    git(&a, &["push", "-q", "origin", "HEAD:main"]);
    // B pulls A's work (a real merge), pushes; A pulls B's: both directions.
    git(&b, &["pull", "-q", "--no-edit", "origin", "main"]);
    git(&b, &["push", "-q", "origin", "HEAD:main"]);
    git(&a, &["pull", "-q", "--no-edit", "origin", "main"]);
    for dir in [&a, &b] {
        let status = git(dir, &["status", "--porcelain"]);
        assert!(!status.contains("UU"), "no conflicts: {status}");
        in_dir(&env, dir, &["verify", "--fix", "--quiet"]);
        let out = env
            .command(&["verify", "--json"])
            .current_dir(dir)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "clean after --fix: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let export = |dir: &Path| in_dir(&env, dir, &["export", "--all-projects", "--out", "-"]);
    assert_eq!(export(&a), export(&b), "both clones hold the same records");
    // The approved (complete) version wins over the request for changes; the latest fact wins.
    let p: serde_json::Value =
        serde_json::from_str(in_dir(&env, &a, &["pull", &shared, "--json"]).trim()).unwrap();
    assert_eq!(p["package"]["status"], "complete");
    let f: serde_json::Value =
        serde_json::from_str(in_dir(&env, &b, &["facts", "get", "svc", "status", "--json"]).trim())
            .unwrap();
    assert_eq!(f["value"], "degraded");
}
