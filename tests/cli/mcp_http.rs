//! `relay serve`'s `/mcp`: MCP over Streamable HTTP, for agents on other machines. The
//! official Python SDK's streamable HTTP client deposits, searches, reads and subscribes to a
//! project's feed and is notified of a CLI deposit, and a read-only token's write is refused
//! naming the scope (tests/mcp/test_mcp_http.py); curl checks the transport's refusals (no
//! token, another origin, no session, what a client must accept) and `--listen localhost:0`.

use serde_json::{Value, json};

use crate::harness::{BIN, Env};
use crate::serve::{Served, curl};

const ACCEPT: &str = "Accept: application/json, text/event-stream";
const JSON: &str = "Content-Type: application/json";

fn initialize() -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "curl", "version": "1"}}})
    .to_string()
}

/// A store with a write token and a read-only one for `remote-agent`: (write, read).
fn tokens(env: &Env) -> (String, String) {
    let make = |extra: &[&str]| {
        let mut args = vec!["token", "create", "--actor", "remote-agent", "-q"];
        args.extend_from_slice(extra);
        env.ok(&args).trim().to_string()
    };
    (make(&[]), make(&["--read-only"]))
}

/// curl's answer with its headers: (status, headers in lower case, body).
fn exchange(env: &Env, args: &[&str]) -> (u16, String, String) {
    let mut all = vec!["-sS", "--max-time", "20", "-D", "-", "-w", "\n%{http_code}"];
    all.extend_from_slice(args);
    let out = env.program("curl", &all).output().expect("run curl");
    assert!(out.status.success(), "curl {args:?}: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let (rest, status) = text.rsplit_once('\n').unwrap();
    let (head, body) = rest.split_once("\r\n\r\n").unwrap_or((rest, ""));
    (
        status.parse().unwrap(),
        head.to_ascii_lowercase(),
        body.to_string(),
    )
}

#[test]
fn mcp_http_official_python_sdk_client_deposits_searches_and_is_notified() {
    let Some(python) = std::env::var("RELAY_MCP_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
    else {
        eprintln!("SKIPPED mcp_http: set RELAY_MCP_PYTHON (.ci/run does)");
        return;
    };
    let env = Env::new();
    let (write, read) = tokens(&env);
    let server = Served::start(&env, &[]);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp/test_mcp_http.py");
    let out = env
        .program(
            &python,
            &[script, &server.at("/mcp"), "demo", &write, &read],
        )
        .env("RELAY_MCP_BIN", BIN)
        .env("RELAY_MCP_STORE", env.store())
        .output()
        .expect("run the Python streamable HTTP client test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "tests/mcp/test_mcp_http.py failed:\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.contains("ok:"), "{stdout}");
    // The remote deposit is in the store, as its token's actor.
    let text = env.ok(&["pull", "--json"]);
    assert!(text.contains("Remote zebra cache eviction") && text.contains("remote-agent"));
    let (code, server_stderr) = server.stop();
    assert_eq!(code, Some(0), "{server_stderr}");
}

/// POSTs `body` to `url` as an MCP client does (both answer types accepted, JSON sent), with
/// the extra `headers`: what [`exchange`] returns.
fn post(env: &Env, url: &str, headers: &[&str], body: &str) -> (u16, String, String) {
    let mut args = vec!["-H", ACCEPT, "-H", JSON];
    for h in headers {
        args.extend(["-H", h]);
    }
    args.extend(["-d", body, url]);
    exchange(env, &args)
}

#[test]
fn mcp_http_refuses_no_token_another_origin_and_requests_without_a_session() {
    let env = Env::new();
    let (write, _) = tokens(&env);
    let server = Served::start(&env, &[]);
    let url = server.at("/mcp");
    let bearer = format!("Authorization: Bearer {write}");
    let init = initialize();

    // No token where the server demands one: 401 naming the scheme.
    let (status, head, body) = post(&env, &url, &[], &init);
    assert_eq!(status, 401, "{body}");
    assert!(head.contains("www-authenticate: bearer"), "{head}");

    // A browser's POST from another origin, token or not: 403, and no session.
    for auth in [&bearer[..], "X-None: 1"] {
        let evil = "Origin: http://evil.example";
        let (status, head, body) = post(&env, &url, &[evil, auth], &init);
        assert_eq!(status, 403, "{auth}: {body}");
        assert!(!head.contains("mcp-session-id"), "{head}");
    }

    // A client that does not take both answers' types: 406.
    let json_only = ["-H", "Accept: application/json", "-H", JSON, "-H", &bearer];
    let (status, _, _) = exchange(&env, &[&json_only[..], &["-d", &init, &url]].concat());
    assert_eq!(status, 406);

    // initialize opens a session; a request without it is 400, with another id 404.
    let (status, head, body) = post(&env, &url, &[&bearer], &init);
    assert_eq!(status, 200, "{body}");
    let session = head
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .expect("a session id")
        .trim()
        .to_string();
    let reply: Value = serde_json::from_str(&body).unwrap();
    let capabilities = &reply["result"]["capabilities"];
    assert_eq!(capabilities["resources"]["subscribe"], true, "{reply}");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    assert_eq!(post(&env, &url, &[&bearer], &list).0, 400);
    let ours = format!("Mcp-Session-Id: {session}");
    let (status, _, _) = post(&env, &url, &[&bearer, "Mcp-Session-Id: 0000"], &list);
    assert_eq!(status, 404);

    // An unknown protocol revision is 400; a notification is 202 with no body.
    let old = "MCP-Protocol-Version: 1999-01-01";
    assert_eq!(post(&env, &url, &[&bearer, &ours, old], &list).0, 400);
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let (status, _, body) = post(&env, &url, &[&bearer, &ours], &note);
    assert_eq!((status, body.as_str()), (202, ""));

    // The same tools as `relay mcp`'s tools/list.
    let (status, _, body) = post(&env, &url, &[&bearer, &ours], &list);
    assert_eq!(status, 200);
    let tools: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(tools["result"], relay::mcp::tools_list());

    // DELETE ends the session: it answers no more.
    let (status, _, _) = exchange(&env, &["-X", "DELETE", "-H", &bearer, "-H", &ours, &url]);
    assert_eq!(status, 200);
    assert_eq!(post(&env, &url, &[&bearer, &ours], &list).0, 404);
}

#[test]
fn serve_listens_on_localhost_by_name() {
    let env = Env::new();
    let (served, line) = Served::launch(&env, &["serve", "--listen", "localhost:0"]);
    assert!(line.starts_with("listening on http://127.0.0.1:"), "{line}");
    let (status, body) = curl(&env, &[&served.at("/v1/conformance")]);
    assert_eq!(status, 200, "{body}");
    let refused = env.run(&["serve", "--listen", "localhost"]);
    assert_eq!(refused.code, 4, "{refused:?}");
    assert!(
        refused.stderr.contains("not an address to listen on"),
        "{refused:?}"
    );
    drop(served);
}

/// Opens an MCP session at `url` with `bearer`: the session header to send after.
fn session(env: &Env, url: &str, bearer: &str) -> String {
    let (status, head, body) = post(env, url, &[bearer], &initialize());
    assert_eq!(status, 200, "{body}");
    let id = head
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .expect("a session id")
        .trim()
        .to_string();
    format!("Mcp-Session-Id: {id}")
}

/// Calls the tool `name` with `arguments`: the JSON-RPC reply.
fn call_tool(env: &Env, url: &str, headers: &[&str], name: &str, arguments: Value) -> Value {
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}});
    let (status, _, body) = post(env, url, headers, &call.to_string());
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

#[test]
fn a_project_scoped_token_watching_every_project_sees_only_its_own() {
    let env = Env::new();
    env.ok(&["projects", "create", "other"]);
    env.deposit("Ours to see", &[]);
    env.ok(&["deposit", "--project", "other", "--title", "Not yours"]);
    let scoped = env.ok(&[
        "token",
        "create",
        "--actor",
        "remote-agent",
        "--project",
        "demo",
        "-q",
    ]);
    let server = Served::start(&env, &[]);
    let url = server.at("/mcp");
    let bearer = format!("Authorization: Bearer {}", scoped.trim());
    let ours = session(&env, &url, &bearer);
    let args = json!({"all_projects": true, "since": "beginning"});
    let reply = call_tool(&env, &url, &[&bearer, &ours], "watch", args);
    let text = reply.to_string();
    assert!(text.contains("Ours to see"), "{reply}");
    assert!(
        !text.contains("Not yours"),
        "another project's record leaked: {reply}"
    );
}

#[test]
fn a_remote_deposit_naming_a_local_path_is_refused_before_the_file_is_opened() {
    let env = Env::new();
    let (write, _) = tokens(&env);
    let server = Served::start(&env, &[]);
    let url = server.at("/mcp");
    let bearer = format!("Authorization: Bearer {write}");
    let ours = session(&env, &url, &bearer);
    // /dev/zero never ends: opened and hashed, it would hold the call past curl's 20 s.
    for path in ["/dev/zero", "../outside.txt", ".relay/config.toml"] {
        let args = json!({"title": "Remote", "deliverables": [path]});
        let started = std::time::Instant::now();
        let reply = call_tool(&env, &url, &[&bearer, &ours], "deposit", args);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{path}"
        );
        let text = reply.to_string();
        assert!(
            reply["result"]["isError"] == true || reply.get("error").is_some(),
            "{path}: {reply}"
        );
        assert!(text.contains(path), "the refusal names {path}: {reply}");
    }
    assert!(
        env.run(&["pull", "--json"]).stdout.is_empty(),
        "nothing was deposited"
    );
}
