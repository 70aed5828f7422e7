//! `relay doctor`: checks the whole setup end to end (`ops::doctor`) and renders its findings,
//! each failure with the command that fixes it.

use std::io::Write;

use clap::Args;
use colored::Colorize;

use crate::cli::context::{CliError, CmdResult, Ctx, explain};
use relay_core::ops::doctor::{self, Finding, Setup, Status};
use relay_core::resolve::environment::PATH;
use relay_wire::error::Error;

/// Check the whole setup end to end, and say how to fix what is wrong
///
/// Checks, in order: the store (what `relay verify` checks); relay's git hooks (present,
/// executable, relay's, the relay they run found) and each one really run in a scratch clone
/// of the repository with a copy of the store: two probe commits (post-commit must queue a
/// record and pre-commit flush it into the next commit), post-merge and post-rewrite run with
/// git's arguments; the union merge driver .relay/.gitattributes names; every agent hook
/// relay installed (the agent's file parses, and each hook's exact command, run with the
/// event JSON that agent sends, exits 0 with output the agent accepts, a SessionStart
/// briefing within the agent's limit); problems in .relay/local/hooks.log in the last day;
/// `relay mcp` (it starts and lists its tools); the embedding model, when one is configured
/// (it loads, and the vectors in .relay/cache/ were made by it); and with --server, a relay
/// server's conformance descriptor. Nothing is written to the repository or the store: the
/// hooks run in the scratch copy, which is removed afterwards.
///
/// Each check is ok, warn, fail or skip (not set up); every failure and warning says how to
/// fix it. Exits 0 when no check fails (warnings included), else 5.
///
/// --json prints one object: {"ok": bool, "checks": [{"check", "status", "detail", "fix"}]},
/// `fix` null when there is nothing to do.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay doctor
  relay doctor --server http://127.0.0.1:7777
  relay doctor --json | jq -r '.checks[] | select(.status == \"fail\") | .fix'")]
pub struct DoctorArgs {
    /// A relay server to check: it must answer GET URL/v1/conformance (http:// only)
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
}

pub fn run(ctx: &mut Ctx, args: DoctorArgs) -> CmdResult {
    // The hooks name relay by path or by `relay` on PATH; `relay mcp` is tried from this one.
    let relay = std::env::current_exe().unwrap_or_else(|_| "relay".into());
    let report = {
        let setup = Setup {
            cwd: &ctx.cwd,
            store: ctx.store().map_err(|e| explain(&e)),
            relay: &relay,
            path: ctx.env.os(PATH).map(ToOwned::to_owned),
            model: ctx.model(),
            server: args.server,
            codex_home: ctx.env.codex_home(),
        };
        let _bar = ctx.ui.progress_spinner("checking", None);
        doctor::run(&setup)
    };
    if ctx.ui.json {
        ctx.ui.json_line(&report)?;
    } else if !ctx.ui.quiet {
        for finding in &report.checks {
            render(ctx, finding)?;
        }
    }
    match report.failures() {
        0 => {
            if !ctx.ui.json && !ctx.ui.quiet {
                writeln!(ctx.ui.out(), "No check failed.")?;
            }
            Ok(())
        }
        n => Err(CliError::Relay(Error::Integrity(format!(
            "{} failed: each says how to fix it",
            relay_wire::text::count(n, "check")
        )))),
    }
}

/// One line per check with its mark, and the fix indented under it.
fn render(ctx: &mut Ctx, f: &Finding) -> CmdResult {
    let mark = match f.status {
        Status::Ok => "ok  ".green(),
        Status::Warn => "warn".yellow(),
        Status::Fail => "FAIL".red().bold(),
        Status::Skip => "skip".dimmed(),
    };
    let detail = relay_wire::text::clean_line(&f.detail);
    writeln!(ctx.ui.out(), "{mark} {}: {detail}", f.check)?;
    if let Some(fix) = &f.fix {
        writeln!(
            ctx.ui.out(),
            "     fix: {}",
            relay_wire::text::clean_line(fix)
        )?;
    }
    Ok(())
}
