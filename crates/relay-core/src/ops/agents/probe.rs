//! What `relay doctor` needs to try an agent's hooks the way the agent itself runs them: the
//! relay commands installed in the agent's hook file now, the JSON the agent writes on a hook's
//! stdin for each event (as its documentation gives it), and how the agent reads the hook's
//! stdout back (what it adds to the model's context, and how much of it).
//!
//! One place per agent, so that adding an agent to `hooks` adds it here and the doctor tries it
//! without knowing it.

use std::path::Path;

use serde_json::{Value, json};

use crate::ops::agents::agent_files::{AgentFile, installed_commands};
pub use crate::ops::agents::files::InstalledHook;
use relay_wire::error::Result;

impl AgentFile {
    /// Every agent relay installs hooks for.
    pub const ALL: &'static [AgentFile] = &[
        AgentFile::Claude,
        AgentFile::Codex,
        AgentFile::Gemini,
        AgentFile::Cursor,
        AgentFile::OpenCode,
    ];

    /// The agent's short name, as `relay hook install --NAME` and `--agent NAME` spell it.
    pub fn name(self) -> &'static str {
        self.agent().name()
    }

    /// relay's hooks in the agent's file under `project_root` now, in the file's order; `None`
    /// when the file does not exist. A file relay cannot parse is an error that says so.
    pub fn installed(self, project_root: &Path) -> Result<Option<Vec<InstalledHook>>> {
        installed_commands(self, project_root)
    }

    /// Whether the agent's file under `project_root` holds at least one relay hook.
    pub fn has_relay_hooks(self, project_root: &Path) -> bool {
        self.installed(project_root)
            .is_ok_and(|hooks| hooks.is_some_and(|h| !h.is_empty()))
    }

    /// The JSON the agent writes on a hook's stdin at `event` (the agent's name for it): the
    /// fields its documentation lists for that event, filled for a session `session_id`
    /// working in `cwd`. For OpenCode, the event object relay's plugin passes on.
    pub fn sample_event(self, event: &str, session_id: &str, cwd: &Path) -> Value {
        let cwd = cwd.display().to_string();
        match self {
            AgentFile::Claude | AgentFile::Codex => claude_event(event, session_id, &cwd),
            AgentFile::Gemini => gemini_event(event, session_id, &cwd),
            AgentFile::Cursor => cursor_event(event, session_id, &cwd),
            AgentFile::OpenCode => opencode_event(event, session_id, &cwd),
        }
    }

    /// The most characters of a hook's added context the agent keeps (Claude Code caps what a
    /// hook adds at 10,000 characters; Codex cuts past about 2,500 tokens). Gemini CLI, Cursor
    /// and OpenCode document no cap: relay holds them to Claude Code's.
    pub fn output_limit(self) -> usize {
        match self {
            AgentFile::Claude
            | AgentFile::Codex
            | AgentFile::Gemini
            | AgentFile::Cursor
            | AgentFile::OpenCode => 10_000,
        }
    }

    /// [`AgentFile::output_limit`] as doctor names it: Claude Code's cap, which relay holds
    /// the other agents to.
    pub fn output_limit_named(self) -> String {
        let limit = self.output_limit();
        match self {
            AgentFile::Claude => format!("the {limit} Claude Code keeps"),
            AgentFile::Codex => format!(
                "the {limit} relay holds Codex to (Claude Code's cap; Codex itself cuts past \
                 about 2,500 tokens)"
            ),
            AgentFile::Gemini | AgentFile::Cursor | AgentFile::OpenCode => {
                let label = self.agent().label();
                format!(
                    "the {limit} relay holds {label} to (Claude Code's cap; {label} documents none)"
                )
            }
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
        if self == AgentFile::OpenCode {
            // The plugin adds session.created's output, as text, and ignores the rest.
            return Ok((event == "session.created").then(|| stdout.to_string()));
        }
        let v: Value = serde_json::from_str(stdout.trim())
            .map_err(|e| format!("stdout is not one JSON object ({e})"))?;
        if self == AgentFile::Cursor {
            return match v.get("additional_context") {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err("`additional_context` is not a string".into()),
            };
        }
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

/// Claude Code (docs.claude.com/en/docs/claude-code/hooks, 2025-11) and Codex (its hooks.json
/// mirrors Claude Code's input) send the same common fields.
fn claude_event(event: &str, session_id: &str, cwd: &str) -> Value {
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

/// Gemini CLI (docs/hooks/reference.md, gemini-cli 0.56, 2026-08): Claude Code's common
/// fields and a `timestamp`, then each event's own.
fn gemini_event(event: &str, session_id: &str, cwd: &str) -> Value {
    let mut v = json!({
        "session_id": session_id,
        "transcript_path": "",
        "cwd": cwd,
        "hook_event_name": event,
        "timestamp": "2026-01-01T00:00:00.000Z",
    });
    match event {
        "SessionStart" => v["source"] = json!("startup"),
        "PreCompress" => v["trigger"] = json!("auto"),
        "AfterAgent" => {
            v["prompt"] = json!("");
            v["prompt_response"] = json!("");
            v["stop_hook_active"] = json!(false);
        }
        "SessionEnd" => v["reason"] = json!("exit"),
        _ => {}
    }
    v
}

/// Cursor (cursor.com/docs/agent/hooks, Cursor 2026.02): every event carries
/// `conversation_id`, `generation_id`, `model`, `hook_event_name`, `cursor_version`,
/// `workspace_roots`, `user_email` and `transcript_path` (null from the CLI); sessionStart and
/// sessionEnd add `session_id` (the conversation's id) and their own fields.
fn cursor_event(event: &str, session_id: &str, cwd: &str) -> Value {
    let mut v = json!({
        "conversation_id": session_id,
        "generation_id": "",
        "model": "",
        "hook_event_name": event,
        "cursor_version": "",
        "workspace_roots": [cwd],
        "user_email": null,
        "transcript_path": null,
    });
    match event {
        "sessionStart" => {
            v["session_id"] = json!(session_id);
            v["is_background_agent"] = json!(false);
            v["composer_mode"] = json!("agent");
        }
        "stop" => {
            v["status"] = json!("completed");
            v["loop_count"] = json!(0);
        }
        "sessionEnd" => {
            v["session_id"] = json!(session_id);
            v["reason"] = json!("completed");
            v["duration_ms"] = json!(0);
            v["is_background_agent"] = json!(false);
            v["final_status"] = json!("completed");
        }
        _ => {}
    }
    v
}

/// OpenCode's bus events (its SDK's `Event` types, 2026-11): session.created and
/// session.deleted carry the session's `info`, the others its `sessionID`. The compaction
/// hook's input is passed in the same shape by relay's plugin.
fn opencode_event(event: &str, session_id: &str, cwd: &str) -> Value {
    let properties = match event {
        "session.created" | "session.deleted" => json!({"info": {
            "id": session_id, "projectID": "", "directory": cwd, "title": "", "version": "",
            "time": {"created": 0, "updated": 0}}}),
        _ => json!({"sessionID": session_id}),
    };
    json!({"type": event, "properties": properties})
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
        use crate::ops::agents::session::context_output;
        for file in AgentFile::ALL {
            let event = file.events()[0].0;
            let out = context_output(file.agent(), "# Brief");
            assert_eq!(
                file.context_in_output(event, &out),
                Ok(Some("# Brief".into())),
                "{file:?}"
            );
            // Every sample names the session where that agent's input puts it.
            for (event, _) in file.events() {
                let sample = file.sample_event(event, "s-9", Path::new("/w"));
                let input = crate::ops::agents::session::parse_input(
                    file.agent(),
                    sample.to_string().as_bytes(),
                );
                assert_eq!(input.unwrap().session_id, "s-9", "{file:?} {event}");
            }
        }
        assert_eq!(AgentFile::Claude.context_in_output("Stop", ""), Ok(None));
        assert!(
            AgentFile::Claude
                .context_in_output("SessionStart", "not json")
                .is_err()
        );
    }
}
