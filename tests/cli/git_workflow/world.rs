//! The world the randomized git-workflow test acts on: a bare origin and three clones with
//! every relay hook installed, the runners for git and relay in a clone (a failed command is
//! recorded as a violation, not a panic, so one run reports every broken invariant), the
//! recovery that lets a program go on after git stopped, and the record of what was run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness::Env;

use super::rng::Rng;

/// The local branches a clone works on.
pub const BRANCHES: [&str; 5] = ["main", "f1", "f2", "f3", "f4"];

/// What a command did.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    pub fn ok(&self) -> bool {
        self.code == 0
    }

    /// stdout and stderr, cut to a few lines for a report.
    pub fn text(&self) -> String {
        let all = format!("{}{}", self.stdout, self.stderr);
        let lines: Vec<&str> = all.lines().take(24).collect();
        lines.join("\n")
    }
}

pub struct Clone {
    pub name: char,
    pub actor: &'static str,
    pub dir: PathBuf,
    /// The person made changes (relay writes, files) not committed yet: the next git step that
    /// needs a clean tree commits them first, as a person would. Changes relay's hooks made
    /// are not the person's and are left where they are.
    pub user_dirty: bool,
}

/// A broken invariant: at which step, in which clone, which kind, and what was seen.
pub struct Violation {
    pub step: usize,
    pub clone: char,
    pub kind: &'static str,
    pub detail: String,
}

pub struct World {
    pub env: Env,
    pub origin: PathBuf,
    pub clones: Vec<Clone>,
    pub rng: Rng,
    /// One line per step as it was run, with what it chose.
    pub program: Vec<String>,
    pub violations: Vec<Violation>,
    /// Sessions started, by id: the label of the step that started them (ids are random, so
    /// choices go by label to keep a seed's program the same).
    pub sessions: BTreeMap<String, String>,
    /// The reads (clone, command) whose answer differs from a read without `cache/`, as of
    /// their last check.
    pub diverging: BTreeSet<(usize, String)>,
    /// The step running (1-based; 0 is the setup, the last + 1 the final sync).
    pub step: usize,
    pub verbose: bool,
    /// Every write relay acknowledged (see `ledger`).
    pub ledger: super::ledger::Ledger,
}

impl World {
    /// A bare origin with a store (project `demo`) on `main`, cloned three times; hooks
    /// installed in each clone (unless `hooks` is false). `None` where git is not installed.
    pub fn new(seed: u64, verbose: bool, hooks: bool) -> Option<World> {
        if Command::new("git").arg("--version").output().is_err() {
            eprintln!("skipped: git is not installed");
            return None;
        }
        let env = Env::empty();
        let origin = env.dir.join("origin.git");
        let mut w = World {
            clones: Vec::new(),
            origin,
            rng: Rng::new(seed),
            program: Vec::new(),
            violations: Vec::new(),
            sessions: BTreeMap::new(),
            diverging: BTreeSet::new(),
            step: 0,
            verbose,
            ledger: Default::default(),
            env,
        };
        let origin = w.origin.to_str().unwrap().to_string();
        let init = w
            .env
            .program("git", &["init", "-q", "--bare", "-b", "main", &origin]);
        assert!(run(init).ok(), "git init --bare");
        for (name, actor) in [('A', "ana"), ('B', "ben"), ('C', "cy")] {
            let dir = w.env.dir.join(name.to_string());
            let clone = w
                .env
                .program("git", &["clone", "-q", &origin, dir.to_str().unwrap()]);
            let out = run(clone);
            assert!(out.ok(), "git clone: {}", out.text());
            w.clones.push(Clone {
                name,
                actor,
                dir,
                user_dirty: false,
            });
            let c = w.clones.len() - 1;
            let email = format!("{actor}@example.com");
            w.setup_git(c, &["config", "user.name", actor]);
            w.setup_git(c, &["config", "user.email", &email]);
            if c == 0 {
                w.setup_git(c, &["symbolic-ref", "HEAD", "refs/heads/main"]);
                w.setup_relay(c, &["init", "--project", "demo"]);
                w.setup_git(c, &["add", "-A"]);
                w.setup_git(c, &["commit", "-q", "-m", "s0-A store"]);
                w.setup_git(c, &["push", "-q", "-u", "origin", "main"]);
            }
            if hooks {
                w.setup_relay(c, &["hook", "install", "--git"]);
            }
        }
        Some(w)
    }

    fn setup_git(&self, c: usize, args: &[&str]) {
        let out = self.git(c, args);
        assert!(out.ok(), "setup: git {args:?}: {}", out.text());
    }

    fn setup_relay(&self, c: usize, args: &[&str]) {
        let out = self.relay(c, args);
        assert!(out.ok(), "setup: relay {args:?}: {}", out.text());
    }

    pub fn name(&self, c: usize) -> char {
        self.clones[c].name
    }

    /// The label that names what step `self.step` made in clone `c` (titles, values, commit
    /// subjects): unique, and the same for a seed whatever the random ids.
    pub fn label(&self, c: usize) -> String {
        format!("s{}-{}", self.step, self.name(c))
    }

    /// Adds to the current step's line of the program.
    pub fn note(&mut self, text: &str) {
        if self.verbose {
            eprintln!("    {text}");
        }
        let line = self.program.last_mut().expect("a step is running");
        line.push_str(if line.ends_with(": ") { "" } else { "; " });
        line.push_str(text);
    }

    pub fn violate(&mut self, c: usize, kind: &'static str, detail: String) {
        if self.verbose {
            eprintln!("    VIOLATION {kind}: {detail}");
        }
        self.violations.push(Violation {
            step: self.step,
            clone: self.name(c),
            kind,
            detail,
        });
    }

    /// git in clone `c`, with a clean environment and the clone's relay actor (the hooks run
    /// relay with it).
    pub fn git(&self, c: usize, args: &[&str]) -> Out {
        let mut cmd = self.env.program("git", args);
        cmd.current_dir(&self.clones[c].dir)
            .env("RELAY_ACTOR", self.clones[c].actor)
            .env("GIT_EDITOR", "true")
            .env("GIT_MERGE_AUTOEDIT", "no")
            .env("GIT_TERMINAL_PROMPT", "0");
        run(cmd)
    }

    /// relay in clone `c` as the clone's actor.
    pub fn relay(&self, c: usize, args: &[&str]) -> Out {
        self.relay_as(&self.clones[c].dir, self.clones[c].actor, args)
    }

    /// relay in any folder, as `actor`.
    pub fn relay_as(&self, dir: &Path, actor: &str, args: &[&str]) -> Out {
        let mut cmd = self.env.command(args);
        cmd.current_dir(dir).env("RELAY_ACTOR", actor);
        run(cmd)
    }

    /// A relay write the step judged legal: a refusal is a violation.
    pub fn relay_ok(&mut self, c: usize, args: &[&str]) -> Option<String> {
        let out = self.relay(c, args);
        if out.ok() {
            return Some(out.stdout);
        }
        let detail = format!(
            "`relay {}` exited {}:\n{}",
            args.join(" "),
            out.code,
            out.text()
        );
        self.violate(c, "relay-command-failed", detail);
        None
    }

    /// A git command the generator made sure git has no reason of its own to refuse (no
    /// conflict outside `.relay/`, a clean tree): a failure is a violation, blamed on relay
    /// where git names relay's files. The clone is then brought back to a state the program
    /// can go on from.
    pub fn git_ok(&mut self, c: usize, args: &[&str]) -> Option<String> {
        let out = self.git(c, args);
        if out.ok() {
            self.note_queue(c);
            return Some(out.stdout);
        }
        let text = out.text();
        let changed = self.status(c);
        let only_store = !changed.trim().is_empty()
            && changed
                .lines()
                .all(|l| l.get(3..).unwrap_or("").starts_with(".relay/"));
        let refused = [
            "would be overwritten",
            "unstaged changes",
            "uncommitted changes",
        ]
        .iter()
        .any(|s| text.contains(s));
        let kind = if refused && (text.contains(".relay/") || only_store) {
            "git-refused-over-relay-changes"
        } else if text.contains("could not execute the todo command") {
            "git-rebase-halted"
        } else if text.contains(".relay/") {
            "git-failed-on-relay-files"
        } else {
            "git-failed"
        };
        let detail = format!("`git {}` exited {}:\n{text}", args.join(" "), out.code);
        self.violate(c, kind, detail);
        self.recover(c);
        None
    }

    /// A git step that should leave the tracked store as git left it: relay's hooks may
    /// write only under `.relay/local/`. After a commit (`committing`) the store must be
    /// clean; after anything else it may show no change it did not show before (a file a
    /// person created and `reset --hard` leaves alone stays, for one).
    pub fn git_op(&mut self, c: usize, args: &[&str], committing: bool) -> Option<String> {
        let before = self.store_status(c);
        let out = self.git_ok(c, args)?;
        self.check_store(c, &before, &format!("git {}", args.join(" ")), committing);
        Some(out)
    }

    /// The store's changes after `what` against `before` (see `git_op`).
    pub fn check_store(&mut self, c: usize, before: &str, what: &str, committing: bool) {
        let after = self.store_status(c);
        let new: Vec<&str> = (after.lines())
            .filter(|l| committing || !before.lines().any(|b| b == *l))
            .collect();
        if !new.is_empty() {
            let detail = format!(
                "after `{what}` the tracked store has changes no one made:\n{}",
                new.join("\n")
            );
            self.violate(c, "hook-left-store-changes", detail);
        }
    }

    /// `git status --porcelain` of the store.
    pub fn store_status(&self, c: usize) -> String {
        self.git(
            c,
            &[
                "status",
                "--porcelain",
                "--untracked-files=all",
                "--",
                ".relay",
            ],
        )
        .stdout
    }

    pub fn status(&self, c: usize) -> String {
        self.git(c, &["status", "--porcelain"]).stdout
    }

    /// The current branch (`HEAD` when detached).
    pub fn branch(&self, c: usize) -> String {
        let out = self.git(c, &["rev-parse", "--abbrev-ref", "HEAD"]);
        out.stdout.trim().to_string()
    }

    pub fn branches(&self, c: usize) -> Vec<String> {
        let out = self.git(
            c,
            &["for-each-ref", "--format=%(refname:short)", "refs/heads/"],
        );
        out.stdout.lines().map(str::to_string).collect()
    }

    pub fn rev(&self, c: usize, rev: &str) -> String {
        self.git(c, &["rev-parse", "-q", "--verify", rev])
            .stdout
            .trim()
            .to_string()
    }

    pub fn is_ancestor(&self, c: usize, ancestor: &str, of: &str) -> bool {
        self.git(c, &["merge-base", "--is-ancestor", ancestor, of])
            .ok()
    }

    /// Commits everything in the work tree, if anything changed (`git add -A`, then a commit
    /// whose subject is `label what`): the hooks run.
    pub fn commit_all(&mut self, c: usize, what: &str) -> Option<bool> {
        self.git_ok(c, &["add", "-A"])?;
        if self.status(c).trim().is_empty() {
            self.clones[c].user_dirty = false;
            return Some(false);
        }
        let subject = format!("{} {what}", self.label(c));
        self.git_op(c, &["commit", "-q", "-m", &subject], true)?;
        self.clones[c].user_dirty = false;
        Some(true)
    }

    /// What a person does before a git command that needs a clean tree: commit their own
    /// changes. Changes a hook left are not theirs, so they stay (and git may trip on them).
    pub fn commit_user_work(&mut self, c: usize) -> Option<()> {
        if self.clones[c].user_dirty {
            self.note("commit the work first");
            self.commit_all(c, "save")?;
        }
        Some(())
    }

    /// Records queued by relay's hooks and not written into the tracked logs yet (the queue
    /// `.relay/local/pending/` that reads include; absent before that design lands).
    pub fn pending(&self, c: usize) -> bool {
        fn any(dir: &Path) -> bool {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return false;
            };
            entries.flatten().any(|e| {
                let path = e.path();
                if path.is_dir() {
                    any(&path)
                } else {
                    e.metadata().map(|m| m.len() > 0).unwrap_or(false)
                }
            })
        }
        any(&self.clones[c].dir.join(".relay/local/pending"))
    }

    /// After git stopped: abort the operation in progress, and drop an index left in
    /// conflict, so the next step starts from a branch tip. Changes left in the work tree
    /// stay (the next commit takes them).
    pub fn recover(&mut self, c: usize) {
        let git = self.clones[c].dir.join(".git");
        let mut undo: Vec<&[&str]> = Vec::new();
        if git.join("rebase-merge").exists() || git.join("rebase-apply").exists() {
            undo.push(&["rebase", "--abort"]);
        }
        if git.join("CHERRY_PICK_HEAD").exists() {
            undo.push(&["cherry-pick", "--abort"]);
        }
        if git.join("MERGE_HEAD").exists() {
            undo.push(&["merge", "--abort"]);
        }
        for args in undo {
            let out = self.git(c, args);
            self.note(&format!(
                "recover: git {} (exit {})",
                args.join(" "),
                out.code
            ));
        }
        let unmerged = self.git(c, &["diff", "--name-only", "--diff-filter=U"]);
        if !unmerged.stdout.trim().is_empty() {
            let before = self.work_tree_ids(c);
            self.git(c, &["reset", "-q", "--hard"]);
            let after = self.work_tree_ids(c);
            self.ledger
                .excused
                .extend(before.difference(&after).cloned());
            self.note("recover: git reset --hard (conflicts left in the index)");
        }
    }
}

pub fn run(mut cmd: Command) -> Out {
    let out = cmd.output().expect("the command runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
