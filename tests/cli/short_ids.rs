//! Short ids, as git has them: every command that takes the id of a package, a fact or a
//! session takes the start of it too (the kind's `pkg_`, `fact_` or `sess_` and at least four
//! more characters). An id that is stored always names itself; a prefix that more than one
//! id begins with is `ambiguous_id` (exit 8), listing them; one too short is refused.

use serde_json::{Value, json};

use crate::harness::{Env, json_snapshot, snapshot};
use crate::serve::Served;
use crate::transports::{self, Answer, HttpCall};

/// The start of `id`: its kind and the first eight characters after it.
fn short(id: &str) -> &str {
    let kind = id.find('_').unwrap() + 1;
    &id[..kind + 8]
}

#[test]
fn a_unique_prefix_names_the_package_in_every_command_that_takes_a_package_id() {
    let env = Env::new();
    let id = env.deposit("Cache the embeddings", &["--status", "draft"]);
    env.deposit("Another package", &[]);
    let prefix = short(&id);

    let pulled = env.ok_json(&["pull", prefix]);
    assert_eq!(pulled["package"]["package_id"], id);
    let text = env.ok(&["pull", prefix]);
    assert!(text.starts_with(&id), "{text}");

    let flagged = env.ok_json(&["review", "flag", prefix, "--human"]);
    assert_eq!(flagged["package"]["package_id"], id);
    assert_eq!(flagged["package"]["status"], "awaiting_review");
    let sent_back = env.ok_json(&["review", "request-changes", prefix, "--note", "more"]);
    assert_eq!(sent_back["package"]["status"], "revision_requested");
    let approved = env.ok_json(&["review", "approve", prefix]);
    assert_eq!(approved["package"]["status"], "complete");

    let fact = env.ok_json(&[
        "facts", "assert", "cache", "status", "on", "--source", prefix,
    ]);
    assert_eq!(fact["fact"]["source_package_id"], id);

    let history = env.ok(&["pull", prefix, "--history", "--json"]);
    assert_eq!(history.lines().count(), 4, "{history}");

    let retracted = env.ok_json(&["retract", prefix, "--reason", "wrong numbers"]);
    assert_eq!(retracted["retraction"]["id"], id);
    let r = env.run(&["pull", prefix, "--json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.error()["message"].as_str().unwrap().contains(&id),
        "{}",
        r.stderr
    );
    let revealed = env.ok_json(&["pull", prefix, "--include-retracted"]);
    assert_eq!(revealed["package"]["package_id"], id);
}

#[test]
fn a_unique_prefix_names_a_fact_to_retract_and_a_session_to_show_and_end() {
    let env = Env::new();
    let fact = env.ok_json(&["facts", "assert", "api", "status", "live"]);
    let fact_id = fact["fact"]["fact_id"].as_str().unwrap().to_string();
    let retracted = env.ok_json(&["retract", short(&fact_id), "--reason", "never went live"]);
    assert_eq!(retracted["retraction"]["id"], fact_id);
    assert_eq!(retracted["retraction"]["record"], "fact");

    let started = env.ok_json(&["session", "start"]);
    let session_id = started["session_id"].as_str().unwrap().to_string();
    let written = env.ok_json(&[
        "deposit",
        "--title",
        "In it",
        "--session",
        short(&session_id),
    ]);
    assert_eq!(written["package"]["created_by"]["session_id"], session_id);
    let shown = env.ok_json(&["session", "show", short(&session_id)]);
    assert_eq!(shown["session"]["session_id"], session_id);
    let ended = env.ok_json(&["session", "end", short(&session_id)]);
    assert_eq!(ended["session_id"], session_id, "{ended}");
    assert!(ended["ended_at"].is_string(), "{ended}");
}

/// Two packages whose ids share `pkg_3466f`, and one whose id is `pkg_3466` itself.
fn twins() -> Env {
    let env = Env::new();
    env.deposit("First of the twins", &["--id", "pkg_3466fa01"]);
    env.deposit("Second of the twins", &["--id", "pkg_3466fb02"]);
    env.deposit(
        "Exactly pkg_3466",
        &["--id", "pkg_3466", "--status", "draft"],
    );
    env
}

#[test]
fn an_ambiguous_prefix_lists_the_candidates_and_changes_nothing() {
    let env = twins();
    let before = env.package_lines("demo");
    let r = env.run(&["pull", "pkg_3466f"]);
    assert_eq!((r.code, r.stdout.as_str()), (8, ""));
    snapshot!("ambiguous", r.stderr);
    let r = env.run(&["pull", "pkg_3466f", "--json"]);
    assert_eq!(r.code, 8);
    json_snapshot!("ambiguous_json", r.error());
    for args in [
        &["review", "approve", "pkg_3466f"][..],
        &["retract", "pkg_3466f", "--reason", "which one?"],
        &["facts", "assert", "a", "b", "c", "--source", "pkg_3466f"],
    ] {
        let mut args = args.to_vec();
        args.push("--json");
        let r = env.run(&args);
        let error = r.error();
        assert_eq!(
            (r.code, error["error"].as_str()),
            (8, Some("ambiguous_id")),
            "{args:?}: {}",
            r.stderr
        );
        let listed: Vec<&str> = (error["candidates"].as_array().unwrap().iter())
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        assert_eq!(listed, ["pkg_3466fa01", "pkg_3466fb02"], "{args:?}");
    }
    assert_eq!(env.package_lines("demo"), before, "nothing was written");
    // One more character tells them apart.
    let found = env.ok_json(&["pull", "pkg_3466fb"]);
    assert_eq!(found["package"]["title"], "Second of the twins");
}

#[test]
fn an_id_that_is_stored_names_itself_though_longer_ids_begin_with_it() {
    let env = twins();
    let found = env.ok_json(&["pull", "pkg_3466"]);
    assert_eq!(found["package"]["title"], "Exactly pkg_3466");
    let approved = env.ok_json(&["review", "approve", "pkg_3466"]);
    assert_eq!(approved["package"]["package_id"], "pkg_3466");
}

#[test]
fn a_prefix_too_short_is_refused_and_an_unknown_one_is_not_found() {
    let env = twins();
    let r = env.run(&["pull", "pkg_346", "--json"]);
    assert_eq!(r.code, 4);
    assert_eq!(
        r.error(),
        json!({
            "error": "invalid_input",
            "message": "no package has the id `pkg_346`, and it is too short to stand for one by \
                        its start: give `pkg_` and at least 4 more characters"
        })
    );
    // Without the kind's start it is no prefix at all: only ever an id.
    let r = env.run(&["pull", "3466fa01", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("package_not_found"))
    );
    let r = env.run(&["pull", "pkg_ffff", "--json"]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.error(),
        json!({"error": "package_not_found", "message": "no package with id `pkg_ffff` in this store"})
    );
    let r = env.run(&["session", "end", "sess_1", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (4, Some("invalid_input"))
    );
}

#[test]
fn an_ambiguous_prefix_lists_ten_candidates_and_counts_the_rest() {
    let env = Env::new();
    for i in 0..12 {
        env.deposit(
            &format!("Package {i}"),
            &["--id", &format!("pkg_abcd{i:02}")],
        );
    }
    let r = env.run(&["pull", "pkg_abcd", "--json"]);
    assert_eq!(r.code, 8);
    let error: Value = r.error();
    assert_eq!(error["candidates"].as_array().unwrap().len(), 10);
    assert_eq!(error["candidates"][9]["id"], "pkg_abcd09");
    assert_eq!(error["more"], 2);
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("12 package ids begin with it") && message.contains("and 2 more"),
        "{message}"
    );
}

#[test]
fn mcp_and_http_take_short_ids_through_the_same_operations() {
    let env = twins();
    let token = env.ok_json(&["token", "create", "--actor", "claude"])["token"]
        .as_str()
        .unwrap()
        .to_string();
    let title = |answer: Answer| match answer {
        Answer::Ok(v) => v["package"]["title"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v["title"].as_str().unwrap_or_default().to_string()),
        Answer::Failed(code) => code,
    };
    let mcp =
        |id: &str| transports::mcp(&env, "pull", json!({"mode": "specific", "package_id": id}));
    assert_eq!(title(mcp("pkg_3466fb")), "Second of the twins");
    assert_eq!(title(mcp("pkg_3466")), "Exactly pkg_3466");
    assert_eq!(title(mcp("pkg_3466f")), "ambiguous_id");
    let server = Served::start(&env, &[]);
    let http = |id: &str| {
        let call = HttpCall {
            method: "GET",
            path: format!("/v1/packages/{id}"),
            body: None,
        };
        transports::http(&env, &server, &token, &call)
    };
    assert_eq!(title(http("pkg_3466fa")), "First of the twins");
    assert_eq!(title(http("pkg_3466f")), "ambiguous_id");
    assert_eq!(title(http("pkg_ffff")), "package_not_found");
    // A token scoped to another project gives whole ids: a start, looked up across the store,
    // would name (or list) packages it may not read.
    env.ok(&["projects", "create", "other"]);
    let scoped = env.ok_json(&["token", "create", "--actor", "bot", "--scope", "other"])["token"]
        .as_str()
        .unwrap()
        .to_string();
    for start in ["pkg_3466f", "pkg_3466fa"] {
        let call = HttpCall {
            method: "GET",
            path: format!("/v1/packages/{start}"),
            body: None,
        };
        let answer = title(transports::http(&env, &server, &scoped, &call));
        assert_eq!(answer, "package_not_found", "{start}");
    }
}
