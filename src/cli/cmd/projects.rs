//! `relay projects`: list, create, inspect, rename, archive and unarchive projects.

use std::io::Write;

use clap::{Args, Subcommand};
use serde_json::json;

use crate::cli::context::{CmdResult, Ctx};
use crate::cli::render;
use relay_core::ops::projects;
use relay_wire::Project;

/// Manage the store's projects
///
/// Every package, fact and session belongs to one project. Archiving is soft: it sets
/// `archived_at`, keeps everything, and refuses new deposits until the project is unarchived.
#[derive(Debug, Args)]
pub struct ProjectsArgs {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// List every project (NDJSON of project records with --json)
    List,
    /// Create a project
    Create {
        /// The project id: any non-empty string
        id: String,
        /// A display name (default: the id)
        #[arg(long)]
        name: Option<String>,
        /// A longer description
        #[arg(long)]
        description: Option<String>,
    },
    /// Show one project and how many packages it holds
    Info { id: String },
    /// Give a project a new display name (its id never changes)
    Rename { id: String, name: String },
    /// Archive a project: it stays readable, but refuses deposits
    Archive { id: String },
    /// Undo an archive
    Unarchive { id: String },
}

fn show(ctx: &mut Ctx, project: &Project, verb: &str) -> CmdResult {
    if ctx.ui.json {
        ctx.ui.json_line(project)?;
    } else {
        if !verb.is_empty() {
            write!(ctx.ui.out(), "{verb}: ")?;
        }
        render::project_line(ctx.ui.out(), project)?;
    }
    Ok(())
}

pub fn run(ctx: &mut Ctx, args: ProjectsArgs) -> CmdResult {
    let store = ctx.store()?;
    match args.action {
        Action::List => {
            let all = ctx.relay()?.projects_list()?;
            if ctx.ui.json {
                for p in &all {
                    ctx.ui.json_line(p)?;
                }
            } else if all.is_empty() {
                ctx.ui
                    .note("No projects yet: create one with `relay projects create ID`.");
            } else {
                for p in &all {
                    render::project_line(ctx.ui.out(), p)?;
                }
            }
            Ok(())
        }
        Action::Create {
            id,
            name,
            description,
        } => {
            let p = (ctx.relay()?).projects_create(&id, name.as_deref(), description.as_deref())?;
            show(ctx, &p, "Created")
        }
        Action::Info { id } => {
            let info = projects::info(store, &id)?;
            if ctx.ui.json {
                ctx.ui.json_line(
                    &json!({"project": info.project, "counts": {"packages": info.packages}}),
                )?;
            } else {
                render::project_line(ctx.ui.out(), &info.project)?;
                let out = ctx.ui.out();
                if let Some(d) = info
                    .project
                    .str_field("description")
                    .filter(|d| !d.is_empty())
                {
                    writeln!(out, "  {}", render::clean(d))?;
                }
                writeln!(
                    out,
                    "  created {}",
                    info.project.str_field("created_at").unwrap_or_default()
                )?;
                writeln!(out, "  packages: {}", info.packages)?;
            }
            Ok(())
        }
        Action::Rename { id, name } => {
            let p = projects::rename(store, &id, &name)?;
            show(ctx, &p, "Renamed")
        }
        Action::Archive { id } => {
            let p = ctx.relay()?.projects_archive(&id, true)?;
            show(ctx, &p, "Archived")
        }
        Action::Unarchive { id } => {
            let p = ctx.relay()?.projects_archive(&id, false)?;
            show(ctx, &p, "Unarchived")
        }
    }
}
