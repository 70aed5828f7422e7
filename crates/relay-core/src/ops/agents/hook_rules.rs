//! relay's entries in an agent's hook file judged by the agent's own rules, so that `relay
//! doctor` never calls "ok" a hook the agent ignores or cuts short: the event names each agent
//! knows, in their case (Claude Code, Codex and Gemini CLI use PascalCase, Cursor camelCase;
//! a key in another case is another event, never fired); the members each agent needs (a
//! grouped entry's `hooks` list, each hook's `"type": "command"`, without which Gemini CLI
//! discards it; Cursor's `"version": 1`); and the unit of `timeout` (seconds for Claude Code
//! and Codex, milliseconds for Gemini CLI: `"timeout": 15` there cuts a hook off after 15 ms).
//! OpenCode's plugin is JavaScript: doctor has it parsed by node.

use std::path::Path;

use serde_json::Value;

use crate::ops::agents::agent_files::{
    AgentFile, CODEX_SESSION_END_TIMEOUT_SECS, Shape, is_relay_command, read_json,
};
use crate::ops::agents::session::TIME_LIMIT;
use relay_wire::error::Result;

/// What is wrong with relay's entries in `file` under `project_root`, as the agent reads the
/// file: one sentence each, naming the entry. Empty when all is well or there is no file.
pub fn problems(file: AgentFile, project_root: &Path) -> Result<Vec<String>> {
    let shape = file.shape();
    if shape == Shape::Plugin {
        return Ok(Vec::new());
    }
    let Some(settings) = read_json(&file.path(project_root))? else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    let agent = file.agent().label();
    if shape == Shape::Flat && settings.get("version") != Some(&Value::from(1)) {
        found.push(format!(
            "{agent} reads a hooks file only with \"version\": 1 at its top"
        ));
    }
    let events = settings.get("hooks").and_then(Value::as_object);
    for (event, entries) in events.into_iter().flatten() {
        let entries = entries.as_array().map(Vec::as_slice).unwrap_or_default();
        let ours: Vec<&Value> = entries.iter().filter(|e| holds_relay(e)).collect();
        if ours.is_empty() {
            continue;
        }
        if !file.events().iter().any(|(name, _)| name == event) {
            let hint = file
                .events()
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(event))
                .map_or(String::new(), |(name, _)| {
                    format!(" (its names are case-sensitive: `{name}`)")
                });
            found.push(format!(
                "relay's hook under `{event}` never runs: {agent} has no event `{event}`{hint}"
            ));
            continue;
        }
        for entry in ours {
            found.extend(entry_problems(file, agent, event, entry));
        }
    }
    Ok(found)
}

/// Whether an entry of an event's list holds a relay command, in either shape.
fn holds_relay(entry: &Value) -> bool {
    let is_ours = |h: &Value| {
        h.get("command")
            .and_then(Value::as_str)
            .is_some_and(is_relay_command)
    };
    is_ours(entry)
        || entry
            .get("hooks")
            .and_then(Value::as_array)
            .is_some_and(|hs| hs.iter().any(is_ours))
}

/// What the agent makes of one entry holding relay's command under `event`.
fn entry_problems(file: AgentFile, agent: &str, event: &str, entry: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let Shape::Grouped { timeout: wanted } = file.shape() else {
        return found;
    };
    let Some(hooks) = entry.get("hooks").and_then(Value::as_array) else {
        found.push(format!(
            "relay's `{event}` entry is not inside a `hooks` list, where {agent} looks for \
             commands"
        ));
        return found;
    };
    let per_second = wanted / crate::ops::agents::agent_files::HOOK_TIMEOUT_SECS;
    let unit = if per_second == 1 {
        "seconds"
    } else {
        "milliseconds"
    };
    for hook in hooks.iter().filter(|h| {
        h.get("command")
            .and_then(Value::as_str)
            .is_some_and(is_relay_command)
    }) {
        if hook.get("type").and_then(Value::as_str) != Some("command") {
            found.push(format!(
                "relay's `{event}` hook has no \"type\": \"command\", and {agent} discards a \
                 hook without it"
            ));
        }
        let most = (file == AgentFile::Codex && event == "SessionEnd")
            .then_some(CODEX_SESSION_END_TIMEOUT_SECS);
        let installs = file.timeout_for(event).unwrap_or(wanted);
        match hook.get("timeout") {
            // Codex gives a SessionEnd hook 1 s unless told (codex-rs/hooks 0.171).
            None if most.is_some() => found.push(format!(
                "relay's `{event}` hook has no \"timeout\", and {agent} then gives it 1 s: too \
                 short for a session's deposit (relay installs {installs})"
            )),
            None => {}
            Some(t) => match (t.as_f64(), most) {
                (None, _) => found.push(format!(
                    "relay's `{event}` hook has a \"timeout\" that is not a number"
                )),
                (Some(t), Some(most)) if t > most as f64 => found.push(format!(
                    "relay's `{event}` hook has \"timeout\": {t}, which {agent} cuts to {most} \
                     s, warning about it in every session (relay installs {most})"
                )),
                (Some(t), Some(_)) if t >= 1.0 => {}
                (Some(t), _) if t >= (TIME_LIMIT.as_secs() * per_second) as f64 => {}
                (Some(t), _) => found.push(format!(
                    "relay's `{event}` hook has \"timeout\": {t}, which {agent} reads in {unit}: \
                     too short for relay's {} s (relay installs {installs})",
                    TIME_LIMIT.as_secs()
                )),
            },
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::agents::agent_files::install_agent;

    /// Installs relay for `file` in a fresh folder, then lets `edit` break the file's JSON.
    fn broken(file: AgentFile, edit: impl FnOnce(&mut Value)) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        install_agent(file, dir.path(), "relay").unwrap();
        assert_eq!(problems(file, dir.path()).unwrap(), Vec::<String>::new());
        let path = file.path(dir.path());
        let mut v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        edit(&mut v);
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        let found = problems(file, dir.path()).unwrap();
        // Installing again mends it.
        install_agent(file, dir.path(), "relay").unwrap();
        assert_eq!(problems(file, dir.path()).unwrap(), Vec::<String>::new());
        found
    }

    fn rename(v: &mut Value, from: &str, to: &str) {
        let hooks = v["hooks"].as_object_mut().unwrap();
        let entry = hooks.remove(from).unwrap();
        hooks.insert(to.to_string(), entry);
    }

    #[test]
    fn each_agent_s_rules_find_what_it_would_ignore_and_install_mends_it() {
        let found = broken(AgentFile::Claude, |v| {
            rename(v, "SessionStart", "sessionStart")
        });
        assert_eq!(
            found,
            [
                "relay's hook under `sessionStart` never runs: Claude Code has no event \
              `sessionStart` (its names are case-sensitive: `SessionStart`)"
            ]
        );
        let found = broken(AgentFile::Gemini, |v| {
            v["hooks"]["SessionStart"][0]["hooks"][0]["timeout"] = 15.into()
        });
        assert!(
            found[0].contains("\"timeout\": 15, which Gemini CLI reads in milliseconds"),
            "{found:?}"
        );
        let found = broken(AgentFile::Gemini, |v| {
            v["hooks"]["AfterAgent"][0]["hooks"][0]
                .as_object_mut()
                .unwrap()
                .remove("type");
        });
        assert!(
            found[0].contains("Gemini CLI discards a hook without it"),
            "{found:?}"
        );
        let found = broken(AgentFile::Gemini, |v| {
            rename(v, "PreCompress", "PreCompact")
        });
        assert!(
            found[0].contains("Gemini CLI has no event `PreCompact`"),
            "{found:?}"
        );
        let found = broken(AgentFile::Codex, |v| {
            v["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 2.into()
        });
        assert!(
            found[0].contains("which Codex reads in seconds"),
            "{found:?}"
        );
        let found = broken(AgentFile::Codex, |v| {
            let hook = v["hooks"]["Stop"][0]["hooks"][0].clone();
            v["hooks"]["Stop"][0] = hook;
        });
        assert!(found[0].contains("not inside a `hooks` list"), "{found:?}");
        // What relay wrote before Codex's clamp was known: a warning in every Codex session.
        let found = broken(AgentFile::Codex, |v| {
            v["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"] = 15.into()
        });
        assert!(
            found[0].contains("\"timeout\": 15, which Codex cuts to 3 s"),
            "{found:?}"
        );
        let found = broken(AgentFile::Codex, |v| {
            let hook = v["hooks"]["SessionEnd"][0]["hooks"][0]
                .as_object_mut()
                .unwrap();
            hook.remove("timeout");
        });
        assert!(found[0].contains("then gives it 1 s"), "{found:?}");
        let found = broken(AgentFile::Cursor, |v| rename(v, "stop", "Stop"));
        assert!(
            found[0].contains("(its names are case-sensitive: `stop`)"),
            "{found:?}"
        );
        let found = broken(AgentFile::Cursor, |v| {
            v.as_object_mut().unwrap().remove("version");
        });
        assert!(found[0].contains("\"version\": 1"), "{found:?}");
        // Someone else's entries are theirs to judge.
        let dir = tempfile::tempdir().unwrap();
        let path = AgentFile::Claude.path(dir.path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            r#"{"hooks": {"onSave": [{"command": "./mine.sh"}]}}"#,
        )
        .unwrap();
        assert!(problems(AgentFile::Claude, dir.path()).unwrap().is_empty());
    }
}
