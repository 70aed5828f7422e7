//! `relay merge BRANCH…`: the octopus merge git refuses. When the current branch and the
//! branches merged all appended to a store log, git's octopus strategy stops before it starts
//! ("Should not be doing an octopus"): it runs no merge driver, so it cannot keep both sides'
//! lines. This merges the branches one after another the way git's default strategy does,
//! with relay's merge driver (`git merge-tree --write-tree`, which reads `.gitattributes`; the
//! logs' `union` is pointed at relay's driver for the call, so no line is written twice),
//! and then leaves the result as git's own octopus would: the merged tree in the index and
//! the work tree, every branch in `MERGE_HEAD`, so `git commit` records one commit with all
//! the parents. The steps in between are commit objects no ref names; nothing else is
//! written to the repository.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use crate::ops::git::git;
use relay_wire::error::{Error, Result};

/// What `relay merge` did.
#[derive(Debug, Clone, Serialize)]
pub struct Merged {
    /// The branches merged, with their commits.
    pub branches: Vec<(String, String)>,
    /// The merged tree.
    pub tree: String,
    /// The merge commit, when it was committed.
    pub commit: Option<String>,
}

/// Runs git in `root`; its stdout, exit code and stderr.
fn run(root: &Path, args: &[&str]) -> Result<(String, i32, String)> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .map_err(|e| Error::io("cannot run git", e))?;
    Ok((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).trim().to_string(),
    ))
}

fn refuse(message: String) -> Error {
    Error::InvalidInput(message)
}

/// Merges `branches` into the current branch of the work tree at `cwd`; commits the merge
/// unless `no_commit`. `driver` is the command of relay's merge driver (`driver::
/// driver_command`): the store's logs merge with it whether this clone's git config defines it
/// or not, even where `.gitattributes` names `union` (a driver git's config defines outranks
/// the built-in one of that name), so the merge never writes a line twice.
pub fn merge(cwd: &Path, branches: &[String], no_commit: bool, driver: &str) -> Result<Merged> {
    let root = git(cwd, &["rev-parse", "--show-toplevel"])
        .map(PathBuf::from)
        .ok_or_else(|| refuse("relay merge needs a git work tree".into()))?;
    let git_dir = crate::ops::git::state::git_dir(&root)
        .ok_or_else(|| refuse("relay merge needs a git work tree".into()))?;
    if git_dir.join("MERGE_HEAD").exists() {
        return Err(refuse(
            "a merge is in progress: conclude it (`relay resolve`, then `git commit`) or \
             abort it (`git merge --abort`) first"
                .into(),
        ));
    }
    let head = git(&root, &["rev-parse", "--verify", "--quiet", "HEAD"])
        .ok_or_else(|| refuse("the branch has no commit yet to merge into".into()))?;
    let (changed, _, _) = run(&root, &["status", "--porcelain", "--untracked-files=no"])?;
    if !changed.trim().is_empty() {
        return Err(refuse(
            "the work tree has uncommitted changes to tracked files: commit or stash them \
             first (as git merge asks)"
                .into(),
        ));
    }
    if branches.is_empty() {
        return Err(refuse("name at least one branch to merge".into()));
    }
    let mut named = Vec::new();
    for b in branches {
        let spec = format!("{b}^{{commit}}");
        let commit = git(&root, &["rev-parse", "--verify", "--quiet", &spec])
            .ok_or_else(|| refuse(format!("no branch or commit is named {b:?}")))?;
        named.push((b.clone(), commit));
    }
    // Merge one branch at a time; the steps between are commits no ref names.
    let mut current = head.clone();
    let mut tree = String::new();
    for (i, (name, commit)) in named.iter().enumerate() {
        let relay_driver = format!("merge.{}.driver={driver}", super::driver::NAME);
        let union_driver = format!("merge.union.driver={driver}");
        let (out, code, err) = run(
            &root,
            &[
                "-c",
                &relay_driver,
                "-c",
                &union_driver,
                "merge-tree",
                "--write-tree",
                "--name-only",
                &current,
                commit,
            ],
        )?;
        let mut lines = out.lines();
        tree = lines.next().unwrap_or_default().trim().to_string();
        if code == 1 {
            let files: Vec<&str> = lines.take_while(|l| !l.is_empty()).collect();
            return Err(refuse(format!(
                "merging {name} conflicts in {}: relay merges only what its union driver \
                 can; merge that branch with `git merge {name}` and resolve those files, then \
                 the others",
                files.join(", ")
            )));
        }
        if code != 0 || tree.is_empty() {
            return Err(Error::Integrity(format!("git merge-tree failed: {err}")));
        }
        if i + 1 < named.len() {
            let message = format!("relay merge: step {} of {}", i + 1, named.len());
            let (step, code, err) = run(
                &root,
                &[
                    "-c",
                    "user.name=relay",
                    "-c",
                    "user.email=relay@localhost",
                    "commit-tree",
                    &tree,
                    "-p",
                    &current,
                    "-p",
                    commit,
                    "-m",
                    &message,
                ],
            )?;
            if code != 0 {
                return Err(Error::Integrity(format!("git commit-tree failed: {err}")));
            }
            current = step.trim().to_string();
        }
    }
    let (_, code, err) = run(&root, &["read-tree", "-m", "-u", &head, &tree])?;
    if code != 0 {
        return Err(refuse(format!(
            "git could not update the work tree to the merge: {err}"
        )));
    }
    let heads: String = named.iter().map(|(_, c)| format!("{c}\n")).collect();
    let names: Vec<String> = named.iter().map(|(n, _)| format!("'{n}'")).collect();
    let message = match names.as_slice() {
        [one] => format!("Merge branch {one}\n"),
        [rest @ .., last] => format!("Merge branches {} and {last}\n", rest.join(", ")),
        [] => String::new(),
    };
    let write = |file: &str, text: &str| {
        std::fs::write(git_dir.join(file), text)
            .map_err(|e| Error::io(format!("cannot write {file} in the git folder"), e))
    };
    write("MERGE_HEAD", &heads)?;
    write("MERGE_MSG", &message)?;
    write("MERGE_MODE", "no-ff")?;
    let mut merged = Merged {
        branches: named,
        tree,
        commit: None,
    };
    if !no_commit {
        let (_, code, err) = run(&root, &["commit", "-q", "--no-edit"])?;
        if code != 0 {
            return Err(Error::Integrity(format!(
                "the merge is staged, but `git commit` failed ({err}): fix what it says and \
                 run `git commit --no-edit`"
            )));
        }
        merged.commit = git(&root, &["rev-parse", "HEAD"]);
    }
    Ok(merged)
}
