//! The Agent Memory Protocol's operations as MCP tools (`amp_store`, `amp_search`, `amp_get`,
//! `amp_delete`, `amp_list`, `amp_status`): each deserializes its arguments into the core's
//! request type (`relay_core::request::memory`), calls `ops::memory::amp`, and returns the
//! AMP response object. A read without a project (the call's, `relay mcp --project` or
//! RELAY_PROJECT) covers every project, as over HTTP.

use serde_json::Value;

use super::call::{Call, invalid};
use super::schema::{Kind, Param, opt, req};
use relay_core::ops::memory::amp;
use relay_core::request::memory::{
    DeleteRequest, GetRequest, ListRequest, SearchRequest, StoreRequest,
};
use relay_core::search::semantic::{self, ModelChoice, ModelState};
use relay_wire::error::Result;

pub const STORE: &[Param] = &[req(
    "record",
    Kind::Obj,
    "The AMP record: {type: lesson|checkpoint|snippet, content, tags?, agent?, …} plus the type's fields (lesson: title, severity info|warning|critical; checkpoint: working_on, state {decisions, blockers, artifacts, flags}; snippet: file_path, language, start_line, end_line). Its project is record.project, else the call's project (two that differ are refused). Stored as a package of type x-lesson, x-checkpoint or x-snippet; storing again under an id already stored writes a new version of that record (created: false); members relay has no field for are kept and returned",
)];

pub const SEARCH: &[Param] = &[
    req("query", Kind::Str, "What to look for, in words"),
    opt(
        "type",
        Kind::OneOf(&["lesson", "checkpoint", "snippet"]),
        "Only records of this type",
    ),
    opt(
        "tags",
        Kind::Strs,
        "Only records carrying all of these tags",
    ),
    opt(
        "limit",
        Kind::Int {
            min: 1,
            max: Some(100),
        },
        "How many results (default 10)",
    ),
    opt(
        "min_score",
        Kind::Num { min: 0.0, max: 1.0 },
        "Leave out results scoring below this, from 0 to 1 in every mode: the cosine similarity where the record was ranked by meaning, else the share of the query's words it holds",
    ),
    opt(
        "as_of",
        Kind::Str,
        "The memory as it stood at this time (RFC 3339): records created by then, as they were",
    ),
];

pub const ID: &[Param] = &[req("id", Kind::Str, "The record's id (pkg_…)")];

pub const DELETE: &[Param] = &[opt(
    "reason",
    Kind::Str,
    "Why (kept with the retraction); default: deleted through the Agent Memory Protocol",
)];

pub const LIST: &[Param] = &[
    opt(
        "type",
        Kind::OneOf(&["lesson", "checkpoint", "snippet"]),
        "Only records of this type",
    ),
    opt("agent", Kind::Str, "Only records of this agent (actor id)"),
    opt(
        "limit",
        Kind::Int {
            min: 1,
            max: Some(1000),
        },
        "How many records (default 10)",
    ),
    opt(
        "offset",
        Kind::Int { min: 0, max: None },
        "How many to skip first",
    ),
    opt(
        "order",
        Kind::OneOf(&["desc", "asc"]),
        "By created_at: desc (newest first, the default) or asc",
    ),
    opt(
        "as_of",
        Kind::Str,
        "The memory as it stood at this time (RFC 3339): records created by then, as they were",
    ),
];

/// The projects a call reads: the one selected (the call's, the server's, RELAY_PROJECT),
/// else every project.
fn projects(c: &Call) -> Result<Vec<String>> {
    let selected =
        c.ctx.project.is_some() || std::env::var("RELAY_PROJECT").is_ok_and(|p| !p.is_empty());
    c.ctx.projects(!selected)
}

pub fn store(c: &Call) -> Result<Value> {
    if !matches!(c.args.get("record"), Some(Value::Object(_))) {
        return Err(invalid("`record` must be an object".into()));
    }
    let req: StoreRequest = c.request(&["project"])?;
    // The record's `project` (AMP's member) or the call's (two that differ are refused),
    // else the project of the record its id names, else the server's.
    let store = c.ctx.store()?;
    let named = req.named_project()?;
    let stored = amp::stored_project(store, &req.record, named.as_deref())?;
    let project = match named.or(stored) {
        Some(p) => p,
        None => c.ctx.project()?,
    };
    amp::store(store, c.ctx.cwd, project, &req.record, &c.claim())
}

pub fn search(c: &Call) -> Result<Value> {
    let req: SearchRequest = c.request(&[])?;
    req.validate()?;
    let (mode, model) = c.ranking(None, None)?;
    amp::search(c.ctx.store()?, &projects(c)?, &req, mode, model.as_ref())
}

pub fn get(c: &Call) -> Result<Value> {
    let req: GetRequest = c.request(&[])?;
    amp::get(c.ctx.store()?, &req.id)
}

pub fn delete(c: &Call) -> Result<Value> {
    let req: DeleteRequest = c.request(&[])?;
    req.validate()?;
    amp::delete(
        c.ctx.store()?,
        c.ctx.cwd,
        &req.id,
        &req.reason(),
        &c.claim(),
    )
}

pub fn list(c: &Call) -> Result<Value> {
    let req: ListRequest = c.request(&[])?;
    req.validate()?;
    amp::list(c.ctx.store()?, &projects(c)?, &req)
}
pub fn status(c: &Call) -> Result<Value> {
    let store = c.ctx.store()?;
    // The model is named by its identity (a digest of its files), as relay serve names it.
    let model = match semantic::load_model(
        Some(store),
        &ModelChoice {
            given: c.defaults.model.clone(),
        },
    ) {
        ModelState::Loaded(m) => Some(m.identity().to_string()),
        _ => None,
    };
    amp::status(store, &projects(c)?, model.as_deref())
}
