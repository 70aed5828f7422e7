//! A reproducible benchmark corpus: `cargo run --release --example gen_corpus -- --packages N
//! --store DIR [--seed S] [--project P] [--months M]` writes N packages spread over M months
//! (default 36) straight into the monthly logs of project P in the store at DIR, with real
//! hashes, so every relay command reads them as deposits. Text is drawn from a Zipf-distributed
//! vocabulary, with a mix of package types, actors, tags and deliverables. The same seed gives
//! the same bytes.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use relay::store::{Store, layout};
use relay::wire::{Package, time};
use serde_json::json;

/// A small, fast, seeded generator (SplitMix64): reproducible, and no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

const COMMON: &[&str] = &[
    "fix",
    "update",
    "add",
    "remove",
    "refactor",
    "test",
    "tests",
    "build",
    "deploy",
    "release",
    "bug",
    "error",
    "cache",
    "index",
    "search",
    "billing",
    "invoice",
    "auth",
    "login",
    "session",
    "token",
    "database",
    "migration",
    "schema",
    "query",
    "api",
    "endpoint",
    "client",
    "server",
    "timeout",
    "retry",
    "queue",
    "worker",
    "job",
    "metrics",
    "dashboard",
    "alert",
    "incident",
    "latency",
    "memory",
    "leak",
    "config",
    "docs",
    "review",
    "performance",
    "mobile",
    "android",
    "ios",
    "ui",
];
const GLUE: &[&str] = &[
    "the", "a", "to", "in", "for", "with", "on", "and", "of", "after", "before",
];
const TYPES: &[&str] = &[
    "standard",
    "standard",
    "standard",
    "decision",
    "milestone",
    "handoff",
    "auto_deposit",
    "auto_deposit",
    "analysis",
    "question",
];
const ACTORS: &[(&str, &str)] = &[
    ("ana", "human"),
    ("bo", "human"),
    ("claude", "agent"),
    ("codex", "agent"),
    ("ci-bot", "script"),
];
const EXTS: &[&str] = &["rs", "md", "ts", "sql", "json", "py"];

/// Synthetic rare words, so the vocabulary has a long tail like real text.
fn vocabulary(rng: &mut Rng, size: usize) -> Vec<String> {
    const SYL: &[&str] = &[
        "ka", "lo", "mi", "ren", "ta", "vos", "qu", "ex", "dor", "pha", "zu", "nel", "tri", "ost",
        "bra", "gen",
    ];
    let mut words: Vec<String> = COMMON.iter().map(|w| w.to_string()).collect();
    while words.len() < size {
        let n = 2 + rng.below(3);
        words.push((0..n).map(|_| SYL[rng.below(SYL.len())]).collect());
    }
    words
}

/// Cumulative Zipf weights (s = 1.1) over the vocabulary.
fn zipf(n: usize) -> Vec<f64> {
    let mut acc = 0.0;
    (1..=n)
        .map(|r| {
            acc += 1.0 / (r as f64).powf(1.1);
            acc
        })
        .collect()
}

fn sentence(rng: &mut Rng, vocab: &[String], cdf: &[f64], words: usize) -> String {
    let total = cdf[cdf.len() - 1];
    let mut out = Vec::with_capacity(words);
    for i in 0..words {
        if i % 4 == 3 {
            out.push(GLUE[rng.below(GLUE.len())].to_string());
            continue;
        }
        let x = rng.unit() * total;
        out.push(vocab[cdf.partition_point(|&c| c < x).min(vocab.len() - 1)].clone());
    }
    let mut s = out.join(" ");
    if let Some(f) = s.get_mut(0..1) {
        f.make_ascii_uppercase();
    }
    s
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = arg(&args, "--packages")
        .unwrap_or_else(|| "10000".into())
        .parse()?;
    let seed: u64 = arg(&args, "--seed")
        .unwrap_or_else(|| "42".into())
        .parse()?;
    let months: i64 = arg(&args, "--months")
        .unwrap_or_else(|| "36".into())
        .parse()?;
    let project = arg(&args, "--project").unwrap_or_else(|| "bench".into());
    let dir = PathBuf::from(
        arg(&args, "--store").ok_or("give --store DIR (the .relay folder to create)")?,
    );
    Store::create(&dir, &project)?;
    let store = Store::open(dir.clone())?;
    relay::ops::projects::ensure(&store, &project, None)?;

    let mut rng = Rng(seed);
    let vocab = vocabulary(&mut rng, 20_000);
    let cdf = zipf(vocab.len());
    let end = time::parse("2026-11-01T00:00:00Z")?;
    let span = months * 30 * 86_400;
    // Packages in created_at order, so each monthly log is written once, in order.
    let mut stamps: Vec<i64> = (0..n).map(|_| rng.below(span as usize) as i64).collect();
    stamps.sort_unstable();
    let mut logs: BTreeMap<String, std::io::BufWriter<std::fs::File>> = BTreeMap::new();
    for (i, offset) in stamps.into_iter().enumerate() {
        let at = end - chrono::TimeDelta::seconds(span - offset);
        let (actor, kind) = ACTORS[rng.below(ACTORS.len())];
        let ptype = TYPES[rng.below(TYPES.len())];
        let (title_words, description_words) = (4 + rng.below(6), 15 + rng.below(40));
        let mut v = json!({
            "package_id": format!("pkg_{:032x}", (seed as u128) << 64 | i as u128),
            "project_id": project,
            "relay_version": "0.1",
            "title": sentence(&mut rng, &vocab, &cdf, title_words),
            "status": "complete",
            "package_type": ptype,
            "review_type": "none",
            "created_at": time::format(at),
            "created_by": {"id": actor, "type": kind},
            "description": sentence(&mut rng, &vocab, &cdf, description_words),
            "tags": (0..rng.below(4)).map(|_| COMMON[rng.below(COMMON.len())]).collect::<Vec<_>>(),
            "significance": if ptype == "auto_deposit" { 2 } else { 1 + rng.below(10) },
        });
        if ptype != "auto_deposit" {
            v["decisions_made"] = json!(
                (0..rng.below(3))
                    .map(|_| sentence(&mut rng, &vocab, &cdf, 8))
                    .collect::<Vec<_>>()
            );
            v["open_questions"] = json!(
                (0..rng.below(3))
                    .map(|_| sentence(&mut rng, &vocab, &cdf, 7))
                    .collect::<Vec<_>>()
            );
            if rng.below(3) == 0 {
                v["handoff_note"] = json!(sentence(&mut rng, &vocab, &cdf, 12));
            }
        }
        let files = rng.below(3);
        v["deliverables"] = json!((0..files)
            .map(|_| json!({"path": format!("src/{}.{}", vocab[rng.below(500)], EXTS[rng.below(EXTS.len())]),
                            "type": EXTS[rng.below(EXTS.len())], "size_bytes": rng.below(50_000)}))
            .collect::<Vec<_>>());
        let package = Package::from_value(v)?;
        let hash = package.content_hash();
        let path = store.package_log_for(&package);
        let month = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if !logs.contains_key(&month) {
            std::fs::create_dir_all(path.parent().ok_or("no parent")?)?;
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)?;
            logs.insert(month.clone(), std::io::BufWriter::with_capacity(1 << 20, f));
        }
        let line = relay::store::log::to_line(&relay::store::packages::StoredPackage::envelope(
            &package, &hash,
        ))?;
        logs.get_mut(&month).ok_or("no log")?.write_all(&line)?;
    }
    for (_, mut w) in logs {
        w.flush()?;
    }
    eprintln!(
        "wrote {n} packages to {} ({})",
        dir.join(layout::PROJECTS_DIR).display(),
        project
    );
    Ok(())
}
