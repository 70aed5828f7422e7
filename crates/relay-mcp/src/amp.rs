//! The Agent Memory Protocol's operations as MCP tools (`amp_store`, `amp_search`, `amp_get`,
//! `amp_delete`, `amp_list`, `amp_status`): each deserializes its arguments into the core's
//! request type (`relay_core::request::memory`), calls `ops::memory::amp`, and returns the
//! AMP response object. A read without a project (the call's, `relay mcp --project` or
//! RELAY_PROJECT) covers every project, as over HTTP.

use serde_json::Value;

use super::call::Call;
use relay_core::ops::memory::amp;
use relay_core::request::memory::{
    DeleteRequest, GetRequest, ListRequest, SearchRequest, StoreRequest,
};
use relay_core::search::semantic::{self, ModelChoice, ModelState};
use relay_wire::error::Result;

/// The projects a call reads: the one selected (the call's, the server's, RELAY_PROJECT),
/// else every project.
fn projects(c: &Call) -> Result<Vec<String>> {
    let selected = c.ctx.project.is_some() || c.defaults.env.project().is_some();
    c.ctx.projects(!selected)
}

pub fn store(c: &Call) -> Result<Value> {
    if !matches!(c.args.get("record"), Some(Value::Object(_))) {
        return Err(relay_core::request::shape_error(
            "record",
            "must be an object",
        ));
    }
    let req: StoreRequest = c.request_keeping(&["project"])?;
    // The record's `project` (AMP's member) or the call's (two that differ are refused),
    // else the project of the record its id names, else the server's.
    let store = c.ctx.store()?;
    let named = req.named_project()?;
    let stored = amp::stored_project(store, &req.record, named.as_deref())?;
    let project = match named.or(stored) {
        Some(p) => p,
        None => c.ctx.project()?,
    };
    c.who().authorize_project("amp_store", &project)?;
    let agent = req.record.get("agent").and_then(Value::as_str);
    c.who().may_name(agent, None)?;
    amp::store(store, c.ctx.cwd, project, &req.record, &c.claim())
}

pub fn search(c: &Call) -> Result<Value> {
    let req: SearchRequest = c.request_keeping(&["project"])?;
    req.validate()?;
    let (mode, model) = c.ranking(None, None)?;
    amp::search(c.ctx.store()?, &projects(c)?, &req, mode, model.as_ref())
}

pub fn get(c: &Call) -> Result<Value> {
    let req: GetRequest = c.request_keeping(&["project"])?;
    amp::get(c.ctx.store()?, &c.record("amp_get", &req.id)?)
}

pub fn delete(c: &Call) -> Result<Value> {
    let req: DeleteRequest = c.request_keeping(&["project"])?;
    req.validate()?;
    c.record("amp_delete", &req.id)?;
    amp::delete(
        c.ctx.store()?,
        c.ctx.cwd,
        &req.id,
        &req.reason(),
        &c.claim(),
    )
}

pub fn list(c: &Call) -> Result<Value> {
    let req: ListRequest = c.request_keeping(&["project"])?;
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
