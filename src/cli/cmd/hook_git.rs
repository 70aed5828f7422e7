//! The two subcommands of `relay hook` that git runs for relay: `reconcile` (post-merge and
//! post-rewrite: the clone's journal against the store) and `merge-driver` (how git merges a
//! store log in a clone where `relay hook install --git` ran).

use std::path::PathBuf;

use clap::Args;

use crate::cli::context::{CmdResult, Ctx};

#[derive(Debug, Args)]
pub struct ReconcileArgs {}

#[derive(Debug, Args)]
pub struct MergeDriverArgs {
    /// The common ancestor's version of the file (git's %O)
    pub base: PathBuf,
    /// Ours (git's %A): the merge is written here
    pub ours: PathBuf,
    /// Theirs (git's %B)
    pub theirs: PathBuf,
    /// The path merged (git's %P): a file outside the store's logs is merged as git's union
    /// driver would (`git merge-file --union`)
    pub path: Option<String>,
}

pub fn run_reconcile(ctx: &mut Ctx, _args: ReconcileArgs) -> CmdResult {
    let store = match ctx.store() {
        Ok(store) => store,
        Err(relay_wire::Error::StoreNotFound { .. }) => {
            ctx.ui.note("No relay store here: nothing to reconcile.");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    let done = relay_core::ops::agents::journal::reconcile(store, &ctx.cwd)?;
    if ctx.ui.json {
        ctx.ui.json_line(&done)?;
        return Ok(());
    }
    let count = relay_wire::text::count;
    let remain = if done.journaled == 1 {
        "remains"
    } else {
        "remain"
    };
    ctx.ui.note(&format!(
        "Put back into the queue {} a git move had taken from the store; forgot {} the \
         upstream holds; {} {remain}.",
        count(done.requeued, "record"),
        count(done.forgotten, "record"),
        count(done.journaled, "journaled record"),
    ));
    Ok(())
}

pub fn run_merge_driver(ctx: &mut Ctx, args: MergeDriverArgs) -> CmdResult {
    let store_rel = relay_core::ops::git::driver::store_rel(ctx.store().ok());
    relay_core::ops::git::driver::merge(
        &args.base,
        &args.ours,
        &args.theirs,
        args.path.as_deref(),
        &store_rel,
    )?;
    Ok(())
}
