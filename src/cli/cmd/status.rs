//! `relay status`: one screen about the whole store.

use std::io::Write;

use clap::Args;
use colored::Colorize;

use crate::cli::context::{CmdResult, Ctx};
use crate::cli::render;
use relay_core::ops::git::StoreSync;
use relay_core::ops::upkeep::status;

/// Summarise the store: projects, package counts, reviews, facts, sessions, size, warnings
///
/// The Git line says whether the store is local (git never sees it), else whether its files
/// are all committed, whether git left any of them in conflict (an octopus merge: run
/// `relay resolve`), and how the branch stands against its upstream as of the last fetch
/// (relay reads local refs only; it never fetches). The Queued line, when relay's hooks have
/// queued records, says how many wait and how they enter the store (the next commit, or
/// `relay hook flush`); `--json` has them as `"queue": {"packages", "next_commit"}`.
#[derive(Debug, Args)]
pub struct StatusArgs {}

/// The Git line: local, or committed and in step with the upstream, in sentences.
fn git_line(local: bool, sync: Option<&StoreSync>) -> String {
    if local {
        return "Local store: git never sees it; back it up with relay export.".into();
    }
    let Some(g) = sync else {
        return "Not in a git work tree.".into();
    };
    let mut text = Vec::new();
    if g.uncommitted == 0 {
        text.push("Store committed.".to_string());
    }
    text.extend(g.header_note());
    match &g.upstream {
        None => text.push("No upstream branch.".into()),
        Some(up) if g.ahead > 0 => {
            let commits = relay_wire::text::count(g.ahead, "commit");
            text.push(format!("{commits} not pushed to {up} yet."));
        }
        Some(up) if g.behind == 0 => text.push(format!("In step with {up} as of the last fetch.")),
        Some(_) => {}
    }
    text.join(" ")
}

/// The Queued line: what relay's hooks queued, and how it enters the store.
fn queue_line(q: &relay_core::ops::agents::queue::QueueStatus) -> String {
    let wait = if q.packages == 1 { "waits" } else { "wait" };
    let waiting = format!(
        "{} from relay's hooks {wait} in the store's local/pending/, which git never sees \
         (reads show them)",
        relay_wire::text::count(q.packages, "package version")
    );
    if q.next_commit {
        format!(
            "{waiting}: they enter the store with your next commit (the pre-commit hook runs \
             relay hook flush --stage), or now with relay hook flush."
        )
    } else {
        format!("{waiting}: relay hook flush moves them into the store.")
    }
}

fn counts(map: &std::collections::BTreeMap<String, usize>) -> String {
    if map.is_empty() {
        return "none".into();
    }
    map.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn run(ctx: &mut Ctx, _args: StatusArgs) -> CmdResult {
    let all: Vec<String> = relay_core::ops::projects::list(ctx.store()?)?
        .iter()
        .map(|p| p.id().to_string())
        .collect();
    let indexing = ctx.note_cold_indexes(&all);
    let store = ctx.store()?;
    let s = ctx.relay()?.status()?;
    drop(indexing);
    let warnings = store.diagnostics().take();
    if ctx.ui.json {
        let v = status::to_json(store, &s, &warnings)?;
        ctx.ui.json_line(&v)?;
        return Ok(());
    }
    let root = store.root().display().to_string();
    let out = ctx.ui.out();
    writeln!(out, "{} {}", "Store".bold(), root)?;
    writeln!(
        out,
        "{} {}",
        "Git".bold(),
        git_line(s.local, s.git.as_ref())
    )?;
    if s.queue.packages > 0 {
        writeln!(out, "{} {}", "Queued".bold(), queue_line(&s.queue))?;
    }
    writeln!(out, "{}", "Projects".bold())?;
    for p in &s.projects {
        let state = if p.archived {
            "archived".red()
        } else {
            "active".green()
        };
        writeln!(
            out,
            "  {}  {}  {}",
            render::clean_line(&p.project_id).cyan(),
            state,
            relay_wire::text::count(p.packages, "package")
        )?;
    }
    writeln!(out, "{} {}", "Packages".bold(), s.packages)?;
    writeln!(out, "  by type:   {}", counts(&s.packages_by_type))?;
    writeln!(out, "  by status: {}", counts(&s.packages_by_status))?;
    writeln!(out, "  awaiting review: {}", s.awaiting_review)?;
    writeln!(
        out,
        "  last deposit: {}",
        s.last_deposit.as_deref().unwrap_or("never")
    )?;
    writeln!(
        out,
        "{} {} current, {} in all",
        "Facts".bold(),
        s.facts.live,
        s.facts.total
    )?;
    writeln!(
        out,
        "{} {} active, {} in all",
        "Sessions".bold(),
        s.sessions.live,
        s.sessions.total
    )?;
    writeln!(
        out,
        "{} {} and {} retracted; reads hide them and whatever is past its x-expires-at \
         (relay purge removes both)",
        "Retention".bold(),
        relay_wire::text::count(s.retention.retracted_packages, "package"),
        relay_wire::text::count(s.retention.retracted_facts, "fact")
    )?;
    writeln!(out, "{} {} bytes on disk", "Size".bold(), s.size_bytes)?;
    let g = &s.signing;
    let key = match (&g.key, &g.key_error) {
        (Some(k), _) => format!("signed with {k}"),
        (None, Some(e)) => format!("cannot sign: {e}").red().to_string(),
        (None, None) => "off".to_string(),
    };
    let allowed = match &g.allowed_signers_error {
        Some(e) => e.red().to_string(),
        None => format!(
            "{}, {}",
            relay_wire::text::count(g.allowed_signers, "allowed signer"),
            relay_wire::text::count(g.revoked_keys, "revoked key")
        ),
    };
    let require = if g.require {
        "required"
    } else {
        "not required"
    };
    writeln!(
        out,
        "{} {key}; {allowed}; signatures {require}",
        "Signing".bold()
    )?;
    if warnings.is_empty() {
        writeln!(out, "{} none", "Integrity warnings".bold())?;
    } else {
        writeln!(
            out,
            "{} {}",
            "Integrity warnings".bold(),
            warnings.len().to_string().yellow()
        )?;
        for w in &warnings {
            let file = w
                .path
                .strip_prefix(&ctx.cwd)
                .unwrap_or(&w.path)
                .display()
                .to_string();
            writeln!(out, "  {file}:{}: {}", w.line, w.message)?;
        }
    }
    Ok(())
}
