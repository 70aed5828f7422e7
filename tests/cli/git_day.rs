//! relay through a team's ordinary git day (issue 35), with real git and every hook relay
//! installs: hooks never stop git (story 2), an octopus merge is finished with one command
//! (story 3), and a merged and a rebased clone answer byte for byte alike (story 4).

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use crate::harness::{Env, Run};

/// A bare origin in a test folder and the clones of a team, every command with the harness's
/// scrubbed environment.
struct Day {
    env: Env,
    origin: PathBuf,
}

impl Day {
    /// `None` (the test skipped) where git is not installed.
    fn new() -> Option<Day> {
        if std::process::Command::new("git")
            .arg("--version")
            .output()
            .is_err()
        {
            eprintln!("skipped: git is not installed");
            return None;
        }
        let env = Env::empty();
        let origin = env.dir.join("origin.git");
        let day = Day { env, origin };
        let o = day.origin.to_str().unwrap().to_string();
        day.git(&day.env.dir, &["init", "-q", "--bare", &o]);
        Some(day)
    }

    fn git_output(&self, dir: &Path, args: &[&str]) -> Output {
        let mut all = vec![
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ];
        all.extend_from_slice(args);
        self.env
            .program("git", &all)
            .current_dir(dir)
            .output()
            .unwrap()
    }

    /// Runs git, which must succeed with no word from relay's hooks (they report a problem
    /// as `relay: …` on stderr); its stdout.
    #[track_caller]
    fn git(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.git_output(dir, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !stderr.contains("relay"),
            "git {args:?} in {} failed or relay spoke:\n{}{stderr}",
            dir.display(),
            String::from_utf8_lossy(&out.stdout),
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A clone of the origin's main (or of nothing yet), as `email`.
    fn clone_as(&self, name: &str, email: &str) -> PathBuf {
        let dir = self.env.dir.join(name);
        let (o, d) = (self.origin.to_str().unwrap(), dir.to_str().unwrap());
        self.git(&self.env.dir, &["clone", "-q", o, d]);
        self.git(&dir, &["config", "user.email", email]);
        self.git(&dir, &["config", "user.name", name]);
        dir
    }

    fn run(&self, dir: &Path, args: &[&str]) -> Run {
        let out = self.env.command(args).current_dir(dir).output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Runs relay, which must succeed; its stdout.
    #[track_caller]
    fn relay(&self, dir: &Path, args: &[&str]) -> String {
        let r = self.run(dir, args);
        assert_eq!(r.code, 0, "relay {args:?}: {}{}", r.stdout, r.stderr);
        r.stdout
    }

    /// An agent's hook event, as Claude Code sends it.
    fn agent(&self, dir: &Path, event: &str, session: &str) {
        let input = json!({"session_id": session, "cwd": dir, "hook_event_name": event});
        let mut command = self
            .env
            .command(&["hook", "run", event, "--agent", "claude"]);
        command.current_dir(dir);
        let r = Env::piped(command, input.to_string().as_bytes());
        assert_eq!((r.code, r.stderr.as_str()), (0, ""), "hook run {event}");
    }

    /// Writes `file` and commits it with `message` (the hooks run).
    fn code_commit(&self, dir: &Path, file: &str, text: &str, message: &str) {
        std::fs::write(dir.join(file), text).unwrap();
        self.git(dir, &["add", file]);
        self.git(dir, &["commit", "-q", "-m", message]);
    }

    /// Commits what relay wrote by hand (a deposit, a fact) and pushes.
    fn commit_store_and_push(&self, dir: &Path, message: &str) {
        self.git(dir, &["add", ".relay"]);
        self.git(dir, &["commit", "-q", "-m", message]);
        self.git(dir, &["push", "-q", "origin", "HEAD:main"]);
    }

    /// git sees no change in the work tree.
    #[track_caller]
    fn clean(&self, dir: &Path, after: &str) {
        let status = self.git(dir, &["status", "--porcelain", "--untracked-files=all"]);
        assert_eq!(status, "", "relay left the work tree changed after {after}");
    }

    /// The auto deposits a clone reads, by title.
    fn autos(&self, dir: &Path) -> Vec<String> {
        let out = self.relay(
            dir,
            &[
                "pull",
                "--latest",
                "100",
                "--type",
                "auto_deposit",
                "--json",
            ],
        );
        let mut titles: Vec<String> = out
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|v| v["package"]["title"].as_str().unwrap().to_string())
            .collect();
        titles.sort();
        titles
    }
}

/// Story 2: with every hook relay installs, a code commit then `git pull` (another clone
/// pushed to the same logs) succeeds, and so does the second pull after the post-merge hook;
/// `git pull --rebase` with local commits completes with one auto deposit per change; and
/// checkout, cherry-pick, stash pop, rebase and merge never refuse because of relay.
#[test]
fn hooks_never_stop_git_through_a_working_day() {
    let Some(day) = Day::new() else { return };
    let a = day.clone_as("a", "ana@example.com");
    day.relay(&a, &["init", "--project", "demo"]);
    day.relay(&a, &["facts", "assert", "svc", "owner", "ana"]);
    day.relay(&a, &["hook", "install", "--git", "--claude", "--codex"]);
    day.git(&a, &["add", "-A"]);
    day.git(&a, &["commit", "-q", "-m", "relay store and agent hooks"]);
    day.git(&a, &["push", "-q", "origin", "HEAD:main"]);
    let b = day.clone_as("b", "bo@example.com");
    day.relay(&b, &["hook", "install", "--git", "--claude", "--codex"]);
    day.clean(&b, "installing the hooks in a clone");
    for dir in [&a, &b] {
        let hooks = day.git(dir, &["rev-parse", "--git-path", "hooks"]);
        let merge = std::fs::read_to_string(dir.join(hooks.trim()).join("post-merge")).unwrap();
        assert!(merge.contains(" verify --quiet") && !merge.contains("--fix"));
    }

    // b records things in the logs a writes to, and pushes: a deposit and a fact on the key
    // a asserts too (a fork that a merge makes, which the old post-merge `verify --fix`
    // repaired by rewriting facts.ndjson).
    day.relay(&b, &["deposit", "--title", "From B"]);
    day.relay(&b, &["facts", "assert", "svc", "owner", "bo"]);
    day.commit_store_and_push(&b, "b records");

    // a: a code commit (post-commit queues its package), an agent's checkpoint (queued too),
    // a fact of its own, committed.
    day.code_commit(&a, "login.rs", "fn login() {}\n", "Add login");
    day.clean(&a, "the post-commit hook");
    day.agent(&a, "SessionStart", "s1");
    day.agent(&a, "PreCompact", "s1");
    day.clean(&a, "the agent's hooks");
    assert_eq!(
        day.autos(&a),
        ["Add login", "relay store and agent hooks"],
        "reads see the queue"
    );
    day.relay(&a, &["facts", "assert", "svc", "owner", "al"]);
    day.git(&a, &["commit", "-q", "-am", "a's fact"]);
    day.clean(&a, "a commit that took the queue in");

    // The first pull of the day: a merge.
    day.git(
        &a,
        &["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"],
    );
    day.clean(&a, "the post-merge hook");
    day.git(&a, &["push", "-q", "origin", "HEAD:main"]);
    // b writes to the same logs again; a's second pull.
    day.git(
        &b,
        &["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"],
    );
    day.clean(&b, "b's post-merge hook");
    day.relay(&b, &["deposit", "--title", "From B again"]);
    day.relay(&b, &["facts", "assert", "svc", "owner", "bea"]);
    day.commit_store_and_push(&b, "b records again");
    day.code_commit(&a, "api.rs", "fn api() {}\n", "Add the API");
    day.git(
        &a,
        &["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"],
    );
    day.clean(&a, "the second pull");
    day.git(&a, &["push", "-q", "origin", "HEAD:main"]);

    // `git pull --rebase` with local commits, b having pushed to the logs meanwhile.
    day.git(
        &b,
        &["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"],
    );
    day.code_commit(&b, "b.rs", "fn b() {}\n", "B's change");
    day.relay(&b, &["deposit", "--title", "From B, third"]);
    day.commit_store_and_push(&b, "b records a third time");
    day.code_commit(&a, "one.rs", "fn one() {}\n", "Local one");
    day.agent(&a, "PreCompact", "s1");
    day.code_commit(&a, "two.rs", "fn two() {}\n", "Local two");
    day.git(&a, &["pull", "-q", "--rebase", "origin", "main"]);
    day.clean(&a, "pull --rebase");
    assert_eq!(
        day.autos(&a),
        [
            "Add login",
            "Add the API",
            "B's change",
            "Local one",
            "Local two",
            "relay store and agent hooks"
        ],
        "one auto deposit per change, none for the replays"
    );

    // checkout, cherry-pick, stash pop, rebase, merge.
    day.git(&a, &["checkout", "-q", "-b", "side"]);
    day.code_commit(&a, "side.rs", "fn side() {}\n", "Side work");
    day.code_commit(&a, "side2.rs", "fn side2() {}\n", "More side work");
    day.git(&a, &["checkout", "-q", "main"]);
    day.clean(&a, "a checkout");
    day.git(&a, &["cherry-pick", "side~1"]);
    day.clean(&a, "a cherry-pick");
    // Uncommitted work, the store's included, stashed while hooks write; popped back.
    std::fs::write(a.join("wip.rs"), "fn wip() {}\n").unwrap();
    day.git(&a, &["add", "wip.rs"]);
    day.relay(&a, &["deposit", "--title", "Not committed yet"]);
    day.git(&a, &["stash", "-q"]);
    day.agent(&a, "PreCompact", "s1");
    day.code_commit(&a, "three.rs", "fn three() {}\n", "Local three");
    day.git(&a, &["stash", "pop", "-q"]);
    day.git(&a, &["commit", "-q", "-am", "wip and its record"]);
    day.git(&a, &["checkout", "-q", "side"]);
    day.git(&a, &["rebase", "-q", "main"]);
    day.clean(&a, "a rebase");
    day.git(&a, &["checkout", "-q", "main"]);
    day.git(&a, &["merge", "-q", "--no-edit", "side"]);
    day.clean(&a, "a merge");
    assert_eq!(
        day.autos(&a),
        [
            "Add login",
            "Add the API",
            "B's change",
            "Local one",
            "Local three",
            "Local two",
            "More side work",
            "Side work",
            "relay store and agent hooks",
            "wip and its record"
        ],
        "the cherry-pick and the rebased replays added none"
    );
    // Everything hooks wrote is readable and the store is sound; nothing relay installed
    // committed: every commit is one the test made.
    let r = day.run(&a, &["verify"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let checkpoints = day.relay(
        &a,
        &[
            "pull",
            "--latest",
            "100",
            "--type",
            "x-checkpoint",
            "--json",
        ],
    );
    assert_eq!(checkpoints.lines().count(), 3);
}

/// Story 3: `git merge b c` (octopus) where b and c both appended to one log and both created
/// the same new month's log: git leaves them unmerged, reads warn naming `relay resolve`, and
/// `relay resolve` then `git commit --no-edit` gives a 3-parent commit with every record of
/// both branches readable.
#[test]
fn an_octopus_merge_is_finished_by_relay_resolve() {
    let Some(day) = Day::new() else { return };
    let a = day.clone_as("a", "ana@example.com");
    day.relay(&a, &["init", "--project", "demo"]);
    day.relay(&a, &["hook", "install", "--git"]);
    let deposit = |title: &str, at: &str| {
        let package = json!({"title": title, "created_at": at}).to_string();
        let mut command = day.env.command(&["deposit", "--from", "-", "--json"]);
        command.current_dir(&a);
        let r = Env::piped(command, package.as_bytes());
        assert_eq!(r.code, 0, "{}", r.stderr);
    };
    deposit("Base", "2020-03-01T00:00:00Z");
    day.git(&a, &["add", "-A"]);
    day.git(&a, &["commit", "-q", "-m", "base"]);
    for branch in ["b", "c"] {
        day.git(&a, &["checkout", "-q", "-b", branch, "main"]);
        deposit(&format!("{branch} in March"), "2020-03-02T00:00:00Z");
        deposit(&format!("{branch} in April"), "2020-04-02T00:00:00Z");
        day.git(&a, &["add", "-A"]);
        day.git(&a, &["commit", "-q", "-m", branch]);
    }
    // main moves on too (code only: git's octopus gives up at once when the current branch
    // changed a log as well), so the merge has three parents.
    day.git(&a, &["checkout", "-q", "main"]);
    day.code_commit(&a, "main.rs", "fn main() {}\n", "Main's own work");
    let merge = day.git_output(&a, &["merge", "b", "c"]);
    assert!(
        !merge.status.success(),
        "git's octopus leaves the logs unmerged"
    );
    let status = day.git(&a, &["status", "--porcelain"]);
    let mut lines: Vec<&str> = status.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "AA .relay/projects/demo/packages/2020-04.ndjson",
            "UU .relay/projects/demo/packages/2020-03.ndjson"
        ]
    );

    // Before: reads warn, naming the command; status and verify say it too.
    let before = day.run(&a, &["pull", "--latest", "100"]);
    assert_eq!(before.code, 0, "{}", before.stderr);
    assert!(
        before.stderr.contains("unresolved git merge") && before.stderr.contains("relay resolve"),
        "{}",
        before.stderr
    );
    let status = day.relay(&a, &["status"]);
    let git_line = status.lines().nth(1).unwrap();
    assert!(
        git_line.contains("2 files of .relay/ in conflict")
            && git_line.contains("run relay resolve, then git commit"),
        "{status}"
    );
    let status: Value = serde_json::from_str(&day.relay(&a, &["status", "--json"])).unwrap();
    assert_eq!(status["git"]["unmerged"], 2);
    let verify = day.run(&a, &["verify", "--json"]);
    assert_eq!(verify.code, 5);
    let kinds: Vec<String> = (verify.stdout.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|p| {
            format!(
                "{} {}",
                p["kind"].as_str().unwrap(),
                p["file"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "conflict_marker projects/demo/packages/2020-03.ndjson",
            "conflict_marker projects/demo/packages/2020-03.ndjson",
            "conflict_marker projects/demo/packages/2020-03.ndjson",
            "unmerged projects/demo/packages/2020-03.ndjson",
            "unmerged projects/demo/packages/2020-04.ndjson"
        ]
    );
    assert!(verify.stdout.contains("relay resolve"));

    let out = day.relay(&a, &["resolve"]);
    assert_eq!(
        out,
        "resolved .relay/projects/demo/packages/2020-03.ndjson (3 lines, the union of the sides), staged\n\
         resolved .relay/projects/demo/packages/2020-04.ndjson (2 lines, the union of the sides), staged\n\
         Now `git commit --no-edit` concludes the merge.\n"
    );
    day.git(&a, &["commit", "-q", "--no-edit"]);
    let parents = day.git(&a, &["rev-list", "--parents", "-n", "1", "HEAD"]);
    assert_eq!(
        parents.split_whitespace().count(),
        4,
        "a commit and its 3 parents"
    );
    day.clean(&a, "the octopus merge");
    let after = day.run(&a, &["pull", "--latest", "100", "--json"]);
    assert_eq!((after.code, after.stderr.as_str()), (0, ""));
    let mut titles: Vec<String> = (after.packages().iter())
        .map(|p| p["title"].as_str().unwrap().to_string())
        .collect();
    titles.sort();
    assert_eq!(
        titles,
        [
            "Base",
            "Main's own work",
            "b in April",
            "b in March",
            "c in April",
            "c in March"
        ]
    );
    let verify = day.run(&a, &["verify"]);
    assert_eq!(verify.code, 0, "{}", verify.stdout);
    assert_eq!(
        day.relay(&a, &["resolve"]),
        "No store file is unmerged: nothing to resolve. (If git refused an octopus merge \
         outright, `relay merge BRANCH…` makes it.)\n"
    );
}

/// Story 4: two lines of work assert the same fact key; clone A merges them, clone B rebases
/// the same histories (every hook installed in both). No hook rewrites anything tracked, so
/// both hold the same lines, and `facts history`, `facts list` and `pull --latest` answer
/// byte for byte alike.
#[test]
fn a_merged_and_a_rebased_clone_answer_byte_for_byte_alike() {
    let Some(day) = Day::new() else { return };
    let x = day.clone_as("x", "xan@example.com");
    day.relay(&x, &["init", "--project", "demo"]);
    day.relay(&x, &["hook", "install", "--git"]);
    day.relay(
        &x,
        &[
            "facts",
            "assert",
            "svc",
            "version",
            "v0",
            "--valid-from",
            "2026-01-01T00:00:00Z",
        ],
    );
    day.git(&x, &["add", "-A"]);
    day.git(&x, &["commit", "-q", "-m", "base"]);
    day.git(&x, &["push", "-q", "origin", "HEAD:main"]);
    let y = day.clone_as("y", "yu@example.com");
    day.relay(&y, &["hook", "install", "--git"]);
    // Two lines of work on one key: x on branch `work`, y on main.
    day.git(&x, &["checkout", "-q", "-b", "work"]);
    for (dir, who, at) in [
        (&x, "x", "2026-02-01T00:00:00Z"),
        (&y, "y", "2026-02-02T00:00:00Z"),
    ] {
        day.relay(
            dir,
            &[
                "facts",
                "assert",
                "svc",
                "version",
                &format!("v1-{who}"),
                "--valid-from",
                at,
            ],
        );
        day.relay(dir, &["deposit", "--title", &format!("{who} decided")]);
        day.git(dir, &["add", ".relay"]);
        day.git(dir, &["commit", "-q", "-m", &format!("{who} records")]);
        day.code_commit(
            dir,
            &format!("{who}.rs"),
            "fn f() {}\n",
            &format!("{who} codes"),
        );
        day.relay(dir, &["facts", "assert", "svc", "owner", who]);
        day.git(dir, &["commit", "-q", "-am", &format!("{who} owns")]);
    }
    day.git(&x, &["push", "-q", "origin", "work"]);
    day.git(&y, &["push", "-q", "origin", "HEAD:main"]);

    let clones: Vec<PathBuf> = ["merged", "rebased"]
        .iter()
        .map(|name| {
            let dir = day.clone_as(name, &format!("{name}@example.com"));
            day.relay(&dir, &["hook", "install", "--git"]);
            day.git(&dir, &["checkout", "-q", "work"]);
            dir
        })
        .collect();
    day.git(
        &clones[0],
        &["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"],
    );
    day.git(&clones[1], &["pull", "-q", "--rebase", "origin", "main"]);
    let answers: Vec<Vec<String>> = clones
        .iter()
        .map(|dir| {
            day.clean(dir, "the pull");
            let r = day.run(dir, &["verify"]);
            assert_eq!(r.code, 0, "{}", r.stdout);
            [
                &["facts", "history", "svc", "version", "--json"][..],
                &["facts", "history", "svc", "owner", "--json"],
                &["facts", "list", "--json"],
                &["facts", "list", "--include-ended", "--json"],
                &["pull", "--latest", "100", "--json"],
            ]
            .iter()
            .map(|args| day.relay(dir, args))
            .collect()
        })
        .collect();
    assert_eq!(answers[0], answers[1]);
    let history: Vec<Value> = (answers[0][0].lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let values: Vec<&str> = history
        .iter()
        .map(|f| f["value"].as_str().unwrap())
        .collect();
    assert_eq!(
        values,
        ["v0", "v1-x", "v1-y"],
        "both lines of work are there"
    );
    // The logs hold the same lines, in another order.
    let lines = |dir: &Path| {
        let mut all: Vec<String> =
            std::fs::read_to_string(dir.join(".relay/projects/demo/facts.ndjson"))
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect();
        all.sort();
        all
    };
    assert_eq!(lines(&clones[0]), lines(&clones[1]));
}

#[test]
fn an_octopus_git_refuses_outright_is_made_by_relay_merge() {
    let Some(day) = Day::new() else { return };
    let a = day.clone_as("a", "ana@example.com");
    day.relay(&a, &["init", "--project", "demo"]);
    day.relay(&a, &["hook", "install", "--git"]);
    let deposit = |title: &str| {
        let package = json!({"title": title, "created_at": "2020-03-02T00:00:00Z"}).to_string();
        let mut command = day.env.command(&["deposit", "--from", "-", "--json"]);
        command.current_dir(&a);
        let r = Env::piped(command, package.as_bytes());
        assert_eq!(r.code, 0, "{}", r.stderr);
    };
    deposit("Base");
    day.git(&a, &["add", "-A"]);
    day.git(&a, &["commit", "-q", "-m", "base"]);
    for branch in ["b", "c", "main"] {
        if branch != "main" {
            day.git(&a, &["checkout", "-q", "-b", branch, "main"]);
        } else {
            day.git(&a, &["checkout", "-q", "main"]);
        }
        deposit(&format!("work on {branch}"));
        day.git(&a, &["add", "-A"]);
        day.code_commit(
            &a,
            &format!("{branch}.rs"),
            "fn f() {}\n",
            &format!("{branch} work"),
        );
    }
    let head = day.git(&a, &["rev-parse", "HEAD"]).trim().to_string();
    // Every side appended to the same log: git's octopus gives up before it starts.
    let merge = day.git_output(&a, &["merge", "b", "c"]);
    assert!(!merge.status.success());
    assert!(
        String::from_utf8_lossy(&merge.stderr).contains("Should not be doing an octopus")
            || String::from_utf8_lossy(&merge.stdout).contains("Should not be doing an octopus")
    );
    assert_eq!(day.git(&a, &["status", "--porcelain"]), "");
    assert_eq!(day.git(&a, &["rev-parse", "HEAD"]).trim(), head);

    let out = day.relay(&a, &["merge", "b", "c"]);
    assert!(out.starts_with("Merged b, c in "), "{out}");
    let parents = day.git(&a, &["rev-list", "--parents", "-n", "1", "HEAD"]);
    assert_eq!(parents.split_whitespace().count(), 4, "{parents}");
    assert_eq!(
        day.git(&a, &["log", "-1", "--format=%s"]).trim(),
        "Merge branches 'b' and 'c'"
    );
    assert_eq!(day.git(&a, &["status", "--porcelain"]), "");
    let titles: Vec<String> = day
        .run(&a, &["pull", "--latest", "100", "--json"])
        .packages()
        .iter()
        .filter(|p| p["package_type"] != "auto_deposit")
        .map(|p| p["title"].as_str().unwrap().to_string())
        .collect();
    let mut titles = titles;
    titles.sort();
    assert_eq!(titles, ["Base", "work on b", "work on c", "work on main"]);
    assert_eq!(day.run(&a, &["verify"]).code, 0);
    // A dirty work tree is refused, as git merge refuses it, and nothing changes.
    std::fs::write(a.join("main.rs"), "changed\n").unwrap();
    let r = day.run(&a, &["merge", "b"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("commit or stash"), "{}", r.stderr);
}
