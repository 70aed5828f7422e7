//! The output contract of `relay search --json` and `relay pull --relevant --json`: one result
//! envelope per line, `{"package", "score", "matched"}`, with the package exactly as stored.

use serde_json::json;

use crate::harness::{Env, json_snapshot, snapshot};

#[test]
fn search_results_wrap_the_stored_package_and_never_overwrite_its_members() {
    let env = Env::new();
    // A package may carry members named like the envelope's: they are its own, and stay so.
    let stored = env.deposit_from(&json!({
        "title": "Connection pool leak in the billing worker",
        "score": "hand-set, not a rank",
        "matched": {"by": "a human", "fields": [1, null]},
        "x-rank": 3,
    }))["package"]
        .clone();
    assert_eq!(stored["score"], "hand-set, not a rank");
    let plain = env.deposit_from(&json!({"title": "Pool sizing notes"}))["package"].clone();

    for args in [
        &["search", "pool", "--json"][..],
        &["pull", "--relevant", "pool", "--json"][..],
    ] {
        let r = env.run(args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let lines: Vec<&str> = r.stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {}", r.stdout);
        let results = r.json_lines();
        let mut titles: Vec<&str> = results
            .iter()
            .map(|r| r["package"]["title"].as_str().unwrap())
            .collect();
        titles.sort();
        assert_eq!(
            titles,
            [
                "Connection pool leak in the billing worker",
                "Pool sizing notes"
            ],
            "{args:?}: both packages, once each"
        );
        for (line, result) in lines.iter().zip(&results) {
            let package = if result["package"]["package_id"] == stored["package_id"] {
                &stored
            } else {
                &plain
            };
            let score = result["score"].as_f64().expect("a numeric score");
            assert!(score > 0.0, "{line}");
            // Exactly four members, in this order, and the package byte for byte as stored.
            let expected =
                json!({"package": package, "score": score, "matched": ["title"], "x-stale": []});
            assert_eq!(*line, expected.to_string(), "{args:?}");
        }
    }
    let r = env.run(&["search", "pool", "--json"]);
    json_snapshot!("search_json", r.json_lines());
    snapshot!("search", env.ok(&["search", "pool"]));
    let r = env.run(&["search", "pool", "--limit", "0", "--json"]);
    snapshot!("limit_zero", r.transcript());
}
