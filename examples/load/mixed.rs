//! The mixed load run of issue 41: `relay serve` on an existing store (a large one: the
//! point is a month's log that keeps growing under a store of a million packages), with
//! writers depositing and readers pulling the latest, searching, pulling by id and listing
//! facts, all at once for a set time. Prints p50/p99 per operation and each operation's rate
//! per 10 s window (a read that slows as the log grows shows as a falling rate), then stops
//! the server, checks that every acknowledged deposit is in the logs, and runs `relay verify`.
//! It writes into the store: point it at a copy.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use super::{new_id, percentile, relay, serve, whole_package};

/// The length of one window of the rate table.
const WINDOW: Duration = Duration::from_secs(10);

/// The operations, in the tables' order.
const OPS: [&str; 5] = ["deposit", "pull --latest", "search", "pull by id", "facts"];

/// One request: which operation, when it started (since the run began), how long it took,
/// whether it succeeded.
struct Sample {
    op: usize,
    start: Duration,
    took: Duration,
    ok: bool,
    /// What a read asked for (its path); empty for a deposit.
    asked: String,
}

struct Args {
    bin: PathBuf,
    dir: PathBuf,
    project: String,
    writers: usize,
    readers: usize,
    seconds: f64,
}

fn args() -> Args {
    let usage = "usage: load RELAY_BINARY --store DIR [--project P] [--writers N] \
                 [--readers N] [--seconds S]";
    let mut bin = None;
    let mut dir = None;
    let (mut project, mut writers, mut readers, mut seconds) = (None, 16, 4, 60.0);
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().expect(usage);
        match a.as_str() {
            "--store" => dir = Some(PathBuf::from(value())),
            "--project" => project = Some(value()),
            "--writers" => writers = value().parse().expect(usage),
            "--readers" => readers = value().parse().expect(usage),
            "--seconds" => seconds = value().parse().expect(usage),
            _ if bin.is_none() => bin = Some(PathBuf::from(a)),
            _ => panic!("{usage}"),
        }
    }
    let bin = std::fs::canonicalize(bin.expect(usage)).expect("the relay binary exists");
    let dir = std::fs::canonicalize(dir.expect(usage)).expect("the store's folder exists");
    let project = project.unwrap_or_else(|| biggest_project(&dir));
    Args {
        bin,
        dir,
        project,
        writers,
        readers,
        seconds,
    }
}

/// The project with the most bytes of package logs.
fn biggest_project(dir: &Path) -> String {
    let projects = dir.join(".relay/projects");
    let size = |p: &Path| -> u64 {
        let logs = std::fs::read_dir(p.join("packages")).into_iter().flatten();
        logs.flatten()
            .filter_map(|e| e.metadata().ok())
            .map(|m| m.len())
            .sum()
    };
    let entries = std::fs::read_dir(&projects).expect("a store: DIR/.relay/projects");
    entries
        .flatten()
        .max_by_key(|e| size(&e.path()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .expect("a project")
}

/// What the readers ask for, taken from the store before the run: package ids and title
/// words of the project's newest packages, and subjects of its newest facts.
struct Targets {
    ids: Vec<String>,
    words: Vec<String>,
    subjects: Vec<String>,
}

fn targets(http: &reqwest::blocking::Client, base: &str, dir: &Path, project: &str) -> Targets {
    let latest: Value = http
        .get(format!(
            "{base}/v1/projects/{project}/packages?mode=latest&limit=200"
        ))
        .send()
        .and_then(|r| r.json())
        .expect("pull --latest answers");
    let packages = latest["packages"].as_array().cloned().unwrap_or_default();
    let ids: Vec<String> = (packages.iter())
        .filter_map(|p| p["package_id"].as_str().map(String::from))
        .collect();
    let mut words: Vec<String> = (packages.iter())
        .filter_map(|p| p["title"].as_str())
        .flat_map(|t| t.split_whitespace().map(str::to_lowercase))
        .filter(|w| w.len() >= 5 && w.chars().all(char::is_alphanumeric))
        .collect();
    words.sort();
    words.dedup();
    // The newest facts are at the end of the project's facts log.
    let facts = std::fs::read(
        dir.join(".relay/projects")
            .join(project)
            .join("facts.ndjson"),
    )
    .unwrap_or_default();
    let tail = String::from_utf8_lossy(&facts[facts.len().saturating_sub(1 << 16)..]).into_owned();
    let mut subjects: Vec<String> = (tail.lines().skip(1))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|f| f["subject"].as_str().map(String::from))
        .collect();
    subjects.sort();
    subjects.dedup();
    assert!(!ids.is_empty(), "the project `{project}` has packages");
    Targets {
        ids,
        words,
        subjects,
    }
}

/// One reader's request `n`: the operations in turn, each on a target of its own.
fn read_path(t: &Targets, project: &str, c: usize, n: usize) -> (usize, String) {
    let pick = |list: &[String]| list[(c * 7919 + n * 31) % list.len()].clone();
    let mut op = 1 + (c + n) % 4;
    if (op == 2 && t.words.is_empty()) || (op == 4 && t.subjects.is_empty()) {
        op = 3;
    }
    let path = match op {
        1 => format!("/v1/projects/{project}/packages?mode=latest&limit=20"),
        2 => format!(
            "/v1/projects/{project}/packages?mode=relevant&limit=20&query={}",
            pick(&t.words)
        ),
        3 => format!("/v1/packages/{}", pick(&t.ids)),
        _ => format!("/v1/projects/{project}/facts?subject={}", pick(&t.subjects)),
    };
    (op, path)
}

/// The ids in the project's package logs written since `since`.
fn ids_written_since(dir: &Path, project: &str, since: SystemTime) -> HashSet<String> {
    let logs = dir.join(".relay/projects").join(project).join("packages");
    let mut ids = HashSet::new();
    for entry in std::fs::read_dir(logs).unwrap().flatten() {
        let fresh = entry.metadata().and_then(|m| m.modified()).unwrap() >= since;
        if !fresh {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        assert!(text.is_empty() || text.ends_with('\n'), "a torn line");
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).expect("every line is whole JSON");
            if let Some(id) = v["package"]["package_id"].as_str() {
                ids.insert(id.to_string());
            }
        }
    }
    ids
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn tables(samples: &[Sample], elapsed: Duration, a: &Args) {
    println!(
        "`relay serve`, {} writers + {} readers, {:.0} s, project `{}`\n",
        a.writers,
        a.readers,
        elapsed.as_secs_f64(),
        a.project
    );
    println!("| operation | requests | per second | p50 ms | p99 ms | max ms | errors |");
    println!("|---|---|---|---|---|---|---|");
    for (op, name) in OPS.iter().enumerate() {
        let mut took: Vec<Duration> = (samples.iter())
            .filter(|s| s.op == op && s.ok)
            .map(|s| s.took)
            .collect();
        took.sort();
        let errors = samples.iter().filter(|s| s.op == op && !s.ok).count();
        println!(
            "| {name} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {errors} |",
            took.len(),
            took.len() as f64 / elapsed.as_secs_f64(),
            percentile(&took, 0.5),
            percentile(&took, 0.99),
            took.last().map_or(f64::NAN, |d| ms(*d)),
        );
    }
    // Per window: requests per second (p99 ms) of each operation.
    let mut windows: BTreeMap<u64, Vec<Vec<Duration>>> = BTreeMap::new();
    for s in samples.iter().filter(|s| s.ok) {
        let w = s.start.as_secs() / WINDOW.as_secs();
        windows
            .entry(w)
            .or_insert_with(|| vec![Vec::new(); OPS.len()])[s.op]
            .push(s.took);
    }
    println!(
        "\nper {} s window: requests per second (p99 ms)\n",
        WINDOW.as_secs()
    );
    println!("| window | {} |", OPS.join(" | "));
    println!("|---|{}", "---|".repeat(OPS.len()));
    for (w, mut ops) in windows {
        let from = w * WINDOW.as_secs();
        let cells: Vec<String> = (ops.iter_mut())
            .map(|took| {
                took.sort();
                let span = (elapsed.as_secs_f64() - from as f64).min(WINDOW.as_secs_f64());
                format!(
                    "{:.0} ({:.1})",
                    took.len() as f64 / span,
                    percentile(took, 0.99)
                )
            })
            .collect();
        println!(
            "| {from}–{} s | {} |",
            from + WINDOW.as_secs(),
            cells.join(" | ")
        );
    }
    // The searches above the p99, by word: which queries set the tail.
    let mut searches: Vec<&Sample> = samples.iter().filter(|s| s.ok && s.op == 2).collect();
    searches.sort_by_key(|s| std::cmp::Reverse(s.took));
    let tail = &searches[..searches.len() / 100];
    let mut by_word: BTreeMap<&str, (usize, Duration)> = BTreeMap::new();
    for s in tail {
        let word = s.asked.rsplit("query=").next().unwrap_or_default();
        let e = by_word.entry(word).or_default();
        (e.0, e.1) = (e.0 + 1, e.1.max(s.took));
    }
    let mut words: Vec<_> = by_word.into_iter().collect();
    words.sort_by_key(|(_, (n, _))| std::cmp::Reverse(*n));
    let words: Vec<String> = (words.iter())
        .map(|(w, (n, max))| format!("{w} ×{n} (max {:.0} ms)", ms(*max)))
        .collect();
    println!(
        "\nthe slowest 1% of searches ({}), by word: {}",
        tail.len(),
        words.join(", ")
    );
}

pub fn main() {
    let a = args();
    let started = SystemTime::now();
    let (mut server, url) = serve(&a.bin, &a.dir);
    let threads = a.writers + a.readers;
    let http = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(threads)
        .build()
        .unwrap();
    let targets = std::sync::Arc::new(targets(&http, &url, &a.dir, &a.project));
    eprintln!(
        "# {} writers + {} readers for {} s against {url}, project `{}`",
        a.writers, a.readers, a.seconds, a.project
    );
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(a.seconds);
    let workers: Vec<_> = (0..threads)
        .map(|c| {
            let (http, base, project) = (http.clone(), url.clone(), a.project.clone());
            let targets = targets.clone();
            let writer = c < a.writers;
            std::thread::spawn(move || {
                let (mut samples, mut acked) = (Vec::new(), Vec::new());
                let mut n = 0;
                while Instant::now() < end {
                    let t = Instant::now();
                    let mut asked = String::new();
                    let (op, ok) = if writer {
                        let id = new_id(c, n);
                        let body = whole_package(&id, format!("load {c}/{n}"), &project);
                        let sent = (http.post(format!("{base}/v1/projects/{project}/packages")))
                            .json(&body)
                            .send();
                        let ok = sent.is_ok_and(|r| r.status().as_u16() == 201);
                        if ok {
                            acked.push(id);
                        }
                        (0, ok)
                    } else {
                        let (op, path) = read_path(&targets, &project, c, n);
                        let sent = http.get(format!("{base}{path}")).send();
                        // Read the whole body: the answer is part of the request's time.
                        let ok = sent.is_ok_and(|r| r.status().is_success() && r.bytes().is_ok());
                        asked = path;
                        (op, ok)
                    };
                    let took = t.elapsed();
                    samples.push(Sample {
                        op,
                        start: t - start,
                        took,
                        ok,
                        asked,
                    });
                    n += 1;
                }
                (samples, acked)
            })
        })
        .collect();
    let (mut samples, mut acked) = (Vec::new(), Vec::new());
    for w in workers {
        let (s, ids) = w.join().unwrap();
        samples.extend(s);
        acked.extend(ids);
    }
    let elapsed = start.elapsed();

    // SIGTERM: in-flight writes finish.
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let status = server.wait().unwrap();
    let stored = ids_written_since(&a.dir, &a.project, started);
    let missing = acked.iter().filter(|id| !stored.contains(*id)).count();
    let verify = relay(&a.bin, &a.dir)
        .args(["verify", "-q"])
        .status()
        .unwrap();
    tables(&samples, elapsed, &a);
    println!(
        "\nafter: {} acknowledged deposits, {missing} missing from the logs, no torn line; \
         verify exit {}; server exit {}",
        acked.len(),
        verify.code().unwrap_or(-1),
        status.code().unwrap_or(-1)
    );
    let errors = samples.iter().filter(|s| !s.ok).count();
    if missing > 0 || !verify.success() || errors > 0 {
        std::process::exit(1);
    }
}
