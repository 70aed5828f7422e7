//! `relay deposit --auto`: the package a git hook or an agent's stop hook deposits by itself.
//! For a new commit it records the commit; with no new commit it records the working tree's
//! uncommitted changes; with nothing new it records nothing. Its id is derived from what it
//! describes, so running it twice for the same state deposits once. A commit's id comes from
//! its change (`git patch-id --stable` of its diff outside the store, and its author), so a
//! change gets one package however often it is committed again: an amend that keeps the diff,
//! a cherry-pick, a rebased replay. While a rebase or a cherry-pick replays commits it records
//! nothing at all (see `git_state`).

use std::path::Path;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::ops::git::git;
use relay_wire::error::{Error, Result};

/// What an automatic deposit describes.
#[derive(Debug, Clone)]
pub struct AutoPackage {
    /// The partial wire package (relay fills in the rest as for any deposit).
    pub package: Map<String, Value>,
    /// The commit author, used as the actor.
    pub author: Option<String>,
}

/// A package id derived from what it describes: the same description, the same id, so a second
/// deposit of it is a no-op.
pub fn id_for(what: &str) -> String {
    let digest = Sha256::digest(what.as_bytes());
    format!(
        "pkg_{}",
        digest[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}

/// Paths outside the store: a commit that only touches `.relay/` (the deposits themselves) is
/// nothing new.
fn outside_store(paths: Vec<String>) -> Vec<String> {
    paths
        .into_iter()
        .filter(|p| !p.is_empty() && !p.starts_with(".relay/") && p != ".relay")
        .collect()
}

pub fn deliverables(root: &Path, paths: &[String]) -> Result<Vec<Value>> {
    paths
        .iter()
        .map(|p| Ok(crate::ops::packages::deposit::deliverable_for_path(p, root, root)?.value))
        .collect()
}

/// The work tree's uncommitted changes outside the store: `git status --porcelain` (NULs as
/// newlines) and the changed paths, untracked files included.
pub fn uncommitted(root: &Path) -> (String, Vec<String>) {
    let mut args = vec!["status", "--porcelain", "-z", "--untracked-files=all", "--"];
    args.extend([".", ":(exclude).relay"]);
    let raw_status = crate::ops::git::git_raw(root, &args).unwrap_or_default();
    let status = String::from_utf8_lossy(&raw_status).replace('\0', "\n");
    (
        status,
        outside_store(crate::ops::git::status_paths(&raw_status)),
    )
}

/// The change `commit` makes outside the store, as `git patch-id --stable` names it: the same
/// for the commit amended without touching its diff, cherry-picked or replayed by a rebase.
/// `None` for a merge, or a commit that changes nothing outside the store. The diff is taken
/// whole (binary files included) and in one fixed form, whatever the user's diff settings.
pub fn patch_id(root: &Path, commit: &str) -> Option<String> {
    let parents = git(root, &["rev-list", "--parents", "-n", "1", commit])?;
    if parents.split_whitespace().count() > 2 {
        return None;
    }
    let diff = crate::ops::git::git_raw(
        root,
        &[
            "-c",
            "diff.noprefix=false",
            "-c",
            "diff.mnemonicPrefix=false",
            "show",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--no-renames",
            "--binary",
            "--format=",
            "-p",
            commit,
            "--",
            ".",
            ":(exclude).relay",
        ],
    )?;
    if diff.is_empty() {
        return None;
    }
    let out = crate::ops::git::git_with_input(root, &["patch-id", "--stable"], &diff)?;
    out.split_whitespace().next().map(str::to_string)
}

/// What `deposit --auto` found to do.
#[derive(Debug, Clone)]
pub enum Found {
    /// A package to deposit.
    Package(AutoPackage),
    /// Nothing, and why.
    Nothing(String),
}

/// The automatic package for the state of the work tree at `cwd`, or why there is nothing to
/// record. `deposited` tells whether a package id is already stored.
pub fn build(cwd: &Path, deposited: &dyn Fn(&str) -> Result<bool>) -> Result<Found> {
    let root = git(cwd, &["rev-parse", "--show-toplevel"])
        .ok_or_else(|| Error::InvalidInput("deposit --auto needs a git work tree".into()))?;
    let root = Path::new(&root);
    if let Some(what) = crate::ops::git::state::replaying(root) {
        return Ok(Found::Nothing(format!(
            "Nothing deposited: {what} is replaying commits, whose changes were recorded when \
             they were first made."
        )));
    }
    let nothing = || Ok(Found::Nothing("Nothing new to deposit.".into()));
    let branch =
        git(root, &["rev-parse", "--abbrev-ref", "HEAD"]).unwrap_or_else(|| "(no branch)".into());
    if let Some(commit) = git(root, &["rev-parse", "--verify", "--quiet", "HEAD"]) {
        let files = outside_store(crate::ops::git::nul_paths(
            &crate::ops::git::git_raw(root, &["show", "--name-only", "-z", "--format=", &commit])
                .unwrap_or_default(),
        ));
        let author = git(root, &["log", "-1", "--format=%ae", &commit]);
        let by_commit = id_for(&format!("commit:{commit}"));
        let patch = match files.is_empty() {
            true => None,
            false => patch_id(root, &commit),
        };
        // The change's id, if it has one; a commit's own id is still checked, for packages an
        // earlier relay deposited under it.
        let by_change = (patch.as_deref()).map(|p| {
            id_for(&format!(
                "change:{}:{p}",
                author.as_deref().unwrap_or_default()
            ))
        });
        let id = by_change.clone().unwrap_or_else(|| by_commit.clone());
        let recorded = deposited(&by_commit)? || by_change.is_some() && deposited(&id)?;
        if !recorded && !files.is_empty() {
            let subject = git(root, &["log", "-1", "--format=%s", &commit])
                .unwrap_or_else(|| "(no subject)".into());
            let body = git(root, &["log", "-1", "--format=%b", &commit]).unwrap_or_default();
            let stat = git(root, &["show", "--stat", "--format=", &commit]).unwrap_or_default();
            let when = git(root, &["log", "-1", "--format=%aI", &commit]);
            let mut description = String::new();
            if !body.is_empty() {
                description.push_str(&body);
                description.push_str("\n\n");
            }
            description.push_str(&format!("Branch: {branch}\nCommit: {commit}\n\n{stat}"));
            let mut p = Map::new();
            p.insert("package_id".into(), json!(id));
            p.insert(
                "title".into(),
                json!(subject.chars().take(200).collect::<String>()),
            );
            p.insert("description".into(), json!(description));
            p.insert("package_type".into(), json!("auto_deposit"));
            p.insert("significance".into(), json!(2));
            p.insert(
                "deliverables".into(),
                Value::Array(deliverables(root, &files)?),
            );
            if let Some(t) = when.and_then(|t| relay_wire::time::parse(&t).ok()) {
                p.insert("created_at".into(), json!(relay_wire::time::format(t)));
            }
            let mut x_git = json!({"commit": commit, "branch": branch});
            if let Some(patch) = patch {
                x_git["patch_id"] = json!(patch);
            }
            p.insert("x-git".into(), x_git);
            return Ok(Found::Package(AutoPackage { package: p, author }));
        }
    }
    // No new commit: the uncommitted changes, if any.
    // The store's own files are not work to report (and change with every deposit).
    let outside = [".", ":(exclude).relay"];
    let (status, files) = uncommitted(root);
    if files.is_empty() {
        return nothing();
    }
    let mut args = vec!["diff", "HEAD", "--"];
    args.extend(outside);
    let diff = git(root, &args).unwrap_or_default();
    // The files' hashes enter the id too: an untracked file that changed is new work.
    let delivered = deliverables(root, &files)?;
    // Not HEAD: committing only the store must not make the same work new again.
    let id = id_for(&format!(
        "worktree:{status}:{diff}:{}",
        Value::Array(delivered.clone())
    ));
    if deposited(&id)? {
        return nothing();
    }
    let mut args = vec!["diff", "HEAD", "--stat", "--"];
    args.extend(outside);
    let stat = git(root, &args).unwrap_or_default();
    let mut p = Map::new();
    p.insert("package_id".into(), json!(id));
    let s = if files.len() == 1 { "" } else { "s" };
    p.insert(
        "title".into(),
        json!(format!(
            "Uncommitted work on {branch}: {} file{s} changed",
            files.len()
        )),
    );
    p.insert(
        "description".into(),
        json!(format!(
            "Branch: {branch}\n\n{}\n{}",
            status.trim_end(),
            stat
        )),
    );
    p.insert("package_type".into(), json!("auto_deposit"));
    p.insert("significance".into(), json!(2));
    p.insert("deliverables".into(), Value::Array(delivered));
    Ok(Found::Package(AutoPackage {
        package: p,
        author: None,
    }))
}
