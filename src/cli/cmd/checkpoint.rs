//! `relay checkpoint`: record where an agent stands (a package of type `x-checkpoint`, see
//! [`relay_wire::memory`]), and `relay checkpoint show`: each actor's latest one.

use relay_core::request::deposit::Form;
use std::io::Write;

use clap::{Args, Subcommand};

use crate::cli::context::{ActorArgs, CmdResult, Ctx, SessionArg};
use crate::cli::render;
use relay_core::ops::memory::reads;
use relay_wire::error::Error;
use relay_wire::memory::Checkpoint;

/// Record where you stand (working on, decisions, blockers), or show each agent's latest
///
/// With --working-on, records a checkpoint: a package of type x-checkpoint with x-working-on,
/// x-flag (IDLE, IN_PROGRESS or BLOCKED, any case; BLOCKED by default when there are blockers,
/// else IN_PROGRESS), x-blockers, x-artifacts and decisions_made, attributed to the actor and
/// session like a deposit. `relay checkpoint show [ACTOR]` lists each actor's latest checkpoint
/// in the project, newest first; `relay orient` shows those of its window.
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Examples:
  relay checkpoint --working-on \"the auth module\" --decision \"JWT over sessions\" --artifact src/auth.rs
  relay checkpoint --working-on \"the deploy\" --blocker \"no staging credentials\"
  relay checkpoint --working-on \"nothing\" --flag idle
  relay checkpoint show                each actor's latest checkpoint
  relay checkpoint show claude --json"
)]
pub struct CheckpointArgs {
    #[command(subcommand)]
    pub show: Option<Show>,
    /// What you are working on now
    #[arg(long, value_name = "TEXT", required = true)]
    pub working_on: Option<String>,
    /// A decision made (repeatable)
    #[arg(long = "decision", value_name = "TEXT")]
    pub decisions: Vec<String>,
    /// What blocks you (repeatable)
    #[arg(long = "blocker", value_name = "TEXT")]
    pub blockers: Vec<String>,
    /// A file or other artifact you are working with (repeatable)
    #[arg(long = "artifact", value_name = "PATH")]
    pub artifacts: Vec<String>,
    /// IDLE, IN_PROGRESS or BLOCKED (any case)
    #[arg(long, value_name = "FLAG")]
    pub flag: Option<String>,
    #[command(flatten)]
    pub who: ActorArgs,
    #[command(flatten)]
    pub session: SessionArg,
}

#[derive(Debug, Subcommand)]
pub enum Show {
    /// Each actor's latest checkpoint in the project (or ACTOR's), newest first
    ///
    /// One block each: `ACTOR [FLAG] WORKING_ON (TIME) ID`, then its blockers and decisions;
    /// --json prints one line per checkpoint: {"package": {…}, "x-stale": [stale file
    /// deliverables, see `relay pull --help`]}.
    Show {
        /// Only this actor's latest checkpoint
        #[arg(value_name = "ACTOR")]
        actor: Option<String>,
        /// Where each actor stood at TIME (checkpoints recorded by then)
        #[arg(long, value_name = "TIME")]
        as_of: Option<String>,
    },
}

pub fn run(ctx: &mut Ctx, args: CheckpointArgs) -> CmdResult {
    if let Some(Show::Show { actor, as_of }) = args.show {
        let as_of = ctx.relay()?.snapshot_time("pull", as_of.as_deref())?;
        return show(ctx, actor.as_deref(), as_of);
    }
    let input = Checkpoint {
        working_on: args.working_on.unwrap_or_default(),
        decisions: args.decisions,
        blockers: args.blockers,
        artifacts: args.artifacts,
        flag: args.flag,
        flags: Vec::new(),
    }
    .to_input()
    .map_err(Error::InvalidInput)?;
    let project = ctx.project()?;
    let claim = args.who.claim(&args.session);
    let done = ctx
        .relay()?
        .deposit_package(&claim, None, || Ok(project), input, Form::Filled)?;
    render::deposited(&mut ctx.ui, &done)
}

fn show(
    ctx: &mut Ctx,
    actor: Option<&str>,
    as_of: Option<relay_wire::time::Timestamp>,
) -> CmdResult {
    let project = ctx.project()?;
    ctx.note_as_of(std::slice::from_ref(&project), as_of)?;
    let found = reads::latest_checkpoints(ctx.store()?, &project, actor, None, as_of)?;
    if found.is_empty() && !ctx.ui.json {
        ctx.ui.note("No checkpoints recorded.");
    }
    if ctx.ui.json {
        return ctx.json_packages(&found, as_of);
    }
    for p in &found {
        let pkg = &p.package;
        let out = ctx.ui.out();
        writeln!(
            out,
            "{} [{}] {} ({}) {}",
            render::clean_line(pkg.created_by().id),
            render::clean_line(pkg.str_field("x-flag").unwrap_or("IN_PROGRESS")),
            render::clean_line(pkg.str_field("x-working-on").unwrap_or(pkg.title())),
            pkg.created_at().format("%Y-%m-%d %H:%M UTC"),
            pkg.id()
        )?;
        for b in pkg.list("x-blockers") {
            writeln!(out, "  - Blocker: {}", render::clean_line(b))?;
        }
        for d in pkg.list("decisions_made") {
            writeln!(out, "  - Decided: {}", render::clean_line(d))?;
        }
    }
    Ok(())
}
