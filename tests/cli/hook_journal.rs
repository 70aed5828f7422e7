//! Nothing the hooks write is lost in any git move (issue 56), with real git and relay's
//! hooks installed by `relay hook install --git`: each move that used to take a hook record
//! out of the store for good (a flattened merge, an abandoned branch, a reset, a revert,
//! `git worktree remove`, `git clean -fdx`) is played, and every record the hooks wrote is
//! then found on main after the next ordinary commit. Also: a flush killed at any moment
//! leaves no torn line, and merged and rebased clones hold the same lines, each once.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::harness::{BIN, Env, Run};

/// A day of git: an origin, and clones of it with a store and relay's hooks.
struct Day {
    env: Env,
    root: PathBuf,
    origin: PathBuf,
}

/// Every hook record a clone wrote: its package id, by the commit it records.
type Ledger = BTreeMap<String, String>;

impl Day {
    fn new() -> Option<Day> {
        Command::new("git").arg("--version").output().ok()?;
        let env = Env::empty();
        let root = env.dir.parent().unwrap().to_path_buf();
        std::fs::write(
            root.join("home/.gitconfig"),
            "[user]\n\tname = Ada\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n\
             [commit]\n\tgpgsign = false\n[advice]\n\tdetachedHead = false\n",
        )
        .unwrap();
        let origin = root.join("origin.git");
        let day = Day { env, root, origin };
        day.git(&day.root, &["init", "-q", "--bare", "origin.git"]);
        let a = day.root.join("a");
        day.git(&day.root, &["init", "-q", "a"]);
        day.relay_ok(&a, &["init", "--project", "demo"]);
        std::fs::write(a.join("README"), "a day\n").unwrap();
        day.git(&a, &["add", "-A"]);
        day.git(&a, &["commit", "-q", "-m", "start"]);
        day.git(
            &a,
            &["remote", "add", "origin", day.origin.to_str().unwrap()],
        );
        day.git(&a, &["push", "-q", "-u", "origin", "main"]);
        day.relay_ok(&a, &["hook", "install", "--git"]);
        Some(day)
    }

    /// Clones origin as `name`, with relay's hooks.
    fn clone(&self, name: &str) -> PathBuf {
        let dir = self.root.join(name);
        self.git(
            &self.root,
            &["clone", "-q", self.origin.to_str().unwrap(), name],
        );
        self.relay_ok(&dir, &["hook", "install", "--git"]);
        dir
    }

    fn command(&self, program: &str, dir: &Path, args: &[&str]) -> Command {
        let mut c = self.env.program(program, args);
        c.current_dir(dir);
        c
    }

    fn try_git(&self, dir: &Path, args: &[&str]) -> Run {
        run(self.command("git", dir, args))
    }

    #[track_caller]
    fn git(&self, dir: &Path, args: &[&str]) -> String {
        let r = self.try_git(dir, args);
        assert_eq!(r.code, 0, "git {args:?} in {}: {}", dir.display(), r.stderr);
        r.stdout
    }

    fn relay(&self, dir: &Path, args: &[&str]) -> Run {
        run(self.command(BIN, dir, args))
    }

    #[track_caller]
    fn relay_ok(&self, dir: &Path, args: &[&str]) -> String {
        let r = self.relay(dir, args);
        assert_eq!(r.code, 0, "relay {args:?}: {}", r.stderr);
        r.stdout
    }

    /// Writes a new file and commits it: the hooks flush the queue into this commit and queue
    /// its record, which goes into the ledger.
    #[track_caller]
    fn commit(&self, dir: &Path, name: &str, ledger: &mut Ledger) -> String {
        std::fs::create_dir_all(dir.join("code")).unwrap();
        std::fs::write(dir.join(format!("code/{name}.txt")), format!("{name}\n")).unwrap();
        self.git(dir, &["add", "-A"]);
        self.git(dir, &["commit", "-q", "-m", name]);
        let sha = self.git(dir, &["rev-parse", "HEAD"]).trim().to_string();
        let id = self
            .record_of(dir, &sha)
            .unwrap_or_else(|| panic!("post-commit queued no record of {name} ({sha})"));
        ledger.insert(name.to_string(), id);
        sha
    }

    /// The hook record of `commit`, as reads see it.
    fn record_of(&self, dir: &Path, commit: &str) -> Option<String> {
        let out = self.relay_ok(
            dir,
            &[
                "pull",
                "--latest",
                "1000",
                "--type",
                "auto_deposit",
                "--json",
            ],
        );
        out.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v["package"]["x-git"]["commit"] == commit)
            .and_then(|v| v["package"]["package_id"].as_str().map(str::to_string))
    }

    /// Every line of the store's logs in the commit `rev`, by file.
    fn store_at(&self, dir: &Path, rev: &str) -> BTreeMap<String, Vec<String>> {
        let files = self.git(dir, &["ls-tree", "-r", "--name-only", rev, "--", ".relay"]);
        files
            .lines()
            .filter(|f| f.ends_with(".ndjson"))
            .map(|f| {
                let text = self.git(dir, &["show", &format!("{rev}:{f}")]);
                (f.to_string(), text.lines().map(str::to_string).collect())
            })
            .collect()
    }

    /// Which of the ledger's records the commit `rev` lacks.
    fn missing_at(&self, dir: &Path, rev: &str, ledger: &Ledger) -> Vec<String> {
        let all: String = self.store_at(dir, rev).into_values().flatten().collect();
        ledger
            .iter()
            .filter(|(_, id)| !all.contains(&format!("\"package_id\":\"{id}\"")))
            .map(|(name, id)| format!("{name} ({id})"))
            .collect()
    }

    /// Ends the day as a person does: back on main, one more ordinary commit, whose
    /// pre-commit flushes what waits. Then every record of the ledger must be on main, each
    /// log line once.
    #[track_caller]
    fn finish(&self, dir: &Path, ledger: &Ledger) {
        self.git(dir, &["checkout", "-q", "main"]);
        self.commit(dir, "the last commit", &mut Ledger::new());
        let missing = self.missing_at(dir, "main", ledger);
        assert!(missing.is_empty(), "lost from main: {missing:?}");
        for (file, lines) in self.store_at(dir, "main") {
            let unique: BTreeSet<&String> = lines.iter().collect();
            assert_eq!(unique.len(), lines.len(), "duplicate lines in {file}");
        }
        let verify = self.relay(dir, &["verify"]);
        assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);
    }
}

fn run(mut c: Command) -> Run {
    let o = c.output().unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

#[test]
fn a_merge_commit_flattened_by_pull_rebase_loses_no_record() {
    let Some(day) = Day::new() else { return };
    let a = day.root.join("a");
    let b = day.clone("b");
    let mut ledger = Ledger::new();
    day.commit(&a, "a1", &mut ledger);
    day.commit(&a, "a2", &mut ledger);
    day.commit(&b, "b1", &mut Ledger::new());
    day.git(&b, &["push", "-q", "origin", "main"]);
    day.git(&a, &["fetch", "-q", "origin"]);
    // `relay merge` commits the merge; its pre-commit flushes a2's record into it.
    day.relay_ok(&a, &["merge", "origin/main"]);
    assert!(
        day.missing_at(&a, "HEAD", &ledger).is_empty(),
        "the merge commit holds a2's record"
    );
    day.commit(&b, "b2", &mut Ledger::new());
    day.git(&b, &["push", "-q", "origin", "main"]);
    day.git(&a, &["pull", "-q", "--rebase", "origin", "main"]);
    assert_eq!(
        day.missing_at(&a, "HEAD", &ledger),
        [format!("a2 ({})", ledger["a2"])],
        "the rebase dropped the merge commit, and a2's record with it"
    );
    day.finish(&a, &ledger);
}

#[test]
fn a_deleted_branch_and_a_hard_reset_lose_no_record() {
    let Some(day) = Day::new() else { return };
    let a = day.root.join("a");
    let mut ledger = Ledger::new();
    day.commit(&a, "m1", &mut ledger);
    // m1's record goes into the throwaway branch's commit, then the branch is deleted.
    day.git(&a, &["checkout", "-q", "-b", "throwaway"]);
    day.commit(&a, "t1", &mut ledger);
    day.git(&a, &["checkout", "-q", "main"]);
    day.git(&a, &["branch", "-q", "-D", "throwaway"]);
    day.commit(&a, "m2", &mut ledger);
    day.commit(&a, "m3", &mut ledger);
    // m2's record is in m3's commit, which a hard reset leaves.
    day.git(&a, &["reset", "-q", "--hard", "HEAD~1"]);
    day.finish(&a, &ledger);
}

#[test]
fn a_revert_of_the_commit_that_carried_a_record_loses_no_record() {
    let Some(day) = Day::new() else { return };
    let a = day.root.join("a");
    let mut ledger = Ledger::new();
    day.commit(&a, "r1", &mut ledger);
    day.commit(&a, "r2", &mut ledger);
    // r2's commit carries r1's record; reverting r2 takes those lines out of the store.
    day.git(&a, &["revert", "--no-edit", "HEAD"]);
    // (r2's own record waits in the queue: no commit holds it yet.)
    assert_eq!(
        day.missing_at(&a, "HEAD", &ledger),
        [
            format!("r1 ({})", ledger["r1"]),
            format!("r2 ({})", ledger["r2"])
        ],
        "the revert took r1's record"
    );
    day.finish(&a, &ledger);
}

#[test]
fn a_removed_worktree_and_git_clean_lose_no_record() {
    let Some(day) = Day::new() else { return };
    let a = day.root.join("a");
    let mut ledger = Ledger::new();
    day.commit(&a, "w0", &mut ledger);
    day.git(&a, &["worktree", "add", "-q", "-b", "side", "../wt"]);
    let wt = day.root.join("wt");
    // The worktree's last commit's record waits in the worktree's own queue.
    day.commit(&wt, "w1", &mut ledger);
    let remove = day.try_git(&a, &["worktree", "remove", "../wt"]);
    if remove.code != 0 {
        day.git(&a, &["worktree", "remove", "--force", "../wt"]);
    }
    assert!(!wt.exists());
    day.commit(&a, "w2", &mut ledger);
    // `git clean -fdx` empties the ignored queue (`.relay/local/`) and the cache.
    day.git(&a, &["clean", "-q", "-fdx"]);
    assert!(!a.join(".relay/local/pending").exists());
    day.finish(&a, &ledger);
}

/// The lines of every log of the store in `dir`'s work tree, as one sorted list.
fn work_tree_lines(dir: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    for entry in walkdir::WalkDir::new(dir.join(".relay")) {
        let entry = entry.unwrap();
        let p = entry.path();
        let derived = p
            .components()
            .any(|c| c.as_os_str() == "local" || c.as_os_str() == "cache");
        if derived || !p.to_string_lossy().ends_with(".ndjson") {
            continue;
        }
        lines.extend(
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .map(str::to_string),
        );
    }
    lines.sort();
    lines
}

#[test]
fn merged_and_rebased_clones_hold_the_same_lines_each_once() {
    let Some(day) = Day::new() else { return };
    let a = day.root.join("a");
    let b = day.clone("b");
    // Both clones appended two lines the other also appended, in the other order (what
    // clones that merged the same branches in different orders hold): git's union driver,
    // whose conflict is the one line that differs around a common one, keeps a line twice.
    let log = ".relay/projects/demo/packages/2026-01.ndjson";
    let line = |tag: &str| format!("{{\"x-line\":\"{tag}\"}}\n");
    let write = |dir: &Path, lines: &[&str]| {
        let path = dir.join(log);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap_or_default();
        for l in lines {
            text.push_str(&line(l));
        }
        std::fs::write(&path, text).unwrap();
    };
    write(&a, &["base"]);
    day.git(&a, &["add", "-A"]);
    day.git(&a, &["commit", "-q", "-m", "base"]);
    day.git(&a, &["push", "-q", "origin", "main"]);
    day.git(&b, &["pull", "-q", "--no-rebase", "origin", "main"]);
    write(&a, &["one", "two", "a"]);
    day.git(&a, &["add", "-A"]);
    day.git(&a, &["commit", "-q", "-m", "a's lines"]);
    day.git(&a, &["push", "-q", "origin", "main"]);
    write(&b, &["two", "one", "b"]);
    day.git(&b, &["add", "-A"]);
    day.git(&b, &["commit", "-q", "-m", "b's lines"]);
    // A copy of b that will rebase where b merges.
    let c = day.root.join("c");
    let copy = Command::new("cp")
        .args(["-a", b.to_str().unwrap(), c.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(copy.success());
    day.git(
        &b,
        &["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"],
    );
    day.git(&c, &["pull", "-q", "--rebase", "origin", "main"]);
    let (merged, rebased) = (work_tree_lines(&b), work_tree_lines(&c));
    assert_eq!(merged, rebased, "the same lines after a merge and a rebase");
    let unique: BTreeSet<&String> = merged.iter().collect();
    assert_eq!(unique.len(), merged.len(), "each line once: {merged:#?}");
    let size = |d: &Path| std::fs::metadata(d.join(log)).unwrap().len();
    assert_eq!(size(&b), size(&c));
    // The queue's own flush never writes a line the log holds (after the merge, the hooks'
    // records are still queued; a flush then a second flush adds nothing twice).
    day.relay_ok(&b, &["hook", "flush"]);
    let once = work_tree_lines(&b);
    let unique: BTreeSet<&String> = once.iter().collect();
    assert_eq!(unique.len(), once.len());
}

#[test]
fn install_points_the_store_logs_at_relays_driver_and_uninstall_takes_it_out() {
    let Some(day) = Day::new() else { return };
    let a = day.root.join("a");
    let attr = |path: &str| day.git(&a, &["check-attr", "merge", "--", path]);
    assert_eq!(
        attr(".relay/projects/demo/packages/2026-01.ndjson"),
        ".relay/projects/demo/packages/2026-01.ndjson: merge: relay\n"
    );
    assert_eq!(
        attr(".relay/projects.ndjson"),
        ".relay/projects.ndjson: merge: relay\n"
    );
    assert_eq!(attr("notes.ndjson"), "notes.ndjson: merge: unspecified\n");
    let driver = day.git(&a, &["config", "merge.relay.driver"]);
    assert!(
        driver.trim().ends_with("hook merge-driver %O %A %B %P"),
        "{driver}"
    );
    let again = day.relay_ok(&a, &["hook", "install", "--git"]);
    assert!(again.contains("merge driver: already installed"), "{again}");
    day.relay_ok(&a, &["hook", "uninstall", "--git"]);
    assert_eq!(
        attr(".relay/projects.ndjson"),
        ".relay/projects.ndjson: merge: union\n",
        "the committed .gitattributes applies again"
    );
    assert_eq!(day.try_git(&a, &["config", "merge.relay.driver"]).code, 1);
}

/// Signals `pid` with `signal` (a name `kill` knows).
fn kill(signal: &str, pid: u32) {
    let _ = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status();
}

/// The next number of a xorshift sequence.
fn next(rng: &mut u64) -> u64 {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    *rng
}

#[test]
fn a_flush_killed_at_any_moment_commits_no_torn_line_and_the_next_commit_finishes_it() {
    let Some(day) = Day::new() else { return };
    let a = day.root.join("a");
    let store = a.join(".relay");
    let trials = 200;
    // Lines of a size that makes the flush's write take a while, one month's log a trial.
    let queued_lines = |trial: usize| -> String {
        (0..256)
            .map(|i| {
                format!(
                    "{{\"x-trial\":{trial},\"i\":{i},\"pad\":\"{}\"}}\n",
                    "p".repeat(1000)
                )
            })
            .collect()
    };
    let month = |trial: usize| {
        format!(
            "projects/demo/packages/{}-{:02}.ndjson",
            1800 + trial / 12,
            trial % 12 + 1
        )
    };
    let queue = |trial: usize| {
        let queued = store
            .join("local/pending/projects/demo.pending/packages")
            .join(Path::new(&month(trial)).file_name().unwrap());
        std::fs::create_dir_all(queued.parent().unwrap()).unwrap();
        std::fs::write(&queued, queued_lines(trial)).unwrap();
    };
    // How long an uninterrupted flush takes here: kills land from its start to past its end.
    let started = std::time::Instant::now();
    queue(trials);
    day.relay_ok(&a, &["hook", "flush", "--quiet"]);
    let span = started.elapsed().as_micros() as u64 * 6 / 5;
    let mut rng = 0x5eed_0056_u64;
    let mut killed = 0;
    for trial in 0..trials {
        queue(trial);
        let mut child = day
            .command(BIN, &a, &["hook", "flush", "--quiet"])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros(next(&mut rng) % span));
        let signal = if trial % 2 == 0 { "KILL" } else { "INT" };
        kill(signal, child.id());
        killed += usize::from(!child.wait().unwrap().success());
        let log = store.join(month(trial));
        if let Ok(text) = std::fs::read_to_string(&log) {
            assert!(
                text.ends_with('\n'),
                "trial {trial} ({signal}): a torn last line"
            );
        }
        if trial % 5 != 4 {
            continue;
        }
        // The person commits their work: pre-commit finishes the flushes and stages them.
        std::fs::write(a.join("work.txt"), format!("{trial}\n")).unwrap();
        day.git(&a, &["add", "-A"]);
        day.git(&a, &["commit", "-q", "-m", &format!("trial {trial}")]);
        for t in trial - 4..=trial {
            let rel = format!(".relay/{}", month(t));
            let committed = day.git(&a, &["show", &format!("HEAD:{rel}")]);
            for (n, line) in committed.lines().enumerate() {
                assert!(
                    serde_json::from_str::<Value>(line).is_ok(),
                    "trial {t}: line {} of the commit is not whole: {line:?}",
                    n + 1
                );
            }
            assert_eq!(committed, queued_lines(t), "trial {t}: each line once");
        }
    }
    eprintln!("flush kill test: {killed} of {trials} flushes killed before they finished");
    assert!(
        killed > trials / 4,
        "too few flushes were killed to prove anything"
    );
}

#[test]
fn relay_merge_writes_each_line_once_even_where_git_knows_only_union() {
    let Some(day) = Day::new() else { return };
    let a = day.root.join("a");
    // A clone without relay's driver: the logs merge with `union` from .gitattributes.
    day.relay_ok(&a, &["hook", "uninstall", "--git"]);
    let log = ".relay/projects/demo/packages/2026-03.ndjson";
    let append = |lines: &[&str]| {
        let path = a.join(log);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap_or_default();
        for l in lines {
            text.push_str(&format!("{{\"x-line\":\"{l}\"}}\n"));
        }
        std::fs::write(&path, text).unwrap();
        day.git(&a, &["add", "-A"]);
        day.git(&a, &["commit", "-q", "-m", &lines.join(" ")]);
    };
    // A file of the user's that git merges with union too: relay's call must not change how.
    std::fs::write(a.join(".gitattributes"), "notes.md merge=union\n").unwrap();
    std::fs::write(a.join("notes.md"), "# Notes\n").unwrap();
    append(&["base"]);
    for (branch, lines) in [("x", ["one", "two"]), ("y", ["two", "one"])] {
        day.git(&a, &["checkout", "-q", "-b", branch, "main"]);
        let notes = format!("# Notes\n\n## Fixed\n\n- {branch}\n");
        std::fs::write(a.join("notes.md"), notes).unwrap();
        append(&lines);
    }
    day.git(&a, &["checkout", "-q", "main"]);
    append(&["main"]);
    day.relay_ok(&a, &["merge", "x", "y"]);
    let text = std::fs::read_to_string(a.join(log)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let unique: BTreeSet<&&str> = lines.iter().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(unique.len(), lines.len(), "{text}");
    // git's own union there (blank lines kept), not relay's line set.
    let notes = std::fs::read_to_string(a.join("notes.md")).unwrap();
    assert_eq!(notes, "# Notes\n\n## Fixed\n\n- x\n- y\n");
}

#[test]
fn a_line_an_interrupted_flush_cut_off_is_never_committed() {
    let Some(day) = Day::new() else { return };
    let a = day.root.join("a");
    let mut ledger = Ledger::new();
    day.commit(&a, "t1", &mut ledger);
    // What an interrupted append left in the tracked log: the start of a record, no newline.
    let pending = a.join(".relay/local/pending/projects/demo.pending/packages");
    let name = std::fs::read_dir(&pending)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let queued = std::fs::read_to_string(pending.join(&name)).unwrap();
    let log = Path::new(".relay/projects/demo/packages").join(&name);
    std::fs::create_dir_all(a.join(&log).parent().unwrap()).unwrap();
    std::fs::write(a.join(&log), &queued[..queued.len() / 2]).unwrap();
    day.commit(&a, "t2", &mut ledger);
    let committed = day.git(&a, &["show", &format!("HEAD:{}", log.display())]);
    for line in committed.lines() {
        assert!(
            serde_json::from_str::<Value>(line).is_ok(),
            "a torn line was committed: {line:?}"
        );
    }
    assert!(committed.contains(&ledger["t1"]));
    let verify = day.relay(&a, &["verify"]);
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);
    day.finish(&a, &ledger);
}
