//! `relay review`: human and agent checkpoints (§5.3, §8.5): flag, approve, request changes,
//! and list what awaits review.

use std::io::Write;

use clap::{ArgGroup, Args, Subcommand};
use colored::Colorize;

use crate::cli::context::{ActorArgs, CmdResult, Ctx, SessionArg};
use crate::cli::render;
use relay_core::ops::packages::review;
use relay_core::request::review::{
    ApproveRequest, FlagRequest, RequestChangesRequest, ReviewListRequest, ReviewType, Transition,
};

/// Put packages through review: flag, approve, request changes, list
///
/// Statuses move as §5.3 allows: draft → awaiting_review or complete; awaiting_review →
/// complete or revision_requested; revision_requested → awaiting_review or complete. complete is
/// terminal: to correct a complete package, deposit a new one with --parent. Each transition
/// appends a new version of the package; `relay pull PKG --history` shows them all.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay deposit --title \"Schema migration plan\" --status draft
  relay review flag pkg_… --human --note \"Needs a DBA's eyes\"
  relay review list --human
  relay review request-changes pkg_… --note \"Add a rollback step\"
  relay review approve pkg_… --note \"Ship it\"")]
pub struct ReviewArgs {
    #[command(subcommand)]
    pub action: ReviewAction,
}

/// `--human` or `--agent` (or `--review-type TYPE`, the name every other door gives it).
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("reviewer").args(["human", "agent", "review_type"])))]
pub struct ReviewerArgs {
    /// A person must review it
    #[arg(long)]
    pub human: bool,
    /// An agent may review it
    #[arg(long)]
    pub agent: bool,
    /// Who reviews it, as MCP and HTTP name it: human (as --human) or agent (as --agent)
    #[arg(long, value_name = "TYPE", value_parser = ["human", "agent"])]
    pub review_type: Option<String>,
}

impl ReviewerArgs {
    /// The review type asked for, if one.
    fn get(&self) -> Option<ReviewType> {
        match (self.human, self.agent, self.review_type.as_deref()) {
            (true, _, _) | (_, _, Some("human")) => Some(ReviewType::Human),
            (_, true, _) | (_, _, Some("agent")) => Some(ReviewType::Agent),
            _ => None,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum ReviewAction {
    /// Ask for review: the package becomes awaiting_review (from draft, awaiting_review or
    /// revision_requested)
    Flag {
        /// The package id, or the start of it (pkg_ and at least 4 more characters)
        #[arg(value_name = "PKG")]
        package_id: String,
        #[command(flatten)]
        reviewer: ReviewerArgs,
        /// What to look at
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        #[command(flatten)]
        who: ActorArgs,
        #[command(flatten)]
        session: SessionArg,
    },
    /// Approve: the package becomes complete (from any status but complete)
    Approve {
        /// The package id, or the start of it (pkg_ and at least 4 more characters)
        #[arg(value_name = "PKG")]
        package_id: String,
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        #[command(flatten)]
        who: ActorArgs,
        #[command(flatten)]
        session: SessionArg,
    },
    /// Send it back: awaiting_review becomes revision_requested
    RequestChanges {
        /// The package id, or the start of it (pkg_ and at least 4 more characters)
        #[arg(value_name = "PKG")]
        package_id: String,
        /// What must change (required)
        #[arg(long, value_name = "TEXT")]
        note: String,
        #[command(flatten)]
        who: ActorArgs,
        #[command(flatten)]
        session: SessionArg,
    },
    /// Packages awaiting review, oldest request first, with who flagged them and why
    List {
        #[command(flatten)]
        reviewer: ReviewerArgs,
        /// Every project, not just the selected one
        #[arg(long)]
        all_projects: bool,
    },
}

/// Applies the transition a request asks for, as the actor of `who` and `session`.
fn apply(
    ctx: &mut Ctx,
    transition: relay_wire::error::Result<Transition>,
    who: &ActorArgs,
    session: &SessionArg,
) -> CmdResult {
    let claim = who.claim(session);
    let done = ctx.relay()?.review(&claim, transition?)?;
    if ctx.ui.json {
        ctx.ui.json_line(&done.to_envelope())?;
    } else {
        let t = done.transition.as_ref();
        let from = t.and_then(|t| t["from"].as_str()).unwrap_or("?");
        writeln!(
            ctx.ui.out(),
            "{}  {} → {}  (version {})",
            done.package.id().cyan(),
            from,
            done.package.status().as_str().bold(),
            done.version
        )?;
    }
    Ok(())
}

fn pending_line(out: &mut impl Write, p: &review::Pending) -> std::io::Result<()> {
    let pkg = &p.package.package;
    let by = p
        .flagged_by
        .get("id")
        .and_then(|v| v.as_str())
        .unwrap_or("?");
    writeln!(
        out,
        "{}  {}  [{}]  flagged by {} at {}",
        pkg.id().cyan(),
        render::clean_line(pkg.title()).bold(),
        pkg.review_type(),
        render::clean_line(by),
        p.flagged_at
    )?;
    if let Some(n) = &p.note {
        writeln!(out, "    {}", render::clean_line(n))?;
    }
    Ok(())
}

pub fn run(ctx: &mut Ctx, args: ReviewArgs) -> CmdResult {
    match args.action {
        ReviewAction::Flag {
            package_id,
            reviewer,
            note,
            who,
            session,
        } => {
            let review_type = reviewer.get().ok_or_else(|| {
                relay_core::request::shape_error(
                    "review_type",
                    "is required: say who reviews it, --human or --agent",
                )
            })?;
            let req = FlagRequest {
                package_id,
                review_type,
                note,
            };
            apply(ctx, req.transition(), &who, &session)
        }
        ReviewAction::Approve {
            package_id,
            note,
            who,
            session,
        } => {
            let req = ApproveRequest { package_id, note };
            apply(ctx, req.transition(), &who, &session)
        }
        ReviewAction::RequestChanges {
            package_id,
            note,
            who,
            session,
        } => {
            let req = RequestChangesRequest { package_id, note };
            apply(ctx, req.transition(), &who, &session)
        }
        ReviewAction::List {
            reviewer,
            all_projects,
        } => {
            let req = ReviewListRequest {
                review_type: reviewer.get(),
                all_projects,
            };
            let projects = ctx.projects(req.all_projects)?;
            let pending = ctx.relay()?.review_list(&projects, &req)?;
            if pending.is_empty() && !ctx.ui.json {
                ctx.ui.note("Nothing awaits review.");
            }
            for p in &pending {
                if ctx.ui.json {
                    ctx.ui.json_line(&p.to_value())?;
                } else {
                    pending_line(ctx.ui.out(), p)?;
                }
            }
            Ok(())
        }
    }
}
