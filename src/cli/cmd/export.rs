//! `relay export`: back a project (or every project) up to plain wire records.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::cli::{CliError, CmdResult, Ctx};
use crate::error::Error;
use crate::ops::export as backup;

/// Back up projects as plain wire records (offline, restorable anywhere)
///
/// --out DIR writes a backup folder: projects.ndjson, packages.ndjson (current versions),
/// facts.ndjson (every fact, ended ones too), sessions.ndjson, and manifest.json last (tool and
/// protocol versions, backup_format_version, generated_at, projects, counts, and the SHA-256 of
/// each file). --out - writes one NDJSON stream to stdout instead; each record's kind is told
/// by its id field. Restore with `relay import`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay export --out backups/2026-11-22
  relay export --all-projects --out - | gzip > relay.ndjson.gz
  relay import backups/2026-11-22")]
pub struct ExportArgs {
    /// A new or empty folder, or - for stdout
    #[arg(long, value_name = "DIR|-")]
    pub out: PathBuf,
    /// Every project, not just the selected one
    #[arg(long)]
    pub all_projects: bool,
}

pub fn run(ctx: &mut Ctx, args: ExportArgs) -> CmdResult {
    let projects = ctx.projects(args.all_projects)?;
    ctx.note_cold_indexes(&projects);
    let to_stdout = args.out.as_os_str() == "-";
    let stdout = to_stdout.then(|| ctx.ui.stream_out()).transpose()?;
    let store = ctx.store()?;
    if let Some(stdout) = stdout {
        // Streamed as read: a damaged store is found out on the way, and the command then
        // fails (exit 5) after what it wrote, so a pipe's reader can tell.
        let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout);
        let mut failed: Option<std::io::Error> = None;
        let bar = ctx.ui.progress_spinner("exporting", Some("records"));
        let streamed = backup::each_record(store, &projects, &mut |_, lines, n| {
            bar.inc(n as u64);
            out.write_all(lines).map_err(|e| {
                let error = Error::io(
                    "cannot write the export",
                    std::io::Error::new(e.kind(), e.to_string()),
                );
                failed = Some(e);
                error
            })
        });
        drop(bar);
        if let Some(e) = failed {
            return Err(CliError::Output(e));
        }
        streamed?;
        out.flush().map_err(CliError::Output)?;
        backup::refuse_damage(store)?;
        return Ok(());
    }
    let dir = ctx.cwd.join(&args.out);
    let bar = ctx.ui.progress_spinner("exporting", None);
    let counts = backup::export_dir(store, &projects, &dir)?;
    drop(bar);
    if ctx.ui.json {
        ctx.ui
            .json_line(&serde_json::json!({"out": dir.display().to_string(), "counts": counts}))?;
    } else {
        writeln!(
            ctx.ui.out(),
            "Exported {} to {}",
            crate::cli::render::counts(&counts),
            dir.display()
        )?;
    }
    Ok(())
}
