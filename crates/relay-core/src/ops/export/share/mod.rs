//! Share profiles (`relay export --share NAME`, `[share.NAME]` in `config.toml`): a backup
//! carries everything, a share only what a profile lets leave the store. This is the policy:
//! which records it withholds (projects, package types, statuses, tags; drafts unless named,
//! anything tagged `never_share` always), which package members it drops, which text it
//! redacts, and the derived records that makes: a changed package gets a new content hash and
//! names the one it was derived from, an unchanged one leaves byte for byte. `stream.rs`
//! applies it to the records an export reads.

mod stream;

pub use stream::{Shared, each_shared_record};

use std::collections::HashSet;

use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use serde_json::{Map, Value};

use super::Kind;
use relay_store::Store;
use relay_store::config::{ShareConfig, share_label};
use relay_wire::error::{Error, Result};
use relay_wire::package;

/// The tag that keeps a package or a fact out of every share, whatever the profile says.
pub const NEVER_SHARE: &str = "never_share";
/// What a redaction pattern's match, or a required member that was dropped, becomes.
pub const MARKER: &str = "<REDACTED:share>";

/// Members a valid package cannot be without, and no placeholder can stand in for: naming one
/// in `drop_fields` is an error.
const UNDROPPABLE: &[&str] = &[
    "package_id",
    "project_id",
    "relay_version",
    "status",
    "package_type",
    "review_type",
    "created_at",
    "created_by",
    "created_by.type",
];
/// Members a valid package needs whose value is free text: dropping one keeps it, as [`MARKER`].
const PLACEHOLDERS: &[&str] = &[
    "title",
    "created_by.id",
    "deliverables.path",
    "deliverables.type",
];

/// A parsed, checked `[share.NAME]` profile.
#[derive(Debug)]
pub struct Policy {
    name: String,
    projects: Option<Vec<String>>,
    package_types: Option<Vec<String>>,
    statuses: Vec<String>,
    tags: Option<Vec<String>>,
    drop: Vec<DropPath>,
    redact: Vec<RegexMatcher>,
}

/// One `drop_fields` entry: its dotted path, and whether the member stays as a placeholder.
#[derive(Debug)]
struct DropPath {
    segments: Vec<String>,
    placeholder: bool,
}

impl Policy {
    /// The store's profile `name`: `invalid_input` when there is none (listing those there
    /// are), `integrity_error` when it is malformed (as any bad `config.toml` is).
    pub fn load(store: &Store, name: &str) -> Result<Policy> {
        let config = store.config();
        let path = store.config_file();
        let profile = match config.share_profile(name) {
            Some(Ok(profile)) => profile,
            Some(Err(m)) => return Err(Error::Integrity(format!("{}: {m}", path.display()))),
            None => {
                let names = config.share_profiles();
                let known = if names.is_empty() {
                    "it has none: add a [share.NAME] table (see `relay export --help`)".to_string()
                } else {
                    format!("its profiles: {}", names.join(", "))
                };
                return Err(Error::InvalidInput(format!(
                    "no share profile `{name}` in {}; {known}",
                    path.display()
                )));
            }
        };
        Policy::parse(name, &profile)
            .map_err(|m| Error::Integrity(format!("{}: {m}", path.display())))
    }

    /// The profile `name` from its settings; the error names the profile and the key.
    pub fn parse(name: &str, c: &ShareConfig) -> std::result::Result<Policy, String> {
        let fail = |key: &str, m: String| format!("{}: `{key}`: {m}", share_label(name));
        let selection = |key: &str, list: &Option<Vec<String>>| match list {
            Some(l) if l.is_empty() => Err(fail(
                key,
                "an empty list selects nothing; leave the key out to select all".into(),
            )),
            _ => Ok(list.clone()),
        };
        let projects = selection("projects", &c.projects)?;
        let package_types = selection("package_types", &c.package_types)?;
        let tags = selection("tags", &c.tags)?;
        for t in package_types.iter().flatten() {
            if !package::is_known_package_type(t) {
                return Err(fail(
                    "package_types",
                    format!(
                        "unknown type `{t}` (one of {}, or an x- type)",
                        package::PACKAGE_TYPES.join(", ")
                    ),
                ));
            }
        }
        let statuses = match selection("statuses", &c.statuses)? {
            Some(list) => list,
            None => (package::STATUSES.iter())
                .filter(|s| **s != "draft")
                .map(|s| s.to_string())
                .collect(),
        };
        for s in &statuses {
            if !package::STATUSES.contains(&s.as_str()) {
                return Err(fail(
                    "statuses",
                    format!(
                        "unknown status `{s}` (one of {})",
                        package::STATUSES.join(", ")
                    ),
                ));
            }
        }
        let mut drop = Vec::new();
        for path in c.drop_fields.iter().flatten() {
            let segments: Vec<String> = path.split('.').map(str::to_string).collect();
            if segments.iter().any(String::is_empty) {
                return Err(fail(
                    "drop_fields",
                    format!(
                        "`{path}` is not a member name or a dotted path such as deliverables.path"
                    ),
                ));
            }
            if UNDROPPABLE.contains(&path.as_str()) {
                return Err(fail(
                    "drop_fields",
                    format!("`{path}` identifies a package and cannot be dropped"),
                ));
            }
            let placeholder = PLACEHOLDERS.contains(&path.as_str());
            drop.push(DropPath {
                segments,
                placeholder,
            });
        }
        let mut redact = Vec::new();
        for pattern in c.redact.iter().flatten() {
            let matcher = RegexMatcher::new(pattern)
                .map_err(|e| fail("redact", format!("`{pattern}` is not a valid pattern: {e}")))?;
            redact.push(matcher);
        }
        Ok(Policy {
            name: name.to_string(),
            projects,
            package_types,
            statuses,
            tags,
            drop,
            redact,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn selects_project(&self, id: &str) -> bool {
        self.projects
            .as_ref()
            .is_none_or(|l| l.iter().any(|p| p == id))
    }

    /// Whether a package (its current version) may leave: never with `never_share`, else
    /// when its status, type and tags are the profile's.
    pub(super) fn selects_package(&self, p: &Map<String, Value>) -> bool {
        let tags = strings(p.get("tags"));
        let text = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or_default();
        let among = |list: &[String], v: &str| list.iter().any(|x| x == v);
        !tags.contains(&NEVER_SHARE)
            && among(&self.statuses, text("status"))
            && (self.package_types.as_deref()).is_none_or(|l| among(l, text("package_type")))
            && (self.tags.as_deref()).is_none_or(|l| tags.iter().any(|t| among(l, t)))
    }

    /// Whether a fact may leave: not tagged `never_share`, and not asserted from a package the
    /// share withholds (importing it would fail: its source must exist, §7.2).
    pub(super) fn selects_fact(&self, f: &Map<String, Value>, withheld: &HashSet<String>) -> bool {
        !strings(f.get("tags")).contains(&NEVER_SHARE)
            && (f.get("source_package_id").and_then(Value::as_str))
                .is_none_or(|id| !withheld.contains(id))
    }

    /// Drops the profile's members (of a package) and redacts every string the patterns
    /// match; whether anything changed.
    pub(super) fn derive(&self, kind: Kind, record: &mut Map<String, Value>) -> bool {
        let mut changed = false;
        if kind == Kind::Packages {
            for path in &self.drop {
                changed |= drop_path(record, &path.segments, path.placeholder);
            }
        }
        if !self.redact.is_empty() {
            changed |= self.redact_map(record);
        }
        changed
    }

    fn redact_map(&self, map: &mut Map<String, Value>) -> bool {
        let mut changed = false;
        for (key, value) in map.iter_mut() {
            if !structural(key) {
                changed |= self.redact_value(value);
            }
        }
        changed
    }

    fn redact_value(&self, value: &mut Value) -> bool {
        match value {
            Value::String(s) => match self.redacted(s) {
                Some(r) => {
                    *s = r;
                    true
                }
                None => false,
            },
            Value::Array(items) => items
                .iter_mut()
                .fold(false, |changed, v| self.redact_value(v) | changed),
            Value::Object(map) => self.redact_map(map),
            _ => false,
        }
    }

    /// `text` with every match of every pattern replaced by [`MARKER`]; `None` if none matched.
    fn redacted(&self, text: &str) -> Option<String> {
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for m in &self.redact {
            let _ = m.find_iter(text.as_bytes(), |found| {
                let (start, end) = (found.start(), found.end());
                if start < end && text.is_char_boundary(start) && text.is_char_boundary(end) {
                    spans.push((start, end));
                }
                true
            });
        }
        if spans.is_empty() {
            return None;
        }
        spans.sort_unstable();
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end) in spans {
            if end <= at {
                continue;
            }
            if start >= at {
                out.push_str(&text[at..start]);
                out.push_str(MARKER);
            }
            at = end;
        }
        out.push_str(&text[at..]);
        Some(out)
    }
}

/// Members whose values are ids, references, times or enums: redacting one would break the
/// record or what points at it, so patterns never touch them.
fn structural(key: &str) -> bool {
    (key.ends_with("_id") && key != "actor_id")
        || key.ends_with("_at")
        || matches!(
            key,
            "valid_from"
                | "valid_to"
                | "relay_version"
                | "status"
                | "package_type"
                | "review_type"
                | "type"
                | "actor_type"
                | "estimated_next_actor"
                | "packages_deposited"
        )
}

/// The strings of a list member (none when it is absent or not a list).
fn strings(v: Option<&Value>) -> Vec<&str> {
    match v {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Removes the member at `path` (into objects, and into each object of an array), or sets it
/// to [`MARKER`] when it must stay; whether anything changed.
fn drop_path(map: &mut Map<String, Value>, path: &[String], placeholder: bool) -> bool {
    match path {
        [] => false,
        [last] if placeholder => match map.get_mut(last) {
            Some(v) if v.as_str() != Some(MARKER) => {
                *v = Value::from(MARKER);
                true
            }
            _ => false,
        },
        [last] => map.shift_remove(last).is_some(),
        [first, rest @ ..] => match map.get_mut(first) {
            Some(Value::Object(inner)) => drop_path(inner, rest, placeholder),
            Some(Value::Array(items)) => items.iter_mut().fold(false, |changed, v| match v {
                Value::Object(inner) => drop_path(inner, rest, placeholder) | changed,
                _ => changed,
            }),
            _ => false,
        },
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use serde_json::json;

    pub(super) fn policy(settings: Value) -> std::result::Result<Policy, String> {
        let list = |k: &str| {
            settings.get(k).map(|v| {
                (v.as_array().unwrap().iter())
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect()
            })
        };
        let c = ShareConfig {
            projects: list("projects"),
            package_types: list("package_types"),
            statuses: list("statuses"),
            tags: list("tags"),
            drop_fields: list("drop_fields"),
            redact: list("redact"),
        };
        Policy::parse("public", &c)
    }

    pub(super) fn map(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    fn pkg(status: &str, ptype: &str, tags: &[&str]) -> Map<String, Value> {
        map(json!({"package_id": "pkg_1", "status": status, "package_type": ptype, "tags": tags}))
    }

    #[test]
    fn profiles_parse_with_defaults_and_bad_ones_name_profile_and_key() {
        let p = policy(json!({})).unwrap();
        assert_eq!(
            p.statuses,
            ["complete", "awaiting_review", "revision_requested"]
        );
        assert!(p.selects_project("anything") && p.drop.is_empty() && p.redact.is_empty());
        let p = policy(json!({"drop_fields": ["title", "deliverables.hash"]})).unwrap();
        let placeholders: Vec<bool> = p.drop.iter().map(|d| d.placeholder).collect();
        assert_eq!(placeholders, [true, false]);
        assert_eq!(p.drop[1].segments, ["deliverables", "hash"]);
        let bad = |settings: Value| policy(settings).unwrap_err();
        for (settings, expected) in [
            (
                json!({"statuses": ["drafts"]}),
                "[share.public]: `statuses`: unknown status `drafts`",
            ),
            (
                json!({"package_types": ["note"]}),
                "[share.public]: `package_types`: unknown type `note`",
            ),
            (
                json!({"projects": []}),
                "[share.public]: `projects`: an empty list selects nothing",
            ),
            (
                json!({"drop_fields": ["status"]}),
                "[share.public]: `drop_fields`: `status` identifies a package",
            ),
            (
                json!({"drop_fields": ["deliverables..path"]}),
                "[share.public]: `drop_fields`: `deliverables..path` is not a member name",
            ),
            (
                json!({"redact": ["(unclosed"]}),
                "[share.public]: `redact`: `(unclosed` is not a valid pattern",
            ),
        ] {
            let m = bad(settings.clone());
            assert!(m.starts_with(expected), "{settings}: {m}");
        }
        assert!(policy(json!({"package_types": ["x-note"]})).is_ok());
    }

    #[test]
    fn drafts_stay_unless_listed_and_never_share_always_wins() {
        let default = policy(json!({})).unwrap();
        assert!(default.selects_package(&pkg("complete", "standard", &[])));
        assert!(!default.selects_package(&pkg("draft", "standard", &[])));
        assert!(!default.selects_package(&pkg("complete", "standard", &["a", NEVER_SHARE])));
        let drafts = policy(json!({"statuses": ["draft"], "tags": [NEVER_SHARE, "a"]})).unwrap();
        assert!(drafts.selects_package(&pkg("draft", "standard", &["a"])));
        assert!(!drafts.selects_package(&pkg("complete", "standard", &["a"])));
        assert!(
            !drafts.selects_package(&pkg("draft", "standard", &[NEVER_SHARE])),
            "never_share wins even when the profile names it"
        );
        let narrow = policy(json!({"package_types": ["decision"], "tags": ["public"]})).unwrap();
        assert!(narrow.selects_package(&pkg("complete", "decision", &["x", "public"])));
        assert!(!narrow.selects_package(&pkg("complete", "standard", &["public"])));
        assert!(!narrow.selects_package(&pkg("complete", "decision", &["x"])));
        assert!(!narrow.selects_package(&pkg("complete", "decision", &[])));
        let withheld: HashSet<String> = ["pkg_gone".to_string()].into();
        let fact = |v: Value| default.selects_fact(&map(v), &withheld);
        assert!(fact(json!({"source_package_id": "pkg_kept"})));
        assert!(fact(json!({"tags": ["a"]})));
        assert!(!fact(json!({"source_package_id": "pkg_gone"})));
        assert!(!fact(json!({"tags": [NEVER_SHARE]})));
        let web = policy(json!({"projects": ["web"]})).unwrap();
        assert!(web.selects_project("web") && !web.selects_project("demo"));
    }

    #[test]
    fn fields_drop_at_the_top_and_along_dotted_paths() {
        let p = policy(json!({"drop_fields": [
            "content_md", "created_by.git_commit", "deliverables.hash", "deliverables.path",
            "x-meta.inner", "absent.member"
        ]}))
        .unwrap();
        let mut record = map(json!({
            "title": "T", "content_md": "# body",
            "created_by": {"id": "jo", "type": "human", "git_commit": "abc"},
            "deliverables": [
                {"path": "a.md", "type": "md", "hash": "sha256:00"},
                {"path": "b.md", "type": "md"},
                "not an object"
            ],
            "x-meta": {"inner": 1, "kept": 2}
        }));
        assert!(p.derive(Kind::Packages, &mut record));
        assert_eq!(
            Value::Object(record.clone()),
            json!({
                "title": "T",
                "created_by": {"id": "jo", "type": "human"},
                "deliverables": [
                    {"path": MARKER, "type": "md"},
                    {"path": MARKER, "type": "md"},
                    "not an object"
                ],
                "x-meta": {"kept": 2}
            })
        );
        assert!(
            !p.derive(Kind::Packages, &mut record),
            "twice changes nothing more"
        );
        let mut fact = map(json!({"fact_id": "f", "content_md": "kept: facts drop nothing"}));
        assert!(!p.derive(Kind::Facts, &mut fact));
    }

    #[test]
    fn redaction_replaces_matches_in_text_never_in_ids_times_or_enums() {
        let p = policy(json!({"redact": [r"corp\.example", r"host-\d+\.corp", "ZZ"]})).unwrap();
        let mut record = map(json!({
            "package_id": "pkg_corp.example", "project_id": "corp.example",
            "status": "corp.example", "created_at": "corp.example",
            "title": "deploy to host-7.corp.example and corp.example",
            "tags": ["corp.example", "other"],
            "created_by": {"id": "jo@corp.example", "type": "human", "session_id": "corp.example"},
            "n": 3
        }));
        assert!(p.derive(Kind::Facts, &mut record));
        assert_eq!(record["package_id"], "pkg_corp.example");
        assert_eq!(record["project_id"], "corp.example");
        assert_eq!(record["status"], "corp.example");
        assert_eq!(record["created_at"], "corp.example");
        assert_eq!(record["title"], format!("deploy to {MARKER} and {MARKER}"));
        assert_eq!(record["tags"], json!([MARKER, "other"]));
        assert_eq!(record["created_by"]["id"], format!("jo@{MARKER}"));
        assert_eq!(record["created_by"]["session_id"], "corp.example");
        assert!(!p.derive(Kind::Facts, &mut map(json!({"title": "nothing here"}))));
        assert_eq!(p.redacted("ZZZZ").unwrap(), format!("{MARKER}{MARKER}"));
    }
}
