//! `relay init --local` (a private store git never sees, through `.git/info/exclude`), the Git
//! line of `relay status`, and what relay's git hooks may do to a repository: deposit, never
//! stage, commit, push or move a ref.

use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::git::{in_dir, origin_and_clone, publish_and_clone};
use crate::harness::{Env, read, snapshot};

/// git in `dir` as the user Ada, with the test's scrubbed environment (relay's hooks run in it).
fn git(env: &Env, dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["-c", "user.name=Ada", "-c", "user.email=ada@example.com"];
    all.extend(["-c", "init.defaultBranch=main"]);
    all.extend_from_slice(args);
    let out = env.program("git", &all).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// An empty folder that is a git repository with one commit of the user's; `None` without git.
fn repo() -> Option<Env> {
    Command::new("git").arg("--version").output().ok()?;
    let env = Env::empty();
    git(&env, &env.dir, &["init", "-q"]);
    std::fs::write(env.path("README.md"), "# app\n").unwrap();
    git(&env, &env.dir, &["add", "README.md"]);
    git(&env, &env.dir, &["commit", "-q", "-m", "first"]);
    Some(env)
}

/// Every ref with the commit it points to.
fn refs(env: &Env) -> String {
    git(
        env,
        &env.dir,
        &["for-each-ref", "--format=%(refname) %(objectname)"],
    )
}

const EXCLUDE_LINES: &str =
    "# relay: a local store (relay init --local), never committed\n/.relay/\n";

#[test]
fn init_local_lists_the_store_in_info_exclude_once_and_touches_nothing_tracked() {
    let Some(env) = repo() else { return };
    let exclude = env.path(".git/info/exclude");
    let before = read(&exclude);
    let v = env.ok_json(&["init", "--local", "--project", "demo"]);
    let file = exclude.canonicalize().unwrap().display().to_string();
    assert_eq!(
        (&v["local"], &v["git_ignored"]),
        (&json!(true), &json!(true))
    );
    assert_eq!(
        v["git_exclude"],
        json!({"status": "added", "file": file, "pattern": "/.relay/"})
    );
    assert_eq!(read(&exclude), format!("{before}{EXCLUDE_LINES}"));
    assert_eq!(
        git(&env, &env.dir, &["status", "--porcelain", "--ignored=no"]),
        ""
    );
    assert!(!env.store().join(".gitignore").exists());
    assert!(!env.store().join(".gitattributes").exists());
    assert!(read(&env.store().join("config.toml")).contains("\nlocal = true\n"));

    let again = env.ok(&["init", "--local", "--project", "demo"]);
    assert_eq!(
        again,
        "Store .relay and project `demo` already exist; nothing changed.\n\
         Local: git never sees it (/.relay/ is listed in .git/info/exclude); git does not back \
         it up: relay export does.\n"
    );
    assert_eq!(read(&exclude), format!("{before}{EXCLUDE_LINES}"), "once");

    env.deposit("private note", &[]);
    assert_eq!(git(&env, &env.dir, &["status", "--porcelain"]), "");
    let status = env.ok_json(&["status"]);
    assert_eq!(
        (&status["local"], &status["git"]),
        (&json!(true), &json!(null))
    );
    let text = env.ok(&["status"]);
    assert_eq!(
        text.lines().nth(1),
        Some("Git Local store: git never sees it; back it up with relay export.")
    );
}

#[test]
fn a_shared_store_that_git_ignores_is_reported() {
    let Some(env) = repo() else { return };
    // A local store was here once: its exclude line stays when the folder is deleted.
    env.ok(&["init", "--local", "--project", "demo"]);
    std::fs::remove_dir_all(env.store()).unwrap();
    let r = env.run(&["init", "--project", "demo"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "git ignores .relay, so its records will not be committed: `git check-ignore -v .relay` \
         names the line that ignores it; remove that line to share the store\n"
    );
    let exclude = env.path(".git/info/exclude");
    std::fs::write(&exclude, read(&exclude).replace(EXCLUDE_LINES, "")).unwrap();
    let v = env.ok_json(&["init", "--project", "demo"]);
    assert_eq!(
        (&v["local"], &v["git_ignored"]),
        (&json!(false), &json!(false))
    );
    assert_eq!(env.run(&["init", "--project", "demo"]).stderr, "");
}

#[test]
fn init_local_outside_git_says_there_is_nothing_to_exclude() {
    let env = Env::empty();
    let out = env.ok(&["init", "--local", "--project", "demo"]);
    assert_eq!(
        out,
        "Initialized local relay store in .relay with project `demo`.\n\
         Local: not inside a git work tree, so there is nothing to exclude; git does not back \
         it up: relay export does.\n\
         Next: relay deposit --title \"…\"   then   relay pull --latest\n"
    );
    let v = env.ok_json(&["init", "--local"]);
    assert_eq!(v["git_exclude"], json!({"status": "not_in_git"}));
    assert_eq!(v["git_ignored"], false);
    assert_eq!(env.ok_json(&["status"])["local"], true);
    assert_eq!(
        env.ok(&["status"]).lines().nth(1),
        Some("Git Local store: git never sees it; back it up with relay export.")
    );
    // A plain store outside git: not local, and no git state.
    let plain = Env::new();
    let status = plain.ok_json(&["status"]);
    assert_eq!(
        (&status["local"], &status["git"]),
        (&json!(false), &json!(null))
    );
    assert_eq!(
        plain.ok(&["status"]).lines().nth(1),
        Some("Git Not in a git work tree.")
    );
}

#[test]
fn init_local_refuses_an_existing_shared_store_and_writes_nothing() {
    let Some(env) = repo() else { return };
    env.ok(&["init", "--project", "demo"]);
    let exclude = read(&env.path(".git/info/exclude"));
    let config = read(&env.store().join("config.toml"));
    let r = env.run(&["init", "--local", "--project", "other", "--json"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert_eq!(r.stdout, "");
    let e = r.error();
    assert_eq!(e["error"], "invalid_input");
    // "is already a shared store", and what `local = true` would mean.
    snapshot!("local_over_shared", r.transcript());
    assert_eq!(read(&env.path(".git/info/exclude")), exclude);
    assert_eq!(read(&env.store().join("config.toml")), config);
    assert!(!env.store().join("projects/other").exists());
}

#[test]
fn init_local_in_a_linked_worktree_uses_the_repositorys_exclude_file() {
    let Some(env) = repo() else { return };
    git(&env, &env.dir, &["worktree", "add", "-q", "../linked"]);
    let linked = env.dir.parent().unwrap().join("linked");
    let v: serde_json::Value =
        serde_json::from_str(in_dir(&env, &linked, &["init", "--local", "--json"]).trim()).unwrap();
    let common = env.path(".git/info/exclude").canonicalize().unwrap();
    assert_eq!(v["git_exclude"]["file"], common.display().to_string());
    assert!(read(&common).ends_with(EXCLUDE_LINES));
    assert_eq!(git(&env, &linked, &["status", "--porcelain"]), "");
}

/// Installs relay's git hooks, then makes two commits of code as the user; returns the refs
/// before. Checks that the hooks deposited each commit.
fn commit_with_hooks(env: &Env) -> String {
    env.ok(&["hook", "install", "--git"]);
    let refs_before = refs(env);
    for (file, message) in [("a.rs", "add a"), ("b.rs", "add b")] {
        std::fs::write(env.path(file), "fn main() {}\n").unwrap();
        git(env, &env.dir, &["add", file]);
        git(env, &env.dir, &["commit", "-q", "-m", message]);
    }
    let autos = env
        .run(&["pull", "--latest", "10", "--type", "auto_deposit", "--json"])
        .packages();
    let mut titles: Vec<&str> = autos.iter().map(|p| p["title"].as_str().unwrap()).collect();
    titles.sort();
    assert_eq!(
        titles,
        ["add a", "add b"],
        "the post-commit hook deposited both"
    );
    refs_before
}

/// The user's commits, newest first, and nothing else; only `refs/heads/main` moved.
fn assert_history_is_the_users(env: &Env, refs_before: &str, first_commits: &[&str]) {
    let log = git(env, &env.dir, &["log", "--format=%s %an"]);
    let mut expected = vec!["add b Ada", "add a Ada"];
    expected.extend_from_slice(first_commits);
    assert_eq!(log.lines().collect::<Vec<_>>(), expected);
    let after = refs(env);
    let changed: Vec<&str> = after
        .lines()
        .filter(|l| !refs_before.lines().any(|b| b == *l))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        changed,
        ["refs/heads/main"],
        "before:\n{refs_before}\nafter:\n{after}"
    );
    assert_eq!(
        after.lines().count(),
        refs_before.lines().count(),
        "no new ref"
    );
    assert_eq!(git(env, &env.dir, &["stash", "list"]), "");
    assert_eq!(
        git(env, &env.dir, &["diff", "--cached", "--name-only"]),
        "",
        "nothing staged"
    );
}

#[test]
fn hooks_in_a_local_store_deposit_but_git_sees_nothing() {
    let Some(env) = repo() else { return };
    env.ok(&["init", "--local", "--project", "demo"]);
    let refs_before = commit_with_hooks(&env);
    assert_eq!(
        git(
            &env,
            &env.dir,
            &["status", "--porcelain", "--untracked-files=all"]
        ),
        ""
    );
    assert_history_is_the_users(&env, &refs_before, &["first Ada"]);
    let tracked = git(&env, &env.dir, &["ls-files"]);
    assert_eq!(
        tracked.lines().collect::<Vec<_>>(),
        ["README.md", "a.rs", "b.rs"]
    );
}

#[test]
fn hooks_in_a_tracked_store_queue_deposits_for_the_users_next_commit_and_never_commit() {
    let Some(env) = repo() else { return };
    env.ok(&["init", "--project", "demo"]);
    git(&env, &env.dir, &["add", ".relay"]);
    git(&env, &env.dir, &["commit", "-q", "-m", "relay store"]);
    let refs_before = commit_with_hooks(&env);
    // The deposits wait in the clone's queue, which git never sees: the work tree is clean.
    // The first commit's entered the store with the second commit (the pre-commit hook
    // staged it into the user's own commit); the second's waits for the next one.
    let status = git(
        &env,
        &env.dir,
        &["status", "--porcelain", "--untracked-files=all"],
    );
    assert_eq!(status, "");
    let second = git(
        &env,
        &env.dir,
        &["show", "--name-only", "--format=", "HEAD"],
    );
    let mut files: Vec<&str> = second.lines().collect();
    files.sort();
    assert_eq!(files.len(), 2, "{second}");
    assert_eq!(files[1], "b.rs");
    assert!(
        files[0].starts_with(".relay/projects/demo/packages/"),
        "{second}"
    );
    let queued = env.ok_json(&["status"]);
    assert_eq!(queued["queue"], json!({"packages": 1, "next_commit": true}));
    assert_history_is_the_users(&env, &refs_before, &["relay store Ada", "first Ada"]);
}

#[test]
fn status_says_what_is_not_committed_and_how_far_behind_the_upstream_is() {
    let env = Env::empty();
    let Some((origin, a)) = origin_and_clone(&env) else {
        return;
    };
    in_dir(&env, &a, &["init", "--project", "demo"]);
    let b = env.path("b");
    publish_and_clone(&a, &origin, &b, "relay store");
    let git_of = |dir: &Path| -> serde_json::Value {
        let v: serde_json::Value =
            serde_json::from_str(in_dir(&env, dir, &["status", "--json"]).trim()).unwrap();
        v["git"].clone()
    };
    let line_of = |dir: &Path| {
        in_dir(&env, dir, &["status"])
            .lines()
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert_eq!(
        git_of(&b),
        json!({"store": ".relay", "branch": "main", "uncommitted": 0,
               "upstream": "origin/main", "behind": 0, "ahead": 0, "unmerged": 0})
    );
    assert_eq!(
        line_of(&b),
        "Git Store committed. In step with origin/main as of the last fetch."
    );

    // a deposits: not committed yet.
    in_dir(&env, &a, &["deposit", "--title", "From A"]);
    assert_eq!(git_of(&a)["uncommitted"], 1, "the new package log");
    assert_eq!(
        line_of(&a),
        "Git Not committed yet: 1 file of .relay/ (git add .relay && git commit). In step \
         with origin/main as of the last fetch."
    );
    crate::git::git(&a, &["add", ".relay"]);
    crate::git::git(&a, &["commit", "-q", "-m", "deposit"]);
    assert_eq!(
        line_of(&a),
        "Git Store committed. 1 commit not pushed to origin/main yet."
    );
    crate::git::git(&a, &["push", "-q", "origin", "HEAD:main"]);

    // b learns of it only from a fetch; relay itself never fetches.
    assert_eq!(git_of(&b)["behind"], 0);
    crate::git::git(&b, &["fetch", "-q"]);
    assert_eq!(
        git_of(&b),
        json!({"store": ".relay", "branch": "main", "uncommitted": 0,
               "upstream": "origin/main", "behind": 1, "ahead": 0, "unmerged": 0})
    );
    assert_eq!(
        line_of(&b),
        "Git Store committed. Branch main is 1 commit behind origin/main (as of the last \
         fetch): git pull to see their records."
    );
}
