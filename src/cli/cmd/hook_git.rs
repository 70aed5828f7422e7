//! The two subcommands of `relay hook` that git runs for relay: `reconcile` (post-merge and
//! post-rewrite: the clone's journal against the store) and `merge-driver` (how git merges a
//! store log in a clone where `relay hook install --git` ran).

use std::path::PathBuf;

use clap::Args;

use crate::cli::{CmdResult, Ctx};

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
    let s = |n: u64| if n == 1 { "" } else { "s" };
    ctx.ui.note(&format!(
        "Put back into the queue {} record{} a git move had taken from the store; forgot {} \
         the upstream holds; {} journaled record{} remain.",
        done.requeued,
        s(done.requeued),
        done.forgotten,
        done.journaled,
        s(done.journaled)
    ));
    Ok(())
}

pub fn run_merge_driver(ctx: &mut Ctx, args: MergeDriverArgs) -> CmdResult {
    if let Some(path) = &args.path {
        // The store's folder as git names it (`.relay` when no store is found from here).
        let store_rel = (ctx.store().ok())
            .and_then(|s| s.journal_place().map(|p| p.store_rel.clone()))
            .unwrap_or_else(|| relay_store::layout::STORE_DIR.to_string());
        if !relay_core::ops::git::driver::merges_by_line(path, &store_rel) {
            return union_by_git(&args);
        }
    }
    let read = |p: &PathBuf| {
        std::fs::read(p)
            .map_err(|e| relay_wire::Error::io(format!("cannot read {}", p.display()), e))
    };
    let merged =
        relay_store::lines::union(&read(&args.base)?, &read(&args.ours)?, &read(&args.theirs)?);
    std::fs::write(&args.ours, merged)
        .map_err(|e| relay_wire::Error::io(format!("cannot write {}", args.ours.display()), e))?;
    Ok(())
}

/// git's own union for a file that is not a store log (`relay merge` points `union` at relay's
/// driver for its call, which must not change how git merges anything else).
fn union_by_git(args: &MergeDriverArgs) -> CmdResult {
    let status = std::process::Command::new("git")
        .args(["merge-file", "--union", "-q"])
        .args([&args.ours, &args.base, &args.theirs])
        .stdin(std::process::Stdio::null())
        .status()
        .map_err(|e| relay_wire::Error::io("cannot run git merge-file", e))?;
    match status.success() {
        true => Ok(()),
        false => Err(relay_wire::Error::Integrity(format!(
            "git merge-file --union failed on {}",
            args.path.as_deref().unwrap_or_default()
        ))
        .into()),
    }
}
