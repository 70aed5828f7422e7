//! `relay session`: start and end sessions with callsigns, and see what happened in one.

use std::io::Write;

use clap::{Args, Subcommand};
use colored::Colorize;

use crate::cli::context::{ActorArgs, CliError, CmdResult, Ctx};
use crate::cli::render;
use relay_core::ops::sessions::{self, SessionView};
use relay_core::request::sessions::{SessionEndRequest, SessionListRequest, SessionStartRequest};
use relay_wire::Session;

/// Group work into sessions with memorable callsigns (e.g. coral-heron)
///
/// `session start` records a session and makes it this clone's current session, so every
/// deposit and fact assertion records it. Two agents in one clone can each hold their own
/// session: `eval "$(relay session start --shell)"` sets RELAY_SESSION for that shell only (and
/// leaves the clone's current session alone); RELAY_SESSION always wins over the clone setting.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay session start --actor claude --actor-type agent
  eval \"$(relay session start --shell)\"
  relay session show coral-heron          what did coral-heron decide?
  relay session end")]
pub struct SessionArgs {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Start a session and make it current
    Start {
        #[command(flatten)]
        who: ActorArgs,
        /// Use this callsign instead of a generated one
        #[arg(long, value_name = "NAME")]
        callsign: Option<String>,
        /// Print only `export RELAY_SESSION=…` for eval, and leave the clone's current session
        #[arg(long)]
        shell: bool,
    },
    /// End a session (default: the current one) and record its packages
    End {
        /// Session id (or the start of it: sess_ and at least 4 more characters) or callsign.
        /// A callsign that two open sessions share (merged clones each started one) is
        /// refused, listing their ids: pass the id
        #[arg(value_name = "SESSION")]
        session: Option<String>,
    },
    /// The current session: RELAY_SESSION, else this clone's
    Status,
    /// Sessions of the project, oldest first
    ///
    /// Each line shows the callsign and the session id. Open sessions that share a callsign
    /// (two clones each started one, then were merged) are told apart by the id: commands
    /// given that callsign refuse it and list the ids, and this list notes it on stderr.
    List {
        /// Only sessions that have not ended
        #[arg(long)]
        active: bool,
        /// The sessions as they were at TIME: those started by then, open if they ended
        /// since, with the packages deposited by then
        #[arg(long, value_name = "TIME")]
        as_of: Option<String>,
    },
    /// A session with the packages deposited in it, their decisions and open questions
    Show {
        /// Session id (or the start of it: sess_ and at least 4 more characters) or callsign
        #[arg(value_name = "SESSION")]
        session: String,
    },
}

fn session_line(out: &mut impl Write, v: &SessionView) -> std::io::Result<()> {
    let s = &v.session;
    let state = match s.str_field("ended_at") {
        Some(t) => format!("ended {t}").dimmed(),
        None => "active".green(),
    };
    writeln!(
        out,
        "{}  {}  {} ({})  started {}  {}  {}",
        render::clean_line(s.callsign().unwrap_or("-")).bold(),
        s.id().cyan(),
        render::clean_line(s.str_field("actor_id").unwrap_or_default()),
        s.str_field("actor_type").unwrap_or_default(),
        s.str_field("started_at").unwrap_or_default(),
        state,
        relay_wire::text::count(v.packages.len(), "package")
    )
}

fn show(out: &mut impl Write, v: &SessionView) -> std::io::Result<()> {
    session_line(out, v)?;
    for p in &v.packages {
        writeln!(out)?;
        render::package_card(out, p)?;
    }
    Ok(())
}

fn current(ctx: &Ctx) -> Result<Option<Session>, CliError> {
    let explicit = ctx.env.session();
    Ok(sessions::acting(
        ctx.store()?,
        &ctx.search_order()?,
        explicit.as_deref(),
    )?)
}

pub fn run(ctx: &mut Ctx, args: SessionArgs) -> CmdResult {
    let store = ctx.store()?;
    match args.action {
        Action::Start {
            who,
            callsign,
            shell,
        } => {
            // --shell leaves the clone's current session to the other shells.
            let req = SessionStartRequest {
                callsign,
                make_current: shell.then_some(false),
            };
            let project = ctx.project()?;
            let claim = who.claim(&crate::cli::context::SessionArg { session: None });
            let s = ctx.relay()?.session_start(&claim, &project, &req)?;
            if shell {
                writeln!(ctx.ui.out(), "export RELAY_SESSION={}", s.id())?;
                return Ok(());
            }
            if ctx.env.session().is_some_and(|s| !s.is_empty()) {
                ctx.ui.note("note: RELAY_SESSION is set in this shell and takes precedence over the clone's current session");
            }
            if ctx.ui.json {
                ctx.ui.json_line(&s)?;
            } else {
                writeln!(
                    ctx.ui.out(),
                    "{} {}",
                    s.id(),
                    s.callsign().unwrap_or_default()
                )?;
                ctx.ui.note(&format!(
                    "Session started; you are {} (announce it). It is this clone's current session.",
                    s.callsign().unwrap_or_default()
                ));
            }
            Ok(())
        }
        Action::End { session } => {
            let req = SessionEndRequest { session };
            req.validate()?;
            let explicit = ctx.env.session();
            let order = ctx.search_order()?;
            let named = req.session.as_deref();
            let v = sessions::end_named(store, &order, named, explicit.as_deref())?
                .ok_or_else(CliError::no_current_session)?;
            if ctx.ui.json {
                ctx.ui.json_line(&v.session)?;
            } else {
                session_line(ctx.ui.out(), &v)?;
            }
            Ok(())
        }
        Action::Status => {
            let Some(s) = current(ctx)? else {
                if ctx.ui.json {
                    ctx.ui.json_line(&serde_json::Value::Null)?;
                } else {
                    writeln!(
                        ctx.ui.out(),
                        "No current session. Start one with `relay session start`."
                    )?;
                }
                return Ok(());
            };
            let v = sessions::view(store, s)?;
            if ctx.ui.json {
                ctx.ui.json_line(&v.session)?;
            } else {
                session_line(ctx.ui.out(), &v)?;
            }
            Ok(())
        }
        Action::List { active, as_of } => {
            let req = SessionListRequest { active, as_of };
            let project = ctx.project()?;
            let (listed, as_of) = ctx.relay()?.sessions_list(&project, &req)?;
            ctx.note_as_of(std::slice::from_ref(&project), as_of)?;
            for v in &listed {
                if ctx.ui.json {
                    ctx.ui.json_line(&v.session)?;
                } else {
                    session_line(ctx.ui.out(), v)?;
                }
            }
            for (callsign, open) in sessions::shared_callsigns(listed.iter().map(|v| &v.session)) {
                ctx.ui.note(&format!(
                    "note: {} open sessions share the callsign {} (merged clones each started \
                     one); a command given it refuses it, so name each by its id, e.g. `relay \
                     session end {}`",
                    open.len(),
                    render::clean_line(callsign),
                    open[0].id()
                ));
            }
            Ok(())
        }
        Action::Show { session } => {
            let s = sessions::resolve(store, &ctx.search_order()?, &session)?;
            let mut v = sessions::view(store, s)?;
            // Drafts are visible to their creator only.
            let viewer = ctx
                .viewer(v.session.str_field("project_id").unwrap_or_default())?
                .id;
            v.packages
                .retain(|p| relay_core::search::filter::visible_to(&p.package, &viewer));
            if ctx.ui.json {
                let packages: Vec<_> = v.packages.iter().map(|p| &p.package).collect();
                ctx.ui
                    .json_line(&serde_json::json!({"session": v.session, "packages": packages}))?;
            } else {
                show(ctx.ui.out(), &v)?;
            }
            Ok(())
        }
    }
}
