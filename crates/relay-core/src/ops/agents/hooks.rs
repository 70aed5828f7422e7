//! Installing relay into the tools around it: git hooks, and the hook files of coding agents
//! (in `agent_files`, re-exported here), whose every entry runs `relay hook run EVENT` (see
//! `session`). Installing twice changes nothing (a hook of an earlier relay is brought up to
//! date); existing hooks are chained or merged, not replaced, and uninstalling restores what
//! was there.
//!
//! The git hooks never stand in git's way: what they write goes to the clone's queue under
//! `.relay/local/pending/`, which git never sees, and enters the store with the next commit
//! (pre-commit runs `relay hook flush --stage`); post-merge and post-rewrite put back into
//! the queue what the move took from the store (`relay hook reconcile`) and check. Every
//! queued record is also journaled under git's common dir, where no git move reaches.

use std::path::{Path, PathBuf};

use relay_store::ndjson;
use relay_wire::error::{Error, Result};

pub use crate::ops::agents::agent_files::{
    AgentFile, HOOK_TIMEOUT_SECS, install_agent, uninstall_agent,
};
pub use crate::ops::agents::files::Changes;
use crate::ops::agents::files::{BACKUP_SUFFIX, io};

/// Marks the hooks relay writes.
pub const MARKER: &str = "# installed by relay (relay hook install --git)";

/// One relay command a git hook runs, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub why: &'static str,
    pub command: String,
    /// Whether its failure stops git (only the credential scan: exit 4 blocks the commit).
    pub blocks: bool,
    /// A shell test the step runs under (the hook's arguments are `$1`…), if any.
    pub only_if: Option<&'static str>,
}

fn step(why: &'static str, command: String) -> Step {
    Step {
        why,
        command,
        blocks: false,
        only_if: None,
    }
}

/// The git hooks relay installs, with the relay commands each runs.
pub fn git_hooks(relay: &str) -> Vec<(&'static str, Vec<Step>)> {
    let check = || {
        step(
            "Checks the store, read-only: it rewrites nothing git tracks.",
            format!("{relay} verify --quiet"),
        )
    };
    let reconcile = || {
        step(
            "Puts back into the queue the hook records this git move took from the store (the \
             clone's journal keeps them), and forgets those the upstream now holds.",
            format!("{relay} hook reconcile --quiet"),
        )
    };
    vec![
        (
            "post-commit",
            vec![step(
                "Records the commit in the clone's queue (.relay/local/pending/, which git never \
                 sees), once per change; nothing for commits a rebase or cherry-pick replays.",
                format!("{relay} deposit --auto --queue --quiet >/dev/null"),
            )],
        ),
        ("post-merge", vec![reconcile(), check()]),
        (
            "post-rewrite",
            vec![
                reconcile(),
                Step {
                    why: "After a rebase (not an amend, which merges nothing), checks the store, \
                          read-only: it rewrites nothing git tracks.",
                    only_if: Some("[ \"$1\" = rebase ]"),
                    ..check()
                },
            ],
        ),
        (
            "pre-commit",
            vec![
                step(
                    "Moves what relay's hooks queued into the store and stages it, so it enters \
                     this commit (not during a rebase, cherry-pick or revert, for a commit of \
                     named paths, or when nothing else is staged).",
                    format!("{relay} hook flush --stage --quiet"),
                ),
                Step {
                    why: "Blocks a commit that stages credentials in the relay store.",
                    command: format!("{relay} scan --staged --quiet"),
                    blocks: true,
                    only_if: None,
                },
            ],
        ),
    ]
}

fn script(steps: &[Step], chained: bool) -> String {
    let mut s = format!(
        "#!/bin/sh\n{MARKER}\n# relay's steps never block or fail git; only pre-commit's credential scan stops a commit.\n"
    );
    for st in steps {
        s.push_str(&format!("# {}\n", st.why));
        if st.blocks {
            s.push_str(&format!(
                "{} </dev/null\nstatus=$?\nif [ \"$status\" -eq 4 ]; then\n  echo \"relay: commit blocked: remove the credentials above from the staged store lines\" >&2\n  exit 1\nfi\n",
                st.command
            ));
        } else if let Some(test) = st.only_if {
            s.push_str(&format!(
                "if {test}; then\n  {} </dev/null || true\nfi\n",
                st.command
            ));
        } else {
            s.push_str(&format!("{} </dev/null || true\n", st.command));
        }
    }
    if chained {
        s.push_str(&format!("# The hook that was here before relay's, kept and still run:\nif [ -x \"$0.{BACKUP_SUFFIX}\" ]; then exec \"$0.{BACKUP_SUFFIX}\" \"$@\"; fi\n"));
    }
    s
}

/// Whether the pre-commit hook in `hooks_dir` is relay's and moves the queue into the store.
pub fn flushes_at_commit(hooks_dir: &Path) -> bool {
    std::fs::read_to_string(hooks_dir.join("pre-commit"))
        .is_ok_and(|s| s.contains(MARKER) && s.contains(" hook flush --stage"))
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(io(path))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<()> {
    Ok(())
}

/// Installs the git hooks into `hooks_dir`. An existing hook of someone else's is renamed to
/// `<hook>.relay-backup` and called after relay's; a hook an earlier relay installed is
/// rewritten as this one writes it, its chain kept.
pub fn install_git(hooks_dir: &Path, relay: &str) -> Result<Changes> {
    std::fs::create_dir_all(hooks_dir).map_err(io(hooks_dir))?;
    let mut changes = Vec::new();
    for (name, steps) in git_hooks(relay) {
        let path = hooks_dir.join(name);
        let backup = hooks_dir.join(format!("{name}.{BACKUP_SUFFIX}"));
        let existing = std::fs::read_to_string(&path).ok();
        if let Some(ours) = existing.as_deref().filter(|s| s.contains(MARKER)) {
            let wanted = script(&steps, backup.exists());
            if ours == wanted {
                changes.push(format!("{name}: already installed"));
            } else {
                ndjson::write_atomic(&path, wanted.as_bytes())?;
                make_executable(&path)?;
                changes.push(format!("{name}: updated to this version of relay"));
            }
            continue;
        }
        let chained = existing.is_some();
        if chained {
            std::fs::rename(&path, &backup).map_err(io(&path))?;
        }
        ndjson::write_atomic(&path, script(&steps, chained).as_bytes())?;
        make_executable(&path)?;
        changes.push(if chained {
            format!("{name}: installed; the existing hook is kept as {name}.{BACKUP_SUFFIX} and still runs")
        } else {
            format!("{name}: installed")
        });
    }
    Ok(changes)
}

/// Removes relay's git hooks and puts back what was there before.
pub fn uninstall_git(hooks_dir: &Path) -> Result<Changes> {
    let mut changes = Vec::new();
    for (name, _) in git_hooks("relay") {
        let path = hooks_dir.join(name);
        let backup = hooks_dir.join(format!("{name}.{BACKUP_SUFFIX}"));
        let ours = std::fs::read_to_string(&path).is_ok_and(|s| s.contains(MARKER));
        if !ours {
            continue;
        }
        if backup.exists() {
            std::fs::rename(&backup, &path).map_err(io(&path))?;
            changes.push(format!("{name}: restored the hook that was there before"));
        } else {
            std::fs::remove_file(&path).map_err(io(&path))?;
            changes.push(format!("{name}: removed"));
        }
    }
    Ok(changes)
}

/// Where git keeps the hooks of the repository at `cwd` (honouring `core.hooksPath`).
pub fn git_hooks_dir(cwd: &Path) -> Result<PathBuf> {
    let dir =
        crate::ops::git::git(cwd, &["rev-parse", "--git-path", "hooks"]).ok_or_else(|| {
            Error::InvalidInput(
                "not inside a git repository: run this in the repository to hook".into(),
            )
        })?;
    Ok(cwd.join(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_hooks_queue_check_and_flush_and_an_older_relays_hook_is_updated() {
        let dir = tempfile::tempdir().unwrap();
        let hooks = dir.path();
        let names: Vec<&str> = git_hooks("relay").iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            ["post-commit", "post-merge", "post-rewrite", "pre-commit"]
        );
        // An earlier relay's post-merge repaired the store (`verify --fix`), and someone's
        // hook was chained after it.
        std::fs::write(
            hooks.join("post-merge"),
            format!("#!/bin/sh\n{MARKER}\nrelay verify --fix --quiet || true\n"),
        )
        .unwrap();
        std::fs::write(
            hooks.join("post-merge.relay-backup"),
            "#!/bin/sh\necho mine\n",
        )
        .unwrap();
        let changes = install_git(hooks, "relay").unwrap();
        assert_eq!(
            changes,
            [
                "post-commit: installed",
                "post-merge: updated to this version of relay",
                "post-rewrite: installed",
                "pre-commit: installed"
            ]
        );
        let read = |name: &str| std::fs::read_to_string(hooks.join(name)).unwrap();
        let merge = read("post-merge");
        assert!(
            merge.contains("\nrelay verify --quiet </dev/null || true\n"),
            "{merge}"
        );
        assert!(!merge.contains("--fix"), "{merge}");
        for hook in ["post-merge", "post-rewrite"] {
            let text = read(hook);
            let (reconcile, verify) = (
                text.find("\nrelay hook reconcile --quiet </dev/null || true\n"),
                text.find("relay verify --quiet"),
            );
            assert!(
                reconcile.is_some() && reconcile < verify,
                "the queue is set right before the check: {text}"
            );
        }
        assert!(
            merge.contains("exec \"$0.relay-backup\""),
            "the chain is kept: {merge}"
        );
        assert!(
            read("post-rewrite").contains(
                "if [ \"$1\" = rebase ]; then\n  relay verify --quiet </dev/null || true\nfi\n"
            ),
            "{}",
            read("post-rewrite")
        );
        assert!(read("post-commit").contains("relay deposit --auto --queue --quiet"));
        let pre = read("pre-commit");
        let (flush, scan) = (
            pre.find("hook flush --stage").unwrap(),
            pre.find("scan --staged").unwrap(),
        );
        assert!(
            flush < scan,
            "the queue enters before the scan reads what is staged: {pre}"
        );
        assert!(flushes_at_commit(hooks));
        assert!(
            install_git(hooks, "relay")
                .unwrap()
                .iter()
                .all(|c| c.ends_with("already installed"))
        );
        let removed = uninstall_git(hooks).unwrap();
        assert_eq!(removed.len(), 4, "{removed:?}");
        assert_eq!(read("post-merge"), "#!/bin/sh\necho mine\n");
        assert!(!flushes_at_commit(hooks));
    }
}
