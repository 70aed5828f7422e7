//! `relay doctor`: the whole setup checked end to end, each finding with what is wrong and the
//! command that fixes it. The hooks are not only read but run, as git and the agents run them,
//! in a scratch copy of the repository and its store, so a check never writes into the user's
//! repository or store. One file per group of checks; the CLI only renders the [`Report`].

mod agents;
mod git;
mod mcp;
mod model;
mod process;
mod scratch;
mod server;
mod store;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::search::semantic::ModelChoice;
use relay_store::Store;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    /// Worth a look, but nothing is broken: the doctor still passes.
    Warn,
    /// Broken: the doctor fails.
    Fail,
    /// Not set up, so not checked.
    Skip,
}

/// One finding: what was checked, how it came out, what was seen, and the fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub check: String,
    pub status: Status,
    pub detail: String,
    /// The command (or edit) that fixes it; `None` when there is nothing to fix.
    pub fix: Option<String>,
}

impl Finding {
    pub fn ok(check: impl Into<String>, detail: impl Into<String>) -> Finding {
        Finding::new(check, Status::Ok, detail, None)
    }

    pub fn skip(check: impl Into<String>, detail: impl Into<String>) -> Finding {
        Finding::new(check, Status::Skip, detail, None)
    }

    pub fn fail(
        check: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Finding {
        Finding::new(check, Status::Fail, detail, Some(fix.into()))
    }

    pub fn warn(
        check: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Finding {
        Finding::new(check, Status::Warn, detail, Some(fix.into()))
    }

    fn new(
        check: impl Into<String>,
        status: Status,
        detail: impl Into<String>,
        fix: Option<String>,
    ) -> Finding {
        Finding {
            check: check.into(),
            status,
            detail: detail.into(),
            fix,
        }
    }
}

/// Every finding, in the order the checks ran; `ok` when none failed.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub ok: bool,
    pub checks: Vec<Finding>,
}

impl Report {
    /// How many checks failed.
    pub fn failures(&self) -> usize {
        self.checks
            .iter()
            .filter(|f| f.status == Status::Fail)
            .count()
    }
}

/// What the doctor examines: handed down by the CLI, which alone reads the environment.
pub struct Setup<'a> {
    /// The working folder.
    pub cwd: &'a Path,
    /// The store, or why there is none.
    pub store: std::result::Result<&'a Store, String>,
    /// The relay binary that runs the doctor (`relay mcp` is started from it).
    pub relay: &'a Path,
    /// `PATH`, to find a hook's `relay` the way the shell does.
    pub path: Option<OsString>,
    /// The embedding model's choice (`--model`, `RELAY_MODEL`, the config's).
    pub model: ModelChoice,
    /// A relay server to ask for its conformance descriptor (`--server URL`).
    pub server: Option<String>,
    /// Codex's folder (`CODEX_HOME`, else `~/.codex`), whose config.toml says which hooks
    /// Codex trusts.
    pub codex_home: Option<PathBuf>,
}

/// Runs every check.
pub fn run(setup: &Setup<'_>) -> Report {
    let mut checks = vec![store::check(setup)];
    let scratch = setup.store.as_ref().ok().map(|s| scratch::Scratch::make(s));
    let scratch = match scratch {
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            checks.push(Finding::fail(
                "scratch copy",
                format!("cannot make a scratch copy to run the hooks in: {e}"),
                "free some space in the temporary folder (TMPDIR), then run `relay doctor` again",
            ));
            None
        }
        None => None,
    };
    checks.extend(git::check(setup, scratch.as_ref()));
    checks.extend(agents::check(setup, scratch.as_ref()));
    checks.push(mcp::check(setup, scratch.as_ref()));
    checks.push(model::check(setup));
    checks.push(server::check(setup.server.as_deref()));
    Report {
        ok: !checks.iter().any(|f| f.status == Status::Fail),
        checks,
    }
}

/// The program a shell command line starts: its first word, unquoted the way relay quotes it
/// (`'/path/with space/relay'`).
fn program_of(command: &str) -> String {
    let command = command.trim_start();
    if let Some(rest) = command.strip_prefix('\'') {
        let mut out = String::new();
        let mut rest = rest;
        loop {
            match rest.find('\'') {
                None => return out + rest,
                Some(i) => {
                    out.push_str(&rest[..i]);
                    rest = &rest[i + 1..];
                    // `'\''` is a quote inside quotes.
                    match rest.strip_prefix("\\''") {
                        Some(more) => {
                            out.push('\'');
                            rest = more;
                        }
                        None => return out,
                    }
                }
            }
        }
    }
    command
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Where `program` is, the way the shell finds it: a path as it is, a bare name on `path`.
/// `Err` says why it cannot run, as a clause on the program ("which does not exist").
fn locate(program: &str, path: Option<&OsString>) -> std::result::Result<PathBuf, String> {
    if program.is_empty() {
        return Err("which is empty".into());
    }
    if program.contains('/') {
        let p = PathBuf::from(program);
        return match executable(&p) {
            true => Ok(p),
            false if p.exists() => Err("which is not executable".into()),
            false => Err("which does not exist".into()),
        };
    }
    std::env::split_paths(path.map(OsString::as_os_str).unwrap_or_default())
        .map(|d| d.join(program))
        .find(|p| executable(p))
        .ok_or_else(|| "which is not on PATH".into())
}

#[cfg(unix)]
fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_of_a_command_is_its_first_word_unquoted() {
        assert_eq!(program_of("relay hook run Stop"), "relay");
        assert_eq!(
            program_of("'/opt/my relay/relay' hook run"),
            "/opt/my relay/relay"
        );
        assert_eq!(program_of("'/o'\\''s/relay' verify"), "/o's/relay");
    }

    #[test]
    fn a_program_is_found_by_path_or_on_path_and_a_missing_one_says_so() {
        let path = Some(OsString::from("/bin:/usr/bin"));
        assert!(locate("sh", path.as_ref()).is_ok());
        assert_eq!(
            locate("/old/path/relay", path.as_ref()),
            Err("which does not exist".into())
        );
        assert_eq!(
            locate("no-such-relay", path.as_ref()),
            Err("which is not on PATH".into())
        );
    }
}
