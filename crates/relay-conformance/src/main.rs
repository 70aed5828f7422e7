//! `relay-conformance URL`: the conformance suite on its own, for any implementation of the
//! Agentic Protocol's HTTP mapping (§9.1) to run against itself without installing relay.
//! `relay conformance --check URL` runs the same suite. It prints a line per scenario and the
//! level passed (or, with `--json`, one report of [`Report::to_json`]'s shape) and exits with a
//! code of [`exit`]: 0 when the level the server declares passed.

use std::process::ExitCode;
use std::time::Duration;

use relay_conformance::{Options, Report, exit, run};

const USAGE: &str =
    "Usage: relay-conformance URL [--json] [--token TOKEN] [--project ID] [--timeout SECS]

Runs the Agentic Protocol conformance suite (levels L0-L3, §11) against the server at URL.
  --json          print one JSON report instead of lines (docs/guide/conformance.md)
  --token TOKEN   sent as `Authorization: Bearer TOKEN` (default: $RELAY_TOKEN)
  --project ID    write into this existing project instead of making one
  --timeout SECS  how long one request may take (default 30)

Exit codes: 0 the level the server declares passed (L3 if it declares none); 10 no level
passed; 11, 12, 13 the highest level passed is L0, L1, L2, below the one declared; 2 usage;
3 the suite could not run (no answer, token refused, no project).";

/// The command line.
struct Args {
    options: Options,
    json: bool,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut url = None;
    let mut json = false;
    let mut token = std::env::var("RELAY_TOKEN").ok();
    let mut project = None;
    let mut timeout = 30;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--json" => json = true,
            "--token" => token = Some(value("--token")?),
            "--project" => project = Some(value("--project")?),
            "--timeout" => {
                timeout = (value("--timeout")?.parse::<u64>().ok())
                    .filter(|t| (1..=3600).contains(t))
                    .ok_or("--timeout takes 1 to 3600 seconds")?;
            }
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            other if url.is_none() => url = Some(other.to_string()),
            other => return Err(format!("one URL only, not also {other}")),
        }
    }
    Ok(Args {
        options: Options {
            url: url.ok_or("the server's URL is missing")?,
            token,
            project,
            timeout: Duration::from_secs(timeout),
        },
        json,
    })
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let args = match parse(raw.into_iter()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("relay-conformance: {e}\n\n{USAGE}");
            return code(exit::USAGE);
        }
    };
    let json = args.json;
    let result = run(&args.options, &mut |o| {
        if !json {
            println!("{}", o.line());
        }
    });
    let report: Report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("relay-conformance: {e}");
            return code(exit::CANNOT_RUN);
        }
    };
    if json {
        println!("{}", report.to_json());
    } else {
        println!("{}", report.summary_line());
        for note in &report.notes {
            eprintln!("note: {note}");
        }
    }
    code(report.exit_code())
}

fn code(c: i32) -> ExitCode {
    ExitCode::from(u8::try_from(c).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Result<Args, String> {
        parse(a.iter().map(|s| s.to_string()))
    }

    #[test]
    fn the_command_line_takes_a_url_and_its_options() {
        let a = args(&["http://h", "--json", "--project", "p", "--timeout", "5"]).unwrap();
        assert!(a.json);
        assert_eq!(a.options.url, "http://h");
        assert_eq!(a.options.project.as_deref(), Some("p"));
        assert_eq!(a.options.timeout, Duration::from_secs(5));
        let a = args(&["--token", "t", "http://h"]).unwrap();
        assert_eq!(a.options.token.as_deref(), Some("t"));
        for (bad, said) in [
            (&[][..], "URL is missing"),
            (&["http://h", "--bogus"][..], "unknown option --bogus"),
            (&["http://h", "http://i"][..], "one URL only"),
            (&["http://h", "--timeout", "0"][..], "1 to 3600"),
            (&["http://h", "--token"][..], "--token needs a value"),
        ] {
            let e = args(bad).err().unwrap();
            assert!(e.contains(said), "{bad:?}: {e}");
        }
    }
}
