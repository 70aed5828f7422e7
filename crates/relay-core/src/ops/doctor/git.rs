//! The git side: relay's four hooks (present, executable, relay's, their `relay` found) and
//! each one really run in the scratch clone: two probe commits (post-commit must queue a
//! record, pre-commit must flush the queue into the next commit), post-merge and post-rewrite
//! run with git's arguments must exit 0 with no word from the shell. With none of relay's
//! hooks installed, one warning instead. And how git merges every store log: relay's driver
//! (`relay hook install --git`) or the union driver that `.relay/.gitattributes` names.

use std::path::Path;

use super::process::{self, Ran};
use super::scratch::Scratch;
use super::{Finding, Setup, locate, program_of};
use crate::ops::agents::hooks::{MARKER, git_hooks};

const INSTALL: &str = "relay hook install --git";
/// How long a probe commit may take (both its hooks included).
const COMMIT_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);
const PROBE_FILE: &str = "relay-doctor-probe.txt";

fn name(hook: &str) -> String {
    format!("git hook {hook}")
}

pub fn check(setup: &Setup<'_>, scratch: Option<&Scratch>) -> Vec<Finding> {
    let (Ok(store), Some(scratch)) = (&setup.store, scratch) else {
        return Vec::new();
    };
    let Some((top, user_hooks)) = &scratch.user else {
        return vec![Finding::skip(
            "git hooks",
            "the store is not in a git repository",
        )];
    };
    let ours = |hook: &str| {
        std::fs::read_to_string(user_hooks.join(hook)).is_ok_and(|s| s.contains(MARKER))
    };
    if !git_hooks("relay").iter().any(|(hook, _)| ours(hook)) {
        // A choice, not a breakage: the store is then committed by hand.
        let mut found = vec![Finding::warn(
            "git hooks",
            "relay's git hooks are not installed: commits are not recorded, and the queue of \
             hook writes is not flushed into commits",
            INSTALL,
        )];
        if !store.config().local() {
            found.push(merge_driver(top, store.root()));
        }
        return found;
    }
    let mut found = Vec::new();
    let mut broken = Vec::new();
    for (hook, _) in git_hooks("relay") {
        match installed(setup, &user_hooks.join(hook), hook) {
            Ok(()) => {}
            Err(f) => {
                broken.push(hook);
                found.push(f);
            }
        }
    }
    let probe = Probe::run(scratch);
    for (hook, _) in git_hooks("relay") {
        if broken.contains(&hook) {
            continue;
        }
        let result = match hook {
            "post-commit" => Some(probe.post_commit.clone()),
            "pre-commit" => probe.pre_commit.clone(),
            "post-merge" => Some(quiet_run(scratch, hook, &["0"])),
            _ => Some(quiet_run(scratch, hook, &["rebase"])),
        };
        found.push(match result {
            None => Finding::skip(name(hook), "not tried: post-commit queued nothing to flush"),
            Some(Ok(detail)) => Finding::ok(name(hook), detail),
            Some(Err(problem)) => Finding::fail(name(hook), problem, INSTALL),
        });
    }
    let order = |f: &Finding| (git_hooks("relay").iter()).position(|(h, _)| f.check == name(h));
    found.sort_by_key(order);
    if !store.config().local() {
        found.push(merge_driver(top, store.root()));
    }
    found
}

/// The hook as installed: present, relay's, executable, and the relay it runs exists.
fn installed(setup: &Setup<'_>, path: &Path, hook: &str) -> Result<(), Finding> {
    let fail = |detail: String, fix: String| Err(Finding::fail(name(hook), detail, fix));
    let Ok(script) = std::fs::read_to_string(path) else {
        return fail(format!("{} is missing", path.display()), INSTALL.into());
    };
    if !script.contains(MARKER) {
        return fail(
            format!("{} is not relay's", path.display()),
            format!("{INSTALL} (it keeps your hook and runs it after relay's)"),
        );
    }
    if !super::executable(path) {
        return fail(
            format!("{} is not executable: git skips it", path.display()),
            format!("chmod +x {}", path.display()),
        );
    }
    let commands = git_hooks("");
    let steps = commands.iter().find(|(h, _)| *h == hook).map(|(_, s)| s);
    for step in steps.into_iter().flatten() {
        let line = script.lines().find(|l| l.contains(&step.command));
        let Some(line) = line else {
            return fail(
                format!("{} does not run `relay{}`", path.display(), step.command),
                INSTALL.into(),
            );
        };
        let program = program_of(&line[..line.find(&step.command).unwrap_or(0)]);
        if let Err(why) = locate(&program, setup.path.as_ref()) {
            return fail(format!("the hook runs {program}, {why}"), INSTALL.into());
        }
    }
    Ok(())
}

/// What the two probe commits showed of post-commit and pre-commit.
struct Probe {
    post_commit: Result<String, String>,
    /// `None` when there was nothing to flush (post-commit queued nothing).
    pre_commit: Option<Result<String, String>>,
}

impl Probe {
    fn run(scratch: &Scratch) -> Probe {
        let first = commit(scratch, 1);
        // The probe commit's own record: the store copy's queue may hold others, which the
        // probe commit's pre-commit flushes, so a count of the queue says nothing.
        let head = (scratch.git(&["rev-parse", "HEAD"]).output().ok())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|h| !h.is_empty());
        let recorded = head.is_some_and(|h| scratch.queued_text().contains(&h));
        let post_commit = match &first {
            Err(e) => Err(e.clone()),
            Ok(_) if recorded => {
                Ok("a probe commit in a scratch clone queued its record".to_string())
            }
            Ok(ran) => Err(format!(
                "ran on a probe commit in a scratch clone but queued no record of it{}",
                said(ran)
            )),
        };
        let pre_commit = match (&post_commit, &first) {
            (_, Err(e)) => Some(Err(e.clone())),
            (Err(_), _) => None,
            (Ok(_), Ok(_)) => Some(match commit(scratch, 2) {
                Err(e) => Err(e),
                Ok(ran) => {
                    let store = scratch
                        .store
                        .strip_prefix(&scratch.work)
                        .unwrap_or(Path::new(".relay"));
                    let store = store.to_string_lossy();
                    let args = ["show", "--name-only", "--format=", "HEAD", "--", &store];
                    let out = scratch.git(&args).output().ok();
                    let files = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
                    match files.filter(|f| !f.trim().is_empty()) {
                        Some(f) => Ok(format!(
                            "the next probe commit took the queued lines in ({})",
                            f.split_whitespace().collect::<Vec<_>>().join(", ")
                        )),
                        None => Err(format!(
                            "ran, but the next probe commit holds no store lines: the queue was not flushed{}",
                            said(&ran)
                        )),
                    }
                }
            }),
        };
        Probe {
            post_commit,
            pre_commit,
        }
    }
}

/// `; it said: …` for a command that printed on stderr.
fn said(ran: &Ran) -> String {
    match ran.said() {
        s if s.is_empty() => String::new(),
        s => format!("; it said: {s}"),
    }
}

/// Commit number `n` of the probe, in the scratch clone; `Err` when git refused it.
fn commit(scratch: &Scratch, n: usize) -> Result<Ran, String> {
    let file = scratch.work.join(PROBE_FILE);
    std::fs::write(&file, format!("relay doctor probe {n}\n")).map_err(|e| e.to_string())?;
    let _ = scratch.git(&["add", PROBE_FILE]).output();
    let message = format!("relay doctor: probe commit {n}");
    let ran = process::run(
        scratch.git(&["commit", "-q", "-m", &message]),
        b"",
        COMMIT_LIMIT,
    )
    .map_err(|e| format!("a probe commit in a scratch clone: {e}"))?;
    match ran.succeeded() {
        true => Ok(ran),
        false => Err(format!(
            "git refused a probe commit in a scratch clone{}",
            said(&ran)
        )),
    }
}

/// Runs `hook` of the scratch clone with git's `args`: it must exit 0, and say nothing but
/// what relay itself reports (`relay: …`, e.g. a store that fails its check, which the store
/// check names): a shell's "not found" means the hook does not reach relay.
fn quiet_run(scratch: &Scratch, hook: &str, args: &[&str]) -> Result<String, String> {
    let Some(hooks) = &scratch.hooks else {
        return Err("no scratch clone to run it in".into());
    };
    let mut c = scratch.command(hooks.join(hook));
    c.args(args);
    let ran = process::run(c, b"", process::HOOK_LIMIT)?;
    let foreign = ran
        .stderr
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with("relay: "));
    match (ran.succeeded(), foreign) {
        (true, None) => Ok(format!(
            "ran in a scratch clone as git runs it ({hook} {}): exit 0",
            args.join(" ")
        )),
        (_, Some(line)) => Err(format!("ran in a scratch clone and said: {}", line.trim())),
        _ => Err(format!(
            "ran in a scratch clone and exited {}",
            ran.status.map_or("by a signal".into(), |c| c.to_string())
        )),
    }
}

/// How git will merge each of the store's logs, as `git check-attr` answers for every log
/// the store holds and for each kind a new one may be: with relay's driver (configured in this
/// clone) or git's union driver, as `.relay/.gitattributes` says. An override anywhere (a
/// `.gitattributes` above, git's `info/attributes`) is named with the file it hits.
fn merge_driver(top: &Path, store: &Path) -> Finding {
    const CHECK: &str = "git merge driver";
    const LINE: &str = "*.ndjson merge=union";
    let attributes = store.join(".gitattributes");
    if !attributes.exists() {
        return Finding::fail(
            CHECK,
            format!(
                "{} is missing: once that is committed, clones that both wrote conflict",
                attributes.display()
            ),
            "relay init (it writes the missing .relay/.gitattributes)",
        );
    }
    let text = std::fs::read_to_string(&attributes).unwrap_or_default();
    if !text.lines().any(|l| l.trim() == LINE) {
        return Finding::fail(
            CHECK,
            format!(
                "{} does not name the union driver for the logs: clones without relay's \
                 driver would merge them with git's text merge, and conflict",
                attributes.display()
            ),
            format!("add the line `{LINE}` to {}", attributes.display()),
        );
    }
    let paths = store_logs(top, store);
    // One git, however many logs: paths on stdin, NUL-separated both ways (no quoting).
    let input: String = paths.iter().map(|p| format!("{p}\0")).collect();
    let args = ["check-attr", "-z", "--stdin", "merge"];
    let answer = crate::ops::git::git_with_input(top, &args, input.as_bytes()).unwrap_or_default();
    let fields: Vec<&str> = answer.split('\0').collect();
    let values: std::collections::HashMap<&str, &str> = (fields.chunks(3))
        .filter_map(|c| match c {
            [path, _, value] => Some((*path, *value)),
            _ => None,
        })
        .collect();
    let driver = crate::ops::git::driver::configured(top);
    let mut by_relay = 0;
    for path in &paths {
        let value = values.get(path.as_str()).copied();
        let problem = match value {
            Some("union") => None,
            Some(crate::ops::git::driver::NAME) if driver.is_some() => {
                by_relay += 1;
                None
            }
            Some(crate::ops::git::driver::NAME) => Some((
                "relay's driver, which this clone's git config does not define, so git falls \
                 back to its text merge"
                    .to_string(),
                format!("{INSTALL} (it defines merge.relay.driver)"),
            )),
            other => Some((
                match other {
                    Some("unspecified") | None => "its text merge".to_string(),
                    Some(d) => format!("`merge={d}`"),
                },
                format!(
                    "remove the attribute that overrides `{LINE}` for {path} (see `git \
                     check-attr -a -- {path}`; .gitattributes files above the store and git's \
                     info/attributes can set it), or run {INSTALL}"
                ),
            )),
        };
        if let Some((how, fix)) = problem {
            return Finding::fail(
                CHECK,
                format!(
                    "git would merge {path} with {how} instead of a union of lines: clones \
                     that both wrote conflict"
                ),
                fix,
            );
        }
    }
    match by_relay {
        0 => Finding::ok(
            CHECK,
            format!(
                "git merges the store's logs ({} paths asked) with its union driver ({LINE})",
                paths.len()
            ),
        ),
        n => Finding::ok(
            CHECK,
            format!(
                "git merges the store's logs ({n} of {} paths asked) with relay's driver, each \
                 line once",
                paths.len()
            ),
        ),
    }
}

/// The store's logs relative to `top` as git names them: every file git tracks there, and
/// one of each kind a new project or month would add.
fn store_logs(top: &Path, store: &Path) -> Vec<String> {
    let rel = store.strip_prefix(top).unwrap_or(store);
    let rel = rel.to_string_lossy().replace('\\', "/");
    let listed = crate::ops::git::git_raw(top, &["ls-files", "-z", "--", &rel]).unwrap_or_default();
    let mut paths: Vec<String> = crate::ops::git::nul_paths(&listed)
        .into_iter()
        .filter(|p| p.ends_with(".ndjson") || p.ends_with("allowed_signers"))
        .collect();
    for new in [
        "projects.ndjson",
        "allowed_signers",
        "projects/new-project/packages/2099-01.ndjson",
        "projects/new-project/facts.ndjson",
        "projects/new-project/sessions.ndjson",
        "projects/new-project/signatures.ndjson",
    ] {
        let path = format!("{rel}/{new}");
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::agents::hooks::install_git;
    use crate::search::semantic::ModelChoice;

    fn setup(cwd: &Path) -> Setup<'_> {
        Setup {
            cwd,
            store: Err("no store".into()),
            relay: Path::new("relay"),
            path: Some("/bin:/usr/bin".into()),
            model: ModelChoice { given: None },
            server: None,
            codex_home: None,
        }
    }

    #[test]
    fn an_installed_hook_is_checked_for_its_marker_its_mode_and_its_relay() {
        let dir = tempfile::tempdir().unwrap();
        let hooks = dir.path();
        install_git(hooks, "/bin/sh").unwrap();
        let setup = setup(hooks);
        assert_eq!(
            installed(&setup, &hooks.join("post-merge"), "post-merge"),
            Ok(())
        );
        install_git(hooks, "'/old/path/relay'").unwrap();
        let f = installed(&setup, &hooks.join("post-merge"), "post-merge").unwrap_err();
        assert_eq!(
            f.detail,
            "the hook runs /old/path/relay, which does not exist"
        );
        assert_eq!(f.fix.as_deref(), Some(INSTALL));
        std::fs::write(hooks.join("pre-commit"), "#!/bin/sh\necho mine\n").unwrap();
        let f = installed(&setup, &hooks.join("pre-commit"), "pre-commit").unwrap_err();
        assert!(f.detail.ends_with("pre-commit is not relay's"), "{f:?}");
        let f = installed(&setup, &hooks.join("nothing"), "post-commit").unwrap_err();
        assert!(f.detail.ends_with("nothing is missing"), "{f:?}");
    }
}
