//! `relay pull`: one package by id, or the latest packages, filtered.

use relay_core::request::number::parse_whole as whole;
use std::io::Write;

use clap::Args;

use crate::cli::args::{FilterArgs, ModeArgs};
use crate::cli::context::{CliError, CmdResult, Ctx};
use crate::cli::render;
use relay_core::ops::packages::pull;
use relay_core::ops::packages::stale;
use relay_core::ops::trust::seal::Seal;
use relay_core::request::DEFAULT_LISTING_LIMIT;
use relay_store::packages::StoredPackage;

/// Read packages: one in full by id, the newest ones, or the most relevant to a query
///
/// With no id, lists the newest packages of the project (5 unless --latest N says otherwise),
/// newest first, each at its current version. --relevant QUERY ranks packages by relevance
/// instead (see `relay search --help`). A package whose file deliverables changed or are gone
/// since it was deposited is flagged `may be stale:` with those files.
///
/// With --json, prints one line per package: {"package": {…}, "x-stale": [{"path": …,
/// "reason": "changed"|"missing"}]}, the package exactly as stored; with --relevant one result
/// per line: {"package": {…}, "score": …, "matched": […], "x-stale": […]}. One package by id
/// adds its signature's verdict: "x-signature": {"verdict", "actor"?, "key"?, "reason"?,
/// "fails"}, the verdict good, bad, revoked, not_allowed or unsigned, `fails` saying whether
/// `relay verify` fails on it.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay pull                          the 5 newest packages
  relay pull --latest 20 --type decision --since 7d
  relay pull --relevant \"connection pool\" leak --limit 10
  relay pull pkg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d
  relay pull pkg_1a2b3c                 the same, when no other id begins so
  relay pull --latest 100 --json | jq -r '.package.title'

TIME is an RFC 3339 timestamp (2026-04-18T20:00:00Z), a date (2026-04-18) or an age (30m, 12h, 7d, 2w).")]
pub struct PullArgs {
    /// The package to show in full: its id, or the start of it (pkg_ and at least 4 more
    /// characters) when no other package id begins so
    #[arg(value_name = "PACKAGE_ID", conflicts_with_all = ["types", "tags", "created_by", "status", "since", "until", "all_projects", "relevant"])]
    pub package_id: Option<String>,
    /// With PACKAGE_ID: every stored version, with its transition (who, when, note)
    #[arg(long, requires = "package_id")]
    pub history: bool,
    /// List the N newest packages
    #[arg(long, value_name = "N", num_args = 0..=1, conflicts_with_all = ["package_id", "relevant"], value_parser = whole::<usize>)]
    pub latest: Option<Option<usize>>,
    /// Rank packages by relevance to QUERY (words and "quoted phrases")
    #[arg(long, value_name = "QUERY")]
    pub relevant: Option<String>,
    /// How many packages: the newest (as --latest N) or the best matches of --relevant
    #[arg(long, value_name = "N", value_parser = whole::<usize>, conflicts_with = "package_id")]
    pub limit: Option<usize>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// With --relevant: how results are ranked (see `relay search --help`)
    #[command(flatten)]
    pub mode: ModeArgs,
}

pub fn run(ctx: &mut Ctx, args: PullArgs) -> CmdResult {
    let store = ctx.store()?;
    if let Some(id) = &args.package_id {
        // Ids are unique in the whole store: every project is looked in, whichever is selected.
        let projects = ctx.projects(true)?;
        let indexing = ctx.note_cold_indexes(&projects);
        if args.history {
            let history = ctx.relay()?.pull_history(id)?;
            let retraction = pull::retraction_of(store, id)?;
            drop(indexing);
            for (v, seal) in history.versions.iter().zip(&history.signatures) {
                if ctx.ui.json {
                    let mut env = v.to_envelope();
                    let seal =
                        serde_json::to_value(seal).map_err(|e| CliError::Output(e.into()))?;
                    env.insert("signature".into(), seal);
                    ctx.ui.json_line(&env)?;
                } else {
                    version_line(ctx.ui.out(), v)?;
                    signature_lines(ctx.ui.out(), seal, "    ")?;
                }
            }
            if let Some(r) = retraction {
                let holds = history.retraction.as_ref();
                if ctx.ui.json {
                    let mut line = serde_json::json!({ "retraction": r.raw });
                    if let Some(h) = holds {
                        line["signature"] = serde_json::json!(h);
                    }
                    ctx.ui.json_line(&line)?;
                } else {
                    writeln!(
                        ctx.ui.out(),
                        "retracted by {} at {}: {}",
                        render::clean_line(r.actor()),
                        relay_wire::time::format(r.retracted_at),
                        render::clean_line(&r.reason)
                    )?;
                    if let Some(doubt) = holds.and_then(|h| h.doubt()) {
                        writeln!(ctx.ui.out(), "  {}", render::clean_line(&doubt))?;
                    }
                }
            }
            return Ok(());
        }
        let pulled = ctx.relay()?.pull_package(id, &args.filter.listing())?;
        drop(indexing);
        let (found, as_of) = (pulled.found, pulled.as_of);
        ctx.note_as_of(&ctx.projects(true)?, as_of)?;
        let stale = stale::of_packages_at(store, [&found.package], as_of).concat();
        if ctx.ui.json {
            let envelope =
                render::signed_package_envelope(&found.package, &stale, &pulled.signature);
            ctx.ui.json_line(&envelope)?;
        } else {
            render::flagged_package_card(ctx.ui.out(), &found, &stale)?;
            signature_lines(ctx.ui.out(), &pulled.signature, "  ")?;
        }
        return Ok(());
    }
    if args.relevant.is_none() && args.mode.mode.is_some() {
        return Err(CliError::Usage(
            "--mode ranks a relevant pull: add --relevant QUERY".into(),
        ));
    }
    if let Some(query) = &args.relevant {
        let limit = args.limit.unwrap_or(DEFAULT_LISTING_LIMIT);
        return super::search::run_query(ctx, query, args.filter, &args.mode, false, limit);
    }
    let limit = (args.latest.flatten().or(args.limit)).unwrap_or(DEFAULT_LISTING_LIMIT);
    let listing = args.filter.resolve(ctx, "pull")?;
    let as_of = listing.as_of();
    ctx.note_as_of(listing.projects(), as_of)?;
    let found = ctx.relay()?.pull_latest(&listing, limit)?;
    let stale = stale::of_packages_at(store, found.iter().map(|p| &p.package), as_of);
    if ctx.ui.json {
        for (p, stale) in found.iter().zip(&stale) {
            ctx.ui
                .json_line(&render::package_envelope(&p.package, stale))?;
        }
    } else if found.is_empty() {
        ctx.ui.note("No packages match.");
    } else {
        for (i, (p, stale)) in found.iter().zip(&stale).enumerate() {
            if i > 0 {
                writeln!(ctx.ui.out())?;
            }
            render::flagged_package_card(ctx.ui.out(), p, stale)?;
        }
    }
    Ok(())
}

/// One line per stored version: its number, status, and the transition that made it.
fn version_line(out: &mut impl Write, v: &StoredPackage) -> std::io::Result<()> {
    let p = &v.package;
    match &v.transition {
        None => writeln!(
            out,
            "v{}  {}  deposited by {} at {}  {}",
            v.version,
            p.status().as_str(),
            render::clean_line(p.created_by().id),
            p.created_at_str(),
            v.hash
        ),
        Some(t) => {
            let s = |k: &str| t.get(k).and_then(|x| x.as_str()).unwrap_or("?");
            // Who acted, and as what: a review is for the kind its review_type names.
            let by_field = |k: &str| t.get("by").and_then(|b| b.get(k)).and_then(|x| x.as_str());
            let by = match by_field("type") {
                Some(kind) => format!("{} ({kind})", by_field("id").unwrap_or("?")),
                None => by_field("id").unwrap_or("?").to_string(),
            };
            writeln!(
                out,
                "v{}  {} → {}  {} by {} at {}  {}",
                v.version,
                s("from"),
                s("to"),
                s("action").replace('_', " "),
                render::clean_line(&by),
                s("at"),
                v.hash
            )?;
            match t.get("note").and_then(|n| n.as_str()) {
                Some(n) => writeln!(out, "    {}", render::clean_line(n)),
                None => Ok(()),
            }
        }
    }
}

/// `signed by ACTOR (KEY)` for a good signature, a line saying what fails for a failing one
/// (and for a retraction that does not hold), nothing for an unsigned package nobody must
/// sign.
fn signature_lines(out: &mut impl Write, seal: &Seal, indent: &str) -> std::io::Result<()> {
    for line in seal.lines() {
        writeln!(out, "{indent}{}", render::clean_line(&line))?;
    }
    Ok(())
}
