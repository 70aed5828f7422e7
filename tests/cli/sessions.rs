//! `relay session`: callsigns, the clone's current session, RELAY_SESSION, and attribution.

use std::path::Path;

use serde_json::{Value, json};

use crate::git::{git, in_dir, origin_and_clone, publish_and_clone};
use crate::harness::{Env, json_snapshot, snapshot};

#[test]
fn start_deposit_show_end() {
    let env = Env::new();
    let s = env.ok_json(&[
        "session",
        "start",
        "--actor",
        "claude",
        "--actor-type",
        "agent",
    ]);
    let id = s["session_id"].as_str().unwrap().to_string();
    let callsign = s["callsign"].as_str().unwrap().to_string();
    assert!(id.starts_with("sess_") && id.len() == 37);
    let (adj, noun) = callsign.split_once('-').unwrap();
    assert!(!adj.is_empty() && !noun.is_empty());
    assert_eq!(s["actor_id"], "claude");
    assert!(s["ended_at"].is_null());
    assert_eq!(s["packages_deposited"], json!([]));

    let status = env.ok_json(&["session", "status"]);
    assert_eq!(status["session_id"], id.as_str());

    // Deposits and facts inside the session record it, and take the session's actor.
    let p = env.ok_json(&[
        "deposit",
        "--title",
        "Chose Redis",
        "--decision",
        "Redis for sessions",
        "--question",
        "TTL?",
    ]);
    assert_eq!(
        p["package"]["created_by"],
        json!({"id": "claude", "type": "agent", "session_id": id})
    );
    let f = env.ok_json(&["facts", "assert", "cache", "backend", "redis"])["fact"].clone();
    assert_eq!(f["asserted_by"]["session_id"], id.as_str());
    let pkg = p["package"]["package_id"].as_str().unwrap();

    let shown = env.ok_json(&["session", "show", &callsign]);
    assert_eq!(
        shown["session"]["packages_deposited"],
        json!([pkg]),
        "kept true while the session is open"
    );
    assert_eq!(
        shown["packages"][0]["decisions_made"],
        json!(["Redis for sessions"])
    );
    let human = env.ok(&["session", "show", &callsign]);
    for part in [
        callsign.as_str(),
        "Chose Redis",
        "• Redis for sessions",
        "? TTL?",
    ] {
        assert!(human.contains(part), "missing {part:?}: {human}");
    }

    let ended = env.ok_json(&["session", "end"]);
    assert!(ended["ended_at"].is_string());
    assert_eq!(
        ended["packages_deposited"],
        json!([pkg]),
        "written into the record at the end"
    );
    let lines = crate::harness::read(&env.store().join("projects/demo/sessions.ndjson"));
    assert_eq!(lines.lines().count(), 2);
    assert_eq!(env.ok_json(&["session", "status"]), serde_json::Value::Null);
    // After the end, deposits carry no session.
    let p = env.ok_json(&["deposit", "--title", "after"]);
    assert_eq!(
        p["package"]["created_by"],
        json!({"id": "tester", "type": "human"})
    );
    let listed = env.run(&["session", "list", "--json"]).json_lines();
    assert_eq!(listed.len(), 1);
    assert!(
        env.run(&["session", "list", "--active", "--json"])
            .stdout
            .is_empty()
    );
}

#[test]
fn session_outputs_human_and_json() {
    let env = Env::new();
    let start = [
        "session",
        "start",
        "--callsign",
        "coral-heron",
        "--actor",
        "claude",
    ];
    let r = env.run(&[&start[..], &["--actor-type", "agent"]].concat());
    snapshot!("start", r.transcript());
    snapshot!("status", env.ok(&["session", "status"]));
    json_snapshot!("status_json", env.ok_json(&["session", "status"]));
    let package = json!({"package_id": "pkg_chose_redis", "title": "Chose Redis",
        "created_at": "2026-03-01T10:00:00Z", "decisions_made": ["Redis for sessions"],
        "open_questions": ["TTL?"], "handoff_note": "Wire the cache next"});
    env.deposit_from(&package);
    snapshot!("show", env.ok(&["session", "show", "coral-heron"]));
    json_snapshot!(
        "show_json",
        env.ok_json(&["session", "show", "coral-heron"])
    );
    snapshot!("list", env.ok(&["session", "list"]));
    json_snapshot!(
        "list_json",
        env.run(&["session", "list", "--json"]).json_lines()
    );
    snapshot!("end", env.run(&["session", "end"]).transcript());
    json_snapshot!(
        "ended_json",
        env.ok_json(&["session", "show", "coral-heron"])
    );
    snapshot!("status_none", env.run(&["session", "status"]).transcript());
}

#[test]
fn two_agents_in_one_clone_hold_different_sessions() {
    let env = Env::new();
    let line_a = env.ok(&["session", "start", "--actor", "agent-a", "--shell"]);
    let line_b = env.ok(&["session", "start", "--actor", "agent-b", "--shell"]);
    let id = |line: &str| {
        line.trim()
            .strip_prefix("export RELAY_SESSION=")
            .unwrap()
            .to_string()
    };
    let (a, b) = (id(&line_a), id(&line_b));
    assert_ne!(a, b);
    assert_eq!(
        env.ok_json(&["session", "status"]),
        serde_json::Value::Null,
        "--shell leaves the clone alone"
    );
    let pa = env
        .run_env(
            &["deposit", "--title", "from a", "--json"],
            &[("RELAY_SESSION", &a)],
        )
        .json();
    let pb = env
        .run_env(
            &["deposit", "--title", "from b", "--json"],
            &[("RELAY_SESSION", &b)],
        )
        .json();
    assert_eq!(pa["package"]["created_by"]["session_id"], a.as_str());
    assert_eq!(pa["package"]["created_by"]["id"], "agent-a");
    assert_eq!(pb["package"]["created_by"]["session_id"], b.as_str());
    // RELAY_SESSION also wins over the clone's current session.
    env.ok(&["session", "start", "--actor", "human-c"]);
    let pa2 = env
        .run_env(
            &["deposit", "--title", "a again", "--json"],
            &[("RELAY_SESSION", &a)],
        )
        .json();
    assert_eq!(pa2["package"]["created_by"]["session_id"], a.as_str());
}

#[test]
fn callsigns_are_unique_among_open_sessions() {
    let env = Env::new();
    env.ok(&["session", "start", "--callsign", "coral-heron", "--shell"]);
    let r = env.run(&["session", "start", "--callsign", "coral-heron", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (3, Some("callsign_in_use"))
    );
    snapshot!("callsign_in_use_json", r.transcript());
    let r = env.run(&["session", "start", "--callsign", "coral-heron"]);
    snapshot!("callsign_in_use", r.transcript());
    let mut seen = std::collections::HashSet::new();
    for _ in 0..20 {
        let s = env.ok_json(&["session", "start"]);
        assert!(seen.insert(s["callsign"].as_str().unwrap().to_string()));
    }
    assert!(!seen.contains("coral-heron"));
    env.ok(&["session", "end", "coral-heron"]);
    env.ok(&["session", "start", "--callsign", "coral-heron"]);
}

#[test]
fn unknown_or_ended_sessions_are_clear_errors_that_write_nothing() {
    let env = Env::new();
    let mut errors = Vec::new();
    let r = env.run(&["session", "show", "ghost-owl", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("session_not_found"))
    );
    errors.push(r.transcript());
    errors.push(env.run(&["session", "show", "ghost-owl"]).transcript());
    let r = env.run(&["session", "end", "sess_nope", "--json"]);
    assert_eq!(r.code, 1);
    errors.push(r.transcript());
    let r = env.run_env(
        &["deposit", "--title", "t", "--json"],
        &[("RELAY_SESSION", "sess_nope")],
    );
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("session_not_found"))
    );
    errors.push(r.transcript());
    let started = env.ok_json(&["session", "start", "--callsign", "old-fox"]);
    env.ok(&["session", "end", "old-fox"]);
    let r = env.run(&["deposit", "--title", "t", "--session", "old-fox", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (3, Some("session_ended"))
    );
    errors.push(r.transcript());
    errors.push(
        env.run(&["deposit", "--title", "t", "--session", "old-fox"])
            .transcript(),
    );
    let r = env.run(&["session", "end", "--json"]);
    assert_eq!(r.code, 2, "no current session: {}", r.stderr);
    errors.push(r.transcript());
    errors.push(env.run(&["session", "end"]).transcript());
    snapshot!("errors", errors.join("\n"));
    assert!(env.package_lines("demo").is_empty());
    assert_eq!(
        env.ok_json(&["session", "show", started["session_id"].as_str().unwrap()])["session"]["callsign"],
        "old-fox"
    );
}

#[test]
fn no_deposit_lands_in_a_session_after_its_end() {
    let env = Env::new();
    let line = env.ok(&["session", "start", "--shell"]);
    let id = line
        .trim()
        .strip_prefix("export RELAY_SESSION=")
        .unwrap()
        .to_string();
    // Each deposit lands in the session (exit 0) or, once the session has ended, is refused
    // with session_ended (exit 3) and writes nothing.
    let landed = std::sync::Mutex::new(Vec::new());
    let ended = std::thread::scope(|s| {
        for w in 0..3 {
            let (env, id, landed) = (&env, &id, &landed);
            s.spawn(move || {
                for i in 0..15 {
                    let r = env.run_env(
                        &["deposit", "--title", &format!("w{w} {i}"), "--json"],
                        &[("RELAY_SESSION", id)],
                    );
                    match r.code {
                        0 => landed.lock().unwrap().push(
                            r.json()["package"]["package_id"]
                                .as_str()
                                .unwrap()
                                .to_string(),
                        ),
                        3 => assert_eq!(r.error()["error"], "session_ended", "{}", r.stderr),
                        code => panic!("exit {code}: {}", r.stderr),
                    }
                }
            });
        }
        env.ok_json(&["session", "end", &id])
    });
    let mut landed = landed.into_inner().unwrap();
    landed.sort();
    let recorded: Vec<String> =
        serde_json::from_value(ended["packages_deposited"].clone()).unwrap();
    let carrying: Vec<String> = env
        .run(&["pull", "--latest", "1000", "--json"])
        .packages()
        .iter()
        .filter(|p| p["created_by"]["session_id"] == id.as_str())
        .map(|p| p["package_id"].as_str().unwrap().to_string())
        .collect();
    let mut a = recorded.clone();
    let mut b = carrying.clone();
    a.sort();
    b.sort();
    assert_eq!(
        a, b,
        "every package carrying the session is in packages_deposited"
    );
    assert_eq!(
        b, landed,
        "exactly the deposits that succeeded carry the session"
    );
}

#[test]
fn session_show_hides_other_actors_drafts() {
    let env = Env::new();
    let s = env.ok_json(&["session", "start", "--actor", "bob"]);
    env.deposit("bob's draft", &["--status", "draft"]);
    env.deposit("bob's note", &[]);
    let callsign = s["callsign"].as_str().unwrap();
    let shown = env
        .run_env(
            &["session", "show", callsign, "--json"],
            &[("RELAY_ACTOR", "carol")],
        )
        .json();
    assert_eq!(shown["packages"].as_array().unwrap().len(), 1);
    let own = env.ok_json(&["session", "show", callsign]);
    assert_eq!(
        own["packages"].as_array().unwrap().len(),
        2,
        "bob's session, so bob sees both"
    );
}

/// `relay ARGS` in the clone at `dir`: the exit code, stdout and stderr.
fn run_in(env: &Env, dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = env.command(args).current_dir(dir).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

fn sessions_log(dir: &Path) -> String {
    crate::harness::read(&dir.join(".relay/projects/demo/sessions.ndjson"))
}

/// Issue 35, story 5: two clones each start a session with one callsign and merge. The
/// callsign then names neither: `session end twin-fox` refuses, lists both sessions and ends
/// nothing (it ended the other person's session before); by id each ends; every read tells
/// them apart the same way in both clones, whatever their line order; `verify` notes it and
/// still passes.
#[test]
fn merged_clones_sharing_a_callsign_end_sessions_by_id_only() {
    let env = Env::empty();
    let Some((origin, a)) = origin_and_clone(&env) else {
        return;
    };
    in_dir(&env, &a, &["init", "--project", "demo"]);
    // A session log in the common base, so that each merge lays out its own line first.
    in_dir(&env, &a, &["session", "start", "--callsign", "early-owl"]);
    in_dir(&env, &a, &["session", "end"]);
    let b = env.dir.join("b");
    publish_and_clone(&a, &origin, &b, "relay store");
    let start = |dir: &Path, actor: &str| {
        let args = [
            "session",
            "start",
            "--callsign",
            "twin-fox",
            "--actor",
            actor,
        ];
        let out = in_dir(&env, dir, &[&args[..], &["--json"]].concat());
        serde_json::from_str::<Value>(&out).unwrap()
    };
    let ana = start(&a, "ana");
    let bob = start(&b, "bob");
    for dir in [&a, &b] {
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-q", "-m", "a session"]);
    }
    // Each clone fetches the other's commit, then merges it: the same lines in each, laid
    // out in the other order.
    for (dir, peer) in [(&a, &b), (&b, &a)] {
        let peer = peer.to_str().unwrap();
        git(dir, &["fetch", "-q", peer, "main:refs/remotes/peer/main"]);
    }
    for dir in [&a, &b] {
        git(dir, &["merge", "-q", "--no-edit", "peer/main"]);
    }
    let (in_a, in_b) = (sessions_log(&a), sessions_log(&b));
    assert_eq!(in_a.lines().count(), 4);
    assert_ne!(in_a, in_b, "the merges laid the lines out differently");

    // Oldest first, ties by id: the order every clone lists them in.
    let mut both = [&ana, &bob];
    both.sort_by_key(|s| (s["started_at"].as_str(), s["session_id"].as_str()));
    let id = |s: &Value| s["session_id"].as_str().unwrap().to_string();
    let described: Vec<String> = (both.iter())
        .map(|s| {
            format!(
                "{} ({}, human, started {})",
                id(s),
                s["actor_id"].as_str().unwrap(),
                s["started_at"].as_str().unwrap()
            )
        })
        .collect();
    let refusal = format!(
        "callsign `twin-fox` names 2 open sessions of project `demo` (merged clones each \
         started one): {} and {}; nothing was done: name the session by its id instead; `relay \
         session list --active` shows each session with its id",
        described[0], described[1]
    );
    let note = format!(
        "2 open sessions share the callsign twin-fox (merged clones each started one): {} and \
         {}; a command given the callsign refuses it, so name each by its id (`relay session \
         end {}`)",
        described[0],
        described[1],
        id(both[0])
    );
    let mut answers = Vec::new();
    for dir in [&a, &b] {
        let before = sessions_log(dir);
        let (code, _, stderr) = run_in(&env, dir, &["session", "end", "twin-fox", "--json"]);
        assert_eq!(code, 3, "{stderr}");
        let error: Value = serde_json::from_str(stderr.trim()).unwrap();
        assert_eq!(
            error,
            json!({"error": "callsign_in_use", "message": refusal})
        );
        let (code, _, stderr) = run_in(&env, dir, &["session", "end", "twin-fox"]);
        assert_eq!(
            (code, stderr),
            (3, format!("relay: error: {refusal}\n")),
            "the same words for a person"
        );
        assert_eq!(sessions_log(dir), before, "nothing was ended");
        // Nor does the callsign name a session to show or to write in.
        let (code, _, _) = run_in(&env, dir, &["session", "show", "twin-fox"]);
        assert_eq!(code, 3);
        let deposit = ["deposit", "--title", "t", "--session", "twin-fox", "--json"];
        let (code, _, stderr) = run_in(&env, dir, &deposit);
        assert_eq!(code, 3, "{stderr}");
        assert!(
            dir.join(".relay/projects/demo/packages")
                .read_dir()
                .is_err()
        );

        let listed = run_in(&env, dir, &["session", "list", "--active", "--json"]).1;
        let ids: Vec<String> = (listed.lines())
            .map(|l| id(&serde_json::from_str::<Value>(l).unwrap()))
            .collect();
        assert_eq!(ids, [id(both[0]), id(both[1])]);
        let (code, human, stderr) = run_in(&env, dir, &["session", "list"]);
        assert_eq!(code, 0);
        assert_eq!(
            stderr,
            format!(
                "note: 2 open sessions share the callsign twin-fox (merged clones each started \
                 one); a command given it refuses it, so name each by its id, e.g. `relay \
                 session end {}`\n",
                id(both[0])
            )
        );
        let (code, verified, _) = run_in(&env, dir, &["verify", "--json"]);
        assert_eq!(code, 0, "a note, not damage: {verified}");
        let found: Value = serde_json::from_str(verified.trim()).unwrap();
        assert_eq!(
            found,
            json!({"file": "projects/demo/sessions.ndjson", "line": 4, "kind": "shared_callsign",
                   "message": note, "severity": "note"})
        );
        answers.push((listed, human, verified));
    }
    assert_eq!(answers[0], answers[1], "both clones answer alike");

    // By id, each ends; then the callsign names the one still open.
    let line = in_dir(&env, &b, &["session", "end", &id(&ana), "--json"]);
    let ended: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(ended["session_id"], id(&ana).as_str());
    assert!(ended["ended_at"].is_string());
    assert_eq!(sessions_log(&b).lines().count(), 5);
    let shown = in_dir(&env, &b, &["session", "show", "twin-fox", "--json"]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(shown["session"]["session_id"], id(&bob).as_str());
    let (code, verified, _) = run_in(&env, &b, &["verify", "--json"]);
    assert_eq!((code, verified.as_str()), (0, ""));
    let (_, _, stderr) = run_in(&env, &b, &["session", "list"]);
    assert_eq!(stderr, "");
}

/// A store whose project holds two open sessions called twin-fox, as a merge leaves them:
/// Ana's, started here, and Bob's, whose line came from another clone. Returns both ids.
fn twin_foxes(env: &Env) -> (String, String) {
    let ana = env.ok_json(&[
        "session",
        "start",
        "--callsign",
        "twin-fox",
        "--actor",
        "ana",
    ]);
    let bob = "sess_b0b00000000000000000000000000001";
    let line = json!({"session_id": bob, "project_id": "demo", "actor_id": "bob",
        "actor_type": "human", "callsign": "twin-fox", "started_at": "2099-01-01T00:00:00Z",
        "ended_at": null, "packages_deposited": []});
    let log = env.store().join("projects/demo/sessions.ndjson");
    let text = crate::harness::read(&log) + &format!("{line}\n");
    std::fs::write(&log, text).unwrap();
    (ana["session_id"].as_str().unwrap().to_string(), bob.into())
}

#[test]
fn mcp_session_end_refuses_a_shared_callsign_and_ends_by_id() {
    use crate::mcp::{call, ok, serve, tool_error};
    let env = Env::new();
    let (ana, bob) = twin_foxes(&env);
    let log = env.store().join("projects/demo/sessions.ndjson");
    let replies = serve(
        &env,
        &[call(1, "session_end", json!({"session": "twin-fox"}))],
    );
    let (code, message) = tool_error(&replies[0]);
    assert_eq!(code, "callsign_in_use");
    assert!(
        message.starts_with("callsign `twin-fox` names 2 open sessions of project `demo`")
            && message.contains(&format!("{ana} (ana, human, started "))
            && message.contains(&format!(
                " and {bob} (bob, human, started 2099-01-01T00:00:00Z); nothing was done"
            )),
        "{message}"
    );
    assert_eq!(
        crate::harness::read(&log).lines().count(),
        2,
        "nothing ended"
    );
    let replies = serve(&env, &[call(1, "session_end", json!({"session": bob}))]);
    let ended = ok(&replies[0]);
    assert_eq!(ended["session_id"], bob.as_str());
    assert!(ended["ended_at"].is_string());
}

#[test]
fn http_session_end_refuses_a_shared_callsign_and_the_console_tells_them_apart() {
    use crate::serve::{Served, logs, post_json};
    let env = Env::new();
    let (ana, bob) = twin_foxes(&env);
    for (title, id) in [("by ana", &ana), ("by bob", &bob)] {
        env.ok(&["deposit", "--title", title, "--session", id]);
    }
    let server = Served::start(&env, &[]);
    let before = logs(&env);
    let (status, body) = post_json(&env, &server.at("/v1/sessions/twin-fox/end"), &json!({}));
    assert_eq!((status, &body["error"]), (409, &json!("callsign_in_use")));
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("{ana} (ana, human, started "))
            && message.contains(&format!(" and {bob} (bob, human, started ")),
        "{message}"
    );
    assert_eq!(logs(&env), before, "nothing ended");
    // The timeline names each deposit's session by callsign and the start of its id.
    let (_, page) = crate::console::get(&env, &server.at("/"));
    for id in [&ana, &bob] {
        let shown = format!("title=\"{id}\">twin-fox ({}…)</span>", &id[..13]);
        assert!(page.contains(&shown), "{shown} in {page}");
    }
    let (status, ended) = post_json(
        &env,
        &server.at(&format!("/v1/sessions/{bob}/end")),
        &json!({}),
    );
    assert_eq!((status, &ended["session_id"]), (200, &json!(bob)));
    assert!(ended["ended_at"].is_string());
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

/// HTTP's session start reads the core's request: a misspelt member is `invalid_schema`, and
/// `make_current: true` is refused (the server's clone keeps its own current session), while
/// `make_current: false` is what HTTP always does.
#[test]
fn http_session_start_reads_the_core_request() {
    let env = Env::new();
    let server = crate::serve::Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/sessions");
    let post = |body: Value| crate::serve::post_json(&env, &url, &body);
    let (status, e) = post(json!({"callsing": "amber-otter"}));
    assert_eq!(
        (status, e["error"].as_str()),
        (400, Some("invalid_schema")),
        "{e}"
    );
    let (status, e) = post(json!({"make_current": true}));
    assert_eq!(
        (status, e["error"].as_str()),
        (400, Some("invalid_input")),
        "{e}"
    );
    let (status, s) = post(json!({"callsign": "amber-otter", "make_current": false}));
    assert_eq!(status, 201, "{s}");
    assert_eq!(s["callsign"], "amber-otter");
}
