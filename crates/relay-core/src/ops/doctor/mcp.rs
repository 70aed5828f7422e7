//! The MCP server: `relay mcp` started from the running relay binary, as an agent starts it,
//! in the scratch copy; it must answer `initialize` and `tools/list` over stdio within a few
//! seconds. It is killed afterwards.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use super::scratch::Scratch;
use super::{Finding, Setup};

const CHECK: &str = "mcp server";
/// How long the server has to list its tools.
const LIMIT: Duration = Duration::from_secs(10);
/// The MCP revision the probe speaks (the server answers with one it supports).
const PROTOCOL: &str = "2025-06-18";

pub fn check(setup: &Setup<'_>, scratch: Option<&Scratch>) -> Finding {
    let mut command = match scratch {
        Some(s) => s.command(setup.relay),
        None => {
            let mut c = Command::new(setup.relay);
            c.current_dir(setup.cwd);
            c
        }
    };
    command.arg("mcp");
    match list_tools(command, setup.relay) {
        Ok(n) => Finding::ok(CHECK, format!("`relay mcp` started and listed {n} tools")),
        Err(why) => Finding::fail(
            CHECK,
            why,
            "run `relay mcp` by hand to see why, and reinstall relay if it does not start",
        ),
    }
}

/// Starts the server, asks for its tools, and kills it: how many tools it listed.
fn list_tools(mut command: Command, relay: &Path) -> Result<usize, String> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start `{} mcp` ({e})", relay.display()))?;
    let (tx, rx) = mpsc::channel();
    let Some(stdout) = child.stdout.take() else {
        return Err("no pipe to its stdout".into());
    };
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": PROTOCOL, "capabilities": {},
            "clientInfo": {"name": "relay-doctor", "version": env!("CARGO_PKG_VERSION")}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    // Kept open until the answer: a server may end when its stdin does.
    let stdin = child.stdin.take().map(|mut stdin| {
        let text: String = messages.iter().map(|m| format!("{m}\n")).collect();
        let _ = stdin.write_all(text.as_bytes());
        stdin
    });
    let deadline = std::time::Instant::now() + LIMIT;
    let answer = loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                let Ok(v) = serde_json::from_str::<Value>(&line) else {
                    break Err(format!("it wrote a line that is not JSON-RPC: {line}"));
                };
                if v["id"] == json!(2) {
                    break match v["result"]["tools"].as_array() {
                        Some(tools) if !tools.is_empty() => Ok(tools.len()),
                        _ => Err(format!("tools/list gave no tools: {v}")),
                    };
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                break Err(format!(
                    "it did not list its tools within {} s",
                    LIMIT.as_secs()
                ));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                break Err("it exited before listing its tools".into());
            }
        }
    };
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_that_exits_or_hangs_is_a_finding() {
        let mut exits = Command::new("sh");
        exits.args(["-c", "exit 0"]);
        let e = list_tools(exits, Path::new("relay")).unwrap_err();
        assert!(e.contains("exited before"), "{e}");
        let mut garbage = Command::new("sh");
        garbage.args(["-c", "echo hello; sleep 5"]);
        let e = list_tools(garbage, Path::new("relay")).unwrap_err();
        assert!(e.contains("not JSON-RPC: hello"), "{e}");
        let mut missing = Command::new("/no/such/relay");
        missing.arg("mcp");
        let e = list_tools(missing, Path::new("/no/such/relay")).unwrap_err();
        assert!(e.starts_with("cannot start `/no/such/relay mcp`"), "{e}");
    }
}
