//! The man pages in `man/`: `relay.1` and one page per subcommand, rendered by clap_mangen from
//! relay's clap definitions ([`relay::cli::Cli`]), with EXAMPLES from each command's after-help
//! and, on `relay.1`, EXIT STATUS, ENVIRONMENT and FILES from the tables the reference uses.
//! Here in xtask because only `cargo xtask gen` needs them: the `relay` binary carries no man
//! page generator. Output is deterministic: no dates, and no version but relay's.

use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, italic, roman};

/// `relay.1` and one page per subcommand, nested ones included (`relay-facts-assert.1`), as
/// (file name, roff source).
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let mut cmd = for_man(relay::cli::write_flags::command());
    cmd.build();
    let mut pages = vec![("relay.1".to_string(), page(&cmd, true))];
    collect_subpages(&cmd, &mut pages);
    pages
}

/// The command tree as the pages show it: `help` is a clap convenience, not a command worth a
/// page, and subcommands are listed under COMMANDS, as `--help` calls them.
fn for_man(cmd: clap::Command) -> clap::Command {
    let cmd = cmd
        .disable_help_subcommand(true)
        .subcommand_help_heading("COMMANDS");
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    names
        .iter()
        .fold(cmd, |cmd, name| cmd.mut_subcommand(name, for_man))
}

fn collect_subpages(cmd: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_display_name().unwrap_or(sub.get_name());
        pages.push((format!("{name}.1"), page(sub, false)));
        collect_subpages(sub, pages);
    }
}

/// One page: clap_mangen's sections, then EXAMPLES from the after-help text, and on the top page
/// EXIT STATUS, ENVIRONMENT and FILES.
fn page(cmd: &clap::Command, top: bool) -> Vec<u8> {
    let man = Man::new(cmd.clone());
    let name = cmd.get_display_name().unwrap_or(cmd.get_name());
    let source = format!("relay {}", crate::relay_version());
    let mut title = Roff::new();
    // .TH title section date source manual; no date, so the output never changes by itself
    // (an explicit "" keeps the later arguments in their places).
    title.control("TH", [name, "1", "\"\"", &source, "relay manual"]);
    let mut sections = vec![
        title.render().into_bytes(),
        rendered(|w| man.render_name_section(w)),
        rendered(|w| man.render_synopsis_section(w)),
        rendered(|w| man.render_description_section(w)),
    ];
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        sections.push(rendered(|w| man.render_options_section(w)));
    }
    if cmd.has_subcommands() {
        sections.push(rendered(|w| man.render_subcommands_section(w)));
    }

    let mut extra = Roff::new();
    examples(&mut extra, cmd);
    if top {
        exit_status(&mut extra);
        environment(&mut extra);
        files_section(&mut extra);
    }
    extra.control("SH", ["VERSION"]);
    extra.text([roman(source)]);
    if !top {
        extra.control("SH", ["SEE ALSO"]);
        extra.text([bold("relay"), roman("(1)")]);
    }
    sections.push(extra.render().into_bytes());

    // Every rendered piece starts with the same preamble (an apostrophe string): keep the first.
    let preamble = Roff::new().render();
    let mut out = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        let body = match i {
            0 => &s[..],
            _ => s.strip_prefix(preamble.as_bytes()).unwrap_or(s),
        };
        out.extend_from_slice(body);
    }
    out
}

fn rendered(f: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Vec<u8> {
    let mut buf = Vec::new();
    f(&mut buf).expect("writing to a Vec cannot fail");
    buf
}

/// The after-help text as EXAMPLES, verbatim, less its `Examples:` label and the exit-code
/// summary (EXIT STATUS has the full table).
fn examples(roff: &mut Roff, cmd: &clap::Command) {
    let Some(text) = cmd.get_after_long_help().or(cmd.get_after_help()) else {
        return;
    };
    let text = text.to_string();
    let kept: Vec<&str> = text
        .split("\n\n")
        .filter(|p| !p.starts_with("Exit codes:"))
        .collect();
    if kept.is_empty() {
        return;
    }
    roff.control("SH", ["EXAMPLES"]);
    roff.control("nf", []);
    for (i, paragraph) in kept.iter().enumerate() {
        if i > 0 {
            roff.text([roman("")]);
        }
        for line in paragraph.lines().filter(|l| *l != "Examples:") {
            roff.text([roman(line)]);
        }
    }
    roff.control("fi", []);
}

/// A `.TP` entry: a bold tag and its description.
fn entry(roff: &mut Roff, tag: &str, text: &str) {
    roff.control("TP", []);
    roff.text([bold(tag)]);
    roff.text([roman(text)]);
}

fn exit_status(roff: &mut Roff) {
    roff.control("SH", ["EXIT STATUS"]);
    for (code, text) in crate::reference::EXIT_STATUS {
        entry(roff, &code.to_string(), text);
    }
    roff.control("PP", []);
    roff.text([roman(
        "With --json, an error is printed on stderr as {\"error\": CODE, \"message\": TEXT}.",
    )]);
}

/// Every environment variable relay reads ([`relay::cli::env_vars::ENV_VARS`]).
fn environment(roff: &mut Roff) {
    roff.control("SH", ["ENVIRONMENT"]);
    for var in relay::cli::env_vars::ENV_VARS {
        entry(roff, var.name, var.meaning);
    }
}

fn files_section(roff: &mut Roff) {
    use relay_store::format::STORE_DIR;
    roff.control("SH", ["FILES"]);
    roff.text([
        roman("The store is one folder, "),
        italic(STORE_DIR),
        roman(", found like git finds .git: in the current folder or the nearest parent (or --store, RELAY_DIR). Every log is append-only NDJSON, one complete JSON object per line, meant to be committed; git's union merge driver merges clones."),
    ]);
    for (path, text) in &crate::reference::store_files() {
        entry(roff, path, text);
    }
}
