//! Snapshot reads: `--as-of TIME` reads the store as it stood then, the same bytes however
//! much is written since (reviews, deposits, facts superseded, retractions).

use serde_json::Value;

use crate::harness::Env;

#[test]
fn as_of_reproduces_an_earlier_orient_byte_for_byte_whatever_is_written_since() {
    let env = Env::new();
    env.ok(&["facts", "assert", "api", "status", "beta"]);
    env.ok(&[
        "lesson",
        "add",
        "Migrations need a lock timeout",
        "--content",
        "Use --lock-timeout 5s",
        "--severity",
        "critical",
    ]);
    env.ok(&[
        "checkpoint",
        "--working-on",
        "the schema plan",
        "--actor",
        "claude",
    ]);
    let first = env.ok_json(&[
        "deposit",
        "--title",
        "Schema plan",
        "--status",
        "awaiting_review",
        "--review",
        "human",
        "--question",
        "Which index first?",
        "--handoff",
        "Review the plan",
    ]);
    let id = first["package"]["package_id"].as_str().unwrap().to_string();
    let t = first["package"]["created_at"].as_str().unwrap().to_string();
    let reads = |env: &Env| -> Vec<String> {
        [
            vec!["orient", "--as-of", &t, "--json"],
            vec!["orient", "--as-of", &t],
            vec!["pull", "--latest", "10", "--as-of", &t, "--json"],
            vec!["pull", &id, "--as-of", &t, "--json"],
            vec!["facts", "list", "--as-of", &t, "--json"],
            vec!["lesson", "list", "--as-of", &t, "--json"],
            vec!["checkpoint", "show", "--as-of", &t, "--json"],
        ]
        .iter()
        .map(|args| env.ok(args))
        .collect()
    };
    let before = reads(&env);
    // What happens next changes the store, but not the store as it stood at t.
    env.ok(&["review", "approve", &id, "--note", "Go"]);
    env.deposit("A later package", &["--decision", "Later decision"]);
    env.ok(&["facts", "assert", "api", "status", "live"]);
    env.ok(&[
        "facts",
        "assert",
        "api",
        "owner",
        "ana",
        "--valid-from",
        "2020-01-01",
    ]);
    env.ok(&["retract", &id, "--reason", "Replaced"]);
    env.ok(&[
        "lesson",
        "add",
        "A later lesson",
        "--content",
        "x",
        "--severity",
        "critical",
    ]);
    env.ok(&[
        "checkpoint",
        "--working-on",
        "something later",
        "--actor",
        "claude",
    ]);
    assert_eq!(reads(&env), before);

    let orient: Value = serde_json::from_str(&before[0]).unwrap();
    assert_eq!(orient["generated_at"], Value::String(t.clone()));
    assert_eq!(
        orient["open_questions"],
        serde_json::json!(["Which index first?"])
    );
    assert_eq!(orient["x-lessons"].as_array().unwrap().len(), 1, "{orient}");
    assert_eq!(
        orient["x-checkpoints"][0]["x-working-on"],
        "the schema plan"
    );
    let pulled: Value = serde_json::from_str(&before[3]).unwrap();
    assert_eq!(
        pulled["package"]["status"], "awaiting_review",
        "the version current then"
    );
    let facts: Vec<Value> = before[4]
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        facts.len(),
        1,
        "a fact recorded since is left out, even backdated"
    );
    assert_eq!(facts[0]["value"], "beta");
    // Now, the same reads see what was written.
    assert_eq!(env.run(&["pull", &id]).code, 1, "retracted now");
    assert_eq!(
        env.ok_json(&["facts", "get", "api", "status"])["value"],
        "live"
    );
}

#[test]
fn as_of_before_anything_or_in_the_future_reads_with_a_note_and_search_refuses_it() {
    let env = Env::new();
    let id = env.deposit("Only package", &[]);
    let run = env.run(&["pull", &id, "--as-of", "2001-01-01", "--json"]);
    assert_eq!(run.code, 1);
    assert!(
        run.error()["message"]
            .as_str()
            .unwrap()
            .contains("did not exist yet")
    );
    assert_eq!(
        env.ok(&["pull", "--latest", "--as-of", "2001-01-01", "--json"]),
        ""
    );
    let future = env.run(&["orient", "--as-of", "2999-01-01"]);
    assert_eq!(future.code, 0, "{}", future.stderr);
    assert!(
        future.stderr.contains("is in the future"),
        "{}",
        future.stderr
    );
    let search = env.run(&["search", "package", "--as-of", "2026-01-01", "--json"]);
    assert_eq!(search.code, 4);
    assert!(
        search.error()["message"]
            .as_str()
            .unwrap()
            .contains("--as-of does not apply")
    );
}
