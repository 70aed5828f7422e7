//! How `relay watch` starts: from the keys of the lines it counts as seen, saved under
//! `cache/watch-v1/` by an earlier watch, rather than a read of every log; read again when a
//! log was rewritten under them; and with nothing missed or printed twice of what is
//! deposited while it starts.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use crate::harness::Env;
use crate::watch::{Running, kinds, titles};

/// A watch of packages started while deposits are made back to back: the titles deposited,
/// and the events printed up to the last one's.
fn start_while_depositing(env: &Env) -> (Running, Vec<String>, Vec<Value>) {
    let w = Running::start(env, &env.dir, &["--kind", "package"]);
    let mut deposited = Vec::new();
    let mut events = Vec::new();
    while events.is_empty() {
        assert!(
            deposited.len() < 200,
            "the watch printed none of 200 deposits"
        );
        let title = format!("probe {}", deposited.len());
        env.deposit(&title, &[]);
        deposited.push(title);
        if let Ok(e) = w.events.recv_timeout(Duration::from_millis(50)) {
            events.push(e);
        }
    }
    // Once it printed one, it prints every later one.
    while titles(&events).last().copied() != deposited.last().map(String::as_str) {
        events.push(w.next());
    }
    (w, deposited, events)
}

/// The saved keys of demo's (one) package log.
fn saved_keys(env: &Env) -> PathBuf {
    let log = env.package_lines_file();
    let month = log.file_stem().unwrap().to_str().unwrap().to_string();
    env.store().join(format!(
        "cache/watch-v1/projects/demo/packages/{month}.keys"
    ))
}

fn identity(path: &PathBuf) -> (u64, std::time::SystemTime) {
    let m = std::fs::metadata(path).unwrap();
    (m.len(), m.modified().unwrap())
}

#[test]
fn records_deposited_while_a_watch_starts_come_once_and_with_no_gap() {
    let env = Env::new();
    env.deposit("before", &[]);
    let (_w, deposited, events) = start_while_depositing(&env);
    // What it printed is every deposit from some point on, each once: one that landed before
    // the watch had its start is not printed, and none after it is missed.
    let printed = titles(&events);
    assert_eq!(kinds(&events).len(), printed.len());
    let from = deposited.len() - printed.len();
    assert_eq!(printed, deposited[from..], "{deposited:?}");
}

#[test]
fn a_watch_starts_from_the_keys_an_earlier_one_saved() {
    let env = Env::new();
    env.deposit("one", &[]);
    env.deposit("two", &[]);
    env.ok(&["watch", "--cursor"]);
    let keys = saved_keys(&env);
    let saved = identity(&keys);
    env.deposit("three", &[]);
    let (w, _, _) = start_while_depositing(&env);
    env.deposit("after", &[]);
    assert_eq!(w.next()["record"]["package"]["title"], "after");
    // The keys held for the log (it only grew): reused, not read and saved again.
    assert_eq!(identity(&keys), saved);
    // A cursor from before them still resumes exactly after it.
    let all = env
        .run(&["watch", "--since", "beginning", "--once", "--json"])
        .json_lines();
    let one = all.iter().find(|e| e["kind"] == "package").unwrap();
    let rest = env
        .run(&[
            "watch",
            "--since",
            one["cursor"].as_str().unwrap(),
            "--once",
            "--json",
        ])
        .json_lines();
    assert_eq!(titles(&rest)[..2], ["two", "three"]);
    assert_eq!(titles(&rest).last(), Some(&"after"));
}

#[test]
fn a_log_rewritten_under_the_saved_keys_is_read_again() {
    let env = Env::new();
    env.deposit("a", &[]);
    env.deposit("b", &[]);
    env.ok(&["watch", "--cursor"]);
    let log = env.package_lines_file();
    let text = std::fs::read_to_string(&log).unwrap();
    let (line_a, line_b) = {
        let mut lines = text.lines();
        (
            lines.next().unwrap().to_string(),
            lines.next().unwrap().to_string(),
        )
    };
    // A checkout of a branch without b, where x was deposited.
    std::fs::write(&log, format!("{line_a}\n")).unwrap();
    env.deposit("x", &[]);
    let (w, _, _) = start_while_depositing(&env);
    // A merge brings b back, before what this clone has: b was not in the log the watch
    // started from, so it comes after the resync; nothing else comes again.
    let now = std::fs::read_to_string(&log).unwrap();
    let rest = now.strip_prefix(&format!("{line_a}\n")).unwrap();
    std::fs::write(&log, format!("{line_a}\n{line_b}\n{rest}")).unwrap();
    env.deposit("after", &[]);
    let mut events = vec![w.next()];
    while events.last().unwrap()["record"]["package"]["title"] != "after" {
        events.push(w.next());
    }
    assert_eq!(kinds(&events), ["resync", "package", "package"]);
    assert_eq!(titles(&events), ["b", "after"]);
}
