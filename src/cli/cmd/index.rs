//! `relay index`: builds the search indexes and the vectors of search by meaning now, with
//! progress, rather than on the first search that needs them. A search whose transformer
//! vectors are far behind starts `relay index --background` itself and ranks with the static
//! table meanwhile; `relay index` then shows that build's progress until it ends.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use crate::cli::context::{CliError, CmdResult, Ctx};
use relay_core::search::model::Model;
use relay_core::search::semantic::{self, ModelChoice, ModelState};
use relay_core::search::vector_build::{self, Built};
use relay_wire::error::Error;

/// Build the search indexes and the vectors of search by meaning now
///
/// Every read keeps the indexes in .relay/cache/ up to date by itself; this command does it
/// ahead of time, for every project, with progress: after a clone, a checkout that rewrote
/// the logs, or a change of model.
///
/// With a model whose folder ships an ONNX transformer (onnx/), embedding takes minutes on a
/// big store (about 170 passages a second on two cores). A search does not wait for it: when
/// the transformer's vectors lack more than a few deposits, the search ranks with the model's
/// static table and starts this command in the background. Run `relay index` to build them
/// in the foreground, or to watch a build already under way until it ends; `relay doctor`
/// also says how far it is. Each text is embedded once: the vectors are kept by content
/// hash, so a checkout, a merge or a rebuild embeds only texts never seen before.
///
/// With --json, prints one object: {"projects": N, "months": N, "model": PATH or null,
/// "documents": "transformer" | "table" | null, "indexed_bytes": N, "seconds": S}, where
/// indexed_bytes counts the package logs whose vectors were made (from the text cache, or by
/// the model for texts it never saw).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay index
  relay index --model ~/models/minilm-l6-fitted
  relay index --json | jq .indexed_bytes")]
pub struct IndexArgs {
    /// The embedding model's folder (see `relay search --help`); else `[search] model` in
    /// .relay/config.toml
    #[arg(long, value_name = "PATH", env = "RELAY_MODEL")]
    pub model: Option<PathBuf>,
    /// Build the vectors quietly and leave a build under way to itself: how a search starts
    /// this command in the background
    #[arg(long, hide = true)]
    pub background: bool,
}

pub fn run(ctx: &mut Ctx, args: IndexArgs) -> CmdResult {
    let started = Instant::now();
    let store = ctx.store()?;
    let projects = store.project_ids_on_disk()?;
    let model = match semantic::load_model(Some(store), &ModelChoice { given: args.model }) {
        ModelState::Loaded(m) => Some(m),
        ModelState::None => None,
        ModelState::Broken { path, reason } => {
            return Err(Error::SearchNotSupported(format!(
                "the embedding model at {} does not load: {reason}",
                path.display()
            ))
            .into());
        }
    };
    if args.background {
        if let Some(model) = &model {
            vector_build::build(store, &projects, model, Duration::ZERO, &|_, _| {})?;
        }
        return Ok(());
    }
    let mut months = 0;
    for project in &projects {
        store.warm_catalogs(project)?;
        months += store.package_logs(project)?.len();
    }
    let indexed = match &model {
        Some(model) => build_watching(ctx, &projects, model)?,
        None => 0,
    };
    let seconds = (started.elapsed().as_secs_f64() * 10.0).round() / 10.0;
    let documents = model.as_ref().map(|m| match m.documents_by_transformer() {
        true => "transformer",
        false => "table",
    });
    let path = model.as_ref().map(|m| m.path().display().to_string());
    if ctx.ui.json {
        ctx.ui.json_line(&json!({
            "projects": projects.len(),
            "months": months,
            "model": path,
            "documents": documents,
            "indexed_bytes": indexed,
            "seconds": seconds,
        }))?;
        return Ok(());
    }
    let out = ctx.ui.out();
    writeln!(
        out,
        "indexed {}, {} of packages",
        relay_wire::text::count(projects.len(), "project"),
        relay_wire::text::count(months, "month")
    )?;
    match (&path, documents) {
        (Some(path), Some(by)) => writeln!(
            out,
            "vectors by {path} ({by}): up to date, {:.1} MB of logs indexed in {seconds} s",
            indexed as f64 / 1e6
        )?,
        _ => writeln!(
            out,
            "no embedding model: search is by keyword (see `relay search --help` for search by meaning)"
        )?,
    }
    Ok(())
}

/// Builds `model`'s vectors with a progress bar; while another process builds them, shows
/// its progress until it ends, then builds what it left. The bytes of logs indexed here.
fn build_watching(ctx: &Ctx, projects: &[String], model: &Model) -> Result<u64, CliError> {
    let store = ctx.store()?;
    let bar = ctx.ui.progress_bytes("embedding packages");
    let mut said = false;
    loop {
        let built = vector_build::build(store, projects, model, Duration::ZERO, &|done, total| {
            bar.set(done, total)
        })?;
        match built {
            Built::Nothing => return Ok(0),
            Built::Bytes(bytes) => return Ok(bytes),
            Built::Busy(progress) => {
                if !said {
                    ctx.ui.note(&format!(
                        "relay: another relay process is embedding the packages{}; waiting for it",
                        progress
                            .as_ref()
                            .map_or(String::new(), |p| format!(" (process {})", p.pid))
                    ));
                    said = true;
                }
                if let Some(p) = progress {
                    bar.set(p.done, p.total);
                }
                std::thread::sleep(Duration::from_millis(250));
            }
        }
    }
}

/// Starts `relay index --background` for the store of `ctx` and `model`, detached from this
/// process (its own process group, no terminal): what a search does when the transformer's
/// vectors are far behind. Whether it started.
pub fn start_in_background(ctx: &Ctx, model: &Model) -> bool {
    let (Ok(store), Ok(me)) = (ctx.store(), std::env::current_exe()) else {
        return false;
    };
    let mut command = std::process::Command::new(me);
    command
        .arg("--store")
        .arg(store.root())
        .args(["index", "--background", "--model"])
        .arg(model.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command.spawn().is_ok()
}
