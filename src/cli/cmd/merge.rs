//! `relay merge BRANCH…`: an octopus merge that keeps every side's store records, for when
//! git's octopus strategy refuses (see `ops::git::octopus`).

use std::io::Write;

use clap::Args;

use crate::cli::context::{CmdResult, Ctx};
use relay_core::ops::git::octopus;

/// Merge several branches at once, keeping every side's store records
///
/// `git merge b c` uses git's octopus strategy, which runs no merge driver. When the branches
/// only appended to store logs the current branch did not touch, git stops with conflicts
/// that `relay resolve` finishes. When the current branch appended to a store log too, git
/// refuses outright ("Should not be doing an octopus") and leaves nothing to resolve: run
/// `relay merge b c` instead. It merges the branches one after another as git's default
/// strategy does, with relay's union driver, and commits one merge with every branch as a
/// parent (`git commit --no-edit`, so your hooks run), as `git merge b c` would have. The
/// tracked files must be committed first. A conflict outside what the union driver merges
/// is named, and nothing changes.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  git merge feature-a feature-b    # Merge with strategy octopus failed.
  relay merge feature-a feature-b
  relay merge feature-a feature-b --no-commit   # stage it; `git commit` concludes")]
pub struct MergeArgs {
    /// The branches (or commits) to merge into the current branch
    #[arg(required = true, value_name = "BRANCH")]
    pub branches: Vec<String>,
    /// Leave the merge staged (MERGE_HEAD set) for `git commit` instead of committing
    #[arg(long)]
    pub no_commit: bool,
}

pub fn run(ctx: &mut Ctx, args: MergeArgs) -> CmdResult {
    let relay = super::hook::relay_command(&ctx.env);
    let driver = relay_core::ops::git::driver::driver_command(&relay);
    let done = octopus::merge(&ctx.cwd, &args.branches, args.no_commit, &driver)?;
    if ctx.ui.json {
        ctx.ui.json_line(&done)?;
        return Ok(());
    }
    let names: Vec<&str> = done.branches.iter().map(|(n, _)| n.as_str()).collect();
    let out = ctx.ui.out();
    match &done.commit {
        Some(c) => writeln!(out, "Merged {} in {c}.", names.join(", "))?,
        None => writeln!(
            out,
            "Merged {} and staged it: `git commit --no-edit` concludes the merge.",
            names.join(", ")
        )?,
    }
    Ok(())
}
