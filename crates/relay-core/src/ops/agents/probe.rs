//! What `relay doctor` needs to try an agent's hooks the way the agent itself runs them: the
//! relay commands installed in the agent's hook file now, the JSON the agent writes on a hook's
//! stdin for each event (as its documentation gives it), and how the agent reads the hook's
//! stdout back (what it adds to the model's context, and how much of it).
//!
//! One place per agent, so that adding an agent to `hooks` adds it here and the doctor tries it
//! without knowing it.

use std::path::Path;

use serde_json::{Value, json};

use crate::ops::agents::hooks::{AgentFile, installed_commands};
use relay_wire::error::Result;

/// One relay hook as the agent's file holds it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstalledHook {
    /// The agent's own name for the event (`SessionStart`, …).
    pub event: String,
    /// The exact command line the agent runs (through `sh -c`).
    pub command: String,
}

impl AgentFile {
    /// Every agent relay installs hooks for.
    pub const ALL: &'static [AgentFile] = &[AgentFile::Claude, AgentFile::Codex];

    /// The agent's short name, as `relay hook install --NAME` and `--agent NAME` spell it.
    pub fn name(self) -> &'static str {
        self.agent().name()
    }

    /// relay's hooks in the agent's file under `project_root` now, in the file's order; `None`
    /// when the file does not exist. A file relay cannot parse is an error that says so.
    pub fn installed(self, project_root: &Path) -> Result<Option<Vec<InstalledHook>>> {
        installed_commands(self, project_root)
    }

    /// The JSON the agent writes on a hook's stdin at `event`: the fields its documentation
    /// lists for that event, filled for a session `session_id` working in `cwd`.
    pub fn sample_event(self, event: &str, session_id: &str, cwd: &Path) -> Value {
        let cwd = cwd.display().to_string();
        // Claude Code (docs.claude.com/en/docs/claude-code/hooks, 2025-11) and Codex (its
        // hooks.json mirrors Claude Code's input) send the same common fields.
        let mut v = json!({
            "session_id": session_id,
            "transcript_path": "",
            "cwd": cwd,
            "hook_event_name": event,
        });
        match event {
            "SessionStart" => v["source"] = json!("startup"),
            "PreCompact" => {
                v["trigger"] = json!("auto");
                v["custom_instructions"] = json!("");
            }
            "Stop" => v["stop_hook_active"] = json!(false),
            "SessionEnd" => v["reason"] = json!("other"),
            _ => {}
        }
        v
    }

    /// The most characters of a hook's added context the agent keeps (Claude Code caps what a
    /// hook adds at 10,000 characters; Codex cuts past about 2,500 tokens).
    pub fn output_limit(self) -> usize {
        match self {
            AgentFile::Claude => 10_000,
            AgentFile::Codex => 10_000,
        }
    }

    /// Reads a hook's stdout at `event` as the agent does: the context it adds to the model's
    /// window (`None` when the event adds none), or why the agent would reject the output.
    pub fn context_in_output(
        self,
        event: &str,
        stdout: &str,
    ) -> std::result::Result<Option<String>, String> {
        if stdout.trim().is_empty() {
            return Ok(None);
        }
        let v: Value = serde_json::from_str(stdout.trim())
            .map_err(|e| format!("stdout is not one JSON object ({e})"))?;
        let out = v
            .get("hookSpecificOutput")
            .ok_or("stdout has no `hookSpecificOutput`")?;
        if out.get("hookEventName").and_then(Value::as_str) != Some(event) {
            return Err(format!(
                "`hookSpecificOutput.hookEventName` is not `{event}`"
            ));
        }
        match out.get("additionalContext") {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err("`hookSpecificOutput.additionalContext` is not a string".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installed_hooks_are_read_back_with_their_events_and_commands() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(AgentFile::Claude.installed(dir.path()).unwrap(), None);
        crate::ops::agents::hooks::install_agent(AgentFile::Claude, dir.path(), "relay").unwrap();
        let hooks = AgentFile::Claude.installed(dir.path()).unwrap().unwrap();
        let events: Vec<&str> = hooks.iter().map(|h| h.event.as_str()).collect();
        assert_eq!(events, ["SessionStart", "PreCompact", "Stop", "SessionEnd"]);
        assert_eq!(
            hooks[0].command,
            "relay hook run SessionStart --agent claude --max-chars 9000"
        );
    }

    #[test]
    fn the_context_is_read_from_the_agents_output_shape() {
        let out = crate::ops::agents::session::context_output("# Brief");
        assert_eq!(
            AgentFile::Codex.context_in_output("SessionStart", &out),
            Ok(Some("# Brief".into()))
        );
        assert_eq!(AgentFile::Claude.context_in_output("Stop", ""), Ok(None));
        assert!(
            AgentFile::Claude
                .context_in_output("SessionStart", "not json")
                .is_err()
        );
    }
}
