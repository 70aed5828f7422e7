//! What a large import leaves behind and needs: imported in chunks, the keyword index under
//! `cache/search-v5/` covers every line after the next read, rather than stay where the first
//! read put it (and every search parse the rest again); and an import that touches more logs
//! than the process may open files still succeeds, its staged files opened and closed as it
//! goes.

use std::path::Path;

use serde_json::{Value, json};

use crate::harness::{BIN, Env};

const MONTHS: [&str; 3] = ["2026-04", "2026-05", "2026-06"];
const CHUNKS: usize = 10;
/// Enough packages of about 1.5 KB for a chunk to add more to each month than a read parses
/// in memory (`PACKAGES.tail_limit`, 64 KiB).
const PER_MONTH_PER_CHUNK: usize = 60;

/// A package of `month`, marked as one of `chunk`, with a long description.
fn package(chunk: usize, month: &str, n: usize) -> Value {
    let words: Vec<String> = (0..180)
        .map(|w| format!("word{}", (n * 7 + w) % 997))
        .collect();
    json!({
        "package_id": format!("pkg_c{chunk}_{month}_{n}"), "project_id": "demo",
        "relay_version": "0.1", "title": format!("Chunkmark{chunk} handoff number {n}"),
        "description": words.join(" "), "status": "complete", "package_type": "standard",
        "review_type": "none", "created_at": format!("{month}-{:02}T10:00:00Z", 1 + n % 28),
        "created_by": {"id": "jo", "type": "human"}
    })
}

fn ndjson(records: &[Value]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

/// `covered` of the header line of each package index of `demo`, with its log's length.
fn coverage(store: &Path) -> Vec<(String, u64, Option<u64>)> {
    MONTHS
        .iter()
        .map(|month| {
            let log = store.join(format!("projects/demo/packages/{month}.ndjson"));
            let index = store.join(format!("cache/search-v5/demo/{month}.idx"));
            let covered = std::fs::read(&index).ok().and_then(|bytes| {
                let header = bytes.split(|&b| b == b'\n').next()?;
                serde_json::from_slice::<Value>(header).ok()?["covered"].as_u64()
            });
            let len = std::fs::metadata(&log).map_or(0, |m| m.len());
            (month.to_string(), len, covered)
        })
        .collect()
}

#[test]
fn after_an_import_in_chunks_the_keyword_index_covers_every_line() {
    let env = Env::new();
    for chunk in 1..=CHUNKS {
        let records: Vec<Value> = (MONTHS.iter())
            .flat_map(|month| (0..PER_MONTH_PER_CHUNK).map(move |n| package(chunk, month, n)))
            .collect();
        let r = env.run_stdin(&["import", "-", "--json"], ndjson(&records).as_bytes());
        assert_eq!(r.code, 0, "chunk {chunk}: {}", r.stderr);
    }
    // The last chunk's packages are found...
    let found = env.run(&[
        "search",
        "chunkmark10",
        "--mode",
        "keyword",
        "--limit",
        "500",
        "--json",
    ]);
    assert_eq!(found.code, 0, "{}", found.stderr);
    assert_eq!(found.packages().len(), MONTHS.len() * PER_MONTH_PER_CHUNK);
    // ...from an index that now covers every month's whole log: the next search parses no
    // line again.
    let after = coverage(&env.store());
    for (month, len, covered) in &after {
        assert_eq!(covered, &Some(*len), "the index of {month}: {after:?}");
    }
    // A read of an index that is current leaves it as it is.
    env.ok(&["search", "chunkmark3", "--mode", "keyword"]);
    assert_eq!(coverage(&env.store()), after);
}

#[test]
fn an_import_of_more_logs_than_open_files_allowed_succeeds() {
    // 120 monthly logs, and a fact after every package, so that the stream changes log at
    // every line: 64 open files were too few when each staged log kept its file open.
    let env = Env::new();
    let mut records = Vec::new();
    for i in 0..120 {
        let month = format!("{}-{:02}", 2016 + i / 12, 1 + i % 12);
        let id = format!("pkg_month_{i}");
        records.push(json!({
            "package_id": id, "project_id": "demo", "relay_version": "0.1",
            "title": format!("Month {month}"), "status": "complete",
            "package_type": "standard", "review_type": "none",
            "created_at": format!("{month}-15T10:00:00Z"),
            "created_by": {"id": "jo", "type": "human"}
        }));
        records.push(json!({
            "fact_id": format!("fact_month_{i}"), "project_id": "demo",
            "subject": format!("month{i}"), "predicate": "imported", "value": "yes",
            "valid_from": format!("{month}-15T10:00:00Z"), "valid_to": null,
            "created_at": format!("{month}-15T10:00:00Z"), "source_package_id": id,
            "asserted_by": {"id": "jo", "type": "human"}
        }));
    }
    let source = env.path("many-months.ndjson");
    std::fs::write(&source, ndjson(&records)).unwrap();
    let script = r#"ulimit -n 64 && exec "$0" "$@""#;
    let command = env.program(
        "sh",
        &[
            "-c",
            script,
            BIN,
            "import",
            source.to_str().unwrap(),
            "--json",
        ],
    );
    let r = Env::piped(command, b"");
    assert_eq!(r.code, 0, "import under ulimit -n 64: {}", r.stderr);
    let logs = std::fs::read_dir(env.store().join("projects/demo/packages")).unwrap();
    assert_eq!(logs.count(), 120);
    let pulled = env.run(&["pull", "--latest", "200", "--json"]);
    assert_eq!(pulled.packages().len(), 120);
    let facts = env.ok(&["facts", "list", "--json"]);
    assert_eq!(facts.lines().count(), 120);
}
