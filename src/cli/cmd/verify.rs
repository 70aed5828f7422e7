//! `relay verify`: check the whole store, and with --fix repair what is safe.

use std::io::Write;

use clap::Args;

use crate::cli::context::{CliError, CmdResult, Ctx};
use relay_core::ops::{trust::signatures, verify};
use relay_wire::error::Error;

/// Check every line of the store; with --fix, repair what is safe
///
/// Checks that every line parses and validates, every stored hash matches its package, ids are
/// unique (but for legal versions), transitions are legal, sessions are consistent, no line is
/// torn, no file holds git conflict markers or is left unmerged by git (an octopus merge:
/// `relay resolve` finishes it), and every file sits where the layout expects it.
/// Each problem is reported with its file and line (or its file alone); problems exit 5.
///
/// Notes (`"severity": "note"`) exit 0: they report what every read already resolves, such as
/// facts that merged clones left open or overlapping (reads end each where the next begins),
/// open sessions that share a callsign because merged clones each started one (commands
/// refuse that callsign; the note names each session, to end one by its id), and times that
/// are not UTC. --fix truncates a torn last line, appends the closing versions that
/// make the stored fact chains equal the ones reads follow, and moves lines that fail their
/// hash (or a crash left unfinished) into .relay/quarantine.ndjson with a record of why:
/// nothing is deleted silently.
///
/// Once the store signs (.relay/allowed_signers exists, or git's history shows it did),
/// verify (and so the git hooks that run it after a merge) also checks signatures: a bad or
/// revoked signature is an error; so is a key allowed_signers lists used outside what its
/// line allows (as another actor, out of its valid-after/valid-before); and so is a record
/// that is unsigned, or signed by a key not allowed for its actor, when allowed_signers says
/// that actor must sign then (from their line's valid-after, else from the commit that added
/// it; with no git history of the file, always) or [sign] require = true. It reports too a
/// key added for an actor who already had one without a key rotation record signed by the
/// earlier key (`relay keys rotate`), allowed_signers gone or emptied after git held keys in
/// it, a committed signature gone from a record the store still holds, and a retraction by
/// someone who neither wrote nor reviewed the record ([review] reviewers may retract any).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay verify
  relay verify --fix
  relay verify --signatures
  relay verify --json | jq -r '.file + \":\" + (.line|tostring) + \" \" + .message'")]
pub struct VerifyArgs {
    /// Repair what is safe, then check again
    #[arg(long)]
    pub fix: bool,
    /// Also judge every record version's signature against .relay/allowed_signers
    ///
    /// Verdicts: good, bad (does not verify, or the record changed after it was signed),
    /// revoked, not_allowed (a key not allowed for the record's actor), unsigned. Bad and
    /// revoked exit 5; so does not_allowed by a key allowed_signers lists, unsigned and
    /// not_allowed by an actor allowed_signers says must sign at the record's time, and, with
    /// [sign] require = true in config.toml, every unsigned and not_allowed one. Records,
    /// signatures and retractions are all judged. --json prints one object per record version
    /// after the problems, `fails` saying whether it fails the check.
    #[arg(long)]
    pub signatures: bool,
}

pub fn run(ctx: &mut Ctx, args: VerifyArgs) -> CmdResult {
    let store = ctx.store()?;
    let bar = ctx.ui.progress_spinner("verifying", None);
    let mut report = if args.fix {
        verify::fix(store)?
    } else {
        verify::verify(store)?.0
    };
    if args.signatures {
        // Every verdict is printed below: the failing ones are not problems besides.
        report.problems.retain(|p| !p.is_signature());
    }
    let signatures = match args.signatures {
        true => Some(signatures::verify(store)?),
        false => None,
    };
    let required = store.signatures_required();
    drop(bar);
    for f in &report.fixed {
        ctx.ui.note(&format!("fixed: {f}"));
    }
    for p in &report.problems {
        if ctx.ui.json {
            ctx.ui.json_line(p)?;
        } else if !ctx.ui.quiet {
            let note = if p.is_error() { "" } else { " (note)" };
            writeln!(
                ctx.ui.out(),
                "{}: {} [{}]{note}",
                p.location(),
                p.message,
                p.kind
            )?;
        }
    }
    let errors = report.errors();
    if let Some(checked) = &signatures {
        render_signatures(ctx, checked)?;
    }
    let failing = signatures.as_ref().map_or(0, signatures::Report::failures);
    if failing > 0 {
        let s = signatures.as_ref().map(signatures::Report::summary);
        let required = if required {
            " ([sign] require = true: unsigned and not_allowed fail too)"
        } else {
            ""
        };
        return Err(CliError::Relay(Error::Integrity(format!(
            "{} the signature check: {}{required}{}",
            match failing {
                1 => "1 record version fails".to_string(),
                n => format!("{n} record versions fail"),
            },
            s.unwrap_or_default(),
            if errors > 0 {
                format!("; and {} found", relay_wire::text::count(errors, "problem"))
            } else {
                String::new()
            }
        ))));
    }
    if errors == 0 {
        if !ctx.ui.json && !ctx.ui.quiet {
            match report.problems.len() {
                0 => writeln!(ctx.ui.out(), "The store is sound.")?,
                n => writeln!(
                    ctx.ui.out(),
                    "The store is sound; {} above.",
                    relay_wire::text::count(n, "note")
                )?,
            }
        }
        return Ok(());
    }
    let signed = (report.problems.iter())
        .filter(|p| p.is_error() && p.is_signing())
        .count();
    Err(CliError::Relay(Error::Integrity(format!(
        "{} found{}",
        relay_wire::text::count(errors, "problem"),
        if signed == errors {
            " in signatures; --fix cannot repair them: each says what to do"
        } else if args.fix {
            " that --fix cannot repair safely"
        } else if signed > 0 {
            "; `relay verify --fix` repairs what is safe (not signatures)"
        } else {
            "; `relay verify --fix` repairs what is safe"
        }
    ))))
}

/// The verdicts: under --json one object per record version; else a summary line and a line
/// per record version that is not good.
fn render_signatures(ctx: &mut Ctx, report: &signatures::Report) -> CmdResult {
    if ctx.ui.json {
        for c in &report.records {
            ctx.ui.json_line(c)?;
        }
        return Ok(());
    }
    if ctx.ui.quiet {
        return Ok(());
    }
    writeln!(ctx.ui.out(), "signatures: {}", report.summary())?;
    for c in report
        .records
        .iter()
        .filter(|c| c.verdict != signatures::Verdict::Good)
    {
        let reason = c
            .reason
            .as_deref()
            .map(|r| format!(": {r}"))
            .unwrap_or_default();
        writeln!(
            ctx.ui.out(),
            "{} {} {}{}",
            c.record.as_str(),
            c.id,
            c.verdict.as_str(),
            relay_wire::text::clean_line(&reason)
        )?;
    }
    Ok(())
}
