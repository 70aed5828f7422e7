//! `relay search QUERY` (and `relay pull --relevant QUERY`): ranked, relevant packages.

use std::io::Write;

use clap::Args;
use colored::Colorize;

use crate::cli::args::FilterArgs;
use crate::cli::{CmdResult, Ctx, render};
use crate::ops::relevant::{self, Ranked};
use crate::search::{query, rank};

/// Find the packages most relevant to a query
///
/// Words match their inflections (a search for "leaking" finds "leak", "timezones" finds
/// "timezone"); "quoted phrases" must appear word for word. Results are ranked with BM25 over
/// the title (weight 3), decisions, open questions, handoff note and tags (2), and the
/// description and Markdown body (1), nudged by significance and recency. A query that matches
/// nothing prints nothing and exits 0.
///
/// With --json, prints one result per line, best first: {"package": {…}, "score": …,
/// "matched": [the fields that hold query words]}, the package exactly as stored.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay search connection pool leak
  relay search '\"rate limit\" billing' --limit 10 --since 30d
  relay search flaky tests --json | jq -r '.package.title'")]
pub struct SearchArgs {
    /// Words and \"quoted phrases\"
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
    /// How many results
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub limit: usize,
    #[command(flatten)]
    pub filter: FilterArgs,
}

pub fn run(ctx: &mut Ctx, args: SearchArgs) -> CmdResult {
    run_query(ctx, &args.query.join(" "), args.filter, args.limit)
}

/// Runs a relevant pull and prints it.
pub fn run_query(ctx: &mut Ctx, query_text: &str, filter: FilterArgs, limit: usize) -> CmdResult {
    let (projects, filter) = filter.resolve(ctx)?;
    ctx.note_cold_indexes(&projects);
    let results = relevant::relevant(ctx.store()?, &projects, query_text, &filter, limit)?;
    for (i, r) in results.iter().enumerate() {
        if ctx.ui.json {
            ctx.ui.json_line(&r.to_value())?;
        } else {
            result_card(ctx.ui.out(), i + 1, r)?;
        }
    }
    Ok(())
}

fn result_card(out: &mut impl Write, n: usize, r: &Ranked) -> std::io::Result<()> {
    let p = &r.stored.package;
    writeln!(
        out,
        "{n}. {}  {}",
        render::clean_line(p.title()).bold(),
        format!("score {:.3}", r.score).dimmed()
    )?;
    writeln!(
        out,
        "   {} · {} · {}",
        p.id().cyan(),
        render::short_time(p),
        render::clean_line(p.package_type())
    )?;
    if let Some(s) = snippet(r) {
        writeln!(out, "   {s}")?;
    }
    Ok(())
}

/// About 160 characters of the best matching field around its first match, with the matched
/// words highlighted.
fn snippet(r: &Ranked) -> Option<String> {
    let p = &r.stored.package;
    let field = rank::FIELDS
        .iter()
        .map(|(f, _)| *f)
        .find(|f| r.matched.contains(f))?;
    let text = render::clean_line(&rank::field_text(p, field)).into_owned();
    let is_hit = |w: &str| r.query.terms.contains(&query::stem(&w.to_lowercase()));
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    let first = words
        .iter()
        .position(|w| w.split(|c: char| !c.is_alphanumeric()).any(is_hit))
        .unwrap_or(0);
    let start = first.saturating_sub(8);
    let mut out = String::new();
    let mut chars = 0;
    if start > 0 {
        out.push('…');
    }
    for w in &words[start..] {
        if chars > 160 {
            out.push('…');
            break;
        }
        chars += w.chars().count() + 1;
        let shown = if w.split(|c: char| !c.is_alphanumeric()).any(is_hit) {
            w.yellow().bold().to_string()
        } else {
            (*w).to_string()
        };
        if !out.is_empty() && !out.ends_with('…') {
            out.push(' ');
        }
        out.push_str(&shown);
    }
    Some(format!("{}: {out}", field.replace('_', " ")))
}
