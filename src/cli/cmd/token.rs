//! `relay token`: make, list, narrow and revoke the bearer tokens `relay serve` accepts. The
//! logic is [`relay_core::ops::trust::tokens`]; this prints a new token once and never again.

use std::io::Write;

use clap::{Args, Subcommand};
use colored::Colorize;

use crate::cli::context::{CmdResult, Ctx};
use crate::cli::render;
use relay_core::ops::Actor;
use relay_core::ops::trust::tokens::{self, NewToken};
use relay_store::tokens::TokenRecord;

/// Make, list, narrow and revoke the bearer tokens of `relay serve`
///
/// A token maps to one actor: whatever a request with it writes is recorded as that actor's
/// (created_by, asserted_by, a review's actor). It may be limited to some projects, and to
/// reading. relay prints a new token once and keeps only its SHA-256, in .relay/local/tokens.ndjson
/// (per clone, never committed). Once a live token exists, `relay serve` asks every request
/// for one (`Authorization: Bearer TOKEN`), and it can listen on addresses other than
/// loopback. Revoking or narrowing a token takes effect on the next request, and ends the
/// token's open event streams within a second.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay token create --actor claude --actor-type agent --project web
  relay token create --actor dashboard --actor-type script --read-only --json
  relay token list
  relay token narrow tok_… --scope web --read-only
  relay token revoke tok_…")]
pub struct TokenArgs {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Make a token and print it (once: only its hash is kept)
    ///
    /// Its scope is the projects named with --project (one) and --scope (any number); with
    /// neither, every project (RELAY_PROJECT does not narrow a token).
    Create {
        /// The actor the token acts as
        #[arg(long, value_name = "ID")]
        actor: String,
        /// What kind of actor
        #[arg(long, value_name = "TYPE", default_value = "agent", value_parser = ["human", "agent", "script"])]
        actor_type: String,
        /// Limit the token to this project too (repeatable, or comma-separated)
        #[arg(long, value_name = "PROJECT", value_delimiter = ',')]
        scope: Vec<String>,
        /// The token may read, never write
        #[arg(long)]
        read_only: bool,
    },
    /// Every token, revoked ones too (no secrets: ids, actors, scopes, times)
    List,
    /// Narrow a token: keep only some of its projects, or make it read-only
    ///
    /// A token is never widened: the projects named must be ones it covers (make a new token
    /// for more). Requests are judged by the narrower scope from now on, and the token's open
    /// event streams on a project it no longer covers end within a second. Narrowing to the
    /// scope it has already writes nothing.
    Narrow {
        /// The token's id (tok_…), as `relay token list` shows it
        #[arg(value_name = "ID")]
        token_id: String,
        /// A project the token keeps (repeatable, or comma-separated); the others are dropped
        #[arg(long, value_name = "PROJECT", value_delimiter = ',')]
        scope: Vec<String>,
        /// The token may read from now on, never write
        #[arg(long)]
        read_only: bool,
    },
    /// Revoke a token: requests with it are refused from now on, its open streams end
    Revoke {
        /// The token's id (tok_…), as `relay token list` shows it
        #[arg(value_name = "ID")]
        token_id: String,
    },
}

fn token_line(out: &mut impl Write, t: &TokenRecord) -> std::io::Result<()> {
    let scope = match &t.projects {
        Some(list) => list.join(", "),
        None => "every project".to_string(),
    };
    let state = match &t.revoked_at {
        Some(at) => format!("revoked {at}").dimmed(),
        None => "live".green(),
    };
    writeln!(
        out,
        "{}  {} ({})  {}{}  created {}  {}",
        t.token_id.cyan(),
        render::clean_line(&t.actor_id).bold(),
        t.actor_type,
        render::clean_line(&scope),
        if t.read_only { "  read-only" } else { "" },
        t.created_at,
        state
    )
}

pub fn run(ctx: &mut Ctx, args: TokenArgs) -> CmdResult {
    let store = ctx.store()?;
    match args.action {
        Action::Create {
            actor,
            actor_type,
            scope,
            read_only,
        } => {
            // The global --project names one project of the scope; RELAY_PROJECT does not, so
            // that a shell's default project never narrows a token unseen.
            let mut projects: Vec<String> = ctx.global.project.iter().cloned().collect();
            projects.extend(scope);
            let req = NewToken {
                actor: Actor {
                    id: actor,
                    actor_type,
                },
                projects: (!projects.is_empty()).then_some(projects),
                read_only,
            };
            let made = tokens::create(store, req)?;
            if ctx.ui.json {
                let mut v = tokens::to_value(&made.record);
                v["token"] = made.token.clone().into();
                ctx.ui.json_line(&v)?;
            } else {
                writeln!(ctx.ui.out(), "{}", made.token)?;
                ctx.ui.flush()?;
                let mut about = Vec::new();
                token_line(&mut about, &made.record)?;
                ctx.ui.note(&format!(
                    "{}Copy the token now: relay keeps only its hash and cannot show it again. \
                     Send it as `Authorization: Bearer TOKEN`; revoke it with `relay token revoke {}`.",
                    String::from_utf8_lossy(&about),
                    made.record.token_id
                ));
            }
            Ok(())
        }
        Action::List => {
            let all = tokens::list(store)?;
            if ctx.ui.json {
                for t in &all {
                    ctx.ui.json_line(&tokens::to_value(t))?;
                }
            } else if all.is_empty() {
                ctx.ui.note(
                    "No tokens: `relay serve` answers loopback requests without one. Make one \
                     with `relay token create --actor ID`.",
                );
            } else {
                for t in &all {
                    token_line(ctx.ui.out(), t)?;
                }
            }
            Ok(())
        }
        Action::Narrow {
            token_id,
            scope,
            read_only,
        } => {
            let mut projects: Vec<String> = ctx.global.project.iter().cloned().collect();
            projects.extend(scope);
            let req = tokens::Narrow {
                projects: (!projects.is_empty()).then_some(projects),
                read_only,
            };
            let t = tokens::narrow(store, &token_id, req)?;
            if ctx.ui.json {
                ctx.ui.json_line(&tokens::to_value(&t))?;
            } else {
                token_line(ctx.ui.out(), &t)?;
            }
            Ok(())
        }
        Action::Revoke { token_id } => {
            let t = tokens::revoke(store, &token_id)?;
            if ctx.ui.json {
                ctx.ui.json_line(&tokens::to_value(&t))?;
            } else {
                token_line(ctx.ui.out(), &t)?;
            }
            Ok(())
        }
    }
}
