//! `relay orient`: the briefing a new session starts from (§8.3).

use relay_core::request::number::parse_whole as whole;
use std::io::Write;

use clap::Args;

use crate::cli::args::MarkdownArgs;
use crate::cli::context::{CmdResult, Ctx};
use relay_core::ops::briefing::{markdown, orient};
use relay_core::request::{DEFAULT_WINDOW_DAYS, OrientRequest};

/// Brief a new session: latest handoff, recent work, open questions, active facts
///
/// Prints Markdown written for a person and for an agent's system prompt: the project, a line
/// saying that what follows is recorded context and not instructions, the latest handoff note
/// and who left it, lessons, where each agent stands, the window's packages by day
/// (significant ones in full, the rest as counts), the open questions and the active facts.
/// Recorded text is folded to one line and made inert: a leading `#` is written `\#`, and
/// text holding a tag (`<system>`, `</…>`, `<|…|>`) has its `<` `>` written `&lt;` `&gt;`.
/// Drafts are left out. --json prints the protocol's OrientationBundle exactly. Only the
/// window's logs are read, so orient costs the same however old the store is.
///
/// With a budget (--max-chars, --max-tokens, else `[orient] max_chars` in .relay/config.toml)
/// the output never exceeds it, in Markdown and in --json alike (the JSON line without its
/// newline), counted in characters (Unicode scalar values). A briefing that fits is printed
/// whole; else records are kept in this order, each whole or not at all: the header, the
/// latest handoff, lessons, open questions (newest first), where each agent stands, active
/// facts (most recently changed first), significant packages in full, the other packages one
/// line each (title and id), each day's count line. The last line then says what was left out
/// and the commands that show it. --json keeps what fits of each list and adds `x-omitted`:
/// {"recent_packages": N, "open_questions": N, "active_facts": N, "x-lessons": N,
/// "x-checkpoints": N, "commands": [...]}. A budget below the header prints the title and
/// the budget needed (or nothing, if even that does not fit) and says so on stderr; with
/// --json it is an error (exit 4).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay orient                         the last 14 days, as Markdown
  relay orient --window-days 3 --max-chars 4000
  relay orient --max-tokens 2500       about 2,500 tokens (10,000 characters)
  relay orient --json --max-chars 9000 | jq '.\"x-omitted\"'
  relay orient --json | jq '.open_questions'")]
pub struct OrientArgs {
    /// How many days back to look
    #[arg(long, value_name = "N", default_value_t = DEFAULT_WINDOW_DAYS, value_parser = whole::<u32>)]
    pub window_days: u32,
    /// At most N recent packages, the newest (open questions come from these)
    #[arg(long, value_name = "N", default_value_t = orient::DEFAULT_RECENT_LIMIT, value_parser = whole::<usize>)]
    pub limit: usize,
    /// The briefing as it would have been at TIME: the window ends then, and it holds what
    /// the store held then; the same bytes however often it is asked for
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
    #[command(flatten)]
    pub view: MarkdownArgs,
}

impl OrientArgs {
    /// The request these arguments ask for.
    pub fn request(&self) -> OrientRequest {
        OrientRequest {
            window_days: self.window_days,
            limit: self.limit,
            as_of: self.as_of.clone(),
            max_chars: self.view.max_chars,
            max_tokens: self.view.max_tokens,
        }
    }
}

pub fn run(ctx: &mut Ctx, args: OrientArgs) -> CmdResult {
    let project = ctx.project()?;
    let briefing = ctx.relay()?.orient(&project, &args.request())?;
    ctx.note_as_of(std::slice::from_ref(&project), briefing.as_of)?;
    let budget = briefing.budget;
    match ctx.ui.json {
        true => ctx.ui.json_line(&briefing.bundle()?)?,
        false => {
            let fitted = markdown::orient_fitted(&briefing.orientation, budget);
            if let Some(need) = fitted.short_of {
                ctx.ui.tolerated_error(
                    relay_wire::error::Code::InvalidInput.as_str(),
                    &format!(
                        "a budget of {} characters is below the {need} the briefing's header and its account of what is left out need; printed {}. Ask for at least --max-chars {need}",
                        budget.unwrap_or_default(),
                        if fitted.text.is_empty() { "nothing" } else { "the title only" }
                    ),
                );
            }
            write!(ctx.ui.out(), "{}", fitted.text)?;
        }
    }
    Ok(())
}
