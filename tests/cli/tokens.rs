//! `relay token`: bearer tokens for `relay serve`, shown once, stored as their hashes under
//! `.relay/local/`, listed without secrets and revoked by id.

use serde_json::{Value, json};

use crate::harness::Env;

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
    assert!(r.stderr.contains("cannot show it again"), "{}", r.stderr);
    let file = env.store().join("local/tokens.ndjson");
    let stored = std::fs::read_to_string(&file).unwrap();
    assert!(!stored.contains(&token), "the token itself is never stored");
    let listed = env.run(&["token", "list", "--json"]).json();
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
    let human = env.ok(&["token", "list"]);
    assert!(human.contains(id) && human.contains("revoked"), "{human}");
    let r = env.run(&["token", "revoke", "tok_nope", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("token_not_found"))
    );
    let r = env.run(&[
        "token", "create", "--actor", "x", "--scope", "nope", "--json",
    ]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("project_not_found"))
    );
    // The store's .gitignore keeps local/ out of git.
    assert!(crate::harness::read(&env.store().join(".gitignore")).contains("local/"));
}
