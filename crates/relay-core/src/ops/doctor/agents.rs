//! The agents' hooks: for every agent relay installs into whose file exists, the file parses,
//! and each relay hook in it runs as the agent runs it (its exact command through `sh -c`,
//! the agent's event JSON on stdin, in the scratch copy) and answers as the agent reads it:
//! exit 0, output the agent accepts, and at SessionStart a briefing within the agent's limit.
//! Then the hooks log, where `relay hook run` writes the problems it kept from the agent.

use std::time::Duration;

use super::process::{self, Ran};
use super::scratch::Scratch;
use super::{Finding, Setup, locate, program_of};
use crate::ops::agents::codex_trust::{CodexTrust, HookTrust};
use crate::ops::agents::hook_rules;
use crate::ops::agents::hooks::AgentFile;
use crate::ops::agents::session::LOG_FILE;
use relay_store::Store;

/// Problems in the hooks log younger than this are a warning.
const RECENT: Duration = Duration::from_secs(24 * 3600);
/// The session id of the probe events.
const PROBE_SESSION: &str = "relay-doctor-probe";

pub fn check(setup: &Setup<'_>, scratch: Option<&Scratch>) -> Vec<Finding> {
    let (Ok(store), Some(scratch)) = (&setup.store, scratch) else {
        return Vec::new();
    };
    let root = scratch.user.as_ref().map_or_else(
        || store.root().parent().unwrap_or(store.root()).to_path_buf(),
        |(top, _)| top.clone(),
    );
    let mut found = Vec::new();
    for &agent in AgentFile::ALL {
        let install = format!("relay hook install --{}", agent.name());
        let file = agent.path(&root);
        let hooks = match agent.installed(&root) {
            Ok(None) => {
                found.push(Finding::skip(
                    format!("{} hooks", agent.name()),
                    format!("{} does not exist (to install: {install})", file.display()),
                ));
                continue;
            }
            Err(e) => {
                found.push(Finding::fail(
                    format!("{} hooks", agent.name()),
                    format!("the agent cannot read its hooks: {e}"),
                    format!("fix {}, then run {install}", file.display()),
                ));
                continue;
            }
            Ok(Some(hooks)) => hooks,
        };
        if hooks.is_empty() {
            found.push(Finding::warn(
                format!("{} hooks", agent.name()),
                format!("{} holds no relay hook", file.display()),
                install,
            ));
            continue;
        }
        // The file as the agent reads it: what it would ignore or cut short, whatever the
        // commands do when run.
        let mut problems = hook_rules::problems(agent, &root).unwrap_or_default();
        if agent == AgentFile::OpenCode {
            problems.extend(plugin_problem(setup, scratch, &file));
        }
        if !problems.is_empty() {
            found.push(Finding::fail(
                format!("{} hooks", agent.name()),
                format!("{}: {}", file.display(), problems.join("; ")),
                format!("{install} (it writes relay's entries as the agent reads them)"),
            ));
        }
        let codex = (agent == AgentFile::Codex).then(|| CodexView::read(setup, &file));
        for hook in hooks {
            let check = format!("{} hook {}", agent.name(), hook.event);
            let ran = try_hook(setup, scratch, agent, &hook.event, &hook.command);
            let untrusted = match (&codex, &ran) {
                (Some(view), Ok(_)) => view.untrusted(&root, &file, &hook.event, &hook.command),
                _ => None,
            };
            found.push(match (ran, untrusted) {
                (Ok(detail), None) => Finding::ok(check, detail),
                (Ok(detail), Some((why, fix))) => {
                    Finding::warn(check, format!("{detail}; but {why}"), fix)
                }
                (Err(problem), _) => Finding::fail(check, problem, install.clone()),
            });
        }
    }
    found.push(hooks_log(store));
    found
}

/// What doctor knows of Codex's trust (see [`codex_trust`](crate::ops::agents::codex_trust)):
/// Codex's config as read, and relay's hook file, or why it cannot tell (and the fix).
struct CodexView {
    trust: Result<CodexTrust, (String, String)>,
    settings: serde_json::Value,
}

impl CodexView {
    fn read(setup: &Setup<'_>, file: &std::path::Path) -> CodexView {
        let cannot = |why: String, fix: &str| {
            let why = format!("relay cannot tell whether Codex trusts it: {why}");
            (why, fix.to_string())
        };
        let trust = match &setup.codex_home {
            None => Err(cannot(
                "neither CODEX_HOME nor HOME is set".into(),
                "set CODEX_HOME to Codex's folder, then run `relay doctor` again",
            )),
            Some(home) => CodexTrust::read(home)
                .map_err(|e| cannot(e, "fix Codex's config.toml, then run `relay doctor` again")),
        };
        let settings = crate::ops::agents::agent_files::read_json(file)
            .ok()
            .flatten()
            .unwrap_or_default();
        CodexView { trust, settings }
    }

    /// Why Codex will not run the hook running `command` at `event`, and what to do; `None`
    /// when Codex runs it.
    fn untrusted(
        &self,
        root: &std::path::Path,
        file: &std::path::Path,
        event: &str,
        command: &str,
    ) -> Option<(String, String)> {
        let trust = match &self.trust {
            Ok(trust) => trust,
            Err(cannot) => return Some(cannot.clone()),
        };
        let review = "run `codex` in this repository and choose \"Trust all and continue\" at \
                      \"Hooks need review\" (or type /hooks, then t); Codex asks again whenever \
                      a hook's command changes";
        let config = trust.config.display();
        match trust.judge(root, file, &self.settings, event, command) {
            HookTrust::Trusted => None,
            HookTrust::ProjectUntrusted => Some((
                format!(
                    "Codex runs no hook of this repository: {config} does not trust {} \
                     (untrusted hooks are dropped without a word)",
                    root.display()
                ),
                format!(
                    "run `codex` in {} and trust the project when it asks; then {review}",
                    root.display()
                ),
            )),
            HookTrust::NeedsReview => Some((
                format!(
                    "Codex has not trusted this hook as it is now (new or changed since its \
                     review; {config} holds no matching trusted_hash), so Codex drops it"
                ),
                review.to_string(),
            )),
            HookTrust::Outside => Some((
                "Codex runs only hooks inside an event's `hooks` list".into(),
                "relay hook install --codex".into(),
            )),
        }
    }
}

/// Whether OpenCode's plugin at `file` parses as the JavaScript module it must be, read by
/// node's own parser (`node --check`, the source on stdin, so nothing of it runs); `None`
/// when it does, or when there is no node to ask.
fn plugin_problem(setup: &Setup<'_>, scratch: &Scratch, file: &std::path::Path) -> Option<String> {
    let node = locate("node", setup.path.as_ref()).ok()?;
    let source = std::fs::read(file).ok()?;
    let mut check = scratch.command(node);
    check.args(["--input-type=module", "--check"]);
    let ran = process::run(check, &source, process::HOOK_LIMIT).ok()?;
    if ran.succeeded() {
        return None;
    }
    let said = ran
        .stderr
        .lines()
        .find(|l| l.contains("Error"))
        .unwrap_or("")
        .trim();
    let at = ran.stderr.lines().next().unwrap_or("").trim();
    Some(format!(
        "the plugin is not JavaScript OpenCode can load ({said}{})",
        at.strip_prefix("[stdin]")
            .map_or(String::new(), |line| format!(
                ", at line {}",
                line.trim_start_matches(':')
            ))
    ))
}

/// Runs one installed hook as the agent would; what it gave, or what is wrong.
fn try_hook(
    setup: &Setup<'_>,
    scratch: &Scratch,
    agent: AgentFile,
    event: &str,
    command: &str,
) -> Result<String, String> {
    if !relay_shaped(command) {
        return Err(format!(
            "`{command}` is not a command relay writes (PROGRAM hook run EVENT --agent NAME \
             [--max-chars N]); doctor runs only relay's own hook commands"
        ));
    }
    let program = program_of(command);
    locate(&program, setup.path.as_ref())
        .map_err(|why| format!("the hook runs {program}, {why}"))?;
    let input = agent.sample_event(event, PROBE_SESSION, &scratch.work);
    let mut sh = scratch.command("sh");
    sh.arg("-c").arg(command);
    let ran = process::run(sh, input.to_string().as_bytes(), process::HOOK_LIMIT)?;
    judge(agent, event, command, &ran)
}

/// Whether `command` is one relay writes into an agent's file, and nothing more: the program
/// (one word, or one single-quoted word), then `hook run EVENT --agent NAME`, and perhaps
/// `--max-chars N`. The doctor runs the commands of files a clone may have brought, so it
/// runs none that could do anything else.
fn relay_shaped(command: &str) -> bool {
    let plain = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    };
    let rest = match command.strip_prefix('\'') {
        Some(quoted) => match quoted.find("' ") {
            Some(end) if !quoted[..end].contains('\n') => &quoted[end + 2..],
            _ => return false,
        },
        None => match command.split_once(' ') {
            Some((program, rest))
                if program.chars().all(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '+' | '@')
                }) =>
            {
                rest
            }
            _ => return false,
        },
    };
    let words: Vec<&str> = rest.split(' ').collect();
    match words.as_slice() {
        ["hook", "run", event, "--agent", name] => plain(event) && plain(name),
        ["hook", "run", event, "--agent", name, "--max-chars", n] => {
            plain(event) && plain(name) && !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
        }
        _ => false,
    }
}

/// What the agent makes of a hook that ran: what it gave, or what is wrong.
fn judge(agent: AgentFile, event: &str, command: &str, ran: &Ran) -> Result<String, String> {
    if !ran.succeeded() {
        return Err(format!(
            "`{command}` exited {}{}",
            ran.status.map_or("by a signal".into(), |c| c.to_string()),
            match ran.said() {
                s if s.is_empty() => String::new(),
                s => format!(": {s}"),
            }
        ));
    }
    let context = agent
        .context_in_output(event, &ran.stdout)
        .map_err(|why| format!("the agent would reject its output: {why}"))?;
    let limit = agent.output_limit();
    match (event, context) {
        ("SessionStart", None) => Err("it gave the agent no briefing".into()),
        ("SessionStart", Some(c)) if c.trim().is_empty() => {
            Err("it gave the agent an empty briefing".into())
        }
        (_, Some(c)) if c.chars().count() > limit => Err(format!(
            "it gave {} characters, past {}",
            c.chars().count(),
            agent.output_limit_named()
        )),
        (_, Some(c)) => Ok(format!(
            "ran with the agent's event: a briefing of {} characters, within {}",
            c.chars().count(),
            agent.output_limit_named()
        )),
        (_, None) => Ok("ran with the agent's event: exit 0".into()),
    }
}

/// The lines of the hooks log written in the [`RECENT`] past before `now` (each starts with
/// its time).
fn recent_lines(text: &str, now: relay_wire::time::Timestamp) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            let when = l.split_whitespace().next().unwrap_or_default();
            relay_wire::time::parse(when)
                .is_ok_and(|t| (now - t).to_std().is_ok_and(|age| age < RECENT))
        })
        .collect()
}

/// Problems `relay hook run` logged in the last day.
fn hooks_log(store: &Store) -> Finding {
    const CHECK: &str = "hooks log";
    let path = store.local_path(LOG_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Finding::ok(CHECK, "no hook has logged a problem");
    };
    let recent = recent_lines(&text, relay_wire::time::now());
    match recent.last() {
        None => Finding::ok(CHECK, "no hook logged a problem in the last day"),
        Some(last) => Finding::warn(
            CHECK,
            format!(
                "{} in the last day; the latest: {}",
                relay_wire::text::count(recent.len(), "problem"),
                relay_wire::text::clean_line(last)
            ),
            format!("read {} for what the hooks could not do", path.display()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ran(status: i32, stdout: &str, stderr: &str) -> Ran {
        Ran {
            status: Some(status),
            stdout: stdout.into(),
            stderr: stderr.into(),
        }
    }

    #[test]
    fn only_commands_of_relays_shape_are_run() {
        for ok in [
            "relay hook run SessionStart --agent claude --max-chars 9000",
            "'/o p/relay' hook run Stop --agent opencode",
            "/usr/local/bin/relay hook run sessionStart --agent cursor",
        ] {
            assert!(relay_shaped(ok), "{ok}");
        }
        for bad in [
            "relay hook run SessionStart --agent claude --max-chars 9000; echo nope",
            "curl x | sh # hook run a --agent b",
            "relay hook run $(id) --agent claude",
            "'/x' ; rm -rf / ' hook run A --agent b",
            "relay hook run A --agent b && true",
        ] {
            assert!(!relay_shaped(bad), "{bad}");
        }
    }

    #[test]
    fn the_agent_judges_exit_output_and_size() {
        let judge = |event, r: &Ran| judge(AgentFile::Claude, event, "relay hook run", r);
        let brief = |n: usize| {
            crate::ops::agents::session::context_output(
                crate::ops::agents::session::Agent::Claude,
                &"x".repeat(n),
            )
        };
        assert_eq!(
            judge("SessionStart", &ran(0, &brief(100), "")),
            Ok(
                "ran with the agent's event: a briefing of 100 characters, within the 10000 Claude Code keeps"
                    .into()
            )
        );
        assert_eq!(
            judge("SessionStart", &ran(0, &brief(10_001), "")),
            Err("it gave 10001 characters, past the 10000 Claude Code keeps".into())
        );
        assert_eq!(
            judge("SessionStart", &ran(0, "", "")),
            Err("it gave the agent no briefing".into())
        );
        assert_eq!(
            judge("Stop", &ran(127, "", "sh: 1: relay: not found\n")),
            Err("`relay hook run` exited 127: sh: 1: relay: not found".into())
        );
        assert!(
            judge("Stop", &ran(0, "nope", ""))
                .unwrap_err()
                .starts_with("the agent would reject its output")
        );
        assert_eq!(
            judge("Stop", &ran(0, "", "")),
            Ok("ran with the agent's event: exit 0".into())
        );
    }

    #[test]
    fn only_the_last_days_lines_of_the_hooks_log_count() {
        let now = relay_wire::time::parse("2026-11-26T12:00:00Z").unwrap();
        let log = "2026-11-24T12:00:00Z SessionStart --agent claude: old\n\
                   2026-11-26T11:00:00Z Stop --agent codex: lock timeout\n\
                   not a line of the log\n";
        assert_eq!(
            recent_lines(log, now),
            ["2026-11-26T11:00:00Z Stop --agent codex: lock timeout"]
        );
    }
}
