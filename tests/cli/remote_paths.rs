//! A remote caller that names a file of this machine gets a refusal, and relay opens no file
//! to give it (issue 57). Each path is a FIFO: opening one to read blocks until someone
//! writes, so a door that opened it before the check would never answer. Sent as deliverables
//! of a deposit through HTTP and through MCP over HTTP with a token, each is refused
//! `invalid_input` at once, and no reader ever held the FIFO open.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::harness::Env;
use crate::serve::Served;
use crate::transports::{self, Answer, HttpCall};

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Whether any process has `fifo` open to read right now: a writer's non-blocking open
/// fails with ENXIO when none has.
fn has_reader(fifo: &Path) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    const O_NONBLOCK: i32 = 0o4000;
    std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(O_NONBLOCK)
        .open(fifo)
        .is_ok()
}

#[test]
fn a_remote_caller_naming_local_files_is_refused_before_any_is_opened() {
    let env = Env::new();
    let git = |args: &[&str]| {
        let ok = env.program("git", args).output().expect("run git").status;
        assert!(ok.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(env.path(".gitignore"), "secret.fifo\n").unwrap();
    let outside = tempfile::tempdir().unwrap();
    let fifos = [
        outside.path().join("outside.fifo"),
        env.path("secret.fifo"),
        env.store().join("store.fifo"),
    ];
    for fifo in &fifos {
        mkfifo(fifo);
    }
    let token = env.ok(&["token", "create", "--actor", "remote", "-q"]);
    let token = token.trim();
    let server = Served::start(&env, &[]);
    let root = env.path("");
    for fifo in &fifos {
        // Absolute outside the tree; relative to the tree's top inside it.
        let named = match fifo.strip_prefix(&root) {
            Ok(rel) => rel.display().to_string(),
            Err(_) => fifo.display().to_string(),
        };
        let started = Instant::now();
        let body = json!({"title": "Leak", "deliverables": [{"path": named}]});
        let http = transports::http(
            &env,
            &server,
            token,
            &HttpCall {
                method: "POST",
                path: "/v1/projects/demo/packages".into(),
                body: Some(body.to_string()),
            },
        );
        let arguments = json!({"title": "Leak", "deliverables": [named]});
        let mcp = transports::mcp_http(&env, &server, token, "deposit", &arguments);
        let refused = Answer::Failed("invalid_input".into());
        assert_eq!(http, refused, "HTTP, {named}");
        assert_eq!(mcp, refused, "MCP over HTTP, {named}");
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "{named}: the answers took {:?}",
            started.elapsed()
        );
        assert!(!has_reader(fifo), "{named} is held open");
    }
}
