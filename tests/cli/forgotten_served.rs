//! Forgetting everywhere on a running server (issue 58): after `relay retract`, and again after
//! `relay purge --retracted`, no page of the console and no route of the HTTP API shows a
//! word that only the forgotten package held (its title, tag, author, type, content) — not in
//! a list, a filter's options, a search (by words or by meaning) or a count — while the
//! server keeps running, its caches warmed by a walk before the retraction.

use serde_json::Value;

use crate::harness::Env;
use crate::serve::Served;

const MARKER: &str = "zebramarker";

/// Every page and GET route a reader walks, the forgotten package's own included.
fn walk(package: &str) -> Vec<String> {
    let mut paths: Vec<String> = [
        "/",
        "/?tag=other",
        "/search",
        // Queries that do not hold the marker word (a search page echoes its query).
        "/search?q=striped",
        "/search?q=striped&mode=semantic",
        "/search?q=striped+animal&mode=hybrid",
        "/review",
        "/facts",
        "/orient",
        "/v1/projects",
        "/v1/projects/demo/packages",
        "/v1/projects/demo/packages?tag=other",
        "/v1/projects/demo/orient",
        "/v1/orchestrate",
        "/v1/projects/demo/reviews",
        "/v1/projects/demo/facts",
        "/v1/projects/demo/sessions",
        "/amp/records",
        "/amp/status",
    ]
    .iter()
    .map(|p| p.to_string())
    .collect();
    paths.push(format!("/packages/{package}"));
    paths.push(format!("/v1/packages/{package}"));
    paths
}

/// The paths whose answer holds the marker word.
fn showing_the_marker(env: &Env, server: &Served, package: &str) -> Vec<String> {
    walk(package)
        .into_iter()
        .filter(|path| {
            let out = env
                .program("curl", &["-sS", "--max-time", "30", &server.at(path)])
                .output()
                .expect("run curl");
            String::from_utf8_lossy(&out.stdout).contains(MARKER)
        })
        .collect()
}

#[test]
fn a_forgotten_package_leaves_no_trace_on_any_page_or_route_of_a_running_server() {
    let env = Env::new();
    let model = std::env::var("RELAY_TEST_MODEL")
        .ok()
        .filter(|m| !m.is_empty());
    let mut args: Vec<&str> = Vec::new();
    match &model {
        Some(m) => args.extend(["--model", m.as_str()]),
        None => println!("SKIPPED search by meaning here: set RELAY_TEST_MODEL (.ci/run does)"),
    }
    env.deposit("an ordinary note", &["--tag", "other"]);
    let forgotten: Value = env.deposit_from(&serde_json::json!({
        "title": "zebramarker plans",
        "package_type": "x-zebramarker",
        "tags": ["zebramarker", "other"],
        "content_md": "the zebramarker is a striped animal",
        "created_by": {"id": "zebramarker-author", "type": "agent"},
    }));
    let id = forgotten["package"]["package_id"]
        .as_str()
        .unwrap()
        .to_string();
    let server = Served::start(&env, &args);
    // Before: the marker shows, and every cache has been read once.
    let before = showing_the_marker(&env, &server, &id);
    for shown in [
        "/",
        "/search",
        "/v1/projects/demo/packages",
        &format!("/packages/{id}"),
    ] {
        assert!(
            before.iter().any(|p| p == shown),
            "{shown} should show it before: {before:?}"
        );
    }
    env.ok(&["retract", &id, "--reason", "made in error"]);
    let after = showing_the_marker(&env, &server, &id);
    assert!(
        after.is_empty(),
        "after the retraction, still shown by {after:?}"
    );
    env.ok(&["purge", "--retracted"]);
    let purged = showing_the_marker(&env, &server, &id);
    assert!(
        purged.is_empty(),
        "after the purge, still shown by {purged:?}"
    );
}
