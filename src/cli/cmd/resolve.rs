//! `relay resolve`: finish a merge git left unmerged in the store (an octopus merge), by the
//! union of the sides, as relay's merge driver would have (see `ops::git::resolve`).

use std::io::Write;

use clap::Args;

use crate::cli::context::{CliError, CmdResult, Ctx};
use relay_core::ops::git::resolve;
use relay_wire::error::Error;

/// Finish a git merge that left store files unmerged (an octopus merge)
///
/// git's octopus strategy (`git merge b c`) does not run relay's union merge driver: branches
/// that appended to one log leave it in conflict, and branches that both created a log leave
/// it "both added". For every store file `git ls-files -u` lists, resolve writes the union of
/// the sides (what `git merge-file --union` writes from stages 1, 2 and 3, the base empty when
/// both sides added the file), checks that every line of a log is a whole JSON object, and
/// `git add`s it. Then `git commit` concludes the merge with all its parents. A file that is
/// not a log (config.toml), or whose union is not whole records, is left for you and named
/// (exit 5). Reads, `relay status` and `relay verify` point here when they meet an unfinished
/// merge. When the current branch changed a log too, git refuses the octopus itself ("Should
/// not be doing an octopus") and leaves nothing to resolve: `relay merge b c` makes the
/// octopus with the union driver.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  git merge feature-a feature-b     # Automatic merge failed; fix conflicts and then commit
  relay resolve
  git commit --no-edit")]
pub struct ResolveArgs {}

pub fn run(ctx: &mut Ctx, _args: ResolveArgs) -> CmdResult {
    let store = ctx.store()?;
    let done = resolve::resolve(store)?;
    if ctx.ui.json {
        ctx.ui.json_line(&done)?;
    } else {
        let out = ctx.ui.out();
        if done.resolved.is_empty() && done.left.is_empty() {
            writeln!(
                out,
                "No store file is unmerged: nothing to resolve. (If git refused an octopus \
                 merge outright, `relay merge BRANCH…` makes it.)"
            )?;
        }
        for f in &done.resolved {
            writeln!(
                out,
                "resolved {} ({} lines, the union of the sides), staged",
                relay_wire::text::clean_line(&f.path),
                f.lines
            )?;
        }
        if done.merging && done.left.is_empty() && !done.resolved.is_empty() {
            writeln!(out, "Now `git commit --no-edit` concludes the merge.")?;
        }
    }
    if done.left.is_empty() {
        return Ok(());
    }
    let left: Vec<String> = (done.left.iter())
        .map(|f| format!("{}: {}", relay_wire::text::clean_line(&f.path), f.reason))
        .collect();
    Err(CliError::Relay(Error::Integrity(format!(
        "{} still unmerged: {}",
        relay_wire::text::count(left.len(), "store file"),
        left.join("; ")
    ))))
}
