//! deposit's request (§8.1): a package given as named fields, as a whole or partial wire
//! package (`package`), or both — the named fields override the package's and add to its
//! lists. HTTP's body is the wire package itself ([`DepositRequest::of_package`]); the CLI
//! and MCP name the fields. Paths among the deliverables are resolved by the door, which
//! knows the working folder.

use serde::Deserialize;
use serde_json::{Map, Value};

use relay_wire::error::{Result, SchemaError};
use relay_wire::package;

/// The lowest and highest significance a package may have.
pub const SIGNIFICANCE_RANGE: std::ops::RangeInclusive<i64> = 1..=10;

/// What a deposit is asked for.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DepositRequest {
    /// One-line summary of what was done (1–200 characters)
    pub title: Option<String>,
    /// Longer prose
    pub description: Option<String>,
    /// standard (default), milestone, decision, handoff, auto_deposit, analysis, question,
    /// orchestrator_report, or an x-* extension
    pub package_type: Option<String>,
    /// Lifecycle status (default complete); a draft is visible to its creator only
    #[serde(default)]
    #[schemars(schema_with = "statuses")]
    pub status: Option<String>,
    /// Who must review it (default none)
    #[serde(default)]
    #[schemars(schema_with = "review_types")]
    pub review_type: Option<String>,
    /// Labels
    #[serde(default)]
    pub tags: Vec<String>,
    /// Decisions made, one per item
    #[serde(default)]
    pub decisions_made: Vec<String>,
    /// Questions left open, one per item
    #[serde(default)]
    pub open_questions: Vec<String>,
    /// Guidance for whoever picks this up next
    pub handoff_note: Option<String>,
    /// Who should pick it up next
    #[serde(default)]
    #[schemars(schema_with = "next_actors")]
    pub estimated_next_actor: Option<String>,
    /// Files, folders or URLs produced; paths are relative to the working folder, and files
    /// get their sha256 and size recorded
    #[serde(default)]
    pub deliverables: Vec<String>,
    /// The package this one corrects or extends
    pub parent_package_id: Option<String>,
    /// 1 (noise) to 10 (critical); default 5
    #[schemars(range(min = 1, max = 10))]
    pub significance: Option<i64>,
    /// Subject area, e.g. retrieval
    pub topic: Option<String>,
    /// A narrower type hint than package_type
    pub artifact_type: Option<String>,
    /// A Markdown body
    pub content_md: Option<String>,
    /// Use this id instead of a new one: a retry with identical content is then a harmless
    /// no-op
    pub package_id: Option<String>,
    /// More wire fields (Agentic Protocol §6), e.g. x-* extensions; the named arguments
    /// override its fields and add to its lists
    pub package: Option<Map<String, Value>>,
    /// Take the package as the protocol does (§8.1): every required member of §6.1 given
    /// (package_id, project_id, relay_version, title, status, package_type, review_type,
    /// created_at, created_by), none filled in by relay
    #[serde(default)]
    pub strict: bool,
}

/// How a deposit takes its package: whole, as the protocol does, or with what the caller left
/// out filled in, as relay's conveniences do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// relay's convenience (the CLI's flags and `--from`, MCP's named arguments): of §6.1's
    /// required members, relay fills in what the caller left out (a new id, the project, the
    /// protocol version, the time, `complete`, `standard`, review `none`, and the writer).
    #[default]
    Filled,
    /// The protocol's (§8.1: "Required fields MUST be present"): HTTP's body, `relay deposit
    /// --strict`, MCP's `strict`. A required member missing is `invalid_schema`.
    Whole,
}

impl Form {
    /// The form a door's strict switch (`--strict`, `strict`) asks for.
    pub fn of(strict: bool) -> Form {
        match strict {
            true => Form::Whole,
            false => Form::Filled,
        }
    }

    /// For [`Form::Whole`], refuses a package that lacked the members `lacking` of §6.1,
    /// naming the first in §6.1's order.
    pub fn refuse_lacking(self, lacking: &[&str]) -> Result<()> {
        if self == Form::Filled {
            return Ok(());
        }
        let missing = (package::REQUIRED_FIELDS.iter()).find(|f| lacking.contains(*f));
        match missing {
            None => Ok(()),
            Some(field) => Err(SchemaError::new(
                *field,
                format!(
                    "is required: a package deposited whole (§8.1) names every member of §6.1 \
                     ({}); relay fills in what is left out only for the CLI's flags and \
                     `--from` and MCP's named arguments, without strict",
                    package::REQUIRED_FIELDS.join(", ")
                ),
            )
            .into()),
        }
    }
}

fn statuses(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    super::one_of(package::STATUSES)
}

fn review_types(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    super::one_of(package::REVIEW_TYPES)
}

fn next_actors(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    super::one_of(package::NEXT_ACTORS)
}

/// A deposit without a title: §8.1's `invalid_schema` (a required field missing), with the
/// ways every door takes one.
pub fn missing_title() -> relay_wire::error::Error {
    super::shape_error(
        "title",
        "is required: a one-line summary of what was done (--title TEXT, `title` in the \
         package or as an argument; a terminal prompts for it)",
    )
}

impl DepositRequest {
    /// HTTP's deposit: the body is the wire package (§8.1), nothing named beside it.
    pub fn of_package(package: Map<String, Value>) -> DepositRequest {
        DepositRequest {
            package: Some(package),
            strict: true,
            ..DepositRequest::default()
        }
    }

    /// The form its package is taken in.
    pub fn form(&self) -> Form {
        Form::of(self.strict)
    }

    /// Refuses a status, review type or next actor §6 does not name, and a significance
    /// outside [`SIGNIFICANCE_RANGE`] (`invalid_schema`, as the package would be refused).
    pub fn validate(&self) -> Result<()> {
        let named = [
            ("status", &self.status, package::STATUSES),
            ("review_type", &self.review_type, package::REVIEW_TYPES),
            (
                "estimated_next_actor",
                &self.estimated_next_actor,
                package::NEXT_ACTORS,
            ),
        ];
        for (name, value, allowed) in named {
            if let Some(v) = value
                && !allowed.contains(&v.as_str())
            {
                let why = format!("`{v}` is not one of {}", allowed.join(", "));
                return Err(SchemaError::new(name, why).into());
            }
        }
        if let Some(n) = self.significance
            && !SIGNIFICANCE_RANGE.contains(&n)
        {
            let (lo, hi) = (SIGNIFICANCE_RANGE.start(), SIGNIFICANCE_RANGE.end());
            let why = format!("must be from {lo} to {hi} (got {n})");
            return Err(SchemaError::new("significance", why).into());
        }
        Ok(())
    }

    /// The deposit's input: `package` with the named fields over it, the lists added to,
    /// and `deliverables` (the door's resolution of [`DepositRequest::deliverables`]) added.
    pub fn into_input(self, deliverables: Vec<Value>) -> Result<Map<String, Value>> {
        self.validate()?;
        let mut map = self.package.unwrap_or_default();
        let named = [
            ("package_id", self.package_id),
            ("title", self.title),
            ("description", self.description),
            ("package_type", self.package_type),
            ("status", self.status),
            ("review_type", self.review_type),
            ("handoff_note", self.handoff_note),
            ("estimated_next_actor", self.estimated_next_actor),
            ("parent_package_id", self.parent_package_id),
            ("topic", self.topic),
            ("artifact_type", self.artifact_type),
        ];
        for (key, value) in named {
            if let Some(v) = value {
                map.insert(key.into(), Value::String(v));
            }
        }
        if let Some(n) = self.significance {
            map.insert("significance".into(), Value::from(n));
        }
        if let Some(text) = self.content_md {
            map.insert("content_md".into(), Value::String(text));
        }
        let strings = |items: Vec<String>| items.into_iter().map(Value::String).collect();
        extend(&mut map, "tags", strings(self.tags))?;
        extend(&mut map, "decisions_made", strings(self.decisions_made))?;
        extend(&mut map, "open_questions", strings(self.open_questions))?;
        extend(&mut map, "deliverables", deliverables)?;
        Ok(map)
    }
}

/// Adds `items` to the list `key` of a partial package (creating it when absent or null).
pub fn extend(map: &mut Map<String, Value>, key: &str, items: Vec<Value>) -> Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    match map
        .entry(key.to_string())
        .or_insert_with(|| Value::Array(Vec::new()))
    {
        Value::Array(list) => list.extend(items),
        other @ Value::Null => *other = Value::Array(items),
        _ => {
            return Err(relay_wire::error::Error::InvalidSchema(
                relay_wire::error::SchemaError::new(key, "must be an array to be added to"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn named_fields_override_the_package_and_add_to_its_lists() {
        let r: DepositRequest = serde_json::from_value(json!({
            "title": "Named",
            "tags": ["b"],
            "significance": 7,
            "package": {"title": "Given", "tags": ["a"], "x-k": 1},
        }))
        .unwrap();
        let input = r.into_input(vec![json!({"path": "x"})]).unwrap();
        assert_eq!(
            Value::Object(input),
            json!({"title": "Named", "tags": ["a", "b"], "x-k": 1, "significance": 7,
                   "deliverables": [{"path": "x"}]})
        );
        let http = DepositRequest::of_package(json!({"title": "T"}).as_object().unwrap().clone());
        assert_eq!(
            Value::Object(http.into_input(Vec::new()).unwrap()),
            json!({"title": "T"})
        );
    }

    #[test]
    fn enum_like_fields_and_significance_are_checked() {
        for bad in [
            json!({"status": "bogus"}),
            json!({"review_type": "robot"}),
            json!({"estimated_next_actor": "nobody"}),
            json!({"significance": 11}),
        ] {
            let r: DepositRequest = serde_json::from_value(bad.clone()).unwrap();
            assert_eq!(r.validate().unwrap_err().code(), "invalid_schema", "{bad}");
        }
        assert!(serde_json::from_value::<DepositRequest>(json!({"titel": "x"})).is_err());
    }

    #[test]
    fn a_whole_package_names_every_required_member() {
        assert!(Form::Whole.refuse_lacking(&[]).is_ok());
        for field in package::REQUIRED_FIELDS {
            let e = Form::Whole.refuse_lacking(&[field]).unwrap_err();
            assert_eq!(e.code(), "invalid_schema");
            assert!(
                e.to_string().contains(&format!("`{field}` is required")),
                "{e}"
            );
            assert!(Form::Filled.refuse_lacking(&[field]).is_ok());
        }
        let e = Form::Whole
            .refuse_lacking(&["created_by", "status"])
            .unwrap_err();
        assert!(
            e.to_string().contains("`status` is required"),
            "§6.1's order: {e}"
        );
        let whole = json!({"title": "T"}).as_object().unwrap().clone();
        assert_eq!(DepositRequest::of_package(whole).form(), Form::Whole);
        assert_eq!(DepositRequest::default().form(), Form::Filled);
    }

    #[test]
    fn the_schema_lists_the_allowed_values() {
        let schema = serde_json::to_value(schemars::schema_for!(DepositRequest)).unwrap();
        let status = &schema["properties"]["status"]["enum"];
        assert_eq!(status, &json!(package::STATUSES));
        assert_eq!(schema["properties"]["significance"]["maximum"], 10);
    }
}
