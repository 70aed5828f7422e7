//! A temp store per test and a scrubbed environment: no `RELAY_*` from the caller, `HOME` in
//! the temp folder, `NO_COLOR` set, no git configuration from the machine. And the one way a
//! test snapshots an output that is a contract (`snapshot!`, `json_snapshot!`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_relay");

pub struct Env {
    _tmp: tempfile::TempDir,
    /// The working folder commands run in (holds `.relay/` after `init`).
    pub dir: PathBuf,
    /// The HOME of every command (agents keep their own configuration under it).
    pub home: PathBuf,
}

/// What a command did.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    fn from(o: Output) -> Run {
        Run {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }

    /// stdout as NDJSON.
    pub fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l:?}: {e}")))
            .collect()
    }

    /// stdout as the envelopes `pull`, `search`, `lesson list` and `checkpoint show` print
    /// under `--json`: each line's package.
    pub fn packages(&self) -> Vec<Value> {
        (self.json_lines().into_iter())
            .map(|mut line| line["package"].take())
            .collect()
    }

    pub fn json(&self) -> Value {
        let mut lines = self.json_lines();
        assert_eq!(
            lines.len(),
            1,
            "expected one JSON line, got: {}",
            self.stdout
        );
        lines.remove(0)
    }

    /// Everything the command showed, as a snapshot records it: exit code, stdout, stderr.
    pub fn transcript(&self) -> String {
        let part = |s: &str| match s {
            "" => "(empty)\n".to_string(),
            s if s.ends_with('\n') => s.to_string(),
            s => format!("{s}\n(no newline at end)\n"),
        };
        format!(
            "exit code: {}\n--- stdout\n{}--- stderr\n{}",
            self.code,
            part(&self.stdout),
            part(&self.stderr)
        )
    }

    /// stderr's JSON error object.
    pub fn error(&self) -> Value {
        let line = self.stderr.lines().last().unwrap_or_default();
        serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("stderr is not a JSON error: {:?}: {e}", self.stderr))
    }
}

impl Env {
    /// An empty working folder, no store.
    pub fn empty() -> Env {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("work");
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Env {
            _tmp: tmp,
            dir,
            home,
        }
    }

    /// A store with the project `demo` as its default.
    pub fn new() -> Env {
        let env = Env::empty();
        env.ok(&["init", "--project", "demo"]);
        env
    }

    pub fn store(&self) -> PathBuf {
        self.dir.join(".relay")
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    pub fn command(&self, args: &[&str]) -> Command {
        self.program(BIN, args)
    }

    /// Runs `relay ARGS` on a pseudo-terminal (util-linux `script`), typing `input`. Returns
    /// `None` where `script` is not installed.
    pub fn in_terminal(&self, args: &str, input: &[u8]) -> Option<Run> {
        let line = format!("{BIN} {args}");
        let mut child = self
            .program("script", &["-qec", &line, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .ok()?;
        let _ = child.stdin.take().unwrap().write_all(input);
        Some(Run::from(child.wait_with_output().unwrap()))
    }

    /// Any program, in the working folder with the scrubbed environment.
    pub fn program(&self, program: &str, args: &[&str]) -> Command {
        let mut c = Command::new(program);
        c.args(args)
            .current_dir(&self.dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("USER", "tester")
            .env("NO_COLOR", "1")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CEILING_DIRECTORIES", self._tmp.path())
            .stdin(Stdio::null());
        c
    }

    pub fn run(&self, args: &[&str]) -> Run {
        Run::from(self.command(args).output().expect("run relay"))
    }

    pub fn run_env(&self, args: &[&str], vars: &[(&str, &str)]) -> Run {
        let mut c = self.command(args);
        for (k, v) in vars {
            c.env(k, v);
        }
        Run::from(c.output().expect("run relay"))
    }

    pub fn run_stdin(&self, args: &[&str], input: &[u8]) -> Run {
        Self::piped(self.command(args), input)
    }

    /// Runs `command`, writing `input` on its stdin.
    pub fn piped(mut command: Command, input: &[u8]) -> Run {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A command may exit before reading everything; a closed pipe here is fine.
        let _ = child.stdin.take().unwrap().write_all(input);
        Run::from(child.wait_with_output().unwrap())
    }

    /// Runs and requires exit 0; returns stdout.
    #[track_caller]
    pub fn ok(&self, args: &[&str]) -> String {
        let r = self.run(args);
        assert_eq!(
            r.code, 0,
            "relay {args:?} failed:\nstdout: {}\nstderr: {}",
            r.stdout, r.stderr
        );
        r.stdout
    }

    /// Runs with `--json` and requires exit 0; returns the single JSON object printed.
    #[track_caller]
    pub fn ok_json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        let r = self.run(&all);
        assert_eq!(
            r.code, 0,
            "relay {all:?} failed:\nstdout: {}\nstderr: {}",
            r.stdout, r.stderr
        );
        r.json()
    }

    /// Deposits a (partial) wire package through `--from -` and returns the printed envelope.
    #[track_caller]
    pub fn deposit_from(&self, package: &Value) -> Value {
        let r = self.run_stdin(
            &["deposit", "--from", "-", "--json"],
            package.to_string().as_bytes(),
        );
        assert_eq!(r.code, 0, "deposit {package} failed: {}", r.stderr);
        r.json()
    }

    /// Deposits with the given extra flags and returns the package id.
    #[track_caller]
    pub fn deposit(&self, title: &str, extra: &[&str]) -> String {
        let mut args = vec!["deposit", "--title", title];
        args.extend_from_slice(extra);
        let v = self.ok_json(&args);
        v["package"]["package_id"].as_str().unwrap().to_string()
    }

    /// The (first) package log of project `demo`.
    pub fn package_lines_file(&self) -> PathBuf {
        let dir = self.store().join("projects/demo/packages");
        std::fs::read_dir(dir)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path()
    }

    /// Every line of every package log of a project, in file order.
    pub fn package_lines(&self, project_dir: &str) -> Vec<String> {
        let dir = self
            .store()
            .join("projects")
            .join(project_dir)
            .join("packages");
        let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
            Ok(e) => e.map(|e| e.unwrap().path()).collect(),
            Err(_) => return Vec::new(),
        };
        files.sort();
        files
            .iter()
            .flat_map(|f| read(f).lines().map(str::to_string).collect::<Vec<_>>())
            .collect()
    }
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

// Snapshots. Outputs that are contracts (`--json` objects, human output, errors with their exit
// codes) are compared whole with the files in tests/cli/snapshots/, through `snapshot!` (text)
// and `json_snapshot!` (a JSON value, pretty-printed, keys in the order printed). Both redact
// with `snapshot_settings`, so every test hides what varies the same way.
//
// A mismatch, or a snapshot with no file yet, fails the test. On CI (`CI` set) insta writes
// nothing; elsewhere it also writes the new output beside the old as a `.snap.new` for review,
// and `no_snapshot_is_left_pending` fails until it is accepted or deleted.
// To update snapshots after a change you meant: `cargo insta review` (cargo install
// cargo-insta), or `INSTA_UPDATE=always cargo test --test cli MODULE::` and read the diff in git.

/// The redactions every snapshot gets: what differs between runs and machines becomes a
/// placeholder. Record ids (`pkg_[ID]`), content hashes (`sha256:[HASH]`), bearer tokens
/// (`relay_[TOKEN]`), key fingerprints and public keys (`SHA256:[FINGERPRINT]`,
/// `[PUBLIC_KEY]`), git commit ids
/// (`[COMMIT]`), temp folders (`[TMP]`), times and dates from the clock (`[TIME]`, `[DATE]`,
/// `[MONTH]`, `[HH:MM]`: fixed times a test chose stay visible), search scores (`[SCORE]`: they
/// drift as packages age), loopback ports (`[PORT]`), durations (`[DURATION]`), and relay's
/// crate version (`[VERSION]`).
pub fn snapshot_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_omit_expression(true);
    let mut temps = vec![std::env::temp_dir()];
    temps.extend(std::env::temp_dir().canonicalize());
    for t in temps {
        let t = regex_escape(t.to_string_lossy().trim_end_matches('/'));
        s.add_filter(&format!(r"{t}/\.tmp[A-Za-z0-9]+"), "[TMP]");
    }
    s.add_filter(r"\b([a-z]+)_[0-9a-f]{32}\b", "${1}_[ID]");
    s.add_filter(r"\bsha256:[0-9a-f]{64}\b", "sha256:[HASH]");
    s.add_filter(r"\brelay_[0-9A-Za-z]{64}\b", "relay_[TOKEN]");
    s.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
    // Times and dates from the clock (now, a few days ago): the 62 days before the run to the
    // day after it, so a run that crosses midnight still redacts its own. A fixed time a test
    // writes stays visible: keep such times more than 62 days before the day their snapshot
    // is written (or in a far future).
    let today = chrono::Utc::now().date_naive();
    let days: Vec<String> = (-62..=1)
        .map(|n| {
            (today + chrono::TimeDelta::days(n))
                .format("%Y-%m-%d")
                .to_string()
        })
        .collect();
    let mut months: Vec<&str> = days.iter().map(|d| &d[..7]).collect();
    months.dedup();
    let (days, months) = (days.join("|"), months.join("|"));
    s.add_filter(
        &format!(r"\b(?:{days})T\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)"),
        "[TIME]",
    );
    s.add_filter(
        &format!(r"\b(?:{days}) \d\d:\d\d(?::\d\d)?(?: UTC)?"),
        "[TIME]",
    );
    s.add_filter(&format!(r"\b(?:{days})\b"), "[DATE]");
    // The same, as an allowed_signers option writes it (`valid-after="20260601123456Z"`).
    let compact = days.replace('-', "");
    s.add_filter(&format!(r"\b(?:{compact})\d{{6}}Z\b"), "[SSH_TIME]");
    // A time of day alone ("by tester, 14:05 UTC"): one after a date was handled above.
    s.add_filter(r"([^\d\s]\s)\d\d:\d\d UTC\b", "${1}[HH:MM] UTC");
    // Search scores (pretty JSON, human output): recency nudges them, so they drift as the
    // packages age.
    s.add_filter(
        r#"("score": |\bscore )-?\d+(?:\.\d+)?(?:e-?\d+)?"#,
        "${1}[SCORE]",
    );
    // The package log of a month of the run.
    s.add_filter(&format!(r"\b(?:{months})\.ndjson\b"), "[MONTH].ndjson");
    // Keys a test generated: OpenSSH fingerprints and public keys.
    s.add_filter(r"\bSHA256:[A-Za-z0-9+/]{43}", "SHA256:[FINGERPRINT]");
    s.add_filter(r"\bAAAA[A-Za-z0-9+/]{20,}={0,2}", "[PUBLIC_KEY]");
    // The port a test server was given.
    s.add_filter(r"\b(127\.0\.0\.1|localhost|\[::1\]):\d+", "${1}:[PORT]");
    // Durations measured while running ("gave up after 206 ms").
    s.add_filter(r"\b\d+(?:\.\d+)? ?(?:ms|µs|ns)\b", "[DURATION]");
    let version = regex_escape(env!("CARGO_PKG_VERSION"));
    s.add_filter(&format!(r"\b{version}\b"), "[VERSION]");
    s
}

fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if r"\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `snapshot!("name", text)`: asserts `text` equals tests/cli/snapshots/cli__MODULE__name.snap
/// once redacted by `snapshot_settings`.
macro_rules! snapshot {
    ($name:expr, $value:expr $(,)?) => {
        $crate::harness::snapshot_settings().bind(|| insta::assert_snapshot!($name, $value))
    };
}

/// `json_snapshot!("name", value)`: the same for a JSON value (anything `Serialize`), laid
/// out as insta lays out JSON.
macro_rules! json_snapshot {
    ($name:expr, $value:expr $(,)?) => {
        $crate::harness::snapshot_settings()
            .bind(|| insta::assert_snapshot!($name, $crate::harness::pretty_json(&$value)))
    };
}

/// `value` as pretty JSON, printed by serde_json rather than by insta: insta reads a value
/// through serde's data model, where serde_json (built with `arbitrary_precision`, so that a
/// number keeps its text) hands each number over as a map of one private member.
pub fn pretty_json(value: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(value).expect("a JSON value")
}

pub(crate) use {json_snapshot, snapshot};

#[test]
fn no_snapshot_is_left_pending() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/snapshots");
    let pending: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()))
        .into_iter()
        .flatten()
        .filter(|name| name.ends_with(".snap.new") || name.ends_with(".pending-snap"))
        .collect();
    assert!(
        pending.is_empty(),
        "snapshots awaiting review in {}: {pending:?}; accept them (`cargo insta review`) or \
         delete them",
        dir.display()
    );
}
