//! Agent memory as context packages: lessons, checkpoints and snippets, as pure types (their
//! builders and member checks; reading and writing them is `relay_core::ops::memory`). Each is an ordinary
//! package of a custom type (§12.2) whose own fields are `x-*` members (§12.1), so hashing,
//! merging, verify, export and the secret scanner treat them like every other package, and
//! another conformant implementation sees packages it can store and return unchanged.
//!
//! | type | members |
//! |---|---|
//! | `x-lesson` | `title`, `description` (the lesson), `x-severity`: `info`, `warning` or `critical` |
//! | `x-checkpoint` | `x-working-on`, `x-flag` (`IDLE`, `IN_PROGRESS`, `BLOCKED`), `x-flags` (every flag given, a list of text), `x-blockers` and `x-artifacts` (lists of text), `decisions_made`; `description` is an AMP record's `content`, else repeats what it is working on |
//! | `x-snippet` | `content_md` (the text), `x-path` (optional), `x-start-line`, `x-end-line` (1-based, inclusive), `x-language`, `x-git-blob` (the file's blob id in git, when known); `description` is the note (an AMP record's `title`) |
//!
//! Any memory package may carry `x-amp-extra`, an object of the members an Agent Memory
//! Protocol record held that relay has no member for (kept and returned as given); which
//! member holds which AMP member is [`crate::amp`]'s table.

use serde_json::{Map, Value, json};

/// The package types of agent memory.
pub const LESSON: &str = "x-lesson";
pub const CHECKPOINT: &str = "x-checkpoint";
pub const SNIPPET: &str = "x-snippet";

/// The record types of the Agent Memory Protocol, as AMP names them ([`Kind::amp_type`]).
pub const AMP_TYPES: [&str; 3] = ["lesson", "checkpoint", "snippet"];

pub const SEVERITIES: [&str; 3] = ["info", "warning", "critical"];
pub const FLAGS: [&str; 3] = ["IDLE", "IN_PROGRESS", "BLOCKED"];

/// The member holding an AMP record's members relay has no member of its own for.
pub const AMP_EXTRA: &str = "x-amp-extra";

/// The transition action of a later version that replaces a memory record's content (an AMP
/// `store` under an existing id); the status stays as it was.
pub const UPDATE_ACTION: &str = "update";

/// The longest title a checkpoint takes from what it is working on, in characters.
const TITLE_CHARS: usize = 120;

/// Which kind of memory a package type is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Lesson,
    Checkpoint,
    Snippet,
}

impl Kind {
    pub fn of_type(package_type: &str) -> Option<Kind> {
        match package_type {
            LESSON => Some(Kind::Lesson),
            CHECKPOINT => Some(Kind::Checkpoint),
            SNIPPET => Some(Kind::Snippet),
            _ => None,
        }
    }

    /// The package type, and the AMP record type (`lesson`, …).
    pub fn package_type(self) -> &'static str {
        match self {
            Kind::Lesson => LESSON,
            Kind::Checkpoint => CHECKPOINT,
            Kind::Snippet => SNIPPET,
        }
    }

    pub fn amp_type(self) -> &'static str {
        match self {
            Kind::Lesson => "lesson",
            Kind::Checkpoint => "checkpoint",
            Kind::Snippet => "snippet",
        }
    }

    pub fn from_amp_type(t: &str) -> Option<Kind> {
        [Kind::Lesson, Kind::Checkpoint, Kind::Snippet]
            .into_iter()
            .find(|k| k.amp_type() == t)
    }
}

/// How much a lesson matters: the order orient lists them in (most severe first).
pub fn severity_rank(severity: &str) -> u8 {
    match severity {
        "critical" => 0,
        "warning" => 1,
        _ => 2,
    }
}

/// A lesson to record.
#[derive(Debug, Clone, Default)]
pub struct Lesson {
    pub title: String,
    pub content: String,
    /// `info` when not given.
    pub severity: Option<String>,
    pub tags: Vec<String>,
}

/// Where an agent stands.
#[derive(Debug, Clone, Default)]
pub struct Checkpoint {
    pub working_on: String,
    pub decisions: Vec<String>,
    pub blockers: Vec<String>,
    pub artifacts: Vec<String>,
    /// `IN_PROGRESS` when not given (`BLOCKED` when there are blockers).
    pub flag: Option<String>,
    /// Every flag given, in order (AMP's `state.flags` is a list), kept as `x-flags` when
    /// not empty: free text, of which `flag` is the status.
    pub flags: Vec<String>,
}

/// A piece of a file.
#[derive(Debug, Clone, Default)]
pub struct Snippet {
    /// The file it comes from; empty for a snippet of no file.
    pub path: String,
    pub start_line: u64,
    pub end_line: u64,
    pub language: Option<String>,
    pub text: String,
    pub git_blob: Option<String>,
    pub note: Option<String>,
}

fn required(name: &str, text: &str) -> Result<(), String> {
    match text.trim().is_empty() {
        true => Err(format!("{name} must not be empty")),
        false => Ok(()),
    }
}

fn one_of(name: &str, value: &str, allowed: &[&str]) -> Result<(), String> {
    match allowed.contains(&value) {
        true => Ok(()),
        false => Err(format!(
            "{name} `{value}` is not one of {}",
            allowed.join(", ")
        )),
    }
}

impl Lesson {
    /// The package input a deposit takes, or what is wrong with the lesson.
    pub fn to_input(&self) -> Result<Map<String, Value>, String> {
        required("a lesson's title", &self.title)?;
        required("a lesson's content", &self.content)?;
        let severity = self.severity.as_deref().unwrap_or("info");
        one_of("severity", severity, &SEVERITIES)?;
        let mut m = Map::new();
        m.insert("package_type".into(), json!(LESSON));
        m.insert("title".into(), json!(self.title));
        m.insert("description".into(), json!(self.content));
        m.insert("x-severity".into(), json!(severity));
        if !self.tags.is_empty() {
            m.insert("tags".into(), json!(self.tags));
        }
        // Lessons outlive the window of recent work; orient lists them by severity.
        m.insert(
            "significance".into(),
            json!(severity_significance(severity)),
        );
        Ok(m)
    }
}

fn severity_significance(severity: &str) -> i64 {
    match severity {
        "critical" => 9,
        "warning" => 7,
        _ => 5,
    }
}

impl Checkpoint {
    pub fn to_input(&self) -> Result<Map<String, Value>, String> {
        required("what the agent is working on", &self.working_on)?;
        let flag = match &self.flag {
            Some(f) => f.to_ascii_uppercase(),
            None if !self.blockers.is_empty() => "BLOCKED".into(),
            None => "IN_PROGRESS".into(),
        };
        one_of("flag", &flag, &FLAGS)?;
        let working_on = self.working_on.trim();
        let mut title: String = working_on.chars().take(TITLE_CHARS).collect();
        if title.chars().count() < working_on.chars().count() {
            title.push('…');
        }
        let mut m = Map::new();
        m.insert("package_type".into(), json!(CHECKPOINT));
        m.insert("title".into(), json!(format!("Checkpoint: {title}")));
        m.insert("description".into(), json!(working_on));
        m.insert("x-working-on".into(), json!(working_on));
        m.insert("x-flag".into(), json!(flag));
        if !self.decisions.is_empty() {
            m.insert("decisions_made".into(), json!(self.decisions));
        }
        m.insert("x-blockers".into(), json!(self.blockers));
        m.insert("x-artifacts".into(), json!(self.artifacts));
        if !self.flags.is_empty() {
            if self.flags.iter().any(|f| f.trim().is_empty()) {
                return Err("a flag must not be empty".into());
            }
            m.insert("x-flags".into(), json!(self.flags));
        }
        // A checkpoint is state, not an outcome: it stays out of the significant packages.
        m.insert("significance".into(), json!(2));
        Ok(m)
    }
}

impl Snippet {
    pub fn to_input(&self) -> Result<Map<String, Value>, String> {
        if self.start_line == 0 || self.end_line < self.start_line {
            return Err(format!(
                "lines {}-{} are not a range of lines (1-based, start ≤ end)",
                self.start_line, self.end_line
            ));
        }
        let mut m = Map::new();
        m.insert("package_type".into(), json!(SNIPPET));
        let title = match self.path.trim().is_empty() {
            false => format!("{}:{}-{}", self.path, self.start_line, self.end_line),
            true => format!("Snippet, lines {}-{}", self.start_line, self.end_line),
        };
        m.insert("title".into(), json!(title));
        if let Some(note) = self.note.as_deref().filter(|n| !n.trim().is_empty()) {
            m.insert("description".into(), json!(note));
        }
        m.insert("content_md".into(), json!(self.text));
        if !self.path.trim().is_empty() {
            m.insert("x-path".into(), json!(self.path));
        }
        m.insert("x-start-line".into(), json!(self.start_line));
        m.insert("x-end-line".into(), json!(self.end_line));
        if let Some(l) = &self.language {
            m.insert("x-language".into(), json!(l));
        }
        if let Some(b) = &self.git_blob {
            m.insert("x-git-blob".into(), json!(b));
        }
        m.insert("significance".into(), json!(3));
        Ok(m)
    }
}

/// What is wrong with the memory members of a package, if it is a memory type (`verify`
/// reports it; any other package passes).
pub fn check_members(package: &Map<String, Value>) -> Result<(), String> {
    let Some(kind) = package
        .get("package_type")
        .and_then(Value::as_str)
        .and_then(Kind::of_type)
    else {
        return Ok(());
    };
    let text = |k: &str| package.get(k).and_then(Value::as_str);
    if package.get(AMP_EXTRA).is_some_and(|v| !v.is_object()) {
        return Err(format!("`{AMP_EXTRA}` must be an object"));
    }
    let texts = |k: &str| -> Result<(), String> {
        match package.get(k) {
            None => Ok(()),
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => Ok(()),
            Some(_) => Err(format!("`{k}` must be a list of strings")),
        }
    };
    match kind {
        Kind::Lesson => match text("x-severity") {
            Some(s) => one_of("`x-severity`", s, &SEVERITIES),
            None if package.contains_key("x-severity") => {
                Err("`x-severity` must be a string".into())
            }
            None => Ok(()),
        },
        Kind::Checkpoint => {
            if text("x-working-on").is_none_or(|w| w.trim().is_empty()) {
                return Err("`x-working-on` must be a non-empty string".into());
            }
            match text("x-flag") {
                Some(f) => one_of("`x-flag`", f, &FLAGS)?,
                None if package.contains_key("x-flag") => {
                    return Err("`x-flag` must be a string".into());
                }
                None => {}
            }
            texts("x-blockers")?;
            texts("x-flags")?;
            texts("x-artifacts")
        }
        Kind::Snippet => {
            if package.contains_key("x-path") && text("x-path").is_none_or(|p| p.is_empty()) {
                return Err("`x-path` must be a non-empty string".into());
            }
            let line = |k: &str| package.get(k).map(Value::as_u64);
            match (line("x-start-line"), line("x-end-line")) {
                (Some(Some(a)), Some(Some(b))) if a >= 1 && b >= a => {}
                (None, None) => {}
                _ => {
                    return Err(
                        "`x-start-line` and `x-end-line` must be line numbers, start ≤ end".into(),
                    );
                }
            }
            for k in ["x-language", "x-git-blob"] {
                if package.get(k).is_some_and(|v| !v.is_string()) {
                    return Err(format!("`{k}` must be a string"));
                }
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_becomes_a_valid_package_of_its_type_and_bad_values_are_named() {
        let lesson = Lesson {
            title: "Migrations need --lock-timeout".into(),
            content: "Always run migrations with --lock-timeout 5s".into(),
            severity: Some("critical".into()),
            tags: vec!["db".into()],
        }
        .to_input()
        .unwrap();
        assert_eq!(lesson["package_type"], "x-lesson");
        assert_eq!(lesson["x-severity"], "critical");
        assert!(check_members(&lesson).is_ok());
        let bad = Lesson {
            severity: Some("urgent".into()),
            ..Lesson {
                title: "t".into(),
                content: "c".into(),
                ..Default::default()
            }
        };
        assert_eq!(
            bad.to_input().unwrap_err(),
            "severity `urgent` is not one of info, warning, critical"
        );

        let cp = Checkpoint {
            working_on: "the auth module".into(),
            blockers: vec!["no API key".into()],
            ..Default::default()
        }
        .to_input()
        .unwrap();
        assert_eq!(cp["x-flag"], "BLOCKED");
        assert_eq!(cp["title"], "Checkpoint: the auth module");
        assert!(check_members(&cp).is_ok());
        let flagged = Checkpoint {
            working_on: "x".into(),
            flag: Some("idle".into()),
            ..Default::default()
        };
        assert_eq!(flagged.to_input().unwrap()["x-flag"], "IDLE");
        assert!(
            Checkpoint {
                working_on: "x".into(),
                flag: Some("DONE".into()),
                ..Default::default()
            }
            .to_input()
            .unwrap_err()
            .contains("IDLE, IN_PROGRESS, BLOCKED")
        );

        let sn = Snippet {
            path: "src/main.rs".into(),
            start_line: 3,
            end_line: 5,
            language: Some("rust".into()),
            text: "fn main() {}\n".into(),
            ..Default::default()
        }
        .to_input()
        .unwrap();
        assert_eq!(sn["title"], "src/main.rs:3-5");
        assert!(check_members(&sn).is_ok());
        let mut broken = sn.clone();
        broken.insert("x-end-line".into(), json!(1));
        assert!(check_members(&broken).unwrap_err().contains("start ≤ end"));
        let mut wrong = cp.clone();
        wrong.insert("x-blockers".into(), json!("one"));
        assert_eq!(
            check_members(&wrong).unwrap_err(),
            "`x-blockers` must be a list of strings"
        );
    }
}
