//! Terminal decisions and the output channels: color only for a TTY with `NO_COLOR` unset,
//! JSON or human rendering, notes, warnings, errors and progress on stderr. Every byte relay
//! writes to stdout or stderr goes through here, so `--quiet` and `--json` hold everywhere, and
//! color is decided here alone.

use std::io::{self, BufWriter, IsTerminal, Stdout, Write};
use std::path::Path;

use serde_json::{Value, json};

use relay_store::Warning;
// Messages may quote what the caller gave or the store holds: shown as text, never as
// terminal controls or reordered by bidirectional ones.
use relay_wire::text::clean;

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
    /// `no_color`: the environment asks for no color (`NO_COLOR`), which `--color always`
    /// overrides.
    pub fn new(json: bool, quiet: bool, color: ColorChoice, no_color: bool) -> Ui {
        let allowed = |tty: bool| match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => tty && !no_color,
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
            let at = match w.line {
                0 => file,
                n => format!("{file}:{n}"),
            };
            eprintln!(
                "relay: {} {at}: {}",
                self.paint("warning:", "1;33"),
                clean(&w.message)
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
            eprintln!("relay: {}", clean(message));
        }
    }

    /// A note worth a person's attention only on a terminal (a long first indexing): like
    /// [`Ui::note`], and only when stderr is a terminal.
    pub fn terminal_note(&self, text: &str) {
        if io::stderr().is_terminal() {
            self.note(text);
        }
    }

    /// The last-resort report of an error that came before a `Ui` could be made (the command
    /// line did not parse, or the working folder cannot be read): the same format as
    /// [`Ui::error`], without color.
    pub fn early_error(json: bool, code: &str, message: &str) {
        if json {
            eprintln!("{}", json!({"error": code, "message": message}));
        } else {
            eprintln!("relay: error: {}", clean(message));
        }
    }

    /// An error on stderr; with `--json`, one object `{"error", "message"}` and the error's
    /// `details` (an ambiguous short id's `candidates`).
    pub fn error(&self, code: &str, message: &str, details: serde_json::Map<String, Value>) {
        if self.json {
            let mut object = serde_json::Map::new();
            object.insert("error".into(), json!(code));
            object.insert("message".into(), json!(message));
            object.extend(details);
            eprintln!("{}", Value::Object(object));
        } else {
            eprintln!("relay: {} {}", self.paint("error:", "1;31"), clean(message));
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

/// Progress of long work (import, export, verify) on stderr, drawn with indicatif only when
/// stderr is a terminal and neither `--quiet` nor `--json` is given, so output that scripts
/// and tests read never changes. Dropping it clears the line it drew.
pub struct Progress(indicatif::ProgressBar);

impl Ui {
    /// Whether progress is drawn at all.
    fn draws_progress(&self) -> bool {
        !self.quiet && !self.json && io::stderr().is_terminal()
    }

    fn progress_with(&self, bar: impl FnOnce() -> indicatif::ProgressBar) -> Progress {
        Progress(if self.draws_progress() {
            bar()
        } else {
            indicatif::ProgressBar::hidden()
        })
    }

    /// A bar over a known number of bytes, set with [`Progress::set`] (import).
    pub fn progress_bytes(&self, label: &'static str) -> Progress {
        self.progress_with(|| {
            let style =
                indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {bytes} / {total_bytes}")
                    .map(|s| s.progress_chars("#> "))
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            indicatif::ProgressBar::new(0)
                .with_style(style)
                .with_message(label)
        })
    }

    /// A spinner for work of unknown length, counting what [`Progress::inc`] adds when
    /// `counts` names it (export), else showing the time taken (verify).
    pub fn progress_spinner(&self, label: &'static str, counts: Option<&str>) -> Progress {
        self.progress_with(|| {
            let template = match counts {
                Some(unit) => format!("{{spinner}} {{msg}} {{human_pos}} {unit} ({{elapsed}})"),
                None => "{spinner} {msg} ({elapsed})".to_string(),
            };
            let style = indicatif::ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner());
            let bar = indicatif::ProgressBar::new_spinner()
                .with_style(style)
                .with_message(label);
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        })
    }
}

impl Progress {
    /// `done` of `total` bytes.
    pub fn set(&self, done: u64, total: u64) {
        self.0.set_length(total);
        self.0.set_position(done.min(total));
    }

    /// `n` more of what a spinner counts.
    pub fn inc(&self, n: u64) {
        self.0.inc(n);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// A [`Progress`] bar over bytes that a thread moves by polling a counter the work keeps
/// (the bytes of package logs indexed: the indexes are built inside the store, on threads
/// of its own, which cannot draw). Dropping it stops the thread and clears the bar.
pub struct Polled {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Ui {
    /// A bar of `total` bytes at `count() - count()`-at-the-start, moved ten times a second.
    pub fn progress_polled(&self, label: &'static str, total: u64, count: fn() -> u64) -> Polled {
        if !self.draws_progress() {
            return Polled {
                stop: None,
                thread: None,
            };
        }
        let bar = self.progress_bytes(label);
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let start = count();
        let thread = std::thread::spawn(move || {
            loop {
                bar.set(count() - start, total);
                match stopped.recv_timeout(std::time::Duration::from_millis(100)) {
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                    _ => break,
                }
            }
        });
        Polled {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Polled {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
