//! `relay hook`: install relay into git and into Claude Code, and take it out again.

use std::io::Write;

use clap::{Args, Subcommand};
use serde_json::json;

use crate::cli::{CliError, CmdResult, Ctx};
use crate::ops::hooks;

/// Hook relay into git and coding agents
///
/// --git installs a post-commit hook that deposits each commit (`relay deposit --auto`: title
/// from the subject, description from the body, branch and diff stats, the changed files as
/// deliverables, at most once per commit) and a post-merge hook that runs
/// `relay verify --fix --quiet`. Neither ever blocks or fails git. Existing hooks are kept and
/// still run. --claude merges into .claude/settings.json a SessionStart hook that prints
/// `relay orient --md` into the agent's context and a Stop hook that deposits the session's work.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay hook install --git
  relay hook install --claude
  relay hook uninstall --git --claude")]
pub struct HookArgs {
    #[command(subcommand)]
    pub action: HookAction,
}

#[derive(Debug, Subcommand)]
pub enum HookAction {
    /// Install hooks (installing twice changes nothing)
    Install(Which),
    /// Remove relay's hooks and restore what was there before
    Uninstall(Which),
}

#[derive(Debug, Args)]
pub struct Which {
    /// The git hooks of the repository you are in
    #[arg(long)]
    pub git: bool,
    /// Claude Code's .claude/settings.json in the repository's top folder
    #[arg(long)]
    pub claude: bool,
}

/// How hooks call relay: plain `relay` when that is this binary on PATH (so a committed
/// `.claude/settings.json` works for everyone), else this binary by its full path.
fn relay_command() -> String {
    let me = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok());
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("relay"))
            .find(|p| p.is_file())
            .and_then(|p| p.canonicalize().ok())
    });
    match (me, on_path) {
        (Some(me), Some(found)) if me == found => "relay".to_string(),
        (Some(me), _) => match me.to_str() {
            Some(s) => format!("'{}'", s.replace('\'', "'\\''")),
            None => "relay".to_string(),
        },
        (None, _) => "relay".to_string(),
    }
}

pub fn run(ctx: &mut Ctx, args: HookArgs) -> CmdResult {
    let (which, install) = match &args.action {
        HookAction::Install(w) => (w, true),
        HookAction::Uninstall(w) => (w, false),
    };
    if !which.git && !which.claude {
        return Err(CliError::Usage(
            "say which hooks: --git, --claude, or both".into(),
        ));
    }
    let relay = relay_command();
    let mut changes = Vec::new();
    if which.git {
        let dir = hooks::git_hooks_dir(&ctx.cwd)?;
        changes.extend(if install {
            hooks::install_git(&dir, &relay)?
        } else {
            hooks::uninstall_git(&dir)?
        });
    }
    if which.claude {
        let top = crate::ops::git::git(&ctx.cwd, &["rev-parse", "--show-toplevel"])
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| ctx.cwd.clone());
        changes.extend(if install {
            hooks::install_claude(&top, &relay)?
        } else {
            hooks::uninstall_claude(&top)?
        });
    }
    if ctx.ui.json {
        ctx.ui.json_line(&json!({"changes": changes}))?;
    } else if changes.is_empty() {
        writeln!(ctx.ui.out(), "Nothing to do.")?;
    } else {
        for c in changes {
            writeln!(ctx.ui.out(), "{c}")?;
        }
    }
    Ok(())
}
