//! `commands.md`: every command and subcommand as clap defines it: usage, about, each
//! argument and flag with its help, default, values and environment variable, and the
//! examples of its after-help.

use clap::{Arg, ArgAction, Command};

use super::markdown::{anchor, block, code, text};

pub fn page() -> String {
    let mut root = relay::cli::write_flags::command().disable_help_subcommand(true);
    root.build();
    let mut all = Vec::new();
    collect(&root, &mut all);

    let mut out = String::from("# Commands\n\n");
    out.push_str(&format!(
        "Every command of relay {}, from its clap definition. The options listed under \
         [relay](#relay) are global: every command takes them. `relay COMMAND --help` prints \
         the same text.\n\n",
        crate::relay_version()
    ));
    for (depth, cmd) in &all {
        let name = full_name(cmd);
        out.push_str(&format!(
            "{}- [{name}](#{})\n",
            "  ".repeat(*depth),
            anchor(&name)
        ));
    }
    for (depth, cmd) in &all {
        out.push('\n');
        section(&mut out, cmd, *depth == 0);
    }
    out
}

/// Every command, depth first, with its depth (`relay` is 0).
fn collect<'a>(cmd: &'a Command, out: &mut Vec<(usize, &'a Command)>) {
    fn walk<'a>(cmd: &'a Command, depth: usize, out: &mut Vec<(usize, &'a Command)>) {
        out.push((depth, cmd));
        for sub in cmd
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        {
            walk(sub, depth + 1, out);
        }
    }
    walk(cmd, 0, out);
}

/// `relay facts assert`: the name clap gives the command on a built tree.
fn full_name(cmd: &Command) -> String {
    cmd.get_bin_name().unwrap_or(cmd.get_name()).to_string()
}

fn section(out: &mut String, cmd: &Command, top: bool) {
    let name = full_name(cmd);
    out.push_str(&format!("## {name}\n\n"));
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        for paragraph in about.to_string().split("\n\n") {
            out.push_str(&text(paragraph.trim_end()));
            out.push_str("\n\n");
        }
    }
    let usage = cmd.clone().render_usage().to_string();
    out.push_str(&block("text", &format!("{}\n", usage.trim_end())));

    let shown = |a: &&Arg| {
        !a.is_hide_set()
            && (top || !a.is_global_set())
            && (top || !matches!(a.get_id().as_str(), "help" | "version"))
    };
    let positionals: Vec<&Arg> = cmd
        .get_arguments()
        .filter(shown)
        .filter(|a| a.is_positional())
        .collect();
    let options: Vec<&Arg> = cmd
        .get_arguments()
        .filter(shown)
        .filter(|a| !a.is_positional())
        .collect();
    for (title, args) in [("Arguments", positionals), ("Options", options)] {
        if args.is_empty() {
            continue;
        }
        out.push_str(&format!("\n**{title}**\n\n"));
        for arg in args {
            argument(out, arg);
        }
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .map(|s| format!("[{}](#{})", s.get_name(), anchor(&full_name(s))))
        .collect();
    if !subs.is_empty() {
        out.push_str(&format!("\n**Commands**: {}\n", subs.join(", ")));
    }
    if let Some(examples) = examples(cmd) {
        out.push_str("\n**Examples**\n\n");
        out.push_str(&block("text", &examples));
    }
}

/// `-q, --quiet`, `--store <DIR>`, `<QUERY>...`.
fn signature(arg: &Arg) -> String {
    let values = || -> String {
        let names: Vec<String> = arg
            .get_value_names()
            .map(|v| v.iter().map(|n| format!("<{n}>")).collect())
            .unwrap_or_else(|| vec![format!("<{}>", arg.get_id().as_str().to_uppercase())]);
        let many = arg
            .get_num_args()
            .is_some_and(|n| n.max_values() > names.len());
        format!("{}{}", names.join(" "), if many { "..." } else { "" })
    };
    if arg.is_positional() {
        return values();
    }
    let mut flags = Vec::new();
    if let Some(s) = arg.get_short() {
        flags.push(format!("-{s}"));
    }
    if let Some(l) = arg.get_long() {
        flags.push(format!("--{l}"));
    }
    let mut sig = flags.join(", ");
    if takes_value(arg) {
        sig.push(' ');
        sig.push_str(&values());
    }
    sig
}

fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values()
}

fn argument(out: &mut String, arg: &Arg) {
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    let mut facts = Vec::new();
    if arg.is_required_set() {
        facts.push("Required.".to_string());
    }
    if matches!(arg.get_action(), ArgAction::Append | ArgAction::Count) && !arg.is_positional() {
        facts.push("May be repeated.".to_string());
    }
    if takes_value(arg) {
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| code(v.get_name()))
            .collect();
        if !values.is_empty() {
            facts.push(format!("Values: {}.", values.join(", ")));
        }
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| code(&v.to_string_lossy()))
            .collect();
        if !defaults.is_empty() && !arg.is_hide_default_value_set() {
            facts.push(format!("Default: {}.", defaults.join(", ")));
        }
    }
    if let Some(env) = arg.get_env().filter(|_| !arg.is_hide_env_set()) {
        facts.push(format!("Environment: {}.", code(&env.to_string_lossy())));
    }
    let mut paragraphs: Vec<String> = help
        .split("\n\n")
        .map(|p| text(p.trim_end()))
        .filter(|p| !p.is_empty())
        .collect();
    if !facts.is_empty() {
        // The facts end the help's last paragraph, as a sentence of their own.
        let facts = facts.join(" ");
        match paragraphs.last_mut() {
            Some(last) => {
                if !last.ends_with(['.', '!', '?']) {
                    last.push('.');
                }
                last.push(' ');
                last.push_str(&facts);
            }
            None => paragraphs.push(facts),
        }
    }
    out.push_str(&format!("- {}", code(&signature(arg))));
    for (i, p) in paragraphs.iter().enumerate() {
        if i == 0 {
            out.push_str(": ");
            out.push_str(p);
            out.push('\n');
        } else {
            // A later paragraph of the same item: indented under it.
            out.push_str("\n  ");
            out.push_str(&p.replace('\n', "\n  "));
            out.push('\n');
        }
    }
    if paragraphs.is_empty() {
        out.push('\n');
    }
}

/// The after-help text without its `Examples:` label and the exit-code summary (the exit
/// codes have their own page).
fn examples(cmd: &Command) -> Option<String> {
    let text = cmd
        .get_after_long_help()
        .or(cmd.get_after_help())?
        .to_string();
    let kept: Vec<String> = text
        .split("\n\n")
        .filter(|p| !p.starts_with("Exit codes:"))
        .map(|p| {
            p.lines()
                .filter(|l| *l != "Examples:")
                .collect::<Vec<_>>()
                .join("\n")
        })
        .filter(|p| !p.trim().is_empty())
        .collect();
    if kept.is_empty() {
        return None;
    }
    let all = kept.join("\n\n");
    // Out of the terminal's indentation: the block shows them as they are typed.
    let indent = all
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()?;
    let lines: Vec<&str> = all.lines().map(|l| l.get(indent..).unwrap_or("")).collect();
    Some(format!("{}\n", lines.join("\n")))
}
