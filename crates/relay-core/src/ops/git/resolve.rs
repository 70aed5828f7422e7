//! `relay resolve`: finishing a merge git could not finish with relay's union driver. git's
//! octopus strategy (`git merge b c`) merges each file with `git merge-file` and no merge
//! attributes, so two branches that appended to one log leave it with conflict markers, and
//! two that both created a month's log leave it "both added", holding one side only. For
//! every unmerged path under the store (`git ls-files -u`) this writes what relay's merge
//! driver would have written (the lines of stages 2 and 3, each once:
//! `relay_store::lines::union`), checks that every line of a log is a whole JSON object,
//! and `git add`s it; `git commit` then concludes the merge with all its parents. No hook runs
//! when git stops a merge, so this is one command the user runs: reads, `relay status` and
//! `relay verify` name it when they meet an unfinished merge.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::ops::git::{git, git_raw};
use relay_store::format::LineMerged;
use relay_store::{Store, ndjson};
use relay_wire::error::{Error, Result};

/// A store file resolved, relative to the work tree's top.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedFile {
    pub path: String,
    /// Its lines after the union.
    pub lines: u64,
}

/// A store file left unmerged, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeftFile {
    pub path: String,
    pub reason: String,
}

/// What `relay resolve` did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Resolved {
    pub resolved: Vec<ResolvedFile>,
    pub left: Vec<LeftFile>,
    /// Whether git is concluding a merge (`MERGE_HEAD`): `git commit` finishes it.
    pub merging: bool,
}

/// The work tree's top, and the store's folder relative to it (`.relay`).
fn work_tree(store: &Store) -> Result<(PathBuf, String)> {
    let not_in_git = || {
        Error::InvalidInput(
            "the store is not in a git work tree: there is no git merge to finish".into(),
        )
    };
    let holder = store.root().parent().ok_or_else(not_in_git)?;
    if !crate::ops::git::may_be_in_git(holder) {
        return Err(not_in_git());
    }
    let top = git(holder, &["rev-parse", "--show-toplevel"]).ok_or_else(not_in_git)?;
    let top = PathBuf::from(top);
    let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let rel = real(store.root())
        .strip_prefix(real(&top))
        .map(|r| r.to_string_lossy().replace('\\', "/"))
        .map_err(|_| not_in_git())?;
    Ok((top, rel))
}

/// The unmerged store paths (relative to the work tree's top) with their stages: stage number
/// (1 base, 2 ours, 3 theirs) to blob id.
fn unmerged_stages(top: &Path, store_rel: &str) -> BTreeMap<String, BTreeMap<u8, String>> {
    let raw = git_raw(top, &["ls-files", "-u", "-z", "--", store_rel]).unwrap_or_default();
    let mut out: BTreeMap<String, BTreeMap<u8, String>> = BTreeMap::new();
    for entry in raw.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let text = String::from_utf8_lossy(entry);
        let Some((meta, path)) = text.split_once('\t') else {
            continue;
        };
        let mut parts = meta.split(' ');
        let (_, Some(blob), Some(stage)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        if let Ok(stage) = stage.parse::<u8>() {
            out.entry(path.to_string())
                .or_default()
                .insert(stage, blob.to_string());
        }
    }
    out
}

/// The store files git has not finished merging, under the store's root (none outside git).
pub fn unmerged_paths(store: &Store) -> Vec<PathBuf> {
    let Ok((top, rel)) = work_tree(store) else {
        return Vec::new();
    };
    let in_store = |p: &str| match rel.as_str() {
        "" => Some(store.root().join(p)),
        rel => (p.strip_prefix(rel)?.strip_prefix('/')).map(|p| store.root().join(p)),
    };
    unmerged_stages(&top, &rel)
        .into_keys()
        .filter_map(|p| in_store(&p))
        .collect()
}

/// Why `bytes` cannot be a log: the first line (from 1) that is not a whole JSON object, if
/// any. A blank line is allowed, as readers skip it.
fn not_a_log(bytes: &[u8]) -> Option<(u64, String)> {
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<serde_json::Value>(line) {
            Ok(serde_json::Value::Object(_)) => {}
            _ => {
                let shown: String = String::from_utf8_lossy(line).chars().take(60).collect();
                return Some((i as u64 + 1, relay_wire::text::clean_line(&shown).into()));
            }
        }
    }
    None
}

/// Resolves every unmerged store file of the git work tree that holds `store`.
pub fn resolve(store: &Store) -> Result<Resolved> {
    let (top, rel) = work_tree(store)?;
    let mut done = Resolved {
        merging: crate::ops::git::state::git_dir(&top)
            .is_some_and(|d| d.join("MERGE_HEAD").exists()),
        ..Resolved::default()
    };
    let blob = |id: Option<&String>| -> Result<Vec<u8>> {
        match id {
            None => Ok(Vec::new()),
            Some(id) => git_raw(&top, &["cat-file", "blob", id])
                .ok_or_else(|| Error::Integrity(format!("git cannot read blob {id}"))),
        }
    };
    for (path, stages) in unmerged_stages(&top, &rel) {
        let name = Path::new(&path)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let Some(kind) = relay_store::format::line_merged(name) else {
            done.left.push(LeftFile {
                path,
                reason: "not a log relay merges line by line: resolve it by hand, then git add it"
                    .into(),
            });
            continue;
        };
        // What relay's merge driver writes: each line of both sides once.
        let mut merged = relay_store::lines::union(
            &blob(stages.get(&1))?,
            &blob(stages.get(&2))?,
            &blob(stages.get(&3))?,
        );
        if !merged.is_empty() && !merged.ends_with(b"\n") {
            merged.push(b'\n');
        }
        let bad = match kind {
            LineMerged::Log => not_a_log(&merged),
            LineMerged::AllowedSigners => relay_wire::allowed_signers::AllowedSigners::parse(
                &String::from_utf8_lossy(&merged),
            )
            .err(),
        };
        if let Some((line, what)) = bad {
            done.left.push(LeftFile {
                path,
                reason: format!(
                    "line {line} of the union is not a whole record ({what}): resolve it by \
                     hand, then git add it"
                ),
            });
            continue;
        }
        let file = top.join(&path);
        ndjson::write_atomic(&file, &merged)?;
        crate::ops::git::add(&top, std::slice::from_ref(&file))?;
        done.resolved.push(ResolvedFile {
            lines: merged.iter().filter(|&&b| b == b'\n').count() as u64,
            path,
        });
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_union_keeps_every_line_of_both_sides_once_over_their_base() {
        let union = relay_store::lines::union;
        let merged = union(
            b"{\"a\":0}\n",
            b"{\"a\":0}\n{\"b\":1}\n",
            b"{\"a\":0}\n{\"c\":1}\n",
        );
        assert_eq!(merged, b"{\"a\":0}\n{\"b\":1}\n{\"c\":1}\n");
        // Both sides created the file: an empty base.
        let both_added = union(b"", b"{\"b\":1}\n", b"{\"c\":1}\n");
        assert_eq!(both_added, b"{\"b\":1}\n{\"c\":1}\n");
        // A line both sides appended is kept once, wherever each side put it.
        let same = union(b"", b"{\"x\":1}\n{\"b\":1}\n", b"{\"b\":1}\n{\"x\":1}\n");
        assert_eq!(same, b"{\"x\":1}\n{\"b\":1}\n");
    }

    #[test]
    fn a_log_is_whole_json_lines_only() {
        assert_eq!(not_a_log(b"{\"a\":1}\n\n{\"b\":2}\n"), None);
        assert_eq!(not_a_log(b""), None);
        assert_eq!(
            not_a_log(b"{\"a\":1}\n<<<<<<< HEAD\n"),
            Some((2, "<<<<<<< HEAD".to_string()))
        );
        assert_eq!(not_a_log(b"[1]\n").map(|(l, _)| l), Some(1));
    }
}
