//! The operations on the store's projects and the store as a whole: projects list, create
//! and archive (§5.2), and status. As every method of [`Relay`], each authorizes its caller
//! first: a token lists only the projects it may read, creates and archives only in its
//! scope, and sees the whole store's status only if it covers every project.

use relay_wire::Project;
use relay_wire::error::Result;

use super::Relay;
use crate::ops::projects;
use crate::ops::upkeep::status::{self, StoreStatus};

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

    /// The store's status: its projects, records and indexes (a token must cover every
    /// project: the answer is the whole store's).
    pub fn status(&self) -> Result<StoreStatus> {
        self.caller.authorize_store("status")?;
        status::status(self.store)
    }
}
