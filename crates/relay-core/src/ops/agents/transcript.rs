//! The last thing the user asked, read from an agent's transcript (a JSONL file whose path the
//! agent hands its hooks as `transcript_path`). Relay has no model: what the user last typed is
//! the best summary of what a session is working on that it can get. Both agents' shapes are
//! read: Claude Code's `{"type":"user","message":{"role":"user","content":…}}` lines and Codex's
//! `{"type":"response_item","payload":{"type":"message","role":"user","content":[…]}}` and
//! `{"type":"event_msg","payload":{"type":"user_message","message":…}}` lines, and Cursor's
//! `{"role":"user","message":{"content":[…]}}` lines, whose typed text sits inside
//! `<user_query>` tags, and Gemini CLI's `{"id","type":"user","content":[{"text"}]}` lines (no
//! role; `displayContent` when it has one; the context a hook added, `<hook_context>…`, taken
//! off the front of the text, as Gemini CLI prepends it in `-p` mode; a `{"$set":{"messages"}}`
//! line, which replaces the list after a compression, read as the messages it holds). Tool
//! results,
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
    // Gemini CLI's messages have no role: their `type` says who spoke.
    let gemini = role.is_none()
        && line.get("type").and_then(Value::as_str) == Some("user")
        && line.get("content").is_some();
    if role.and_then(Value::as_str) != Some("user") && !gemini {
        return None;
    }
    let content = match gemini {
        true => line.get("displayContent").or_else(|| line.get("content")),
        false => message.get("content"),
    };
    match content? {
        Value::String(s) => real_prompt(without_hook_context(s)),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter(|p| match p.get("type").and_then(Value::as_str) {
                    Some(kind) => matches!(kind, "text" | "input_text"),
                    // Gemini's parts: text, or a function's call or response.
                    None => gemini,
                })
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .map(without_hook_context)
                .filter(|t| !t.trim().is_empty())
                .collect();
            real_prompt(&texts.join("\n"))
        }
        _ => None,
    }
}

/// `text` without the context hooks added before it (`<hook_context>…</hook_context>`, which
/// Gemini CLI puts in front of the prompt in `-p` mode, or as a part of its own).
fn without_hook_context(text: &str) -> &str {
    let mut rest = text.trim_start();
    while let Some(after) = rest.strip_prefix("<hook_context>") {
        match after.split_once("</hook_context>") {
            Some((_, tail)) => rest = tail.trim_start(),
            None => break,
        }
    }
    rest
}

/// The last prompt in one transcript line: the line's own, or, for Gemini CLI's
/// `{"$set":{"messages":[…]}}` (the list after a compression), the last in the list.
fn last_prompt_of_line(line: &Value) -> Option<String> {
    match line.pointer("/$set/messages").and_then(Value::as_array) {
        Some(messages) => messages.iter().rev().find_map(prompt_of),
        None => prompt_of(line),
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
        .find_map(|v| last_prompt_of_line(&v))
}

/// Whether Gemini CLI's transcript at `path` shows a compression after byte `from`: a
/// `{"$set":{"messages":[…]}}` line whose messages hold the `<state_snapshot>` Gemini writes
/// in place of the history it compressed: the model's whole answer, which its prompt asks to
/// think in a `<scratchpad>` first, so the snapshot need not lead the text.
pub fn compressed_since(path: &Path, from: u64) -> bool {
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(from)).is_err() || file.read_to_end(&mut bytes).is_err() {
        return false;
    }
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter(|l| l.contains("\"$set\"") && l.contains("<state_snapshot>"))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .any(|v| {
            v.pointer("/$set/messages")
                .and_then(Value::as_array)
                .is_some_and(|messages| {
                    messages.iter().any(|m| {
                        m.get("content")
                            .and_then(Value::as_array)
                            .is_some_and(|parts| {
                                parts.iter().any(|p| {
                                    p.get("text").and_then(Value::as_str).is_some_and(|t| {
                                        t.contains("<state_snapshot>")
                                            && t.contains("</state_snapshot>")
                                    })
                                })
                            })
                    })
                })
        })
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
        // Gemini CLI 0.61: no role; in -p mode the SessionStart context in front of the
        // prompt; a tool's response as a user message; the list set again after compressing.
        let gemini = [
            r#"{"sessionId":"s1","projectHash":"p","startTime":"2026-11-29T10:00:00Z"}"#,
            r#"{"id":"m1","timestamp":"t","type":"user","content":[{"text":"<hook_context># Orientation: demo\nrecent work</hook_context>\n\nFix the flaky webhook test"}]}"#,
            r#"{"id":"m2","timestamp":"t","type":"gemini","content":"Looking.","toolCalls":[]}"#,
            r#"{"id":"m3","timestamp":"t","type":"user","content":[{"functionResponse":{"name":"read_file","response":{"output":"…"}}}]}"#,
            r#"{"id":"m4","timestamp":"t","type":"user","content":[{"text":"<session_context>cwd</session_context>"}]}"#,
        ]
        .join("\n");
        assert_eq!(
            last_prompt_in(&gemini).as_deref(),
            Some("Fix the flaky webhook test")
        );
        let later = format!(
            "{gemini}\n{}\n{}",
            r#"{"id":"m5","type":"user","content":[{"text":"Now the retries"},{"text":"<hook_context>more</hook_context>"}],"displayContent":[{"text":"Now the retries"}]}"#,
            r#"{"$set":{"messages":[{"id":"s","type":"user","content":[{"text":"<state_snapshot>…</state_snapshot>"}]},{"id":"m5","type":"user","content":[{"text":"Now the retries"}]}]}}"#
        );
        assert_eq!(last_prompt_in(&later).as_deref(), Some("Now the retries"));
        assert_eq!(last_prompt_in("{}\n[]\n"), None);
        assert_eq!(
            last_prompt(Path::new("/nonexistent/transcript.jsonl")),
            None
        );
    }

    #[test]
    fn a_gemini_compression_is_seen_wherever_its_snapshot_stands_in_the_summary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session.jsonl");
        let turn = r#"{"id":"m1","type":"user","content":[{"text":"Write the changelog"}]}"#;
        let set = |text: &str| {
            serde_json::json!({"$set": {"messages": [
                {"id": "s", "type": "user", "content": [{"text": text}]},
                {"id": "m1", "type": "user", "content": [{"text": "Write the changelog"}]},
            ]}})
            .to_string()
        };
        std::fs::write(&path, format!("{turn}\n")).unwrap();
        let from = std::fs::metadata(&path).unwrap().len();
        assert!(!compressed_since(&path, from));
        // What the model answered Gemini's compression prompt: its thinking, then the snapshot.
        let answer = "<scratchpad>\nThe user wants…</scratchpad>\n\n<state_snapshot>\n<goal>a changelog</goal>\n</state_snapshot>";
        std::fs::write(&path, format!("{turn}\n{}\n", set(answer))).unwrap();
        assert!(compressed_since(&path, from));
        // Before the point watched, or a history rewritten without a snapshot: no compression.
        assert!(!compressed_since(&path, from + 10_000));
        std::fs::write(&path, format!("{turn}\n{}\n", set("Hello"))).unwrap();
        assert!(!compressed_since(&path, from));
    }
}
