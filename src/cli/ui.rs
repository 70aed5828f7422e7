//! Terminal decisions and the output channels: color only for a TTY with `NO_COLOR` unset,
//! JSON or human rendering, notes, warnings, errors and progress on stderr. Every byte relay
//! writes to stdout or stderr goes through here, so `--quiet` and `--json` hold everywhere, and
//! color is decided here alone.

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

    /// Standard output for a stream relay passes through rather than renders (`export --out -`,
    /// the MCP server's JSON-RPC messages), after what [`Ui::out`] buffered.
    pub fn stream_out(&mut self) -> io::Result<io::StdoutLock<'static>> {
        self.out.flush()?;
        Ok(io::stdout().lock())
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

    /// An error the command reports but does not fail on (`deposit --auto` in a hook must not
    /// fail a commit): `relay: {message}`, shown under `--quiet` as errors are, and under
    /// `--json` a warning object `{"warning": code, "message": …}`, since the command succeeds.
    pub fn tolerated_error(&self, code: &str, message: &str) {
        if self.json {
            eprintln!("{}", json!({"warning": code, "message": message}));
        } else {
            eprintln!("relay: {message}");
        }
    }

    /// A note worth a person's attention only on a terminal (a long first indexing): like
    /// [`Ui::note`], and only when stderr is a terminal.
    pub fn terminal_note(&self, text: &str) {
        if io::stderr().is_terminal() {
            self.note(text);
        }
    }

    /// A progress bar for long work on stderr (see [`Progress`]).
    pub fn progress(&self, label: &'static str) -> Progress {
        Progress {
            label,
            draw: !self.quiet && !self.json && io::stderr().is_terminal(),
        }
    }

    /// The last-resort report of an error that came before a `Ui` could be made (the command
    /// line did not parse, or the working folder cannot be read): the same format as
    /// [`Ui::error`], without color.
    pub fn early_error(json: bool, code: &str, message: &str) {
        if json {
            eprintln!("{}", json!({"error": code, "message": message}));
        } else {
            eprintln!("relay: error: {message}");
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

/// Progress of long work (import), drawn on stderr only when it is a terminal and neither
/// `--quiet` nor `--json` is given: output that scripts and tests read never changes.
pub struct Progress {
    label: &'static str,
    draw: bool,
}

impl Progress {
    /// Shows `done` of `total` bytes.
    pub fn set(&mut self, done: u64, total: u64) {
        if !self.draw || total == 0 {
            return;
        }
        let width = 30;
        let filled = (done.min(total) * width / total) as usize;
        eprint!(
            "\r{} [{}{}] {} / {} MB",
            self.label,
            "#".repeat(filled),
            " ".repeat(width as usize - filled),
            done >> 20,
            total >> 20
        );
        if done >= total {
            eprintln!();
        }
    }
}
