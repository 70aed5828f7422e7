//! Merged clones converge: two and three clones of one repository assert and invalidate the
//! same keys, then sync through a bare origin with real `git pull` (merge or `--rebase`), in
//! every order. After the post-merge `verify --fix` every clone verifies clean, and all give
//! byte-identical `facts history --json` and `export --out -`; before it, reads already agree,
//! `verify` only notes the forks, and the fact index answers as a full read does.

use std::path::PathBuf;
use std::process::Command;

use crate::git::{git, in_dir, publish_and_clone};
use crate::harness::Env;

/// What one clone does between syncs: assert a value (at a time, or now), or invalidate.
#[derive(Clone, Copy)]
enum Step {
    Assert(&'static str, &'static str, Option<&'static str>),
    Invalidate(&'static str),
}

use Step::{Assert, Invalidate};

/// A bare origin and clones of it, each with the store of the first commit.
struct Cluster {
    env: Env,
    origin: PathBuf,
    clones: Vec<PathBuf>,
    /// Whether clones pull with `--rebase` rather than a merge.
    rebase: bool,
}

impl Cluster {
    /// `n` clones of a repository whose store already has a history for `svc version` and
    /// `svc owner`.
    fn new(n: usize, rebase: bool) -> Cluster {
        let env = Env::empty();
        let root = env.dir.clone();
        let origin = root.join("origin.git");
        git(&root, &["init", "--bare", "-q", origin.to_str().unwrap()]);
        let first = root.join("c0");
        git(
            &root,
            &[
                "clone",
                "-q",
                origin.to_str().unwrap(),
                first.to_str().unwrap(),
            ],
        );
        in_dir(&env, &first, &["init", "--project", "demo"]);
        for (p, v, at) in [
            ("version", "v0", "2026-01-01T00:00:00Z"),
            ("version", "v1", "2026-01-02T00:00:00Z"),
            ("owner", "ana", "2026-01-01T00:00:00Z"),
        ] {
            in_dir(
                &env,
                &first,
                &["facts", "assert", "svc", p, v, "--valid-from", at],
            );
        }
        let mut clones = vec![first.clone()];
        for i in 1..n {
            let dir = root.join(format!("c{i}"));
            if i == 1 {
                publish_and_clone(&first, &origin, &dir, "base");
            } else {
                let main = origin.to_str().unwrap();
                git(
                    &root,
                    &["clone", "-q", "-b", "main", main, dir.to_str().unwrap()],
                );
            }
            clones.push(dir);
        }
        for dir in &clones {
            // The fact index is built before the merge, so reads after it must notice.
            in_dir(&env, dir, &["facts", "list", "--json"]);
        }
        Cluster {
            env,
            origin,
            clones,
            rebase,
        }
    }

    fn relay(&self, clone: usize, args: &[&str]) -> String {
        in_dir(&self.env, &self.clones[clone], args)
    }

    fn run(&self, clone: usize, steps: &[Step]) {
        for step in steps {
            match *step {
                Assert(p, v, Some(at)) => {
                    self.relay(clone, &["facts", "assert", "svc", p, v, "--valid-from", at])
                }
                Assert(p, v, None) => self.relay(clone, &["facts", "assert", "svc", p, v]),
                Invalidate(p) => self.relay(clone, &["facts", "invalidate", "svc", p]),
            };
        }
    }

    /// Commits what the clone changed, pulls (a merge or a rebase), runs `verify --fix` as
    /// relay's post-merge hook does (when `fix`), commits that, and pushes.
    fn sync(&self, clone: usize, fix: bool) {
        let dir = &self.clones[clone];
        let commit = || {
            git(dir, &["add", "-A"]);
            if !git(dir, &["status", "--porcelain"]).trim().is_empty() {
                git(dir, &["commit", "-q", "-m", "relay"]);
            }
        };
        commit();
        let mode = if self.rebase {
            "--rebase"
        } else {
            "--no-rebase"
        };
        git(
            dir,
            &[
                "pull",
                "-q",
                mode,
                "--no-edit",
                self.origin.to_str().unwrap(),
                "main",
            ],
        );
        let status = git(dir, &["status", "--porcelain"]);
        assert!(!status.contains("UU"), "no conflicts: {status}");
        if fix {
            self.relay(clone, &["verify", "--fix", "--quiet"]);
            commit();
        }
        git(dir, &["push", "-q", "origin", "HEAD:main"]);
    }

    fn output(&self, clone: usize, args: &[&str]) -> (i32, String) {
        let out = self
            .env
            .command(args)
            .current_dir(&self.clones[clone])
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    /// Every fact read a clone answers, as text.
    fn reads(&self, clone: usize) -> Vec<(i32, String)> {
        let mut out = Vec::new();
        for p in ["version", "owner"] {
            out.push(self.output(clone, &["facts", "get", "svc", p, "--json"]));
            out.push(self.output(clone, &["facts", "history", "svc", p, "--json"]));
            for at in ["2026-01-01T12:00:00Z", "2026-02-01T02:30:00Z", "2026-03-01"] {
                out.push(self.output(clone, &["facts", "get", "svc", p, "--at", at, "--json"]));
            }
        }
        out.push(self.output(clone, &["facts", "list", "--json"]));
        out.push(self.output(clone, &["facts", "list", "--include-ended", "--json"]));
        // `generated_at` is the time of the call.
        for digest in ["orient", "orchestrate"] {
            let (code, text) = self.output(clone, &[digest, "--json"]);
            let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
            v.as_object_mut().unwrap().remove("generated_at");
            out.push((code, v.to_string()));
        }
        out.push(self.output(clone, &["export", "--out", "-"]));
        out
    }

    /// The reads of a clone with its fact index as left by earlier reads, rebuilt from
    /// nothing, and turned off: all the same.
    fn reads_agree_with_and_without_the_index(&self, clone: usize) -> Vec<(i32, String)> {
        let dir = &self.clones[clone];
        let warm = self.reads(clone);
        std::fs::remove_dir_all(dir.join(".relay/cache")).unwrap();
        same_reads(&self.reads(clone), &warm, "a rebuilt index answers alike");
        let config = dir.join(".relay/config.toml");
        let text = std::fs::read_to_string(&config).unwrap();
        let off = text.replace("search_index = true", "search_index = false");
        assert_ne!(off, text, "the config names search_index");
        std::fs::write(&config, off).unwrap();
        same_reads(&self.reads(clone), &warm, "full reads answer alike");
        std::fs::write(&config, text).unwrap();
        warm
    }
}

/// Fails with the first read that differs, if any.
fn same_reads(left: &[(i32, String)], right: &[(i32, String)], what: &str) {
    assert_eq!(left.len(), right.len(), "{what}");
    for (i, (l, r)) in left.iter().zip(right).enumerate() {
        assert_eq!(l, r, "{what}: read {i} differs");
    }
}

fn git_missing() -> bool {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("skipped: git is not installed");
        return true;
    }
    false
}

/// Every order of `0..n`.
fn orders(n: usize) -> Vec<Vec<usize>> {
    if n == 1 {
        return vec![vec![0]];
    }
    let mut out = Vec::new();
    for rest in orders(n - 1) {
        for at in 0..=rest.len() {
            let mut o = rest.clone();
            o.insert(at, n - 1);
            out.push(o);
        }
    }
    out
}

/// Runs `work` in `n` clones, syncs them in `order` (each pulls and pushes; with
/// `hook_fixes`, each also `verify --fix`es after its pull, as the post-merge hook does),
/// brings every clone up to date, and checks the promises of the module.
fn converge(work: &[&[Step]], order: &[usize], rebase: bool, hook_fixes: bool) {
    let cluster = Cluster::new(work.len(), rebase);
    for (clone, steps) in work.iter().enumerate() {
        cluster.run(clone, steps);
    }
    for &clone in order {
        cluster.sync(clone, hook_fixes);
    }
    // A second round: every clone now holds every line.
    for &clone in order {
        cluster.sync(clone, false);
    }
    let n = work.len();
    let before: Vec<_> = (0..n)
        .map(|c| cluster.reads_agree_with_and_without_the_index(c))
        .collect();
    for c in 1..n {
        same_reads(
            &before[c],
            &before[0],
            &format!("clones agree before --fix ({order:?})"),
        );
    }
    for c in 0..n {
        let (code, notes) = cluster.output(c, &["verify", "--json"]);
        assert_eq!(code, 0, "a merge fork is no integrity error: {notes}");
        assert!(
            notes.lines().all(|l| l.contains("\"severity\":\"note\"")),
            "{notes}"
        );
        assert!(!notes.contains("\"line\":0"), "{notes}");
        in_dir(
            &cluster.env,
            &cluster.clones[c],
            &["verify", "--fix", "--quiet"],
        );
        let (code, left) = cluster.output(c, &["verify", "--json"]);
        assert_eq!(
            (code, left.as_str()),
            (0, ""),
            "clean after --fix ({order:?})"
        );
    }
    let after: Vec<_> = (0..n)
        .map(|c| cluster.reads_agree_with_and_without_the_index(c))
        .collect();
    for c in 1..n {
        same_reads(
            &after[c],
            &after[0],
            &format!("clones agree after --fix ({order:?})"),
        );
    }
    // --fix records the chain that reads showed; only the markers of differences go.
    let strip = |reads: &[(i32, String)]| -> Vec<(i32, String)> {
        reads
            .iter()
            .map(|(code, text)| {
                let lines: Vec<String> = text
                    .lines()
                    .map(|l| {
                        let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                        if let Some(m) = v.as_object_mut() {
                            m.remove("x-stored_valid_to");
                        }
                        v.to_string()
                    })
                    .collect();
                (*code, lines.join("\n"))
            })
            .collect()
    };
    let exported = |reads: &[(i32, String)]| reads.last().cloned();
    same_reads(
        &strip(&after[0]),
        &strip(&before[0]),
        "--fix changes no answer",
    );
    assert_eq!(
        exported(&after[0]),
        exported(&before[0]),
        "export wrote the effective chain before --fix stored it"
    );
    chain_is_sound(&after[0]);
}

/// The invariants of one history: in order, no overlap, gaps only where a fact was closed,
/// only the last fact open.
fn chain_is_sound(reads: &[(i32, String)]) {
    for (_, text) in reads.iter().filter(|(_, t)| t.contains("\"predicate\"")) {
        let facts: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        if facts.len() < 2 || facts.iter().any(|f| f["subject"] != facts[0]["subject"]) {
            continue;
        }
        let same_key = facts
            .iter()
            .all(|f| f["predicate"] == facts[0]["predicate"]);
        if !same_key {
            continue;
        }
        let time = |v: &serde_json::Value| {
            chrono::DateTime::parse_from_rfc3339(v.as_str().unwrap()).unwrap()
        };
        for pair in facts.windows(2) {
            assert!(
                pair[0]["valid_to"].is_string(),
                "only the last fact is open: {text}"
            );
            assert!(
                time(&pair[0]["valid_to"]) <= time(&pair[1]["valid_from"]),
                "{text}"
            );
        }
    }
}

const A: &[Step] = &[
    Assert("version", "a-1", Some("2026-02-01T01:00:00Z")),
    Assert("version", "a-2", Some("2026-02-01T03:00:00Z")),
    Assert("owner", "bo", None),
];
const B: &[Step] = &[
    Assert("version", "b-1", Some("2026-02-01T02:00:00Z")),
    Assert("version", "b-2", Some("2026-02-01T04:00:00Z")),
    Invalidate("owner"),
];
const C: &[Step] = &[
    Invalidate("version"),
    Assert("version", "c-1", None),
    Assert("owner", "cy", Some("2026-02-01T00:30:00Z")),
    Invalidate("owner"),
];

/// The reproduction of the issue: two clones supersede one fact twice each, A pushes, B
/// merges and pushes, A pulls; then `verify --fix` in each, then `verify`.
#[test]
fn two_clones_superseding_one_key_converge_in_both_orders() {
    if git_missing() {
        return;
    }
    for order in orders(2) {
        converge(&[A, B], &order, false, false);
        converge(&[A, B], &order, false, true);
    }
}

#[test]
fn two_clones_converge_through_pull_rebase() {
    if git_missing() {
        return;
    }
    for order in orders(2) {
        converge(&[A, B], &order, true, false);
        converge(&[A, B], &order, true, true);
    }
}

#[test]
fn three_clones_asserting_and_invalidating_converge_in_every_merge_order() {
    if git_missing() {
        return;
    }
    for (i, order) in orders(3).into_iter().enumerate() {
        converge(&[A, B, C], &order, false, i % 2 == 0);
    }
}

#[test]
fn three_clones_converge_through_pull_rebase_in_every_order() {
    if git_missing() {
        return;
    }
    for (i, order) in orders(3).into_iter().enumerate() {
        converge(&[A, B, C], &order, true, i % 2 == 1);
    }
}
