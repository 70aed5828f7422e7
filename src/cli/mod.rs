//! The command line: argument parsing, one module per command under [`cmd`], rendering, and
//! the mapping from errors to exit codes. Only this layer writes to stdout or stderr, and only
//! through [`ui::Ui`].

pub mod args;
pub mod cmd;
pub mod completion;
pub mod context;
pub mod env_vars;
pub mod exit;
pub mod render;
pub mod ui;
pub mod write_flags;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use context::{CliError, CmdResult, Ctx, GlobalArgs};

use relay_wire::error::Code;
use ui::Ui;

const AFTER_HELP: &str = "\
Start here:
  relay init                                 create .relay/ in this folder
  relay deposit --title \"Fixed the login bug\" --decision \"Use argon2\" --handoff \"Deploy next\"
  relay pull --latest                        the five newest packages
  relay pull pkg_…                           one package in full
  relay facts assert api status live         record what is true now
  relay session start                        a session with a callsign, e.g. coral-heron

Exit codes: 0 ok, 1 not found, 2 usage, 3 conflict, 4 invalid input, 5 integrity failure,
6 lock timeout, 7 internal error. With --json, errors are {\"error\": CODE, \"message\": …} on stderr.";

/// relay keeps the context that AI agents and humans hand each other (Agentic Protocol v0.1)
/// as append-only NDJSON files in a `.relay/` folder committed next to your code.
#[derive(Debug, Parser)]
#[command(name = "relay", version, about, long_about = None, after_help = AFTER_HELP, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// The commands, listed once: the enum every run dispatches on ([`Command`]), and the same
/// enum with each command's arguments deferred ([`LeanCommand`]), which the parse of a run
/// builds only for the command it enters (see [`parse`]).
macro_rules! commands {
    ($($(#[$meta:meta])* $variant:ident($args:ty),)*) => {
        // Parsed once per process: the size of the largest variant does not matter.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Subcommand)]
        pub enum Command {
            $($(#[$meta])* $variant($args),)*
        }

        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Subcommand)]
        #[command(defer = true)]
        enum LeanCommand {
            $($(#[$meta])* $variant($args),)*
        }

        impl From<LeanCommand> for Command {
            fn from(c: LeanCommand) -> Command {
                match c {
                    $($(#[$meta])* LeanCommand::$variant(a) => Command::$variant(a),)*
                }
            }
        }
    };
}

commands! {
    Init(cmd::init::InitArgs),
    Deposit(cmd::deposit::DepositArgs),
    Pull(cmd::pull::PullArgs),
    Projects(cmd::projects::ProjectsArgs),
    Facts(cmd::facts::FactsArgs),
    Session(cmd::session::SessionArgs),
    Lesson(cmd::lesson::LessonArgs),
    Checkpoint(cmd::checkpoint::CheckpointArgs),
    Snippet(cmd::snippet::SnippetArgs),
    Search(cmd::search::SearchArgs),
    Index(cmd::index::IndexArgs),
    Orient(cmd::orient::OrientArgs),
    Orchestrate(cmd::orchestrate::OrchestrateArgs),
    Review(cmd::review::ReviewArgs),
    Retract(cmd::retract::RetractArgs),
    Purge(cmd::purge::PurgeArgs),
    Status(cmd::status::StatusArgs),
    Export(cmd::export::ExportArgs),
    Import(cmd::import::ImportArgs),
    Verify(cmd::verify::VerifyArgs),
    Doctor(cmd::doctor::DoctorArgs),
    Resolve(cmd::resolve::ResolveArgs),
    Merge(cmd::merge::MergeArgs),
    Keys(cmd::keys::KeysArgs),
    Hook(cmd::hook::HookArgs),
    Scan(cmd::scan::ScanArgs),
    Conformance(cmd::conformance::ConformanceArgs),
    Completions(cmd::completions::CompletionsArgs),
    Onboard(cmd::onboard::OnboardArgs),
    Mcp(cmd::mcp::McpArgs),
    Watch(cmd::watch::WatchArgs),
    #[cfg(feature = "server")]
    Serve(cmd::serve::ServeArgs),
    Token(cmd::token::TokenArgs),
    #[cfg(feature = "server")]
    Ui(cmd::ui::UiArgs),
}

/// [`Cli`] with each command's arguments built only when the parse enters it: starting relay
/// builds a root and one command, not the tree of every command's options (most of the page
/// faults of `relay --version`; docs/BENCHMARKS.md, issue 62).
#[derive(Debug, Parser)]
#[command(name = "relay", version, about, long_about = None, after_help = AFTER_HELP, propagate_version = true)]
struct LeanCli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: LeanCommand,
}

/// Parses `args` building only the command that runs ([`LeanCli`]). Help, version and usage
/// errors come from the whole tree ([`Cli`]), so they read as they always did: the list of
/// commands with what each does, suggestions, `relay help facts assert`.
fn parse(args: &[OsString]) -> Result<Cli, clap::Error> {
    match LeanCli::try_parse_from(args) {
        Ok(lean) => Ok(Cli {
            global: lean.global,
            command: lean.command.into(),
        }),
        // `--version` reads the same from either.
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayVersion => Err(e),
        Err(_) => {
            use clap::FromArgMatches;
            let matches = write_flags::command().try_get_matches_from(args)?;
            Cli::from_arg_matches(&matches)
        }
    }
}

/// Parses `args`, runs the command, reports errors and warnings, and returns the exit code.
pub fn main_with_args(args: Vec<OsString>) -> ExitCode {
    let json_requested = args.iter().any(|a| a == "--json");
    let cli = match parse(&args) {
        Ok(cli) => cli,
        Err(mut e) => {
            let (error, code) = match exit::of_parse_error(&e) {
                Some((error, code)) => (error, i32::from(code)),
                None => (Code::Usage, e.exit_code()),
            };
            exit::order_suggestions(&mut e);
            if json_requested && e.use_stderr() {
                Ui::early_error(true, error.as_str(), &exit::parse_error_message(&e));
            } else {
                // clap prints its own help, version and usage errors (its format, its colors).
                let _ = e.print();
            }
            return ExitCode::from(code.clamp(0, 255) as u8);
        }
    };
    let json = cli.global.json;
    let mut ctx = match Ctx::new(cli.global) {
        Ok(ctx) => ctx,
        Err(e) => {
            Ui::early_error(json, e.code(), &e.to_string());
            return ExitCode::from(exit::INTERNAL);
        }
    };
    let result = match cli.command {
        Command::Init(a) => cmd::init::run(&mut ctx, a),
        Command::Deposit(a) => cmd::deposit::run(&mut ctx, a),
        Command::Pull(a) => cmd::pull::run(&mut ctx, a),
        Command::Projects(a) => cmd::projects::run(&mut ctx, a),
        Command::Facts(a) => cmd::facts::run(&mut ctx, a),
        Command::Session(a) => cmd::session::run(&mut ctx, a),
        Command::Lesson(a) => cmd::lesson::run(&mut ctx, a),
        Command::Checkpoint(a) => cmd::checkpoint::run(&mut ctx, a),
        Command::Snippet(a) => cmd::snippet::run(&mut ctx, a),
        Command::Search(a) => cmd::search::run(&mut ctx, a),
        Command::Index(a) => cmd::index::run(&mut ctx, a),
        Command::Orient(a) => cmd::orient::run(&mut ctx, a),
        Command::Orchestrate(a) => cmd::orchestrate::run(&mut ctx, a),
        Command::Review(a) => cmd::review::run(&mut ctx, a),
        Command::Retract(a) => cmd::retract::run(&mut ctx, a),
        Command::Purge(a) => cmd::purge::run(&mut ctx, a),
        Command::Status(a) => cmd::status::run(&mut ctx, a),
        Command::Export(a) => cmd::export::run(&mut ctx, a),
        Command::Import(a) => cmd::import::run(&mut ctx, a),
        Command::Verify(a) => cmd::verify::run(&mut ctx, a),
        Command::Doctor(a) => cmd::doctor::run(&mut ctx, a),
        Command::Resolve(a) => cmd::resolve::run(&mut ctx, a),
        Command::Merge(a) => cmd::merge::run(&mut ctx, a),
        Command::Keys(a) => cmd::keys::run(&mut ctx, a),
        Command::Hook(a) => cmd::hook::run(&mut ctx, a),
        Command::Scan(a) => cmd::scan::run(&mut ctx, a),
        Command::Conformance(a) => cmd::conformance::run(&mut ctx, a),
        Command::Completions(a) => cmd::completions::run(&mut ctx, a),
        Command::Onboard(a) => cmd::onboard::run(&mut ctx, a),
        Command::Mcp(a) => cmd::mcp::run(&mut ctx, a),
        Command::Watch(a) => cmd::watch::run(&mut ctx, a),
        #[cfg(feature = "server")]
        Command::Serve(a) => cmd::serve::run(&mut ctx, a),
        #[cfg(feature = "server")]
        Command::Ui(a) => cmd::ui::run(&mut ctx, a),
        Command::Token(a) => cmd::token::run(&mut ctx, a),
    };
    let result = result.and_then(|()| ctx.ui.flush().map_err(CliError::Output));
    ctx.report_warnings();
    match result {
        Ok(()) => ExitCode::from(exit::OK),
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::from(exit::OK)
        }
        Err(e) => {
            let (code, message, status) = e.describe();
            let details = match &e {
                CliError::Relay(e) => e.details(),
                _ => serde_json::Map::new(),
            };
            ctx.ui.error(code, &message, details);
            ExitCode::from(status)
        }
    }
}

/// The binary's entry point.
pub fn main() -> ExitCode {
    // The one snapshot of the environment every layer reads (`Environment::process`), taken
    // before anything else runs.
    relay_core::resolve::Environment::process();
    main_with_args(std::env::args_os().collect())
}

#[cfg(test)]
mod tests {
    /// The modules this file declares (`pub mod NAME;`): the only names a command file may
    /// write after `crate::cli::`.
    fn cli_modules() -> Vec<String> {
        include_str!("mod.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
            .map(str::to_string)
            .collect()
    }

    /// Where `source` names the root of `cli` rather than one of its `modules`: every
    /// `crate::cli` must go on with `::NAME`, NAME a module of `modules` (so no
    /// `crate::cli::{…}`, `crate::cli::Ctx` or bare `crate::cli`), and neither
    /// `super::super` (the same root by a relative path) nor `crate::{` (a group that could
    /// hold `cli::Ctx`) may appear. Comments count: a doc link names a path too.
    fn root_imports(source: &str, modules: &[String]) -> Vec<String> {
        let is_ident = |c: char| c.is_alphanumeric() || c == '_';
        let mut found = Vec::new();
        for (at, _) in source.match_indices("crate::cli") {
            let rest = &source[at + "crate::cli".len()..];
            if rest.starts_with(is_ident) {
                continue; // `crate::client`: another path
            }
            let name: String = rest
                .strip_prefix("::")
                .unwrap_or_default()
                .chars()
                .take_while(|&c| is_ident(c))
                .collect();
            if !modules.contains(&name) {
                let shown: String = source[at..].chars().take(40).collect();
                found.push(shown.lines().next().unwrap_or_default().to_string());
            }
        }
        for banned in ["super::super", "crate::{"] {
            if source.contains(banned) {
                found.push(banned.to_string());
            }
        }
        found
    }

    /// A command file imports what it needs from the module that defines it
    /// (`crate::cli::context::Ctx`), never from this root's re-exports: the root is the
    /// parser and dispatch, and a command depending on it would depend on every command.
    #[test]
    fn command_files_import_from_cli_submodules_not_its_root() {
        let modules = cli_modules();
        assert!(modules.iter().any(|m| m == "context"), "{modules:?}");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli/cmd");
        let (mut files, mut paths, mut problems) = (0, 0, Vec::new());
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            files += 1;
            paths += source.matches("crate::cli::").count();
            for found in root_imports(&source, &modules) {
                problems.push(format!("{}: {found}", path.display()));
            }
        }
        // A check that read nothing would pass.
        assert!(files >= 30 && paths >= 30, "{files} files, {paths} paths");
        assert!(
            problems.is_empty(),
            "import these from the module that defines them (crate::cli::context::…), not \
             from crate::cli: {problems:#?}"
        );
    }

    #[test]
    fn a_root_import_is_caught() {
        let modules: Vec<String> = ["context", "render", "ui"].map(String::from).to_vec();
        let ok = "use crate::cli::context::{CmdResult, Ctx};\nuse crate::cli::render;\n\
                  let r = crate::cli::render::counts;\nuse crate::client::X;\n";
        assert!(root_imports(ok, &modules).is_empty());
        for bad in [
            "use crate::cli::{CmdResult, Ctx};",
            "use crate::cli::{render, ui::Ui};",
            "fn f() -> crate::cli::CmdResult {}",
            "use crate::cli;",
            "use crate::cli::main_with_args;",
            "use super::super::Ctx;",
            "use crate::{cli::Ctx};",
        ] {
            assert_eq!(root_imports(bad, &modules).len(), 1, "{bad}");
        }
    }

    /// The lean parse and the whole tree are one command line: the same root (name, version,
    /// about, global options), the same commands, and once built, each command's options.
    #[test]
    fn the_lean_parse_is_the_whole_tree_built_lazily() {
        use clap::CommandFactory;
        let mut lean = super::LeanCli::command();
        let mut whole = super::Cli::command();
        lean.build();
        whole.build();
        let shape = |c: &clap::Command| {
            let args: Vec<String> = c.get_arguments().map(|a| a.get_id().to_string()).collect();
            let mut args = args;
            args.sort();
            (
                c.get_name().to_string(),
                c.get_version().map(str::to_string),
                args,
            )
        };
        assert_eq!(shape(&lean), shape(&whole));
        assert_eq!(
            lean.get_about().map(ToString::to_string),
            whole.get_about().map(ToString::to_string)
        );
        let subs = |c: &clap::Command| c.get_subcommands().map(shape).collect::<Vec<_>>();
        assert_eq!(subs(&lean), subs(&whole));
    }
}
