//! Installing relay into the tools around it: git hooks and the hook files of coding agents
//! (Claude Code's `.claude/settings.json`, Codex's `.codex/hooks.json`), whose every entry runs
//! `relay hook run EVENT` (see `agent_session`). Installing twice changes nothing (a hook of an
//! earlier relay is brought up to date); existing hooks are chained or merged, not replaced,
//! and uninstalling restores what was there.
//!
//! The git hooks never stand in git's way: what they write goes to the clone's queue under
//! `.relay/local/pending/`, which git never sees, and enters the store with the next commit
//! (pre-commit runs `relay hook flush --stage`); post-merge and post-rewrite only check.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use relay_store::log;
use relay_wire::error::{Error, Result};

/// Marks the hooks relay writes.
pub const MARKER: &str = "# installed by relay (relay hook install --git)";
const BACKUP_SUFFIX: &str = "relay-backup";

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
    vec![
        (
            "post-commit",
            vec![step(
                "Records the commit in the clone's queue (.relay/local/pending/, which git never \
                 sees), once per change; nothing for commits a rebase or cherry-pick replays.",
                format!("{relay} deposit --auto --queue --quiet >/dev/null"),
            )],
        ),
        ("post-merge", vec![check()]),
        (
            "post-rewrite",
            vec![Step {
                why: "After a rebase (not an amend, which merges nothing), checks the store, \
                      read-only: it rewrites nothing git tracks.",
                only_if: Some("[ \"$1\" = rebase ]"),
                ..check()
            }],
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

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::io(format!("cannot write {}", path.display()), e)
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

/// What an install or uninstall did, one line per file.
pub type Changes = Vec<String>;

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
                log::write_atomic(&path, wanted.as_bytes())?;
                make_executable(&path)?;
                changes.push(format!("{name}: updated to this version of relay"));
            }
            continue;
        }
        let chained = existing.is_some();
        if chained {
            std::fs::rename(&path, &backup).map_err(io(&path))?;
        }
        log::write_atomic(&path, script(&steps, chained).as_bytes())?;
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

/// The coding agents whose hook files relay installs into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentFile {
    /// Claude Code: `.claude/settings.json`.
    Claude,
    /// Codex: `.codex/hooks.json` (same event → matcher → hooks shape).
    Codex,
}

/// How long the agent lets a relay hook run, in seconds. `relay hook run` gives up by itself
/// after [`crate::ops::agents::session::TIME_LIMIT`]; this is the agent's backstop.
pub const HOOK_TIMEOUT_SECS: u64 = 15;

impl AgentFile {
    /// The file under the repository's top folder.
    pub fn path(self, project_root: &Path) -> PathBuf {
        project_root.join(self.shown())
    }

    /// The file as the changes name it.
    fn shown(self) -> &'static str {
        match self {
            AgentFile::Claude => ".claude/settings.json",
            AgentFile::Codex => ".codex/hooks.json",
        }
    }

    pub(crate) fn agent(self) -> crate::ops::agents::session::Agent {
        match self {
            AgentFile::Claude => crate::ops::agents::session::Agent::Claude,
            AgentFile::Codex => crate::ops::agents::session::Agent::Codex,
        }
    }

    /// The events relay hooks, with the command each runs. Codex has no SessionEnd: a Codex
    /// session's work is deposited at a later SessionStart (see `agent_session`).
    pub fn hooks(self, relay: &str) -> Vec<(&'static str, String)> {
        let agent = self.agent();
        let name = agent.name();
        let events: &[&'static str] = match self {
            AgentFile::Claude => &["SessionStart", "PreCompact", "Stop", "SessionEnd"],
            AgentFile::Codex => &["SessionStart", "PreCompact", "Stop"],
        };
        events
            .iter()
            .map(|&event| {
                let budget = match event {
                    "SessionStart" => format!(" --max-chars {}", agent.default_max_chars()),
                    _ => String::new(),
                };
                (
                    event,
                    format!("{relay} hook run {event} --agent {name}{budget}"),
                )
            })
            .collect()
    }
}

/// Whether a hook command is relay's: this version's `relay hook run`, or the entries earlier
/// versions installed (`relay orient --md` at SessionStart, `relay deposit --auto --quiet` at
/// Stop), which install upgrades and uninstall removes.
fn is_relay_command(command: &str) -> bool {
    (command.contains(" hook run ") && command.contains(" --agent "))
        || command.ends_with(" orient --md")
        || command.ends_with(" deposit --auto --quiet")
}

/// `value` without relay's hook entries. A matcher group left with no hooks goes, and so does
/// an event left with no groups and the `hooks` object left empty, but only when relay emptied
/// them: what someone else wrote stays as it was.
fn without_relay(value: &Value) -> Value {
    let mut value = value.clone();
    let Some(hooks) = value.get_mut("hooks").and_then(Value::as_object_mut) else {
        return value;
    };
    let mut emptied = Vec::new();
    for (event, groups) in hooks.iter_mut() {
        let Some(list) = groups.as_array_mut() else {
            continue;
        };
        let before = list.len();
        for group in list.iter_mut() {
            if let Some(hs) = group.get_mut("hooks").and_then(Value::as_array_mut) {
                hs.retain(|h| {
                    !h.get("command")
                        .and_then(Value::as_str)
                        .is_some_and(is_relay_command)
                });
            }
        }
        list.retain(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|hs| !hs.is_empty())
        });
        if list.is_empty() && before > 0 {
            emptied.push(event.clone());
        }
    }
    for event in emptied {
        hooks.remove(&event);
    }
    if hooks.is_empty() {
        value.as_object_mut().map(|o| o.remove("hooks"));
    }
    value
}

fn read_json(path: &Path) -> Result<Option<Value>> {
    let value: Value = match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            Error::InvalidInput(format!(
                "{} is not valid JSON ({e}); fix it first, relay will not overwrite it",
                path.display()
            ))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(format!("cannot read {}", path.display()), e)),
    };
    let hooks_ok = value.get("hooks").is_none_or(|h| {
        h.as_object()
            .is_some_and(|o| o.values().all(Value::is_array))
    });
    if !value.is_object() || !hooks_ok {
        return Err(Error::InvalidInput(format!(
            "{} does not hold a JSON object whose `hooks` maps events to lists; fix it first",
            path.display()
        )));
    }
    Ok(Some(value))
}

fn write_json(path: &Path, value: &Value) -> Result<()> {
    let mut text = serde_json::to_vec_pretty(value).map_err(|e| Error::Integrity(e.to_string()))?;
    text.push(b'\n');
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    log::write_atomic(path, &text)
}

fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{BACKUP_SUFFIX}"));
    PathBuf::from(name)
}

/// Merges relay's hooks into the agent's hook file under `project_root`, keeping everything
/// already there; earlier relay entries are replaced. The file as it was is kept beside it
/// (`<file>.relay-backup`) for uninstall. Installing twice leaves the file's bytes as they are.
pub fn install_agent(file: AgentFile, project_root: &Path, relay: &str) -> Result<Changes> {
    let path = file.path(project_root);
    let shown = file.shown();
    let original = read_json(&path)?;
    let mut settings = without_relay(original.as_ref().unwrap_or(&json!({})));
    let hooks = settings
        .as_object_mut()
        .and_then(|o| {
            o.entry("hooks")
                .or_insert_with(|| json!({}))
                .as_object_mut()
        })
        .ok_or_else(|| Error::Integrity("hooks is an object".into()))?;
    let mut changes = Vec::new();
    for (event, command) in file.hooks(relay) {
        if let Some(list) = hooks
            .entry(event)
            .or_insert_with(|| json!([]))
            .as_array_mut()
        {
            list.push(json!({"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECS}]}));
        }
        changes.push(format!("{shown} {event}: `{command}`"));
    }
    if original.as_ref() == Some(&settings) {
        return Ok(vec![format!("{shown}: already installed")]);
    }
    let backup = backup_of(&path);
    if original.is_some() && !backup.exists() {
        std::fs::copy(&path, &backup).map_err(io(&backup))?;
    }
    write_json(&path, &settings)?;
    Ok(changes)
}

/// Removes relay's entries (this version's and earlier ones) from the agent's hook file,
/// leaving everything else. When nothing else changed since install, the file is put back
/// byte for byte; a file that held only relay's hooks (relay created it) is removed.
pub fn uninstall_agent(file: AgentFile, project_root: &Path) -> Result<Changes> {
    let path = file.path(project_root);
    let shown = file.shown();
    let Some(current) = read_json(&path)? else {
        return Ok(Vec::new());
    };
    let cleaned = without_relay(&current);
    if cleaned == current {
        return Ok(Vec::new());
    }
    let backup = backup_of(&path);
    let saved = std::fs::read(&backup).ok();
    let saved_matches = saved
        .as_deref()
        .and_then(|b| serde_json::from_slice::<Value>(b).ok())
        .is_some_and(|v| v == cleaned);
    let change = if saved_matches {
        std::fs::rename(&backup, &path).map_err(io(&path))?;
        format!("{shown}: restored as it was before relay")
    } else if cleaned == json!({}) {
        std::fs::remove_file(&path).map_err(io(&path))?;
        if let Some(dir) = path.parent() {
            let _ = std::fs::remove_dir(dir); // only when empty
        }
        format!("{shown}: removed (it held only relay's hooks)")
    } else {
        write_json(&path, &cleaned)?;
        format!("{shown}: removed relay's hooks")
    };
    if backup.exists() {
        std::fs::remove_file(&backup).map_err(io(&backup))?;
    }
    Ok(vec![change])
}

/// relay's entries in the agent's hook file, event by event in the file's order (`None` when
/// there is no file); see `probe`.
pub(crate) fn installed_commands(
    file: AgentFile,
    project_root: &Path,
) -> Result<Option<Vec<crate::ops::agents::probe::InstalledHook>>> {
    let Some(settings) = read_json(&file.path(project_root))? else {
        return Ok(None);
    };
    let mut found = Vec::new();
    let events = settings.get("hooks").and_then(Value::as_object);
    for (event, groups) in events.into_iter().flatten() {
        let hooks = groups.as_array().into_iter().flatten();
        let hooks = hooks.filter_map(|g| g.get("hooks").and_then(Value::as_array));
        for command in hooks.flatten().filter_map(|h| h.get("command")?.as_str()) {
            if is_relay_command(command) {
                found.push(crate::ops::agents::probe::InstalledHook {
                    event: event.clone(),
                    command: command.to_string(),
                });
            }
        }
    }
    Ok(Some(found))
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

    #[test]
    fn relay_entries_old_and_new_are_taken_out_and_only_what_relay_emptied_goes() {
        assert!(is_relay_command("relay hook run Stop --agent claude"));
        assert!(is_relay_command("'/opt/relay' orient --md"));
        assert!(is_relay_command("relay deposit --auto --quiet"));
        assert!(!is_relay_command("echo relay hook run"));
        let cmd = |c: &str| json!({"hooks": [{"type": "command", "command": c}]});
        let settings = json!({"model": "opus", "hooks": {
            "Stop": [cmd("echo bye"), cmd("relay hook run Stop --agent claude")],
            "SessionStart": [cmd("relay orient --md")],
            "Notification": []}});
        assert_eq!(
            without_relay(&settings),
            json!({"model": "opus", "hooks": {"Stop": [cmd("echo bye")], "Notification": []}})
        );
        let only_relay = json!({"hooks": {"Stop": [cmd("relay hook run Stop --agent codex")]}});
        assert_eq!(without_relay(&only_relay), json!({}));
        let installed = AgentFile::Codex.hooks("relay");
        assert_eq!(
            installed,
            [
                (
                    "SessionStart",
                    "relay hook run SessionStart --agent codex --max-chars 8000".to_string()
                ),
                (
                    "PreCompact",
                    "relay hook run PreCompact --agent codex".to_string()
                ),
                ("Stop", "relay hook run Stop --agent codex".to_string()),
            ]
        );
        assert!(installed.iter().all(|(_, c)| is_relay_command(c)));
    }
}
