//! Shell completions, generated at run time from the clap definitions so they cannot drift from
//! the real flags: `relay completions SHELL` prints them, and `cargo xtask gen` writes the same
//! text into `completions/` (the man pages and the reference are xtask's alone).

/// A shell relay can complete for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

impl Shell {
    pub const ALL: [Shell; 5] = [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::Powershell,
    ];

    /// The file name the shell looks for (and `completions/` holds).
    pub fn file_name(self) -> &'static str {
        match self {
            Shell::Bash => "relay.bash",
            Shell::Zsh => "_relay",
            Shell::Fish => "relay.fish",
            Shell::Elvish => "relay.elv",
            Shell::Powershell => "_relay.ps1",
        }
    }

    fn generator(self) -> clap_complete::Shell {
        match self {
            Shell::Bash => clap_complete::Shell::Bash,
            Shell::Zsh => clap_complete::Shell::Zsh,
            Shell::Fish => clap_complete::Shell::Fish,
            Shell::Elvish => clap_complete::Shell::Elvish,
            Shell::Powershell => clap_complete::Shell::PowerShell,
        }
    }
}

/// The completion script for `shell`. Built in memory: clap_complete panics on a failed write,
/// so callers write these bytes themselves (a closed pipe then ends the command quietly).
pub fn completion(shell: Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(
        shell.generator(),
        &mut super::write_flags::command(),
        "relay",
        &mut out,
    );
    out
}
