//! The Context Package (§6). A package is kept as the JSON object it arrived as, so that unknown
//! and `x-*` members, explicit `""` and member order survive untouched (DESIGN invariant 5);
//! construction validates it, and the accessors below read the validated fields.

use serde_json::Value;

use super::tree::Object;
use super::validate::{Check, Fields};
use super::{canonical, time};
use crate::error::SchemaError;

/// The required fields of §6.1, in the spec's order.
pub const REQUIRED_FIELDS: &[&str] = &[
    "package_id",
    "project_id",
    "relay_version",
    "title",
    "status",
    "package_type",
    "review_type",
    "created_at",
    "created_by",
];
/// The members of a package that hold times relay takes only in UTC ([`time::require_utc`]).
pub const TIMES: &[&str] = &["created_at", crate::expiry::EXPIRES_AT];
pub const STATUSES: &[&str] = &["draft", "complete", "awaiting_review", "revision_requested"];
pub const PACKAGE_TYPES: &[&str] = &[
    "standard",
    "milestone",
    "decision",
    "handoff",
    "auto_deposit",
    "analysis",
    "question",
    "orchestrator_report",
];
pub const REVIEW_TYPES: &[&str] = &["none", "human", "agent"];
pub const NEXT_ACTORS: &[&str] = &["human", "agent"];
pub const TITLE_MAX_CHARS: usize = 200;

/// The lifecycle states of §5.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    Draft,
    Complete,
    AwaitingReview,
    RevisionRequested,
}

impl Status {
    /// Whether the lifecycle of §5.3 lets a package go from this state to `to` in one step.
    /// `complete` is terminal.
    pub fn may_become(self, to: Status) -> bool {
        use Status::*;
        matches!(
            (self, to),
            (Draft, Complete | AwaitingReview)
                | (AwaitingReview, Complete | RevisionRequested)
                | (RevisionRequested, AwaitingReview | Complete)
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Draft => "draft",
            Status::Complete => "complete",
            Status::AwaitingReview => "awaiting_review",
            Status::RevisionRequested => "revision_requested",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "draft" => Some(Status::Draft),
            "complete" => Some(Status::Complete),
            "awaiting_review" => Some(Status::AwaitingReview),
            "revision_requested" => Some(Status::RevisionRequested),
            _ => None,
        }
    }
}

/// Whether `t` is a legal `package_type`: one of §6.3 or an `x-*` extension (§12.2).
pub fn is_known_package_type(t: &str) -> bool {
    PACKAGE_TYPES.contains(&t) || (t.starts_with("x-") && t.len() > 2)
}

wire_record! {
    /// A validated Context Package.
    Package, validate
}

/// The `created_by` attribution, borrowed from a package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActorRef<'a> {
    pub id: &'a str,
    pub actor_type: &'a str,
    pub session_id: Option<&'a str>,
    pub git_commit: Option<&'a str>,
}

impl Package {
    /// The content hash of §6.6: `sha256:` over the canonical JSON of the package as stored.
    pub fn content_hash(&self) -> String {
        canonical::content_hash_of_map(&self.0)
    }

    pub fn id(&self) -> &str {
        self.str_field("package_id").unwrap_or_default()
    }

    pub fn project_id(&self) -> &str {
        self.str_field("project_id").unwrap_or_default()
    }

    pub fn title(&self) -> &str {
        self.str_field("title").unwrap_or_default()
    }

    pub fn status(&self) -> Status {
        self.str_field("status")
            .and_then(Status::parse)
            .unwrap_or(Status::Complete)
    }

    pub fn package_type(&self) -> &str {
        self.str_field("package_type").unwrap_or("standard")
    }

    pub fn review_type(&self) -> &str {
        self.str_field("review_type").unwrap_or("none")
    }

    pub fn created_at_str(&self) -> &str {
        self.str_field("created_at").unwrap_or_default()
    }

    /// `created_at` parsed; validation guarantees it parses.
    pub fn created_at(&self) -> time::Timestamp {
        time::parse(self.created_at_str()).unwrap_or_default()
    }

    pub fn significance(&self) -> i64 {
        let n = self.0.get("significance");
        n.and_then(Value::as_i64)
            .or_else(|| n.and_then(Value::as_f64).map(|f| f as i64))
            .unwrap_or(5)
    }

    pub fn created_by(&self) -> ActorRef<'_> {
        let by = self.0.get("created_by").and_then(Value::as_object);
        let get = |k: &str| by.and_then(|m| m.get(k)).and_then(Value::as_str);
        ActorRef {
            id: get("id").unwrap_or_default(),
            actor_type: get("type").unwrap_or("human"),
            session_id: get("session_id"),
            git_commit: get("git_commit"),
        }
    }

    /// The deliverables (§6.5); validation guarantees their shape.
    pub fn deliverables(&self) -> Vec<Deliverable<'_>> {
        let Some(Value::Array(items)) = self.0.get("deliverables") else {
            return Vec::new();
        };
        items
            .iter()
            .map(|d| {
                let s = |k: &str| d.get(k).and_then(Value::as_str);
                Deliverable {
                    path: s("path").unwrap_or_default(),
                    kind: s("type").unwrap_or_default(),
                    hash: s("hash"),
                    size_bytes: d.get("size_bytes").and_then(Value::as_u64),
                }
            })
            .collect()
    }
}

/// A deliverable (§6.5), borrowed from a package: a reference to an artifact the package
/// produced. Unknown members stay in the package's JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deliverable<'a> {
    /// A path relative to the project, or a URL.
    pub path: &'a str,
    /// A type hint (`md`, `rs`, `url`, …).
    pub kind: &'a str,
    /// `sha256:<hex>` of the content, when known.
    pub hash: Option<&'a str>,
    pub size_bytes: Option<u64>,
}

/// Checks every constraint of §6 that relay enforces.
pub fn validate<O: Object>(map: &O) -> Check<()> {
    let f = Fields::root(map);
    f.id("package_id")?;
    f.id("project_id")?;
    let version = f.required_str("relay_version")?;
    if version != super::PROTOCOL_VERSION {
        return Err(SchemaError::new(
            "relay_version",
            format!(
                "must be \"{}\" (got \"{version}\")",
                super::PROTOCOL_VERSION
            ),
        ));
    }
    let title = f.required_str("title")?;
    let chars = title.chars().count();
    if chars == 0 || chars > TITLE_MAX_CHARS {
        return Err(SchemaError::new(
            "title",
            format!("must be 1–{TITLE_MAX_CHARS} characters (got {chars})"),
        ));
    }
    f.required_enum("status", STATUSES)?;
    let ptype = f.required_str("package_type")?;
    if !is_known_package_type(ptype) {
        return Err(SchemaError::new(
            "package_type",
            format!(
                "must be one of {} or an `x-` extension such as x-{ptype} (got \"{ptype}\")",
                PACKAGE_TYPES.join(", ")
            ),
        ));
    }
    f.required_enum("review_type", REVIEW_TYPES)?;
    f.required_timestamp("created_at")?;
    f.required_object("created_by")?.actor()?;

    for name in [
        "description",
        "handoff_note",
        "content_md",
        "parent_package_id",
        "topic",
        "artifact_type",
        "storage_path",
    ] {
        f.optional_str(name)?;
    }
    for name in ["tags", "decisions_made", "open_questions"] {
        f.string_list(name)?;
    }
    f.optional_enum("estimated_next_actor", NEXT_ACTORS)?;
    f.optional_int("significance", 1, 10)?;
    f.object_list("deliverables", |d| {
        d.required_str("path")?;
        d.required_str("type")?;
        d.optional_str("hash")?;
        d.optional_int("size_bytes", 0, i64::MAX)?;
        Ok(())
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn minimal() -> Value {
        json!({
            "package_id": "pkg_1", "project_id": "p", "relay_version": "0.1", "title": "T",
            "status": "complete", "package_type": "standard", "review_type": "none",
            "created_at": "2026-04-18T20:00:00Z", "created_by": {"id": "jo", "type": "human"}
        })
    }

    fn with(field: &str, v: Value) -> Value {
        let mut p = minimal();
        p[field] = v;
        p
    }

    fn without(field: &str) -> Value {
        let mut p = minimal();
        p.as_object_mut().unwrap().remove(field);
        p
    }

    fn err(v: Value) -> SchemaError {
        Package::from_value(v).unwrap_err()
    }

    #[test]
    fn accepts_the_minimal_package_and_reads_it() {
        let p = Package::from_value(minimal()).unwrap();
        assert_eq!(p.id(), "pkg_1");
        assert_eq!(p.status(), Status::Complete);
        assert_eq!(p.significance(), 5);
        assert_eq!(p.created_by().id, "jo");
    }

    #[test]
    fn every_required_field_is_required() {
        for &f in REQUIRED_FIELDS {
            let e = err(without(f));
            assert_eq!(e.field, f);
            assert_eq!(e.problem, "is required");
            let e = err(with(f, Value::Null));
            assert_eq!(e.field, f, "null counts as missing");
        }
    }

    #[test]
    fn enums_and_extension_types() {
        assert_eq!(err(with("status", json!("done"))).field, "status");
        assert_eq!(
            err(with("review_type", json!("robot"))).field,
            "review_type"
        );
        let e = err(with("package_type", json!("memo")));
        assert!(e.problem.contains("x-memo"), "{e}");
        assert!(Package::from_value(with("package_type", json!("x-model-eval"))).is_ok());
        assert!(Package::from_value(with("package_type", json!("x-"))).is_err());
        let e = err(with("created_by", json!({"id": "a", "type": "robot"})));
        assert_eq!(e.field, "created_by.type");
        assert_eq!(
            err(with("created_by", json!({"type": "agent"}))).field,
            "created_by.id"
        );
        assert_eq!(
            err(with("estimated_next_actor", json!("script"))).field,
            "estimated_next_actor"
        );
        assert!(Package::from_value(with("estimated_next_actor", Value::Null)).is_ok());
    }

    #[test]
    fn title_length_is_counted_in_characters() {
        assert!(Package::from_value(with("title", json!("é".repeat(200)))).is_ok());
        let e = err(with("title", json!("é".repeat(201))));
        assert_eq!(e.to_string(), "`title` must be 1–200 characters (got 201)");
        assert_eq!(err(with("title", json!(""))).field, "title");
    }

    #[test]
    fn significance_timestamps_version_and_lists() {
        assert!(Package::from_value(with("significance", json!(10))).is_ok());
        assert!(Package::from_value(with("significance", json!(5.0))).is_ok());
        for bad in [json!(0), json!(11), json!(5.5), json!("5")] {
            assert_eq!(err(with("significance", bad)).field, "significance");
        }
        assert_eq!(
            err(with("created_at", json!("yesterday"))).field,
            "created_at"
        );
        assert!(
            err(with("relay_version", json!("0.2")))
                .problem
                .contains("\"0.1\"")
        );
        assert_eq!(err(with("tags", json!(["a", 1]))).field, "tags[1]");
        assert_eq!(
            err(with("decisions_made", json!("x"))).field,
            "decisions_made"
        );
        let e = err(with(
            "deliverables",
            json!([{"path": "a.md", "type": "md"}, {"type": "md"}]),
        ));
        assert_eq!(e.field, "deliverables[1].path");
        let e = err(with(
            "deliverables",
            json!([{"path": "a", "type": "md", "size_bytes": -1}]),
        ));
        assert_eq!(e.field, "deliverables[0].size_bytes");
    }

    #[test]
    fn unknown_and_extension_members_are_kept_exactly() {
        let mut v = minimal();
        v["x-trust"] = json!({"score": 0.75, "n": [1, null]});
        v["future_field"] = json!("");
        v["topic"] = Value::Null;
        let p = Package::from_value(v.clone()).unwrap();
        assert_eq!(p.to_value(), v);
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            serde_json::to_string(&v).unwrap()
        );
    }

    /// Numbers keep the text they were written with; what relay reads of them is the number
    /// that text names, however it is written.
    #[test]
    fn numbers_read_the_same_however_they_are_written() {
        // serde_json spells an exponent one way: `e`, with its sign.
        for (text, kept) in [
            ("7", "7"),
            ("7.0", "7.0"),
            ("7E0", "7e+0"),
            ("70e-1", "70e-1"),
            ("7.000000000000000000001", "7.000000000000000000001"),
        ] {
            let v: Value = crate::strict::from_str(&format!(
                r#"{{"package_id": "pkg_1", "project_id": "p", "relay_version": "0.1",
                "title": "T", "status": "complete", "package_type": "standard",
                "review_type": "none", "created_at": "2026-04-18T20:00:00Z",
                "created_by": {{"id": "jo", "type": "human"}}, "significance": {text},
                "deliverables": [{{"path": "a", "type": "md", "size_bytes": 12}}]}}"#
            ))
            .unwrap();
            let p = Package::from_value(v).unwrap();
            assert_eq!(p.significance(), 7, "{text}");
            assert_eq!(p.to_value()["significance"].to_string(), kept);
            assert_eq!(p.deliverables()[0].size_bytes, Some(12));
        }
        // Too many digits for an integer, and no integer a double holds exactly, still refused.
        for text in ["7.5", "70000000000000000000000000000"] {
            let v = with("significance", crate::strict::from_str(text).unwrap());
            assert_eq!(err(v).field, "significance", "{text}");
        }
    }
}
