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
/// With --check: runs the scenarios of levels L0 to L3 (§11) and the capability checks of
/// §10.2 against a server, through the HTTP mapping of §9.1, and prints one line per scenario
/// (pass, fail or skip, its level, its name, and for a failure or a skip the reason), then the
/// highest level passed: the one whose scenarios, and those of every level below, passed. A
/// scenario is skipped only for a capability the server's descriptor declares false, or for
/// orchestrate, which no level requires; a route a level requires that answers 404 or 501 is a
/// failure. The same suite runs on its own as `relay-conformance URL`.
///
/// The suite writes: a project, packages, facts and a session. `--check` alone checks this
/// build on a scratch store that it serves itself and deletes at the end, so nothing is left
/// anywhere. `--check URL` writes into the store behind URL, which keeps what it is given
/// (an append-only store, committed with the rest): into the project named by --project (on
/// that server; RELAY_PROJECT is not used), or, with --scratch-ok, into one it makes with
/// relay's `POST /v1/projects` and archives at the end. Without either it refuses. Exits 5
/// when a scenario fails, 7 when the server cannot be reached, 4 when it refuses the token or
/// there is no project to write into, 2 when it refuses to write.
#[derive(Debug, Args)]
#[command(after_help = r#"Examples:
  relay conformance --json
  relay conformance --check
  relay conformance --check https://relay.example.com --token "$TOKEN" --project conformance
  relay conformance --check http://127.0.0.1:7700 --scratch-ok --json | jq -c 'select(.result == "fail")'"#)]
pub struct ConformanceArgs {
    /// The embedding model's folder (see `relay search --help`)
    #[arg(long, value_name = "PATH", env = "RELAY_MODEL")]
    pub model: Option<std::path::PathBuf>,
    /// Run the conformance test suite instead: against this build on a scratch store it
    /// deletes after (no URL), or against the server at this http or https URL (with
    /// --project ID, an existing project to write into, or --scratch-ok)
    #[arg(long, value_name = "URL", num_args = 0..=1, default_missing_value = "")]
    pub check: Option<String>,
    /// With --check URL: the store behind URL is a scratch one, where the suite may make a
    /// project and leave it archived
    #[arg(long, requires = "check")]
    pub scratch_ok: bool,
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
            let mut options = suite::Options {
                url,
                token: args.token,
                project: ctx.global.project.clone(),
                timeout: Duration::from_secs(args.timeout),
            };
            if options.url.is_empty() {
                return on_a_scratch_store(ctx, &mut options);
            }
            if options.project.is_none() && !args.scratch_ok {
                return Err(CliError::Usage(format!(
                    "relay conformance --check writes a project, packages, facts and a session \
                     into the store behind {url}, and that store keeps them (archived, and \
                     committed with the rest). Check this build on a scratch store it deletes \
                     after with `relay conformance --check` alone; give --project ID to write \
                     into a project of that server; or add --scratch-ok if that store is a \
                     scratch one",
                    url = options.url
                )));
            }
            return check(ctx, &options);
        }
        #[cfg(not(feature = "conformance"))]
        {
            let _ = (url, args.token, args.timeout, args.scratch_ok);
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
/// Checks this build: `relay serve` on a new store in a temporary folder, the suite against
/// it, then the server stopped and the folder deleted (whatever the outcome: the server is
/// killed when its guard drops, a panic's unwinding included).
fn on_a_scratch_store(ctx: &mut Ctx, options: &mut suite::Options) -> CmdResult {
    use std::io::{BufRead, Read};
    use std::process::{Command, Stdio};
    let scratch = |e| {
        Error::io(
            "cannot make the scratch store of relay conformance --check",
            e,
        )
    };
    let folder = (tempfile::Builder::new().prefix("relay-conformance-"))
        .tempdir()
        .map_err(scratch)?;
    let exe = std::env::current_exe().map_err(scratch)?;
    let store = folder.path().join(".relay");
    let relay = |args: &[&str]| {
        let mut c = Command::new(&exe);
        c.args(args)
            .arg("--store")
            .arg(&store)
            .current_dir(folder.path())
            // The scratch server is relay's own defaults: no session, token or model of the
            // caller's (a model would be loaded before it answers).
            .env_remove("RELAY_PROJECT")
            .env_remove("RELAY_TOKEN")
            .env_remove("RELAY_SESSION")
            .env_remove("RELAY_MODEL")
            .stdin(Stdio::null());
        c
    };
    let init = (relay(&["init", "--quiet", "--project", "scratch"]))
        .stdout(Stdio::null())
        .output()
        .map_err(scratch)?;
    if !init.status.success() {
        let why = String::from_utf8_lossy(&init.stderr).trim().to_string();
        return Err(scratch(std::io::Error::other(why)).into());
    }
    let mut server = Server(
        (relay(&["serve", "--listen", "127.0.0.1:0", "--json"]))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(scratch)?,
    );
    // Its first line says where it listens (or the pipe ends: it stopped, saying why).
    let mut first = String::new();
    if let Some(out) = server.0.stdout.take() {
        let _ = std::io::BufReader::new(out).read_line(&mut first);
    }
    let url = serde_json::from_str::<serde_json::Value>(&first)
        .ok()
        .and_then(|v| v["url"].as_str().map(str::to_string));
    let Some(url) = url else {
        let _ = server.0.kill();
        let mut why = String::new();
        if let Some(mut err) = server.0.stderr.take() {
            let _ = err.read_to_string(&mut why);
        }
        let why = format!("its server did not say where it listens: {}", why.trim());
        return Err(scratch(std::io::Error::other(why)).into());
    };
    ctx.ui.note(&format!(
        "relay conformance: checking this build on a scratch store at {url}, deleted after"
    ));
    options.url = url;
    options.project = None;
    let result = check(ctx, options);
    // The server first, then its folder.
    drop(server);
    drop(folder);
    result
}

#[cfg(feature = "conformance")]
/// The scratch store's server, killed and waited for when dropped.
struct Server(std::process::Child);

#[cfg(feature = "conformance")]
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
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
