//! `relay watch`: every record as it lands in the store, one line an event, resumable from a
//! cursor.

use std::io::Write;
use std::time::Duration;

use clap::Args;
use colored::Colorize;
use serde_json::Value;

use crate::cli::context::{CliError, CmdResult, Ctx};
use crate::cli::render::clean_line;
use relay_core::ops::watch::{self, Event, EventKind, Until, Watch};
use relay_core::request::watch::{DEFAULT_SINCE, WatchRequest};

/// Print records as they are appended to the store, until interrupted
///
/// Each event is a package deposited, a review transition, a fact version, a session or a
/// project record, from any process: another terminal, a git hook, an agent, `relay serve`,
/// or a `git merge` or `git pull` that brings in another clone's records.
///
/// With --json each event is one line: {"cursor", "kind", "project_id", "record"}, where
/// record is the line as stored. Give the last cursor you saw to --since to carry on after a
/// restart with nothing missed and nothing repeated. When a log is rewritten under the
/// watch (a checkout, a merge that reorders lines, `verify --fix`), a {"kind": "resync"}
/// event names the log, and the records of the new log that this watch has not given yet
/// follow it.
///
/// Forgotten records are never replayed: a package or fact that reads hide when its line is
/// read (retracted, asserted from a retracted package, or expired) comes as one "retracted"
/// or "expired" event whose record names it and says why, {"record", "id", "because",
/// "retraction" or "expired_at"}, without its content; a retraction made while watching
/// comes as a "retracted" event too.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay watch                                  new records in the current project
  relay watch --all-projects --kind package,transition
  relay watch --json | jq -c 'select(.kind == \"fact\") | .record'
  CURSOR=$(relay watch --cursor)               a point to resume from
  relay watch --since \"$CURSOR\" --until-idle 5 --json
  relay watch --since beginning --once --json  everything there is, then exit")]
pub struct WatchArgs {
    /// Where to start: `now` (the default), `beginning`, or a cursor from an earlier event
    #[arg(long, value_name = "CURSOR", default_value = DEFAULT_SINCE)]
    pub since: String,
    /// The kinds to print, comma-separated: package, transition, fact, session, project,
    /// retracted, expired (default: all). A hidden package or fact comes as retracted or
    /// expired when its own kind is asked for. Resync events always come
    #[arg(long, value_name = "KINDS")]
    pub kind: Option<String>,
    /// Every project, including those created while watching (default: the current project)
    #[arg(long)]
    pub all_projects: bool,
    /// Print what is there after --since, then exit
    #[arg(long, conflicts_with = "until_idle")]
    pub once: bool,
    /// Exit after SECONDS with no new event
    #[arg(long, value_name = "SECONDS")]
    pub until_idle: Option<f64>,
    /// Print the cursor of the current end of the store (for a later --since) and exit
    #[arg(long, conflicts_with_all = ["once", "until_idle"])]
    pub cursor: bool,
}

pub fn run(ctx: &mut Ctx, args: WatchArgs) -> CmdResult {
    let req = WatchRequest {
        since: args.since,
        kinds: args.kind,
        all_projects: args.all_projects,
        ..WatchRequest::default()
    };
    let selected = match req.all_projects {
        true => Vec::new(),
        false => ctx.projects(false)?,
    };
    let (scope, since) = ctx.relay()?.watch_scope(&req, || Ok(selected))?;
    let idle = match args.until_idle {
        Some(s) if !(s.is_finite() && s >= 0.0) => {
            return Err(CliError::Usage(format!(
                "--until-idle takes a number of seconds, not {s}"
            )));
        }
        Some(s) => Some(Duration::from_secs_f64(s)),
        None => None,
    };
    let store = ctx.store()?;
    let mut w = Watch::open(store, scope, since)?;
    if args.cursor {
        let cursor = w.cursor();
        if ctx.ui.json {
            ctx.ui.json_line(&serde_json::json!({ "cursor": cursor }))?;
        } else {
            writeln!(ctx.ui.out(), "{cursor}")?;
        }
        return Ok(());
    }
    let until = Until {
        once: args.once,
        idle,
    };
    // The watch reads through a store of its own, so that the command's keeps `ui` free.
    let store = relay_store::Store::open(ctx.store()?.root().to_path_buf())?;
    let ui = &mut ctx.ui;
    let mut failed = None;
    watch::follow(&store, &mut w, until, &mut || false, &mut |event| {
        let written = if ui.json {
            ui.json_line(&event)
        } else {
            writeln!(ui.out(), "{}", human(&event))
        };
        match written.and_then(|()| ui.flush()) {
            Ok(()) => Ok(true),
            Err(e) => {
                failed = Some(e);
                Ok(false)
            }
        }
    })?;
    match failed {
        Some(e) => Err(CliError::Output(e)),
        None => Ok(()),
    }
}

fn text<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    let mut at = v;
    for key in path {
        at = &at[*key];
    }
    at.as_str().unwrap_or("")
}

/// One line for a person: the time, the kind, the project and what happened.
fn human(e: &Event) -> String {
    let r = &e.record;
    let project = clean_line(e.project_id.as_deref().unwrap_or("-")).into_owned();
    let (when, what) = match e.kind {
        EventKind::Package => (
            text(r, &["package", "created_at"]),
            format!(
                "{} {:?} by {}",
                text(r, &["package", "package_id"]),
                text(r, &["package", "title"]),
                text(r, &["package", "created_by", "id"])
            ),
        ),
        EventKind::Transition => (
            text(r, &["transition", "at"]),
            format!(
                "{} {} -> {} by {}",
                text(r, &["package", "package_id"]),
                text(r, &["transition", "from"]),
                text(r, &["transition", "to"]),
                text(r, &["transition", "by", "id"])
            ),
        ),
        EventKind::Fact => {
            let ended = if r["valid_to"].is_string() {
                format!(" (ended {})", text(r, &["valid_to"]))
            } else {
                String::new()
            };
            (
                text(r, &["created_at"]),
                format!(
                    "{} {} = {}{ended}",
                    text(r, &["subject"]),
                    text(r, &["predicate"]),
                    r["value"]
                ),
            )
        }
        EventKind::Session => (
            text(r, &["started_at"]),
            format!(
                "{} {} {}",
                text(r, &["session_id"]),
                text(r, &["callsign"]),
                if r["ended_at"].is_string() {
                    "ended"
                } else {
                    "open"
                }
            ),
        ),
        EventKind::Project => (text(r, &["created_at"]), text(r, &["name"]).to_string()),
        EventKind::Retracted => {
            let by = &r["retraction"];
            let because = match text(r, &["because"]) {
                "source_retracted" => format!(" (its source {} was retracted)", text(by, &["id"])),
                _ => String::new(),
            };
            (
                text(by, &["retracted_at"]),
                format!(
                    "{} {}{because} by {}: {}",
                    text(r, &["record"]),
                    text(r, &["id"]),
                    text(by, &["retracted_by", "id"]),
                    text(by, &["reason"])
                ),
            )
        }
        EventKind::Expired => (
            text(r, &["expired_at"]),
            format!("{} {}", text(r, &["record"]), text(r, &["id"])),
        ),
        EventKind::Resync => (
            "",
            format!(
                "{} was {}; what follows is {}",
                text(r, &["log"]),
                text(r, &["reason"]).replace('_', " "),
                if text(r, &["replay"]) == "whole_log" {
                    "the whole log again"
                } else {
                    "what this watch had not printed"
                }
            ),
        ),
    };
    let kind = format!("{:<10}", e.kind.as_str());
    let kind = match e.kind {
        EventKind::Resync | EventKind::Retracted | EventKind::Expired => kind.yellow(),
        _ => kind.cyan(),
    };
    let when = if when.is_empty() { "-" } else { when };
    clean_line(&format!("{when} {kind} {} {what}", project.bold())).into_owned()
}
