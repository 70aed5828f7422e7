//! The credential scan's speed on what relay is asked to store: `cargo bench -p relay-wire
//! --bench secrets`. Ordinary texts (prose with code, logs, digests and URLs; a config file full
//! of assignments), a record of a dozen members, and a short text holding one credential.

use std::hint::black_box;

use divan::Bencher;
use divan::counter::BytesCount;
use relay_wire::secrets;
use serde_json::{Value, json};

fn main() {
    divan::main();
}

/// About 16 KB of the technical text a handoff note holds, with no credential in it.
fn prose() -> String {
    let paragraph = "## Connection pool leak after retries\n\n\
        The pool leaked 3.5e-3 handles/s (p95 = 420 ms) after commit \
        9fceb02d0ae598e95dc970b74767f19372d61af8; see https://github.com/org/repo/pull/812 and \
        request 123e4567-e89b-12d3-a456-426614174000. Fix in `pool.rs`: close on drop, then \
        `cargo test -p pool --release`. The image digest is sha256:0efe5d06aaaaf2dc735b3f9ce7cfc1a0f7cd715491ab61d991f57be1d4c0db33.\n\
        2026-01-04T10:31:07Z INFO worker[3] retry=2 backoff_ms=250 queue=billing latency_ms=41\n\
        Zürich → 東京 replication lag: 1.25 s; the session token rotates after login.\n\n";
    paragraph.repeat(16 * 1024 / paragraph.len())
}

/// About 4 KB of configuration: assignments everywhere, no credential.
fn config() -> String {
    let block = "[server]\nhost = \"0.0.0.0\"\nport = 8080\ntimeout: 30s\nworkers = 4\n\
        log_level = \"info\"\ntoken_ttl = 3600\npassword_min_length = 12\n\
        api_base_url = \"https://api.example.org/v2\"\ncache_dir: /var/cache/app\n\
        database_url = \"postgres://app@db:5432/app\"\nretries = 3\n\n";
    block.repeat(4 * 1024 / block.len())
}

fn record() -> Value {
    json!({
        "package_id": "pkg_037ad537329c9187b5d25e6139bcdecd", "project_id": "bench",
        "relay_version": "0.1", "title": "Refactor the retry queue", "status": "complete",
        "package_type": "standard", "review_type": "none",
        "created_at": "2023-11-30T17:57:02.468936Z",
        "created_by": {"id": "codex", "type": "agent", "session_id": "sess_ded8906530e8f0c030c255bd8d69d916"},
        "description": "Moved the retry queue behind the billing worker; latency fell after the fix.",
        "tags": ["cache", "billing"],
        "decisions_made": ["Keep the backoff at 250 ms", "Drop the second pool"],
        "open_questions": ["Does the login flow still rotate its token?"],
        "handoff_note": "Run the load test again: p95 = 420 ms before, 180 ms after.",
        "deliverables": [{"path": "src/queue/retry.rs", "type": "code", "size_bytes": 7370}],
        "x-metrics": {"recall_at_5": 97.0, "latency_ms": [12, 18.5]},
    })
}

#[divan::bench]
fn find_in_prose(bencher: Bencher) {
    let text = prose();
    bencher
        .counter(BytesCount::of_str(&text))
        .bench(|| secrets::find(black_box(&text)));
}

#[divan::bench]
fn find_in_config(bencher: Bencher) {
    let text = config();
    bencher
        .counter(BytesCount::of_str(&text))
        .bench(|| secrets::find(black_box(&text)));
}

#[divan::bench]
fn scan_record(bencher: Bencher) {
    let value = record();
    let map = value.as_object().expect("an object");
    bencher
        .counter(BytesCount::of_str(&value.to_string()))
        .bench(|| secrets::scan_record(black_box(map)));
}

#[divan::bench]
fn find_one_credential(bencher: Bencher) {
    let text = "deploy notes: set the key AKIAIOSFODNN7EXAMPLE before the release, then \
                rotate the pool and check the dashboard for latency";
    bencher.bench(|| secrets::find(black_box(text)));
}
