//! `relay serve` and `relay token`: the HTTP server started as a process on a free port,
//! driven with curl and with raw sockets, and a real client relay did not write (Python httpx,
//! tests/http) run against it. The helpers [`Served`], [`curl`] and [`logs`] are for any test
//! of the server (the event stream's too).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{BIN, Env};

/// A `relay serve` running for a test; killed when dropped.
pub struct Served {
    child: Child,
    /// The base URL it printed, e.g. `http://127.0.0.1:45123`.
    pub url: String,
    pub address: SocketAddr,
    /// Where its stderr goes.
    stderr: PathBuf,
}

impl Served {
    /// Starts `relay serve --listen 127.0.0.1:0 ARGS` in `env` and reads the address it bound
    /// from the first line of its stdout (so the server is listening when this returns).
    #[track_caller]
    pub fn start(env: &Env, args: &[&str]) -> Served {
        let mut all = vec!["serve", "--listen", "127.0.0.1:0"];
        all.extend_from_slice(args);
        let (served, line) = Served::launch(env, &all);
        assert!(
            line.starts_with("listening on "),
            "relay serve printed {line:?}"
        );
        served
    }

    /// Starts `relay ui --no-open ARGS` in `env`: the server, and the one-time login link it
    /// printed as its first line.
    #[track_caller]
    pub fn ui(env: &Env, args: &[&str]) -> (Served, String) {
        let mut all = vec!["ui", "--no-open"];
        all.extend_from_slice(args);
        Served::launch(env, &all)
    }

    /// Runs relay with `all` and reads the first line of its stdout, which holds the URL the
    /// server bound; returns the server and that line.
    #[track_caller]
    pub fn launch(env: &Env, all: &[&str]) -> (Served, String) {
        let stderr = env.dir.join(format!("serve-{}.stderr", std::process::id()));
        let mut child = env
            .command(all)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("start relay");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let line = line.trim().to_string();
        let Some(at) = line.find("http://") else {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "relay {all:?} printed {line:?}; stderr: {}",
                std::fs::read_to_string(&stderr).unwrap_or_default()
            );
        };
        let rest = &line[at + "http://".len()..];
        let host = rest.split('/').next().unwrap();
        let address = host.parse().unwrap();
        let served = Served {
            child,
            url: format!("http://{host}"),
            address,
            stderr,
        };
        (served, line)
    }

    /// `url` + `path`.
    pub fn at(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }

    /// Sends SIGTERM: the server stops accepting, finishes what is in flight and exits.
    pub fn terminate(&self) {
        let pid = self.child.id().to_string();
        let sent = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Waits for the server to exit: its exit code, and what it wrote to stderr.
    pub fn wait(mut self) -> (Option<i32>, String) {
        let status = self.child.wait().unwrap();
        let stderr = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        (status.code(), stderr)
    }

    /// [`Served::terminate`], then [`Served::wait`].
    pub fn stop(self) -> (Option<i32>, String) {
        self.terminate();
        self.wait()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs curl with `args` (a URL among them) and returns the status and the body as JSON.
#[track_caller]
pub fn curl(env: &Env, args: &[&str]) -> (u16, Value) {
    let mut all = vec!["-sS", "--max-time", "20", "-w", "\n%{http_code}"];
    all.extend_from_slice(args);
    let out = env.program("curl", &all).output().expect("run curl");
    assert!(out.status.success(), "curl {args:?}: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let (body, status) = text.rsplit_once('\n').unwrap();
    let body = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON: {body:?}: {e}"))
    };
    (status.parse().unwrap(), body)
}

/// A whole wire package (§6.1) of `project` by `by` (`{"id", "type"}`), made now, with
/// `members` over it: `relay serve` takes a deposit whole and fills nothing in.
pub fn whole_package(project: &str, by: Value, members: Value) -> Value {
    let mut p = serde_json::json!({"package_id": relay::wire::ids::new_id("pkg"),
        "project_id": project, "relay_version": "0.1", "title": "Whole",
        "status": "complete", "package_type": "standard", "review_type": "none",
        "created_at": relay::wire::time::format(relay::wire::time::now()), "created_by": by});
    let map = p.as_object_mut().unwrap();
    map.extend(members.as_object().unwrap().clone());
    p
}

/// The local user of the test environment, as the CLI writes for them.
pub fn tester() -> Value {
    serde_json::json!({"id": "tester", "type": "human"})
}

/// POSTs `body` as JSON to `url` with curl: the status and the body as JSON.
#[track_caller]
pub fn post_json(env: &Env, url: &str, body: &Value) -> (u16, Value) {
    let body = body.to_string();
    curl(env, &["-X", "POST", "-H", JSON, "-d", &body, url])
}

/// Every log of the store and its token file, as bytes: what a refused request must leave
/// as it was.
pub fn logs(env: &Env) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(env.store())
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .filter(|p| {
            p.extension().is_some_and(|e| e == "ndjson")
                && !p.starts_with(env.store().join("cache"))
        })
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    out.sort();
    out
}

const JSON: &str = "Content-Type: application/json";

#[test]
fn serve_prints_its_address_and_answers_conformance_as_the_cli_does() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    let (status, body) = curl(&env, &[&server.at("/v1/conformance")]);
    assert_eq!(status, 200);
    assert_eq!(body, env.ok_json(&["conformance"]));
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("relay serve: stopped"), "{stderr}");
}

#[test]
fn serve_json_prints_the_url_as_an_object() {
    let env = Env::new();
    let mut child = env
        .command(&["serve", "--listen", "127.0.0.1:0", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let v: Value = serde_json::from_str(&line).unwrap();
    assert!(
        v["url"].as_str().unwrap().starts_with("http://127.0.0.1:"),
        "{v}"
    );
}

#[test]
fn a_deposit_over_http_is_pulled_at_once_by_the_cli() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/packages");
    let body = whole_package(
        "demo",
        tester(),
        json!({"title": "Deposited over HTTP", "decisions_made": ["Serve with axum"]}),
    );
    let (status, done) = curl(
        &env,
        &["-X", "POST", "-H", JSON, "-d", &body.to_string(), &url],
    );
    assert_eq!(status, 201, "{done}");
    let id = done["package"]["package_id"].as_str().unwrap();
    assert!(done["hash"].as_str().unwrap().starts_with("sha256:"));
    assert_eq!(done["package"], body, "taken whole, nothing filled in");
    let pulled = env.ok_json(&["pull", id])["package"].clone();
    assert_eq!(pulled, done["package"]);
    let latest = env.ok_json(&["pull", "--latest", "--limit", "1"])["package"].clone();
    assert_eq!(latest["package_id"], id);
    // A retry of the same package is 200, and writes nothing.
    let before = logs(&env);
    let again = done["package"].to_string();
    let (status, same) = curl(&env, &["-X", "POST", "-H", JSON, "-d", &again, &url]);
    assert_eq!((status, &same), (200, &done));
    assert_eq!(logs(&env), before);
}

#[test]
fn serve_refuses_to_listen_beyond_loopback_without_a_token() {
    let env = Env::new();
    let r = env.run(&["serve", "--listen", "0.0.0.0:0", "--json"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(r.error()["error"], "usage");
    let message = r.error()["message"].as_str().unwrap().to_string();
    assert!(message.contains("relay token create"), "{message}");
    assert!(r.stdout.is_empty(), "it never listened: {}", r.stdout);
}

#[test]
fn tokens_are_required_once_one_is_live_and_refused_once_revoked() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/packages");
    assert_eq!(curl(&env, &[&url]).0, 200, "no token yet: open on loopback");
    let made = env.ok_json(&[
        "token",
        "create",
        "--actor",
        "ci-bot",
        "--actor-type",
        "script",
    ]);
    let token = made["token"].as_str().unwrap();
    let bearer = format!("Authorization: Bearer {token}");
    let (status, body) = curl(&env, &[&url]);
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("unauthenticated"))
    );
    assert_eq!(
        curl(&env, &["-H", "Authorization: Bearer relay_nope", &url]).0,
        401
    );
    assert_eq!(curl(&env, &[&server.at("/v1/conformance")]).0, 200);
    let ci_bot = json!({"id": "ci-bot", "type": "script"});
    let deposit = whole_package("demo", ci_bot, json!({"title": "From CI"})).to_string();
    let (status, done) = curl(
        &env,
        &[
            "-X", "POST", "-H", JSON, "-H", &bearer, "-d", &deposit, &url,
        ],
    );
    assert_eq!(status, 201, "{done}");
    assert_eq!(
        done["package"]["created_by"],
        json!({"id": "ci-bot", "type": "script"})
    );
    let id = made["token_id"].as_str().unwrap();
    env.ok(&["token", "revoke", id]);
    let (status, body) = curl(&env, &["-H", &bearer, &url]);
    assert_eq!(status, 401);
    assert!(
        body["message"].as_str().unwrap().contains("revoked"),
        "{body}"
    );
}

/// Writes `bytes` on a connection and reads until the server closes it: the raw answer (empty
/// when it closed without one).
fn exchange(stream: &mut TcpStream, bytes: &[u8]) -> String {
    stream.write_all(bytes).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn sigterm_finishes_the_request_in_flight_then_exits_0() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let body = whole_package(
        "demo",
        tester(),
        json!({"title": "Written during shutdown"}),
    )
    .to_string();
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    // With `Expect: 100-continue` the server says when the handler starts reading the body:
    // from then on the request is in flight.
    let head = format!(
        "POST /v1/projects/demo/packages HTTP/1.1\r\nHost: {}\r\n{JSON}\r\nContent-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        server.address,
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut interim = Vec::new();
    while !interim.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        stream.read_exact(&mut byte).unwrap();
        interim.push(byte[0]);
    }
    assert!(interim.starts_with(b"HTTP/1.1 100"), "{interim:?}");
    let address = server.address;
    server.terminate();
    // The server stops accepting: a new connection is refused (waited for, not slept on).
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(address).is_ok() {
        assert!(Instant::now() < deadline, "the server still accepts");
        std::thread::yield_now();
    }
    // The request in flight still completes, and is written.
    let answer = exchange(&mut stream, body.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let (code, stderr) = server.wait();
    assert_eq!(code, Some(0), "{stderr}");
    let latest = env.ok_json(&["pull", "--latest", "--limit", "1"])["package"].clone();
    assert_eq!(latest["title"], "Written during shutdown");
}

#[test]
fn bad_requests_answer_json_errors_and_write_nothing() {
    let env = Env::new();
    let server = Served::start(&env, &["--max-body", "1024"]);
    let before = logs(&env);
    let deposit = "/v1/projects/demo/packages";
    let big = json!({"title": "x".repeat(2000)}).to_string();
    let post = ["-X", "POST", "-H", JSON];
    // (curl's arguments, the path, the status and the error code expected)
    let cases: [(&[&str], &str, u16, &str); 12] = [
        (
            &[&post[..], &["-d", "{\"title\": "]].concat(),
            deposit,
            400,
            "invalid_schema",
        ),
        (
            &["-X", "POST", "-d", "{\"title\": \"t\"}"],
            deposit,
            415,
            "unsupported_media_type",
        ),
        (
            &[&post[..], &["-d", &big]].concat(),
            deposit,
            413,
            "payload_too_large",
        ),
        (&post, deposit, 400, "invalid_schema"),
        (&[], "/v1/nowhere", 404, "not_found"),
        (&["-X", "PUT"], "/v1/conformance", 405, "method_not_allowed"),
        (
            &["--path-as-is"],
            "/v1/projects/../packages",
            404,
            "project_not_found",
        ),
        (
            &[],
            "/v1/projects/%2e%2e%2f%2e%2e/orient",
            404,
            "project_not_found",
        ),
        (&[], "/v1/projects/%ff/orient", 400, "invalid_input"),
        (
            &[],
            "/v1/projects/demo/packages?mode=sideways",
            400,
            "invalid_input",
        ),
        (
            &[],
            "/v1/projects/demo/packages?limit=many",
            400,
            "invalid_schema",
        ),
        (&[], "/v1/packages/pkg_nope", 404, "package_not_found"),
    ];
    for (args, path, status, code) in cases {
        let url = server.at(path);
        let (got, body) = curl(&env, &[args, &[url.as_str()]].concat());
        assert_eq!(
            (got, body["error"].as_str()),
            (status, Some(code)),
            "{args:?} {path}: {body}"
        );
        assert!(body["message"].is_string(), "{body}");
    }
    assert_eq!(logs(&env), before, "no bad request wrote anything");
}

/// A slow client holds nothing for long: a body that does not finish arriving is a 408, and
/// headers that do not are a closed connection, each after the time limit (1 s here).
#[test]
fn slow_clients_time_out_and_write_nothing() {
    let env = Env::new();
    let server = Served::start(&env, &["--timeout", "1"]);
    let before = logs(&env);
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let head = format!(
        "POST /v1/projects/demo/packages HTTP/1.1\r\nHost: {}\r\n{JSON}\r\nContent-Length: 100\r\n\r\n{{\"title\"",
        server.address
    );
    let answer = exchange(&mut stream, head.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\""), "{answer}");
    // Headers that never finish arriving: the connection is closed.
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let answer = exchange(&mut stream, b"GET /v1/conformance HTTP/1.1\r\nHost: rel");
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
        "{answer}"
    );
    assert_eq!(logs(&env), before, "no bad request wrote anything");
}

/// A real HTTP client relay did not write (httpx, pinned in tests/http/requirements.txt)
/// drives every route, the token checks and the bad inputs (tests/http/test_routes.py).
/// `.ci/run` installs httpx into the venv RELAY_MCP_PYTHON names.
/// The Python that has httpx (RELAY_MCP_PYTHON, which `.ci/run` sets), or `None` after saying
/// loudly why `test` is skipped.
fn httpx_python(env: &Env, test: &str) -> Option<String> {
    // Read here: the harness keeps RELAY_* out of the programs it starts.
    let Some(python) = std::env::var("RELAY_MCP_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
    else {
        eprintln!(
            "SKIPPED {test}: RELAY_MCP_PYTHON is not set, so the httpx client test of \
             `relay serve` did not run (.ci/run sets it)"
        );
        return None;
    };
    let has_httpx = env
        .program(&python, &["-c", "import httpx"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_httpx {
        eprintln!(
            "SKIPPED {test}: {python} has no httpx; pip install -r tests/http/requirements.txt \
             (.ci/run does)"
        );
        return None;
    }
    Some(python)
}

#[test]
fn python_httpx_client_drives_every_route() {
    let env = Env::new();
    let Some(python) = httpx_python(&env, "python_httpx_client_drives_every_route") else {
        return;
    };
    env.ok(&["projects", "create", "other"]);
    let server = Served::start(&env, &[]);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/http/test_routes.py");
    let out = env
        .program(&python, &[script])
        .env("RELAY_HTTP_BIN", BIN)
        .env("RELAY_HTTP_URL", &server.url)
        .output()
        .expect("run the Python httpx test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "tests/http/test_routes.py failed:\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.contains("ok:"), "{stdout}");
    let (code, server_stderr) = server.stop();
    assert_eq!(code, Some(0), "{server_stderr}");
}

/// The event stream read by httpx: events as deposits land, and a client that disconnects
/// mid-stream and reconnects with Last-Event-ID gets exactly what it missed
/// (tests/http/test_events.py).
#[test]
fn python_httpx_follows_the_event_stream_and_resumes_with_last_event_id() {
    let env = Env::new();
    let Some(python) = httpx_python(&env, "python_httpx_follows_the_event_stream") else {
        return;
    };
    let server = Served::start(&env, &[]);
    let cursor = env.ok(&["watch", "--cursor"]);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/http/test_events.py");
    let out = env
        .program(&python, &[script, &server.url, "demo", cursor.trim()])
        .output()
        .expect("run the Python event-stream test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "tests/http/test_events.py failed:\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.contains("ok:"), "{stdout}");
    let (code, server_stderr) = server.stop();
    assert_eq!(code, Some(0), "{server_stderr}");
}

/// `curl -N` follows the stream as `relay watch` would, with a token, and an open stream does
/// not hold up a graceful stop.
#[test]
fn curl_follows_events_with_a_token_and_a_stop_ends_the_stream() {
    let env = Env::new();
    let token = env.ok(&["token", "create", "--actor", "watcher", "--read-only", "-q"]);
    let token = token.trim().to_string();
    let server = Served::start(&env, &[]);
    let cursor = env.ok(&["watch", "--cursor"]);
    let url = server.at(&format!("/v1/projects/demo/events?since={}", cursor.trim()));
    let auth = format!("Authorization: Bearer {token}");
    let denied = env
        .program(
            "curl",
            &["-s", "-o", "/dev/null", "-w", "%{http_code}", &url],
        )
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&denied.stdout), "401");
    let mut curl = env
        .program("curl", &["-sN", "-H", &auth, &url])
        .stdout(Stdio::piped())
        .spawn()
        .expect("curl runs");
    let id = env.deposit("seen by curl", &[]);
    let mut out = BufReader::new(curl.stdout.take().unwrap());
    let mut lines = Vec::new();
    while !lines.iter().any(|l: &String| l.starts_with("data:")) {
        let mut line = String::new();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "the stream ended early"
        );
        lines.push(line.trim_end().to_string());
    }
    let id_line = lines.iter().find(|l| l.starts_with("id: ")).unwrap();
    assert!(lines.contains(&"event: package".to_string()), "{lines:?}");
    let data: Value =
        serde_json::from_str(lines.last().unwrap().trim_start_matches("data:").trim()).unwrap();
    assert_eq!(data["record"]["package"]["package_id"], id.as_str());
    assert_eq!(id_line.trim_start_matches("id: "), data["cursor"]);
    // SIGTERM with the stream open: the server ends it and stops cleanly.
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
    let _ = curl.wait();
}

/// relay's project routes: create (201, then 409), list what the caller may see, archive
/// (writes are then refused), and a token's scope holds for creation too.
#[test]
fn projects_are_created_listed_and_archived_over_http() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let json_body = ["-H", "Content-Type: application/json", "-d"];
    let url = server.at("/v1/projects");
    let create = |body: &str| {
        let mut args = vec!["-X", "POST", url.as_str()];
        args.extend(json_body);
        args.push(body);
        curl(&env, &args)
    };
    let (status, made) = create(r#"{"project_id": "web", "name": "Web"}"#);
    assert_eq!(
        (status, &made["project_id"], &made["name"]),
        (201, &json!("web"), &json!("Web"))
    );
    let (status, again) = create(r#"{"project_id": "web"}"#);
    assert_eq!((status, &again["error"]), (409, &json!("project_exists")));
    let (status, bad) = create(r#"{"name": "no id"}"#);
    assert_eq!(status, 400, "{bad}");
    let (status, listed) = curl(&env, &[&url]);
    assert_eq!(status, 200);
    let ids: Vec<&Value> = listed["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["project_id"])
        .collect();
    assert_eq!(ids, [&json!("demo"), &json!("web")]);

    let archive = server.at("/v1/projects/web/archive");
    let (status, archived) = curl(&env, &["-X", "POST", &archive]);
    assert_eq!(status, 200, "{archived}");
    assert!(archived["archived_at"].is_string(), "{archived}");
    let deposit = server.at("/v1/projects/web/packages");
    let mut args = vec!["-X", "POST", deposit.as_str()];
    args.extend(json_body);
    args.push(r#"{"title": "late"}"#);
    assert_eq!(curl(&env, &args).1["error"], "project_archived");
    assert_eq!(
        env.ok(&["projects", "list", "--json"])
            .matches("archived_at")
            .count(),
        1
    );

    // A token scoped to `web` may not create `api`.
    let token = env.ok(&["token", "create", "--actor", "bot", "--scope", "web", "-q"]);
    let auth = format!("Authorization: Bearer {}", token.trim());
    let mut args = vec!["-X", "POST", url.as_str(), "-H", &auth];
    args.extend(json_body);
    args.push(r#"{"project_id": "api"}"#);
    assert_eq!(curl(&env, &args).0, 403);
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

/// A chunked body over the limit is 413 however it is cut: in chunks that add up to too much,
/// or in one chunk whose declared size does not even fit in 64 bits (which was a 400).
#[test]
fn an_oversized_chunked_body_is_413_and_writes_nothing() {
    let env = Env::new();
    let server = Served::start(&env, &["--max-body", "1024"]);
    let before = logs(&env);
    let body = json!({"title": "x".repeat(3000)}).to_string();
    let head = format!(
        "POST /v1/projects/demo/packages HTTP/1.1\r\nHost: {}\r\n{JSON}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        server.address
    );
    let small_chunks: String = body
        .as_bytes()
        .chunks(100)
        .map(|c| format!("{:x}\r\n{}\r\n", c.len(), String::from_utf8_lossy(c)))
        .collect();
    for chunks in [
        format!("{small_chunks}0\r\n\r\n"),
        format!("FFFFFFFFFFFFFFFFFF\r\n{body}\r\n0\r\n\r\n"),
    ] {
        let mut stream = TcpStream::connect(server.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let answer = exchange(&mut stream, format!("{head}{chunks}").as_bytes());
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(answer.contains("\"payload_too_large\""), "{answer}");
    }
    assert_eq!(logs(&env), before, "no oversized body wrote anything");
}
