//! `relay lesson add` and `relay lesson list`: lessons (packages of type `x-lesson`, see
//! [`relay_wire::memory`]) recorded once and listed most severe first.

use relay_core::request::deposit::Form;
use relay_core::request::number::parse_whole as whole;
use std::io::{Read, Write};

use clap::{Args, Subcommand};

use crate::cli::context::{ActorArgs, CmdResult, Ctx, SessionArg};
use crate::cli::render;
use relay_core::ops::memory::reads;
use relay_wire::error::Error;
use relay_wire::memory::Lesson;

/// Record lessons learned once and needed forever, and list them
///
/// A lesson is a package of type x-lesson: its title, the lesson itself (description) and
/// x-severity (info, warning or critical). `relay orient` shows the project's critical and
/// warning lessons whatever their age.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay lesson add \"Migrations need a lock timeout\" --content \"Always run migrations with --lock-timeout 5s\" --severity critical --tag db
  relay lesson list
  relay lesson list --severity critical --json")]
pub struct LessonArgs {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Record a lesson; prints its id and hash like `relay deposit`
    Add {
        /// What the lesson is about, in one line
        #[arg(value_name = "TITLE")]
        title: String,
        /// The lesson itself, or - to read it from stdin
        #[arg(long, value_name = "TEXT|-")]
        content: String,
        /// How much it matters: info (default), warning or critical
        #[arg(long, value_name = "SEVERITY")]
        severity: Option<String>,
        /// A tag (repeatable)
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        #[command(flatten)]
        who: ActorArgs,
        #[command(flatten)]
        session: SessionArg,
    },
    /// The project's lessons, most severe first, then newest
    ///
    /// One line each: `[SEVERITY] TITLE (ID)`; --json prints one line per lesson:
    /// {"package": {…}, "x-stale": [stale file deliverables, see `relay pull --help`]}.
    List {
        /// Only lessons of this severity: info, warning or critical
        #[arg(long, value_name = "SEVERITY")]
        severity: Option<String>,
        /// Only lessons with this tag (repeatable: all of them)
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        /// At most N lessons
        #[arg(long, value_name = "N", value_parser = whole::<usize>)]
        limit: Option<usize>,
        /// Cover every project, not just the selected one
        #[arg(long)]
        all_projects: bool,
        /// The lessons as the store held them at TIME
        #[arg(long, value_name = "TIME")]
        as_of: Option<String>,
    },
}

pub fn run(ctx: &mut Ctx, args: LessonArgs) -> CmdResult {
    match args.action {
        Action::Add {
            title,
            content,
            severity,
            tags,
            who,
            session,
        } => {
            let content = match content.as_str() {
                "-" => {
                    let mut text = String::new();
                    std::io::stdin()
                        .read_to_string(&mut text)
                        .map_err(|e| Error::InvalidInput(format!("--content - (stdin): {e}")))?;
                    text
                }
                _ => content,
            };
            let severity = severity.map(|s| reads::parse_severity(&s)).transpose()?;
            let input = Lesson {
                title,
                content,
                severity,
                tags,
            }
            .to_input()
            .map_err(Error::InvalidInput)?;
            let project = ctx.project()?;
            let claim = who.claim(&session);
            let done =
                ctx.relay()?
                    .deposit_package(&claim, None, || Ok(project), input, Form::Filled)?;
            render::deposited(&mut ctx.ui, &done)
        }
        Action::List {
            severity,
            tags,
            limit,
            all_projects,
            as_of,
        } => {
            let query = reads::LessonQuery {
                severities: severity
                    .map(|s| reads::parse_severity(&s))
                    .transpose()?
                    .into_iter()
                    .collect(),
                tags,
                no_drafts: false,
                as_of: ctx.relay()?.snapshot_time("pull", as_of.as_deref())?,
            };
            let projects = ctx.projects(all_projects)?;
            ctx.note_as_of(&projects, query.as_of)?;
            let mut found = reads::lessons(ctx.store()?, &projects, &query)?;
            found.truncate(limit.unwrap_or(usize::MAX));
            if ctx.ui.json {
                return ctx.json_packages(&found, query.as_of);
            }
            for p in &found {
                writeln!(
                    ctx.ui.out(),
                    "[{}] {} ({})",
                    render::clean_line(reads::severity_of(p)),
                    render::clean_line(p.package.title()),
                    p.package.id()
                )?;
            }
            if found.is_empty() {
                ctx.ui.note("No lessons recorded.");
            }
            Ok(())
        }
    }
}
