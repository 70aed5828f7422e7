//! `relay watch`: the envelopes, cursors that resume with nothing missed or repeated, a
//! running watch that sees another process's deposit, and resync events when git rewrites a
//! log under it (a `pull --rebase`), while a plain merge is only new records.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::Value;

use crate::git::{git, in_dir, publish_and_clone};
use crate::harness::Env;

/// `relay watch ARGS --json` running in `dir`, its events arriving on a channel.
pub(crate) struct Running {
    child: Child,
    pub(crate) events: Receiver<Value>,
}

impl Running {
    pub(crate) fn start(env: &Env, dir: &Path, args: &[&str]) -> Running {
        let mut child = env
            .command(&[&["watch", "--json"], args].concat())
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("relay watch starts");
        let out = BufReader::new(child.stdout.take().unwrap());
        let (tx, events) = channel();
        std::thread::spawn(move || {
            for line in out.lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line).expect("an event is JSON");
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Running { child, events }
    }

    /// The next event; a watch that says nothing for 20 s has failed.
    pub(crate) fn next(&self) -> Value {
        self.events
            .recv_timeout(Duration::from_secs(20))
            .expect("an event within 20 s")
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn kinds(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["kind"].as_str().unwrap()).collect()
}

pub(crate) fn titles(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["kind"] == "package")
        .map(|e| e["record"]["package"]["title"].as_str().unwrap())
        .collect()
}

#[test]
fn every_kind_comes_as_one_envelope_a_line_in_log_order() {
    let env = Env::new();
    let id = env.deposit(
        "first",
        &["--status", "awaiting_review", "--review", "human"],
    );
    env.ok(&["review", "approve", &id, "--note", "fine"]);
    env.ok(&["facts", "assert", "api", "status", "live"]);
    env.ok(&["facts", "assert", "api", "status", "down"]);
    env.ok(&["session", "start", "--callsign", "coral-heron"]);
    let events = env
        .run(&["watch", "--since", "beginning", "--once", "--json"])
        .json_lines();
    assert_eq!(
        kinds(&events),
        [
            "project",
            "session",
            "package",
            "transition",
            "fact",
            "fact",
            "fact"
        ]
    );
    for e in &events {
        let keys: Vec<&str> = e.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["cursor", "kind", "project_id", "record"]);
        assert_eq!(e["project_id"], "demo");
        assert!(e["cursor"].as_str().unwrap().starts_with("w1."));
    }
    let package = &events[2]["record"];
    assert_eq!(package["package"]["package_id"], id.as_str());
    assert!(package["hash"].as_str().unwrap().starts_with("sha256:"));
    let transition = &events[3]["record"];
    assert_eq!(transition["version"], 2);
    assert_eq!(transition["transition"]["to"], "complete");
    // An assert over a current fact: the closed version, then the new one.
    assert_eq!(events[5]["record"]["value"], "live");
    assert!(events[5]["record"]["valid_to"].is_string());
    assert_eq!(events[6]["record"]["value"], "down");
    assert_eq!(events[1]["record"]["callsign"], "coral-heron");

    let only = env
        .run(&[
            "watch",
            "--since",
            "beginning",
            "--once",
            "--json",
            "--kind",
            "transition,fact",
        ])
        .json_lines();
    assert_eq!(kinds(&only), ["transition", "fact", "fact", "fact"]);
    let human = env.ok(&[
        "watch",
        "--since",
        "beginning",
        "--once",
        "--kind",
        "package",
    ]);
    assert!(
        human.contains(" package    demo ") && human.contains("\"first\" by tester"),
        "{human}"
    );
}

#[test]
fn a_cursor_resumes_with_nothing_missed_or_repeated() {
    let env = Env::new();
    env.deposit("before", &[]);
    let start = env.ok(&["watch", "--cursor"]).trim().to_string();
    for t in ["one", "two", "three"] {
        env.deposit(t, &[]);
    }
    let all = env
        .run(&["watch", "--since", &start, "--once", "--json"])
        .json_lines();
    assert_eq!(titles(&all), ["one", "two", "three"]);
    // From each event's cursor, exactly what came after it.
    for (i, e) in all.iter().enumerate() {
        let rest = env
            .run(&[
                "watch",
                "--since",
                e["cursor"].as_str().unwrap(),
                "--once",
                "--json",
            ])
            .json_lines();
        assert_eq!(titles(&rest), titles(&all[i + 1..]));
    }
    // Nothing new: nothing printed, and the end's cursor is where --cursor says.
    let last = all[2]["cursor"].as_str().unwrap();
    let none = env.run(&["watch", "--since", last, "--once", "--json"]);
    assert_eq!((none.code, none.stdout.as_str()), (0, ""));
    assert_eq!(env.ok(&["watch", "--cursor"]).trim(), last);

    // A cursor is a point in every log, whatever the kinds and projects of the watch that
    // took it: one taken watching facts resumes a watch of packages after the same point.
    let facts_only = env.ok(&["watch", "--cursor", "--kind", "fact"]);
    env.deposit("later", &[]);
    let later = env
        .run(&["watch", "--since", facts_only.trim(), "--once", "--json"])
        .json_lines();
    assert_eq!(titles(&later), ["later"]);
}

#[test]
fn a_running_watch_sees_another_process_deposit() {
    let env = Env::new();
    let cursor = env.ok(&["watch", "--cursor"]).trim().to_string();
    let w = Running::start(&env, &env.dir, &["--since", &cursor]);
    let id = env.deposit("from another process", &[]);
    let e = w.next();
    assert_eq!(e["kind"], "package");
    assert_eq!(e["record"]["package"]["package_id"], id.as_str());
    env.ok(&["facts", "assert", "build", "state", "green"]);
    assert_eq!(w.next()["record"]["value"], "green");

    // The polling fallback gives the same.
    let cursor = env.ok(&["watch", "--cursor"]).trim().to_string();
    let mut cmd = env.command(&["watch", "--json", "--since", &cursor, "--until-idle", "30"]);
    cmd.env("RELAY_WATCH_POLL", "1").stdout(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    env.deposit("polled", &[]);
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let e: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(e["record"]["package"]["title"], "polled");
}

#[test]
fn until_idle_ends_the_stream_and_bad_input_is_refused() {
    let env = Env::new();
    let run = env.run(&["watch", "--until-idle", "0.2", "--json"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    let bad = env.run(&["watch", "--since", "w1.%%%", "--once", "--json"]);
    assert_eq!(bad.code, 4, "{}", bad.stderr);
    assert_eq!(bad.error()["error"], "invalid_input");
    let bad = env.run(&["watch", "--kind", "packages", "--once", "--json"]);
    assert_eq!(bad.code, 4);
    assert!(
        bad.error()["message"]
            .as_str()
            .unwrap()
            .contains("packages")
    );
    let bad = env.run(&["--project", "nope", "watch", "--once", "--json"]);
    assert_eq!(bad.error()["error"], "project_not_found");
}

#[test]
fn watch_across_git_a_merge_adds_records_and_a_rebase_resyncs() {
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: git is not installed");
        return;
    }
    let env = Env::empty();
    let root = env.dir.clone();
    let origin = root.join("origin.git");
    git(&root, &["init", "--bare", "-q", origin.to_str().unwrap()]);
    let a = root.join("a");
    let b = root.join("b");
    git(
        &root,
        &["clone", "-q", origin.to_str().unwrap(), a.to_str().unwrap()],
    );
    in_dir(&env, &a, &["init", "--project", "demo"]);
    in_dir(&env, &a, &["deposit", "--title", "base"]);
    publish_and_clone(&a, &origin, &b, "base");
    let commit = |dir: &Path, msg: &str| {
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-q", "-m", msg]);
    };

    // A merge: the other clone's record arrives after ours, as a plain new event.
    in_dir(&env, &b, &["deposit", "--title", "theirs 1"]);
    commit(&b, "theirs 1");
    git(&b, &["push", "-q", "origin", "HEAD:main"]);
    in_dir(&env, &a, &["deposit", "--title", "ours 1"]);
    commit(&a, "ours 1");
    let cursor = in_dir(&env, &a, &["watch", "--cursor"]).trim().to_string();
    let w = Running::start(&env, &a, &["--since", &cursor]);
    git(&a, &["pull", "-q", "--no-rebase", "origin", "main"]);
    let e = w.next();
    assert_eq!(e["kind"], "package", "{e}");
    assert_eq!(e["record"]["package"]["title"], "theirs 1");

    // A rebase puts their new record before ours: the log is rewritten under the watch.
    git(&a, &["push", "-q", "origin", "HEAD:main"]);
    git(&b, &["pull", "-q", "--no-rebase", "origin", "main"]);
    in_dir(&env, &b, &["deposit", "--title", "theirs 2"]);
    commit(&b, "theirs 2");
    git(&b, &["push", "-q", "origin", "HEAD:main"]);
    in_dir(&env, &a, &["deposit", "--title", "ours 2"]);
    assert_eq!(w.next()["record"]["package"]["title"], "ours 2");
    commit(&a, "ours 2");
    git(&a, &["pull", "-q", "--rebase", "origin", "main"]);
    in_dir(&env, &a, &["deposit", "--title", "after"]);
    // git passes through other states on the way (a checkout of theirs, then ours on top);
    // a watch that looks in between says so too. Only the records it had not given come.
    let mut seen = Vec::new();
    loop {
        let e = w.next();
        let done = e["record"]["package"]["title"] == "after";
        seen.push(e);
        if done {
            break;
        }
    }
    let resync = &seen[0];
    assert_eq!(resync["kind"], "resync", "{resync}");
    assert_eq!(resync["project_id"], "demo");
    assert_eq!(resync["record"]["reason"], "rewritten");
    assert_eq!(resync["record"]["replay"], "unseen_lines");
    assert!(
        resync["record"]["log"]
            .as_str()
            .unwrap()
            .starts_with("projects/demo/packages/")
    );
    assert_eq!(titles(&seen), ["theirs 2", "after"]);
    assert!(
        kinds(&seen)
            .iter()
            .all(|k| ["resync", "package"].contains(k))
    );

    // Every record once, from the start, whatever git did.
    let all = env
        .command(&["watch", "--since", "beginning", "--once", "--json"])
        .current_dir(&a)
        .output()
        .unwrap();
    let all: Vec<Value> = String::from_utf8(all.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut got = titles(&all);
    got.sort();
    assert_eq!(
        got,
        ["after", "base", "ours 1", "ours 2", "theirs 1", "theirs 2"]
    );
}

#[test]
fn a_running_watch_reports_a_retraction_without_the_content() {
    let env = Env::new();
    // From a cursor taken first: a deposit that lands before the watch has read the logs
    // (a loaded machine) still comes, rather than count as already there.
    let cursor = env.ok(&["watch", "--cursor"]).trim().to_string();
    let watch = Running::start(&env, &env.dir, &["--since", &cursor]);
    let id = env.deposit("Secret rollout plan", &[]);
    let first = watch.next();
    assert_eq!(first["record"]["package"]["package_id"], id.as_str());
    env.ok(&["retract", &id, "--reason", "posted by mistake"]);
    let next = watch.next();
    assert_eq!(next["kind"], "retracted");
    assert_eq!(
        next["record"],
        serde_json::json!({
            "record": "package", "id": id, "because": "retracted",
            "retraction": next["record"]["retraction"].clone()
        })
    );
    assert_eq!(next["record"]["retraction"]["reason"], "posted by mistake");
    assert!(!next.to_string().contains("rollout"));
}
