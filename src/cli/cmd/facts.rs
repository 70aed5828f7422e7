//! `relay facts`: assert, invalidate and query the project's mutable state (§7).

use std::io::Write;

use clap::{Args, Subcommand};
use colored::Colorize;
use serde_json::Value;

use crate::cli::args::{ExpiryArgs, RevealArgs};
use crate::cli::context::{ActorArgs, CmdResult, Ctx, SessionArg};
use crate::cli::render;
use relay_core::ops;
use relay_core::ops::facts;
use relay_core::request::fact_key::{GetFactRequest, InvalidateFactRequest};
use relay_core::request::facts::{AssertFactRequest, ListFactsRequest};
use relay_wire::Fact;
use relay_wire::error::Error;

/// Track what is true now, and what was true then
///
/// A fact is a subject/predicate/value triple, valid from `valid_from` until it is superseded
/// or invalidated. Asserting a new value for a (subject, predicate) closes the current fact and
/// records the new one in one atomic write; the history is kept, so `get --at` answers "what
/// did we believe on that day?".
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay facts assert dashboard status live --source pkg_…
  relay facts assert longmemeval_s recall_at_5 97.0 --confidence 0.9 --tag benchmark
  relay facts assert api p99_ms 120 --field x-unit=ms
  relay facts get dashboard status
  relay facts get dashboard status --at 2026-04-10
  relay facts list --subject dashboard
  relay facts history dashboard status
  relay facts invalidate dashboard status
  relay facts invalidate dashboard status live

TIME is an RFC 3339 timestamp (2026-04-18T20:00:00Z), a date (2026-04-18) or an age (30m, 12h, 7d, 2w).")]
pub struct FactsArgs {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Record a value, superseding the current one (a no-op only if the value, confidence,
    /// source, tags and start are all already current)
    Assert {
        subject: String,
        predicate: String,
        /// Stored as text, numbers included
        value: String,
        /// The package this fact comes from (its id, or the start of it); its author
        /// becomes the fact's asserted_by
        #[arg(long, value_name = "PKG")]
        source: Option<String>,
        /// How sure, from 0 to 1 (default 1)
        #[arg(long, value_name = "X", allow_negative_numbers = true)]
        confidence: Option<f64>,
        /// A label (repeatable)
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        /// When it became true (default: now); not before the current fact's valid_from
        #[arg(long, value_name = "TIME")]
        valid_from: Option<String>,
        /// An extension member the fact keeps (§12.1), KEY named x-*; VALUE is read as
        /// JSON when it parses (30, true, ["a"]), else as text (repeatable)
        #[arg(long = "field", value_name = "KEY=VALUE", value_parser = extension)]
        fields: Vec<(String, Value)>,
        #[command(flatten)]
        expiry: ExpiryArgs,
        #[command(flatten)]
        who: ActorArgs,
        #[command(flatten)]
        session: SessionArg,
    },
    /// End the current fact(s) of a key without a replacement; prints how many ended
    Invalidate {
        subject: String,
        predicate: String,
        /// Only end the fact if it holds this value (§8.7's object)
        value: Option<String>,
    },
    /// The current value of a key, or the one valid at --at (exit 1 if none)
    Get {
        subject: String,
        predicate: String,
        #[arg(long, value_name = "TIME")]
        at: Option<String>,
        #[command(flatten)]
        reveal: RevealArgs,
    },
    /// Current facts (one per subject and predicate), filtered
    List {
        #[arg(long)]
        subject: Option<String>,
        #[arg(long)]
        predicate: Option<String>,
        #[arg(long, value_name = "TAG")]
        tag: Option<String>,
        /// The facts valid at TIME instead of now
        #[arg(long, value_name = "TIME", conflicts_with = "include_ended")]
        at: Option<String>,
        /// Every fact, ended ones included
        #[arg(long)]
        include_ended: bool,
        /// The facts as the store stood at TIME: recorded by then and valid then (unlike
        /// --at, facts recorded since with an earlier valid_from are left out)
        #[arg(long, value_name = "TIME", conflicts_with_all = ["at", "include_ended"])]
        as_of: Option<String>,
        #[command(flatten)]
        reveal: RevealArgs,
    },
    /// Every value a key has had, oldest first
    ///
    /// Each fact ends where the next begins, even when merged clones left it stored as open
    /// or overlapping; with --json, such a fact carries `x-stored_valid_to` (what is stored,
    /// `null` for open) beside its effective `valid_to`.
    ///
    /// A fact that reads hide (retracted, asserted from a retracted package, or expired)
    /// keeps its place but is never shown as the key's value: its line says why instead of
    /// the value (with --json, `x-hidden` holds `because` and the retraction or `expired_at`,
    /// and only the members that place it in the chain are kept). --include-retracted and
    /// --include-expired show its value, still marked.
    History {
        subject: String,
        predicate: String,
        #[command(flatten)]
        reveal: RevealArgs,
    },
}

/// `--field KEY=VALUE`: an `x-*` member, its value JSON when it parses, else text.
fn extension(arg: &str) -> Result<(String, Value), String> {
    let (key, value) = (arg.split_once('='))
        .ok_or_else(|| format!("`{arg}` is not KEY=VALUE (e.g. x-unit=ms)"))?;
    if !key.starts_with("x-") {
        return Err(format!("`{key}` is not an extension: name it x-… (§12.1)"));
    }
    let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.into()));
    Ok((key.to_string(), value))
}

fn fact_line(out: &mut impl Write, f: &Fact) -> std::io::Result<()> {
    fact_line_noting(out, f, "")
}

/// A fact's line, with `extra` after its span (e.g. what is stored, where it differs).
fn fact_line_noting(out: &mut impl Write, f: &Fact, extra: &str) -> std::io::Result<()> {
    let from = f.valid_from().format("%Y-%m-%d %H:%M UTC");
    let span = match f.valid_to() {
        Some(to) => format!("{from} → {}", to.format("%Y-%m-%d %H:%M UTC")),
        None => format!("since {from}"),
    };
    let conf = if f.confidence() < 1.0 {
        format!(", confidence {}", f.confidence())
    } else {
        String::new()
    };
    writeln!(
        out,
        "{} {} = {}  {}",
        render::clean_line(f.subject()).cyan(),
        render::clean_line(f.predicate()),
        render::clean_line(f.value()).bold(),
        format!("({span}{conf}{extra}; {})", f.id()).dimmed()
    )
}

fn print_facts(ctx: &mut Ctx, list: &[Fact]) -> CmdResult {
    for f in list {
        if ctx.ui.json {
            ctx.ui.json_line(f)?;
        } else {
            fact_line(ctx.ui.out(), f)?;
        }
    }
    Ok(())
}

pub fn run(ctx: &mut Ctx, args: FactsArgs) -> CmdResult {
    let project = ctx.project()?;
    // A folder without a store is told so before anything else.
    ctx.store()?;
    match args.action {
        Action::Assert {
            subject,
            predicate,
            value,
            source,
            confidence,
            tags,
            valid_from,
            fields,
            expiry,
            who,
            session,
        } => {
            let req = AssertFactRequest {
                subject,
                predicate,
                value,
                source_package_id: source,
                confidence,
                tags,
                valid_from,
                extensions: fields.into_iter().collect(),
            };
            let relay = ctx.relay()?;
            let mut req = relay.fact_to_assert(&project, req)?;
            req.expires_at = expiry.resolve()?;
            let done = relay.facts_assert(&who.claim(&session), &project, req)?;
            if ctx.ui.json {
                ctx.ui.json_line(&done.to_value())?;
            } else {
                fact_line(ctx.ui.out(), &done.fact)?;
                if !done.created {
                    ctx.ui.note(
                        "Unchanged: that value is already current with the same confidence, \
                         source, tags and start; nothing was written.",
                    );
                }
                for old in &done.superseded {
                    ctx.ui.note(&format!(
                        "Superseded {} (was “{}”).",
                        old.id(),
                        render::clean_line(old.value())
                    ));
                }
            }
            Ok(())
        }
        Action::Invalidate {
            subject,
            predicate,
            value,
        } => {
            let req = InvalidateFactRequest {
                subject,
                predicate,
                object: value,
            };
            let ended = ctx.relay()?.facts_invalidate(&project, &req)?;
            if ctx.ui.json {
                ctx.ui
                    .json_line(&serde_json::json!({"invalidated": ended.len()}))?;
            } else {
                let ended = relay_wire::text::count(ended.len(), "fact");
                writeln!(ctx.ui.out(), "Ended {ended}.")?;
            }
            Ok(())
        }
        Action::Get {
            subject,
            predicate,
            at,
            reveal,
        } => {
            let reveal = reveal.reveal();
            let req = GetFactRequest {
                subject,
                predicate,
                at,
                include_expired: reveal.expired,
                include_retracted: reveal.retracted,
            };
            let f = ctx.relay()?.facts_get(&project, &req)?;
            print_facts(ctx, &[f])
        }
        Action::List {
            subject,
            predicate,
            tag,
            at,
            include_ended,
            as_of,
            reveal,
        } => {
            let reveal = reveal.reveal();
            let req = ListFactsRequest {
                subject,
                predicate,
                tag,
                at,
                include_ended,
                as_of,
                include_expired: reveal.expired,
                include_retracted: reveal.retracted,
            };
            let q = ctx.relay()?.facts_query(&project, req)?;
            ctx.note_as_of(&[ctx.project()?], q.as_of)?;
            // Written as found: a listing of every fact never waits for, or holds, all of them;
            // a long history is parsed and rendered on two threads.
            let json = ctx.ui.json;
            let mut out = std::io::BufWriter::with_capacity(1 << 16, ctx.ui.stream_out()?);
            let (mut shown, mut failed) = (false, None);
            let render = |f: &Fact, buf: &mut Vec<u8>| -> Result<(), Error> {
                let written = match json {
                    true => serde_json::to_writer(&mut *buf, f)
                        .map_err(std::io::Error::from)
                        .map(|()| buf.push(b'\n')),
                    false => fact_line(buf, f),
                };
                written.map_err(|e| Error::io("cannot write the facts", e))
            };
            let listed = facts::list_rendered(ctx.store()?, &project, &q, &render, &mut |bytes| {
                shown |= !bytes.is_empty();
                out.write_all(bytes).map_err(|e| {
                    let stop = Error::io("cannot write the facts", std::io::Error::other("stop"));
                    failed = Some(e);
                    stop
                })
            });
            if let Some(e) = failed {
                return Err(e.into());
            }
            listed?;
            out.flush()?;
            if !shown && !json {
                ctx.ui.note("No facts match.");
            }
            Ok(())
        }
        Action::History {
            subject,
            predicate,
            reveal,
        } => {
            let list =
                (ctx.relay()?).facts_history(&project, subject, predicate, reveal.reveal())?;
            for entry in &list {
                if ctx.ui.json {
                    ctx.ui.json_line(&entry.to_value())?;
                    continue;
                }
                history_line(ctx.ui.out(), entry)?;
            }
            if list.iter().any(|e| e.link.differs()) && !ctx.ui.json {
                ctx.ui.note(
                    "Merged clones left facts of this key open or overlapping; each is shown \
                     ending where the next begins. `relay verify --fix` records that.",
                );
            }
            Ok(())
        }
    }
}

/// One fact of a history: as [`fact_line`], with what is stored where it differs; a hidden
/// fact says why in place of its value (unless shown), and is never shown as current.
fn history_line(out: &mut impl Write, entry: &ops::facts::history::Entry) -> std::io::Result<()> {
    let link = &entry.link;
    let mut extra = match &link.stored_valid_to {
        Some(Some(stored)) => format!(", stored end {stored}"),
        Some(None) => ", stored as open".to_string(),
        None => String::new(),
    };
    let Some((_, why)) = &entry.hidden else {
        return fact_line_noting(out, &link.fact, &extra);
    };
    extra.push_str(&format!("; {}", render::clean_line(why)));
    let f = &link.fact;
    let from = f.valid_from().format("%Y-%m-%d %H:%M UTC");
    let span = match f.valid_to() {
        Some(to) => format!("{from} → {}", to.format("%Y-%m-%d %H:%M UTC")),
        None => format!("from {from}"),
    };
    let value = match entry.withheld {
        true => "(withheld)".to_string(),
        false => render::clean_line(f.value()).into_owned(),
    };
    writeln!(
        out,
        "{} {} = {}  {}",
        render::clean_line(f.subject()).cyan(),
        render::clean_line(f.predicate()),
        value.yellow(),
        format!("({span}{extra}; {})", f.id()).dimmed()
    )
}
