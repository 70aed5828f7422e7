//! `relay hook install|uninstall --claude|--codex` and `relay hook run`: the installed commands
//! are read back from the agents' JSON files and run through `sh -c` with each event's
//! documented stdin, in a real git repository (Gemini CLI, Cursor and OpenCode: `more_agents`).

use serde_json::{Value, json};

use crate::harness::{Env, Run, read};
use crate::hooks::{git, repo};

/// The command relay installed for `event` in the hook file at `rel`.
fn installed(env: &Env, rel: &str, event: &str) -> String {
    let v: Value = serde_json::from_str(&read(&env.path(rel))).unwrap();
    let groups = v["hooks"][event]
        .as_array()
        .unwrap_or_else(|| panic!("no {event} in {v}"));
    let hook = &groups.last().unwrap()["hooks"][0];
    assert_eq!(hook["type"], "command");
    // Codex cuts a SessionEnd hook to 3 s, warning in every session about a longer timeout.
    let codex_end = rel == ".codex/hooks.json" && event == "SessionEnd";
    assert_eq!(hook["timeout"], if codex_end { 3 } else { 15 });
    hook["command"].as_str().unwrap().to_string()
}

/// Runs a hook command as the agent does: `sh -c COMMAND`, the event's JSON on stdin.
pub fn fire(env: &Env, command: &str, input: &[u8]) -> Run {
    let r = Env::piped(env.program("sh", &["-c", command]), input);
    assert_eq!(r.code, 0, "{command}: {}", r.stderr);
    assert_eq!(r.stderr, "", "{command} wrote on stderr");
    r
}

/// Claude Code's stdin for `event` (the common fields, then the event's own).
fn claude_event(env: &Env, session: &str, event: &str, extra: Value) -> Vec<u8> {
    let mut v = json!({
        "session_id": session,
        "transcript_path": env.dir.parent().unwrap().join("home/transcript.jsonl"),
        "cwd": env.dir,
        "permission_mode": "default",
        "hook_event_name": event,
    });
    v.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    v.to_string().into_bytes()
}

/// The context a SessionStart printed: exactly one line of the documented JSON.
fn context_of(r: &Run) -> String {
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["hookSpecificOutput"]);
    let out = v["hookSpecificOutput"].as_object().unwrap();
    assert_eq!(out.len(), 2, "{v}");
    assert_eq!(out["hookEventName"], "SessionStart");
    out["additionalContext"].as_str().unwrap().to_string()
}

pub fn packages(env: &Env) -> Vec<Value> {
    env.run(&["pull", "--latest", "1000", "--json"]).packages()
}

pub fn of_session<'a>(all: &'a [Value], session: &str, package_type: &str) -> Vec<&'a Value> {
    all.iter()
        .filter(|p| p["x-agent-session"] == session && p["package_type"] == package_type)
        .collect()
}

/// Enough significant work that the whole briefing runs past every agent's budget.
pub fn fill(env: &Env) {
    for i in 0..40 {
        let decision = format!(
            "Decision {i}: {}",
            "keep a window of recent work; ".repeat(4)
        );
        let question = format!("Question {i}: should the window grow with the store?");
        let extra = [
            "--decision",
            &decision,
            "--question",
            &question,
            "--significance",
            "9",
        ];
        env.deposit(&format!("Change {i}"), &extra);
    }
    assert!(env.ok(&["orient", "--md"]).chars().count() > 10_000);
}

fn transcript(env: &Env, prompts: &[&str]) {
    let lines: Vec<String> = prompts
        .iter()
        .map(|p| json!({"type": "user", "message": {"role": "user", "content": p}}).to_string())
        .collect();
    let path = env.dir.parent().unwrap().join("home/transcript.jsonl");
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn a_claude_session_is_briefed_checkpointed_and_deposited_once() {
    let Some(env) = repo() else { return };
    env.ok(&["hook", "install", "--claude"]);
    let settings = ".claude/settings.json";
    let [start, compact, stop, end] =
        ["SessionStart", "PreCompact", "Stop", "SessionEnd"].map(|e| installed(&env, settings, e));
    assert!(
        start.ends_with(" hook run SessionStart --agent claude --max-chars 9000"),
        "{start}"
    );
    assert!(
        end.ends_with(" hook run SessionEnd --agent claude"),
        "{end}"
    );

    let r = fire(
        &env,
        &start,
        &claude_event(
            &env,
            "s-1",
            "SessionStart",
            json!({"source": "startup", "model": "claude-sonnet-4-5"}),
        ),
    );
    assert!(context_of(&r).starts_with("# Orientation: demo (`demo`)\n"));

    transcript(&env, &["Fix the login\nbug", "Add a test for it"]);
    std::fs::write(env.path("login.rs"), "fn login() {}\n").unwrap();

    let r = fire(
        &env,
        &compact,
        &claude_event(
            &env,
            "s-1",
            "PreCompact",
            json!({"trigger": "auto", "custom_instructions": ""}),
        ),
    );
    assert_eq!(r.stdout, "");
    let all = packages(&env);
    let checkpoints = of_session(&all, "s-1", "x-checkpoint");
    assert_eq!(checkpoints.len(), 1, "{all:?}");
    let cp = checkpoints[0];
    assert_eq!(cp["x-working-on"], "Add a test for it");
    assert_eq!(
        cp["x-artifacts"],
        json!([".claude/settings.json", "login.rs"])
    );
    assert_eq!(cp["x-agent"], "claude");
    assert_eq!(cp["x-git"]["branch"], "main");
    assert_eq!(cp["created_by"]["type"], "agent");

    let r = fire(
        &env,
        &start,
        &claude_event(&env, "s-1", "SessionStart", json!({"source": "compact"})),
    );
    let context = context_of(&r);
    let lead = "## Where you left off (checkpoint before compaction)\n\n- Working on: Add a test for it\n- Branch: main, at commit ";
    assert!(context.starts_with(lead), "{context}");
    assert!(context.contains("- Changed, not committed: .claude/settings.json, login.rs\n"));
    assert!(context.contains("\n\n# Orientation: demo"));

    let before = packages(&env).len();
    for _ in 0..3 {
        let r = fire(
            &env,
            &stop,
            &claude_event(&env, "s-1", "Stop", json!({"stop_hook_active": false})),
        );
        assert_eq!(r.stdout, "");
    }
    assert_eq!(packages(&env).len(), before, "Stop deposits nothing");

    git(&env, &["add", "login.rs"]);
    git(&env, &["commit", "-q", "-m", "Add login"]);
    // Left uncommitted by the session (.claude/settings.json was so before it started).
    std::fs::write(env.path("todo.md"), "- more tests\n").unwrap();
    for _ in 0..2 {
        fire(
            &env,
            &end,
            &claude_event(
                &env,
                "s-1",
                "SessionEnd",
                json!({"reason": "prompt_input_exit"}),
            ),
        );
    }
    let all = packages(&env);
    let work = of_session(&all, "s-1", "auto_deposit");
    assert_eq!(work.len(), 1, "deposited once: {all:?}");
    let p = work[0];
    assert_eq!(
        p["title"],
        "Claude Code session on main: 1 commit, 1 file uncommitted"
    );
    let description = p["description"].as_str().unwrap();
    assert!(
        description.starts_with(
            "Last prompt: Add a test for it\n\nSession s-1 (Claude Code), 3 turns from "
        ),
        "{description}"
    );
    assert!(description.contains("\nCommits since the session started:\n- "));
    assert!(
        description.ends_with(" Add login\n\nNot committed:\n?? todo.md"),
        "{description}"
    );
    assert_eq!(p["deliverables"][0]["path"], "todo.md");
    // The run is noted as ended, so a repeated end deposits nothing more.
    let notes: Vec<Value> = env
        .store()
        .join("local/agent-sessions")
        .read_dir()
        .unwrap()
        .map(|e| serde_json::from_str(&read(&e.unwrap().path())).unwrap())
        .collect();
    assert_eq!(notes.len(), 1);
    assert!(notes[0]["ended_at"].is_string(), "{notes:?}");
    assert!(!env.store().join("local/hooks.log").exists());
}

#[test]
fn a_session_that_did_nothing_deposits_nothing() {
    let Some(env) = repo() else { return };
    let start = "relay hook run SessionStart --agent claude";
    let relay = env!("CARGO_BIN_EXE_relay");
    let start = start.replace("relay", &format!("'{relay}'"));
    let end = start.replace("SessionStart", "SessionEnd");
    fire(
        &env,
        &start,
        &claude_event(&env, "idle", "SessionStart", json!({"source": "startup"})),
    );
    fire(
        &env,
        &end,
        &claude_event(&env, "idle", "SessionEnd", json!({"reason": "clear"})),
    );
    assert!(of_session(&packages(&env), "idle", "auto_deposit").is_empty());
    // Whatever the tree held changed when the session started: a file an earlier session
    // left is not this one's work, unless it changes it again.
    std::fs::write(env.path("left.txt"), "an earlier session's file\n").unwrap();
    let session = |id: &str, touch: bool| {
        fire(
            &env,
            &start,
            &claude_event(&env, id, "SessionStart", json!({"source": "startup"})),
        );
        if touch {
            std::fs::write(env.path("left.txt"), "changed again\n").unwrap();
        }
        fire(
            &env,
            &end,
            &claude_event(&env, id, "SessionEnd", json!({"reason": "clear"})),
        );
        let all = packages(&env);
        of_session(&all, id, "auto_deposit")
            .iter()
            .map(|p| p["title"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(session("idle-in-a-dirty-tree", false), Vec::<String>::new());
    assert_eq!(
        session("changes-it-again", true),
        ["Claude Code session on main: 0 commits, 1 file uncommitted"]
    );
}

/// `claude --resume`, `codex exec resume`, `gemini --resume`: the same session id starts again
/// after its end. Found inside each of the three agents, where the work after the resume was
/// never deposited (the package of the first run held its id).
#[test]
fn a_resumed_session_deposits_the_work_of_each_run_once() {
    let Some(env) = repo() else { return };
    let relay = env!("CARGO_BIN_EXE_relay");
    let start = format!("'{relay}' hook run SessionStart --agent claude");
    let end = start.replace("SessionStart", "SessionEnd");
    let run = |source: &str, file: &str| {
        fire(
            &env,
            &start,
            &claude_event(&env, "s-resumed", "SessionStart", json!({"source": source})),
        );
        std::fs::write(env.path(file), "work\n").unwrap();
        // Every `claude -p` exit ends the session; so may a hook listed twice.
        for _ in 0..2 {
            fire(
                &env,
                &end,
                &claude_event(&env, "s-resumed", "SessionEnd", json!({"reason": "other"})),
            );
        }
    };
    run("startup", "login.rs");
    run("resume", "login_test.rs");
    let all = packages(&env);
    let mut files: Vec<Vec<&str>> = of_session(&all, "s-resumed", "auto_deposit")
        .iter()
        .map(|p| {
            let d = p["deliverables"].as_array().unwrap();
            d.iter().map(|d| d["path"].as_str().unwrap()).collect()
        })
        .collect();
    files.sort();
    // The second run's package holds its own work: login.rs was there when it started.
    assert_eq!(files, [vec!["login.rs"], vec!["login_test.rs"]]);
    assert!(!env.store().join("local/hooks.log").exists());
}

#[test]
fn a_crashed_session_is_deposited_once_at_a_later_start() {
    let Some(env) = repo() else { return };
    env.ok(&["hook", "install", "--claude"]);
    let settings = ".claude/settings.json";
    let [start, stop] = ["SessionStart", "Stop"].map(|e| installed(&env, settings, e));
    fire(
        &env,
        &start,
        &claude_event(
            &env,
            "crashed",
            "SessionStart",
            json!({"source": "startup"}),
        ),
    );
    std::fs::write(env.path("half.txt"), "half done\n").unwrap();
    fire(
        &env,
        &stop,
        &claude_event(&env, "crashed", "Stop", json!({})),
    );
    // A session seen a minute ago may still be running beside the next one: left alone.
    fire(
        &env,
        &start,
        &claude_event(&env, "next", "SessionStart", json!({"source": "startup"})),
    );
    assert!(of_session(&packages(&env), "crashed", "auto_deposit").is_empty());
    // Two hours later it is over.
    let dir = env.store().join("local/agent-sessions");
    for entry in dir.read_dir().unwrap() {
        let path = entry.unwrap().path();
        let mut state: Value = serde_json::from_str(&read(&path)).unwrap();
        if state["session_id"] == "crashed" {
            state["last_seen"] = json!("2020-01-01T00:00:00Z");
            std::fs::write(&path, state.to_string()).unwrap();
        }
    }
    for session in ["later", "later still"] {
        let r = fire(
            &env,
            &start,
            &claude_event(&env, session, "SessionStart", json!({"source": "startup"})),
        );
        context_of(&r);
    }
    let all = packages(&env);
    let work = of_session(&all, "crashed", "auto_deposit");
    assert_eq!(work.len(), 1, "{all:?}");
    assert_eq!(
        work[0]["title"], "Claude Code session on main: 0 commits, 1 file uncommitted",
        "half.txt; .claude/settings.json was uncommitted before it started"
    );
    assert!(of_session(&all, "next", "auto_deposit").is_empty());
}

#[test]
fn codex_hooks_run_its_events_and_brief_within_its_budget() {
    let Some(env) = repo() else { return };
    let out = env.ok(&["hook", "install", "--codex"]);
    assert!(out.contains(".codex/hooks.json Stop: `"), "{out}");
    // What Codex needs before it runs them, said at install.
    assert!(
        out.contains("Codex runs these hooks only in a trusted project")
            && out.contains("\"Trust all and continue\""),
        "{out}"
    );
    let file: Value = serde_json::from_str(&read(&env.path(".codex/hooks.json"))).unwrap();
    let events: Vec<&String> = file["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(events, ["SessionStart", "PreCompact", "Stop", "SessionEnd"]);
    let [start, compact, stop, end] = ["SessionStart", "PreCompact", "Stop", "SessionEnd"]
        .map(|e| installed(&env, ".codex/hooks.json", e));
    assert!(
        start.ends_with(" --agent codex --max-chars 8000"),
        "{start}"
    );
    fill(&env);
    let whole = env.ok(&["orient", "--md"]);
    assert!(whole.chars().count() > 9_000, "the store needs trimming");
    let codex = |event: &str, extra: Value| {
        let mut v = json!({"session_id": "019a-codex", "transcript_path": null, "cwd": env.dir,
            "hook_event_name": event, "model": "gpt-5-codex", "permission_mode": "default"});
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        v.to_string().into_bytes()
    };
    let r = fire(
        &env,
        &start,
        &codex("SessionStart", json!({"source": "startup"})),
    );
    let context = context_of(&r);
    assert!(context.starts_with("# Orientation: demo"));
    let n = context.chars().count();
    assert!((7_000..=8_000).contains(&n), "{n} chars");
    fire(
        &env,
        &stop,
        &codex(
            "Stop",
            json!({"turn_id": "t1", "stop_hook_active": false, "last_assistant_message": "done"}),
        ),
    );
    fire(
        &env,
        &compact,
        &codex("PreCompact", json!({"turn_id": "t1", "trigger": "manual"})),
    );
    let all = packages(&env);
    let cp = of_session(&all, "019a-codex", "x-checkpoint");
    assert_eq!(cp.len(), 1);
    assert_eq!(cp[0]["x-working-on"], "Codex session 019a-codex on main");
    let r = fire(
        &env,
        &start,
        &codex("SessionStart", json!({"source": "compact"})),
    );
    let context = context_of(&r);
    assert!(context.starts_with("## Where you left off (checkpoint before compaction)\n\n- Working on: Codex session 019a-codex on main\n"));
    assert!(context.chars().count() <= 8_000);
    // Codex's SessionEnd (reason "other", as Codex 0.171 sends it) deposits the session's
    // work at once, not an hour later: here, a commit.
    std::fs::write(env.path("codex.txt"), "made in the session\n").unwrap();
    git(&env, &["add", "codex.txt"]);
    git(&env, &["commit", "-q", "-m", "Work in a Codex session"]);
    let started = std::time::Instant::now();
    fire(&env, &end, &codex("SessionEnd", json!({"reason": "other"})));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "Codex gives it 3 s"
    );
    let all = packages(&env);
    let deposited = of_session(&all, "019a-codex", "auto_deposit");
    assert_eq!(deposited.len(), 1, "{deposited:?}");
    assert!(
        deposited[0]["title"]
            .as_str()
            .unwrap()
            .starts_with("Codex session on main: 1 commit"),
        "{}",
        deposited[0]["title"]
    );
    // Claude Code's budget, through --max-chars as installed.
    let claude = env!("CARGO_BIN_EXE_relay").to_string();
    let claude = format!("'{claude}' hook run SessionStart --agent claude --max-chars 9000");
    let r = fire(
        &env,
        &claude,
        &claude_event(&env, "c", "SessionStart", json!({"source": "startup"})),
    );
    let n = context_of(&r).chars().count();
    assert!((8_000..=9_000).contains(&n), "{n} chars");
}

#[test]
fn bad_stdin_exits_0_quietly_and_is_logged() {
    let Some(env) = repo() else { return };
    env.ok(&["hook", "install", "--claude"]);
    let start = installed(&env, ".claude/settings.json", "SessionStart");
    let stop = installed(&env, ".claude/settings.json", "Stop");
    assert_eq!(fire(&env, &start, b"not json").stdout, "");
    assert_eq!(fire(&env, &stop, b"").stdout, "");
    assert_eq!(fire(&env, &stop, b"{\"cwd\": \"/\"}").stdout, "");
    let log = read(&env.store().join("local/hooks.log"));
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 3, "{log}");
    assert!(lines[0].ends_with(" SessionStart --agent claude: stdin is not the event's JSON (expected ident at line 1 column 2)"), "{log}");
    assert!(
        lines[1].ends_with(
            " Stop --agent claude: stdin was empty: the agent sends the event as a JSON object"
        ),
        "{log}"
    );
    assert!(
        lines[2]
            .ends_with(" Stop --agent claude: the event has no `session_id` (a non-empty string)"),
        "{log}"
    );
    assert!(lines[0].starts_with("20") && lines[0].as_bytes()[10] == b'T');
}

#[test]
fn a_secret_in_the_last_prompt_is_never_stored() {
    let Some(env) = repo() else { return };
    let relay = env!("CARGO_BIN_EXE_relay");
    let compact = format!("'{relay}' hook run PreCompact --agent claude");
    transcript(&env, &["Deploy with AKIAIOSFODNN7EXAMPLE please"]);
    let r = fire(
        &env,
        &compact,
        &claude_event(&env, "leak", "PreCompact", json!({"trigger": "manual"})),
    );
    assert_eq!(r.stdout, "");
    assert!(of_session(&packages(&env), "leak", "x-checkpoint").is_empty());
    let log = read(&env.store().join("local/hooks.log"));
    assert!(
        log.contains(" PreCompact --agent claude: ") && !log.contains("AKIAIOSFODNN7EXAMPLE"),
        "{log}"
    );
    let grep = env
        .program("grep", &["-rq", "AKIAIOSFODNN7EXAMPLE", ".relay"])
        .status()
        .unwrap();
    assert_eq!(grep.code(), Some(1), "the key is nowhere in the store");
}

#[test]
fn a_hook_that_cannot_finish_gives_up_after_10_seconds_with_exit_0() {
    let Some(env) = repo() else { return };
    // An agent that never closes stdin: the event never arrives.
    let mut child = env
        .command(&["hook", "run", "SessionStart", "--agent", "claude"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let held = child.stdin.take();
    let started = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    let took = started.elapsed().as_secs_f64();
    drop(held);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    assert!((10.0..14.0).contains(&took), "{took} s");
    let log = read(&env.store().join("local/hooks.log"));
    assert!(log.trim_end().ends_with(" SessionStart --agent claude: gave up after 10 s; nothing was added to the agent's context"), "{log}");
}

#[test]
fn installing_twice_changes_no_byte_and_uninstall_restores() {
    let Some(env) = repo() else { return };
    // Someone's settings, in their own layout, with the entries an earlier relay installed.
    let settings = env.path(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let theirs = "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo bye\"}]}]\n    }\n}\n";
    let legacy = json!({"model": "opus", "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "echo bye"}]},
                 {"hooks": [{"type": "command", "command": "relay deposit --auto --quiet"}]}],
        "SessionStart": [{"hooks": [{"type": "command", "command": "relay orient --md"}]}]}});
    std::fs::write(&settings, serde_json::to_string_pretty(&legacy).unwrap()).unwrap();
    env.ok(&["hook", "install", "--claude"]);
    let once = read(&settings);
    let v: Value = serde_json::from_str(&once).unwrap();
    assert_eq!(v["model"], "opus");
    assert_eq!(v["hooks"]["Stop"].as_array().unwrap().len(), 2);
    assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "echo bye");
    assert_eq!(
        v["hooks"]["SessionStart"].as_array().unwrap().len(),
        1,
        "the old entry is upgraded"
    );
    assert!(!once.contains("orient --md") && !once.contains("deposit --auto"));
    assert_eq!(
        env.ok(&["hook", "install", "--claude"]),
        ".claude/settings.json: already installed\n"
    );
    assert_eq!(read(&settings), once, "byte-identical");
    env.ok(&["hook", "uninstall", "--claude"]);
    let back: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(
        back,
        json!({"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo bye"}]}]}})
    );

    // Settings relay never touched before come back byte for byte.
    std::fs::write(&settings, theirs).unwrap();
    env.ok(&["hook", "install", "--claude", "--codex"]);
    assert_eq!(
        env.ok(&["hook", "uninstall", "--claude", "--codex"]),
        ".claude/settings.json: restored as it was before relay\n.codex/hooks.json: removed (it held only relay's hooks)\n"
    );
    assert_eq!(read(&settings), theirs);
    assert!(!env.path(".codex").exists(), "relay created it");
    assert!(!env.path(".claude/settings.json.relay-backup").exists());
    assert_eq!(
        env.ok(&["hook", "uninstall", "--claude", "--codex"]),
        "Nothing to do.\n"
    );
    // A file relay cannot read is left alone.
    std::fs::write(&settings, "{ not json").unwrap();
    let r = env.run(&["hook", "install", "--claude"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("is not valid JSON"), "{}", r.stderr);
    assert_eq!(read(&settings), "{ not json");
}
