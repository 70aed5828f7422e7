//! The operations on the store's projects and the store as a whole: projects list, create
//! and archive (§5.2), status, and what a watch follows. As every method of [`Relay`], each authorizes its caller
//! first: a token lists only the projects it may read, creates and archives only in its
//! scope, and sees the whole store's status only if it covers every project.

use relay_wire::Project;
use relay_wire::error::Result;

use super::Relay;
use crate::ops::projects;
use crate::ops::upkeep::status::{self, StoreStatus};
use crate::ops::watch::{Scope, Since};
use crate::request::watch::WatchRequest;

impl Relay<'_> {
    /// The projects the caller may read, in the store's order.
    pub fn projects_list(&self) -> Result<Vec<Project>> {
        self.caller.authorize("projects_list")?;
        let visible = self.caller.projects(self.store)?;
        let all = projects::list(self.store)?;
        Ok(all
            .into_iter()
            .filter(|p| visible.iter().any(|v| v == p.id()))
            .collect())
    }

    /// Creates the project `id` (`project_exists` if it is there).
    pub fn projects_create(
        &self,
        id: &str,
        name: Option<&str>,
        description: Option<&str>,
    ) -> Result<Project> {
        self.caller.authorize_project("projects_create", id)?;
        projects::create(self.store, id, name, description)
    }

    /// Archives the project `id`, or brings it back: its records stay; writes to an archived
    /// project are refused.
    pub fn projects_archive(&self, id: &str, archived: bool) -> Result<Project> {
        self.caller.authorize_project("projects_archive", id)?;
        projects::set_archived(self.store, id, archived)
    }

    /// What a watch (relay's `watch`, its SSE streams) follows, and from where: every project
    /// the caller may read with `all_projects` (every project, those made while watching
    /// included, for the local user), else the projects `selected()` names; the kinds asked
    /// for; and the start its `since` names.
    pub fn watch_scope(
        &self,
        req: &WatchRequest,
        selected: impl FnOnce() -> Result<Vec<String>>,
    ) -> Result<(Scope, Since)> {
        self.caller.authorize("watch")?;
        req.validate()?;
        let projects = match req.all_projects {
            true => self.caller.scope(self.store)?,
            false => {
                let named = selected()?;
                for p in &named {
                    self.caller.authorize_project("watch", p)?;
                }
                Some(named)
            }
        };
        let scope = Scope {
            projects,
            kinds: req.kinds()?,
        };
        Ok((scope, req.since()?))
    }

    /// The store's status: its projects, records and indexes (a token must cover every
    /// project: the answer is the whole store's).
    pub fn status(&self) -> Result<StoreStatus> {
        self.caller.authorize_store("status")?;
        status::status(self.store)
    }
}
