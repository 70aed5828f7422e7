//! `relay verify`: check the whole store, and with --fix repair what is safe.

use std::io::Write;

use clap::Args;

use crate::cli::{CliError, CmdResult, Ctx};
use crate::error::Error;
use crate::ops::verify;

/// Check every line of the store; with --fix, repair what is safe
///
/// Checks that every line parses and validates, every stored hash matches its package, ids are
/// unique (but for legal versions), transitions are legal, fact chains have no fork or overlap,
/// sessions are consistent, no line is torn, no file holds git conflict markers, and every file
/// sits where the layout expects it. Each problem is reported with its file and line; problems
/// exit 5. --fix truncates a torn last line, appends the closing versions that make a merge
/// fork of facts explicit, and moves lines that fail their hash (or a crash left unfinished)
/// into .relay/quarantine.ndjson with a record of why: nothing is deleted silently.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay verify
  relay verify --fix
  relay verify --json | jq -r '.file + \":\" + (.line|tostring) + \" \" + .message'")]
pub struct VerifyArgs {
    /// Repair what is safe, then check again
    #[arg(long)]
    pub fix: bool,
}

pub fn run(ctx: &mut Ctx, args: VerifyArgs) -> CmdResult {
    let store = ctx.store()?;
    let report = if args.fix {
        verify::fix(store)?
    } else {
        verify::verify(store)?.0
    };
    for f in &report.fixed {
        ctx.ui.note(&format!("fixed: {f}"));
    }
    for p in &report.problems {
        if ctx.ui.json {
            ctx.ui.json_line(p)?;
        } else if !ctx.ui.quiet {
            writeln!(
                ctx.ui.out(),
                "{}:{}: {} [{}]",
                p.file,
                p.line,
                p.message,
                p.kind
            )?;
        }
    }
    if report.problems.is_empty() {
        if !ctx.ui.json && !ctx.ui.quiet {
            writeln!(ctx.ui.out(), "The store is sound.")?;
        }
        return Ok(());
    }
    Err(CliError::Relay(Error::Integrity(format!(
        "{} problem(s) found{}",
        report.problems.len(),
        if args.fix {
            " that --fix cannot repair safely"
        } else {
            "; `relay verify --fix` repairs what is safe"
        }
    ))))
}
