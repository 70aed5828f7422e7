//! `relay token`: bearer tokens for `relay serve`, shown once, stored as their hashes under
//! `.relay/local/`, listed without secrets and revoked by id.

use serde_json::{Value, json};

use crate::harness::{Env, json_snapshot, snapshot};

#[test]
fn token_commands_show_a_token_once_and_keep_only_its_hash() {
    let env = Env::new();
    env.ok(&["projects", "create", "web"]);
    let r = env.run(&[
        "token",
        "create",
        "--actor",
        "claude",
        "--project",
        "web",
        "--read-only",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let token = r.stdout.trim().to_string();
    assert!(token.starts_with("relay_") && token.len() == 70, "{token}");
    // The token on stdout, and on stderr that it "cannot show it again".
    snapshot!("create", r.transcript());
    let file = env.store().join("local/tokens.ndjson");
    let stored = std::fs::read_to_string(&file).unwrap();
    assert!(!stored.contains(&token), "the token itself is never stored");
    let listed = env.run(&["token", "list", "--json"]).json();
    json_snapshot!("list_json", &listed);
    assert_eq!(listed["actor_id"], "claude");
    assert_eq!(listed["actor_type"], "agent");
    assert_eq!(listed["projects"], json!(["web"]));
    assert_eq!(listed["read_only"], true);
    assert_eq!(listed["revoked_at"], Value::Null);
    assert!(
        listed.get("sha256").is_none() && listed.get("token").is_none(),
        "{listed}"
    );
    let id = listed["token_id"].as_str().unwrap();
    let revoked = env.ok_json(&["token", "revoke", id]);
    assert!(revoked["revoked_at"].is_string());
    json_snapshot!("revoke_json", &revoked);
    let human = env.ok(&["token", "list"]);
    assert!(human.contains(id), "{human}");
    // The token's id, and that it is revoked.
    snapshot!("list_revoked", human);
    let r = env.run(&["token", "revoke", "tok_nope", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("token_not_found"))
    );
    let mut errors = vec![r.transcript()];
    errors.push(env.run(&["token", "revoke", "tok_nope"]).transcript());
    let r = env.run(&[
        "token", "create", "--actor", "x", "--scope", "nope", "--json",
    ]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("project_not_found"))
    );
    errors.push(r.transcript());
    snapshot!("errors", errors.join("\n"));
    // The store's .gitignore keeps local/ out of git.
    assert!(crate::harness::read(&env.store().join(".gitignore")).contains("local/"));
}

/// `curl -sN -i URL` following an event stream: its lines as they come.
struct Stream {
    child: std::process::Child,
    lines: std::io::BufReader<std::process::ChildStdout>,
}

impl Stream {
    /// Opens the stream at `url` with `headers` and reads its status and headers: the caller
    /// was let in when this returns.
    #[track_caller]
    fn open(env: &Env, url: &str, headers: &[&str]) -> Stream {
        let mut args = vec!["-sN", "-i", "--max-time", "120"];
        for h in headers {
            args.extend(["-H", h]);
        }
        args.push(url);
        let mut child = env
            .program("curl", &args)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("curl runs");
        let lines = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut s = Stream { child, lines };
        let head = s.until(|l| l.is_empty());
        assert!(head[0].starts_with("HTTP/1.1 200"), "{head:?}");
        s
    }

    /// Lines up to and including the first that `last` accepts, or to the end.
    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        use std::io::BufRead;
        let mut out = Vec::new();
        loop {
            let mut line = String::new();
            if self.lines.read_line(&mut line).unwrap() == 0 {
                return out;
            }
            let line = line.trim_end().to_string();
            let done = last(&line);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// The lines up to the end of the stream, and how long it took to end.
    fn until_end(&mut self) -> (Vec<String>, std::time::Duration) {
        let started = std::time::Instant::now();
        let lines = self.until(|_| false);
        (lines, started.elapsed())
    }

    /// The data of the next event named `kind`.
    #[track_caller]
    fn next(&mut self, kind: &str) -> Value {
        let event = format!("event: {kind}");
        let seen = self.until(|l| l == event);
        assert_eq!(seen.last(), Some(&event), "the stream ended: {seen:?}");
        let data = self.until(|l| l.starts_with("data:"));
        serde_json::from_str(data.last().unwrap().trim_start_matches("data:").trim()).unwrap()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The error a stream ended with: its last event is `closed`, within a second of the change.
#[track_caller]
fn ended_within_a_second(stream: &mut Stream, code: &str) -> String {
    let (lines, took) = stream.until_end();
    assert!(
        took < std::time::Duration::from_secs(1),
        "the stream ended {took:?} after the change: {lines:?}"
    );
    let at = lines
        .iter()
        .position(|l| l == "event: closed")
        .unwrap_or_else(|| panic!("no closed event: {lines:?}"));
    let data: Value =
        serde_json::from_str(lines[at + 1].trim_start_matches("data:").trim()).unwrap();
    assert_eq!(data["error"], code, "{data}");
    data["message"].as_str().unwrap().to_string()
}

#[test]
fn revoking_or_narrowing_a_token_ends_its_open_streams_within_a_second() {
    let env = Env::new();
    env.ok(&["projects", "create", "web"]);
    let server = crate::serve::Served::start(&env, &[]);
    let events = |project: &str| server.at(&format!("/v1/projects/{project}/events"));

    // A stream without a token, on loopback while none is live, ends once one is made.
    let mut open = Stream::open(&env, &events("demo"), &[]);
    let made = env.ok_json(&["token", "create", "--actor", "bot", "--scope", "demo,web"]);
    let message = ended_within_a_second(&mut open, "unauthenticated");
    assert!(message.contains("needs a token"), "{message}");

    let id = made["token_id"].as_str().unwrap();
    let auth = format!("Authorization: Bearer {}", made["token"].as_str().unwrap());
    let mut demo = Stream::open(&env, &events("demo"), &[&auth]);
    let mut web = Stream::open(&env, &events("web"), &[&auth]);
    // Narrowed to `web`: the stream on `demo` ends, the one on `web` goes on.
    env.ok(&["token", "narrow", id, "--scope", "web"]);
    let message = ended_within_a_second(&mut demo, "unauthorized");
    assert!(
        message.contains("does not cover project `demo`"),
        "{message}"
    );
    let seen = env.deposit("still followed", &["--project", "web"]);
    assert_eq!(web.next("package")["record"]["package"]["package_id"], seen);
    // Read-only still reads.
    env.ok(&["token", "narrow", id, "--read-only"]);
    let seen = env.deposit("still read", &["--project", "web"]);
    assert_eq!(web.next("package")["record"]["package"]["package_id"], seen);
    // Revoked: the last stream ends.
    env.ok(&["token", "revoke", id]);
    let message = ended_within_a_second(&mut web, "unauthenticated");
    assert!(message.contains("revoked"), "{message}");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn token_narrow_keeps_some_projects_never_adds_one_and_lists_the_narrower_scope() {
    let env = Env::new();
    env.ok(&["projects", "create", "web"]);
    let made = env.ok_json(&["token", "create", "--actor", "bot", "--scope", "demo,web"]);
    let id = made["token_id"].as_str().unwrap();
    let narrowed = env.ok_json(&["token", "narrow", id, "--scope", "web", "--read-only"]);
    assert_eq!(narrowed["projects"], json!(["web"]));
    assert_eq!(narrowed["read_only"], true);
    assert!(narrowed["narrowed_at"].is_string(), "{narrowed}");
    json_snapshot!("narrow_json", &narrowed);
    let listed = env.ok_json(&["token", "list"]);
    assert_eq!(listed["projects"], json!(["web"]));
    let human = env.ok(&["token", "list"]);
    // "web  read-only"
    snapshot!("list_narrowed", human);
    let file = env.store().join("local/tokens.ndjson");
    let before = std::fs::read(&file).unwrap();
    let mut errors = Vec::new();
    for (args, code) in [
        (vec!["--scope", "demo"], "invalid_input"),
        (vec![], "invalid_input"),
    ] {
        let mut all = vec!["token", "narrow", id, "--json"];
        all.extend(args);
        let r = env.run(&all);
        assert_eq!(
            (r.code, r.error()["error"].as_str()),
            (4, Some(code)),
            "{r:?}"
        );
        errors.push(r.transcript());
    }
    snapshot!("narrow_errors", errors.join("\n"));
    let r = env.run(&["token", "narrow", "tok_nope", "--read-only", "--json"]);
    assert_eq!(r.error()["error"], "token_not_found");
    env.ok(&["token", "narrow", id, "--scope", "web"]);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "nothing narrower: nothing written"
    );
}
