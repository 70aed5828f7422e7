//! The little relay asks of git: the commit checked out, and who the user is. Any failure
//! (no git, not a repository) simply means "unknown".

use std::path::Path;
use std::process::{Command, Stdio};

/// Runs git in `cwd`; its trimmed stdout on success, `None` on any failure.
pub fn git(cwd: &Path, args: &[&str]) -> Option<String> {
    let text = String::from_utf8(git_raw(cwd, args)?).ok()?;
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

/// Runs git in `cwd` and returns its raw stdout (for `-z` output, where every byte counts).
pub fn git_raw(cwd: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new("git")
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

/// The paths of `git status --porcelain -z` (for a rename, the new path).
pub fn status_paths(raw: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut entries = raw.split(|&b| b == 0).filter(|e| !e.is_empty());
    while let Some(e) = entries.next() {
        if e.len() < 4 {
            continue;
        }
        out.push(String::from_utf8_lossy(&e[3..]).into_owned());
        if matches!(e[0], b'R' | b'C') || matches!(e[1], b'R' | b'C') {
            entries.next(); // the original path
        }
    }
    out
}

/// NUL-separated paths (`git show --name-only -z`).
pub fn nul_paths(raw: &[u8]) -> Vec<String> {
    raw.split(|&b| b == 0)
        .map(|p| String::from_utf8_lossy(p).trim_matches('\n').to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn porcelain_z_paths() {
        let raw = b" M a.txt\0R  c.txt\0b.txt\0?? my notes.md\0";
        assert_eq!(super::status_paths(raw), ["a.txt", "c.txt", "my notes.md"]);
        assert_eq!(
            super::nul_paths(b"\nsrc/a b.rs\0x.md\0"),
            ["src/a b.rs", "x.md"]
        );
    }
}
