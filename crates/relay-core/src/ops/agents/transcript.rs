//! The last thing the user asked, read from an agent's transcript (a JSONL file whose path the
//! agent hands its hooks as `transcript_path`). Relay has no model: what the user last typed is
//! the best summary of what a session is working on that it can get. Both agents' shapes are
//! read: Claude Code's `{"type":"user","message":{"role":"user","content":…}}` lines and Codex's
//! `{"type":"response_item","payload":{"type":"message","role":"user","content":[…]}}` and
//! `{"type":"event_msg","payload":{"type":"user_message","message":…}}` lines, and Cursor's
//! `{"role":"user","message":{"content":[…]}}` lines, whose typed text sits inside
//! `<user_query>` tags. Tool results,
//! meta lines and injected context (text opening with `<`, such as `<command-name>` or
//! `<environment_context>`) are not prompts.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

/// Only the end of a long transcript is read.
const TAIL_BYTES: u64 = 4 << 20;

/// The text of a user prompt on one transcript line, if the line holds one.
fn prompt_of(line: &Value) -> Option<String> {
    if line.get("isMeta").and_then(Value::as_bool) == Some(true) {
        return None;
    }
    let payload = line.get("payload");
    if let Some(p) =
        payload.filter(|p| p.get("type").and_then(Value::as_str) == Some("user_message"))
    {
        return p
            .get("message")
            .and_then(Value::as_str)
            .and_then(real_prompt);
    }
    let message = line.get("message").or(payload).unwrap_or(line);
    let role = message.get("role").or_else(|| line.get("role"));
    if role.and_then(Value::as_str) != Some("user") {
        return None;
    }
    match message.get("content")? {
        Value::String(s) => real_prompt(s),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter(|p| {
                    matches!(
                        p.get("type").and_then(Value::as_str),
                        Some("text" | "input_text")
                    )
                })
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            real_prompt(&texts.join("\n"))
        }
        _ => None,
    }
}

fn real_prompt(text: &str) -> Option<String> {
    let query = text
        .split_once("<user_query>")
        .and_then(|(_, rest)| rest.split_once("</user_query>"));
    let t = query.map_or(text, |(inside, _)| inside).trim();
    (!t.is_empty() && !t.starts_with('<')).then(|| t.to_string())
}

/// The last user prompt in the JSONL `text`.
pub fn last_prompt_in(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| prompt_of(&v))
}

/// The last user prompt in the transcript at `path` (its last few megabytes), if it can be
/// read.
pub fn last_prompt(path: &Path) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let start = len.saturating_sub(TAIL_BYTES);
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    // A read from the middle starts inside a line: skip to the next whole one.
    let text = match start {
        0 => &text[..],
        _ => text.split_once('\n').map_or("", |(_, rest)| rest),
    };
    last_prompt_in(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_typed_prompt_is_found_in_each_agents_transcript() {
        let claude = [
            r#"{"type":"user","message":{"role":"user","content":"Fix the login bug"}}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"On it"}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Now add a test\nfor it"}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok"}]}}"#,
            r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"Caveat: meta"}}"#,
            r#"{"type":"user","message":{"role":"user","content":"<command-name>/compact</command-name>"}}"#,
            "not json",
        ]
        .join("\n");
        assert_eq!(
            last_prompt_in(&claude).as_deref(),
            Some("Now add a test\nfor it")
        );
        let codex = [
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Rename the crate"}]}}"#,
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>cwd</environment_context>"}]}}"#,
            r#"{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done"}]}}"#,
        ]
        .join("\n");
        assert_eq!(last_prompt_in(&codex).as_deref(), Some("Rename the crate"));
        let event = r#"{"type":"event_msg","payload":{"type":"user_message","message":"Ship it"}}"#;
        assert_eq!(last_prompt_in(event).as_deref(), Some("Ship it"));
        let cursor = [
            r#"{"role":"user","message":{"content":[{"type":"text","text":"<timestamp>Mon</timestamp>\n<user_query>\nAdd a login page\n</user_query>"}]}}"#,
            r#"{"role":"assistant","message":{"content":[{"type":"text","text":"Added."}]}}"#,
        ]
        .join("\n");
        assert_eq!(last_prompt_in(&cursor).as_deref(), Some("Add a login page"));
        assert_eq!(last_prompt_in("{}\n[]\n"), None);
        assert_eq!(
            last_prompt(Path::new("/nonexistent/transcript.jsonl")),
            None
        );
    }
}
