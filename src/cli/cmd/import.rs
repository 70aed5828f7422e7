//! `relay import`: restore a backup folder, a stream, or another store's `.relay/` folder.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::cli::context::{CliError, CmdResult, Ctx};
use relay_core::ops::import::{self, Source};
use relay_core::ops::import::{ImportOptions, OnConflict};
use relay_wire::error::Error;

/// Restore records: a backup folder, an NDJSON stream, or another store's .relay/ folder
///
/// Every record is validated and every package hash checked (against the hash a store's line
/// carries, and each backup file against its manifest) before anything is written. Fact
/// histories, sessions, unknown and x-* fields are kept exactly. Records already present are
/// left alone, so importing the same backup twice changes nothing. A folder without a manifest
/// is a partial backup and is refused unless --force.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay import backups/2026-11-22
  relay import ../other-repo/.relay --project-map web=website --dry-run
  gunzip -c relay.ndjson.gz | relay import -")]
pub struct ImportArgs {
    /// A backup folder, a .relay/ folder, an NDJSON file, or - for stdin
    #[arg(value_name = "PATH|-")]
    pub path: PathBuf,
    /// Import project OLD as NEW (repeatable)
    #[arg(long = "project-map", value_name = "OLD=NEW")]
    pub project_map: Vec<String>,
    /// Report what would change; write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// What to do with a record the store refuses: a package id held with other content or
    /// by another project, a package taken back in its review, a fact whose source package is
    /// missing (skip: leave it out and list it)
    #[arg(long, value_enum, default_value_t = Conflict::Fail)]
    pub on_conflict: Conflict,
    /// Import a backup folder that has no manifest
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Conflict {
    Fail,
    Skip,
}

pub fn run(ctx: &mut Ctx, args: ImportArgs) -> CmdResult {
    let mut project_map = HashMap::new();
    for m in &args.project_map {
        let (old, new) = m
            .split_once('=')
            .filter(|(o, n)| !o.is_empty() && !n.is_empty())
            .ok_or_else(|| CliError::Usage(format!("--project-map takes OLD=NEW (got `{m}`)")))?;
        project_map.insert(old.to_string(), new.to_string());
    }
    let store = ctx.store()?;
    let source = if args.path.as_os_str() == "-" {
        Source::spooled(store, std::io::stdin().lock(), "stdin")?
    } else {
        let path = ctx.cwd.join(&args.path);
        if !path.exists() {
            return Err(
                Error::InvalidInput(format!("{} does not exist", args.path.display())).into(),
            );
        }
        Source::open(store, &path, args.force)?
    };
    let opts = ImportOptions {
        project_map,
        dry_run: args.dry_run,
        on_conflict: match args.on_conflict {
            Conflict::Fail => OnConflict::Fail,
            Conflict::Skip => OnConflict::Skip,
        },
        force: args.force,
    };
    let bar = ctx.ui.progress_bytes("importing");
    let mut progress = |done: u64, total: u64| bar.set(done, total);
    let summary = import::import(store, &source, &opts, &mut progress)?;
    if ctx.ui.json {
        ctx.ui.json_line(&summary)?;
        return Ok(());
    }
    let line = crate::cli::render::counts;
    let out = ctx.ui.out();
    let verb = if summary.dry_run {
        "Would add"
    } else {
        "Added"
    };
    writeln!(out, "{verb}: {}", line(&summary.added))?;
    writeln!(out, "Already present: {}", line(&summary.unchanged))?;
    if summary.signatures > 0 {
        writeln!(out, "Signatures carried: {}", summary.signatures)?;
    }
    if !summary.skipped.is_empty() {
        writeln!(out, "Skipped (refused): {}", line(&summary.skipped))?;
        for r in &summary.skipped_records {
            writeln!(
                out,
                "  {}: {}",
                r.error,
                crate::cli::render::clean_line(&r.message)
            )?;
        }
    }
    Ok(())
}
