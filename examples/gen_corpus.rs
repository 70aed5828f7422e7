//! A reproducible benchmark corpus. Two modes:
//!
//! * `--stream FILE|-` writes an import stream for `relay import`: the project record, then N
//!   packages (oldest first), F facts over K (subject, predicate) keys forming supersession
//!   chains, and S sessions (a few still active). Packages made while a session was open carry
//!   its `created_by.session_id`, and the session lists them in `packages_deposited`.
//! * `--store DIR` writes N packages straight into the monthly logs of a new store at DIR (the
//!   `.relay` folder), with real hashes, so every relay command reads them as deposits.
//!
//! `--describe` prints, as JSON, what a benchmark needs to query the corpus (words of a known
//! frequency rank, a package id, a fact key) without generating it.
//!
//! ```text
//! cargo run --release --example gen_corpus -- --packages 1000000 --stream corpus.ndjson
//!     [--facts 250000] [--fact-keys 5000] [--sessions 10000] [--seed 42] [--months 36]
//!     [--project bench] [--end 2026-11-01T00:00:00Z]
//!     [--vocab 20000] [--zipf 1.1] [--words N] [--ids relay|sequential|uuid|prefix]
//! ```
//!
//! Text is drawn from a Zipf-distributed vocabulary (s = 1.1 over 20,000 words: 49 common
//! engineering words, then synthetic ones), with a mix of package types, statuses, actors, tags
//! and deliverables. Package, fact and session ids look random but are a bijection of the
//! record's number, so they never collide. The same arguments give the same bytes.
//!
//! The corpus's shape can change, so that a benchmark is not fooled by one corpus: `--vocab`
//! distinct words (past 20,000 they are made longer, so they stay distinct), the Zipf exponent
//! `--zipf`, descriptions of about `--words` words (else 15 to 54), and package ids of another
//! shape (`--ids`): `sequential` (`PKG-000001`), `uuid`, or `prefix` (one long prefix shared
//! by every id, then a number), as a foreign import brings.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;

use relay::store::{Store, format};
use relay::wire::{Fact, Package, Project, Session, time};
use serde_json::{Value, json};

/// A small, fast, seeded generator (SplitMix64): reproducible, and no dependency.
struct Rng(u64);

impl Rng {
    /// An independent stream for one part of the corpus, so that parts do not shift each
    /// other: the packages of a store and of a stream with the same seed are the same.
    fn stream(seed: u64, part: u64) -> Rng {
        Rng(mix(seed ^ part.wrapping_mul(0xA076_1D64_78BD_642F)))
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// The SplitMix64 finalizer: a bijection on u64.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `prefix_` + 32 hex digits that look random and are unique for each `i` (the low half is a
/// bijection of `i`).
fn record_id(prefix: &str, seed: u64, part: u64, i: u64) -> String {
    let lo = mix(i ^ mix(seed ^ part));
    let hi = mix(lo ^ seed.rotate_left(17) ^ part);
    format!("{prefix}_{hi:016x}{lo:016x}")
}

const PART_VOCAB: u64 = 1;
const PART_PACKAGES: u64 = 2;
const PART_SESSIONS: u64 = 3;
const PART_FACTS: u64 = 4;
const PART_ATTRIBUTION: u64 = 5;

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
    ("chen@example.com", "human"),
    ("claude", "agent"),
    ("codex", "agent"),
    ("gemini", "agent"),
    ("ci-bot", "script"),
    ("nightly-eval", "script"),
];
const EXTS: &[&str] = &["rs", "md", "ts", "sql", "json", "py"];
const PREDICATES: &[&str] = &[
    "status",
    "owner",
    "version",
    "p95_latency_ms",
    "error_rate",
    "recall_at_5",
    "deployed_at",
    "replicas",
    "budget_usd",
    "on_call",
];
const STATES: &[&str] = &["live", "degraded", "down", "maintenance", "planned"];
const ADJECTIVES: &[&str] = &[
    "amber", "brave", "calm", "coral", "dusty", "eager", "faint", "gentle", "hazy", "idle",
    "jolly", "keen", "lunar", "misty", "noble", "olive", "proud", "quiet", "rapid", "silent",
    "tidal", "urban", "vivid", "wild", "young", "zesty",
];
const NOUNS: &[&str] = &[
    "badger", "crane", "dingo", "egret", "falcon", "gecko", "heron", "ibis", "jackal", "kestrel",
    "lemur", "marten", "newt", "otter", "puffin", "quail", "raven", "stoat", "tapir", "urchin",
    "viper", "walrus", "yak", "zebra",
];

/// Synthetic rare words, so the vocabulary has a long tail like real text. Up to 20,000 words
/// (the default corpus, whose bytes this keeps) a word may repeat; past it words are made of up
/// to six syllables and each is distinct, so `size` is the number of distinct words.
fn vocabulary(rng: &mut Rng, size: usize) -> Vec<String> {
    const SYL: &[&str] = &[
        "ka", "lo", "mi", "ren", "ta", "vos", "qu", "ex", "dor", "pha", "zu", "nel", "tri", "ost",
        "bra", "gen",
    ];
    let mut words: Vec<String> = COMMON.iter().take(size).map(|w| w.to_string()).collect();
    let large = size > 20_000;
    let mut seen: HashSet<String> = words.iter().cloned().collect();
    while words.len() < size {
        let n = 2 + rng.below(if large { 5 } else { 3 });
        let word: String = (0..n).map(|_| SYL[rng.below(SYL.len())]).collect();
        if !large || seen.insert(word.clone()) {
            words.push(word);
        }
    }
    words
}

/// How package ids look.
#[derive(Clone, Copy)]
enum IdShape {
    /// relay's own: `pkg_` and 32 hex digits that look random.
    Relay,
    /// `PKG-000001`, `PKG-000002`, …
    Sequential,
    /// A random-looking UUID.
    Uuid,
    /// One long prefix every id shares, then a number.
    Prefix,
}

impl IdShape {
    fn parse(text: &str) -> Result<IdShape, String> {
        match text {
            "relay" => Ok(IdShape::Relay),
            "sequential" => Ok(IdShape::Sequential),
            "uuid" => Ok(IdShape::Uuid),
            "prefix" => Ok(IdShape::Prefix),
            other => Err(format!(
                "--ids takes relay, sequential, uuid or prefix (got {other:?})"
            )),
        }
    }
}

/// Cumulative Zipf weights (exponent `s`) over `n` ranks.
fn zipf(n: usize, s: f64) -> Vec<f64> {
    let mut acc = 0.0;
    (1..=n)
        .map(|r| {
            acc += 1.0 / (r as f64).powf(s);
            acc
        })
        .collect()
}

/// A rank drawn from cumulative weights.
fn draw(rng: &mut Rng, cdf: &[f64]) -> usize {
    let x = rng.unit() * cdf[cdf.len() - 1];
    cdf.partition_point(|&c| c < x).min(cdf.len() - 1)
}

fn sentence(rng: &mut Rng, vocab: &[String], cdf: &[f64], words: usize) -> String {
    let mut out = Vec::with_capacity(words);
    for i in 0..words {
        if i % 4 == 3 {
            out.push(GLUE[rng.below(GLUE.len())]);
            continue;
        }
        out.push(vocab[draw(rng, cdf)].as_str());
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

fn num<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match arg(args, name) {
        None => Ok(default),
        Some(s) => s
            .replace('_', "")
            .parse()
            .map_err(|_| format!("{name} takes a number (got {s:?})")),
    }
}

/// What the corpus is made of.
struct Spec {
    packages: usize,
    facts: usize,
    fact_keys: usize,
    sessions: usize,
    seed: u64,
    project: String,
    /// The newest possible timestamp, and the span before it, in microseconds.
    end: time::Timestamp,
    span_us: i64,
    vocab: Vec<String>,
    cdf: Vec<f64>,
    /// About how many words a description has (`None`: 15 to 54).
    words: Option<usize>,
    ids: IdShape,
    zipf: f64,
}

impl Spec {
    fn at(&self, offset_us: i64) -> time::Timestamp {
        self.end - chrono::TimeDelta::microseconds(self.span_us - offset_us)
    }
    fn stamp(&self, offset_us: i64) -> String {
        time::format(self.at(offset_us))
    }
    fn package_id(&self, i: usize) -> String {
        match self.ids {
            IdShape::Relay => record_id("pkg", self.seed, PART_PACKAGES, i as u64),
            IdShape::Sequential => format!("PKG-{:06}", i + 1),
            IdShape::Uuid => {
                let hex = &record_id("", self.seed, PART_PACKAGES, i as u64)[1..];
                let (a, b, c, d, e) = (
                    &hex[..8],
                    &hex[8..12],
                    &hex[13..16],
                    &hex[17..20],
                    &hex[20..],
                );
                format!("{a}-{b}-4{c}-a{d}-{e}")
            }
            IdShape::Prefix => format!("org.example.platform.imported.records.package-{i:09}"),
        }
    }
    /// The facts' subjects: distinct words of the vocabulary past the common ones.
    fn subjects(&self) -> Vec<String> {
        let want = self.fact_keys.div_ceil(PREDICATES.len());
        let mut seen = HashSet::new();
        let mut out: Vec<String> = self.vocab[COMMON.len()..]
            .iter()
            .filter(|w| seen.insert(w.as_str()))
            .take(want)
            .cloned()
            .collect();
        let base = out.len();
        while out.len() < want {
            out.push(format!("{}_{}", self.vocab[out.len() % base], out.len()));
        }
        out
    }
    fn fact_key(&self, subjects: &[String], k: usize) -> (String, &'static str) {
        (
            subjects[k / PREDICATES.len()].clone(),
            PREDICATES[k % PREDICATES.len()],
        )
    }
}

/// A session: who, when, and what it deposited.
struct Sess {
    id: String,
    actor: usize,
    start: i64,
    end: Option<i64>,
    callsign: String,
    packages: Vec<String>,
}

fn sessions(spec: &Spec) -> Vec<Sess> {
    let mut rng = Rng::stream(spec.seed, PART_SESSIONS);
    let active = spec.sessions.min(5);
    let mut starts: Vec<i64> = (0..spec.sessions)
        .map(|_| rng.below(spec.span_us as usize) as i64)
        .collect();
    starts.sort_unstable();
    let mut open_callsigns = HashSet::new();
    starts
        .into_iter()
        .enumerate()
        .map(|(i, start)| {
            let is_active = i + active >= spec.sessions;
            let mut callsign;
            loop {
                callsign = format!(
                    "{}-{}",
                    ADJECTIVES[rng.below(ADJECTIVES.len())],
                    NOUNS[rng.below(NOUNS.len())]
                );
                if !is_active || open_callsigns.insert(callsign.clone()) {
                    break;
                }
            }
            // Ten minutes to three hours.
            let minutes = 10 + rng.below(170) as i64;
            Sess {
                id: record_id("sess", spec.seed, PART_SESSIONS, i as u64),
                actor: rng.below(ACTORS.len()),
                start,
                end: (!is_active).then(|| (start + minutes * 60_000_000).min(spec.span_us)),
                callsign,
                packages: Vec::new(),
            }
        })
        .collect()
}

/// Calls `emit` with each package, oldest first; a package made while a session was open is
/// usually that session's (its actor, its `session_id`), recorded in `sessions`.
fn packages(
    spec: &Spec,
    sessions: &mut [Sess],
    mut emit: impl FnMut(Package) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng::stream(spec.seed, PART_PACKAGES);
    let mut who = Rng::stream(spec.seed, PART_ATTRIBUTION);
    let (vocab, cdf) = (&spec.vocab, &spec.cdf);
    let mut stamps: Vec<i64> = (0..spec.packages)
        .map(|_| rng.below(spec.span_us as usize) as i64)
        .collect();
    stamps.sort_unstable();
    for (i, offset) in stamps.into_iter().enumerate() {
        let actor = rng.below(ACTORS.len());
        let ptype = TYPES[rng.below(TYPES.len())];
        let (status, review) = match rng.below(200) {
            0 | 1 => ("awaiting_review", "human"),
            2 => ("draft", "none"),
            _ => ("complete", "none"),
        };
        let title_words = 4 + rng.below(6);
        let description_words = match spec.words {
            None => 15 + rng.below(40),
            Some(n) => (n - n / 2).max(1) + rng.below(n + 1),
        };
        let id = spec.package_id(i);
        let mut created_by = json!({"id": ACTORS[actor].0, "type": ACTORS[actor].1});
        // The session open at this time, if any: the newest that started before it.
        let open = sessions.partition_point(|s| s.start <= offset);
        if let Some(s) = sessions[open.saturating_sub(3)..open]
            .iter_mut()
            .rev()
            .find(|s| s.end.is_none_or(|end| offset <= end))
            && who.chance(0.8)
        {
            created_by =
                json!({"id": ACTORS[s.actor].0, "type": ACTORS[s.actor].1, "session_id": s.id});
            s.packages.push(id.clone());
        }
        let mut v = json!({
            "package_id": id,
            "project_id": spec.project,
            "relay_version": "0.1",
            "title": sentence(&mut rng, vocab, cdf, title_words),
            "status": status,
            "package_type": ptype,
            "review_type": review,
            "created_at": spec.stamp(offset),
            "created_by": created_by,
            "description": sentence(&mut rng, vocab, cdf, description_words),
            "tags": (0..rng.below(4)).map(|_| COMMON[rng.below(COMMON.len())]).collect::<Vec<_>>(),
            "significance": if ptype == "auto_deposit" { 2 } else { 1 + rng.below(10) },
        });
        if ptype != "auto_deposit" {
            v["decisions_made"] = json!(
                (0..rng.below(3))
                    .map(|_| sentence(&mut rng, vocab, cdf, 8))
                    .collect::<Vec<_>>()
            );
            v["open_questions"] = json!(
                (0..rng.below(3))
                    .map(|_| sentence(&mut rng, vocab, cdf, 7))
                    .collect::<Vec<_>>()
            );
            if rng.below(3) == 0 {
                v["handoff_note"] = json!(sentence(&mut rng, vocab, cdf, 12));
                v["estimated_next_actor"] = json!(["human", "agent"][rng.below(2)]);
            }
        }
        let files = rng.below(3);
        v["deliverables"] = json!((0..files)
            .map(|_| json!({"path": format!("src/{}.{}", vocab[rng.below(500)], EXTS[rng.below(EXTS.len())]),
                            "type": EXTS[rng.below(EXTS.len())], "size_bytes": rng.below(50_000)}))
            .collect::<Vec<_>>());
        emit(Package::from_value(v)?)?;
    }
    Ok(())
}

/// A plausible value for a predicate.
fn fact_value(rng: &mut Rng, predicate: &str, step: usize) -> String {
    match predicate {
        "status" => STATES[rng.below(STATES.len())].to_string(),
        "owner" | "on_call" => ACTORS[rng.below(ACTORS.len())].0.to_string(),
        "version" => format!("{}.{}.{}", 1 + step / 100, (step / 10) % 10, step % 10),
        "p95_latency_ms" => (20 + rng.below(900)).to_string(),
        "error_rate" => format!("{:.4}", rng.unit() * 0.05),
        "recall_at_5" => format!("{:.1}", 60.0 + rng.unit() * 40.0),
        "replicas" => (1 + rng.below(12)).to_string(),
        "budget_usd" => (1000 * (1 + rng.below(90))).to_string(),
        _ => format!("build-{step}"),
    }
}

/// Calls `emit` with each fact, by `valid_from`. Each key's facts form a gapless chain: each
/// one's `valid_to` is the next one's `valid_from`, and the last is open. Some keys change far
/// more often than others (Zipf over keys); every key has at least one fact.
fn facts(
    spec: &Spec,
    mut emit: impl FnMut(Fact) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng::stream(spec.seed, PART_FACTS);
    let keys = spec.fact_keys.min(spec.facts);
    if keys == 0 {
        return Ok(());
    }
    let subjects = spec.subjects();
    let mut counts = vec![1usize; keys];
    let key_cdf = zipf(keys, 1.0);
    for _ in keys..spec.facts {
        counts[draw(&mut rng, &key_cdf)] += 1;
    }
    // Each key's times, distinct and ascending; then every fact by time.
    let mut times: Vec<Vec<i64>> = Vec::with_capacity(keys);
    let mut order: Vec<(i64, usize, usize)> = Vec::with_capacity(spec.facts);
    for (k, &n) in counts.iter().enumerate() {
        let mut t: Vec<i64> = (0..n)
            .map(|_| rng.below(spec.span_us as usize) as i64)
            .collect();
        t.sort_unstable();
        for j in 1..t.len() {
            t[j] = t[j].max(t[j - 1] + 1);
        }
        order.extend(t.iter().enumerate().map(|(j, &at)| (at, k, j)));
        times.push(t);
    }
    order.sort_unstable();
    for (n, (at, k, j)) in order.into_iter().enumerate() {
        let (subject, predicate) = spec.fact_key(&subjects, k);
        let (actor, kind) = ACTORS[rng.below(ACTORS.len())];
        let from = spec.stamp(at);
        let mut v = json!({
            "fact_id": record_id("fact", spec.seed, PART_FACTS, n as u64),
            "project_id": spec.project,
            "subject": subject,
            "predicate": predicate,
            "value": if predicate == "deployed_at" { from.clone() } else { fact_value(&mut rng, predicate, j) },
            "valid_from": from,
            "valid_to": times[k].get(j + 1).map(|&next| spec.stamp(next)),
        });
        if spec.packages > 0 && rng.chance(0.3) {
            // A package of about the same time.
            let i = (spec.packages as i128 * at as i128 / spec.span_us as i128) as usize;
            v["source_package_id"] = json!(spec.package_id(i.min(spec.packages - 1)));
        }
        v["confidence"] = json!([1.0, 1.0, 1.0, 0.9, 0.75][rng.below(5)]);
        v["asserted_by"] = json!({"id": actor, "type": kind});
        v["created_at"] = json!(spec.stamp(at));
        if rng.chance(0.2) {
            v["tags"] = json!([COMMON[rng.below(COMMON.len())]]);
        }
        emit(Fact::from_value(v)?)?;
    }
    Ok(())
}

fn write_line(out: &mut impl Write, record: &impl serde::Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, record)?;
    out.write_all(b"\n")
}

fn write_stream(spec: &Spec, out: impl Write) -> Result<(), Box<dyn std::error::Error>> {
    let mut out = std::io::BufWriter::with_capacity(1 << 20, out);
    let mut sessions = sessions(spec);
    let begin = spec.stamp(0);
    let project = Project::from_value(json!({
        "project_id": spec.project,
        "name": spec.project,
        "description": "A generated benchmark corpus (examples/gen_corpus.rs)",
        "created_at": begin,
        "updated_at": begin,
    }))?;
    write_line(&mut out, &project)?;
    packages(spec, &mut sessions, |p| Ok(write_line(&mut out, &p)?))?;
    facts(spec, |f| Ok(write_line(&mut out, &f)?))?;
    for s in sessions {
        let v = json!({
            "session_id": s.id,
            "project_id": spec.project,
            "actor_id": ACTORS[s.actor].0,
            "actor_type": ACTORS[s.actor].1,
            "callsign": s.callsign,
            "started_at": spec.stamp(s.start),
            "ended_at": s.end.map(|e| spec.stamp(e)),
            "packages_deposited": s.packages,
        });
        write_line(&mut out, &Session::from_value(v)?)?;
    }
    out.flush()?;
    Ok(())
}

fn write_store(spec: &Spec, dir: PathBuf) -> Result<(), Box<dyn std::error::Error>> {
    Store::create(&dir, &spec.project)?;
    let store = Store::open(dir.clone())?;
    relay::ops::projects::ensure(&store, &spec.project, None)?;
    // Packages come in created_at order, so each monthly log is written once, in order.
    let mut logs: BTreeMap<PathBuf, std::io::BufWriter<std::fs::File>> = BTreeMap::new();
    packages(spec, &mut [], |package| {
        let hash = package.content_hash();
        let path = store.package_log_for(&package);
        if !logs.contains_key(&path) {
            std::fs::create_dir_all(path.parent().ok_or("no parent")?)?;
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)?;
            logs.insert(path.clone(), std::io::BufWriter::with_capacity(1 << 20, f));
        }
        let line = relay::store::packages::StoredPackage::envelope_line(&package, &hash)?;
        logs.get_mut(&path).ok_or("no log")?.write_all(&line)?;
        Ok(())
    })?;
    for (_, mut w) in logs {
        w.flush()?;
    }
    eprintln!(
        "wrote {} packages to {} ({})",
        spec.packages,
        dir.join(format::PROJECTS_DIR).display(),
        spec.project
    );
    Ok(())
}

/// What a benchmark needs to know to query the corpus.
fn describe(spec: &Spec) -> Value {
    let subjects = spec.subjects();
    let keys = spec.fact_keys.min(spec.facts);
    let key = |k: usize| {
        if keys == 0 {
            return Value::Null;
        }
        let (s, p) = spec.fact_key(&subjects, k.min(keys - 1));
        json!([s, p])
    };
    // A word of this frequency rank, or the rarest there is in a smaller vocabulary.
    let rank = |r: usize| spec.vocab[(r - 1).min(spec.vocab.len() - 1)].clone();
    json!({
        "project": spec.project,
        "seed": spec.seed,
        "packages": spec.packages,
        "facts": spec.facts,
        "fact_keys": spec.fact_keys,
        "sessions": spec.sessions,
        "first": spec.stamp(0),
        "end": time::format(spec.end),
        // Words by frequency rank (1 = most frequent).
        "words": {
            "rank_2000": rank(2000),
            "rank_1000": rank(1000),
            "rank_200": rank(200),
            "rank_36": rank(36),
        },
        "shape": {
            "vocab": spec.vocab.len(),
            "zipf": spec.zipf,
            "words": spec.words,
            "ids": match spec.ids {
                IdShape::Relay => "relay",
                IdShape::Sequential => "sequential",
                IdShape::Uuid => "uuid",
                IdShape::Prefix => "prefix",
            },
        },
        "package_middle": spec.package_id(spec.packages / 2),
        "package_newest": spec.package_id(spec.packages.saturating_sub(1)),
        // The key changed most often, and one changed rarely.
        "fact_key_busiest": key(0),
        "fact_key_quiet": key(keys / 2),
    })
}

const USAGE: &str = "usage: gen_corpus [--packages N] (--stream FILE|- | --store DIR | --describe)
       [--facts F] [--fact-keys K] [--sessions S] [--seed S] [--months M] [--project P]
       [--end RFC3339] [--vocab V] [--zipf S] [--words W] [--ids relay|sequential|uuid|prefix]";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return Ok(());
    }
    let months: i64 = num(&args, "--months", 36)?;
    let seed = num(&args, "--seed", 42u64)?;
    let mut vocab_rng = Rng::stream(seed, PART_VOCAB);
    let vocab = vocabulary(&mut vocab_rng, num(&args, "--vocab", 20_000usize)?.max(50));
    let zipf_s: f64 = num(&args, "--zipf", 1.1)?;
    let words = arg(&args, "--words")
        .map(|_| num(&args, "--words", 35usize))
        .transpose()?;
    let ids = IdShape::parse(&arg(&args, "--ids").unwrap_or_else(|| "relay".into()))?;
    let spec = Spec {
        packages: num(&args, "--packages", 10_000)?,
        facts: num(&args, "--facts", 250_000)?,
        fact_keys: num(&args, "--fact-keys", 5_000)?,
        sessions: num(&args, "--sessions", 10_000)?,
        seed,
        project: arg(&args, "--project").unwrap_or_else(|| "bench".into()),
        end: time::parse(&arg(&args, "--end").unwrap_or_else(|| "2026-11-01T00:00:00Z".into()))?,
        span_us: months.max(1) * 30 * 86_400 * 1_000_000,
        cdf: zipf(vocab.len(), zipf_s),
        vocab,
        words,
        ids,
        zipf: zipf_s,
    };
    if args.iter().any(|a| a == "--describe") {
        println!("{}", serde_json::to_string_pretty(&describe(&spec))?);
        return Ok(());
    }
    match (arg(&args, "--stream"), arg(&args, "--store")) {
        (Some(path), None) => {
            let started = std::time::Instant::now();
            if path == "-" {
                write_stream(&spec, std::io::stdout().lock())?;
            } else {
                write_stream(&spec, std::fs::File::create(&path)?)?;
            }
            eprintln!(
                "wrote {} packages, {} facts, {} sessions to {path} in {:.1} s",
                spec.packages,
                spec.facts,
                spec.sessions,
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        (None, Some(dir)) => write_store(&spec, PathBuf::from(dir)),
        _ => Err(format!("give --stream FILE|- or --store DIR\n{USAGE}").into()),
    }
}
