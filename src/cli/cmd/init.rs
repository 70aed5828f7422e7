//! `relay init`: create `.relay/` and its first project, shared with git or (`--local`) kept
//! out of it. Running it again is harmless.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use crate::cli::context::{CmdResult, Ctx};
use relay_core::ops::git::Exclusion;
use relay_core::ops::upkeep::init::{Initialized, init};
use relay_store::format::STORE_DIR;

/// Create a relay store (.relay/) in this folder, with a first project
///
/// The project defaults to this folder's name (or --project / RELAY_PROJECT). Existing files are
/// never overwritten, so running init again is harmless; a new --project is added to the store.
///
/// A store is meant to be committed with the code, so the team shares it. --local makes a
/// private store instead, which git never sees: its path goes into the repository's
/// .git/info/exclude (git's own ignore file, never committed; nothing tracked is touched), and
/// its config.toml says `local = true`. git does not back it up: `relay export` does.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay init                      a shared store: commit .relay/ with your code
  relay init --project api --name \"Payments API\"
  relay init --local              a private store, listed in .git/info/exclude
  relay export --all-projects --out backup/   back up a local store")]
pub struct InitArgs {
    /// A display name for the project
    #[arg(long)]
    pub name: Option<String>,
    /// Make a private store that git never sees (listed in .git/info/exclude, not committed)
    #[arg(long)]
    pub local: bool,
}

/// The folder name a default project is named after: the folder that holds the store.
fn default_project_name(root: &Path) -> String {
    let holder = if root.file_name().is_some_and(|n| n == STORE_DIR) {
        root.parent()
    } else {
        Some(root)
    };
    holder
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "default".to_string())
}

/// Where the store goes: `--store DIR` / `RELAY_DIR` names either the store folder itself (a
/// folder called `.relay`, or one that already is a store) or the folder to create `.relay/` in.
fn store_root(ctx: &Ctx) -> PathBuf {
    let Some(dir) = &ctx.global.store else {
        return ctx.cwd.join(STORE_DIR);
    };
    let dir = ctx.cwd.join(dir);
    let is_store = relay_store::Store::exists_at(&dir);
    if dir.file_name().is_some_and(|n| n == STORE_DIR) || is_store {
        dir
    } else {
        dir.join(STORE_DIR)
    }
}

pub fn run(ctx: &mut Ctx, args: InitArgs) -> CmdResult {
    let root = store_root(ctx);
    let project_id = ctx
        .project_flag()
        .unwrap_or_else(|| default_project_name(&root));
    let done = init(&root, &project_id, args.name.as_deref(), args.local)?;
    if ctx.ui.json {
        ctx.ui.json_line(&json!({
            "store": root.display().to_string(),
            "created": done.created_store,
            "project": done.project,
            "project_created": done.created_project,
            "local": done.local,
            "git_exclude": done.exclusion,
            "git_ignored": done.git_ignored,
        }))?;
        return Ok(());
    }
    let shown = |path: &Path| {
        path.strip_prefix(&ctx.cwd)
            .unwrap_or(path)
            .display()
            .to_string()
    };
    let root_shown = shown(&root);
    if done.git_ignored && !done.local {
        ctx.ui.note(&format!(
            "git ignores {root_shown}, so its records will not be committed: `git check-ignore \
             -v {root_shown}` names the line that ignores it; remove that line to share the \
             store"
        ));
    }
    let kind = if done.local {
        "local relay store"
    } else {
        "relay store"
    };
    let mut lines = vec![match (done.created_store, done.created_project) {
        (true, _) => format!("Initialized {kind} in {root_shown} with project `{project_id}`."),
        (false, true) => format!("Store {root_shown} exists; added project `{project_id}`."),
        (false, false) => {
            format!("Store {root_shown} and project `{project_id}` already exist; nothing changed.")
        }
    }];
    lines.extend(exclusion_line(&done, &shown));
    if done.created_store {
        lines.push("Next: relay deposit --title \"…\"   then   relay pull --latest".into());
    }
    let out = ctx.ui.out();
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// What a local store's init says about git.
fn exclusion_line(done: &Initialized, shown: &dyn Fn(&Path) -> String) -> Option<String> {
    const BACKUP: &str = "git does not back it up: relay export does.";
    Some(match done.exclusion.as_ref()? {
        Exclusion::NotInGit => {
            format!("Local: not inside a git work tree, so there is nothing to exclude; {BACKUP}")
        }
        Exclusion::Added { file, pattern } => format!(
            "Local: git never sees it ({pattern} added to {}); {BACKUP}",
            shown(file)
        ),
        Exclusion::AlreadyListed { file, pattern } => format!(
            "Local: git never sees it ({pattern} is listed in {}); {BACKUP}",
            shown(file)
        ),
    })
}
