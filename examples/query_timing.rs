//! What the query transformer of a model folder costs: loading it (once per process) and
//! embedding one query, beside the static table's embed of the same query. One-shot CLI
//! searches pay the load on every command, long-lived servers once, so this decides the
//! default of `[search] query_encoder`.
//!
//! `cargo run --release --example query_timing -- MODEL_DIR` (a model folder with `query/`)
//! prints one line of times in milliseconds: the table's load, the transformer's load, and the
//! median and slowest query through each.

use std::time::Instant;

use relay::search::model::Model;

/// Queries of the length users type: a few words to a sentence.
const QUERIES: [&str; 12] = [
    "rotate the signing key",
    "how do I undo a deposit that leaked a password",
    "why did the nightly import fail",
    "notes about the retry policy of the HTTP client",
    "which session decided to drop the old index format",
    "search by meaning",
    "a package about flaky tests on CI",
    "what changed in the config loader last week",
    "memory grows while watching a large store",
    "who owns the deployment checklist",
    "compare two versions of a fact",
    "the agent forgot what it was doing after a restart",
];
/// Rounds over the queries; each query's first round warms caches and is not counted.
const ROUNDS: usize = 5;

fn millis(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// The median and the largest of `times`.
fn median_max(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[times.len() - 1])
}

fn main() -> Result<(), String> {
    let dir = std::env::args_os()
        .nth(1)
        .ok_or("usage: query_timing MODEL_DIR (a model folder with query/)")?;
    let start = Instant::now();
    let model = Model::load(dir.as_ref())?;
    let table_load = millis(start);
    let start = Instant::now();
    if let Some(notice) = model.query_notice() {
        return Err(notice);
    }
    if !model.queries_by_transformer() {
        return Err("this model folder has no query/ transformer".into());
    }
    let transformer_load = millis(start);
    let mut transformer = Vec::new();
    let mut table = Vec::new();
    for round in 0..ROUNDS {
        for query in QUERIES {
            let start = Instant::now();
            model.embed_query(query).ok_or("a query without a vector")?;
            let by_transformer = millis(start);
            let start = Instant::now();
            model.embed(query).ok_or("a query without a vector")?;
            if round > 0 {
                transformer.push(by_transformer);
                table.push(millis(start));
            }
        }
    }
    let (transformer_median, transformer_max) = median_max(transformer);
    let (table_median, table_max) = median_max(table);
    println!(
        "load: table {table_load:.1} ms, transformer {transformer_load:.1} ms; \
         query: transformer median {transformer_median:.2} ms (max {transformer_max:.2}), \
         table median {table_median:.3} ms (max {table_max:.3})"
    );
    Ok(())
}
