//! Terminal decisions and the output channels: color only for a TTY with `NO_COLOR` unset,
//! JSON or human rendering, and warnings and errors on stderr.

use std::io::{self, BufWriter, IsTerminal, Stdout, Write};
use std::path::Path;

use colored::Colorize;
use serde_json::json;

use crate::store::Warning;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// Where and how a command writes.
pub struct Ui {
    pub json: bool,
    pub quiet: bool,
    out: BufWriter<Stdout>,
}

impl Ui {
    pub fn new(json: bool, quiet: bool, color: ColorChoice) -> Ui {
        let on = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        colored::control::set_override(on);
        Ui {
            json,
            quiet,
            out: BufWriter::new(io::stdout()),
        }
    }

    /// Standard output, buffered. Write errors propagate so that a closed pipe ends the command.
    pub fn out(&mut self) -> &mut impl Write {
        &mut self.out
    }

    /// Prints one JSON value as a line.
    pub fn json_line(&mut self, value: &impl serde::Serialize) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, value)?;
        self.out.write_all(b"\n")
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Whether prompts may be shown: stdin and stderr are both terminals.
    pub fn can_prompt() -> bool {
        io::stdin().is_terminal() && io::stderr().is_terminal()
    }

    /// A note for a person on stderr (suppressed by `--quiet` and in `--json` mode).
    pub fn note(&self, text: &str) {
        if !self.quiet && !self.json {
            eprintln!("{text}");
        }
    }

    pub fn warning(&self, w: &Warning, cwd: &Path) {
        let file = w
            .path
            .strip_prefix(cwd)
            .unwrap_or(&w.path)
            .display()
            .to_string();
        if self.json {
            let v = json!({"warning": w.kind.as_str(), "file": file, "line": w.line, "message": w.message});
            eprintln!("{v}");
        } else if !self.quiet {
            eprintln!(
                "relay: {} {file}:{}: {}",
                "warning:".yellow().bold(),
                w.line,
                w.message
            );
        }
    }

    pub fn error(&self, code: &str, message: &str) {
        if self.json {
            eprintln!("{}", json!({"error": code, "message": message}));
        } else {
            eprintln!("relay: {} {message}", "error:".red().bold());
        }
    }
}
