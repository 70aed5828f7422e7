//! `relay mcp`: serve relay's operations to AI agents over the Model Context Protocol (stdio).
//! The server itself is [`relay_mcp`], a sibling transport: this command hands it plain
//! values ([`Settings`]) and a [`Host`] over the CLI's store and stderr.

use clap::Args;

use crate::cli::args::{report_fallback, report_query_notice};
use crate::cli::context::{ActorArgs, CmdResult, Ctx, SessionArg, explain};
use relay_core::search::choice::FellBack;
use relay_mcp::{self as mcp, Host, Settings};
use relay_store::Store;
use relay_wire::error::{Error, Result};

/// Serve relay to AI agents over the Model Context Protocol (MCP), on stdin and stdout
///
/// Speaks MCP's stdio transport (JSON-RPC 2.0, one message per line) for clients such as
/// Claude Code, Claude Desktop, Cursor and VS Code; notes and warnings go to stderr. The tools
/// are orient, deposit, pull, orchestrate, facts_assert, facts_invalidate, facts_get,
/// facts_list, review_flag, review_list, review_approve, session_start, session_end and
/// status; each answers with the JSON the matching command prints with --json. The store is
/// found as for every command (--store, RELAY_DIR, or upward from the working folder), with
/// the same secrets policy and limits. --project, --actor, --actor-type and --session set
/// defaults that a tool call's own arguments override.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  claude mcp add relay -- relay mcp
  relay mcp --store ~/work/app --actor claude --actor-type agent")]
pub struct McpArgs {
    #[command(flatten)]
    pub who: ActorArgs,
    #[command(flatten)]
    pub session: SessionArg,
    /// The embedding model for semantic and hybrid search (see `relay search --help`)
    #[arg(long, value_name = "PATH", env = "RELAY_MODEL")]
    pub model: Option<std::path::PathBuf>,
}

pub fn run(ctx: &mut Ctx, args: McpArgs) -> CmdResult {
    match ctx.store() {
        Ok(store) => ctx.ui.note(&format!(
            "relay mcp: serving {} on stdin and stdout",
            store.root().display()
        )),
        Err(e) => ctx.ui.note(&format!(
            "relay mcp: {e}; every tool but `conformance` will fail until `relay init` creates one"
        )),
    }
    let mut settings = Settings::new(ctx, args.who.claim(&args.session));
    settings.model = args.model.or(settings.model);
    let out = ctx.ui.stream_out()?;
    mcp::serve(&CliHost(ctx), settings, std::io::stdin().lock(), out)?;
    Ok(())
}

/// The server's [`Host`]: the command's store, its error hints, and its stderr.
struct CliHost<'a>(&'a Ctx);

impl Host for CliHost<'_> {
    fn store(&self) -> Result<&Store> {
        self.0.store()
    }

    fn explain(&self, error: &Error) -> String {
        explain(error)
    }

    fn report_warnings(&self) {
        self.0.report_warnings();
    }

    fn search_fell_back(&self, store: &Store, fell_back: FellBack) {
        report_fallback(&self.0.ui, store, fell_back);
    }

    fn query_notice(&self, notice: &str) {
        report_query_notice(&self.0.ui, notice);
    }
}
