//! The Agent Memory Protocol's operations (`amp_store`, `amp_search`, `amp_get`,
//! `amp_delete`, `amp_list`, `amp_status`), one entry point each, as MCP and HTTP call them.
//! As every method of [`Relay`], each authorizes its caller before it runs: the projects a
//! read covers are the caller's, a record by id is in a project it may touch, and a stored
//! record names no other agent than a token's own.

use serde_json::Value;

use relay_wire::error::Result;

use super::Relay;
use crate::ops::attribution::Claim;
use crate::ops::memory::amp;
use crate::request::memory::{DeleteRequest, ListRequest, SearchRequest, StoreRequest};
use crate::search::model::Model;

impl Relay<'_> {
    /// The projects an AMP read of `operation` covers: the one `named` (which the caller must
    /// be able to read, and which must exist), else every project the caller may read.
    pub fn amp_projects(&self, operation: &str, named: Option<String>) -> Result<Vec<String>> {
        match named {
            Some(p) => {
                self.caller.authorize_project(operation, &p)?;
                super::scope::only_project(self.store, p)
            }
            None => {
                self.caller.authorize(operation)?;
                self.caller.projects(self.store)
            }
        }
    }

    /// store: the record into the project it names (AMP's `project`, which two doors' must
    /// agree on), else the project of the record its id names, else `default()`; written as
    /// the writer `claim` names.
    pub fn amp_store(
        &self,
        claim: &Claim,
        req: &StoreRequest,
        default: impl FnOnce() -> Result<String>,
    ) -> Result<Value> {
        self.caller.authorize("amp_store")?;
        req.validate()?;
        let named = req.named_project()?;
        let stored = amp::stored_project(self.store, &req.record, named.as_deref())?;
        let project = match named.or(stored) {
            Some(p) => p,
            None => default()?,
        };
        self.caller.authorize_project("amp_store", &project)?;
        let agent = req.record.get("agent").and_then(Value::as_str);
        self.caller.may_name(agent, None)?;
        amp::store(self.store, self.cwd, project, &req.record, claim)
    }

    /// search of `projects` (see [`Relay::amp_projects`]), ranked by `mode` with `model`.
    pub fn amp_search(
        &self,
        projects: &[String],
        req: &SearchRequest,
        ranking: (crate::request::search::Mode, Option<&Model>),
    ) -> Result<Value> {
        for p in projects {
            self.caller.authorize_project("amp_search", p)?;
        }
        req.validate()?;
        amp::search(self.store, projects, req, ranking.0, ranking.1)
    }

    /// get: the record `id` names (a retracted or expired one is `package_not_found`).
    pub fn amp_get(&self, id: &str) -> Result<Value> {
        let id = self.caller.authorize_record("amp_get", self.store, id)?;
        amp::get(self.store, &id)
    }

    /// delete: a retraction of the record, as the writer `claim` names, with the request's
    /// reason.
    pub fn amp_delete(&self, claim: &Claim, req: &DeleteRequest) -> Result<Value> {
        req.validate()?;
        let id = self
            .caller
            .authorize_record("amp_delete", self.store, &req.id)?;
        amp::delete(self.store, self.cwd, &id, &req.reason(), claim)
    }

    /// list of `projects`' records.
    pub fn amp_list(&self, projects: &[String], req: &ListRequest) -> Result<Value> {
        for p in projects {
            self.caller.authorize_project("amp_list", p)?;
        }
        req.validate()?;
        amp::list(self.store, projects, req)
    }

    /// status of `projects`' memory, with the identity of the model search uses, if any.
    pub fn amp_status(&self, projects: &[String], model: Option<&str>) -> Result<Value> {
        for p in projects {
            self.caller.authorize_project("amp_status", p)?;
        }
        amp::status(self.store, projects, model)
    }
}
