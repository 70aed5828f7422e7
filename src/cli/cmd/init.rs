//! `relay init`: create `.relay/` and its first project. Running it again is harmless.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use crate::cli::{CmdResult, Ctx};
use crate::ops;
use crate::store::{Store, layout};

/// Create a relay store (.relay/) in this folder, with a first project
///
/// The project defaults to this folder's name (or --project / RELAY_PROJECT). Existing files are
/// never overwritten, so running init again is harmless; a new --project is added to the store.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// A display name for the project
    #[arg(long)]
    pub name: Option<String>,
}

/// The folder name a default project is named after: the folder that holds the store.
fn default_project_name(root: &Path) -> String {
    let holder = if root.file_name().is_some_and(|n| n == layout::STORE_DIR) {
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
        return ctx.cwd.join(layout::STORE_DIR);
    };
    let dir = ctx.cwd.join(dir);
    let is_store =
        dir.join(layout::CONFIG_FILE).is_file() || dir.join(layout::PROJECTS_FILE).is_file();
    if dir.file_name().is_some_and(|n| n == layout::STORE_DIR) || is_store {
        dir
    } else {
        dir.join(layout::STORE_DIR)
    }
}

pub fn run(ctx: &mut Ctx, args: InitArgs) -> CmdResult {
    let root = store_root(ctx);
    let project_id = ctx
        .project_flag()
        .unwrap_or_else(|| default_project_name(&root));
    let created_store = Store::create(&root, &project_id)?;
    let store = Store::open(root.clone())?;
    let (project, created_project) =
        ops::projects::ensure(&store, &project_id, args.name.as_deref())?;
    if ctx.ui.json {
        ctx.ui.json_line(&json!({
            "store": root.display().to_string(),
            "created": created_store,
            "project": project,
            "project_created": created_project,
        }))?;
        return Ok(());
    }
    let out = ctx.ui.out();
    let root_shown = root
        .strip_prefix(&ctx.cwd)
        .unwrap_or(&root)
        .display()
        .to_string();
    match (created_store, created_project) {
        (true, _) => writeln!(
            out,
            "Initialized relay store in {root_shown} with project `{project_id}`."
        )?,
        (false, true) => writeln!(
            out,
            "Store {root_shown} exists; added project `{project_id}`."
        )?,
        (false, false) => writeln!(
            out,
            "Store {root_shown} and project `{project_id}` already exist; nothing changed."
        )?,
    }
    if created_store {
        writeln!(
            out,
            "Next: relay deposit --title \"…\"   then   relay pull --latest"
        )?;
    }
    Ok(())
}
