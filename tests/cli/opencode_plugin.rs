//! relay's OpenCode plugin run by node as OpenCode 1.18 runs it: the module imported, its
//! handlers called with OpenCode's shapes. What OpenCode did to it in a real session: `opencode
//! session delete` published session.deleted without awaiting the handler and exited, so the
//! command got an empty stdin; and the briefing went into the title generator's request too.
//! Here the driver exits right after publishing, as OpenCode's CLI does. Without node the
//! test says so and checks nothing.
//!
//! What it proves and what it does not: the title request getting no briefing fails with the
//! plugin before the fix. The deletion does not: under node the asynchronous command of the
//! old plugin also got its whole stdin before the exit (the empty stdin was seen under
//! OpenCode's own runtime, Bun), so that half checks that the synchronous command gets the
//! event, not that the race is gone; the agent itself, in the harness issue 61 asks for, is
//! what will show that.

use crate::harness::{Env, read};

fn has_node() -> bool {
    std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The plugin relay installs, with each event's command replaced by `commands`, as a module
/// node loads.
fn plugin_with(env: &Env, commands: &[(&str, String)]) -> std::path::PathBuf {
    env.ok(&["hook", "install", "--opencode"]);
    let path = env.path(".opencode/plugins/relay.js");
    let text = read(&path);
    let (head, rest) = text.split_once("const relayHooks = [\n").unwrap();
    let (_, tail) = rest.split_once("\n];").unwrap();
    let entries: Vec<String> = commands
        .iter()
        .map(|(event, command)| {
            format!(
                "  {},",
                serde_json::json!({"event": event, "command": command})
            )
        })
        .collect();
    let text = format!(
        "{head}const relayHooks = [\n{}\n];{tail}",
        entries.join("\n")
    );
    // Node reads a `.mjs` file as an ES module, as OpenCode's Bun reads the `.js` one.
    let module = env.dir.parent().unwrap().join("home/relay-plugin.mjs");
    std::fs::write(&module, text).unwrap();
    module
}

#[test]
fn the_plugin_deposits_when_the_cli_deletes_and_briefs_only_the_conversation() {
    if !has_node() {
        eprintln!("SKIPPED: no node on PATH to load relay's OpenCode plugin");
        return;
    }
    let env = Env::new();
    let out = env.path("deleted.json");
    let plugin = plugin_with(
        &env,
        &[
            ("session.created", "printf 'THE BRIEFING'".to_string()),
            ("session.deleted", format!("cat > '{}'", out.display())),
        ],
    );
    let driver = format!(
        r#"
import {{ RelayPlugin }} from {plugin:?};
const p = await RelayPlugin({{ directory: {dir:?} }});
await p.event({{ event: {{ type: "session.created", properties: {{ info: {{ id: "ses_1" }} }} }} }});
const title = {{ system: ["You are a title generator. You output ONLY a thread title."] }};
await p["experimental.chat.system.transform"]({{ sessionID: "ses_1", model: {{}} }}, title);
const chat = {{ system: ["You are opencode, an agent.", "Here is some useful information about the environment you are running in:\n<env>\n  Working directory: /w\n</env>"] }};
await p["experimental.chat.system.transform"]({{ sessionID: "ses_1", model: {{}} }}, chat);
console.log(JSON.stringify({{ title: title.system, chat: chat.system.length, last: chat.system.at(-1) }}));
p.event({{ event: {{ type: "session.deleted", properties: {{ sessionID: "ses_1", info: {{ id: "ses_1" }} }} }} }});
process.exit(0);
"#,
        plugin = format!("file://{}", plugin.display()),
        dir = env.dir.display().to_string(),
    );
    let run = env
        .program("node", &["--input-type=module", "-e", &driver])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(
        seen["title"],
        serde_json::json!(["You are a title generator. You output ONLY a thread title."]),
        "no briefing in the title generator's request"
    );
    assert_eq!(seen["chat"], 3);
    assert_eq!(seen["last"], "THE BRIEFING");
    // The session's end got its whole event although the process exited at once.
    let got: serde_json::Value = serde_json::from_str(&read(&out)).unwrap();
    assert_eq!(got["type"], "session.deleted");
    assert_eq!(got["properties"]["info"]["id"], "ses_1");
}
