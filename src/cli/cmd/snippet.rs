//! `relay snippet add FILE[:START-END]`: keep a piece of a file (a package of type
//! `x-snippet`, see [`relay_wire::memory`]); the reading is [`relay_core::ops::packages::snippet_source`].

use clap::{Args, Subcommand};
use relay_core::request::deposit::Form;

use crate::cli::context::{ActorArgs, CmdResult, Ctx, SessionArg};
use crate::cli::render;
use relay_core::ops::packages::snippet_source;
use relay_wire::error::Error;

/// Keep a piece of code or text as a snippet, with its path, lines and git blob id
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay snippet add src/auth.rs:40-62 --note \"How tokens are refreshed\"
  relay snippet add scripts/deploy.sh --language shell")]
pub struct SnippetArgs {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Store lines START..=END of FILE (1-based; the whole file without a range)
    ///
    /// The file must be UTF-8 text inside the git work tree (outside git: under the working
    /// folder). The path is stored relative to that root, with the language (--language, else
    /// guessed from the extension) and, in git, the file's blob id (git hash-object).
    Add {
        /// The file, optionally with a range of lines: FILE:START-END
        #[arg(value_name = "FILE[:START-END]")]
        file: String,
        /// The language of the text, e.g. rust
        #[arg(long, value_name = "L")]
        language: Option<String>,
        /// What the snippet shows or why it matters
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        #[command(flatten)]
        who: ActorArgs,
        #[command(flatten)]
        session: SessionArg,
    },
}

pub fn run(ctx: &mut Ctx, args: SnippetArgs) -> CmdResult {
    let Action::Add {
        file,
        language,
        note,
        who,
        session,
    } = args.action;
    let spec = snippet_source::parse_spec(&file)?;
    let snippet = snippet_source::read(&ctx.cwd, &spec, language, note)?;
    let input = snippet.to_input().map_err(Error::InvalidInput)?;
    let project = ctx.project()?;
    let claim = who.claim(&session);
    let done = ctx
        .relay()?
        .deposit_package(&claim, None, || Ok(project), input, Form::Filled)?;
    render::deposited(&mut ctx.ui, &done)
}
