//! `relay doctor` judges each agent's hook file as the agent itself reads it: a dozen ways to
//! break relay's entries that the agents ignore or cut short (an event name in the wrong case,
//! another agent's event name, a hook without `"type"`, a timeout in the wrong unit or too
//! short, an entry outside its `hooks` list, Cursor's missing `version`, OpenCode's plugin that
//! does not parse), each named by doctor with a fix that, run as shown, makes doctor pass.

use serde_json::Value;

use crate::doctor::{doctor, finding};
use crate::harness::{Env, read};

/// One breakage: the agent, its file, and what is done to the file's text.
struct Breakage {
    agent: &'static str,
    file: &'static str,
    from: &'static str,
    to: &'static str,
    /// What doctor's detail must say.
    says: &'static str,
}

const BREAKAGES: &[Breakage] = &[
    Breakage {
        agent: "claude",
        file: ".claude/settings.json",
        from: "\"SessionStart\"",
        to: "\"sessionStart\"",
        says: "Claude Code has no event `sessionStart` (its names are case-sensitive: `SessionStart`)",
    },
    Breakage {
        agent: "claude",
        file: ".claude/settings.json",
        from: "\"type\": \"command\",",
        to: "",
        says: "has no \"type\": \"command\", and Claude Code discards a hook without it",
    },
    Breakage {
        agent: "claude",
        file: ".claude/settings.json",
        from: "\"timeout\": 15",
        to: "\"timeout\": 3",
        says: "\"timeout\": 3, which Claude Code reads in seconds: too short",
    },
    Breakage {
        agent: "claude",
        file: ".claude/settings.json",
        from: "\"Stop\"",
        to: "\"stop\"",
        says: "Claude Code has no event `stop` (its names are case-sensitive: `Stop`)",
    },
    Breakage {
        agent: "codex",
        file: ".codex/hooks.json",
        from: "\"PreCompact\"",
        to: "\"PreCompress\"",
        says: "Codex has no event `PreCompress`",
    },
    Breakage {
        agent: "codex",
        file: ".codex/hooks.json",
        from: "\"timeout\": 15",
        to: "\"timeout\": \"15s\"",
        says: "has a \"timeout\" that is not a number",
    },
    Breakage {
        agent: "gemini",
        file: ".gemini/settings.json",
        from: "\"timeout\": 15000",
        to: "\"timeout\": 15",
        says: "\"timeout\": 15, which Gemini CLI reads in milliseconds: too short",
    },
    Breakage {
        agent: "gemini",
        file: ".gemini/settings.json",
        from: "\"type\": \"command\",",
        to: "",
        says: "Gemini CLI discards a hook without it",
    },
    Breakage {
        agent: "gemini",
        file: ".gemini/settings.json",
        from: "\"PreCompress\"",
        to: "\"PreCompact\"",
        says: "Gemini CLI has no event `PreCompact`",
    },
    Breakage {
        agent: "cursor",
        file: ".cursor/hooks.json",
        from: "\"stop\"",
        to: "\"Stop\"",
        says: "Cursor has no event `Stop` (its names are case-sensitive: `stop`)",
    },
    Breakage {
        agent: "cursor",
        file: ".cursor/hooks.json",
        from: "\"version\": 1,",
        to: "",
        says: "Cursor reads a hooks file only with \"version\": 1",
    },
    Breakage {
        agent: "opencode",
        file: ".opencode/plugins/relay.js",
        from: "export",
        to: "export export",
        says: "the plugin is not JavaScript OpenCode can load (SyntaxError",
    },
];

fn has_node() -> bool {
    std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn doctor_names_each_hook_breakage_the_agent_would_ignore_with_a_fix_that_works() {
    let Some(env) = crate::hooks::repo() else {
        return;
    };
    let all = ["--claude", "--codex", "--gemini", "--cursor", "--opencode"];
    let mut args = vec!["hook", "install", "--git"];
    args.extend(all);
    env.ok(&args);
    let passes = |env: &Env| {
        let (code, report) = doctor(env, &[]);
        let failed: Vec<&Value> = report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] == "fail")
            .collect();
        (code == 0 && failed.is_empty(), format!("{failed:#?}"))
    };
    let (ok, failed) = passes(&env);
    assert!(ok, "a fresh install passes: {failed}");
    let node = has_node();
    if !node {
        eprintln!("SKIPPED in part: no node on PATH, so OpenCode's plugin is not parsed");
    }
    for b in BREAKAGES.iter().filter(|b| node || b.agent != "opencode") {
        let path = env.path(b.file);
        let text = read(&path);
        assert!(
            text.contains(b.from),
            "{} lacks {:?}: {text}",
            b.file,
            b.from
        );
        std::fs::write(&path, text.replacen(b.from, b.to, 1)).unwrap();
        let (code, report) = doctor(&env, &[]);
        assert_eq!(code, 5, "{} {:?} → {:?}: {report:#}", b.agent, b.from, b.to);
        let f = finding(&report, &format!("{} hooks", b.agent));
        assert_eq!(f["status"], "fail", "{f}");
        let detail = f["detail"].as_str().unwrap();
        assert!(detail.contains(b.says), "{}: {detail}", b.says);
        // The fix, run as doctor shows it (the words before the parenthesis).
        let fix = f["fix"].as_str().unwrap();
        let command = fix.split(" (").next().unwrap();
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[..2], ["relay", "hook"], "{fix}");
        env.ok(&words[1..]);
        let (ok, failed) = passes(&env);
        assert!(ok, "after `{command}`: {failed}");
    }
}
