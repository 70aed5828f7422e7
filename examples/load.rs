//! The load run of `docs/BENCHMARKS.md` ("relay serve under load"): concurrent clients deposit
//! over HTTP for a while, then read; the same number of concurrent `relay deposit` processes
//! write for as long; then every acknowledged deposit is looked for in the logs and `relay
//! verify` must pass. Also the latency from a deposit's append (its `created_at`, stamped just
//! before) to its `relay watch` event, 200 deposits 10 ms apart.
//! A bounded client: it stops by itself. Run it through `scripts/bench-serve.sh`, or:
//!
//!   cargo build --release && cargo run --release --example load -- target/release/relay [CLIENTS] [SECONDS]
//!
//! With `--store DIR`, the mixed run of issue 41 instead ([`mixed`]): against an existing
//! store (a copy: it writes), writers deposit while readers pull the latest, search, pull by
//! id and list facts, all at once, for a set time; it prints p50/p99 per operation and the
//! rate per 10 s window, then checks every acknowledged deposit is in the logs and `relay
//! verify` passes:
//!
//!   cargo run --release --example load -- target/release/relay --store DIR [--project P]
//!       [--writers 16] [--readers 4] [--seconds 60]

#[path = "load/mixed.rs"]
mod mixed;

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Stats {
    latencies: Vec<Duration>,
    errors: usize,
    acked: Vec<String>,
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

fn summary(name: &str, mut s: Stats, elapsed: Duration) -> String {
    s.latencies.sort();
    let n = s.latencies.len();
    format!(
        "| {name} | {n} | {:.0} | {:.2} | {:.2} | {} |",
        n as f64 / elapsed.as_secs_f64(),
        percentile(&s.latencies, 0.5),
        percentile(&s.latencies, 0.99),
        s.errors
    )
}

fn relay(bin: &Path, dir: &Path) -> Command {
    let mut c = Command::new(bin);
    c.current_dir(dir)
        .env("RELAY_ACTOR", "load")
        .env("RELAY_ACTOR_TYPE", "script")
        .env("NO_COLOR", "1")
        .env_remove("RELAY_SESSION")
        .env_remove("RELAY_PROJECT")
        .env_remove("RELAY_DIR");
    c
}

/// A whole wire package of the project `load` (§6.1): `relay serve` fills nothing in.
fn whole_package(id: &str, title: String, project: &str) -> Value {
    json!({"package_id": id, "project_id": project, "relay_version": "0.1", "title": title,
        "status": "complete", "package_type": "standard", "review_type": "none",
        "created_at": relay_wire::time::format(relay_wire::time::now()),
        "created_by": {"id": "load", "type": "script"},
        "decisions_made": ["keep going"], "handoff_note": "next"})
}

fn new_id(client: usize, n: usize) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "pkg_{:016x}{:08x}{:08x}",
        nanos as u64, client as u32, n as u32
    )
}

/// Runs `work(client, n)` on `clients` threads until `seconds` pass; each call returns its
/// latency, whether it succeeded, and an acknowledged id.
fn hammer<F>(clients: usize, seconds: f64, work: F) -> (Stats, Duration)
where
    F: Fn(usize, usize) -> (bool, Option<String>) + Send + Sync + 'static,
{
    let work = Arc::new(work);
    let all = Arc::new(Mutex::new(Stats {
        latencies: Vec::new(),
        errors: 0,
        acked: Vec::new(),
    }));
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(seconds);
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let (work, all) = (work.clone(), all.clone());
            std::thread::spawn(move || {
                let mut mine = Stats {
                    latencies: Vec::new(),
                    errors: 0,
                    acked: Vec::new(),
                };
                let mut n = 0;
                while Instant::now() < end {
                    let t = Instant::now();
                    let (ok, id) = work(c, n);
                    if ok {
                        mine.latencies.push(t.elapsed());
                    } else {
                        mine.errors += 1;
                    }
                    mine.acked.extend(id);
                    n += 1;
                }
                let mut all = all.lock().unwrap();
                all.latencies.extend(mine.latencies);
                all.errors += mine.errors;
                all.acked.extend(mine.acked);
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let elapsed = start.elapsed();
    let stats = Arc::try_unwrap(all).ok().unwrap().into_inner().unwrap();
    (stats, elapsed)
}

/// `relay serve` on a free loopback port, and its URL.
fn serve(bin: &Path, dir: &Path) -> (Child, String) {
    let mut child = relay(bin, dir)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("relay serve starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {first:?}"))
        .to_string();
    (child, url)
}

/// The package ids in the project's logs.
fn stored_ids(store: &Path) -> HashSet<String> {
    let mut ids = HashSet::new();
    let files = walkdir::WalkDir::new(store.join("projects"))
        .into_iter()
        .flatten();
    for entry in files.map(|e| e.into_path()) {
        if entry.extension().is_some_and(|e| e == "ndjson")
            && entry.parent().is_some_and(|p| p.ends_with("packages"))
        {
            let text = std::fs::read_to_string(&entry).unwrap();
            assert!(
                text.is_empty() || text.ends_with('\n'),
                "a torn line in {}",
                entry.display()
            );
            for line in text.lines() {
                let v: Value = serde_json::from_str(line).expect("every line is whole JSON");
                if let Some(id) = v["package"]["package_id"].as_str() {
                    ids.insert(id.to_string());
                }
            }
        }
    }
    ids
}

fn main() {
    if std::env::args().any(|a| a == "--store") {
        return mixed::main();
    }
    let mut args = std::env::args().skip(1);
    let bin = PathBuf::from(
        args.next()
            .expect("usage: load RELAY_BINARY [CLIENTS] [SECONDS]"),
    );
    let bin = std::fs::canonicalize(&bin).expect("the relay binary exists");
    let clients: usize = args.next().map_or(16, |s| s.parse().expect("CLIENTS"));
    let seconds: f64 = args.next().map_or(30.0, |s| s.parse().expect("SECONDS"));
    let tmp = std::env::temp_dir().join(format!("relay-load-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let ok = relay(&bin, &tmp)
        .args(["init", "--project", "load", "-q"])
        .status()
        .unwrap();
    assert!(ok.success());
    relay(&bin, &tmp)
        .args(["projects", "create", "cli", "-q"])
        .status()
        .unwrap();
    let (mut server, url) = serve(&bin, &tmp);
    eprintln!("# {clients} clients, {seconds} s each phase, against {url}");

    let http = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(clients)
        .build()
        .unwrap();

    // 1. Deposits over HTTP.
    let (client, base) = (http.clone(), url.clone());
    let (writes, write_time) = hammer(clients, seconds, move |c, n| {
        let id = new_id(c, n);
        let body = whole_package(&id, format!("load {c}/{n}"), "load");
        match client
            .post(format!("{base}/v1/projects/load/packages"))
            .json(&body)
            .send()
        {
            Ok(r) if r.status().as_u16() == 201 => (true, Some(id)),
            _ => (false, None),
        }
    });
    let acked = writes.acked.clone();

    // 2. Reads: the latest five, and one package by id, in turn.
    let (client, base, ids) = (http.clone(), url.clone(), Arc::new(acked.clone()));
    let (reads, read_time) = hammer(clients, seconds, move |c, n| {
        let path = if n % 2 == 0 {
            "/v1/projects/load/packages?mode=latest&limit=5".to_string()
        } else {
            format!("/v1/packages/{}", ids[(c * 7919 + n) % ids.len()])
        };
        match client.get(format!("{base}{path}")).send() {
            Ok(r) if r.status().is_success() => (true, None),
            _ => (false, None),
        }
    });

    // 3. The same number of concurrent CLI processes, depositing for as long.
    let (b, dir) = (bin.clone(), tmp.clone());
    let (cli, cli_time) = hammer(clients, seconds, move |c, n| {
        let id = new_id(c, n);
        let out = relay(&b, &dir)
            .args([
                "deposit",
                "--project",
                "cli",
                "--id",
                &id,
                "--title",
                &format!("cli {c}/{n}"),
                "-q",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        match out {
            Ok(s) if s.success() => (true, Some(id)),
            _ => (false, None),
        }
    });
    let cli_acked = cli.acked.clone();

    // 4. Append to event: a running watch, and deposits one at a time over HTTP.
    let cursor = String::from_utf8(
        relay(&bin, &tmp)
            .args(["watch", "--cursor"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let mut watch = relay(&bin, &tmp)
        .args(["watch", "--json", "--since", cursor.trim()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = channel();
    let out = BufReader::new(watch.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            let now = chrono::Utc::now();
            let v: Value = serde_json::from_str(&line).unwrap();
            let package = &v["record"]["package"];
            let id = package["package_id"].as_str().unwrap_or("").to_string();
            // created_at is stamped just before the line is appended.
            let created = package["created_at"].as_str().unwrap_or("");
            let Ok(created) = chrono::DateTime::parse_from_rfc3339(created) else {
                continue;
            };
            let lag = (now - created.with_timezone(&chrono::Utc)).to_std();
            if tx.send((id, lag.unwrap_or_default())).is_err() {
                break;
            }
        }
    });
    let mut acks = HashSet::new();
    for n in 0..200 {
        let id = new_id(99, n);
        let body = whole_package(&id, format!("watched {n}"), "load");
        let r = http
            .post(format!("{url}/v1/projects/load/packages"))
            .json(&body)
            .send()
            .unwrap();
        assert_eq!(r.status().as_u16(), 201);
        acks.insert(id);
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut lags = Vec::new();
    while lags.len() < acks.len() {
        let (id, lag) = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("every deposit reaches the watch");
        if acks.contains(&id) {
            lags.push(lag);
        }
    }
    let _ = watch.kill();
    let _ = watch.wait();
    lags.sort();

    // 5. Stop the server (SIGTERM: in-flight writes finish), then check the store.
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let status = server.wait().unwrap();
    let stored = stored_ids(&tmp.join(".relay"));
    let missing = acked
        .iter()
        .chain(&cli_acked)
        .filter(|id| !stored.contains(*id))
        .count();
    let verify = relay(&bin, &tmp).args(["verify", "-q"]).status().unwrap();

    println!("| phase | requests | per second | p50 ms | p99 ms | errors |");
    println!("|---|---|---|---|---|---|");
    println!(
        "{}",
        summary(
            &format!("HTTP deposit, {clients} clients"),
            writes,
            write_time
        )
    );
    println!(
        "{}",
        summary(
            &format!("HTTP read (latest / by id), {clients} clients"),
            reads,
            read_time
        )
    );
    println!(
        "{}",
        summary(
            &format!("CLI `relay deposit`, {clients} processes"),
            cli,
            cli_time
        )
    );
    println!();
    println!(
        "watch: append (the package's created_at) to event, {} deposits: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        lags.len(),
        percentile(&lags, 0.5),
        percentile(&lags, 0.99),
        lags.last().map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    );
    println!(
        "after: {} acknowledged deposits ({} HTTP, {} CLI), {missing} missing from the logs, no torn line; verify exit {}; server exit {}",
        acked.len() + cli_acked.len(),
        acked.len(),
        cli_acked.len(),
        verify.code().unwrap_or(-1),
        status.code().unwrap_or(-1)
    );
    let _ = std::fs::remove_dir_all(&tmp);
    if missing > 0 || !verify.success() {
        std::process::exit(1);
    }
}
