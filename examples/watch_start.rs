//! How long `relay watch` takes from its start to printing the first record appended after
//! it, on a given store, for one or more relay binaries side by side (issue 41: ≤ 200 ms at
//! a million packages). No flag of relay's own marks "ready": the watch starts with its
//! output to a pipe, and a deposit is made every `--every` milliseconds (through the first
//! binary) until the watch prints one. A deposit that lands before the watch has its start
//! position is, rightly, never printed, so the time to the first line is the start-up plus at
//! most one interval, one deposit and the wake-up.
//!
//! ```text
//! cargo run --release --example watch_start -- STORE RELAY [RELAY…] \
//!     [--project ID] [--runs N] [--every MS]
//! ```
//!
//! STORE is the folder holding `.relay/`, and it is written to (one deposit per run, more
//! while a watch starts): use a copy. Each binary gets one run first that is not counted
//! (it may build what it keeps under `cache/`), then the runs alternate between binaries.
//! One line per binary: the median, least and most milliseconds to the first event, the
//! median milliseconds from the start to the start of the deposit it printed, and the
//! watch's peak RSS (VmHWM) in MB.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

struct Options {
    store: PathBuf,
    binaries: Vec<PathBuf>,
    project: Option<String>,
    runs: usize,
    every: Duration,
}

fn options() -> Result<Options, String> {
    let usage = "usage: watch_start STORE RELAY [RELAY…] [--project ID] [--runs N] [--every MS]";
    let mut args = std::env::args().skip(1);
    let mut paths = Vec::new();
    let (mut project, mut runs, mut every) = (None, 5, 20);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(usage);
        match arg.as_str() {
            "--project" => project = Some(value()?),
            "--runs" => runs = value()?.parse().map_err(|_| usage)?,
            "--every" => every = value()?.parse().map_err(|_| usage)?,
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    if paths.len() < 2 || runs == 0 {
        return Err(usage.into());
    }
    let store = paths.remove(0);
    Ok(Options {
        store,
        binaries: paths,
        project,
        runs,
        every: Duration::from_millis(every),
    })
}

/// One watch start: milliseconds to its first line, milliseconds from its start to the start
/// of the deposit it printed, and its peak RSS in kB.
struct Run {
    first_line: f64,
    deposit_started: f64,
    peak_kb: u64,
}

fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmHWM:"));
    line.and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

fn project_args(o: &Options) -> Vec<&str> {
    match &o.project {
        Some(p) => vec!["--project", p],
        None => Vec::new(),
    }
}

fn run_once(o: &Options, binary: &Path, tag: &str) -> Result<Run, String> {
    let start = Instant::now();
    let mut watch = Command::new(binary)
        .args(["watch", "--json", "--kind", "package"])
        .args(project_args(o))
        .current_dir(&o.store)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let stdout = watch.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send((start.elapsed(), line));
    });
    let mut started = Vec::new();
    let got = loop {
        if let Ok(got) = rx.try_recv() {
            break got;
        }
        if started.len() > 3000 {
            let _ = watch.kill();
            return Err("no event after 3000 deposits".into());
        }
        let title = format!("watch start probe {tag} {}", started.len());
        started.push((title.clone(), start.elapsed()));
        let deposit = Command::new(&o.binaries[0])
            .args(["deposit", "-q", "--title", &title])
            .args(project_args(o))
            .current_dir(&o.store)
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("cannot deposit: {e}"))?;
        if !deposit.success() {
            let _ = watch.kill();
            return Err(format!("deposit failed: {deposit}"));
        }
        if let Ok(got) = rx.recv_timeout(o.every) {
            break got;
        }
    };
    let peak_kb = peak_kb(watch.id());
    let _ = watch.kill();
    let _ = watch.wait();
    let (elapsed, line) = got;
    let event: serde_json::Value =
        serde_json::from_str(&line).map_err(|e| format!("not an event: {e}: {line:?}"))?;
    let title = event["record"]["package"]["title"].as_str().unwrap_or("");
    let deposit_started = started
        .iter()
        .find(|(t, _)| t == title)
        .ok_or_else(|| format!("the first event is not a probe: {line}"))?
        .1;
    Ok(Run {
        first_line: elapsed.as_secs_f64() * 1000.0,
        deposit_started: deposit_started.as_secs_f64() * 1000.0,
        peak_kb,
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), String> {
    let o = options()?;
    let mut runs: Vec<Vec<Run>> = o.binaries.iter().map(|_| Vec::new()).collect();
    for (i, binary) in o.binaries.iter().enumerate() {
        run_once(&o, binary, &format!("warm-up {i}"))?;
    }
    for round in 0..o.runs {
        for (i, binary) in o.binaries.iter().enumerate() {
            runs[i].push(run_once(&o, binary, &format!("{round}.{i}"))?);
        }
    }
    println!(
        "binary\tfirst event ms (median, min, max)\tprinted deposit started at ms\tpeak RSS MB"
    );
    for (binary, runs) in o.binaries.iter().zip(runs) {
        let firsts: Vec<f64> = runs.iter().map(|r| r.first_line).collect();
        let (least, most) = firsts
            .iter()
            .fold((f64::MAX, 0f64), |(a, b), &x| (a.min(x), b.max(x)));
        let deposit = median(runs.iter().map(|r| r.deposit_started).collect());
        let peak = runs.iter().map(|r| r.peak_kb).max().unwrap_or(0);
        println!(
            "{}\t{:.1} ({least:.1}, {most:.1})\t{deposit:.1}\t{:.1}",
            binary.display(),
            median(firsts),
            peak as f64 / 1024.0
        );
    }
    Ok(())
}
