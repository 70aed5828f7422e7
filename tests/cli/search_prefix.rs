//! Prefix words (`deploy*`) and phrases in `relay search`: a prefix finds every word whose stem
//! starts with it, in every field; the answer is the same from the index, from a rebuilt index,
//! and from a scan of the logs with no index at all.

use serde_json::json;

use crate::harness::Env;
use crate::indexes::set_index;

/// The titles `relay search ARGS --json` returns, best first.
fn titles(env: &Env, query: &str) -> Vec<String> {
    let r = env.run(&["search", query, "--limit", "20", "--json"]);
    assert_eq!(r.code, 0, "{query}: {}", r.stderr);
    r.json_lines()
        .iter()
        .map(|l| l["package"]["title"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_prefix_word_finds_every_word_it_starts_whatever_serves_the_query() {
    let env = Env::new();
    for body in [
        json!({"title": "Deployment checklist"}),
        json!({"title": "Notes", "decisions_made": ["Deploy on Fridays no more"]}),
        json!({"title": "Rollback", "tags": ["deploying"]}),
        json!({"title": "Redeploy the worker"}),
        json!({"title": "Unrelated billing note", "description": "depth of the queue"}),
        json!({"title": "Memory leak in the pool", "description": "a leak of memory"}),
        json!({"title": "Leak report", "description": "memory is fine; the leak is in sockets"}),
    ] {
        env.deposit_from(&body);
    }
    let mut want = titles(&env, "deploy*");
    want.sort();
    assert_eq!(want, ["Deployment checklist", "Notes", "Rollback"]);
    let r = env.run(&["search", "deploy*", "--json"]);
    let matched: Vec<_> = r
        .json_lines()
        .iter()
        .map(|l| l["matched"].clone())
        .collect();
    assert!(matched.contains(&json!(["decisions_made"])), "{matched:?}");
    // A one-letter prefix is a word (and "d" alone finds nothing).
    assert!(titles(&env, "d*").is_empty());

    let queries = [
        "deploy*",
        "dep*",
        "leak",
        "\"memory leak\"",
        "mem* leak",
        "zzz*",
    ];
    let indexed: Vec<_> = queries.iter().map(|q| titles(&env, q)).collect();
    assert_eq!(
        indexed[3],
        ["Memory leak in the pool"],
        "the phrase, in order"
    );
    assert_eq!(indexed[5], Vec::<String>::new());
    // The same answers from a rebuilt index, and with no index.
    std::fs::remove_dir_all(env.store().join("cache")).unwrap();
    let rebuilt: Vec<_> = queries.iter().map(|q| titles(&env, q)).collect();
    set_index(&env, false);
    let scanned: Vec<_> = queries.iter().map(|q| titles(&env, q)).collect();
    assert_eq!(indexed, rebuilt);
    assert_eq!(indexed, scanned);
}
