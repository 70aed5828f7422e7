//! `relay hook install|uninstall --git` and `relay deposit --auto`, driven by real git (the
//! agents' hooks are in `agent_hooks`).

use std::process::Command;

use serde_json::{Value, json};

use crate::harness::{Env, read, snapshot};

/// Runs git in the test's work tree as Ada, outside the user's config.
pub fn git(env: &Env, args: &[&str]) -> std::process::Output {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Ada",
            "-c",
            "user.email=ada@example.com",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(&env.dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.dir.parent().unwrap().join("home"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A store in a fresh git repository with one commit, or `None` without git.
pub fn repo() -> Option<Env> {
    Command::new("git").arg("--version").output().ok()?;
    let env = Env::new();
    git(&env, &["init", "-q"]);
    git(&env, &["add", "-A"]);
    git(&env, &["commit", "-q", "-m", "relay store"]);
    Some(env)
}

fn autos(env: &Env) -> Vec<Value> {
    env.run(&[
        "pull",
        "--latest",
        "100",
        "--type",
        "auto_deposit",
        "--json",
    ])
    .packages()
}

#[test]
fn post_commit_deposits_each_commit_once_and_never_blocks_git() {
    let Some(env) = repo() else { return };
    let out = env.ok(&["hook", "install", "--git"]);
    // "post-commit: installed", "post-merge: installed", …
    snapshot!("install", out);
    let hook = env.path(".git/hooks/post-commit");
    assert!(read(&hook).contains("deposit --auto --queue --quiet"));
    assert_eq!(
        env.ok(&["hook", "install", "--git"])
            .matches("already installed")
            .count(),
        5,
        "idempotent"
    );

    std::fs::create_dir_all(env.path("src")).unwrap();
    std::fs::write(env.path("src/lib.rs"), "pub fn answer() -> u32 { 42 }\n").unwrap();
    git(&env, &["add", "src/lib.rs"]);
    git(
        &env,
        &[
            "commit",
            "-q",
            "-m",
            "Add the answer",
            "-m",
            "It is 42, as computed.",
        ],
    );
    let commit = String::from_utf8(git(&env, &["rev-parse", "HEAD"]).stdout)
        .unwrap()
        .trim()
        .to_string();
    let found = autos(&env);
    assert_eq!(found.len(), 1, "{found:?}");
    let p = &found[0];
    assert_eq!(p["title"], "Add the answer");
    let description = p["description"].as_str().unwrap();
    for part in ["It is 42, as computed.", "Branch: main", "src/lib.rs | 1 +"] {
        assert!(
            description.contains(part),
            "missing {part:?} in {description}"
        );
    }
    assert_eq!(p["created_by"]["git_commit"], commit.as_str());
    assert_eq!(p["created_by"]["id"], "ada@example.com");
    assert_eq!(p["significance"], 2);
    assert_eq!(
        p["deliverables"],
        json!([{"path": "src/lib.rs", "type": "rs", "size_bytes": 30,
                "hash": "sha256:5e0a6af76181b77032ef291474aab99538433cb86eb2b8ad88f3c0cfb2577a51"}])
    );
    // At most once per commit.
    env.ok(&["deposit", "--auto"]);
    assert_eq!(autos(&env).len(), 1);
    // The package waits in the clone's queue, git sees nothing; `relay hook flush` moves it
    // into the store, and a commit of the store alone is not new work.
    assert_eq!(
        String::from_utf8(git(&env, &["status", "--porcelain"]).stdout).unwrap(),
        ""
    );
    env.ok(&["hook", "flush"]);
    git(&env, &["add", "-A"]);
    git(&env, &["commit", "-q", "-m", "store"]);
    assert_eq!(autos(&env).len(), 1);
    // A broken relay never fails the commit.
    std::fs::write(env.store().join("config.toml"), "not = [valid").unwrap();
    std::fs::write(env.path("b.txt"), "b").unwrap();
    git(&env, &["add", "b.txt"]);
    let out = git(&env, &["commit", "-q", "-m", "still commits"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("deposit --auto skipped"));
}

#[test]
fn existing_hooks_are_chained_and_restored() {
    let Some(env) = repo() else { return };
    let hook = env.path(".git/hooks/post-commit");
    let mine = "#!/bin/sh\necho mine >> \"$(git rev-parse --show-toplevel)/hook-ran\"\n";
    std::fs::write(&hook, mine).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = env.ok(&["hook", "install", "--git"]);
    // The hook found there is "kept as post-commit.relay-backup".
    snapshot!("install_over_a_hook", out);
    std::fs::write(env.path("a.txt"), "a").unwrap();
    git(&env, &["add", "a.txt"]);
    git(&env, &["commit", "-q", "-m", "Both hooks run"]);
    assert_eq!(read(&env.path("hook-ran")), "mine\n");
    assert_eq!(autos(&env).len(), 1);
    let out = env.ok(&["hook", "uninstall", "--git"]);
    // "post-commit: restored"
    snapshot!("uninstall_restores", out);
    assert_eq!(read(&hook), mine);
    assert!(!env.path(".git/hooks/post-merge").exists());
    assert!(!env.path(".git/hooks/post-rewrite").exists());
    assert!(!env.path(".git/hooks/pre-commit").exists());
}

#[test]
fn auto_records_uncommitted_work_once_and_skips_when_nothing_is_new() {
    let Some(env) = repo() else { return };
    let r = env.run(&["deposit", "--auto"]);
    assert_eq!(r.code, 0);
    assert!(
        autos(&env).is_empty(),
        "the last commit holds only the store"
    );
    std::fs::write(env.path("notes.md"), "draft\n").unwrap();
    env.ok(&["deposit", "--auto"]);
    let found = autos(&env);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0]["title"],
        "Uncommitted work on main: 1 file changed"
    );
    assert_eq!(found[0]["deliverables"][0]["path"], "notes.md");
    env.ok(&["deposit", "--auto"]);
    assert_eq!(
        autos(&env).len(),
        1,
        "the same state is not deposited twice"
    );
    std::fs::write(env.path("notes.md"), "draft, longer\n").unwrap();
    env.ok(&["deposit", "--auto"]);
    assert_eq!(autos(&env).len(), 2, "a changed untracked file is new work");
    // Outside a work tree: a note, exit 0, nothing written.
    let other = Env::new();
    let r = other.run(&["deposit", "--auto"]);
    assert_eq!(r.code, 0);
    // "needs a git work tree"
    snapshot!("auto_outside_git", r.transcript());
}

#[test]
fn auto_reads_paths_exactly_and_store_commits_add_nothing() {
    let Some(env) = repo() else { return };
    std::fs::write(env.path("a.txt"), "a\n").unwrap();
    std::fs::write(env.path("old name.md"), "x\n").unwrap();
    git(&env, &["add", "-A"]);
    git(&env, &["commit", "-q", "-m", "files"]);
    env.ok(&["deposit", "--auto"]); // the commit
    std::fs::write(env.path("a.txt"), "a changed\n").unwrap();
    git(&env, &["mv", "old name.md", "new name.md"]);
    env.ok(&["deposit", "--auto"]); // the uncommitted work
    let found = autos(&env);
    assert_eq!(found.len(), 2);
    let work = found
        .iter()
        .find(|p| p["title"].as_str().unwrap().starts_with("Uncommitted"))
        .unwrap();
    let mut paths: Vec<&str> = work["deliverables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    paths.sort();
    assert_eq!(paths, ["a.txt", "new name.md"]);
    // Committing only the store records nothing new, and leaves the store clean.
    git(&env, &["add", ".relay"]);
    git(&env, &["commit", "-q", "-m", "store only", "--", ".relay"]);
    env.ok(&["deposit", "--auto"]);
    assert_eq!(autos(&env).len(), 2);
    let status = git(&env, &["status", "--porcelain", "--", ".relay"]);
    assert!(
        status.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
}

#[test]
fn an_amend_that_keeps_the_diff_records_no_second_package_and_the_change_is_named() {
    let Some(env) = repo() else { return };
    env.ok(&["hook", "install", "--git"]);
    std::fs::write(env.path("a.txt"), "a\n").unwrap();
    git(&env, &["add", "a.txt"]);
    git(&env, &["commit", "-q", "-m", "Add a"]);
    git(&env, &["commit", "-q", "--amend", "-m", "Add a, reworded"]);
    let found = autos(&env);
    assert_eq!(found.len(), 1, "one package per change: {found:?}");
    assert_eq!(found[0]["title"], "Add a");
    let patch = String::from_utf8(
        env.program(
            "sh",
            &["-c", "git show HEAD -- a.txt | git patch-id --stable"],
        )
        .output()
        .unwrap()
        .stdout,
    )
    .unwrap();
    assert_eq!(
        found[0]["x-git"]["patch_id"],
        patch.split_whitespace().next().unwrap()
    );
    // A change to the diff is a new change.
    std::fs::write(env.path("a.txt"), "a, changed\n").unwrap();
    git(&env, &["commit", "-q", "--amend", "-am", "Add a, changed"]);
    assert_eq!(autos(&env).len(), 2);
}

#[test]
fn the_queue_enters_with_the_next_commit_and_waits_when_staging_is_unsafe() {
    let Some(env) = repo() else { return };
    env.ok(&["hook", "install", "--git"]);
    std::fs::write(env.path("a.txt"), "a\n").unwrap();
    git(&env, &["add", "a.txt"]);
    git(&env, &["commit", "-q", "-m", "Add a"]);
    let status = env.ok(&["status"]);
    assert!(
        status.contains(
            "Queued 1 package version from relay's hooks waits in the store's local/pending/, \
             which git never sees (reads show them): they enter the store with your next \
             commit (the pre-commit hook runs relay hook flush --stage), or now with relay \
             hook flush."
        ),
        "{status}"
    );
    // A commit of named paths goes through a temporary index: the queue waits.
    std::fs::write(env.path("a.txt"), "a2\n").unwrap();
    git(&env, &["commit", "-q", "-m", "Change a", "--", "a.txt"]);
    let files = |rev: &str| {
        String::from_utf8(git(&env, &["show", "--name-only", "--format=", rev]).stdout).unwrap()
    };
    assert_eq!(files("HEAD"), "a.txt\n");
    assert_eq!(env.ok_json(&["status"])["queue"]["packages"], 2);
    assert_eq!(
        String::from_utf8(git(&env, &["status", "--porcelain"]).stdout).unwrap(),
        ""
    );
    // Nothing staged: git will refuse the commit, so nothing moves.
    let r = env.run_env(&["hook", "flush", "--stage", "--json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let done: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(done["packages"], 0);
    assert!(
        done["deferred"]
            .as_str()
            .unwrap()
            .contains("nothing to commit")
    );
    // An ordinary commit takes the queue in, staged with the user's change.
    std::fs::write(env.path("b.txt"), "b\n").unwrap();
    git(&env, &["add", "b.txt"]);
    git(&env, &["commit", "-q", "-m", "Add b"]);
    let mut took = files("HEAD")
        .lines()
        .map(str::to_string)
        .collect::<Vec<_>>();
    took.sort();
    assert_eq!(took.len(), 2, "{took:?}");
    assert!(
        took[0].starts_with(".relay/projects/demo/packages/"),
        "{took:?}"
    );
    assert_eq!(took[1], "b.txt");
    assert_eq!(
        env.ok_json(&["status"])["queue"]["packages"],
        1,
        "Add b's own"
    );
    // By hand: everything moves, nothing is staged.
    let done = env.ok_json(&["hook", "flush"]);
    assert_eq!(
        (done["packages"].as_u64(), done["staged"].as_bool()),
        (Some(1), Some(false))
    );
    assert_eq!(env.ok_json(&["status"])["queue"]["packages"], 0);
    assert_eq!(autos(&env).len(), 3);
    assert_eq!(env.ok(&["hook", "flush"]), "");
}
