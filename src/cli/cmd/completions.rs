//! `relay completions SHELL`: prints the shell completion script, the same text as the committed
//! file in `completions/` (both come from `cli::completion`). Needs no store.

use std::io::Write;

use clap::Args;

use crate::cli::completion::{self, Shell};
use crate::cli::context::{CmdResult, Ctx};

/// Print a shell completion script
///
/// The script completes relay's commands, flags and fixed values. Load it in your shell's startup
/// file, or save it where your shell looks for completions (see the examples). The same files are
/// in the repository's completions/ folder, and man pages in man/.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  bash        relay completions bash > ~/.local/share/bash-completion/completions/relay
              (or add to ~/.bashrc: source <(relay completions bash))
  zsh         relay completions zsh > ~/.zfunc/_relay
              (with fpath+=(~/.zfunc) before compinit in ~/.zshrc)
  fish        relay completions fish > ~/.config/fish/completions/relay.fish
  elvish      add to ~/.config/elvish/rc.elv: eval (relay completions elvish | slurp)
  PowerShell  add to $PROFILE: relay completions powershell | Out-String | Invoke-Expression")]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

pub fn run(ctx: &mut Ctx, args: CompletionsArgs) -> CmdResult {
    ctx.ui
        .out()
        .write_all(&completion::completion(args.shell))?;
    Ok(())
}
