//! Library microbenchmarks (divan): canonical JSON, content hashing, reading a stored line,
//! validation, secret scanning, and the pieces of relevant pull (query parsing, stemming, term
//! counting, BM25). `cargo bench --bench micro`; `-- NAME` runs the benchmarks whose path
//! contains NAME. Results are in docs/BENCHMARKS.md.
//!
//! Fixtures: a typical package (a line of the generated benchmark corpus: ~1 KB with
//! decisions, questions, a handoff note, tags, a deliverable and a session) and a large one (the
//! same with a 16 KB Markdown body of mixed scripts, quotes, escapes and numbers).

use std::hint::black_box;
use std::path::Path;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use relay::search::{query, rank};
use relay::store::index::LiteLine;
use relay::store::packages::StoredPackage;
use relay::wire::{Package, canonical, secrets};
use serde_json::{Map, Value, json};

fn main() {
    divan::main();
}

const TYPICAL: &str = r#"{"package_id":"pkg_037ad537329c9187b5d25e6139bcdecd","project_id":"bench","relay_version":"0.1","title":"Refactor tapha talobra with","status":"complete","package_type":"standard","review_type":"none","created_at":"2023-11-30T17:57:02.468936Z","created_by":{"id":"codex","type":"agent","session_id":"sess_ded8906530e8f0c030c255bd8d69d916"},"description":"Mizukaqu ostrenzu ostostgennel to auth update latency after fix zuphaost tanel of add queue lokazuzu and zuququvos zubra error in branelost update ostdorost before add add lotri after tridorexlo trigen ostzu of update trivosbra rengen in","tags":["cache"],"significance":9,"decisions_made":["Remove kamizu fix with refactor incident fix in","Bragen trigenlo deploy in lobraka gendornelka nelta a"],"open_questions":["Fix genkatri login the api osttador job","Update vosrentri zunel in tests update fix"],"handoff_note":"Osttador fix dorost the fix remove invoice with ostzuquzu remove token the","estimated_next_actor":"agent","deliverables":[{"path":"src/ostvosostex.md","type":"sql","size_bytes":7370}]}"#;

/// The fixtures: (name, package JSON).
static PACKAGES: LazyLock<Vec<(&'static str, Value)>> = LazyLock::new(|| {
    let typical: Value = serde_json::from_str(TYPICAL).expect("the fixture is JSON");
    let mut large = typical.clone();
    let paragraph = "## Connection pool: \"leaking\" after retries\n\nThe pool \
        leaked 3.5e-3 handles/s (p95 = 420 ms, x-trust 0.975) — naïve fix in `pool.rs`: \
        close on drop. Zürich → 東京 replication lag: 1.25 s.\tTabs, \\backslashes\\ and \
        \u{1F680} too.\n\n";
    large["content_md"] = json!(paragraph.repeat(16 * 1024 / paragraph.len()));
    large["x-metrics"] = json!({"recall_at_5": 97.0, "latency_ms": [12, 18.5, 1e21, -0.0]});
    vec![("typical", typical), ("large", large)]
});

fn package(name: &str) -> &'static Value {
    &PACKAGES
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a fixture")
        .1
}

/// A stored line of the fixture: `{"package": …, "hash": …}` and `\n`.
fn stored_line(name: &str) -> Vec<u8> {
    let p = Package::from_value(package(name).clone()).expect("the fixture is valid");
    StoredPackage::envelope_line(&p, &p.content_hash()).expect("encodes")
}

const FIXTURES: &[&str] = &["typical", "large"];

/// Benchmarks `f` over a fixture, counting the bytes of its canonical form.
fn per_canonical_byte(bencher: Bencher, name: &str, f: fn(&Value) -> String) {
    let v = package(name);
    bencher
        .counter(BytesCount::of_str(&canonical::to_canonical_string(v)))
        .bench(|| f(black_box(v)));
}

mod canonical_json {
    use super::*;

    /// The canonical form of a package (sorted keys, RFC 8785 numbers and strings).
    #[divan::bench(args = FIXTURES)]
    fn to_canonical_string(bencher: Bencher, name: &str) {
        per_canonical_byte(bencher, name, canonical::to_canonical_string);
    }

    /// ECMAScript number formatting, over a mix of integers, decimals and exponents.
    #[divan::bench]
    fn format_number(bencher: Bencher) {
        let xs = [0.0, 7.0, 97.5, 0.1, 1e21, 1.25e-7, 123_456_789.123, -3.5e-3];
        bencher
            .counter(ItemsCount::new(xs.len()))
            .bench(|| xs.map(|x| canonical::format_number(black_box(x))));
    }
}

mod hashing {
    use super::*;

    /// `sha256:` over the canonical JSON: what every write and every verified read costs.
    #[divan::bench(args = FIXTURES)]
    fn content_hash(bencher: Bencher, name: &str) {
        per_canonical_byte(bencher, name, canonical::content_hash);
    }
}

mod line_parsing {
    use super::*;

    /// A stored line into a serde_json Value (key order kept).
    #[divan::bench(args = FIXTURES)]
    fn to_value(bencher: Bencher, name: &str) {
        let line = stored_line(name);
        bencher
            .counter(BytesCount::of_slice(&line))
            .bench(|| serde_json::from_slice::<Value>(black_box(&line)).expect("JSON"));
    }

    /// A stored line into a StoredPackage: parse, validate, recompute and compare the hash.
    #[divan::bench(args = FIXTURES)]
    fn to_stored_package(bencher: Bencher, name: &str) {
        let line = stored_line(name);
        bencher.counter(BytesCount::of_slice(&line)).bench(|| {
            let map: Map<String, Value> = serde_json::from_slice(black_box(&line)).expect("JSON");
            StoredPackage::from_envelope(map, Path::new("2026-11.ndjson"), 1).expect("sound")
        });
    }

    /// A stored line checked the way export reads it: into a borrowing tree, validated, the
    /// hash recomputed and compared; the package's text comes back as stored.
    #[divan::bench(args = FIXTURES)]
    fn to_checked_text(bencher: Bencher, name: &str) {
        let line = stored_line(name);
        let line = line.trim_ascii_end();
        bencher.counter(BytesCount::of_slice(line)).bench(|| {
            relay::store::packages::checked_package_text(black_box(line))
                .expect("sound")
                .len()
        });
    }

    /// A stored line into the borrowing tree (`wire::tree::Json`) alone.
    #[divan::bench(args = FIXTURES)]
    fn to_tree(bencher: Bencher, name: &str) {
        let line = stored_line(name);
        let text = std::str::from_utf8(&line).expect("UTF-8");
        bencher
            .counter(BytesCount::of_slice(&line))
            .bench(|| relay::wire::tree::Json::parse(black_box(text)).expect("JSON"));
    }

    /// A stored line into the borrowed view that search reads (text fields, id, time).
    #[divan::bench(args = FIXTURES)]
    fn to_lite_line(bencher: Bencher, name: &str) {
        let line = stored_line(name);
        bencher.counter(BytesCount::of_slice(&line)).bench(|| {
            let lite: LiteLine = serde_json::from_slice(black_box(&line)).expect("JSON");
            lite.package.package_id.len()
        });
    }

    /// Schema validation of a parsed package (§6), without hashing.
    #[divan::bench(args = FIXTURES)]
    fn validate_package(bencher: Bencher, name: &str) {
        let v = package(name);
        bencher
            .with_inputs(|| v.clone())
            .bench_values(|v| Package::from_value(v).expect("valid"));
    }
}

mod secret_scan {
    use super::*;

    /// Every string field of a package against every rule (with their keyword prefilters).
    #[divan::bench(args = FIXTURES)]
    fn scan_record(bencher: Bencher, name: &str) {
        let map = package(name).as_object().expect("an object");
        bencher
            .counter(BytesCount::of_str(
                &serde_json::to_string(map).expect("JSON"),
            ))
            .bench(|| secrets::scan_record(black_box(map)));
    }

    /// A text holding a credential, found and located.
    #[divan::bench]
    fn find_in_text(bencher: Bencher) {
        let text = "deploy notes: set AWS key AKIAIOSFODNN7EXAMPLE before the release, then \
                    rotate the pool and check the dashboard for latency";
        bencher.bench(|| secrets::find(black_box(text)));
    }
}

mod bm25 {
    use super::*;

    const QUERIES: &[&str] = &[
        "latency",
        "connection pool leaking",
        "\"rate limit\" billing retries",
    ];

    #[divan::bench(args = QUERIES)]
    fn parse_query(q: &str) -> query::Query {
        query::parse(black_box(q))
    }

    /// The light stemmer over inflected words.
    #[divan::bench]
    fn stem(bencher: Bencher) {
        let words = [
            "leaking",
            "timezones",
            "retried",
            "settings",
            "deployments",
            "migration",
            "dashboard",
            "queries",
        ];
        bencher
            .counter(ItemsCount::new(words.len()))
            .bench(|| words.map(|w| query::stem(black_box(w))));
    }

    /// Weighted term counts and length over a package's searched fields: the cost per
    /// candidate package.
    #[divan::bench(args = FIXTURES)]
    fn analyze(bencher: Bencher, name: &str) {
        let p = Package::from_value(package(name).clone()).expect("valid");
        let q = query::parse("connection pool leaking fix");
        bencher.bench(|| rank::analyze(black_box(&p), black_box(&q)));
    }

    /// BM25 with the significance and recency nudges, over 10,000 scored candidates.
    #[divan::bench]
    fn score_10k(bencher: Bencher) {
        let docs: Vec<(Vec<f32>, f32, i64, f32)> = (0..10_000u32)
            .map(|i| {
                let tf = vec![
                    (i % 4) as f32 * 2.0,
                    (i % 3) as f32,
                    (i % 7 == 0) as u8 as f32,
                ];
                (
                    tf,
                    20.0 + (i % 90) as f32,
                    1 + (i % 10) as i64,
                    (i % 1000) as f32,
                )
            })
            .collect();
        let idfs = [
            rank::idf(1e6, 5e3),
            rank::idf(1e6, 8e4),
            rank::idf(1e6, 40.0),
        ];
        bencher.counter(ItemsCount::new(docs.len())).bench(|| {
            docs.iter()
                .map(|(tf, len, sig, age)| {
                    rank::nudge(rank::bm25(tf, *len, &idfs, 55.0), *sig, *age)
                })
                .fold(0.0f32, f32::max)
        });
    }
}
