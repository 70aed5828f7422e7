//! The Agent Memory Protocol's six requests (store, search, get, delete, list, status), one
//! type each: MCP's `amp_*` tools and `relay serve`'s `/amp/*` routes deserialize these, so a
//! parameter means the same and defaults to the same on both, and each checks itself in
//! `validate()` before `ops::memory::amp` runs it. The `///` docs are what an agent reads.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use relay_wire::error::{Error, Result};
use relay_wire::memory::{AMP_TYPES, Kind};

/// How many results a search or list gives unless asked.
pub const DEFAULT_AMP_LIMIT: usize = 10;

/// The most results one search gives.
pub const MAX_SEARCH_LIMIT: usize = 100;

/// The most records one list page gives.
pub const MAX_LIST_LIMIT: usize = 1000;

/// The reason a `delete` records when the caller gives none.
pub const DEFAULT_DELETE_REASON: &str = "deleted through the Agent Memory Protocol";

fn default_limit() -> usize {
    DEFAULT_AMP_LIMIT
}

/// store: one AMP record, written as a new package or, under an id already stored, as a new
/// version of that record.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StoreRequest {
    /// The AMP record: {type: lesson|checkpoint|snippet, content, tags?, agent?, created_at?
    /// (Unix ms), …} plus the type's fields (lesson: title, severity info|warning|critical;
    /// checkpoint: working_on, state {decisions, blockers, artifacts, flags}; snippet: title?,
    /// file_path?, language, start_line, end_line). Its project is record.project, else the
    /// call's project (two that differ are refused). Every member comes back as given, those
    /// relay has no field for too. Stored as a package of type x-lesson, x-checkpoint or
    /// x-snippet; storing again under an id already stored writes a new version of that
    /// record (created: false)
    pub record: Map<String, Value>,
    /// The project to store in; default: the record's, else the server's
    #[serde(default)]
    pub project: Option<String>,
}

/// search: records ranked by meaning (hybrid with an embedding model, else keyword).
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// What to look for, in words
    pub query: String,
    /// Only records of this type
    #[serde(rename = "type", default)]
    #[schemars(schema_with = "amp_type_schema")]
    pub kind: Option<String>,
    /// Only records carrying all of these tags
    #[serde(default)]
    pub tags: Vec<String>,
    /// How many results
    #[serde(default = "default_limit", deserialize_with = "super::number::whole")]
    #[schemars(range(min = 1, max = MAX_SEARCH_LIMIT))]
    pub limit: usize,
    /// Leave out results scoring below this, from 0 to 1 in every mode: the cosine similarity
    /// where the record was ranked by meaning, else the share of the query's words it holds
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_score: Option<f64>,
    /// Only this project's records; default: every project the caller may read
    #[serde(default)]
    pub project: Option<String>,
    /// The memory as it stood at this time (RFC 3339): records created by then, as they were
    #[serde(default)]
    pub as_of: Option<String>,
}

/// get: one record by id.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetRequest {
    /// The record's id (pkg_…)
    pub id: String,
}

/// delete: a retraction of one record.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteRequest {
    /// The record's id (pkg_…)
    pub id: String,
    /// Why (kept with the retraction); default: deleted through the Agent Memory Protocol
    #[serde(default)]
    pub reason: Option<String>,
}

/// list: records by type and agent, one page at a time.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListRequest {
    /// Only records of this type
    #[serde(rename = "type", default)]
    #[schemars(schema_with = "amp_type_schema")]
    pub kind: Option<String>,
    /// Only records of this agent (actor id)
    #[serde(default)]
    pub agent: Option<String>,
    /// How many records
    #[serde(default = "default_limit", deserialize_with = "super::number::whole")]
    #[schemars(range(min = 1, max = MAX_LIST_LIMIT))]
    pub limit: usize,
    /// How many to skip first
    #[serde(default, deserialize_with = "super::number::whole")]
    pub offset: usize,
    /// By created_at: desc (newest first, the default) or asc
    #[serde(default)]
    #[schemars(schema_with = "order_schema")]
    pub order: Option<String>,
    /// Only this project's records; default: every project the caller may read
    #[serde(default)]
    pub project: Option<String>,
    /// The memory as it stood at this time (RFC 3339): records created by then, as they were
    #[serde(default)]
    pub as_of: Option<String>,
}

/// status: how many records there are, and the embedding model search uses.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusRequest {
    /// Only this project's records; default: every project the caller may read
    #[serde(default)]
    pub project: Option<String>,
}

impl Default for SearchRequest {
    fn default() -> Self {
        SearchRequest {
            query: String::new(),
            kind: None,
            tags: Vec::new(),
            limit: DEFAULT_AMP_LIMIT,
            min_score: None,
            project: None,
            as_of: None,
        }
    }
}

impl Default for ListRequest {
    fn default() -> Self {
        ListRequest {
            kind: None,
            agent: None,
            limit: DEFAULT_AMP_LIMIT,
            offset: 0,
            order: None,
            project: None,
            as_of: None,
        }
    }
}

/// The package types a `type` filter selects: every memory type when none is given.
pub fn package_types(kind: Option<&str>) -> Result<Vec<String>> {
    match kind {
        None => Ok([Kind::Lesson, Kind::Checkpoint, Kind::Snippet]
            .map(|k| k.package_type().to_string())
            .to_vec()),
        Some(t) => Kind::from_amp_type(t)
            .map(|k| vec![k.package_type().to_string()])
            .ok_or_else(|| {
                Error::InvalidInput(format!("type `{t}` is not lesson, checkpoint or snippet"))
            }),
    }
}

/// A record type, one of [`AMP_TYPES`].
fn amp_type_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    super::one_of(&AMP_TYPES)
}

/// The order of a list: [`ORDERS`].
fn order_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    super::one_of(&ORDERS)
}

/// A list's orders by `created_at`: newest first (the default), oldest first.
pub const ORDERS: [&str; 2] = ["desc", "asc"];

fn check_limit(limit: usize, max: usize) -> Result<()> {
    if limit == 0 || limit > max {
        return Err(Error::InvalidInput(format!(
            "limit {limit} is not between 1 and {max}"
        )));
    }
    Ok(())
}

impl StoreRequest {
    /// The record's project and the request's must agree (two that differ are refused).
    pub fn validate(&self) -> Result<()> {
        self.named_project().map(|_| ())
    }

    /// The project the request names: its own or the record's (`None`: neither names one).
    pub fn named_project(&self) -> Result<Option<String>> {
        relay_wire::amp::named_project(self.project.clone(), Some(&self.record))
    }
}

impl SearchRequest {
    /// A query with words, a known type, a limit in range and a score from 0 to 1.
    pub fn validate(&self) -> Result<()> {
        if self.query.trim().is_empty() {
            return Err(Error::InvalidInput("query must not be empty".into()));
        }
        package_types(self.kind.as_deref())?;
        check_limit(self.limit, MAX_SEARCH_LIMIT)?;
        if let Some(m) = self.min_score
            && !(0.0..=1.0).contains(&m)
        {
            return Err(Error::InvalidInput(format!(
                "min_score {m} is not between 0 and 1"
            )));
        }
        super::parse_as_of("as_of", self.as_of.as_deref()).map(|_| ())
    }
}

impl DeleteRequest {
    /// A reason, when given, says something.
    pub fn validate(&self) -> Result<()> {
        if self.reason.as_deref().is_some_and(|r| r.trim().is_empty()) {
            return Err(Error::InvalidInput(
                "reason is blank: say why the record is deleted, or leave reason out for the \
                 default"
                    .into(),
            ));
        }
        Ok(())
    }

    /// The reason given, else [`DEFAULT_DELETE_REASON`].
    pub fn reason(&self) -> String {
        (self.reason.clone()).unwrap_or_else(|| DEFAULT_DELETE_REASON.into())
    }
}

impl ListRequest {
    /// A known type, a limit in range, an order of asc or desc.
    pub fn validate(&self) -> Result<()> {
        package_types(self.kind.as_deref())?;
        check_limit(self.limit, MAX_LIST_LIMIT)?;
        self.ascending()?;
        super::parse_as_of("as_of", self.as_of.as_deref()).map(|_| ())
    }

    /// Whether the oldest come first (`order: asc`).
    pub fn ascending(&self) -> Result<bool> {
        match self.order.as_deref() {
            None => Ok(false),
            Some(o) if o == ORDERS[0] => Ok(false),
            Some(o) if o == ORDERS[1] => Ok(true),
            Some(o) => Err(Error::InvalidInput(format!(
                "order `{o}` is not asc or desc"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_defaults_are_the_named_constants() {
        let s: SearchRequest = serde_json::from_value(json!({"query": "q"})).unwrap();
        assert_eq!(
            s,
            SearchRequest {
                query: "q".into(),
                ..SearchRequest::default()
            }
        );
        assert_eq!(s.limit, DEFAULT_AMP_LIMIT);
        let l: ListRequest = serde_json::from_value(json!({})).unwrap();
        assert_eq!(l, ListRequest::default());
        let d: DeleteRequest = serde_json::from_value(json!({"id": "pkg_1"})).unwrap();
        assert_eq!(d.reason(), DEFAULT_DELETE_REASON);
    }

    #[test]
    fn validation_names_what_is_wrong() {
        let search = |v: Value| {
            let r: SearchRequest = serde_json::from_value(v).unwrap();
            r.validate().map_err(|e| e.to_string())
        };
        assert!(search(json!({"query": "q", "min_score": 0.5})).is_ok());
        assert_eq!(
            search(json!({"query": "q", "min_score": 3})).unwrap_err(),
            "min_score 3 is not between 0 and 1"
        );
        assert_eq!(
            search(json!({"query": " "})).unwrap_err(),
            "query must not be empty"
        );
        assert_eq!(
            search(json!({"query": "q", "limit": 101})).unwrap_err(),
            "limit 101 is not between 1 and 100"
        );
        assert!(
            search(json!({"query": "q", "type": "memo"}))
                .unwrap_err()
                .contains("`memo`")
        );
        let list: ListRequest = serde_json::from_value(json!({"order": "up"})).unwrap();
        assert_eq!(
            list.validate().unwrap_err().to_string(),
            "order `up` is not asc or desc"
        );
        let blank: DeleteRequest =
            serde_json::from_value(json!({"id": "pkg_1", "reason": " "})).unwrap();
        assert!(blank.validate().is_err());
        let store: StoreRequest = serde_json::from_value(
            json!({"record": {"type": "lesson", "project": "web"}, "project": "api"}),
        )
        .unwrap();
        assert_eq!(store.validate().unwrap_err().code(), "invalid_input");
        assert!(serde_json::from_value::<StatusRequest>(json!({"colour": 1})).is_err());
    }

    #[test]
    fn every_field_is_documented_in_the_schema() {
        let schema = serde_json::to_value(schemars::schema_for!(SearchRequest)).unwrap();
        let props = schema["properties"].as_object().unwrap();
        for (name, p) in props {
            assert!(p["description"].is_string(), "{name} has no description");
        }
        assert!(props.contains_key("type") && props.contains_key("min_score"));
    }
}
