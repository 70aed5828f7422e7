//! The Agent Memory Protocol's record shape over relay's memory packages
//! ([`crate::memory`]): an AMP record (`id`, `type`, `content`, `created_at` in ms, `agent`,
//! `project`, `tags`, and the type's own fields) checked field by field into a package input
//! ([`to_input`]), and a stored package read back as the record ([`to_record`]), every member
//! as it was given. Pure: the operations over a store are `relay_core::ops::memory::amp`.
//!
//! | AMP member | package member |
//! |---|---|
//! | `id`, `project`, `tags` | `package_id`, `project_id`, `tags` |
//! | `created_at` (Unix ms; the time of the store when not given) | `created_at` (RFC 3339) |
//! | `agent` | `created_by.id` |
//! | `content` | a lesson's and a checkpoint's `description`, a snippet's `content_md` |
//! | lesson `title`, `severity` | `title`, `x-severity` |
//! | checkpoint `working_on` | `x-working-on` (and, cut short, the `title`) |
//! | checkpoint `state`: `decisions`, `blockers`, `artifacts`, `flags` | `decisions_made`, `x-blockers`, `x-artifacts`, `x-flags` (its status: `x-flag`) |
//! | snippet `title`, `file_path`, `language`, `start_line`, `end_line` | `description`, `x-path`, `x-language`, `x-start-line`, `x-end-line` |
//! | any other (a checkpoint's `session_id`, a `state` member of no list above, …) | [`AMP_EXTRA`], as given |
//!
//! A checkpoint given `content` or `working_on` alone reads back with it as both.

use serde_json::{Map, Value, json};

use crate::Package;
use crate::error::{Error, Result};
use crate::memory::{AMP_EXTRA, Checkpoint, FLAGS, Kind, Lesson, Snippet};

/// The members every AMP record may hold that relay reads itself.
const COMMON: [&str; 7] = [
    "id",
    "type",
    "content",
    "created_at",
    "agent",
    "project",
    "tags",
];

/// The members of a record of `kind` that relay reads itself; any other is kept as given in
/// [`AMP_EXTRA`] and returned with the record.
fn own_members(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Lesson => &["title", "severity"],
        Kind::Checkpoint => &["working_on", "state"],
        Kind::Snippet => &["file_path", "language", "start_line", "end_line", "title"],
    }
}

/// The members of a checkpoint's `state` that relay reads itself.
const STATE_MEMBERS: [&str; 4] = ["decisions", "blockers", "artifacts", "flags"];

/// The members of `record` relay keeps only as given: those neither common nor the kind's
/// own, and under `state` a checkpoint state's members relay does not read.
fn extra_members(kind: Kind, record: &Map<String, Value>) -> Map<String, Value> {
    let own = own_members(kind);
    let mut extra: Map<String, Value> = (record.iter())
        .filter(|(k, _)| !COMMON.contains(&k.as_str()) && !own.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if kind == Kind::Checkpoint
        && let Some(Value::Object(state)) = record.get("state")
    {
        let unread: Map<String, Value> = (state.iter())
            .filter(|(k, _)| !STATE_MEMBERS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !unread.is_empty() {
            extra.insert("state".into(), Value::Object(unread));
        }
    }
    extra
}

/// The status among a checkpoint's flags: the first that is one of [`FLAGS`], in any case.
fn status_flag(flags: &[String]) -> Option<String> {
    (flags.iter())
        .map(|f| f.to_ascii_uppercase())
        .find(|f| FLAGS.contains(&f.as_str()))
}

fn bad(message: String) -> Error {
    Error::InvalidInput(message)
}

/// A string member of an AMP record: absent is `None`, anything but a string is refused.
pub fn text(record: &Map<String, Value>, name: &str) -> Result<Option<String>> {
    match record.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(bad(format!(
            "record.{name} must be a string, not {}",
            kind_name(other)
        ))),
    }
}

/// A list-of-strings member (absent: empty).
fn texts(record: &Map<String, Value>, name: &str) -> Result<Vec<String>> {
    match record.get(name) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                other => Err(bad(format!(
                    "record.{name} must be a list of strings; it holds {}",
                    kind_name(other)
                ))),
            })
            .collect(),
        Some(other) => Err(bad(format!(
            "record.{name} must be a list of strings, not {}",
            kind_name(other)
        ))),
    }
}

/// A whole-number member (absent: `None`).
fn number(record: &Map<String, Value>, name: &str) -> Result<Option<u64>> {
    match record.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            bad(format!(
                "record.{name} must be a whole number of 0 or more, not {v}"
            ))
        }),
    }
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn required(value: Option<String>, what: &str) -> Result<String> {
    value
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| bad(format!("record.{what} is required")))
}

/// The record's type.
fn record_kind(record: &Map<String, Value>) -> Result<Kind> {
    let t = required(text(record, "type")?, "type")?;
    Kind::from_amp_type(&t).ok_or_else(|| {
        bad(format!(
            "record.type `{t}` is not one relay stores: lesson, checkpoint or snippet"
        ))
    })
}

/// The package input of an AMP record, checked field by field before anything is written.
/// Every member comes back as given ([`to_record`]): the ones relay reads land in the
/// package members the module's table names, the others in [`AMP_EXTRA`].
pub fn to_input(record: &Map<String, Value>) -> Result<Map<String, Value>> {
    let kind = record_kind(record)?;
    let tags = texts(record, "tags")?;
    let mut input = match kind {
        Kind::Lesson => lesson_input(record, tags.clone())?,
        Kind::Checkpoint => checkpoint_input(record)?,
        Kind::Snippet => snippet_input(record)?,
    };
    if kind != Kind::Lesson && !tags.is_empty() {
        input.insert("tags".into(), json!(tags));
    }
    if let Some(id) = text(record, "id")? {
        input.insert("package_id".into(), json!(id));
    }
    if let Some(at) = created_at(record)? {
        input.insert("created_at".into(), json!(at));
    }
    let mut extra = extra_members(kind, record);
    // A blank `file_path` names no file (`x-path` holds a path or is absent): kept as given.
    if kind == Kind::Snippet
        && !input.contains_key("x-path")
        && let Some(path @ Value::String(_)) = record.get("file_path")
    {
        extra.insert("file_path".into(), path.clone());
    }
    if !extra.is_empty() {
        input.insert(AMP_EXTRA.into(), Value::Object(extra));
    }
    Ok(input)
}

/// A builder's input, or what it found wrong as `invalid_input` about the record.
fn built(input: std::result::Result<Map<String, Value>, String>) -> Result<Map<String, Value>> {
    input.map_err(|m| bad(format!("record: {m}")))
}

/// A lesson: `title`, `content` (as `description`), `severity` (as `x-severity`).
fn lesson_input(record: &Map<String, Value>, tags: Vec<String>) -> Result<Map<String, Value>> {
    built(
        Lesson {
            title: required(text(record, "title")?, "title")?,
            content: required(text(record, "content")?, "content")?,
            severity: text(record, "severity")?,
            tags,
        }
        .to_input(),
    )
}

/// A checkpoint: `content` as `description` (what search indexes), `working_on` as
/// `x-working-on` (either stands for the other when only one is given), and `state`'s lists.
fn checkpoint_input(record: &Map<String, Value>) -> Result<Map<String, Value>> {
    let state = match record.get("state") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(other) => {
            return Err(bad(format!(
                "record.state must be an object, not {}",
                kind_name(other)
            )));
        }
    };
    let state_list = |k: &str| {
        texts(&state, k).map_err(|e| bad(e.to_string().replace("record.", "record.state.")))
    };
    let flags = state_list("flags")?;
    let content = text(record, "content")?;
    let working_on = required(
        text(record, "working_on")?.or_else(|| content.clone()),
        "working_on",
    )?;
    let mut input = built(
        Checkpoint {
            working_on: working_on.clone(),
            decisions: state_list("decisions")?,
            blockers: state_list("blockers")?,
            artifacts: state_list("artifacts")?,
            flag: status_flag(&flags),
            flags,
        }
        .to_input(),
    )?;
    // Both as given: the builder trims what the agent is working on and repeats it as the
    // description, which holds the record's own content when it has one.
    input.insert("x-working-on".into(), json!(working_on));
    if let Some(content) = content {
        input.insert("description".into(), json!(content));
    }
    // A flag list given empty stays empty (the builder keeps a list only with flags in it).
    if matches!(state.get("flags"), Some(Value::Array(f)) if f.is_empty()) {
        input.insert("x-flags".into(), json!([]));
    }
    Ok(input)
}

/// A snippet: `content` as `content_md`, `file_path` as `x-path`, the lines as `x-start-line`
/// and `x-end-line` (from the content when not given), `language` as `x-language`, `title`
/// as `description`.
fn snippet_input(record: &Map<String, Value>) -> Result<Map<String, Value>> {
    let start = number(record, "start_line")?.unwrap_or(1);
    let content = required(text(record, "content")?, "content")?;
    let lines = content.lines().count().max(1) as u64;
    let title = text(record, "title")?;
    let mut input = built(
        Snippet {
            path: text(record, "file_path")?.unwrap_or_default(),
            start_line: start,
            end_line: number(record, "end_line")?.unwrap_or(start + lines - 1),
            language: text(record, "language")?,
            text: content,
            git_blob: None,
            note: title.clone(),
        }
        .to_input(),
    )?;
    // The title as given, a blank one too (the builder keeps a note only when it says
    // something).
    if let Some(title) = title {
        input.insert("description".into(), json!(title));
    }
    Ok(input)
}

/// The record's `created_at` (Unix milliseconds) as the package's, in RFC 3339.
fn created_at(record: &Map<String, Value>) -> Result<Option<String>> {
    let Some(ms) = number(record, "created_at")? else {
        return Ok(None);
    };
    let at = (i64::try_from(ms).ok())
        .and_then(chrono::DateTime::from_timestamp_millis)
        .map(crate::time::format)
        .filter(|t| crate::time::parse(t).is_ok());
    at.map(Some).ok_or_else(|| {
        bad(format!(
            "record.created_at {ms} is not a time of the years 0000–9999 in Unix milliseconds"
        ))
    })
}

/// The project a request names: its own (`?project=`, or an MCP call's `project` argument)
/// or the record's `project` member; `None` when neither names one (the transport's default
/// then). Two that differ are refused rather than one silently chosen.
pub fn named_project(
    request: Option<String>,
    record: Option<&Map<String, Value>>,
) -> Result<Option<String>> {
    let of_record = match record {
        Some(r) => text(r, "project")?,
        None => None,
    };
    match (request, of_record) {
        (Some(a), Some(b)) if a != b => Err(bad(format!(
            "the request names project `{a}` and record.project names `{b}`: give one, or the \
             same in both"
        ))),
        (a, b) => Ok(a.or(b)),
    }
}

/// A package as an AMP record; `None` for a package of another type.
pub fn to_record(p: &Package) -> Option<Value> {
    let kind = Kind::of_type(p.package_type())?;
    let m = p.as_map();
    let get = |k: &str| m.get(k).cloned().unwrap_or(Value::Null);
    let mut r = json!({
        "id": p.id(),
        "type": kind.amp_type(),
        "created_at": p.created_at().timestamp_millis(),
        "agent": p.created_by().id,
        "project": p.project_id(),
        "tags": p.list("tags"),
    });
    match kind {
        Kind::Lesson => {
            r["title"] = json!(p.title());
            r["content"] = get("description");
            r["severity"] = m.get("x-severity").cloned().unwrap_or(json!("info"));
        }
        Kind::Checkpoint => {
            // The description holds the record's content; a checkpoint without one (another
            // writer's) shows what it is working on.
            r["content"] = match m.get("description") {
                Some(d @ Value::String(_)) => d.clone(),
                _ => get("x-working-on"),
            };
            r["working_on"] = get("x-working-on");
            r["state"] = json!({
                "decisions": p.list("decisions_made"),
                "blockers": p.list("x-blockers"),
                "artifacts": p.list("x-artifacts"),
                "flags": match m.get("x-flags") {
                    Some(flags) => flags.clone(),
                    None => json!(p.str_field("x-flag").into_iter().collect::<Vec<_>>()),
                },
            });
            // The session the record names (free text), else the relay session it was
            // written in.
            if let Some(s) = m
                .get("created_by")
                .and_then(|c| c.get("session_id"))
                .cloned()
            {
                r["session_id"] = s;
            }
        }
        Kind::Snippet => {
            r["content"] = get("content_md");
            if let Some(path) = m.get("x-path") {
                r["file_path"] = path.clone();
            }
            r["start_line"] = get("x-start-line");
            r["end_line"] = get("x-end-line");
            if let Some(l) = m.get("x-language") {
                r["language"] = l.clone();
            }
            if let Some(title) = m.get("description") {
                r["title"] = title.clone();
            }
        }
    }
    if let Some(Value::Object(extra)) = m.get(AMP_EXTRA) {
        keep_extra(&mut r, extra);
    }
    Some(r)
}

/// Puts back the members a record held that relay has none of its own for. relay's own
/// members stay as relay has them, but for `session_id`, which is the record's when it named
/// one; a checkpoint's unread `state` members join its state.
fn keep_extra(record: &mut Value, extra: &Map<String, Value>) {
    let Some(r) = record.as_object_mut() else {
        return;
    };
    for (name, value) in extra {
        match (r.get_mut(name), value) {
            (Some(Value::Object(state)), Value::Object(more)) if name == "state" => {
                for (k, v) in more {
                    state.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            (Some(_), _) if name != "session_id" => {}
            _ => {
                r.insert(name.clone(), value.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    /// `input` as the store holds it, with what a deposit fills in (by the actor `a`).
    fn stored(input: &Map<String, Value>) -> Package {
        let mut package = input.clone();
        for (k, v) in [
            ("package_id", json!("pkg_1")),
            ("project_id", json!("demo")),
            ("relay_version", json!("0.1")),
            ("created_at", json!("2026-01-01T00:00:00Z")),
            ("status", json!("complete")),
            ("review_type", json!("none")),
            (
                "created_by",
                json!({"id": "a", "type": "agent", "session_id": "ses_x"}),
            ),
        ] {
            package.entry(k).or_insert(v);
        }
        Package::from_map(package).unwrap()
    }

    /// Issue 59: a record of each type with every member given (and some relay has no field
    /// for) comes back as given; a checkpoint's `content` and `working_on` are two members,
    /// the content in the `description` search indexes.
    #[test]
    fn every_member_of_each_type_comes_back_as_given() {
        let records = [
            json!({"id": "l1", "type": "lesson", "title": "Pool connections",
                "content": "Use pgbouncer", "severity": "critical"}),
            json!({"id": "c1", "type": "checkpoint", "content": "Halfway through refresh",
                "working_on": " the auth flow\n", "session_id": "chat-1",
                "state": {"decisions": ["PKCE"], "blockers": ["no key"], "artifacts": ["a.rs"],
                    "flags": [], "next": {"ask": ["ops"]}}}),
            json!({"id": "s1", "type": "snippet", "content": "x\ny", "file_path": "",
                "language": "rust", "start_line": 3, "end_line": 9, "title": "",
                "repo": "acme/web"}),
        ];
        for given in records {
            let mut given = record(given);
            for (k, v) in record(json!({"created_at": 1_767_225_600_123_u64, "agent": "a",
                "project": "demo", "tags": ["t"], "updated_at": 7,
                "metadata": {"k": [1, null]}}))
            {
                given.insert(k, v);
            }
            let input = to_input(&given).unwrap();
            assert!(crate::memory::check_members(&input).is_ok(), "{input:?}");
            assert_eq!(input["created_at"], "2026-01-01T00:00:00.123000Z");
            let back = to_record(&stored(&input)).unwrap();
            assert_eq!(back, Value::Object(given));
        }
        let cp = to_input(&record(
            json!({"type": "checkpoint", "content": "Halfway there",
            "working_on": "the auth flow"}),
        ))
        .unwrap();
        assert_eq!(
            (&cp["description"], &cp["x-working-on"], &cp["title"]),
            (
                &json!("Halfway there"),
                &json!("the auth flow"),
                &json!("Checkpoint: the auth flow")
            )
        );
    }

    #[test]
    fn a_checkpoint_of_content_or_working_on_alone_reads_back_with_it_as_both() {
        for member in ["content", "working_on"] {
            let mut given = record(json!({"type": "checkpoint"}));
            given.insert(member.into(), json!("Rotating keys"));
            let back = to_record(&stored(&to_input(&given).unwrap())).unwrap();
            assert_eq!(
                (&back["content"], &back["working_on"]),
                (&json!("Rotating keys"), &json!("Rotating keys")),
                "{member}"
            );
        }
    }

    /// Packages an older relay wrote, or another writer, read back with what they hold: a
    /// checkpoint's description is its content (most repeat what it is working on), one
    /// without a description shows `x-working-on`, one without `x-flags` its status as its
    /// flags; a snippet's note is its title, and one without a note has none.
    #[test]
    fn packages_written_before_read_back_with_what_they_hold() {
        let old = record(
            json!({"package_type": "x-checkpoint", "title": "Checkpoint: auth",
            "description": "auth", "x-working-on": "auth", "x-flag": "BLOCKED",
            "x-blockers": ["no key"], "x-artifacts": []}),
        );
        let back = to_record(&stored(&old)).unwrap();
        assert_eq!(
            (&back["content"], &back["working_on"]),
            (&json!("auth"), &json!("auth"))
        );
        assert_eq!(back["state"]["flags"], json!(["BLOCKED"]));
        let mut bare = old.clone();
        bare.remove("description");
        assert_eq!(to_record(&stored(&bare)).unwrap()["content"], "auth");
        // An agent hook's checkpoint says more in its description than what it works on.
        let mut hook = old.clone();
        hook.insert("description".into(), json!("auth\n\nBranch: main"));
        let back = to_record(&stored(&hook)).unwrap();
        assert_eq!(
            (&back["content"], &back["working_on"]),
            (&json!("auth\n\nBranch: main"), &json!("auth"))
        );
        let snippet = record(
            json!({"package_type": "x-snippet", "title": "src/db.rs:3-4",
            "description": "Open the pool", "content_md": "let p = pool();",
            "x-path": "src/db.rs", "x-start-line": 3, "x-end-line": 4}),
        );
        let back = to_record(&stored(&snippet)).unwrap();
        assert_eq!(back["title"], "Open the pool");
        let mut bare = snippet.clone();
        bare.remove("description");
        assert!(to_record(&stored(&bare)).unwrap().get("title").is_none());
    }

    #[test]
    fn records_of_each_type_map_to_packages_and_back() {
        let lesson = to_input(&record(json!({
            "type": "lesson", "title": "PostgreSQL connection pooling",
            "content": "Always use connection pooling in production.",
            "tags": ["postgresql"], "severity": "warning"
        })))
        .unwrap();
        assert_eq!(lesson["package_type"], "x-lesson");
        assert_eq!(lesson["x-severity"], "warning");
        let cp = to_input(&record(json!({
            "type": "checkpoint", "agent": "radarr", "working_on": "Debugging auth flow",
            "state": {"blockers": ["Missing API key"], "flags": ["BLOCKED"]}
        })))
        .unwrap();
        assert_eq!(cp["x-working-on"], "Debugging auth flow");
        assert_eq!(cp["x-blockers"], json!(["Missing API key"]));
        let sn = to_input(&record(json!({
            "type": "snippet", "content": "a\nb\n", "file_path": "src/x.rs", "start_line": 4
        })))
        .unwrap();
        assert_eq!(
            (&sn["x-start-line"], &sn["x-end-line"]),
            (&json!(4), &json!(5))
        );
    }

    /// Issue 38: a record's members relay has none of its own for come back as given, a
    /// checkpoint's `session_id` among them; `flags` is a list; `file_path` is optional.
    #[test]
    fn unknown_members_flags_and_a_snippet_without_a_file_round_trip() {
        let cp = record(json!({
            "type": "checkpoint", "working_on": "auth", "session_id": "chat-42",
            "metadata": {"ticket": "OPS-7", "n": [1, 2]}, "updated_at": 5,
            "state": {"flags": ["blocked", "needs-review"], "next": "ask ops"}
        }));
        let input = to_input(&cp).unwrap();
        assert_eq!(input["x-flag"], "BLOCKED");
        assert_eq!(input["x-flags"], json!(["blocked", "needs-review"]));
        assert_eq!(
            input[AMP_EXTRA],
            json!({"session_id": "chat-42", "metadata": {"ticket": "OPS-7", "n": [1, 2]},
                "updated_at": 5, "state": {"next": "ask ops"}})
        );
        let back = to_record(&stored(&input)).unwrap();
        assert_eq!(back["session_id"], "chat-42");
        assert_eq!(back["metadata"], json!({"ticket": "OPS-7", "n": [1, 2]}));
        assert_eq!(back["updated_at"], 5);
        assert_eq!(
            back["state"],
            json!({"decisions": [], "blockers": [], "artifacts": [],
                "flags": ["blocked", "needs-review"], "next": "ask ops"})
        );
        let sn = to_input(&record(json!({"type": "snippet", "content": "x = 1"}))).unwrap();
        assert!(!sn.contains_key("x-path"));
        assert_eq!(sn["title"], "Snippet, lines 1-1");
        assert!(crate::memory::check_members(&sn).is_ok());
    }

    #[test]
    fn the_project_is_the_requests_or_the_records_and_two_that_differ_are_refused() {
        let r = record(json!({"type": "lesson", "project": "web"}));
        assert_eq!(named_project(None, None).unwrap(), None);
        assert_eq!(
            named_project(None, Some(&r)).unwrap().as_deref(),
            Some("web")
        );
        assert_eq!(
            named_project(Some("api".into()), None).unwrap().as_deref(),
            Some("api")
        );
        assert_eq!(
            named_project(Some("web".into()), Some(&r))
                .unwrap()
                .as_deref(),
            Some("web")
        );
        let clash = named_project(Some("api".into()), Some(&r)).unwrap_err();
        assert_eq!(clash.code(), "invalid_input");
        assert!(clash.to_string().contains("`api`") && clash.to_string().contains("`web`"));
        let typed = named_project(None, Some(&record(json!({"project": 5})))).unwrap_err();
        assert_eq!(
            typed.to_string(),
            "record.project must be a string, not a number"
        );
    }

    #[test]
    fn fields_of_the_wrong_type_are_named() {
        let err = |v: Value| to_input(&record(v)).unwrap_err().to_string();
        assert_eq!(
            err(json!({"type": "lesson", "title": 5, "content": "c"})),
            "record.title must be a string, not a number"
        );
        assert_eq!(
            err(json!({"type": "lesson", "title": "t", "content": "c", "tags": "a,b"})),
            "record.tags must be a list of strings, not a string"
        );
        assert_eq!(
            err(json!({"type": "checkpoint", "working_on": "w", "state": {"blockers": [1]}})),
            "record.state.blockers must be a list of strings; it holds a number"
        );
        assert_eq!(
            err(json!({"type": "memo", "content": "c"})),
            "record.type `memo` is not one relay stores: lesson, checkpoint or snippet"
        );
        assert_eq!(
            err(json!({"type": "lesson", "content": "c"})),
            "record.title is required"
        );
        assert!(
            err(json!({"type": "lesson", "title": "t", "content": "c", "severity": "high"}))
                .contains("severity `high`")
        );
        assert!(
            err(json!({"type": "snippet", "content": "c", "file_path": "f", "start_line": -1}))
                .contains("whole number")
        );
        assert_eq!(
            err(json!({"type": "lesson", "title": "t", "content": "c",
                "created_at": "2026-01-01T00:00:00Z"})),
            "record.created_at must be a whole number of 0 or more, not \"2026-01-01T00:00:00Z\""
        );
        assert!(
            err(json!({"type": "lesson", "title": "t", "content": "c",
                "created_at": 300_000_000_000_000_u64}))
            .contains("years 0000–9999")
        );
    }
}
