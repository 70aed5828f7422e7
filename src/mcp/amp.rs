//! The Agent Memory Protocol's operations as MCP tools (`amp_store`, `amp_search`, `amp_get`,
//! `amp_delete`, `amp_list`, `amp_status`): each parses its arguments, calls `ops::memory::amp`, and
//! returns the AMP response object.

use serde_json::Value;

use super::call::{Call, invalid};
use super::schema::{Kind, Param, opt, req};
use relay_core::ops::memory::amp;
use relay_core::search::semantic::{self, ModelChoice, ModelState};
use relay_wire::error::Result;

pub const STORE: &[Param] = &[req(
    "record",
    Kind::Obj,
    "The AMP record: {type: lesson|checkpoint|snippet, content, tags?, agent?, …} plus the type's fields (lesson: title, severity info|warning|critical; checkpoint: working_on, state {decisions, blockers, artifacts, flags}; snippet: file_path, language, start_line, end_line). Its project is record.project, else the call's project (two that differ are refused). Stored as a package of type x-lesson, x-checkpoint or x-snippet; an id given makes the store idempotent",
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
        "Leave out results scoring below this (cosine similarity when searched by meaning)",
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

/// The projects a call reads: the selected one.
fn projects(c: &Call) -> Result<Vec<String>> {
    c.ctx.projects(false)
}

pub fn store(c: &Call) -> Result<Value> {
    let Some(Value::Object(record)) = c.args.get("record") else {
        return Err(invalid("`record` must be an object".into()));
    };
    // The record's `project` (AMP's member) or the call's; two that differ are refused.
    let project = match relay_wire::amp::named_project(c.args.str("project"), Some(record))? {
        Some(p) => p,
        None => c.ctx.project()?,
    };
    amp::store(c.ctx.store()?, c.ctx.cwd, project, record, &c.claim())
}

pub fn search(c: &Call) -> Result<Value> {
    let (mode, model) = c.ranking(None, None)?;
    let req = amp::SearchRequest {
        query: c.args.text("query"),
        kind: c.args.str("type"),
        tags: c.args.strs("tags"),
        limit: c.args.int("limit").map(|n| n as usize),
        min_score: c.args.num("min_score"),
        as_of: c.time("as_of")?,
    };
    amp::search(c.ctx.store()?, &projects(c)?, &req, mode, model.as_ref())
}

pub fn get(c: &Call) -> Result<Value> {
    amp::get(c.ctx.store()?, &c.args.text("id"))
}

pub fn delete(c: &Call) -> Result<Value> {
    amp::delete(
        c.ctx.store()?,
        c.ctx.cwd,
        &c.args.text("id"),
        c.args.str("reason"),
        &c.claim(),
    )
}

pub fn list(c: &Call) -> Result<Value> {
    let req = amp::ListRequest {
        kind: c.args.str("type"),
        agent: c.args.str("agent"),
        limit: c.args.int("limit").map(|n| n as usize),
        offset: c.args.int("offset").map_or(0, |n| n.max(0) as usize),
        order: c.args.str("order"),
        as_of: c.time("as_of")?,
    };
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
