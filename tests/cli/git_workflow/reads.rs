//! The reads the randomized git-workflow test compares: in a clone against the same reads of a
//! copy of it without `cache/` (a cache must never change an answer), and, at the end, across
//! the three clones (every clone computes the same state).
//!
//! Outputs are compared byte for byte (stdout and exit code), with one exception: orient's
//! `generated_at` is the time of the read, so it is removed from orient's JSON before the
//! comparison. relay has no clock override; nothing else in these outputs holds the current
//! time.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::world::World;

/// The reads compared after every step.
pub const READS: [&[&str]; 4] = [
    &["pull", "--latest", "1000", "--json"],
    &["facts", "list", "--json"],
    &["orient", "--json"],
    &["review", "list", "--json"],
];

/// The (subject, predicate) keys the program asserts facts on, shared by all clones.
pub const KEYS: [(&str, &str); 4] = [
    ("svc", "version"),
    ("svc", "owner"),
    ("db", "version"),
    ("db", "owner"),
];

/// One read's answer: its command line and what it printed (exit code, then stdout).
pub struct Answer {
    pub read: String,
    pub text: String,
}

impl World {
    /// Runs `reads` in `dir` as `actor` (on the store found from there, or `store`).
    pub fn answers(
        &self,
        dir: &Path,
        store: Option<&Path>,
        actor: &str,
        reads: &[Vec<String>],
    ) -> Vec<Answer> {
        reads
            .iter()
            .map(|args| {
                let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
                if let Some(store) = store {
                    all.extend(["--store", store.to_str().unwrap()]);
                }
                let out = self.relay_as(dir, actor, &all);
                let stdout = if args[0] == "orient" {
                    without_generated_at(&out.stdout)
                } else {
                    out.stdout
                };
                Answer {
                    read: args.join(" "),
                    text: format!("exit {}\n{stdout}", out.code),
                }
            })
            .collect()
    }

    /// The four reads in clone `c` equal the same reads of a copy of the clone with
    /// `.relay/cache/` left out (the clone's own cache is never touched: deleting it would
    /// hide what this looks for). A divergence is reported when it starts, not again at every
    /// step while it lasts.
    pub fn check_cache(&mut self, c: usize) {
        let reads = standard_reads();
        let (dir, actor) = (self.clones[c].dir.clone(), self.clones[c].actor);
        let real = self.answers(&dir, None, actor, &reads);
        let copy = self.env.dir.join(format!("nocache-{}", self.name(c)));
        let _ = std::fs::remove_dir_all(&copy);
        copy_without_cache(&dir, &copy, true);
        let bare = self.answers(&copy, Some(&copy.join(".relay")), actor, &reads);
        for (a, b) in real.iter().zip(&bare) {
            let key = (c, a.read.clone());
            if a.text == b.text {
                self.diverging.remove(&key);
            } else if self.diverging.insert(key) {
                let detail = format!(
                    "`relay {}` differs from the same read with cache/ deleted:\n{}",
                    a.read,
                    first_difference(&a.text, &b.text, "with cache", "without")
                );
                self.violate(c, "cache-changed-an-answer", detail);
            }
        }
        let _ = std::fs::remove_dir_all(&copy);
    }
}

pub fn standard_reads() -> Vec<Vec<String>> {
    READS
        .iter()
        .map(|r| r.iter().map(|s| s.to_string()).collect())
        .collect()
}

/// The reads compared across clones at the end: the four, and every shared key's history.
pub fn final_reads() -> Vec<Vec<String>> {
    let mut reads = standard_reads();
    for (s, p) in KEYS {
        reads.push(
            ["facts", "history", s, p, "--json"]
                .iter()
                .map(|x| x.to_string())
                .collect(),
        );
    }
    reads
}

fn without_generated_at(stdout: &str) -> String {
    stdout
        .lines()
        .map(|line| match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(mut o)) => {
                o.remove("generated_at");
                Value::Object(o).to_string()
            }
            _ => line.to_string(),
        })
        .map(|l| l + "\n")
        .collect()
}

/// Copies the work tree `from` to `to`, without `.git` (reads never need it) and without
/// `.relay/cache/`. Deliverables stay where the stale check looks for them.
fn copy_without_cache(from: &Path, to: &Path, top: bool) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if top && name == ".git" {
            continue;
        }
        let (src, dst): (PathBuf, PathBuf) = (entry.path(), to.join(&name));
        if entry.file_type().unwrap().is_dir() {
            if name == "cache" && from.file_name().is_some_and(|n| n == ".relay") {
                continue;
            }
            copy_without_cache(&src, &dst, false);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The first line where two answers differ, around the first character that differs, and how
/// many lines each has.
pub fn first_difference(a: &str, b: &str, a_name: &str, b_name: &str) -> String {
    let (al, bl): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let i = (0..al.len().max(bl.len()))
        .find(|&i| al.get(i) != bl.get(i))
        .unwrap_or(0);
    let (x, y): (Vec<char>, Vec<char>) = (
        al.get(i).unwrap_or(&"(no line)").chars().collect(),
        bl.get(i).unwrap_or(&"(no line)").chars().collect(),
    );
    let at = (0..x.len().max(y.len()))
        .find(|&k| x.get(k) != y.get(k))
        .unwrap_or(0);
    let from = at.saturating_sub(100);
    let window = |s: &[char]| {
        let to = (at + 200).min(s.len());
        let text: String = s[from.min(s.len())..to].iter().collect();
        let head = if from > 0 { "…" } else { "" };
        let tail = if to < s.len() { "…" } else { "" };
        format!("{head}{text}{tail}")
    };
    format!(
        "line {} (of {} vs {}), from character {}:\n  {a_name}: {}\n  {b_name}: {}",
        i + 1,
        al.len(),
        bl.len(),
        from + 1,
        window(&x),
        window(&y)
    )
}

/// The packages of a `pull --json` answer: (title, id, status), sorted by title.
pub fn packages(stdout: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|v| {
            let p = &v["package"];
            let s = |k: &str| p[k].as_str().unwrap_or_default().to_string();
            (s("title"), s("package_id"), s("status"))
        })
        .collect();
    out.sort();
    out
}
