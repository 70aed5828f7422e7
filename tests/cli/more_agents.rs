//! `relay hook install|uninstall --gemini|--cursor|--opencode`: each agent's file is written
//! in its own shape, read back as the doctor reads it, and every installed command is fed the
//! JSON that agent documents for its event: the briefing comes back in the agent's shape and
//! within its limit, compaction leaves a checkpoint, and a session's work is deposited once.

use serde_json::{Value, json};

use crate::agent_hooks::{fill, fire, of_session, packages};
use crate::harness::{Env, read};
use crate::hooks::{git, repo};
use relay::ops::agents::hooks::AgentFile;

/// relay's command for the agent's `event`, as the agent's file holds it now.
fn command(env: &Env, file: AgentFile, event: &str) -> String {
    let hooks = file
        .installed(&env.dir)
        .unwrap()
        .expect("the file is there");
    let hook = hooks.iter().find(|h| h.event == event);
    hook.unwrap_or_else(|| panic!("no {event} in {hooks:?}"))
        .command
        .clone()
}

/// The briefing in `stdout`, read as `file`'s agent reads it, checked against its budget.
fn briefing(file: AgentFile, event: &str, stdout: &str, budget: usize) -> String {
    let context = file
        .context_in_output(event, stdout)
        .unwrap_or_else(|e| panic!("{file:?}: {e}: {stdout}"))
        .expect("a briefing");
    assert!(context.starts_with("# Orientation: demo"), "{context}");
    let n = context.chars().count();
    assert!(
        (budget - 1_000..=budget).contains(&n),
        "{file:?}: {n} chars"
    );
    assert!(n <= file.output_limit());
    context
}

/// Installs, checks that a second install changes no byte, and returns the file's text.
fn install_twice(env: &Env, flag: &str, shown: &str) -> String {
    let out = env.ok(&["hook", "install", flag]);
    assert!(out.starts_with(&format!("{shown} ")), "{out}");
    let once = read(&env.path(shown));
    assert_eq!(
        env.ok(&["hook", "install", flag]),
        format!("{shown}: already installed\n")
    );
    assert_eq!(read(&env.path(shown)), once, "byte-identical");
    once
}

/// The session's checkpoint after PreCompact: one, from this agent, listing the new file.
fn one_checkpoint(env: &Env, session: &str, agent: &str) {
    let all = packages(env);
    let checkpoints = of_session(&all, session, "x-checkpoint");
    assert_eq!(checkpoints.len(), 1, "{all:?}");
    assert_eq!(checkpoints[0]["x-agent"], agent);
    let artifacts = checkpoints[0]["x-artifacts"].as_array().unwrap();
    assert!(artifacts.contains(&json!("login.rs")), "{artifacts:?}");
}

/// Fires `end` twice after a commit: the session's work is one package, titled for `label`.
fn deposited_once(env: &Env, end: &str, input: &[u8], session: &str, label: &str) {
    git(env, &["add", "login.rs"]);
    git(env, &["commit", "-q", "-m", "Add login"]);
    for _ in 0..2 {
        assert_eq!(fire(env, end, input).stdout, "");
    }
    let all = packages(env);
    let work = of_session(&all, session, "auto_deposit");
    assert_eq!(work.len(), 1, "deposited once: {all:?}");
    let title = work[0]["title"].as_str().unwrap();
    assert!(
        title.starts_with(&format!("{label} session on main: 1 commit, ")),
        "{title}"
    );
    assert!(!env.store().join("local/hooks.log").exists());
}

/// An event's JSON: the agent's common fields, then the event's own.
fn with(mut common: Value, own: Value) -> Vec<u8> {
    let fields = own.as_object().unwrap().clone();
    common.as_object_mut().unwrap().extend(fields);
    common.to_string().into_bytes()
}

/// Uninstalling puts back the file as the user wrote it.
fn uninstall_restores(env: &Env, flag: &str, shown: &str, theirs: &str) {
    assert_eq!(
        env.ok(&["hook", "uninstall", flag]),
        format!("{shown}: restored as it was before relay\n")
    );
    assert_eq!(read(&env.path(shown)), theirs, "byte for byte");
}

/// Turns end quietly and deposit nothing.
fn turns_deposit_nothing(env: &Env, stop: &str, input: &[u8]) {
    let before = packages(env).len();
    for _ in 0..2 {
        assert_eq!(fire(env, stop, input).stdout, "");
    }
    assert_eq!(packages(env).len(), before);
}

#[test]
fn gemini_cli_is_briefed_checkpointed_and_deposited_once_and_its_settings_come_back() {
    let Some(env) = repo() else { return };
    let shown = ".gemini/settings.json";
    let theirs = "{\n  \"theme\": \"GitHub\",\n  \"hooks\": {\n    \"BeforeTool\": [{\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"./check.sh\"}]}]\n  }\n}\n";
    std::fs::create_dir_all(env.path(".gemini")).unwrap();
    std::fs::write(env.path(shown), theirs).unwrap();
    let text = install_twice(&env, "--gemini", shown);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["theme"], "GitHub");
    let events: Vec<&String> = v["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(
        events,
        [
            "BeforeTool",
            "SessionStart",
            "PreCompress",
            "AfterAgent",
            "SessionEnd"
        ]
    );
    let hook = &v["hooks"]["SessionStart"][0]["hooks"][0];
    assert_eq!(hook["type"], "command");
    assert_eq!(hook["timeout"], 15_000, "Gemini CLI counts milliseconds");
    let file = AgentFile::Gemini;
    let [start, compress, after, end] =
        ["SessionStart", "PreCompress", "AfterAgent", "SessionEnd"].map(|e| command(&env, file, e));
    assert!(start.ends_with(" hook run SessionStart --agent gemini --max-chars 9000"));

    fill(&env);
    // Gemini CLI's transcript: JSONL, messages without a role.
    let chat = env.dir.parent().unwrap().join("home/gemini-chat.jsonl");
    let say = |line: Value| {
        let mut text = std::fs::read_to_string(&chat).unwrap_or_default();
        text.push_str(&format!("{line}\n"));
        std::fs::write(&chat, text).unwrap();
    };
    say(json!({"sessionId": "g-1", "projectHash": "p", "startTime": "2026-11-26T12:00:00Z"}));
    say(json!({"id": "m1", "type": "user", "content": [{"text": "add login"}]}));
    // Gemini CLI's documented input: the common fields and each event's own.
    let event = |name: &str, own: Value| {
        let common = json!({"session_id": "g-1", "transcript_path": chat,
            "cwd": env.dir, "hook_event_name": name, "timestamp": "2026-11-26T12:00:00.000Z"});
        with(common, own)
    };
    let r = fire(
        &env,
        &start,
        &event("SessionStart", json!({"source": "startup"})),
    );
    assert_eq!(r.stdout.lines().count(), 1);
    briefing(file, "SessionStart", &r.stdout, 9_000);

    std::fs::write(env.path("login.rs"), "fn login() {}\n").unwrap();
    let turn = json!({"prompt": "add login", "prompt_response": "done", "stop_hook_active": false});
    // Gemini CLI fires PreCompress before every turn, before it checks the size: turns that
    // compress nothing make no checkpoint.
    for _ in 0..3 {
        let r = fire(
            &env,
            &compress,
            &event("PreCompress", json!({"trigger": "auto"})),
        );
        assert_eq!(r.stdout, "");
        fire(&env, &after, &event("AfterAgent", turn.clone()));
    }
    assert!(of_session(&packages(&env), "g-1", "x-checkpoint").is_empty());
    // A turn that compresses: the history comes back as a `$set` holding its snapshot.
    fire(
        &env,
        &compress,
        &event("PreCompress", json!({"trigger": "auto"})),
    );
    say(json!({"$set": {"messages": [
        {"id": "s1", "type": "user", "content": [{"text": "<state_snapshot>login</state_snapshot>"}]},
        {"id": "m1", "type": "user", "content": [{"text": "add login"}]}]}}));
    fire(&env, &after, &event("AfterAgent", turn.clone()));
    one_checkpoint(&env, "g-1", "gemini");
    let all = packages(&env);
    assert_eq!(
        of_session(&all, "g-1", "x-checkpoint")[0]["x-working-on"],
        "add login"
    );
    turns_deposit_nothing(&env, &after, &event("AfterAgent", turn));
    let end_input = event("SessionEnd", json!({"reason": "exit"}));
    deposited_once(&env, &end, &end_input, "g-1", "Gemini CLI");
    // /compress (trigger "manual") always compresses: its checkpoint is made at once.
    let manual = String::from_utf8(event("PreCompress", json!({"trigger": "manual"})))
        .unwrap()
        .replace("g-1", "g-2");
    fire(&env, &compress, manual.as_bytes());
    assert_eq!(of_session(&packages(&env), "g-2", "x-checkpoint").len(), 1);

    uninstall_restores(&env, "--gemini", shown, theirs);
}

#[test]
fn cursor_is_briefed_checkpointed_and_deposited_once_and_its_hooks_come_back() {
    let Some(env) = repo() else { return };
    let shown = ".cursor/hooks.json";
    let theirs =
        "{\"version\": 1, \"hooks\": {\"afterFileEdit\": [{\"command\": \"./format.sh\"}]}}\n";
    std::fs::create_dir_all(env.path(".cursor")).unwrap();
    std::fs::write(env.path(shown), theirs).unwrap();
    let text = install_twice(&env, "--cursor", shown);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(
        v["hooks"]["afterFileEdit"],
        json!([{"command": "./format.sh"}])
    );
    let entry = v["hooks"]["sessionStart"][0].as_object().unwrap();
    assert_eq!(
        entry.keys().collect::<Vec<_>>(),
        ["command"],
        "Cursor's flat entries"
    );
    let file = AgentFile::Cursor;
    let [start, compact, stop, end] =
        ["sessionStart", "preCompact", "stop", "sessionEnd"].map(|e| command(&env, file, e));
    assert!(start.ends_with(" hook run SessionStart --agent cursor --max-chars 8000"));

    fill(&env);
    // Cursor's documented input: `conversation_id` and the rest on every event.
    let event = |name: &str, own: Value| {
        let common = json!({"conversation_id": "c-1", "generation_id": "gen-1",
            "model": "gpt-5", "hook_event_name": name, "cursor_version": "2.0.77",
            "workspace_roots": [env.dir], "user_email": "ada@example.com",
            "transcript_path": null});
        with(common, own)
    };
    let started =
        json!({"session_id": "c-1", "is_background_agent": false, "composer_mode": "agent"});
    let r = fire(&env, &start, &event("sessionStart", started));
    assert_eq!(r.stdout.lines().count(), 1);
    let keys: Vec<String> = serde_json::from_str::<Value>(&r.stdout)
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["additional_context"]);
    briefing(file, "sessionStart", &r.stdout, 8_000);

    std::fs::write(env.path("login.rs"), "fn login() {}\n").unwrap();
    assert_eq!(
        fire(&env, &compact, &event("preCompact", json!({}))).stdout,
        ""
    );
    one_checkpoint(&env, "c-1", "cursor");
    let turn = json!({"status": "completed", "loop_count": 0});
    turns_deposit_nothing(&env, &stop, &event("stop", turn));
    let ended = json!({"session_id": "c-1", "reason": "completed", "duration_ms": 5505,
        "is_background_agent": false, "final_status": "completed"});
    deposited_once(&env, &end, &event("sessionEnd", ended), "c-1", "Cursor");

    uninstall_restores(&env, "--cursor", shown, theirs);
}

/// Cursor runs `.claude/settings.json`'s hooks too when its third-party hooks are on, every
/// matching hook of every source: with relay's hooks for both, a Cursor session would be
/// briefed twice. relay's Claude hooks stay quiet when Cursor runs them (its events carry
/// `cursor_version`) and relay's Cursor hooks are there; installing says what it found.
#[test]
fn cursor_with_claudes_hooks_too_is_briefed_once() {
    let Some(env) = repo() else { return };
    env.ok(&["hook", "install", "--claude"]);
    let out = env.ok(&["hook", "install", "--cursor"]);
    assert!(
        out.contains("found relay's hooks in .claude/settings.json too: Cursor also runs"),
        "{out}"
    );
    let claude = |event| command(&env, AgentFile::Claude, event);
    let cursor = |event| command(&env, AgentFile::Cursor, event);
    let event = |name: &str| {
        json!({"conversation_id": "c-2", "session_id": "c-2", "hook_event_name": name,
            "cursor_version": "2.0.77", "workspace_roots": [env.dir]})
        .to_string()
        .into_bytes()
    };
    // Both run at Cursor's session start; only Cursor's own briefs.
    assert_eq!(
        fire(&env, &claude("SessionStart"), &event("SessionStart")).stdout,
        ""
    );
    let r = fire(&env, &cursor("sessionStart"), &event("sessionStart"));
    assert!(r.stdout.contains("additional_context"), "{}", r.stdout);
    std::fs::write(env.path("login.rs"), "fn login() {}\n").unwrap();
    for (theirs, ours) in [("SessionEnd", "sessionEnd"), ("SessionEnd", "sessionEnd")] {
        fire(&env, &claude(theirs), &event(theirs));
        fire(&env, &cursor(ours), &event(ours));
    }
    let all = packages(&env);
    let work = of_session(&all, "c-2", "auto_deposit");
    assert_eq!(work.len(), 1, "{all:?}");
    assert_eq!(work[0]["x-agent"], "cursor");
    // Claude Code's own events are Claude's, whatever Cursor has installed.
    let own = json!({"session_id": "cc-1", "hook_event_name": "SessionStart", "source": "startup"});
    let r = fire(&env, &claude("SessionStart"), own.to_string().as_bytes());
    assert!(r.stdout.contains("additionalContext"), "{}", r.stdout);
    // Without relay's Cursor hooks, Cursor runs Claude's and is briefed by them.
    env.ok(&["hook", "uninstall", "--cursor"]);
    let r = fire(&env, &claude("SessionStart"), &event("SessionStart"));
    assert!(r.stdout.contains("additionalContext"), "{}", r.stdout);
    assert!(!env.store().join("local/hooks.log").exists());
}

#[test]
fn opencodes_plugin_runs_the_commands_it_lists_and_goes_when_uninstalled() {
    let Some(env) = repo() else { return };
    let shown = ".opencode/plugins/relay.js";
    let text = install_twice(&env, "--opencode", shown);
    assert!(text.starts_with("// installed by relay (relay hook install --opencode)"));
    let file = AgentFile::OpenCode;
    let events: Vec<String> = file
        .installed(&env.dir)
        .unwrap()
        .unwrap()
        .into_iter()
        .map(|h| h.event)
        .collect();
    assert_eq!(
        events,
        [
            "session.created",
            "experimental.session.compacting",
            "session.idle",
            "session.deleted"
        ]
    );
    let [created, compacting, idle, deleted] = [
        "session.created",
        "experimental.session.compacting",
        "session.idle",
        "session.deleted",
    ]
    .map(|e| command(&env, file, e));
    assert!(created.ends_with(" hook run SessionStart --agent opencode --max-chars 8000"));

    fill(&env);
    // OpenCode's bus events, as the plugin passes them on.
    let info = json!({"info": {"id": "ses_1", "projectID": "p", "directory": env.dir,
        "title": "New session", "version": "1.0.0", "time": {"created": 1, "updated": 1}}});
    let of = |name: &str, properties: &Value| {
        json!({"type": name, "properties": properties})
            .to_string()
            .into_bytes()
    };
    let id = json!({"sessionID": "ses_1"});
    let r = fire(&env, &created, &of("session.created", &info));
    briefing(file, "session.created", &r.stdout, 8_000);

    std::fs::write(env.path("login.rs"), "fn login() {}\n").unwrap();
    let r = fire(
        &env,
        &compacting,
        &of("experimental.session.compacting", &id),
    );
    assert_eq!(r.stdout, "");
    one_checkpoint(&env, "ses_1", "opencode");
    turns_deposit_nothing(&env, &idle, &of("session.idle", &id));
    let end = of("session.deleted", &info);
    deposited_once(&env, &deleted, &end, "ses_1", "OpenCode");

    load_the_plugin(&env, shown);

    assert_eq!(
        env.ok(&["hook", "uninstall", "--opencode"]),
        ".opencode/plugins/relay.js: removed (relay wrote it)\n"
    );
    assert!(!env.path(".opencode").exists(), "relay created it");
    assert_eq!(
        env.ok(&["hook", "uninstall", "--opencode"]),
        "Nothing to do.\n"
    );
}

/// Loads the plugin in node as OpenCode loads it, and plays a session through it: the
/// briefing lands in the session's system prompt, compaction checkpoints, and a subagent's
/// session runs nothing. Skipped, loudly, without node.
fn load_the_plugin(env: &Env, shown: &str) {
    if env.program("node", &["--version"]).output().is_err() {
        eprintln!("SKIPPED: node is not installed; the OpenCode plugin was not loaded");
        return;
    }
    // Node reads a `.mjs` file as an ES module, as OpenCode's Bun reads the `.js` one.
    let module = env.dir.parent().unwrap().join("home/relay.mjs");
    std::fs::copy(env.path(shown), &module).unwrap();
    let script = format!(
        "const {{ RelayPlugin }} = await import({module:?});
const hooks = await RelayPlugin({{ directory: {dir:?} }});
const info = {{ id: 'ses_node', directory: {dir:?} }};
await hooks.event({{ event: {{ type: 'session.created', properties: {{ info }} }} }});
const output = {{ system: ['You are OpenCode.', 'Here is some useful information about the environment you are running in:\\n<env>\\n  Working directory: /w\\n</env>'] }};
await hooks['experimental.chat.system.transform']({{ sessionID: 'ses_node' }}, output);
await hooks['experimental.session.compacting']({{ sessionID: 'ses_node' }}, {{ context: [] }});
const child = {{ id: 'ses_child', parentID: 'ses_node', directory: {dir:?} }};
await hooks.event({{ event: {{ type: 'session.created', properties: {{ info: child }} }} }});
await hooks['experimental.session.compacting']({{ sessionID: 'ses_child' }}, {{ context: [] }});
await hooks.event({{ event: {{ type: 'session.idle', properties: {{ sessionID: 'ses_node' }} }} }});
console.log(JSON.stringify(output.system));",
        module = module.display().to_string(),
        dir = env.dir.display().to_string(),
    );
    let node = env.program("node", &["--input-type=module", "-e", &script]);
    let r = Env::piped(node, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let system: Vec<String> = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(system.len(), 3, "{system:?}");
    assert!(
        system[2].starts_with("# Orientation: demo"),
        "{}",
        system[2]
    );
    let all = packages(env);
    assert_eq!(of_session(&all, "ses_node", "x-checkpoint").len(), 1);
    assert!(
        of_session(&all, "ses_child", "x-checkpoint").is_empty(),
        "a subagent's session is its parent's"
    );
}
