//! The coding agents' own files that relay installs its session hooks into, one table per
//! agent: where the file is, how it holds hooks, and which of the agent's events run which
//! `relay hook run EVENT`. Three shapes cover the five agents: the event → group → hooks JSON
//! of Claude Code, Codex and Gemini CLI, Cursor's flat event → commands JSON, and a plugin
//! module relay writes whole for OpenCode (`opencode`). Installing merges into what is there
//! and keeps a backup; uninstalling takes relay's entries out and restores the file when
//! nothing else changed.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::ops::agents::event::{Agent, Event};
use crate::ops::agents::files::{Changes, InstalledHook, backup_of, io, remove_empty_parent};
use crate::ops::agents::opencode;
use relay_store::ndjson;
use relay_wire::error::{Error, Result};

/// The coding agents whose hook files relay installs into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentFile {
    /// Claude Code: `.claude/settings.json`.
    Claude,
    /// Codex: `.codex/hooks.json` (same event → matcher → hooks shape).
    Codex,
    /// Gemini CLI: `.gemini/settings.json` (the same shape; timeouts in milliseconds).
    Gemini,
    /// Cursor: `.cursor/hooks.json` (`{"version": 1, "hooks": {event: [{"command"}]}}`).
    Cursor,
    /// OpenCode: a plugin module, `.opencode/plugins/relay.js`, that relay writes whole.
    OpenCode,
}

/// How long the agent lets a relay hook run, in seconds. `relay hook run` gives up by itself
/// after [`crate::ops::agents::session::TIME_LIMIT`]; this is the agent's backstop.
pub const HOOK_TIMEOUT_SECS: u64 = 15;

/// Codex's most for a SessionEnd hook, in seconds: it clamps a longer `timeout` to this and
/// warns about it in every session (codex-rs/hooks, 0.171). A session's deposit takes well
/// under a second.
pub const CODEX_SESSION_END_TIMEOUT_SECS: u64 = 3;

/// How an agent's file holds its hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `hooks.EVENT = [{"hooks": [{"type": "command", "command", "timeout"}]}]`, the timeout
    /// in the agent's unit.
    Grouped { timeout: u64 },
    /// `{"version": 1, "hooks": {EVENT: [{"command"}]}}`.
    Flat,
    /// A JS module relay writes whole.
    Plugin,
}

impl AgentFile {
    /// The file under the repository's top folder.
    pub fn path(self, project_root: &Path) -> PathBuf {
        project_root.join(self.shown())
    }

    /// The file as the changes name it.
    pub(crate) fn shown(self) -> &'static str {
        match self {
            AgentFile::Claude => ".claude/settings.json",
            AgentFile::Codex => ".codex/hooks.json",
            AgentFile::Gemini => ".gemini/settings.json",
            AgentFile::Cursor => ".cursor/hooks.json",
            AgentFile::OpenCode => opencode::PLUGIN_PATH,
        }
    }

    pub(crate) fn agent(self) -> Agent {
        match self {
            AgentFile::Claude => Agent::Claude,
            AgentFile::Codex => Agent::Codex,
            AgentFile::Gemini => Agent::Gemini,
            AgentFile::Cursor => Agent::Cursor,
            AgentFile::OpenCode => Agent::OpenCode,
        }
    }

    pub(crate) fn shape(self) -> Shape {
        match self {
            AgentFile::Claude | AgentFile::Codex => Shape::Grouped {
                timeout: HOOK_TIMEOUT_SECS,
            },
            // Gemini CLI's `timeout` is in milliseconds (docs/hooks/reference.md).
            AgentFile::Gemini => Shape::Grouped {
                timeout: HOOK_TIMEOUT_SECS * 1000,
            },
            AgentFile::Cursor => Shape::Flat,
            AgentFile::OpenCode => Shape::Plugin,
        }
    }

    /// The agent's events relay hooks, in the agent's own names, with what relay does at each.
    pub fn events(self) -> &'static [(&'static str, Event)] {
        use Event::*;
        match self {
            // Claude Code: docs.claude.com/en/docs/claude-code/hooks (2025-11).
            AgentFile::Claude => &[
                ("SessionStart", SessionStart),
                ("PreCompact", PreCompact),
                ("Stop", Stop),
                ("SessionEnd", SessionEnd),
            ],
            // Codex 0.171 (codex-rs/hooks): SessionEnd at a thread's teardown, its timeout
            // clamped to 3 s; an older Codex ignores an event it does not know, and its
            // sessions are deposited at a later SessionStart.
            AgentFile::Codex => &[
                ("SessionStart", SessionStart),
                ("PreCompact", PreCompact),
                ("Stop", Stop),
                ("SessionEnd", SessionEnd),
            ],
            // Gemini CLI: docs/hooks/reference.md of google-gemini/gemini-cli 0.56 (2026-08).
            // PreCompress fires before history is summarised, AfterAgent after every turn;
            // SessionEnd is best effort (the CLI does not wait for it), so a session it missed
            // is deposited at a later SessionStart, as Codex's are.
            AgentFile::Gemini => &[
                ("SessionStart", SessionStart),
                ("PreCompress", PreCompact),
                ("AfterAgent", Stop),
                ("SessionEnd", SessionEnd),
            ],
            // Cursor: cursor.com/docs/agent/hooks (Cursor 2026.02): camelCase names; stop
            // ends each agent loop (a turn), sessionEnd the conversation.
            AgentFile::Cursor => &[
                ("sessionStart", SessionStart),
                ("preCompact", PreCompact),
                ("stop", Stop),
                ("sessionEnd", SessionEnd),
            ],
            // OpenCode: opencode.ai/docs/plugins (2026-11): bus events, and the
            // experimental.session.compacting hook that runs before a compaction. session.idle
            // follows every turn; session.deleted is the only end OpenCode announces, so most
            // sessions are deposited at a later session.created, as Codex's are.
            AgentFile::OpenCode => &[
                ("session.created", SessionStart),
                ("experimental.session.compacting", PreCompact),
                ("session.idle", Stop),
                ("session.deleted", SessionEnd),
            ],
        }
    }

    /// The events relay hooks, with the command each runs.
    pub fn hooks(self, relay: &str) -> Vec<(&'static str, String)> {
        let agent = self.agent();
        let name = agent.name();
        self.events()
            .iter()
            .map(|&(event, does)| {
                let budget = match does {
                    Event::SessionStart => format!(" --max-chars {}", agent.default_max_chars()),
                    _ => String::new(),
                };
                let does = does.name();
                (
                    event,
                    format!("{relay} hook run {does} --agent {name}{budget}"),
                )
            })
            .collect()
    }

    /// The file relay would write when there is none, less its hooks.
    fn skeleton(self) -> Value {
        match self.shape() {
            Shape::Flat => json!({"version": 1}),
            _ => json!({}),
        }
    }

    /// The `timeout` relay writes for `event`, in the agent's unit (`None`: the file takes
    /// none).
    pub(crate) fn timeout_for(self, event: &str) -> Option<u64> {
        match (self, self.shape()) {
            (AgentFile::Codex, _) if event == "SessionEnd" => Some(CODEX_SESSION_END_TIMEOUT_SECS),
            (_, Shape::Grouped { timeout }) => Some(timeout),
            _ => None,
        }
    }

    /// One hook entry in the agent's file, under `event`.
    fn entry(self, event: &str, command: &str) -> Value {
        match (self.shape(), self.timeout_for(event)) {
            (Shape::Grouped { .. }, Some(timeout)) => {
                json!({"hooks": [{"type": "command", "command": command, "timeout": timeout}]})
            }
            _ => json!({"command": command}),
        }
    }
}

/// Whether a hook command is relay's: this version's `relay hook run`, or the entries earlier
/// versions installed (`relay orient --md` at SessionStart, `relay deposit --auto --quiet` at
/// Stop), which install upgrades and uninstall removes.
pub(crate) fn is_relay_command(command: &str) -> bool {
    (command.contains(" hook run ") && command.contains(" --agent "))
        || command.ends_with(" orient --md")
        || command.ends_with(" deposit --auto --quiet")
}

fn command_of(hook: &Value) -> Option<&str> {
    hook.get("command").and_then(Value::as_str)
}

/// The commands of one entry of an event's list: a group's `hooks`, or the entry itself.
fn commands_of(entry: &Value) -> Vec<&str> {
    match entry.get("hooks").and_then(Value::as_array) {
        Some(hooks) => hooks.iter().filter_map(command_of).collect(),
        None => command_of(entry).into_iter().collect(),
    }
}

/// `value` without relay's hook entries, in either JSON shape. A group left with no hooks
/// goes, and so does an event left with no entries and the `hooks` object left empty, but
/// only when relay emptied them: what someone else wrote stays as it was.
fn without_relay(value: &Value) -> Value {
    let mut value = value.clone();
    let Some(hooks) = value.get_mut("hooks").and_then(Value::as_object_mut) else {
        return value;
    };
    let mut emptied = Vec::new();
    for (event, entries) in hooks.iter_mut() {
        let Some(list) = entries.as_array_mut() else {
            continue;
        };
        let before = list.len();
        for entry in list.iter_mut() {
            if let Some(hs) = entry.get_mut("hooks").and_then(Value::as_array_mut) {
                hs.retain(|h| !command_of(h).is_some_and(is_relay_command));
            }
        }
        list.retain(|e| match e.get("hooks").and_then(Value::as_array) {
            Some(hs) => !hs.is_empty(),
            None => !command_of(e).is_some_and(is_relay_command),
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

pub(crate) fn read_json(path: &Path) -> Result<Option<Value>> {
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
    ndjson::write_atomic(path, &text)
}

/// Merges relay's hooks into the agent's hook file under `project_root`, keeping everything
/// already there; earlier relay entries are replaced. The file as it was is kept beside it
/// (`<file>.relay-backup`) for uninstall. Installing twice leaves the file's bytes as they are.
pub fn install_agent(file: AgentFile, project_root: &Path, relay: &str) -> Result<Changes> {
    let path = file.path(project_root);
    let shown = file.shown();
    let hooks = file.hooks(relay);
    if file.shape() == Shape::Plugin {
        return opencode::install(&path, shown, &hooks);
    }
    let original = read_json(&path)?;
    let mut settings = without_relay(original.as_ref().unwrap_or(&file.skeleton()));
    // Cursor reads a hooks file only with its `version`.
    if file.shape() == Shape::Flat
        && let Some(top) = settings.as_object_mut()
    {
        top.entry("version").or_insert_with(|| json!(1));
    }
    let listed = settings
        .as_object_mut()
        .and_then(|o| {
            o.entry("hooks")
                .or_insert_with(|| json!({}))
                .as_object_mut()
        })
        .ok_or_else(|| Error::Integrity("hooks is an object".into()))?;
    let mut changes = Vec::new();
    for (event, command) in hooks {
        if let Some(list) = listed
            .entry(event)
            .or_insert_with(|| json!([]))
            .as_array_mut()
        {
            list.push(file.entry(event, &command));
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
    if file == AgentFile::Codex {
        changes.push(CODEX_TRUST.to_string());
    }
    changes.extend(cursor_and_claude(file, project_root));
    Ok(changes)
}

/// What installing for Cursor or Claude Code found of the other: Cursor runs Claude Code's
/// hooks too when its third-party hooks are on (cursor.com/docs/reference/third-party-hooks),
/// every matching hook of every source. relay's Claude hooks do nothing when Cursor runs them
/// and relay's Cursor hooks are there, so each Cursor session is briefed once.
fn cursor_and_claude(file: AgentFile, project_root: &Path) -> Option<String> {
    let other = match file {
        AgentFile::Cursor => AgentFile::Claude,
        AgentFile::Claude => AgentFile::Cursor,
        _ => return None,
    };
    other.has_relay_hooks(project_root).then(|| {
        format!(
            "found relay's hooks in {} too: Cursor also runs .claude/settings.json's hooks when \
             its third-party hooks are on; relay's Claude Code hooks do nothing when Cursor runs \
             them, so each Cursor session is briefed once (by {})",
            other.shown(),
            AgentFile::Cursor.shown()
        )
    })
}

/// What Codex needs before it runs a project's hooks (codex-rs: the project trusted in
/// `~/.codex/config.toml`, each hook's command reviewed and its hash trusted; untrusted hooks
/// are dropped without a word).
pub const CODEX_TRUST: &str = "Codex runs these hooks only in a trusted project, once you \
     have reviewed them: run `codex` in this repository, trust the project when it asks, then \
     choose \"Trust all and continue\" at \"Hooks need review\" (or trust each hook under \
     /hooks). Codex asks again whenever a hook's command changes (a new relay path); `relay \
     doctor` says whether Codex trusts them now.";

/// Removes relay's entries (this version's and earlier ones) from the agent's hook file,
/// leaving everything else. When nothing else changed since install, the file is put back
/// byte for byte; a file that held only relay's hooks (relay created it) is removed.
pub fn uninstall_agent(file: AgentFile, project_root: &Path) -> Result<Changes> {
    let path = file.path(project_root);
    let shown = file.shown();
    if file.shape() == Shape::Plugin {
        return opencode::uninstall(&path, shown);
    }
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
    } else if cleaned == file.skeleton() || cleaned == json!({}) {
        std::fs::remove_file(&path).map_err(io(&path))?;
        remove_empty_parent(&path);
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
) -> Result<Option<Vec<InstalledHook>>> {
    let path = file.path(project_root);
    if file.shape() == Shape::Plugin {
        return opencode::installed(&path);
    }
    let Some(settings) = read_json(&path)? else {
        return Ok(None);
    };
    let mut found = Vec::new();
    let events = settings.get("hooks").and_then(Value::as_object);
    for (event, entries) in events.into_iter().flatten() {
        for entry in entries.as_array().into_iter().flatten() {
            for command in commands_of(entry)
                .into_iter()
                .filter(|c| is_relay_command(c))
            {
                found.push(InstalledHook {
                    event: event.clone(),
                    command: command.to_string(),
                });
            }
        }
    }
    Ok(Some(found))
}

#[cfg(test)]
mod tests {
    use super::*;

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
                (
                    "SessionEnd",
                    "relay hook run SessionEnd --agent codex".to_string()
                ),
            ]
        );
        assert!(installed.iter().all(|(_, c)| is_relay_command(c)));
    }

    #[test]
    fn cursors_flat_entries_are_merged_read_back_and_taken_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = AgentFile::Cursor.path(dir.path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let theirs = "{\"version\": 1, \"hooks\": {\"stop\": [{\"command\": \"./audit.sh\"}]}}";
        std::fs::write(&path, theirs).unwrap();
        let changes = install_agent(AgentFile::Cursor, dir.path(), "relay").unwrap();
        assert_eq!(
            changes[0],
            ".cursor/hooks.json sessionStart: `relay hook run SessionStart --agent cursor --max-chars 8000`"
        );
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            v["hooks"]["stop"],
            json!([{"command": "./audit.sh"}, {"command": "relay hook run Stop --agent cursor"}])
        );
        assert_eq!(v["version"], 1);
        let hooks = installed_commands(AgentFile::Cursor, dir.path())
            .unwrap()
            .unwrap();
        let events: Vec<&str> = hooks.iter().map(|h| h.event.as_str()).collect();
        assert_eq!(events, ["stop", "sessionStart", "preCompact", "sessionEnd"]);
        assert_eq!(
            uninstall_agent(AgentFile::Cursor, dir.path()).unwrap(),
            [".cursor/hooks.json: restored as it was before relay"]
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
        // A file relay created holds `version` besides the hooks, and still goes.
        std::fs::remove_file(&path).unwrap();
        install_agent(AgentFile::Cursor, dir.path(), "relay").unwrap();
        assert_eq!(
            uninstall_agent(AgentFile::Cursor, dir.path()).unwrap(),
            [".cursor/hooks.json: removed (it held only relay's hooks)"]
        );
        assert!(!dir.path().join(".cursor").exists());
    }

    #[test]
    fn gemini_gets_the_grouped_shape_with_its_timeout_in_milliseconds() {
        let dir = tempfile::tempdir().unwrap();
        install_agent(AgentFile::Gemini, dir.path(), "relay").unwrap();
        let path = AgentFile::Gemini.path(dir.path());
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let events: Vec<&String> = v["hooks"].as_object().unwrap().keys().collect();
        assert_eq!(
            events,
            ["SessionStart", "PreCompress", "AfterAgent", "SessionEnd"]
        );
        assert_eq!(
            v["hooks"]["PreCompress"],
            json!([{"hooks": [{"type": "command", "timeout": 15000,
                "command": "relay hook run PreCompact --agent gemini"}]}])
        );
    }
}
