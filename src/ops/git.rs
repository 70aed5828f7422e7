//! The little relay asks of git: the commit checked out, and who the user is. Any failure
//! (no git, not a repository) simply means "unknown".

use std::path::Path;
use std::process::{Command, Stdio};

/// Runs git in `cwd`; its trimmed stdout on success, `None` on any failure.
pub fn git(cwd: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// The full id of HEAD when `cwd` is inside a git work tree with at least one commit.
pub fn head_commit(cwd: &Path) -> Option<String> {
    git(cwd, &["rev-parse", "--verify", "--quiet", "HEAD"])
}

/// `git config user.email`, if set.
pub fn user_email(cwd: &Path) -> Option<String> {
    git(cwd, &["config", "user.email"])
}
