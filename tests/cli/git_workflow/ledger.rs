//! The ledger of the workday (issue 56): every write relay acknowledged. The hooks' records
//! are read from each clone's queue after every git command that succeeded (a record is
//! acknowledged once it is queued); the person's deposits are noted as relay answers them. At
//! the end of the day every hook record must be on origin's main, every deposit somewhere in
//! some clone's refs (unless the person threw it away: a `reset --hard` or a stash that did
//! not pop), the clones must hold the same lines, and no log may hold a line twice.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use super::world::World;

/// What relay acknowledged, by package id: where it was first seen.
#[derive(Default)]
pub struct Ledger {
    pub hooks: BTreeMap<String, String>,
    pub deposits: BTreeMap<String, String>,
    /// Deposits the person threw away.
    pub excused: BTreeSet<String>,
}

/// The package ids of the package lines in `text`.
pub fn package_ids(text: &str) -> Vec<String> {
    (text.lines())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v["package"]["package_id"].as_str().map(str::to_string))
        .collect()
}

/// The files of the store folder `store` that hold logs: under `local/pending/` (`queued`)
/// or the tracked ones.
fn logs(store: &Path, queued: bool) -> Vec<std::path::PathBuf> {
    let pending = store.join("local").join("pending");
    walkdir::WalkDir::new(if queued { &pending } else { store })
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "ndjson"))
        .filter(|p| {
            queued || !(p.starts_with(store.join("local")) || p.starts_with(store.join("cache")))
        })
        .collect()
}

/// Every line of the tracked logs in the work tree at `dir`, by file (relative to `dir`).
pub fn work_tree_logs(dir: &Path) -> BTreeMap<String, Vec<String>> {
    logs(&dir.join(".relay"), false)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            (rel, text.lines().map(str::to_string).collect())
        })
        .collect()
}

impl World {
    /// Notes every record waiting in clone `c`'s queue as acknowledged.
    pub fn note_queue(&mut self, c: usize) {
        let store = self.clones[c].dir.join(".relay");
        for p in logs(&store, true) {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            for id in package_ids(&text) {
                let at = format!("queued in {} at #{}", self.name(c), self.step);
                self.ledger.hooks.entry(id).or_insert(at);
            }
        }
    }

    /// Before `checkout -B branch start`: the deposits only the branch's old tip held are the
    /// person's to throw away.
    pub fn excuse_branch_reset(&mut self, c: usize, branch: &str, start: &str) {
        let ids = |w: &World, rev: &str| -> BTreeSet<String> {
            (w.tree_lines(c, rev).iter())
                .flat_map(|l| package_ids(l))
                .collect()
        };
        if !self.git(c, &["rev-parse", "-q", "--verify", branch]).ok() {
            return;
        }
        let (old, new) = (ids(self, branch), ids(self, start));
        self.ledger.excused.extend(old.difference(&new).cloned());
    }

    /// The package ids of the work tree's tracked logs in clone `c`.
    pub fn work_tree_ids(&self, c: usize) -> BTreeSet<String> {
        (work_tree_logs(&self.clones[c].dir).into_values())
            .flatten()
            .flat_map(|l| package_ids(&l))
            .collect()
    }

    /// Every line of the store's logs in the commit `rev` of clone `c`.
    pub fn tree_lines(&self, c: usize, rev: &str) -> Vec<String> {
        let files = self.git(c, &["ls-tree", "-r", "--name-only", rev, "--", ".relay"]);
        let mut lines = Vec::new();
        for f in files.stdout.lines().filter(|f| f.ends_with(".ndjson")) {
            let text = self.git(c, &["show", &format!("{rev}:{f}")]).stdout;
            lines.extend(text.lines().map(str::to_string));
        }
        lines
    }

    /// The end of the day's checks of the ledger (see the module's header).
    pub fn check_ledger(&mut self) {
        let n = self.clones.len();
        let main: BTreeSet<String> = (self.tree_lines(0, "origin/main").iter())
            .flat_map(|l| package_ids(l))
            .collect();
        let lost: Vec<String> = (self.ledger.hooks.iter())
            .filter(|(id, _)| !main.contains(*id))
            .map(|(id, at)| format!("{id} ({at})"))
            .collect();
        if !lost.is_empty() {
            let detail = format!(
                "{} of {} hook records are not on origin's main: {}",
                lost.len(),
                self.ledger.hooks.len(),
                lost.join(", ")
            );
            self.violate(0, "hook-record-lost", detail);
        }
        let mut anywhere = main;
        for c in 0..n {
            let refs = self.git(c, &["for-each-ref", "--format=%(refname)"]).stdout;
            for r in refs.lines().filter(|r| !r.starts_with("refs/stash")) {
                anywhere.extend(self.tree_lines(c, r).iter().flat_map(|l| package_ids(l)));
            }
            anywhere.extend(self.work_tree_ids(c));
        }
        let lost: Vec<String> = (self.ledger.deposits.iter())
            .filter(|(id, _)| !anywhere.contains(*id) && !self.ledger.excused.contains(*id))
            .map(|(id, at)| format!("{id} ({at})"))
            .collect();
        if !lost.is_empty() {
            let detail = format!("deposits in no ref of any clone: {}", lost.join(", "));
            self.violate(0, "deposit-lost", detail);
        }
        let sets: Vec<BTreeMap<String, Vec<String>>> = (0..n)
            .map(|c| work_tree_logs(&self.clones[c].dir))
            .collect();
        for c in 0..n {
            for (file, lines) in &sets[c] {
                let unique: BTreeSet<&String> = lines.iter().collect();
                if unique.len() != lines.len() {
                    let detail = format!(
                        "{file} holds {} lines, {} of them unique",
                        lines.len(),
                        unique.len()
                    );
                    self.violate(c, "duplicate-lines", detail);
                }
            }
            let as_set =
                |logs: &BTreeMap<String, Vec<String>>| -> BTreeMap<String, BTreeSet<String>> {
                    (logs.iter())
                        .map(|(f, l)| (f.clone(), l.iter().cloned().collect()))
                        .collect()
                };
            if c > 0 && as_set(&sets[c]) != as_set(&sets[0]) {
                let detail = format!(
                    "{} and {} hold different lines in their logs",
                    self.name(0),
                    self.name(c)
                );
                self.violate(c, "clones-hold-different-lines", detail);
            }
        }
        eprintln!(
            "git-workflow ledger: {} hook records, {} deposits ({} of them left unchecked: a reset or a rebuilt branch of the person's took them from a work tree)",
            self.ledger.hooks.len(),
            self.ledger.deposits.len(),
            (self.ledger.deposits.keys())
                .filter(|id| self.ledger.excused.contains(*id))
                .count()
        );
    }
}
