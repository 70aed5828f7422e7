//! The Agent Memory Protocol's operations as MCP tools (`amp_store`, `amp_search`, `amp_get`,
//! `amp_delete`, `amp_list`, `amp_status`): each deserializes its arguments into the core's
//! request type (`relay_core::request::memory`), calls `ops::memory::amp`, and returns the
//! AMP response object. A read without a project (the call's, `relay mcp --project` or
//! RELAY_PROJECT) covers every project, as over HTTP.

use serde_json::Value;

use super::call::Call;
use relay_core::request::memory::{
    DeleteRequest, GetRequest, ListRequest, SearchRequest, StoreRequest,
};
use relay_core::search::semantic::{self, ModelChoice, ModelState};
use relay_wire::error::Result;

/// The projects a call reads: the one selected (the call's, the server's, RELAY_PROJECT),
/// else every project the caller may read.
fn projects(c: &Call, operation: &str) -> Result<Vec<String>> {
    let selected = c.ctx.project.is_some() || c.defaults.env.project().is_some();
    let named = match selected {
        true => Some(c.ctx.project()?),
        false => None,
    };
    c.relay(|relay| relay.amp_projects(operation, named))
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
    c.relay(|relay| relay.amp_store(&c.claim(), &req, || c.ctx.project()))
}

pub fn search(c: &Call) -> Result<Value> {
    let req: SearchRequest = c.request_keeping(&["project"])?;
    let projects = projects(c, "amp_search")?;
    let (mode, model) = c.ranking(None, None)?;
    c.relay(|relay| relay.amp_search(&projects, &req, (mode, model.as_ref())))
}

pub fn get(c: &Call) -> Result<Value> {
    let req: GetRequest = c.request_keeping(&["project"])?;
    c.relay(|relay| relay.amp_get(&req.id))
}

pub fn delete(c: &Call) -> Result<Value> {
    let req: DeleteRequest = c.request_keeping(&["project"])?;
    c.relay(|relay| relay.amp_delete(&c.claim(), &req))
}

pub fn list(c: &Call) -> Result<Value> {
    let req: ListRequest = c.request_keeping(&["project"])?;
    let projects = projects(c, "amp_list")?;
    c.relay(|relay| relay.amp_list(&projects, &req))
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
    let projects = projects(c, "amp_status")?;
    c.relay(|relay| relay.amp_status(&projects, model.as_deref()))
}
