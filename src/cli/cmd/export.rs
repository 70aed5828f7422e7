//! `relay export`: back a project (or every project) up to plain wire records.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::cli::context::{CliError, CmdResult, Ctx};
use relay_core::ops::export as backup;
use relay_wire::error::Error;

/// Back up projects as plain wire records (offline, restorable anywhere)
///
/// --out DIR writes a backup folder: projects.ndjson, packages.ndjson (current versions),
/// facts.ndjson (every fact, ended ones too), sessions.ndjson, and manifest.json last (tool and
/// protocol versions, backup_format_version, generated_at, projects, counts, and the SHA-256 of
/// each file). --out - writes one NDJSON stream to stdout instead; each record's kind is told
/// by its id field. Restore with `relay import`.
///
/// --share NAME exports only what the profile [share.NAME] of .relay/config.toml lets leave
/// the store (drafts and packages tagged never_share never do), drops and redacts what it
/// says, and records in the manifest the profile and how many records of each kind it
/// withheld. A package it changed gets a new hash; its line is the envelope
/// {"package", "hash", "derived_from": ORIGINAL HASH}. An unchanged one keeps its hash.
#[derive(Debug, Args)]
#[command(after_help = r#"Examples:
  relay export --out backups/2026-11-22
  relay export --all-projects --out - | gzip > relay.ndjson.gz
  relay import backups/2026-11-22
  relay export --all-projects --share public --out share/2026-11-22

A share profile in .relay/config.toml (every key is optional):
  [share.public]
  projects = ["web"]            # default: every project exported
  package_types = ["decision"]  # default: every type
  statuses = ["complete"]       # default: every status but draft
  tags = ["public"]             # only packages with one of these tags
  drop_fields = ["content_md", "deliverables.path", "created_by.git_commit"]
  redact = ['[a-z0-9-]+\.corp\.example']   # each match becomes <REDACTED:share>
A package or fact tagged never_share never leaves, whatever the profile says."#)]
pub struct ExportArgs {
    /// A new or empty folder, or - for stdout
    #[arg(long, value_name = "DIR|-")]
    pub out: PathBuf,
    /// Every project, not just the selected one
    #[arg(long)]
    pub all_projects: bool,
    /// Apply the share profile [share.NAME] of config.toml: what may leave, dropped, redacted
    #[arg(long, value_name = "NAME")]
    pub share: Option<String>,
}

pub fn run(ctx: &mut Ctx, args: ExportArgs) -> CmdResult {
    let projects = ctx.projects(args.all_projects)?;
    // The note only: export's own spinner shows its progress, indexing included.
    let _ = ctx.note_cold_indexes_only(&projects);
    let to_stdout = args.out.as_os_str() == "-";
    let stdout = to_stdout.then(|| ctx.ui.stream_out()).transpose()?;
    let store = ctx.store()?;
    let policy = (args.share.as_deref())
        .map(|name| backup::share::Policy::load(store, name))
        .transpose()?;
    if let Some(stdout) = stdout {
        // Streamed as read: a damaged store is found out on the way, and the command then
        // fails (exit 5) after what it wrote, so a pipe's reader can tell.
        let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout);
        let mut failed: Option<std::io::Error> = None;
        let bar = ctx.ui.progress_spinner("exporting", Some("records"));
        let streamed =
            backup::each_exported(store, &projects, policy.as_ref(), &mut |_, lines, n| {
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
        let shared = streamed?;
        out.flush().map_err(CliError::Output)?;
        backup::refuse_damage(store)?;
        // A stream has no manifest: what the profile withheld is told on stderr.
        if let Some(s) = shared {
            ctx.ui.note(&withheld(&s));
        }
        return Ok(());
    }
    let dir = ctx.cwd.join(&args.out);
    let bar = ctx.ui.progress_spinner("exporting", None);
    let (counts, shared) = backup::export_dir(store, &projects, policy.as_ref(), &dir)?;
    drop(bar);
    if ctx.ui.json {
        let mut v = serde_json::json!({"out": dir.display().to_string(), "counts": counts});
        if let Some(s) = &shared {
            v["share"] = serde_json::json!(s);
        }
        ctx.ui.json_line(&v)?;
    } else {
        writeln!(
            ctx.ui.out(),
            "Exported {} to {}",
            crate::cli::render::counts(&counts),
            dir.display()
        )?;
        if let Some(s) = &shared {
            writeln!(ctx.ui.out(), "{}", withheld(s))?;
        }
    }
    Ok(())
}

/// `Share profile public withheld 3 packages, 1 facts; derived 2 packages`.
fn withheld(s: &backup::share::Shared) -> String {
    let nonzero = |c: &backup::Counts| -> backup::Counts {
        c.iter()
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| (*k, *n))
            .collect()
    };
    let render = crate::cli::render::counts;
    format!(
        "Share profile {} withheld {}; derived {}",
        s.profile,
        render(&nonzero(&s.withheld)),
        render(&nonzero(&s.derived))
    )
}
