//! `relay purge`: the one command that rewrites logs, taking out expired or retracted records.

use std::io::Write;

use clap::Args;

use crate::cli::context::{CliError, CmdResult, Ctx};
use crate::cli::render;
use relay_core::ops::upkeep::purge::{self, PurgeRequest};

/// Remove expired or retracted records from the logs (the one command that rewrites them)
///
/// Reads already hide expired and retracted records; purge takes their lines out of the logs:
/// every version of a package, every line of a fact, and with --retracted the facts asserted
/// from a retracted package. Under each project's writers' lock it writes the changed logs
/// anew (a whole file at a time, by rename), keeps the old files under
/// .relay/local/purged/TIME/ unless --no-backup, and removes what cache/ held of each
/// rewritten log (its indexes, the fact index's copy of the current facts, its fingerprint,
/// the hashes of the purged packages' deliverables), so no copy stays there; reads rebuild
/// what they need. The retraction lines stay, so a clone that still holds the records hides
/// them after a merge.
///
/// Git keeps what was committed: the lines leave the working tree and the next commit, not
/// the repository's history. To remove them from history too (a committed secret, say),
/// rewrite it (e.g. `git filter-repo`) and rotate the secret; docs/guide/forgetting.md says
/// how.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay purge --retracted --dry-run      what would be removed
  relay purge --expired --retracted
  relay purge --expired --all-projects --no-backup

Exit codes: 0 done (or nothing to do), 2 neither --expired nor --retracted, 6 another writer
held a project's lock past lock_timeout.")]
pub struct PurgeArgs {
    /// Remove records whose x-expires-at has passed
    #[arg(long)]
    pub expired: bool,
    /// Remove records that `relay retract` retracted
    #[arg(long)]
    pub retracted: bool,
    /// Say what would be removed; change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Do not keep the old files under .relay/local/purged/
    #[arg(long)]
    pub no_backup: bool,
    /// Every project, not just the selected one
    #[arg(long)]
    pub all_projects: bool,
}

pub fn run(ctx: &mut Ctx, args: PurgeArgs) -> CmdResult {
    if !args.expired && !args.retracted {
        return Err(CliError::Usage(
            "say what to purge: --expired, --retracted, or both".into(),
        ));
    }
    let projects = ctx.projects(args.all_projects)?;
    let store = ctx.store()?;
    let report = purge::purge(
        store,
        &PurgeRequest {
            expired: args.expired,
            retracted: args.retracted,
            dry_run: args.dry_run,
            backup: !args.no_backup,
            projects,
        },
    )?;
    if ctx.ui.json {
        ctx.ui.json_line(&report)?;
        return Ok(());
    }
    if report.removed.is_empty() {
        ctx.ui.note("Nothing to purge.");
        return Ok(());
    }
    let verb = if report.dry_run {
        "Would remove"
    } else {
        "Removed"
    };
    for r in &report.removed {
        writeln!(
            ctx.ui.out(),
            "{verb} {} {} ({}, {} line{}) from project {}",
            r.record,
            r.id,
            r.because.replace('_', " "),
            r.lines,
            if r.lines == 1 { "" } else { "s" },
            render::clean_line(&r.project_id)
        )?;
    }
    let lines: usize = report.removed.iter().map(|r| r.lines).sum();
    let summary = format!(
        "{verb} {}, {}, from {}.",
        relay_wire::text::count(report.removed.len(), "record"),
        relay_wire::text::count(lines, "line"),
        relay_wire::text::count(report.files.len(), "file")
    );
    ctx.ui.note(&summary);
    match (&report.backup, report.dry_run) {
        (_, true) => ctx.ui.note("Dry run: nothing was written."),
        (Some(b), false) => ctx.ui.note(&format!(
            "The old files are in {}. Commit the change; git history still holds the lines \
             until it is rewritten.",
            b.display()
        )),
        (None, false) => ctx.ui.note(
            "No backup was kept. Commit the change; git history still holds the lines until \
             it is rewritten.",
        ),
    }
    Ok(())
}
