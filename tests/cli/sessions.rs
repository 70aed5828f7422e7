//! `relay session`: callsigns, the clone's current session, RELAY_SESSION, and attribution.

use serde_json::json;

use crate::harness::Env;

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
    let r = env.run(&["session", "show", "ghost-owl", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("session_not_found"))
    );
    let r = env.run(&["session", "end", "sess_nope", "--json"]);
    assert_eq!(r.code, 1);
    let r = env.run_env(
        &["deposit", "--title", "t", "--json"],
        &[("RELAY_SESSION", "sess_nope")],
    );
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("session_not_found"))
    );
    let started = env.ok_json(&["session", "start", "--callsign", "old-fox"]);
    env.ok(&["session", "end", "old-fox"]);
    let r = env.run(&["deposit", "--title", "t", "--session", "old-fox", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (3, Some("session_ended"))
    );
    let r = env.run(&["session", "end", "--json"]);
    assert_eq!(r.code, 2, "no current session: {}", r.stderr);
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
