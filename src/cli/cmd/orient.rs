//! `relay orient`: the briefing a new session starts from (§8.3).

use std::io::Write;

use clap::Args;

use crate::cli::args::MarkdownArgs;
use crate::cli::{CmdResult, Ctx};
use crate::ops::{briefing, orient};

/// Brief a new session: latest handoff, recent work, open questions, active facts
///
/// Prints Markdown written for a person and for an agent's system prompt: the project, the
/// latest handoff note and who left it, the window's packages by day (significant ones in full,
/// the rest as counts), the open questions and the active facts. Drafts are left out. --json
/// prints the protocol's OrientationBundle exactly. Only the window's logs are read, so orient
/// costs the same however old the store is.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay orient                         the last 14 days, as Markdown
  relay orient --window-days 3 --max-chars 4000
  relay orient --json | jq '.open_questions'")]
pub struct OrientArgs {
    /// How many days back to look
    #[arg(long, value_name = "N", default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=36_500))]
    pub window_days: u32,
    /// At most N recent packages, the newest (open questions come from these)
    #[arg(long, value_name = "N", default_value_t = orient::DEFAULT_RECENT_LIMIT)]
    pub limit: usize,
    /// The briefing as it would have been at TIME: the window ends then, and it holds what
    /// the store held then; the same bytes however often it is asked for
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
    #[command(flatten)]
    pub view: MarkdownArgs,
}

pub fn run(ctx: &mut Ctx, args: OrientArgs) -> CmdResult {
    let project = ctx.project()?;
    let as_of = crate::wire::time::parse_time("--as-of", args.as_of.as_deref())?;
    ctx.note_as_of(std::slice::from_ref(&project), as_of)?;
    let o = orient::orient_at(ctx.store()?, &project, args.window_days, args.limit, as_of)?;
    if ctx.ui.json {
        ctx.ui.json_line(&o.bundle())?;
    } else {
        write!(
            ctx.ui.out(),
            "{}",
            briefing::orient(&o, args.view.max_chars)
        )?;
    }
    Ok(())
}
