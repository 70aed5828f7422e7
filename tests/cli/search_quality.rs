//! Search quality: `relay search` over a labelled corpus.
//!
//! `tests/data/search_corpus.ndjson` holds realistic target packages and near-miss distractors
//! (same vocabulary, different subject); the test adds a few hundred generated noise packages
//! made of generic words ("update", "refactor", "cleanup", module names) so that the common
//! words of a query are really common. `tests/data/search_queries.json` lists labelled queries:
//! each names the package that is the best answer and the kind of difficulty it probes. The
//! test reports hit@1, hit@3 and MRR@10 and requires 90% of queries to have their labelled
//! package in the top 3. The store setup and the scoring are shared with `search_paraphrases`.

use std::collections::{BTreeMap, HashSet};

use serde_json::{Value, json};

use crate::harness::{Env, Run};

pub const CORPUS: &str = include_str!("../data/search_corpus.ndjson");
const QUERIES: &str = include_str!("../data/search_queries.json");

/// How many generated noise packages are deposited next to the corpus.
const NOISE: usize = 320;
/// How many deposits run at once.
const THREADS: usize = 8;
/// The target that goes through review before searching, so that it has several versions.
const REVIEWED: &str = "pkg_q023";

/// A 64-bit linear congruential generator (Knuth's MMIX constants): the noise is the same on
/// every run and every machine.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const ACTIONS: &[&str] = &[
    "Update",
    "Refactor",
    "Cleanup in",
    "Minor tweaks to",
    "Dependency bump for",
    "Meeting notes:",
    "Tidy up",
    "Rename helpers in",
    "Small fixes in",
    "Lint fixes for",
    "Follow-up on",
    "Docs touch-up for",
    "Code review notes on",
    "Housekeeping in",
    "Weekly sync:",
];

/// (how the title names the module, its tag)
const MODULES: &[(&str, &str)] = &[
    ("auth", "auth"),
    ("billing", "billing"),
    ("search", "search"),
    ("the cache layer", "cache"),
    ("the CI pipeline", "ci"),
    ("the mobile app", "mobile"),
    ("the database layer", "database"),
    ("the public API", "api"),
    ("the docs", "docs"),
    ("the web app", "web"),
    ("checkout", "checkout"),
    ("the admin dashboard", "admin"),
    ("metrics", "observability"),
    ("the settings page", "web"),
    ("notifications", "notifications"),
    ("sessions", "sessions"),
    ("payments", "payments"),
    ("the test suite", "testing"),
    ("build scripts", "build"),
    ("the workers", "workers"),
    ("invoices", "billing"),
    ("onboarding", "ux"),
    ("deploy scripts", "deploy"),
    ("logging", "observability"),
    ("email templates", "email"),
    ("the scheduler", "jobs"),
    ("the Android app", "android"),
    ("the iOS app", "ios"),
];

const SUFFIXES: &[&str] = &[
    "",
    "",
    "",
    " (follow-up)",
    " before the release",
    " after review",
    " for the new sprint",
    " part 2",
];

const SENTENCES: &[&str] = &[
    "Routine changes, no behaviour change intended.",
    "Bumped patch versions of a few dependencies.",
    "Notes from the weekly sync; nothing blocking.",
    "Renamed a few helpers and moved code around.",
    "Addressed review comments from last week.",
    "Small follow-ups from the previous sprint.",
    "Removed unused imports and commented-out code.",
    "Updated the changelog and the README.",
    "Fixed typos in comments and log messages.",
    "Reformatted files after the linter upgrade.",
    "Split a long function into smaller ones.",
    "Cleaned up configuration defaults.",
    "Discussed priorities for the next two weeks.",
    "No user-facing changes.",
    "Minor tweaks to naming and structure.",
    "Refactored without changing the public interface.",
];

const DECISIONS: &[&str] = &[
    "Keep the current structure for now",
    "Defer the larger refactor",
    "No further action needed",
    "Merge after one more review",
];

const QUESTIONS: &[&str] = &[
    "Anything else to tidy before the release?",
    "Should this wait until after the freeze?",
    "Is the old helper still used anywhere?",
];

const HANDOFFS: &[&str] = &[
    "Nothing pending.",
    "Ready for review.",
    "Picking this up again next week.",
    "Merged; no follow-up needed.",
];

const NOISE_TAGS: &[&str] = &["chore", "maintenance", "notes", "cleanup"];
const NOISE_TYPES: &[&str] = &["standard", "standard", "standard", "handoff", "analysis"];

/// `n` noise packages, as deposit input lines.
fn noise(n: usize) -> Vec<String> {
    let mut rng = Lcg(0x5eed_2026);
    (1..=n)
        .map(|i| {
            let (module, tag) = MODULES[rng.below(MODULES.len())];
            let title = format!("{} {module}{}", rng.pick(ACTIONS), rng.pick(SUFFIXES));
            let description = format!(
                "{} {} Touched {module} only.",
                rng.pick(SENTENCES),
                rng.pick(SENTENCES)
            );
            let mut p = json!({
                "package_id": format!("pkg_n{i:04}"),
                "title": title,
                "description": description,
                "tags": [tag, rng.pick(NOISE_TAGS)],
                "package_type": rng.pick(NOISE_TYPES),
                "significance": 1 + rng.below(3),
            });
            if rng.chance(40) {
                p["decisions_made"] = json!([rng.pick(DECISIONS)]);
            }
            if rng.chance(25) {
                p["open_questions"] = json!([rng.pick(QUESTIONS)]);
            }
            if rng.chance(50) {
                p["handoff_note"] = json!(rng.pick(HANDOFFS));
            }
            // Spread over 2025-06 .. 2026-10, like the corpus.
            let month = rng.below(17);
            let (year, month) = (2025 + (5 + month) / 12, (5 + month) % 12 + 1);
            p["created_at"] = json!(format!(
                "{year}-{month:02}-{:02}T{:02}:{:02}:00Z",
                1 + rng.below(28),
                rng.below(24),
                rng.below(60)
            ));
            p.to_string()
        })
        .collect()
}

/// Every corpus line, the reviewed target as a draft (only a draft can be flagged), then the
/// noise.
fn deposit_input() -> Vec<String> {
    let mut lines: Vec<String> = corpus()
        .map(|l| {
            let mut p: Value = serde_json::from_str(l).expect("corpus line is JSON");
            if p["package_id"] == REVIEWED {
                p["status"] = json!("draft");
            }
            p.to_string()
        })
        .collect();
    lines.extend(noise(NOISE));
    lines
}

fn deposit_all(env: &Env, lines: &[String]) {
    let chunk = lines.len().div_ceil(THREADS);
    std::thread::scope(|s| {
        for slice in lines.chunks(chunk) {
            s.spawn(move || {
                for line in slice {
                    let r = env.run_stdin(&["deposit", "--from", "-", "--json"], line.as_bytes());
                    assert_eq!(
                        r.code, 0,
                        "deposit failed for {line}\nstdout: {}\nstderr: {}",
                        r.stdout, r.stderr
                    );
                }
            });
        }
    });
}

pub struct Labelled {
    pub query: String,
    pub expect: String,
    pub kind: String,
}

/// The labelled queries of a JSON array of `{"query", "expect", "kind"}`.
pub fn labelled(json: &str) -> Vec<Labelled> {
    let all: Vec<Value> = serde_json::from_str(json).expect("labelled queries are JSON");
    all.iter()
        .map(|q| Labelled {
            query: q["query"].as_str().expect("query").to_string(),
            expect: q["expect"].as_str().expect("expect").to_string(),
            kind: q["kind"].as_str().expect("kind").to_string(),
        })
        .collect()
}

/// The corpus lines, as JSON.
pub fn corpus() -> impl Iterator<Item = &'static str> {
    CORPUS.lines().filter(|l| !l.trim().is_empty())
}

/// Every corpus package's title, by id.
pub fn corpus_titles() -> BTreeMap<String, String> {
    corpus()
        .map(|l| {
            let p: Value = serde_json::from_str(l).unwrap();
            (
                p["package_id"].as_str().unwrap().to_string(),
                p["title"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A store holding the corpus and the noise, where the reviewed target has been through a
/// review round trip and so has three versions in the log.
pub fn labelled_store() -> Env {
    let env = Env::new();
    let input = deposit_input();
    assert!(
        input.len() >= 100 + 300,
        "corpus plus noise: {}",
        input.len()
    );
    deposit_all(&env, &input);
    env.ok(&[
        "review",
        "flag",
        REVIEWED,
        "--human",
        "--note",
        "Check the retry cap",
    ]);
    env.ok(&[
        "review",
        "request-changes",
        REVIEWED,
        "--note",
        "Add the pool alert threshold",
    ]);
    assert_eq!(
        env.ok_json(&["pull", REVIEWED])["package"]["status"],
        "revision_requested"
    );
    env
}

/// How many searches of a labelled set run at once.
const SEARCH_THREADS: usize = 4;

/// How far down the results a labelled package is looked for (MRR is MRR@10).
const DEPTH: usize = 10;

/// How `relay search` does on a labelled set.
pub struct Scores {
    pub n: usize,
    /// Queries whose labelled package comes first.
    pub hit1: usize,
    /// Queries whose labelled package is in the top 3.
    pub hit3: usize,
    /// Queries whose labelled package is in the top 5.
    pub hit5: usize,
    /// Queries whose labelled package is in the top 10.
    pub hit10: usize,
    /// The mean over queries of 1 / the labelled package's rank (0 below [`DEPTH`]).
    pub mrr: f64,
    /// One line per query that misses the top 3.
    pub misses: Vec<String>,
}

impl Scores {
    pub fn hit3_pct(&self) -> f64 {
        100.0 * self.hit3 as f64 / self.n as f64
    }

    /// Prints the misses, then one line of figures.
    pub fn print(&self, set: &str) {
        for m in &self.misses {
            println!("{m}");
        }
        let n = self.n;
        println!(
            "search quality, {set}: hit@1 {}/{n} ({:.1}%), hit@3 {}/{n} ({:.1}%), MRR@{DEPTH} {:.3}",
            self.hit1,
            100.0 * self.hit1 as f64 / n as f64,
            self.hit3,
            self.hit3_pct(),
            self.mrr
        );
    }
}

/// Runs every labelled query against `env` and scores where its package lands.
pub fn measure(env: &Env, queries: &[Labelled]) -> Scores {
    measure_with(env, queries, &[])
}

/// [`measure`], with more arguments for `relay search` (a mode, a model).
pub fn measure_with(env: &Env, queries: &[Labelled], extra: &[&str]) -> Scores {
    let titles = corpus_titles();
    let (mut hit1, mut hit3, mut hit5, mut hit10, mut rr) = (0, 0, 0, 0, 0.0);
    let mut misses = Vec::new();
    for q in queries {
        assert!(
            titles.contains_key(&q.expect),
            "{:?} expects {}, which is not in the corpus",
            q.query,
            q.expect
        );
    }
    // The searches run on a few threads (each is a process of its own), in the set's order.
    let chunk = queries.len().div_ceil(SEARCH_THREADS).max(1);
    let results: Vec<Vec<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = queries
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|q| {
                            check_results(&q.query, &search(env, &q.query, DEPTH, extra), DEPTH)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a search thread panicked"))
            .collect()
    });
    // For analysis of the lists (a fusion computed offline): each query's ranked ids.
    if let Some(path) = std::env::var_os("RELAY_BENCH_DUMP") {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("RELAY_BENCH_DUMP is a file that can be written");
        for (q, ids) in queries.iter().zip(&results) {
            let line = serde_json::json!({"query": q.query, "expect": q.expect, "args": extra, "ids": ids});
            writeln!(f, "{line}").unwrap();
        }
    }
    for (q, ids) in queries.iter().zip(results) {
        let rank = ids.iter().position(|id| *id == q.expect);
        if let Some(r) = rank {
            rr += 1.0 / (r + 1) as f64;
        }
        if rank == Some(0) {
            hit1 += 1;
        }
        if rank.is_some_and(|r| r < 5) {
            hit5 += 1;
        }
        hit10 += usize::from(rank.is_some());
        if rank.is_some_and(|r| r < 3) {
            hit3 += 1;
        } else {
            let got: Vec<String> = ids
                .iter()
                .take(3)
                .map(|id| match titles.get(id) {
                    Some(t) => format!("{id} ({t})"),
                    None => format!("{id} (noise)"),
                })
                .collect();
            misses.push(format!(
                "MISS  {:<16}  {:<28}  expected {} ({})  got [{}]",
                q.kind,
                q.query,
                q.expect,
                titles[&q.expect],
                got.join(", ")
            ));
        }
    }
    Scores {
        n: queries.len(),
        hit1,
        hit3,
        hit5,
        hit10,
        mrr: rr / queries.len() as f64,
        misses,
    }
}

fn search(env: &Env, query: &str, limit: usize, extra: &[&str]) -> Run {
    let limit = limit.to_string();
    let mut args = vec!["search", query, "--limit", &limit, "--json"];
    args.extend(extra);
    env.run(&args)
}

/// Checks the shape of a result list: every line is `{"package", "score", "matched",
/// "x-stale"}` (with `"mode", "ranks", "similarity"` before `x-stale` in semantic and hybrid search) with a package id,
/// a numeric score and a `matched` array; scores never increase; no package appears twice.
/// Returns the ids, best first.
#[track_caller]
fn check_results(query: &str, r: &Run, limit: usize) -> Vec<String> {
    assert_eq!(
        r.code, 0,
        "relay search {query:?} failed:\nstdout: {}\nstderr: {}",
        r.stdout, r.stderr
    );
    let lines = r.json_lines();
    assert!(
        lines.len() <= limit,
        "{query:?}: {} results for --limit {limit}",
        lines.len()
    );
    let mut ids = Vec::new();
    let mut previous = f64::INFINITY;
    for line in &lines {
        let keys: Vec<&str> = line
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        let explained = [
            "package",
            "score",
            "matched",
            "mode",
            "ranks",
            "similarity",
            "x-stale",
        ];
        assert!(
            keys == ["package", "score", "matched", "x-stale"] || keys == explained,
            "{query:?}: {line}"
        );
        let id = line["package"]["package_id"]
            .as_str()
            .unwrap_or_else(|| panic!("{query:?}: result without package_id: {line}"));
        let score = line["score"]
            .as_f64()
            .unwrap_or_else(|| panic!("{query:?}: result without a numeric score: {line}"));
        assert!(
            line["matched"].is_array(),
            "{query:?}: result without a matched array: {line}"
        );
        assert!(
            score <= previous,
            "{query:?}: scores increase ({previous} then {score}): {}",
            r.stdout
        );
        previous = score;
        assert!(
            !ids.iter().any(|seen| seen == id),
            "{query:?}: {id} appears twice: {}",
            r.stdout
        );
        ids.push(id.to_string());
    }
    ids
}

#[test]
fn labelled_queries_find_their_package_in_the_top_3() {
    let env = labelled_store();
    let queries = labelled(QUERIES);
    assert!(queries.len() >= 34, "{} labelled queries", queries.len());
    let scores = measure(&env, &queries);
    scores.print("keyword set");

    // A query that matches nothing prints nothing and succeeds.
    let none = search(&env, "zyzzogeton quokkaflux", 3, &[]);
    assert_eq!(none.code, 0, "no match is not an error: {}", none.stderr);
    assert_eq!(none.stdout, "", "no match prints nothing");
    let none = env.run(&["search", "zyzzogeton", "quokkaflux"]);
    assert_eq!(none.code, 0, "no match is not an error: {}", none.stderr);

    // A broad query: many results, ordered by non-increasing score, each package once.
    let broad = check_results("billing", &search(&env, "billing", 50, &[]), 50);
    assert!(
        broad.len() >= 20,
        "billing matches many packages: {broad:?}"
    );
    let unique: HashSet<&String> = broad.iter().collect();
    assert_eq!(unique.len(), broad.len());

    // The reviewed target has three versions but appears once, at its current status.
    let r = search(&env, "connection leak postgres pool retry", 50, &[]);
    let ids = check_results("connection leak postgres pool retry", &r, 50);
    assert_eq!(
        ids.iter().filter(|id| *id == REVIEWED).count(),
        1,
        "{REVIEWED} appears once: {ids:?}"
    );
    let reviewed = r
        .json_lines()
        .into_iter()
        .find(|l| l["package"]["package_id"] == REVIEWED)
        .unwrap();
    assert_eq!(
        reviewed["package"]["status"], "revision_requested",
        "current version"
    );

    // `pull --relevant` is the same search.
    let via_pull = env.run(&[
        "pull",
        "--relevant",
        "cache stampede",
        "--limit",
        "3",
        "--json",
    ]);
    assert_eq!(
        check_results("cache stampede", &via_pull, 3),
        check_results("cache stampede", &search(&env, "cache stampede", 3, &[]), 3),
        "pull --relevant and search agree"
    );

    assert!(
        scores.hit3 * 10 >= scores.n * 9,
        "search quality below 90%: {}/{} ({:.1}%)\n{}",
        scores.hit3,
        scores.n,
        scores.hit3_pct(),
        scores.misses.join("\n")
    );
}
