//! The agents themselves, installed from npm at the versions `tests/agents/package-lock.json`
//! pins (`.ci/run` puts them in `target/agents`; `RELAY_AGENTS_DIR` points elsewhere), each
//! played through real sessions offline against a fake model server on loopback by its script
//! in `tests/agents/`: Claude Code, Codex, Gemini CLI and OpenCode with relay's hooks, and the
//! official MCP TypeScript SDK against `relay mcp` and `relay serve`'s `/mcp`. Each script
//! checks what reached the model, what relay stored and what `relay doctor` says, and prints
//! every check; here each must exit 0. Without node 20 or the npm install, each test says so
//! and checks nothing.

use std::path::PathBuf;
use std::process::Command;

use crate::harness::BIN;

/// Where the agents were installed: `RELAY_AGENTS_DIR`, else `target/agents`.
fn agents_dir() -> PathBuf {
    std::env::var_os("RELAY_AGENTS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/agents"))
}

/// node's major version, when node runs.
fn node_major() -> Option<u32> {
    let out = Command::new("node").arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim()
        .trim_start_matches('v')
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// Runs `tests/agents/SCRIPT.mjs`, which needs `needs` (a path under the install's
/// `node_modules`), and fails with its report unless every check held.
fn play(script: &str, needs: &str) {
    let dir = agents_dir();
    match node_major() {
        Some(major) if major >= 20 => {}
        found => {
            eprintln!(
                "SKIPPED: tests/agents/{script}.mjs needs node 20 or later (found {found:?}); \
                 .ci/run installs it"
            );
            return;
        }
    }
    if !dir.join("node_modules").join(needs).exists() {
        eprintln!(
            "SKIPPED: tests/agents/{script}.mjs: {needs} is not installed in {}; install the \
             pinned agents with `mkdir -p target/agents && cp tests/agents/package*.json \
             target/agents/ && npm install --prefix target/agents` (as .ci/run \
             does), or set RELAY_AGENTS_DIR",
            dir.display()
        );
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let out = Command::new("node")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/agents/{script}.mjs")))
        .env_clear()
        .env("PATH", path)
        .env("HOME", scratch.path())
        .env("TMPDIR", scratch.path())
        .env("RELAY_BIN", BIN)
        .env("RELAY_AGENTS_DIR", &dir)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    let errors = String::from_utf8_lossy(&out.stderr);
    println!("{report}");
    assert!(
        out.status.success(),
        "tests/agents/{script}.mjs: a check failed ({})\n{report}\n{errors}",
        out.status
    );
}

#[test]
fn claude_code_is_briefed_checkpointed_and_deposited_inside_claude_code() {
    play("claude", ".bin/claude");
}

#[test]
fn codex_runs_relays_hooks_once_trusted_and_doctor_sees_its_trust() {
    play("codex", ".bin/codex");
}

#[test]
fn gemini_cli_checkpoints_only_real_compressions_inside_gemini_cli() {
    play("gemini", ".bin/gemini");
}

#[test]
fn opencode_deposits_when_its_cli_or_server_deletes_a_session() {
    play("opencode", ".bin/opencode");
}

#[test]
fn the_official_typescript_mcp_sdk_drives_relay_mcp_and_serve() {
    play("mcp_sdk", "@modelcontextprotocol/sdk/package.json");
}
