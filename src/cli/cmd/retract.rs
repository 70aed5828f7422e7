//! `relay retract`: hide a package or fact from every read from now on, with a reason.

use std::io::Write;

use clap::Args;

use crate::cli::context::{ActorArgs, CmdResult, Ctx, SessionArg};
use crate::cli::render;
use relay_core::request::retract::RetractRequest;
use relay_wire::time;

/// Take back a package or a fact: reads stop showing it, its history keeps it
///
/// A retraction is a line of its own in the project's retractions.ndjson, with who, when and
/// why; nothing else is rewritten, so it merges through git like any other write and every
/// clone hides the same records. From then on pull, search, orient, orchestrate, facts, the MCP
/// tools and `relay serve` leave the record out; `--include-retracted` and `relay pull ID
/// --history` still show it. Retracting twice keeps the first retraction and writes nothing.
///
/// The record's lines stay in the log, and in git's history. `relay purge --retracted`
/// removes them from the logs; docs/guide/forgetting.md says what else to do when a secret
/// was committed.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay retract pkg_… --reason \"Benchmark numbers were from a debug build\"
  relay retract fact_… --reason \"Never went live\"
  relay pull pkg_… --history        the versions, then the retraction
  relay pull --latest --include-retracted")]
pub struct RetractArgs {
    /// The package id (pkg_…) or fact id (fact_…) to retract, or the start of one (the kind
    /// and at least 4 more characters) when no other id begins so
    #[arg(value_name = "ID")]
    pub id: String,
    /// Why: kept with the retraction and shown in the record's history
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
    #[command(flatten)]
    pub who: ActorArgs,
    #[command(flatten)]
    pub session: SessionArg,
}

pub fn run(ctx: &mut Ctx, args: RetractArgs) -> CmdResult {
    let req = RetractRequest {
        id: args.id,
        reason: args.reason,
    };
    req.validate()?;
    let hint = ctx.project().ok();
    let claim = args.who.claim(&args.session);
    let done = ctx.relay()?.retract(&claim, &req.id, &req.reason, hint)?;
    if ctx.ui.json {
        ctx.ui.json_line(&done.to_value())?;
        return Ok(());
    }
    let r = &done.retraction;
    if done.created {
        writeln!(
            ctx.ui.out(),
            "Retracted {} {} in project {}.",
            r.record.as_str(),
            r.id,
            render::clean_line(&done.project_id)
        )?;
    } else {
        ctx.ui.note(&format!(
            "Already retracted by {} at {} ({}); nothing was written.",
            render::clean_line(r.actor()),
            time::format(r.retracted_at),
            render::clean_line(&r.reason)
        ));
    }
    Ok(())
}
