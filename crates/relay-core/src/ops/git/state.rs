//! What git is in the middle of, as relay's hooks see it: the repository's git folder (a
//! linked worktree's own), whether the commit being made replays an earlier one (a rebase,
//! `git pull --rebase`, a cherry-pick), and whether adding to the index now is safe.
//!
//! Read from git's state files and the environment git gives its hooks, as git 2.47 leaves
//! them: during a rebase (`git rebase`, `git pull --rebase`) `post-commit` runs once per
//! replayed commit with `rebase-merge/` (or `rebase-apply/`) and `CHERRY_PICK_HEAD` present; a
//! cherry-pick runs it with `CHERRY_PICK_HEAD` (and, picking several, `sequencer/`) present;
//! `GIT_REFLOG_ACTION` is set only under `git pull` (`pull --rebase …`), so it is a second
//! sign, never the only one. `pre-commit` does not run for replayed commits. A commit of named
//! paths (`git commit -- FILE`) runs `pre-commit` with `GIT_INDEX_FILE` naming a temporary
//! index (`next-index-*.lock`), where an added file would not reach the real index.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::resolve::environment::Environment;
use crate::resolve::environment::{GIT_INDEX_FILE, GIT_REFLOG_ACTION};

/// The git folder of the work tree at `cwd` (`git rev-parse --git-dir`), as an absolute path.
pub fn git_dir(cwd: &Path) -> Option<PathBuf> {
    let dir = crate::ops::git::git(cwd, &["rev-parse", "--git-dir"])?;
    Some(cwd.join(dir))
}

/// What replays commits: the name of it, when the commit being made at `cwd` is a replay of
/// one made before; `None` for a new commit (or outside git).
pub fn replaying(cwd: &Path) -> Option<&'static str> {
    let action = Environment::process().text(GIT_REFLOG_ACTION);
    replaying_in(&git_dir(cwd)?, action)
}

fn replaying_in(git_dir: &Path, reflog_action: Option<&str>) -> Option<&'static str> {
    if git_dir.join("rebase-merge").exists() || git_dir.join("rebase-apply").exists() {
        return Some("a rebase");
    }
    if git_dir.join("CHERRY_PICK_HEAD").exists() {
        return Some("a cherry-pick");
    }
    let todo = std::fs::read_to_string(git_dir.join("sequencer").join("todo")).unwrap_or_default();
    if todo
        .lines()
        .any(|l| l.starts_with("pick ") || l.starts_with("p "))
    {
        return Some("a cherry-pick");
    }
    let action = reflog_action.unwrap_or_default();
    let words: Vec<&str> = action.split_whitespace().collect();
    match words.first().copied() {
        Some("rebase") => Some("a rebase"),
        Some("cherry-pick") => Some("a cherry-pick"),
        Some("pull")
            if words
                .iter()
                .any(|w| *w == "-r" || *w == "--rebase" || w.starts_with("--rebase=")) =>
        {
            Some("a rebase")
        }
        _ => None,
    }
}

/// Why adding to git's index at `cwd` now would be unsafe, if it would: git is committing
/// named paths through a temporary index, or a rebase, cherry-pick, revert or sequence of them
/// is under way (what is staged then belongs to the commit being replayed).
pub fn staging_unsafe(cwd: &Path) -> Option<String> {
    let Some(dir) = git_dir(cwd) else {
        return Some("this is not a git work tree".into());
    };
    let index = Environment::process().os(GIT_INDEX_FILE);
    staging_unsafe_in(&dir, cwd, index)
}

/// Whether the commit git is making at `cwd` holds nothing yet: nothing staged (in the index
/// git gives the hook) differs from HEAD, and no merge is being concluded. git decides that
/// its commit is empty before it runs `pre-commit`, so what the hook stages then would be left
/// staged in a commit git refuses.
pub fn nothing_staged(cwd: &Path) -> bool {
    if git_dir(cwd).is_some_and(|d| d.join("MERGE_HEAD").exists()) {
        return false;
    }
    std::process::Command::new("git")
        .args(["diff", "--cached", "--quiet", "--ignore-submodules=none"])
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.code() == Some(0))
}

fn staging_unsafe_in(git_dir: &Path, cwd: &Path, index: Option<&OsStr>) -> Option<String> {
    if let Some(index) = index.filter(|i| !i.is_empty()) {
        let index = cwd.join(index);
        let name = index
            .file_name()
            .and_then(OsStr::to_str)
            .unwrap_or_default();
        let same_dir = match (
            index.parent().map(Path::canonicalize),
            git_dir.canonicalize(),
        ) {
            (Some(Ok(a)), Ok(b)) => a == b,
            _ => false,
        };
        if !same_dir || !matches!(name, "index" | "index.lock") {
            return Some(format!(
                "git is committing through a temporary index ({}), as `git commit -- PATHS` does",
                index.display()
            ));
        }
    }
    for (file, what) in [
        ("rebase-merge", "a rebase"),
        ("rebase-apply", "a rebase"),
        ("CHERRY_PICK_HEAD", "a cherry-pick"),
        ("REVERT_HEAD", "a revert"),
        ("sequencer", "a cherry-pick or revert of several commits"),
    ] {
        if git_dir.join(file).exists() {
            return Some(format!("{what} is in progress"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_are_told_by_state_files_and_by_pulls_reflog_action() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        assert_eq!(replaying_in(dir, None), None);
        assert_eq!(replaying_in(dir, Some("")), None);
        assert_eq!(replaying_in(dir, Some("pull -q origin main")), None);
        assert_eq!(
            replaying_in(dir, Some("pull -q --rebase origin main")),
            Some("a rebase")
        );
        assert_eq!(replaying_in(dir, Some("pull -r")), Some("a rebase"));
        assert_eq!(replaying_in(dir, Some("rebase (pick)")), Some("a rebase"));
        assert_eq!(
            replaying_in(dir, Some("cherry-pick")),
            Some("a cherry-pick")
        );
        // A revert of several commits is new work, not a replay.
        std::fs::create_dir(dir.join("sequencer")).unwrap();
        std::fs::write(dir.join("sequencer/todo"), "revert 1234 a\n").unwrap();
        assert_eq!(replaying_in(dir, None), None);
        std::fs::write(dir.join("sequencer/todo"), "pick 1234 a\npick 5678 b\n").unwrap();
        assert_eq!(replaying_in(dir, None), Some("a cherry-pick"));
        std::fs::remove_dir_all(dir.join("sequencer")).unwrap();
        std::fs::write(dir.join("CHERRY_PICK_HEAD"), "1234\n").unwrap();
        assert_eq!(replaying_in(dir, None), Some("a cherry-pick"));
        std::fs::create_dir(dir.join("rebase-merge")).unwrap();
        assert_eq!(replaying_in(dir, None), Some("a rebase"));
    }

    #[test]
    fn staging_is_unsafe_through_a_temporary_index_or_during_a_sequence() {
        let tmp = tempfile::tempdir().unwrap();
        let work = tmp.path();
        let git = work.join(".git");
        std::fs::create_dir(&git).unwrap();
        let os = |s: &str| std::ffi::OsString::from(s);
        assert_eq!(staging_unsafe_in(&git, work, None), None);
        assert_eq!(staging_unsafe_in(&git, work, Some(&os(".git/index"))), None);
        let lock = git.join("index.lock");
        assert_eq!(staging_unsafe_in(&git, work, Some(lock.as_os_str())), None);
        let temporary = staging_unsafe_in(&git, work, Some(&os(".git/next-index-42.lock")));
        assert!(temporary.unwrap().contains("temporary index"));
        let elsewhere = work.join("index");
        assert!(staging_unsafe_in(&git, work, Some(elsewhere.as_os_str())).is_some());
        for (file, what) in [
            ("REVERT_HEAD", "a revert is in progress"),
            ("CHERRY_PICK_HEAD", "a cherry-pick is in progress"),
            ("rebase-apply", "a rebase is in progress"),
        ] {
            std::fs::write(git.join(file), "").unwrap();
            assert_eq!(staging_unsafe_in(&git, work, None).as_deref(), Some(what));
        }
    }
}
