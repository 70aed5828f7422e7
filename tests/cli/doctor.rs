//! `relay doctor`: a healthy setup passes with every check ok or skipped, and each part broken
//! on purpose is named, with its fix and exit 5; the user's repository and store are left as
//! they were.
//!
//! The MCP check failing is not driven from here: `relay mcp` starts and lists its tools
//! whatever the store holds (a broken store only makes its tools fail), and the doctor starts
//! the binary that runs it, so no honest setup breaks it. The core's unit tests
//! (`ops::doctor::mcp`) feed it a server that exits, one that writes no JSON-RPC, and a
//! missing binary.

use serde_json::Value;

use crate::harness::{Env, json_snapshot, read, snapshot};
use crate::hooks::{git, repo};
use crate::search_semantic::test_model;

/// The integrity exit code a failed check gives.
const FAILED: i32 = 5;

/// A git repository with a store, relay's git hooks and Claude Code's hooks installed.
fn healthy() -> Option<Env> {
    let env = repo()?;
    env.ok(&["hook", "install", "--git", "--claude"]);
    Some(env)
}

/// `relay doctor --json ARGS`: its exit code and the object it printed.
pub fn doctor(env: &Env, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["doctor", "--json"];
    all.extend(args);
    let run = env.run(&all);
    (run.code, run.json())
}

/// The finding named `check`.
#[track_caller]
pub fn finding<'a>(report: &'a Value, check: &str) -> &'a Value {
    let checks = report["checks"].as_array().unwrap();
    (checks.iter().find(|c| c["check"] == check))
        .unwrap_or_else(|| panic!("no check {check:?} in {report:#}"))
}

/// Asserts that doctor failed on `check` and no other, with a fix that contains `fix`; returns
/// the finding's detail.
#[track_caller]
fn fails_on(env: &Env, check: &str, fix: &str) -> String {
    let (code, report) = doctor(env, &[]);
    assert_eq!(code, FAILED, "{report:#}");
    assert_eq!(report["ok"], false);
    let f = finding(&report, check);
    assert_eq!(f["status"], "fail", "{report:#}");
    let shown = f["fix"].as_str().unwrap_or_default();
    assert!(shown.contains(fix), "fix {shown:?} lacks {fix:?}");
    f["detail"].as_str().unwrap().to_string()
}

/// Replaces `from` with `to` in the file at `rel`.
fn edit(env: &Env, rel: &str, from: &str, to: &str) {
    let path = env.path(rel);
    let text = read(&path);
    assert!(text.contains(from), "{rel} lacks {from:?}: {text}");
    std::fs::write(&path, text.replace(from, to)).unwrap();
}

/// The relay binary as the installed hooks name it.
fn installed_relay() -> String {
    format!(
        "'{}'",
        std::path::Path::new(crate::harness::BIN)
            .canonicalize()
            .unwrap()
            .display()
    )
}

/// Counts that vary with the build and the day (tools listed, a briefing's size) as `[N]`.
fn stable(mut report: Value) -> Value {
    for c in report["checks"].as_array_mut().unwrap() {
        let detail = c["detail"].as_str().unwrap().to_string();
        let mut words: Vec<&str> = detail.split(' ').collect();
        for i in 1..words.len() {
            let counted = ["characters", "characters,", "tools"].contains(&words[i]);
            if counted && words[i - 1].parse::<u64>().is_ok() {
                words[i - 1] = "[N]";
            }
        }
        c["detail"] = Value::String(words.join(" "));
    }
    report
}

#[test]
fn a_healthy_setup_passes_and_doctor_changes_nothing() {
    let Some(env) = healthy() else { return };
    let head = git(&env, &["rev-parse", "HEAD"]).stdout;
    let (code, report) = doctor(&env, &[]);
    assert_eq!(code, 0, "{report:#}");
    json_snapshot!("healthy", stable(report.clone()));
    for c in report["checks"].as_array().unwrap() {
        assert!(c["status"] == "ok" || c["status"] == "skip", "{c}");
    }
    // Nothing was committed, queued or written in the user's repository and store.
    assert_eq!(git(&env, &["rev-parse", "HEAD"]).stdout, head);
    let status = git(&env, &["status", "--porcelain"]).stdout;
    assert_eq!(String::from_utf8_lossy(&status), "?? .claude/\n");
    assert!(!env.path(".relay/local/pending").exists());
    let human = env.run(&["doctor"]);
    assert_eq!(human.code, 0);
    assert!(
        human
            .stdout
            .contains("ok   git hook pre-commit: the next probe commit")
    );
    assert!(
        human.stdout.ends_with("No check failed.\n"),
        "{}",
        human.stdout
    );
}

#[test]
fn without_relays_git_hooks_doctor_warns_once_and_passes() {
    let Some(env) = repo() else { return };
    let (code, report) = doctor(&env, &[]);
    assert_eq!(code, 0, "{report:#}");
    let f = finding(&report, "git hooks");
    assert_eq!(
        (&f["status"], &f["fix"]),
        (
            &Value::from("warn"),
            &Value::from("relay hook install --git")
        )
    );
    assert!(!report.to_string().contains("git hook post-commit"));
}

#[test]
fn codex_hooks_are_run_with_codexs_events() {
    let Some(env) = repo() else { return };
    env.ok(&["hook", "install", "--git", "--codex"]);
    // Each hook runs as Codex runs it, but Codex runs none of them until the user trusts the
    // project and reviews the hooks: a warning that says how, never "ok".
    let (code, report) = doctor(&env, &[]);
    assert_eq!(code, 0, "{report:#}");
    for event in ["SessionStart", "PreCompact", "Stop", "SessionEnd"] {
        let f = finding(&report, &format!("codex hook {event}"));
        assert_eq!(f["status"], "warn", "{f}");
        let detail = f["detail"].as_str().unwrap();
        assert!(detail.starts_with("ran with the agent's event"), "{detail}");
        assert!(
            detail.contains("; but Codex runs no hook of this repository:"),
            "{detail}"
        );
        assert!(
            f["fix"]
                .as_str()
                .unwrap()
                .contains("trust the project when it asks"),
            "{f}"
        );
    }
    assert_eq!(finding(&report, "claude hooks")["status"], "skip");
    // The project trusted, the hooks not yet reviewed.
    let codex = env.home.join(".codex");
    std::fs::create_dir_all(&codex).unwrap();
    let root = git(&env, &["rev-parse", "--show-toplevel"]).stdout;
    let root = String::from_utf8(root).unwrap();
    let trusted = format!("[projects.{:?}]\ntrust_level = \"trusted\"\n", root.trim());
    std::fs::write(codex.join("config.toml"), trusted).unwrap();
    let (_, report) = doctor(&env, &[]);
    let f = finding(&report, "codex hook Stop");
    assert_eq!(f["status"], "warn", "{f}");
    assert!(
        f["detail"]
            .as_str()
            .unwrap()
            .contains("Codex has not trusted this hook as it is now"),
        "{f}"
    );
    assert!(
        f["fix"]
            .as_str()
            .unwrap()
            .contains("Trust all and continue")
    );
    // A config Codex cannot read is said so.
    std::fs::write(codex.join("config.toml"), "[projects\n").unwrap();
    let (_, report) = doctor(&env, &[]);
    let f = finding(&report, "codex hook Stop");
    assert!(f["detail"].as_str().unwrap().contains("is not TOML"), "{f}");
}

#[test]
fn a_corrupted_store_line_fails_the_store_check() {
    let Some(env) = healthy() else { return };
    env.deposit("Kept", &[]);
    let log = env.package_lines_file();
    let mut text = read(&log);
    text.push_str("{\"not\": \"a package\"\n");
    std::fs::write(&log, text).unwrap();
    let detail = fails_on(&env, "store", "relay verify --fix");
    assert!(detail.starts_with("1 problem in "), "{detail}");
    let human = env.run(&["doctor"]);
    assert_eq!(human.code, FAILED);
    assert!(
        human.stdout.contains("FAIL store: 1 problem in"),
        "{}",
        human.stdout
    );
    assert!(
        human
            .stdout
            .contains("\n     fix: relay verify --fix cannot repair this line: remove it from "),
        "{}",
        human.stdout
    );
    assert!(human.stderr.contains("1 check failed"), "{}", human.stderr);
}

#[test]
fn a_deleted_git_hook_is_named_and_reinstalling_fixes_it() {
    let Some(env) = healthy() else { return };
    std::fs::remove_file(env.path(".git/hooks/post-merge")).unwrap();
    let detail = fails_on(&env, "git hook post-merge", "relay hook install --git");
    assert!(
        detail.ends_with(".git/hooks/post-merge is missing"),
        "{detail}"
    );
    env.ok(&["hook", "install", "--git"]);
    assert_eq!(doctor(&env, &[]).0, 0);
}

#[test]
fn a_git_hook_that_is_not_executable_is_named_with_chmod() {
    let Some(env) = healthy() else { return };
    let hook = env.path(".git/hooks/pre-commit");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o644)).unwrap();
    let detail = fails_on(&env, "git hook pre-commit", "chmod +x ");
    assert!(
        detail.ends_with("is not executable: git skips it"),
        "{detail}"
    );
}

#[test]
fn a_git_hook_whose_relay_is_gone_is_the_silent_failure_doctor_names() {
    let Some(env) = healthy() else { return };
    edit(
        &env,
        ".git/hooks/post-commit",
        &installed_relay(),
        "/old/path/relay",
    );
    let detail = fails_on(&env, "git hook post-commit", "relay hook install --git");
    assert_eq!(
        detail,
        "the hook runs /old/path/relay, which does not exist"
    );
    let (_, report) = doctor(&env, &[]);
    let pre = finding(&report, "git hook pre-commit");
    assert_eq!(pre["status"], "skip", "pre-commit is not blamed: {pre}");
}

#[test]
fn a_git_hook_that_runs_but_writes_nothing_is_named() {
    let Some(env) = healthy() else { return };
    // The hook is relay's and its relay exists, but it ends before the step that queues.
    edit(
        &env,
        ".git/hooks/post-commit",
        "# Records the commit",
        "exit 0\n# Records the commit",
    );
    let detail = fails_on(&env, "git hook post-commit", "relay hook install --git");
    assert_eq!(
        detail,
        "ran on a probe commit in a scratch clone but queued no record of it"
    );
}

#[test]
fn a_missing_merge_driver_is_named_with_its_fix() {
    let Some(env) = healthy() else { return };
    std::fs::remove_file(env.path(".relay/.gitattributes")).unwrap();
    let detail = fails_on(&env, "git merge driver", "relay init");
    assert!(detail.ends_with("/.relay/.gitattributes is missing: once that is committed, clones that both wrote conflict"), "{detail}");
    env.ok(&["init"]);
    assert_eq!(doctor(&env, &[]).0, 0);
    edit(&env, ".relay/.gitattributes", "*.ndjson merge=union\n", "");
    let detail = fails_on(
        &env,
        "git merge driver",
        "add the line `*.ndjson merge=union` to ",
    );
    assert!(
        detail.ends_with(".relay/.gitattributes does not name the union driver for the logs: clones without relay's driver would merge them with git's text merge, and conflict"),
        "{detail}"
    );
}

#[test]
fn an_override_of_the_store_logs_merge_is_named_with_the_path_it_hits() {
    let Some(env) = healthy() else { return };
    // An override for the project folders only: projects.ndjson still merges by line.
    let attributes = env.path(".git/info/attributes");
    let mut text = read(&attributes);
    text.push_str(".relay/projects/** merge=binary\n");
    std::fs::write(&attributes, text).unwrap();
    let detail = fails_on(
        &env,
        "git merge driver",
        "git check-attr -a -- .relay/projects/",
    );
    assert!(
        detail.starts_with("git would merge .relay/projects/")
            && detail.contains("with `merge=binary` instead of a union of lines"),
        "{detail}"
    );
    // relay's driver named, but not defined in this clone's config: git's text merge.
    std::fs::write(&attributes, ".relay/**/*.ndjson merge=relay\n").unwrap();
    git(&env, &["config", "--remove-section", "merge.relay"]);
    let detail = fails_on(&env, "git merge driver", "relay hook install --git");
    assert!(
        detail.contains("relay's driver, which this clone's git config does not define"),
        "{detail}"
    );
    env.ok(&["hook", "install", "--git"]);
    let (code, report) = doctor(&env, &[]);
    assert_eq!(code, 0, "{report:#}");
    let f = finding(&report, "git merge driver");
    assert!(
        f["detail"]
            .as_str()
            .unwrap()
            .contains("with relay's driver, each line once"),
        "{f}"
    );
}

/// A day as a developer has it: the git hooks and four agents' hooks installed, sessions of
/// each agent (one resumed, one that changed nothing) around commits, a branch merged, a
/// stash, an amended commit, and records waiting in the queue at the end; then doctor must give
/// a clean bill. (Codex's hooks are proven clean inside Codex, in tests/agents/codex.mjs: here
/// nothing trusts them, and doctor rightly warns.)
#[test]
fn doctor_is_clean_after_a_day_of_commits_and_agent_sessions() {
    let Some(env) = healthy() else { return };
    env.ok(&["hook", "install", "--gemini", "--cursor", "--opencode"]);
    git(&env, &["add", "-A", "--", "."]);
    git(&env, &["commit", "-q", "-m", "agents' hooks"]);
    let hook = |agent: &str, name: &str, event: Value| {
        let run = env.run_stdin(
            &["hook", "run", name, "--agent", agent],
            event.to_string().as_bytes(),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
    };
    let claude = |name: &str, session: &str, extra: Value| {
        let mut v =
            serde_json::json!({"session_id": session, "cwd": env.dir, "hook_event_name": name});
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        hook("claude", name, v)
    };
    let commit = |file: &str, message: &str| {
        std::fs::write(env.path(file), format!("{message}\n")).unwrap();
        git(&env, &["add", "-A", "--", "."]);
        git(&env, &["commit", "-q", "-m", message]);
    };
    // Morning: a Claude Code session with commits, resumed after lunch.
    claude(
        "SessionStart",
        "s-day",
        serde_json::json!({"source": "startup"}),
    );
    for n in 1..=3 {
        commit(&format!("work-{n}.txt"), &format!("work {n}"));
    }
    claude(
        "PreCompact",
        "s-day",
        serde_json::json!({"trigger": "auto"}),
    );
    claude(
        "SessionEnd",
        "s-day",
        serde_json::json!({"reason": "other"}),
    );
    claude(
        "SessionStart",
        "s-day",
        serde_json::json!({"source": "resume"}),
    );
    std::fs::write(env.path("notes.md"), "after lunch\n").unwrap();
    claude("Stop", "s-day", serde_json::json!({}));
    claude(
        "SessionEnd",
        "s-day",
        serde_json::json!({"reason": "other"}),
    );
    // A branch, merged back; a stash; an amended commit.
    git(&env, &["checkout", "-q", "-b", "feature"]);
    commit("feature.txt", "feature");
    git(&env, &["checkout", "-q", "main"]);
    commit("main.txt", "main moves on");
    git(&env, &["merge", "-q", "--no-edit", "feature"]);
    std::fs::write(env.path("main.txt"), "unfinished\n").unwrap();
    git(&env, &["stash", "-q"]);
    git(&env, &["stash", "pop", "-q"]);
    git(&env, &["add", "-A", "--", "."]);
    git(&env, &["commit", "-q", "--amend", "--no-edit"]);
    // Afternoon: Gemini CLI, Cursor and OpenCode sessions, one of them idle.
    let gemini = |name: &str, theirs: &str| {
        let v = serde_json::json!({"session_id": "g-1", "cwd": env.dir, "hook_event_name": theirs, "timestamp": "2026-11-30T15:00:00Z"});
        hook("gemini", name, v)
    };
    assert!(gemini("SessionStart", "SessionStart").contains("additionalContext"));
    commit("gemini.txt", "gemini's change");
    gemini("Stop", "AfterAgent");
    gemini("SessionEnd", "SessionEnd");
    // `relay hook run` takes relay's name for the event; the JSON carries Cursor's.
    let cursor = |name: &str, theirs: &str| {
        let v = serde_json::json!({"conversation_id": "c-1", "session_id": "c-1", "hook_event_name": theirs, "cursor_version": "2.0.77", "workspace_roots": [env.dir]});
        hook("cursor", name, v)
    };
    cursor("SessionStart", "sessionStart");
    cursor("Stop", "stop");
    cursor("SessionEnd", "sessionEnd");
    let opencode = |name: &str, event: &str| {
        let v = serde_json::json!({"type": event, "properties": {"sessionID": "ses_1", "info": {"id": "ses_1"}}});
        hook("opencode", name, v)
    };
    opencode("SessionStart", "session.created");
    std::fs::write(env.path("opencode.txt"), "left for tomorrow\n").unwrap();
    opencode("Stop", "session.idle");
    opencode("SessionEnd", "session.deleted");
    // The last commit's record and the sessions' wait in the queue, as after any commit.
    assert!(env.path(".relay/local/pending").exists());
    let sessions: Vec<Value> = crate::agent_hooks::packages(&env)
        .into_iter()
        .filter(|p| p["package_type"] == "auto_deposit" && p.get("x-agent").is_some())
        .collect();
    // Claude's two runs, Gemini's, OpenCode's; Cursor's session changed nothing of its own.
    assert_eq!(sessions.len(), 4, "{sessions:#?}");
    let (code, report) = doctor(&env, &[]);
    assert_eq!(code, 0, "{report:#}");
    for c in report["checks"].as_array().unwrap() {
        assert!(c["status"] == "ok" || c["status"] == "skip", "{c}");
    }
    for check in [
        "claude hook SessionStart",
        "gemini hook SessionStart",
        "cursor hook sessionStart",
        "opencode hook session.created",
    ] {
        assert_eq!(finding(&report, check)["status"], "ok");
    }
}

#[test]
fn conflict_markers_and_a_garbage_line_are_named_with_the_fix_that_works() {
    let Some(env) = healthy() else { return };
    env.deposit("Kept", &[]);
    let log = env.package_lines_file();
    let clean = read(&log);
    std::fs::write(
        &log,
        format!("<<<<<<< HEAD\n{clean}=======\n>>>>>>> other\n"),
    )
    .unwrap();
    fails_on(&env, "store", "relay resolve");
    // A line no repair can make whole, in the middle of the log.
    std::fs::write(&log, format!("{{\"cut\": \n{clean}")).unwrap();
    let detail = fails_on(
        &env,
        "store",
        "git log -p -- .relay/projects/demo/packages/",
    );
    assert!(detail.contains("corrupt_line"), "{detail}");
}

#[test]
fn claude_settings_that_are_not_json_fail_the_agent_check() {
    let Some(env) = healthy() else { return };
    std::fs::write(env.path(".claude/settings.json"), "{\"hooks\": ").unwrap();
    let detail = fails_on(&env, "claude hooks", "relay hook install --claude");
    assert!(detail.contains("is not valid JSON"), "{detail}");
}

#[test]
fn an_agent_hook_pointing_at_a_missing_relay_is_named() {
    let Some(env) = healthy() else { return };
    edit(
        &env,
        ".claude/settings.json",
        &installed_relay(),
        "/old/path/relay",
    );
    let detail = fails_on(
        &env,
        "claude hook SessionStart",
        "relay hook install --claude",
    );
    assert_eq!(
        detail,
        "the hook runs /old/path/relay, which does not exist"
    );
}

#[test]
fn an_agent_hook_that_does_more_than_relays_command_is_not_run() {
    let Some(env) = healthy() else { return };
    edit(
        &env,
        ".claude/settings.json",
        "--max-chars 9000",
        "--max-chars 9000; echo nope",
    );
    let detail = fails_on(
        &env,
        "claude hook SessionStart",
        "relay hook install --claude",
    );
    // A command that does more than relay's is not run at all: the doctor runs the commands of
    // files a clone may have brought. (The agent's judgement of output it would reject is
    // unit-tested in ops::doctor::agents.)
    assert!(detail.contains("is not a command relay writes"), "{detail}");
    assert!(!detail.contains("nope\n"), "{detail}");
}

#[test]
fn a_briefing_past_the_agents_limit_is_named() {
    let Some(env) = healthy() else { return };
    let value = "live and well ".repeat(30);
    for i in 0..30 {
        env.ok(&["facts", "assert", &format!("svc{i}"), "status", &value]);
    }
    // Someone raised the budget past what Claude Code keeps.
    edit(
        &env,
        ".claude/settings.json",
        "--max-chars 9000",
        "--max-chars 30000",
    );
    let detail = fails_on(
        &env,
        "claude hook SessionStart",
        "relay hook install --claude",
    );
    assert!(
        detail.ends_with("past the 10000 Claude Code keeps"),
        "{detail}"
    );
}

#[test]
fn the_model_check_says_how_far_its_vectors_cover_the_store_and_never_fails_on_them() {
    let Some(model) = test_model() else { return };
    let Some(env) = healthy() else { return };
    let mut config = read(&env.path(".relay/config.toml"));
    config.push_str(&format!(
        "\n[search]\nmodel = {:?}\n",
        model.display().to_string()
    ));
    std::fs::write(env.path(".relay/config.toml"), config).unwrap();
    env.deposit("Invoices are paid monthly", &[]);
    let detail = |env: &Env| {
        let (code, report) = doctor(env, &[]);
        assert_eq!(code, 0, "{report:#}");
        let f = finding(&report, "embedding model");
        assert_eq!(f["status"], "ok", "{f}");
        f["detail"].as_str().unwrap().to_string()
    };
    assert!(
        detail(&env).ends_with("no vectors yet (the first search by meaning makes them)"),
        "{}",
        detail(&env)
    );
    env.ok(&["search", "--mode", "semantic", "billing"]);
    assert!(
        detail(&env).ends_with("its vectors cover the one month of packages"),
        "{}",
        detail(&env)
    );
    // A vector file that says another model made it is never read: the next search makes it
    // again, and until then doctor says a month is left, without failing.
    let vectors = walk(&env.path(".relay/cache"), "vec");
    assert_eq!(vectors.len(), 1, "{vectors:?}");
    let bytes = std::fs::read(&vectors[0]).unwrap();
    let end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let mut header: Value = serde_json::from_slice(&bytes[..end]).unwrap();
    header["model"] = Value::from("another-model");
    let mut changed = serde_json::to_vec(&header).unwrap();
    changed.extend_from_slice(&bytes[end..]);
    std::fs::write(&vectors[0], changed).unwrap();
    assert!(
        detail(&env).ends_with("no vectors yet (the first search by meaning makes them)"),
        "{}",
        detail(&env)
    );
    env.ok(&["search", "--mode", "semantic", "billing"]);
    assert!(detail(&env).ends_with("its vectors cover the one month of packages"));
}

/// The files under `dir` whose extension is `ext`.
fn walk(dir: &std::path::Path, ext: &str) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(walk(&path, ext));
        } else if path.extension().is_some_and(|e| e == ext) {
            found.push(path);
        }
    }
    found
}

#[test]
fn a_server_that_answers_passes_and_one_that_does_not_is_named() {
    let Some(env) = healthy() else { return };
    let served = crate::serve::Served::start(&env, &[]);
    let (code, report) = doctor(&env, &["--server", &served.url]);
    assert_eq!(code, 0, "{report:#}");
    let f = finding(&report, "server");
    assert_eq!(
        f["detail"],
        format!("{} answers: protocol 0.1, level L3", served.url)
    );
    drop(served);
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let (code, report) = doctor(&env, &["--server", &url]);
    assert_eq!(code, FAILED);
    let f = finding(&report, "server");
    assert_eq!(f["status"], "fail");
    assert!(
        f["detail"].as_str().unwrap().contains("does not answer"),
        "{f}"
    );
    assert!(f["fix"].as_str().unwrap().contains("relay serve"), "{f}");
    let human = env.run(&["doctor", "--server", &url]);
    let at = human.stdout.find("FAIL server").unwrap();
    snapshot!("server_down", &human.stdout[at..]);
}

#[test]
fn without_a_store_doctor_says_to_init() {
    let env = Env::empty();
    let (code, report) = doctor(&env, &[]);
    assert_eq!(code, FAILED);
    assert_eq!(
        finding(&report, "store")["fix"].as_str().unwrap(),
        "relay init (or point at the store with --store DIR or RELAY_DIR)"
    );
}

#[test]
fn a_global_hooks_path_keeps_its_hooks_while_doctor_runs_copies() {
    // A global `core.hooksPath` names one absolute folder for every repository: relay's hooks
    // are installed there, and the scratch clone must run copies of them, never copy them onto
    // themselves (which empties them).
    let Some(env) = repo() else { return };
    let shared = env.dir.parent().unwrap().join("shared-hooks");
    let out = git(
        &env,
        &[
            "config",
            "--global",
            "core.hooksPath",
            shared.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{out:?}");
    env.ok(&["hook", "install", "--git"]);
    let hooks = ["post-commit", "post-merge", "post-rewrite", "pre-commit"];
    let texts = || hooks.map(|n| read(&shared.join(n)));
    let before = texts();
    assert!(before.iter().all(|t| t.contains("relay")), "{before:?}");
    let (code, report) = doctor(&env, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(finding(&report, "git hook post-commit")["status"], "ok");
    assert_eq!(texts(), before);
}
