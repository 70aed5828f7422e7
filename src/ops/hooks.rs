//! Installing relay into the tools around it: git hooks (post-commit deposits the commit,
//! post-merge checks and repairs the store) and Claude Code's settings (orient at session
//! start, deposit at stop). Installing twice changes nothing; existing hooks are chained, not
//! replaced, and kept in a backup that uninstalling restores.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::store::log;

/// Marks the hooks relay writes.
pub const MARKER: &str = "# installed by relay (relay hook install --git)";
const BACKUP_SUFFIX: &str = "relay-backup";

/// The git hooks relay installs, with the relay command each runs.
pub fn git_hooks(relay: &str) -> Vec<(&'static str, String)> {
    vec![
        (
            "post-commit",
            format!("{relay} deposit --auto --quiet >/dev/null"),
        ),
        ("post-merge", format!("{relay} verify --fix --quiet")),
        ("pre-commit", format!("{relay} scan --staged --quiet")),
    ]
}

fn script(command: &str, chained: bool) -> String {
    let mut s = if command.contains(" scan --staged") {
        // The one hook that blocks: a credential about to be committed (exit 4). Any other
        // failure of relay lets the commit through.
        format!(
            "#!/bin/sh\n{MARKER}\n# Blocks a commit that stages credentials in the relay store.\n{command}\nstatus=$?\nif [ \"$status\" -eq 4 ]; then\n  echo \"relay: commit blocked: remove the credentials above from the staged store lines\" >&2\n  exit 1\nfi\n"
        )
    } else {
        format!(
            "#!/bin/sh\n{MARKER}\n# It never blocks or fails git: relay reports problems on stderr and exits 0.\n{command} || true\n"
        )
    };
    if chained {
        s.push_str(&format!("# The hook that was here before relay's, kept and still run:\nif [ -x \"$0.{BACKUP_SUFFIX}\" ]; then exec \"$0.{BACKUP_SUFFIX}\" \"$@\"; fi\n"));
    }
    s
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
/// `<hook>.relay-backup` and called after relay's.
pub fn install_git(hooks_dir: &Path, relay: &str) -> Result<Changes> {
    std::fs::create_dir_all(hooks_dir).map_err(io(hooks_dir))?;
    let mut changes = Vec::new();
    for (name, command) in git_hooks(relay) {
        let path = hooks_dir.join(name);
        let backup = hooks_dir.join(format!("{name}.{BACKUP_SUFFIX}"));
        let existing = std::fs::read_to_string(&path).ok();
        if existing.as_deref().is_some_and(|s| s.contains(MARKER)) {
            changes.push(format!("{name}: already installed"));
            continue;
        }
        let chained = existing.is_some();
        if chained {
            std::fs::rename(&path, &backup).map_err(io(&path))?;
        }
        log::write_atomic(&path, script(&command, chained).as_bytes())?;
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

/// The Claude Code hooks relay adds: orient into the agent's context at session start, and an
/// automatic deposit at stop.
pub fn claude_hooks(relay: &str) -> Vec<(&'static str, String)> {
    vec![
        ("SessionStart", format!("{relay} orient --md")),
        ("Stop", format!("{relay} deposit --auto --quiet")),
    ]
}

fn has_command(entries: &Value, command: &str) -> bool {
    entries.as_array().is_some_and(|list| {
        list.iter().any(|e| {
            e.get("hooks").and_then(Value::as_array).is_some_and(|hs| {
                hs.iter()
                    .any(|h| h.get("command").and_then(Value::as_str) == Some(command))
            })
        })
    })
}

/// Merges relay's hooks into `.claude/settings.json` under `project_root`, keeping everything
/// already there (a backup of the original is kept beside it).
pub fn install_claude(project_root: &Path, relay: &str) -> Result<Changes> {
    let path = project_root.join(".claude").join("settings.json");
    let mut settings: Value = match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            Error::InvalidInput(format!(
                "{} is not valid JSON ({e}); fix it first, relay will not overwrite it",
                path.display()
            ))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => return Err(Error::io(format!("cannot read {}", path.display()), e)),
    };
    if !settings.is_object() {
        return Err(Error::InvalidInput(format!(
            "{} does not hold a JSON object",
            path.display()
        )));
    }
    let mut changes = Vec::new();
    let mut changed = false;
    for (event, command) in claude_hooks(relay) {
        let hooks = settings.as_object_mut().and_then(|o| {
            o.entry("hooks")
                .or_insert_with(|| json!({}))
                .as_object_mut()
        });
        let Some(hooks) = hooks else {
            return Err(Error::InvalidInput(format!(
                "`hooks` in {} is not an object",
                path.display()
            )));
        };
        let list = hooks.entry(event).or_insert_with(|| json!([]));
        if has_command(list, &command) {
            changes.push(format!("{event}: already installed"));
            continue;
        }
        let Some(list) = list.as_array_mut() else {
            return Err(Error::InvalidInput(format!(
                "`hooks.{event}` in {} is not a list",
                path.display()
            )));
        };
        list.push(json!({"hooks": [{"type": "command", "command": command}]}));
        changes.push(format!("{event}: added `{command}`"));
        changed = true;
    }
    if changed {
        let backup = path.with_extension(format!("json.{BACKUP_SUFFIX}"));
        if path.exists() && !backup.exists() {
            std::fs::copy(&path, &backup).map_err(io(&backup))?;
        }
        let mut text =
            serde_json::to_vec_pretty(&settings).map_err(|e| Error::Integrity(e.to_string()))?;
        text.push(b'\n');
        log::write_atomic(&path, &text)?;
    }
    Ok(changes)
}

/// Removes relay's entries from `.claude/settings.json`, leaving everything else.
pub fn uninstall_claude(project_root: &Path) -> Result<Changes> {
    let path = project_root.join(".claude").join("settings.json");
    let Ok(bytes) = std::fs::read(&path) else {
        return Ok(Vec::new());
    };
    let Ok(mut settings) = serde_json::from_slice::<Value>(&bytes) else {
        return Ok(Vec::new());
    };
    let mut changes = Vec::new();
    if let Some(hooks) = settings.get_mut("hooks").and_then(Value::as_object_mut) {
        for (event, _) in claude_hooks("relay") {
            if let Some(list) = hooks.get_mut(event).and_then(Value::as_array_mut) {
                let before = list.len();
                list.retain(|e| {
                    !e.get("hooks").and_then(Value::as_array).is_some_and(|hs| {
                        hs.iter().any(|h| {
                            h.get("command").and_then(Value::as_str).is_some_and(|c| {
                                c.contains(" orient --md") || c.contains(" deposit --auto")
                            })
                        })
                    })
                });
                if list.len() != before {
                    changes.push(format!("{event}: removed relay's hook"));
                }
            }
        }
    }
    if !changes.is_empty() {
        let mut text =
            serde_json::to_vec_pretty(&settings).map_err(|e| Error::Integrity(e.to_string()))?;
        text.push(b'\n');
        log::write_atomic(&path, &text)?;
    }
    Ok(changes)
}

/// Where git keeps the hooks of the repository at `cwd` (honouring `core.hooksPath`).
pub fn git_hooks_dir(cwd: &Path) -> Result<PathBuf> {
    let dir = super::git::git(cwd, &["rev-parse", "--git-path", "hooks"]).ok_or_else(|| {
        Error::InvalidInput(
            "not inside a git repository: run this in the repository to hook".into(),
        )
    })?;
    Ok(cwd.join(dir))
}
