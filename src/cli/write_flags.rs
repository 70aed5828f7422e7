//! Where the write-only global flags (`--sign`, `--sign-with`, `--redact-secrets`,
//! `--allow-secrets`) show in `--help`: on the commands that write records, not on reads such
//! as `search` where they only cluttered the page. They stay global (accepted anywhere, as
//! `relay --sign deposit` and `relay deposit --sign` both are); only their help is hidden.

use clap::{Arg, Command, CommandFactory};

use super::Cli;

/// The flags that only change what a command writes.
const WRITE_FLAGS: [&str; 4] = ["redact_secrets", "allow_secrets", "sign", "sign_with"];

/// The commands that write records (or serve writers: `mcp`, `serve`, `ui`), by their path.
const WRITING: &[&str] = &[
    "init",
    "deposit",
    "projects create",
    "projects rename",
    "projects archive",
    "projects unarchive",
    "facts assert",
    "facts invalidate",
    "session start",
    "session end",
    "lesson add",
    "checkpoint",
    "snippet add",
    "review flag",
    "review approve",
    "review request-changes",
    "retract",
    "purge",
    "import",
    "verify",
    "merge",
    "resolve",
    "hook run",
    "hook flush",
    "keys add",
    "keys rotate",
    "mcp",
    "serve",
    "ui",
];

/// The whole command line, as it parses and as `--help`, the completions, the manual and the
/// reference show it.
///
/// clap propagates a global flag to a subcommand only where the subcommand has no argument of
/// that id, and sends the value up to the root whichever copy took it. So a command that
/// writes gets a visible copy of each flag of its own, one that does not a hidden copy, and a
/// group of commands that does not write a hidden global copy, which its commands inherit.
pub fn command() -> Command {
    let root = Cli::command();
    let flags: Vec<Arg> = (root.get_arguments())
        .filter(|a| WRITE_FLAGS.contains(&a.get_id().as_str()))
        .cloned()
        .collect();
    hide_below(root, "", &flags, false)
}

/// `cmd` with the write-only flags hidden on each command below it that does not write;
/// `hidden_above`: a group above already hides them (its hidden global copies reach here).
fn hide_below(mut cmd: Command, path: &str, flags: &[Arg], hidden_above: bool) -> Command {
    let names: Vec<String> = (cmd.get_subcommands())
        .map(|s| s.get_name().to_string())
        .filter(|n| n != "help")
        .collect();
    for name in names {
        let full = match path {
            "" => name.clone(),
            _ => format!("{path} {name}"),
        };
        let writes = WRITING.contains(&full.as_str());
        cmd = cmd.mut_subcommand(&name, |sub| {
            let group = sub.get_subcommands().next().is_some();
            let copy = |visible: bool, global: bool| {
                (flags.iter()).map(move |a| a.clone().hide(!visible).global(global))
            };
            let sub = match (group, writes, hidden_above) {
                // A group hides them for its commands, which show them again where they write.
                (true, false, _) => sub.args(copy(false, true)),
                // A copy of its own, so that every writing command lists them in one place
                // (its own options, before the global ones).
                (_, true, _) => sub.args(copy(true, false)),
                (false, false, false) => sub.args(copy(false, false)),
                (false, false, true) => sub,
            };
            hide_below(sub, &full, flags, hidden_above || (group && !writes))
        });
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shows(path: &[&str], flag: &str) -> bool {
        let mut cmd = command();
        cmd.build();
        for name in path {
            cmd = cmd.find_subcommand(name).unwrap().clone();
        }
        (cmd.get_arguments())
            .find(|a| a.get_id() == flag)
            .is_some_and(|a| !a.is_hide_set())
    }

    #[test]
    fn write_flags_show_on_writes_only() {
        for flag in WRITE_FLAGS {
            assert!(shows(&["deposit"], flag), "{flag}");
            assert!(shows(&["facts", "assert"], flag), "{flag}");
            assert!(!shows(&["search"], flag), "{flag}");
            assert!(!shows(&["facts", "get"], flag), "{flag}");
            assert!(!shows(&["status"], flag), "{flag}");
            assert!(!shows(&["facts"], flag), "{flag}");
            assert!(shows(&["review", "approve"], flag), "{flag}");
            assert!(!shows(&["review", "list"], flag), "{flag}");
        }
        assert!(shows(&["search"], "json"), "the other global flags stay");
    }

    /// Wherever a flag is given and whichever copy takes it, the value reaches the command.
    #[test]
    fn the_flags_are_taken_wherever_they_are_given() {
        use clap::FromArgMatches;
        for args in [
            &["relay", "--sign", "deposit", "--title", "t"][..],
            &["relay", "deposit", "--title", "t", "--sign"],
            &["relay", "facts", "assert", "a", "b", "c", "--sign"],
            &["relay", "facts", "get", "a", "b", "--sign"],
            &["relay", "search", "q", "--sign"],
            &["relay", "review", "list", "--sign"],
        ] {
            let matches = command().try_get_matches_from(args).unwrap();
            let cli = Cli::from_arg_matches(&matches).unwrap();
            assert!(cli.global.sign, "{args:?}");
            assert!(!cli.global.allow_secrets, "{args:?}");
        }
        let matches = (command())
            .try_get_matches_from(["relay", "facts", "assert", "a", "b", "c", "--allow-secrets"])
            .unwrap();
        assert!(
            Cli::from_arg_matches(&matches)
                .unwrap()
                .global
                .allow_secrets
        );
    }

    #[test]
    fn every_writing_path_is_a_command() {
        let root = command();
        for path in WRITING {
            let mut cmd = &root;
            for name in path.split(' ') {
                cmd = cmd
                    .find_subcommand(name)
                    .unwrap_or_else(|| panic!("{path}"));
            }
        }
    }
}
