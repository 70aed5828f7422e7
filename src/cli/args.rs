//! Arguments more than one command takes, and their parsing: the listing filters
//! ([`FilterArgs`]) of `pull`, `search` and the MCP `pull` tool.

use clap::Args;

use crate::cli::{CliError, Ctx};
use crate::ops::filter::{Filter, Viewer};
use crate::wire::{Status, package, time};

/// The filters every listing takes.
#[derive(Debug, Args, Clone)]
pub struct FilterArgs {
    /// Only this package type (repeatable: any of them)
    #[arg(long = "type", value_name = "TYPE")]
    pub types: Vec<String>,
    /// Only packages with this tag (repeatable: all of them)
    #[arg(long = "tag", value_name = "TAG")]
    pub tags: Vec<String>,
    /// Only packages created by this actor id
    #[arg(long, value_name = "ID")]
    pub actor: Option<String>,
    /// Only packages in this status
    #[arg(long, value_parser = package::STATUSES.to_vec())]
    pub status: Option<String>,
    /// Only packages created at or after TIME
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Only packages created before TIME
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
    /// Cover every project, not just the selected one
    #[arg(long)]
    pub all_projects: bool,
}

impl FilterArgs {
    /// The projects covered and the filter, with drafts shown to their creator only.
    pub fn resolve(self, ctx: &Ctx) -> Result<(Vec<String>, Filter), CliError> {
        let projects = ctx.projects(self.all_projects)?;
        let viewer = match projects.first() {
            Some(p) => ctx.deferred_viewer(p)?,
            None => Viewer::anyone(),
        };
        let filter = Filter {
            types: self.types,
            tags: self.tags,
            actor: self.actor,
            status: self.status.as_deref().and_then(Status::parse),
            since: time::parse_time("--since", self.since.as_deref())?,
            until: time::parse_time("--until", self.until.as_deref())?,
            viewer,
        };
        Ok((projects, filter))
    }
}
