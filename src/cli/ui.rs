//! Terminal decisions and the output channels: color only for a TTY with `NO_COLOR` unset,
//! JSON or human rendering, and warnings and errors on stderr.

use std::io::{self, BufWriter, IsTerminal, Stdout, Write};
use std::path::Path;

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
    /// Whether stderr gets color (decided on its own: stdout may be a pipe, or the reverse).
    err_color: bool,
    out: BufWriter<Stdout>,
}

impl Ui {
    pub fn new(json: bool, quiet: bool, color: ColorChoice) -> Ui {
        let allowed = |tty: bool| match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        };
        colored::control::set_override(allowed(io::stdout().is_terminal()));
        Ui {
            json,
            quiet,
            err_color: allowed(io::stderr().is_terminal()),
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
        if self.quiet {
        } else if self.json {
            let v = json!({"warning": w.kind.as_str(), "file": file, "line": w.line, "message": w.message});
            eprintln!("{v}");
        } else {
            eprintln!(
                "relay: {} {file}:{}: {}",
                self.paint("warning:", "1;33"),
                w.line,
                w.message
            );
        }
    }

    pub fn error(&self, code: &str, message: &str) {
        if self.json {
            eprintln!("{}", json!({"error": code, "message": message}));
        } else {
            eprintln!("relay: {} {message}", self.paint("error:", "1;31"));
        }
    }

    /// `text` in an SGR color for stderr, when stderr takes color.
    fn paint(&self, text: &str, sgr: &str) -> String {
        if self.err_color {
            format!("\x1b[{sgr}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}
