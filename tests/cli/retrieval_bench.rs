//! The retrieval benchmark of docs/BENCHMARKS.md: recall@1/3/5/10 and MRR@10 of keyword, semantic
//! and hybrid search on the three labelled sets (the keyword set, the 112 paraphrases, and the
//! 224 held-out paraphrases written before any result was seen), in the labelled store of
//! `search_quality.rs`. Opt-in (it runs ~1,700 searches):
//!
//!   RELAY_TEST_MODEL=target/models/minilm-l6-fitted \
//!     cargo test --test cli retrieval_benchmark -- --ignored --nocapture
//!
//! `RELAY_BENCH_MODES=hybrid` (a comma-separated list) measures only those modes;
//! `RELAY_BENCH_DUMP=FILE` appends each query's ranked ids per mode to FILE (JSON lines), for
//! a fusion computed offline. It prints the table the README's quality figures come from. The floors the default test run
//! keeps are in `search_semantic.rs`.

use crate::search_quality::{Scores, labelled, labelled_store, measure_with};
use crate::search_semantic::test_model;

pub const SETS: [(&str, &str); 3] = [
    ("keyword set", include_str!("../data/search_queries.json")),
    (
        "paraphrases",
        include_str!("../data/search_paraphrases.json"),
    ),
    ("held-out", include_str!("../data/search_heldout.json")),
];

fn pct(hits: usize, s: &Scores) -> String {
    format!("{:.1}%", 100.0 * hits as f64 / s.n as f64)
}

#[test]
#[ignore = "a benchmark: ~1,700 searches; run with --ignored (see the module's header)"]
fn retrieval_benchmark() {
    let Some(model) = test_model() else { return };
    let model = model.to_string_lossy().into_owned();
    let env = labelled_store();
    crate::search_semantic::index_with(&env, &model);
    let mut rows = vec![
        "| set | mode | recall@1 | recall@3 | recall@5 | recall@10 | MRR@10 |".to_string(),
        "|---|---|---|---|---|---|---|".to_string(),
    ];
    let modes = std::env::var("RELAY_BENCH_MODES").unwrap_or("keyword,semantic,hybrid".into());
    for (set, json) in SETS {
        let queries = labelled(json);
        for mode in modes.split(',') {
            let args = ["--mode", mode, "--model", model.as_str()];
            let s = measure_with(&env, &queries, &args);
            rows.push(format!(
                "| {set} ({}) | {mode} | {} | {} | {} | {} | {:.3} |",
                s.n,
                pct(s.hit1, &s),
                pct(s.hit3, &s),
                pct(s.hit5, &s),
                pct(s.hit10, &s),
                s.mrr
            ));
        }
    }
    println!(
        "\nretrieval benchmark, model {model}\n\n{}",
        rows.join("\n")
    );
}
