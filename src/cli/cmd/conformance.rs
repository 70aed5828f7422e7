//! `relay conformance`: the §11.5 descriptor of what this build implements, or, with
//! `--check URL`, the conformance test suite ([`relay_conformance`]) run against a server.

use std::io::Write;
#[cfg(feature = "conformance")]
use std::time::Duration;

use clap::Args;

use crate::cli::context::{CliError, CmdResult, Ctx};
#[cfg(feature = "conformance")]
use relay_conformance::{self as suite, Outcome, Report, Verdict};
use relay_core::ops::conformance;
use relay_core::search::semantic;
#[cfg(feature = "conformance")]
use relay_wire::error::Error;

/// Print the conformance descriptor (§11.5), or check a server's conformance (--check URL)
///
/// Without --check: this build's protocol version, level and capabilities. semantic_search and
/// hybrid_search are true only when an embedding model is configured (--model, RELAY_MODEL, or
/// `[search] model` in .relay/config.toml) and loads.
///
/// With --check URL: runs the scenarios of levels L0 to L3 (§11) and the capability checks of
/// §10.2 against the server at URL, through the HTTP mapping of §9.1, and prints one line per
/// scenario (pass, fail or skip, its level, its name, and for a failure or a skip the reason),
/// then the highest level passed: the one whose scenarios, and those of every level below,
/// passed. A scenario is skipped only for a capability the server's descriptor declares false,
/// or for orchestrate, which no level requires; a route a level requires that answers 404 or
/// 501 is a failure. The same suite runs on its own as `relay-conformance URL`. The suite writes into the project named by --project (on that
/// server; RELAY_PROJECT is not used), or into one it makes with relay's `POST /v1/projects`; at the end it invalidates the facts it asserted
/// and archives the project it made (relay's `POST /v1/projects/ID/archive`). Exits 5 when a
/// scenario fails, 7 when the server cannot be reached, 4 when it refuses the token or there is
/// no project to write into.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay conformance --json
  relay serve --listen 127.0.0.1:7700 &
  relay conformance --check http://127.0.0.1:7700
  relay conformance --check https://relay.example.com --token \"$TOKEN\" --project conformance
  relay conformance --check http://127.0.0.1:7700 --json | jq -c 'select(.result == \"fail\")'")]
pub struct ConformanceArgs {
    /// The embedding model's folder (see `relay search --help`)
    #[arg(long, value_name = "PATH", env = "RELAY_MODEL")]
    pub model: Option<std::path::PathBuf>,
    /// Check the server at this http or https URL instead: run the conformance test suite
    /// against it (with --project ID: write into that existing project)
    #[arg(long, value_name = "URL")]
    pub check: Option<String>,
    /// With --check: the token to send as `Authorization: Bearer TOKEN`
    #[arg(
        long,
        value_name = "TOKEN",
        env = "RELAY_TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,
    /// With --check: the seconds one request may take
    #[arg(long, value_name = "SECS", default_value_t = 30, requires = "check",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
}

pub fn run(ctx: &mut Ctx, args: ConformanceArgs) -> CmdResult {
    if let Some(url) = args.check {
        #[cfg(feature = "conformance")]
        {
            let options = suite::Options {
                url,
                token: args.token,
                project: ctx.global.project.clone(),
                timeout: Duration::from_secs(args.timeout),
            };
            return check(ctx, &options);
        }
        #[cfg(not(feature = "conformance"))]
        {
            let _ = (url, args.token, args.timeout);
            return Err(CliError::Usage(
                "this relay was built without the conformance suite: install it with the \
                 default features (`cargo install --locked --path .`) to check a server"
                    .into(),
            ));
        }
    }
    let choice = semantic::ModelChoice { given: args.model };
    let d = conformance::descriptor(semantic::available(ctx.store().ok(), &choice));
    if ctx.ui.json {
        ctx.ui.json_line(&d)?;
        return Ok(());
    }
    let out = ctx.ui.out();
    writeln!(
        out,
        "Agentic Protocol {}, conformance level {}",
        d.protocol_version, d.conformance_level
    )?;
    writeln!(
        out,
        "Implementation: {} {}",
        d.implementation.name, d.implementation.version
    )?;
    writeln!(out, "Capabilities:")?;
    for (name, on) in d.capabilities.flags() {
        writeln!(out, "  {name}: {}", if on { "yes" } else { "no" })?;
    }
    Ok(())
}

#[cfg(feature = "conformance")]
/// Runs the suite, printing each scenario's line as it ends, then the summary.
fn check(ctx: &mut Ctx, options: &suite::Options) -> CmdResult {
    let mut written = Ok(());
    let report = suite::run(options, &mut |o| {
        if written.is_ok() {
            written = outcome(ctx, o);
        }
    })?;
    written?;
    summary(ctx, &report)?;
    for note in &report.notes {
        ctx.ui.note(note);
    }
    let failed: Vec<&str> = (report.outcomes.iter())
        .filter(|o| o.result == Verdict::Fail)
        .map(|o| o.scenario)
        .collect();
    if failed.is_empty() {
        return Ok(());
    }
    Err(CliError::Relay(Error::Integrity(format!(
        "{} of {} conformance scenarios failed at {}: {}",
        failed.len(),
        report.outcomes.len(),
        options.url,
        failed.join(", ")
    ))))
}

#[cfg(feature = "conformance")]
/// One scenario's line: `pass  L0  descriptor`, or with `: reason`; under --json its object.
fn outcome(ctx: &mut Ctx, o: &Outcome) -> CmdResult {
    if ctx.ui.json {
        ctx.ui.json_line(o)?;
    } else {
        writeln!(ctx.ui.out(), "{}", o.line())?;
    }
    // A slow server's progress shows line by line.
    ctx.ui.flush()?;
    Ok(())
}

#[cfg(feature = "conformance")]
fn summary(ctx: &mut Ctx, report: &Report) -> CmdResult {
    if ctx.ui.json {
        ctx.ui.json_line(&report.summary)?;
        return Ok(());
    }
    writeln!(ctx.ui.out(), "{}", report.summary_line())?;
    Ok(())
}
