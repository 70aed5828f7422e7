//! relay's OpenCode plugin. OpenCode runs no hook commands: it loads the JS modules in
//! `.opencode/plugins/` at startup and hands them its events (opencode.ai/docs/plugins,
//! 2026-11). relay writes one module, whole, that runs the same `relay hook run` commands the
//! other agents run, through `sh -c` with the event's JSON on stdin, and adds what the
//! session.created command prints (the briefing) to that session's system prompt.
//!
//! The commands sit in the module as a fixed array, one JSON object a line, between
//! [`HOOKS_START`] and [`HOOKS_END`], so that relay reads them back (`installed`) without
//! running JS. A module at that path that relay did not write is kept as
//! `relay.js.relay-backup` and put back by uninstall.

use std::path::Path;

use serde_json::{Value, json};

use crate::ops::agents::files::{Changes, InstalledHook, backup_of, io, remove_empty_parent};
use relay_store::ndjson;
use relay_wire::error::{Error, Result};

/// The module, under the repository's top folder.
pub const PLUGIN_PATH: &str = ".opencode/plugins/relay.js";
/// The first line of the module relay writes.
pub const PLUGIN_MARKER: &str = "// installed by relay (relay hook install --opencode)";
const HOOKS_START: &str = "const relayHooks = [";
const HOOKS_END: &str = "];";

/// The module after its array of hooks. The event handler runs the command listed for the
/// event's type; session.created's output is kept (as a promise, so that the first model call
/// waits for it) and pushed into the system prompt of the session's own conversation; the
/// compaction hook passes `{type, properties: {sessionID}}`, shaped like the bus events. A
/// subagent's session (one with a `parentID`) is part of its parent's: none of its events run.
///
/// OpenCode 1.18 neither awaits `event` handlers nor waits for them before it exits: `opencode
/// session delete` published session.deleted and exited while relay's command was still being
/// handed its stdin, which then arrived empty. So session.deleted's command runs synchronously
/// (it is the session's deposit, done in about a second), and `dispose`, which OpenCode
/// awaits before it exits, waits for the commands still running. The briefing goes only into
/// requests of the agent's conversation, whose system prompt carries OpenCode's `<env>` block;
/// the title, summary and compaction requests carry none (the title one was given up to 8,000
/// characters of briefing each time).
///
/// A session continued in a new process (`opencode run --session`, a restarted `serve`, the
/// TUI reopening it) has no session.created there: its first conversation request runs
/// SessionStart then, so the briefing is not lost from that point on (OpenCode rebuilds the
/// system prompt for every request). After a compaction, SessionStart runs again with `source:
/// "compact"`, so the next requests lead with "Where you left off".
const PLUGIN_BODY: &str = r#"
const running = new Set();

function runHook(event, input, cwd) {
  const hook = relayHooks.find((h) => h.event === event);
  if (!hook) return Promise.resolve("");
  const done = new Promise((resolve) => {
    let out = "";
    const child = spawn("sh", ["-c", hook.command], { cwd, stdio: ["pipe", "pipe", "ignore"] });
    child.stdout.on("data", (chunk) => { out += chunk; });
    child.on("error", () => resolve(""));
    child.on("close", () => resolve(out));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
  });
  running.add(done);
  done.finally(() => running.delete(done));
  return done;
}

function runHookNow(event, input, cwd) {
  const hook = relayHooks.find((h) => h.event === event);
  if (!hook) return;
  spawnSync("sh", ["-c", hook.command], { cwd, input: JSON.stringify(input), stdio: ["pipe", "ignore", "ignore"] });
}

export const RelayPlugin = async ({ directory }) => {
  const briefings = new Map();
  const subagents = new Set();
  const brief = (id, source) => {
    const type = "session.created";
    return runHook(type, { type, source, properties: { sessionID: id, info: { id } } }, directory);
  };
  return {
    event: async ({ event }) => {
      const properties = event.properties || {};
      const info = properties.info || {};
      if (event.type === "session.created" && info.parentID) subagents.add(info.id);
      if (subagents.has(properties.sessionID || info.id)) return;
      if (event.type === "session.created") {
        // A first request may have started the briefing already.
        if (!briefings.has(info.id)) briefings.set(info.id, runHook(event.type, event, directory));
        return;
      }
      if (event.type === "session.deleted") {
        runHookNow(event.type, event, directory);
        briefings.delete(info.id);
        return;
      }
      await runHook(event.type, event, directory);
    },
    "experimental.session.compacting": async (input) => {
      const id = input.sessionID;
      if (subagents.has(id)) return;
      const type = "experimental.session.compacting";
      await runHook(type, { type, properties: { sessionID: id } }, directory);
      briefings.set(id, brief(id, "compact"));
    },
    "experimental.chat.system.transform": async (input, output) => {
      const id = input.sessionID;
      const system = output.system.join("\n");
      if (subagents.has(id) || !system.includes("<env>") || system.startsWith("You are a title generator")) return;
      if (!briefings.has(id)) briefings.set(id, brief(id, "resume"));
      const briefing = await briefings.get(id);
      if (briefing && briefing.trim()) output.system.push(briefing);
    },
    dispose: async () => {
      await Promise.allSettled([...running]);
    },
  };
};
"#;

/// The module for `hooks` (OpenCode's event, relay's command).
pub fn plugin(hooks: &[(&str, String)]) -> String {
    let mut s = format!(
        "{PLUGIN_MARKER}; relay rewrites it whole.\n\
         // OpenCode loads it at startup; each entry below runs its command through `sh -c`\n\
         // with the event's JSON on stdin (see `relay hook --help`).\n\
         import {{ spawn, spawnSync }} from \"node:child_process\";\n\n{HOOKS_START}\n"
    );
    for (event, command) in hooks {
        s.push_str(&format!(
            "  {},\n",
            json!({"event": event, "command": command})
        ));
    }
    s.push_str(HOOKS_END);
    s.push('\n');
    s.push_str(PLUGIN_BODY);
    s
}

/// The hooks of a module relay wrote, in its order; `None` for someone else's file.
fn parse(text: &str) -> Option<Vec<InstalledHook>> {
    if !text.starts_with(PLUGIN_MARKER) {
        return None;
    }
    let lines = text.lines().skip_while(|l| *l != HOOKS_START).skip(1);
    let entries = lines.take_while(|l| *l != HOOKS_END);
    let hooks = entries.filter_map(|l| {
        let v: Value = serde_json::from_str(l.trim().trim_end_matches(',')).ok()?;
        Some(InstalledHook {
            event: v.get("event")?.as_str()?.to_string(),
            command: v.get("command")?.as_str()?.to_string(),
        })
    });
    Some(hooks.collect())
}

fn read(path: &Path) -> Result<Option<String>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(format!("cannot read {}", path.display()), e)),
    }
}

/// Writes the module at `path`; a file of someone else's there is kept as its backup.
pub fn install(path: &Path, shown: &str, hooks: &[(&str, String)]) -> Result<Changes> {
    let wanted = plugin(hooks);
    let existing = read(path)?;
    if existing.as_deref() == Some(wanted.as_str()) {
        return Ok(vec![format!("{shown}: already installed")]);
    }
    let backup = backup_of(path);
    if let Some(theirs) = existing.as_deref().filter(|t| parse(t).is_none()) {
        if backup.exists() {
            return Err(Error::InvalidInput(format!(
                "{shown} is not relay's and {} exists already; move one of them away first",
                backup.display()
            )));
        }
        ndjson::write_atomic(&backup, theirs.as_bytes())?;
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    ndjson::write_atomic(path, wanted.as_bytes())?;
    Ok(hooks
        .iter()
        .map(|(event, command)| format!("{shown} {event}: `{command}`"))
        .collect())
}

/// Removes the module relay wrote (never someone else's), putting back what it replaced.
pub fn uninstall(path: &Path, shown: &str) -> Result<Changes> {
    if read(path)?.as_deref().and_then(parse).is_none() {
        return Ok(Vec::new());
    }
    let backup = backup_of(path);
    if backup.exists() {
        std::fs::rename(&backup, path).map_err(io(path))?;
        return Ok(vec![format!("{shown}: restored as it was before relay")]);
    }
    std::fs::remove_file(path).map_err(io(path))?;
    remove_empty_parent(path);
    if let Some(opencode) = path.parent().and_then(Path::parent) {
        let _ = std::fs::remove_dir(opencode); // only when empty
    }
    Ok(vec![format!("{shown}: removed (relay wrote it)")])
}

/// relay's hooks in the module at `path`, `None` when there is no file; a file there that
/// relay did not write holds none of relay's.
pub fn installed(path: &Path) -> Result<Option<Vec<InstalledHook>>> {
    Ok(read(path)?.map(|text| parse(&text).unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_holds_its_commands_where_relay_reads_them_back() {
        let hooks = [
            (
                "session.created",
                "'/o p/relay' hook run SessionStart --agent opencode".into(),
            ),
            (
                "session.idle",
                "relay hook run Stop --agent opencode".to_string(),
            ),
        ];
        let text = plugin(&hooks);
        assert!(text.contains(
            "\nconst relayHooks = [\n  {\"event\":\"session.created\",\"command\":\"'/o p/relay' hook run SessionStart --agent opencode\"},\n"
        ), "{text}");
        let back = parse(&text).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].event, "session.created");
        assert_eq!(back[0].command, hooks[0].1);
        assert_eq!(parse("export const Mine = async () => ({})\n"), None);

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PLUGIN_PATH);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "export const Mine = 1\n").unwrap();
        assert_eq!(installed(&path).unwrap(), Some(Vec::new()));
        install(&path, PLUGIN_PATH, &hooks).unwrap();
        assert_eq!(
            install(&path, PLUGIN_PATH, &hooks).unwrap(),
            [format!("{PLUGIN_PATH}: already installed")]
        );
        assert_eq!(installed(&path).unwrap().unwrap().len(), 2);
        assert_eq!(
            uninstall(&path, PLUGIN_PATH).unwrap(),
            [format!("{PLUGIN_PATH}: restored as it was before relay")]
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "export const Mine = 1\n"
        );
        assert_eq!(uninstall(&path, PLUGIN_PATH).unwrap(), Vec::<String>::new());
    }
}
