//! A served relay under a hostile client, or a busy team (issue 58), driven over raw sockets
//! against `relay serve` as a process: a crowd of open event streams past tokio's 512
//! blocking threads leaves every other request answered and every stream fed; streams past
//! a cap are refused at once with `Retry-After`; a revoked token's MCP stream ends within a
//! second; one caller's flood of MCP sessions ends none of another's, and a batch runs
//! nothing; HTTP's edges (two `Host`s, a target or headers too large) answer JSON, and every
//! answer says `Cache-Control: no-store`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::Env;
use crate::serve::{Served, tester, whole_package};

/// An answer read whole from a raw socket: status, head (lower case), body.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.head, self.body))
    }

    fn header(&self, name: &str) -> Option<&str> {
        let prefix = format!("{name}: ");
        (self.head.lines()).find_map(|l| l.strip_prefix(&prefix).map(str::trim))
    }
}

/// Sends `request` (whole bytes) on a new connection and reads the answer to its end.
fn raw(address: SocketAddr, request: &[u8]) -> Answer {
    let mut s = TcpStream::connect(address).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    // A server may answer and close before it has read the whole of a request too large.
    let _ = s.write_all(request);
    let mut bytes = Vec::new();
    let _ = s.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    Answer {
        status,
        head: head.to_ascii_lowercase(),
        body: body.to_string(),
    }
}

fn get(address: SocketAddr, path: &str, extra: &str) -> Answer {
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {address}\r\n{extra}Connection: close\r\n\r\n");
    raw(address, request.as_bytes())
}

#[test]
fn http_edges_answer_json_and_no_answer_is_kept_by_a_cache() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let at = server.address;
    // Two Hosts, ours first and ours second: 400, whichever comes first.
    for hosts in [
        format!("Host: {at}\r\nHost: evil.example\r\n"),
        format!("Host: evil.example\r\nHost: {at}\r\n"),
    ] {
        let request = format!(
            "POST /v1/projects/demo/packages HTTP/1.1\r\n{hosts}Content-Type: application/json\r\n\
             Content-Length: 20\r\nConnection: close\r\n\r\n{{\"title\": \"sneaky\"}}"
        );
        let a = raw(at, request.as_bytes());
        assert_eq!(
            (a.status, a.json()["error"].as_str()),
            (400, Some("bad_request"))
        );
    }
    assert_eq!(
        env.ok(&["pull", "--latest", "5", "--json"]).trim(),
        "",
        "nothing written"
    );
    // hyper's own refusals: a target over 65,534 bytes, more header fields than 100.
    let long = format!("/v1/projects?{}", "a".repeat(70_000));
    let a = get(at, &long, "");
    assert_eq!(
        (a.status, a.json()["error"].as_str()),
        (414, Some("uri_too_long"))
    );
    assert_eq!(a.header("content-type"), Some("application/json"));
    let many: String = (0..150).map(|i| format!("X-Filler-{i}: {i}\r\n")).collect();
    let a = get(at, "/v1/projects", &many);
    assert_eq!(
        (a.status, a.json()["error"].as_str()),
        (431, Some("header_fields_too_large"))
    );
    let a = raw(at, b"NOT HTTP AT ALL\r\n\r\n");
    assert_eq!(
        (a.status, a.json()["error"].as_str()),
        (400, Some("bad_request"))
    );
    // Every answer, refusals and pages included, is kept by no cache.
    for path in [
        "/v1/conformance",
        "/v1/projects",
        "/",
        "/search?q=x",
        "/nowhere",
    ] {
        let a = get(at, path, "");
        assert_eq!(
            a.header("cache-control"),
            Some("no-store"),
            "{path}: {}",
            a.head
        );
    }
}

/// Opens an event stream on a new connection; its status and, when 200, the open socket.
fn open_stream(
    address: SocketAddr,
    path: &str,
    token: Option<&str>,
) -> (Answer, Option<BufReader<TcpStream>>) {
    let mut s = TcpStream::connect(address).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n{auth}\r\n"
    );
    s.write_all(request.as_bytes()).unwrap();
    let mut reader = BufReader::new(s);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let head = head.to_ascii_lowercase();
    if status == 200 {
        return (
            Answer {
                status,
                head,
                body: String::new(),
            },
            Some(reader),
        );
    }
    let mut body = String::new();
    if let Some(n) = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .and_then(|n| n.trim().parse::<usize>().ok())
    {
        let mut bytes = vec![0; n];
        reader.read_exact(&mut bytes).unwrap();
        body = String::from_utf8_lossy(&bytes).into_owned();
    }
    (Answer { status, head, body }, None)
}

/// Reads a stream until a `data:` line holding `marker`, or fails after `within`.
fn wait_for(stream: &mut BufReader<TcpStream>, marker: &str, within: Duration) -> Duration {
    let start = Instant::now();
    stream.get_mut().set_read_timeout(Some(within)).unwrap();
    loop {
        let mut line = String::new();
        let n = stream.read_line(&mut line).unwrap_or(0);
        assert!(n > 0, "the stream ended or went quiet before {marker:?}");
        if line.starts_with("data:") && line.contains(marker) {
            return start.elapsed();
        }
        assert!(start.elapsed() < within, "no {marker:?} within {within:?}");
    }
}

fn token(env: &Env, actor: &str) -> String {
    env.ok(&["token", "create", "--actor", actor, "--read-only", "-q"])
        .trim()
        .to_string()
}

#[test]
fn streams_past_a_cap_are_refused_at_once_with_retry_after_and_a_closed_one_frees_its_place() {
    let env = Env::new();
    let (a, b) = (token(&env, "alice"), token(&env, "bob"));
    let server = Served::start(
        &env,
        &["--max-streams", "3", "--max-streams-per-caller", "2"],
    );
    let at = server.address;
    let path = "/v1/projects/demo/events";
    let (_, a1) = open_stream(at, path, Some(&a));
    let (_, _a2) = open_stream(at, path, Some(&a));
    let (refused, none) = open_stream(at, path, Some(&a));
    assert!(none.is_none());
    assert_eq!(
        (refused.status, refused.json()["error"].as_str()),
        (429, Some("too_many_requests"))
    );
    assert_eq!(refused.header("retry-after"), Some("5"));
    let (ok, _b1) = open_stream(at, path, Some(&b));
    assert_eq!(ok.status, 200);
    let (busy, _) = open_stream(at, path, Some(&b));
    assert_eq!(
        (busy.status, busy.json()["error"].as_str()),
        (503, Some("server_busy"))
    );
    assert_eq!(busy.header("retry-after"), Some("5"));
    // Other requests are not streams: they are answered.
    let list = get(
        at,
        "/v1/projects",
        &format!("Authorization: Bearer {b}\r\n"),
    );
    assert_eq!(list.status, 200);
    // A client that leaves gives its place back.
    drop(a1);
    let start = Instant::now();
    loop {
        let (again, _) = open_stream(at, path, Some(&b));
        if again.status == 200 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the place never came back"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Past tokio's 512 blocking threads, which each stream held before: every request is still
/// answered at once, a deposit lands, and every stream gets its event.
#[test]
fn six_hundred_open_streams_hold_no_thread_and_every_request_and_stream_is_served() {
    let env = Env::new();
    let server = Served::start(
        &env,
        &["--max-streams", "700", "--max-streams-per-caller", "700"],
    );
    let at = server.address;
    let mut streams: Vec<BufReader<TcpStream>> = (0..600)
        .map(|i| {
            let (a, s) = open_stream(at, "/v1/projects/demo/events", None);
            assert_eq!(a.status, 200, "stream {i}: {}", a.body);
            s.unwrap()
        })
        .collect();
    let start = Instant::now();
    let list = get(at, "/v1/projects/demo/packages", "");
    assert_eq!(list.status, 200, "{}", list.body);
    let body = whole_package("demo", tester(), json!({"title": "seen by six hundred"})).to_string();
    let request = format!(
        "POST /v1/projects/demo/packages HTTP/1.1\r\nHost: {at}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let deposit = raw(at, request.as_bytes());
    assert_eq!(deposit.status, 201, "{}", deposit.body);
    let answered = start.elapsed();
    assert!(
        answered < Duration::from_secs(5),
        "a list and a deposit took {answered:?}"
    );
    for s in &mut streams {
        wait_for(s, "seen by six hundred", Duration::from_secs(30));
    }
}

fn mcp_post(at: SocketAddr, token: &str, session: Option<&str>, body: &str) -> Answer {
    let session = session
        .map(|s| format!("Mcp-Session-Id: {s}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {at}\r\nAuthorization: Bearer {token}\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         MCP-Protocol-Version: 2025-06-18\r\n{session}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    raw(at, request.as_bytes())
}

fn mcp_session(at: SocketAddr, token: &str) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let a = mcp_post(at, token, None, &init.to_string());
    assert_eq!(a.status, 200, "{}", a.body);
    a.header("mcp-session-id")
        .expect("a session id")
        .to_string()
}

#[test]
fn a_flood_of_mcp_sessions_ends_only_the_flooders_own_and_a_batch_runs_nothing() {
    let env = Env::new();
    let write = |actor: &str| {
        env.ok(&["token", "create", "--actor", actor, "-q"])
            .trim()
            .to_string()
    };
    let (alice, mallory) = (write("alice"), write("mallory"));
    let server = Served::start(&env, &[]);
    let at = server.address;
    let hers = mcp_session(at, &alice);
    for _ in 0..100 {
        mcp_session(at, &mallory);
    }
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string();
    assert_eq!(
        mcp_post(at, &alice, Some(&hers), &ping).status,
        200,
        "alice keeps her session"
    );
    // A batch is refused before any of its messages runs: its deposit is not written.
    let deposit = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "deposit", "arguments": {"title": "from a batch"}}});
    let batch = Value::Array(vec![deposit; 3]).to_string();
    let refused = mcp_post(at, &alice, Some(&hers), &batch);
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert_eq!(
        env.ok(&["pull", "--latest", "5", "--json"]).trim(),
        "",
        "nothing written"
    );
}

#[test]
fn revoking_a_token_ends_its_mcp_stream_within_a_second() {
    let env = Env::new();
    let made = env.ok(&["token", "create", "--actor", "agent", "--json"]);
    let made: Value = serde_json::from_str(&made).unwrap();
    let (token, id) = (
        made["token"].as_str().unwrap(),
        made["token_id"].as_str().unwrap(),
    );
    let server = Served::start(&env, &[]);
    let at = server.address;
    let session = mcp_session(at, token);
    let mut s = TcpStream::connect(at).unwrap();
    let request = format!(
        "GET /mcp HTTP/1.1\r\nHost: {at}\r\nAuthorization: Bearer {token}\r\n\
         Accept: text/event-stream\r\nMcp-Session-Id: {session}\r\n\r\n"
    );
    s.write_all(request.as_bytes()).unwrap();
    let mut reader = BufReader::new(s);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    env.ok(&["token", "revoke", id]);
    let revoked = Instant::now();
    reader
        .get_mut()
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    // The stream ends with the last chunk of its body (the connection may stay open).
    loop {
        let mut line = String::new();
        let n = reader.read_line(&mut line).expect("the stream ended");
        if n == 0 || line == "0\r\n" {
            break;
        }
    }
    let took = revoked.elapsed();
    assert!(
        took < Duration::from_millis(1500),
        "the stream ended {took:?} after the revocation"
    );
}
