//! Human rendering of packages and projects. Stored text is data from anyone: every string is
//! passed through [`clean`] so that it cannot drive the user's terminal.

use std::io::{self, Write};

use colored::Colorize;

use relay_core::ops::packages::stale::Stale;
use relay_store::packages::StoredPackage;
pub use relay_wire::text::{clean, clean_line};
use relay_wire::{Package, Project, time};

/// `2026-04-18 20:00 UTC`.
pub fn short_time(p: &Package) -> String {
    p.created_at().format("%Y-%m-%d %H:%M UTC").to_string()
}

fn indented(out: &mut impl Write, prefix: &str, text: &str) -> io::Result<()> {
    for (i, line) in clean(text).lines().enumerate() {
        let lead = if i == 0 {
            prefix.to_string()
        } else {
            " ".repeat(prefix.chars().count())
        };
        writeln!(out, "{lead}{line}")?;
    }
    Ok(())
}

/// A readable card for one package.
pub fn package_card(out: &mut impl Write, sp: &StoredPackage) -> io::Result<()> {
    flagged_package_card(out, sp, &[])
}

/// [`package_card`] with its stale deliverables (`ops::packages::stale`) flagged under its list of
/// deliverables.
pub fn flagged_package_card(
    out: &mut impl Write,
    sp: &StoredPackage,
    stale: &[Stale],
) -> io::Result<()> {
    let p = &sp.package;
    let by = p.created_by();
    writeln!(
        out,
        "{}  {} · {}  {}",
        clean_line(p.id()).cyan(),
        clean_line(p.package_type()).magenta(),
        status_colored(p.status().as_str()),
        short_time(p).dimmed()
    )?;
    writeln!(out, "{}", clean_line(p.title()).bold())?;
    let mut meta = format!("by {} ({})", clean_line(by.id), clean_line(by.actor_type));
    if let Some(s) = by.session_id {
        meta.push_str(&format!(" · session {}", clean_line(s)));
    }
    meta.push_str(&format!(
        " · project {} · significance {}",
        clean_line(p.project_id()),
        p.significance()
    ));
    if sp.version > 1 {
        meta.push_str(&format!(" · version {}", sp.version));
    }
    writeln!(out, "  {}", meta.dimmed())?;
    let tags = p.list("tags");
    if !tags.is_empty() {
        writeln!(out, "  tags: {}", clean_line(&tags.join(", ")).yellow())?;
    }
    if let Some(d) = p.str_field("description").filter(|d| !d.is_empty()) {
        indented(out, "  ", d)?;
    }
    let decisions = p.list("decisions_made");
    if !decisions.is_empty() {
        writeln!(out, "  {}", "Decisions:".green().bold())?;
        for d in decisions {
            indented(out, "    • ", d)?;
        }
    }
    let questions = p.list("open_questions");
    if !questions.is_empty() {
        writeln!(out, "  {}", "Open questions:".yellow().bold())?;
        for q in questions {
            indented(out, "    ? ", q)?;
        }
    }
    if let Some(h) = p.str_field("handoff_note").filter(|h| !h.is_empty()) {
        let next = p
            .str_field("estimated_next_actor")
            .map(|a| format!(" (next: {})", clean_line(a)))
            .unwrap_or_default();
        writeln!(out, "  {}{}", "Handoff:".blue().bold(), next)?;
        indented(out, "    ", h)?;
    }
    let deliverables = p.deliverables();
    if !deliverables.is_empty() {
        writeln!(out, "  {}", "Deliverables:".bold())?;
        for d in deliverables {
            let (path, kind) = (d.path, d.kind);
            let size = d
                .size_bytes
                .map(|s| format!(", {s} bytes"))
                .unwrap_or_default();
            writeln!(
                out,
                "    {} ({}{})",
                clean_line(path),
                clean_line(kind),
                size
            )?;
        }
        stale_line(out, "  ", stale)?;
    }
    if let Some(parent) = p.str_field("parent_package_id") {
        writeln!(out, "  parent: {}", clean_line(parent))?;
    }
    if let Some(md) = p.str_field("content_md").filter(|m| !m.is_empty()) {
        writeln!(out, "  {}", "Content:".bold())?;
        indented(out, "    ", md)?;
    }
    Ok(())
}

/// `⚠ may be stale: src/a.rs changed, docs/b.md missing` after `indent`, or nothing when no
/// deliverable is stale. Without color (`NO_COLOR`, a pipe) the mark is `!`, so the line stays
/// ASCII apart from the paths.
pub fn stale_line(out: &mut impl Write, indent: &str, stale: &[Stale]) -> io::Result<()> {
    if stale.is_empty() {
        return Ok(());
    }
    let text = format!(
        "may be stale: {}",
        relay_core::ops::packages::stale::describe(stale, |p| clean_line(p).into_owned())
    );
    if colored::control::SHOULD_COLORIZE.should_colorize() {
        writeln!(out, "{indent}{} {}", "⚠".yellow(), text.yellow())
    } else {
        writeln!(out, "{indent}! {text}")
    }
}

/// A package as the `--json` reads print it: `{"package": {…}, "x-stale": [{"path", "reason"}]}`,
/// the package exactly as stored and its stale deliverables beside it (`[]` when none is stale
/// or none could be checked).
pub fn package_envelope<'a>(package: &'a Package, stale: &'a [Stale]) -> PackageEnvelope<'a> {
    PackageEnvelope { package, stale }
}

/// See [`package_envelope`]; serialized as it is, without an intermediate JSON tree.
#[derive(serde::Serialize)]
pub struct PackageEnvelope<'a> {
    package: &'a Package,
    #[serde(rename = "x-stale")]
    stale: &'a [Stale],
}

/// [`package_envelope`] with the package's signature verdict, as a read of one package
/// prints it: `{"package", "x-stale", "x-signature"}`.
pub fn signed_package_envelope<'a>(
    package: &'a Package,
    stale: &'a [Stale],
    signature: &'a relay_core::ops::trust::seal::Seal,
) -> SignedPackageEnvelope<'a> {
    SignedPackageEnvelope {
        envelope: PackageEnvelope { package, stale },
        signature,
    }
}

/// See [`signed_package_envelope`].
#[derive(serde::Serialize)]
pub struct SignedPackageEnvelope<'a> {
    #[serde(flatten)]
    envelope: PackageEnvelope<'a>,
    #[serde(rename = "x-signature")]
    signature: &'a relay_core::ops::trust::seal::Seal,
}

fn status_colored(status: &str) -> colored::ColoredString {
    match status {
        "complete" => status.green(),
        "awaiting_review" => status.yellow(),
        "revision_requested" => status.red(),
        _ => status.normal(),
    }
}

/// Counts per kind as `2 projects, 3 packages`, or `nothing`.
pub fn counts(c: &relay_core::ops::export::Counts) -> String {
    use relay_core::ops::export::Kind;
    let parts: Vec<String> = c
        .iter()
        .map(|(k, n)| {
            let noun = match k {
                Kind::Projects => "project",
                Kind::Packages => "package",
                Kind::Facts => "fact",
                Kind::Sessions => "session",
            };
            relay_wire::text::count(*n, noun)
        })
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

/// One line for a project.
pub fn project_line(out: &mut impl Write, p: &Project) -> io::Result<()> {
    let state = match p.archived_at() {
        Some(at) => format!(
            "archived {}",
            time::parse(at)
                .map(|t| t.format("%Y-%m-%d").to_string())
                .unwrap_or_default()
        )
        .red(),
        None => "active".green(),
    };
    let name = if p.name() != p.id() {
        format!("  {}", clean_line(p.name()))
    } else {
        String::new()
    };
    writeln!(out, "{}{}  {}", clean_line(p.id()).cyan(), name, state)
}

/// What a deposit prints: `ID HASH` and a note, or under `--json` the stored envelope.
pub fn deposited(
    ui: &mut crate::cli::ui::Ui,
    done: &relay_core::ops::packages::deposit::Deposited,
) -> Result<(), crate::cli::CliError> {
    if ui.json {
        ui.json_line(&StoredPackage::envelope(&done.package, &done.hash))?;
        return Ok(());
    }
    writeln!(ui.out(), "{} {}", done.package.id(), done.hash)?;
    let title = clean_line(done.package.title());
    if done.created {
        ui.note(&format!(
            "Deposited “{title}” into project `{}`.",
            clean_line(done.package.project_id())
        ));
    } else {
        ui.note(&format!(
            "“{title}” was already stored with identical content; nothing was written."
        ));
    }
    Ok(())
}
