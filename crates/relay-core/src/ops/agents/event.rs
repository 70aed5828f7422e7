//! The agents relay hooks into and their hook events: who calls `relay hook run`, what it
//! sends on stdin, and the shape its answer must take. Apart from the session logic
//! (`session.rs`) so that the agents' files (`agent_files.rs`) can name an agent and an event
//! without depending on what the events do.

use std::path::PathBuf;

use serde_json::{Value, json};

use relay_wire::error::{Error, Result};

/// The coding agents relay hooks into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Cursor,
    OpenCode,
}

impl Agent {
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Cursor => "cursor",
            Agent::OpenCode => "opencode",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Agent::Claude => "Claude Code",
            Agent::Codex => "Codex",
            Agent::Gemini => "Gemini CLI",
            Agent::Cursor => "Cursor",
            Agent::OpenCode => "OpenCode",
        }
    }

    /// The briefing's budget in characters: under Claude Code's 10,000-character cap on what
    /// a hook adds to context, and about 2,000 tokens for Codex (which cuts past ~2,500).
    /// Gemini CLI, Cursor and OpenCode document no cap: relay holds them to Claude Code's
    /// (see `AgentFile::output_limit`), Gemini CLI like Claude Code, the two others like Codex.
    pub fn default_max_chars(self) -> usize {
        match self {
            Agent::Claude | Agent::Gemini => 9_000,
            Agent::Codex | Agent::Cursor | Agent::OpenCode => 8_000,
        }
    }

    /// Where the session id sits in the agent's event JSON (JSON pointers, the first found
    /// wins): Cursor names it `conversation_id` on every event (`session_id`, the same value,
    /// only on sessionStart and sessionEnd); relay's OpenCode plugin hands OpenCode's event
    /// object, whose session is `properties.sessionID` or, on session.created and
    /// session.deleted, `properties.info.id`.
    fn session_id_at(self) -> &'static [&'static str] {
        match self {
            Agent::Claude | Agent::Codex | Agent::Gemini => &["/session_id"],
            Agent::Cursor => &["/conversation_id", "/session_id"],
            Agent::OpenCode => &["/properties/sessionID", "/properties/info/id"],
        }
    }
}

/// The events relay acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    SessionStart,
    PreCompact,
    Stop,
    SessionEnd,
}

impl Event {
    /// The name `relay hook run` takes.
    pub fn name(self) -> &'static str {
        match self {
            Event::SessionStart => "SessionStart",
            Event::PreCompact => "PreCompact",
            Event::Stop => "Stop",
            Event::SessionEnd => "SessionEnd",
        }
    }

    pub fn parse(name: &str) -> Result<Event> {
        match name {
            "SessionStart" => Ok(Event::SessionStart),
            "PreCompact" => Ok(Event::PreCompact),
            "Stop" => Ok(Event::Stop),
            "SessionEnd" => Ok(Event::SessionEnd),
            other => Err(Error::InvalidInput(format!(
                "unknown hook event `{other}`: relay handles SessionStart, PreCompact, Stop and SessionEnd"
            ))),
        }
    }
}

/// What relay reads of an event's JSON.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookInput {
    pub session_id: String,
    pub transcript_path: Option<PathBuf>,
    /// SessionStart's `source`: `startup`, `resume`, `clear` or `compact`.
    pub source: Option<String>,
    /// PreCompact's `trigger`: `manual` (the user asked) or `auto`.
    pub trigger: Option<String>,
    /// Cursor sent it (its events carry `cursor_version`): Cursor runs Claude Code's hooks too
    /// when its third-party hooks are on.
    pub from_cursor: bool,
}

/// The event JSON `agent` wrote on stdin.
pub fn parse_input(agent: Agent, bytes: &[u8]) -> Result<HookInput> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::InvalidInput(
            "stdin was empty: the agent sends the event as a JSON object".into(),
        ));
    }
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| Error::InvalidInput(format!("stdin is not the event's JSON ({e})")))?;
    let text = |k: &str| {
        v.pointer(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    // Cursor running Claude Code's hooks sends its own events.
    let from_cursor = v.get("cursor_version").is_some();
    let fields = match (agent, from_cursor) {
        (Agent::Claude, true) => Agent::Cursor.session_id_at(),
        _ => agent.session_id_at(),
    };
    let session_id = fields.iter().find_map(|f| text(f)).ok_or_else(|| {
        let named: Vec<String> = fields
            .iter()
            .map(|f| format!("`{}`", f[1..].replace('/', ".")))
            .collect();
        Error::InvalidInput(format!(
            "the event has no {} (a non-empty string)",
            named.join(" or ")
        ))
    })?;
    Ok(HookInput {
        session_id: session_id.to_string(),
        transcript_path: text("/transcript_path").map(PathBuf::from),
        source: text("/source").map(str::to_string),
        trigger: text("/trigger").map(str::to_string),
        from_cursor,
    })
}

/// The hook's answer on stdout for SessionStart, in the shape `agent` documents for adding
/// context: one line of JSON, `hookSpecificOutput.additionalContext` for Claude Code, Codex
/// and Gemini CLI (docs/hooks/reference.md, Gemini CLI 0.56, 2026-08) and `additional_context`
/// for Cursor (cursor.com/docs/agent/hooks, Cursor 2026.02); plain text for OpenCode, whose
/// relay plugin adds what it reads to the session's system prompt.
pub fn context_output(agent: Agent, context: &str) -> String {
    let out = match agent {
        Agent::Claude | Agent::Codex | Agent::Gemini => json!({"hookSpecificOutput":
            {"hookEventName": "SessionStart", "additionalContext": context}}),
        Agent::Cursor => json!({"additional_context": context}),
        Agent::OpenCode => return context.to_string(),
    };
    format!("{out}\n")
}
