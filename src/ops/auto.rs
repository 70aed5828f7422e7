//! `relay deposit --auto`: the package a git hook or an agent's stop hook deposits by itself.
//! For a new commit it records the commit; with no new commit it records the working tree's
//! uncommitted changes; with nothing new it records nothing. Its id is derived from what it
//! describes, so running it twice for the same state deposits once.

use std::path::Path;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::git::git;
use crate::error::{Error, Result};

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
        .map(|p| Ok(super::deposit::deliverable_for_path(p, root, root)?.value))
        .collect()
}

/// The work tree's uncommitted changes outside the store: `git status --porcelain` (NULs as
/// newlines) and the changed paths, untracked files included.
pub fn uncommitted(root: &Path) -> (String, Vec<String>) {
    let mut args = vec!["status", "--porcelain", "-z", "--untracked-files=all", "--"];
    args.extend([".", ":(exclude).relay"]);
    let raw_status = super::git::git_raw(root, &args).unwrap_or_default();
    let status = String::from_utf8_lossy(&raw_status).replace('\0', "\n");
    (status, outside_store(super::git::status_paths(&raw_status)))
}

/// The automatic package for the state of the work tree at `cwd`, or `None` when there is
/// nothing new to record. `deposited` tells whether a package id is already stored.
pub fn build(cwd: &Path, deposited: &dyn Fn(&str) -> Result<bool>) -> Result<Option<AutoPackage>> {
    let root = git(cwd, &["rev-parse", "--show-toplevel"])
        .ok_or_else(|| Error::InvalidInput("deposit --auto needs a git work tree".into()))?;
    let root = Path::new(&root);
    let branch =
        git(root, &["rev-parse", "--abbrev-ref", "HEAD"]).unwrap_or_else(|| "(no branch)".into());
    if let Some(commit) = git(root, &["rev-parse", "--verify", "--quiet", "HEAD"]) {
        let id = id_for(&format!("commit:{commit}"));
        let files = outside_store(super::git::nul_paths(
            &super::git::git_raw(root, &["show", "--name-only", "-z", "--format=", &commit])
                .unwrap_or_default(),
        ));
        if !deposited(&id)? && !files.is_empty() {
            let subject = git(root, &["log", "-1", "--format=%s", &commit])
                .unwrap_or_else(|| "(no subject)".into());
            let body = git(root, &["log", "-1", "--format=%b", &commit]).unwrap_or_default();
            let stat = git(root, &["show", "--stat", "--format=", &commit]).unwrap_or_default();
            let when = git(root, &["log", "-1", "--format=%aI", &commit]);
            let author = git(root, &["log", "-1", "--format=%ae", &commit]);
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
            if let Some(t) = when.and_then(|t| crate::wire::time::parse(&t).ok()) {
                p.insert("created_at".into(), json!(crate::wire::time::format(t)));
            }
            p.insert("x-git".into(), json!({"commit": commit, "branch": branch}));
            return Ok(Some(AutoPackage { package: p, author }));
        }
    }
    // No new commit: the uncommitted changes, if any.
    // The store's own files are not work to report (and change with every deposit).
    let outside = [".", ":(exclude).relay"];
    let (status, files) = uncommitted(root);
    if files.is_empty() {
        return Ok(None);
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
        return Ok(None);
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
    Ok(Some(AutoPackage {
        package: p,
        author: None,
    }))
}
