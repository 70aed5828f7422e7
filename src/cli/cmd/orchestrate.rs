//! `relay orchestrate`: a digest across packages for the calling agent to synthesise (§8.4).

use relay_core::request::number::parse_whole as whole;
use std::io::Write;

use clap::Args;

use crate::cli::args::{MarkdownArgs, ModeArgs};
use crate::cli::context::{CmdResult, Ctx};
use relay_core::ops::briefing::markdown;
use relay_core::request::orchestrate::DEFAULT_SNIPPETS;
use relay_core::request::{DEFAULT_WINDOW_DAYS, OrchestrateRequest};

/// Assemble a digest of recent work for an agent to synthesise (relay runs no LLM)
///
/// Holds the window's activity (counts by type, decisions, handoffs), the active facts, the
/// open questions, the packages most relevant to --focus, and in global mode (--all-projects)
/// counts for every project that is not archived. --json prints the DigestBundle.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay orchestrate --focus \"billing migration\"
  relay orchestrate --all-projects --json | jq '.projects'
  relay orchestrate --as-of 2026-11-20T09:00:00Z --json   the digest as it was then")]
pub struct OrchestrateArgs {
    /// Every project (global mode), not just the selected one
    #[arg(long, conflicts_with = "project")]
    pub all_projects: bool,
    /// A topic: pulls the packages most relevant to it
    #[arg(long, value_name = "TEXT")]
    pub focus: Option<String>,
    /// How many relevant packages to pull for --focus
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SNIPPETS, value_parser = whole::<usize>)]
    pub snippets: usize,
    /// Global mode: include archived projects
    #[arg(long)]
    pub include_archived: bool,
    /// How many days back the summary looks
    #[arg(long, value_name = "N", default_value_t = DEFAULT_WINDOW_DAYS, value_parser = whole::<u32>)]
    pub window_days: u32,
    /// The digest as it would have been at TIME: the window ends then, and it holds what the
    /// store held then; the same bytes however often it is asked for
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
    #[command(flatten)]
    pub view: MarkdownArgs,
    /// How --focus is searched (see `relay search --help`)
    #[command(flatten)]
    pub mode: ModeArgs,
}

impl OrchestrateArgs {
    /// The request these arguments ask for (the project is filled in by `run`).
    pub fn request(&self) -> OrchestrateRequest {
        OrchestrateRequest {
            project: None,
            all_projects: self.all_projects,
            focus: self.focus.clone(),
            snippets: self.snippets,
            include_archived: self.include_archived,
            window_days: self.window_days,
            search: self.mode.mode.clone(),
            as_of: self.as_of.clone(),
        }
    }
}

pub fn run(ctx: &mut Ctx, args: OrchestrateArgs) -> CmdResult {
    let req = args.request();
    let project = match req.all_projects {
        true => None,
        false => Some(ctx.project()?),
    };
    let noted = match &project {
        Some(p) => vec![p.clone()],
        None => ctx.projects(true)?,
    };
    let store = ctx.store()?;
    let rank = |_: Option<&str>| args.mode.ranking(&ctx.ui, store);
    let (d, as_of) = ctx.relay()?.orchestrate(project, &req, rank)?;
    ctx.note_as_of(&noted, as_of)?;
    if ctx.ui.json {
        ctx.ui.json_line(&d.bundle())?;
    } else {
        write!(ctx.ui.out(), "{}", markdown::digest(&d, args.view.budget()))?;
    }
    Ok(())
}
