//! The crowd run of `docs/BENCHMARKS.md` ("relay serve with 2,000 open streams", issue 58):
//! `relay serve` on a fresh store holds STREAMS open event streams
//! (`/v1/projects/demo/events`) while WRITERS clients deposit over HTTP as fast as they are
//! answered, for SECONDS. It prints the deposits' p50/p99 (and refusals), the event latency
//! p50/p99 over every stream (from a package's `created_at`, stamped just before its append,
//! to its event read by the client), how many events each stream got, and the server's
//! threads at the end. A bounded client: it stops by itself.
//!
//!   cargo build --release --bin relay --example streams
//!   target/release/examples/streams target/release/relay [--streams 2000] [--writers 16] [--seconds 20]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn arg(args: &[String], name: &str, default: usize) -> usize {
    (args.iter().position(|a| a == name))
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a number"))
}

fn ms(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Milliseconds since the epoch of an RFC 3339 time (`2026-11-29T14:00:00.123Z`).
fn epoch_ms(text: &str) -> Option<f64> {
    let t = chrono::DateTime::parse_from_rfc3339(text).ok()?;
    Some(t.timestamp_micros() as f64 / 1000.0)
}

fn now_ms() -> f64 {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    d.as_micros() as f64 / 1000.0
}

/// Opens a stream: the socket once its answer's head is read, or the status it refused with.
fn open(at: SocketAddr) -> Result<BufReader<TcpStream>, String> {
    let mut s = TcpStream::connect(at).map_err(|e| e.to_string())?;
    let req = format!(
        "GET /v1/projects/demo/events HTTP/1.1\r\nHost: {at}\r\nAccept: text/event-stream\r\n\r\n"
    );
    s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    let mut r = BufReader::new(s);
    let mut status = String::new();
    r.read_line(&mut status).map_err(|e| e.to_string())?;
    if !status.starts_with("HTTP/1.1 200") {
        return Err(status.trim().to_string());
    }
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).map_err(|e| e.to_string())? == 0 || line == "\r\n" {
            return Ok(r);
        }
    }
}

/// One deposit over a kept-alive connection: its status.
fn deposit(s: &mut BufReader<TcpStream>, at: SocketAddr, body: &str) -> std::io::Result<u16> {
    let req = format!(
        "POST /v1/projects/demo/packages HTTP/1.1\r\nHost: {at}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.get_mut().write_all(req.as_bytes())?;
    let mut status = String::new();
    s.read_line(&mut status)?;
    let mut length = 0;
    loop {
        let mut line = String::new();
        s.read_line(&mut line)?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(n) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = n.trim().parse().unwrap_or(0);
        }
    }
    let mut rest = vec![0; length];
    s.read_exact(&mut rest)?;
    Ok(status.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0))
}

fn threads_of(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, |d| d.count())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bin = PathBuf::from(args.get(1).expect("give the relay binary"));
    let streams = arg(&args, "--streams", 2000);
    let writers = arg(&args, "--writers", 16);
    let seconds = arg(&args, "--seconds", 20);
    let dir = std::env::temp_dir().join(format!("relay-streams-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let relay = |a: &[&str]| {
        let mut c = Command::new(&bin);
        c.current_dir(&dir)
            .args(a)
            .env("RELAY_ACTOR", "bench")
            .env("NO_COLOR", "1");
        c
    };
    assert!(
        relay(&["init", "--project", "demo", "-q"])
            .status()
            .unwrap()
            .success()
    );
    let cap = (streams + 100).to_string();
    let mut server = relay(&["serve", "--listen", "127.0.0.1:0", "--max-streams", &cap])
        .args(["--max-streams-per-caller", &cap])
        .stdout(Stdio::piped())
        .spawn()
        .expect("relay serve starts");
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap();
    let at: SocketAddr = url.trim_start_matches("http://").parse().unwrap();
    let threads_idle = threads_of(server.id());

    // The streams: a thread each on the client's side, reading lines.
    let latencies = Arc::new(Mutex::new(Vec::<f64>::new()));
    let received = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let mut readers = Vec::new();
    let opening = Instant::now();
    for i in 0..streams {
        let mut s = open(at).unwrap_or_else(|e| panic!("stream {i} refused: {e}"));
        let (latencies, received, done) = (latencies.clone(), received.clone(), done.clone());
        let t = std::thread::Builder::new()
            .stack_size(64 << 10)
            .spawn(move || {
                let mut mine = Vec::new();
                let mut line = String::new();
                s.get_mut()
                    .set_read_timeout(Some(Duration::from_millis(500)))
                    .unwrap();
                loop {
                    line.clear();
                    match s.read_line(&mut line) {
                        Ok(0) => break,
                        Ok(_) => {}
                        Err(_) if done.load(Ordering::Relaxed) => break,
                        Err(_) => continue,
                    }
                    let Some(at) = line.find("\"created_at\":\"") else {
                        continue;
                    };
                    let rest = &line[at + 14..];
                    if let Some(t) = rest.split('"').next().and_then(epoch_ms) {
                        mine.push(now_ms() - t);
                        received.fetch_add(1, Ordering::Relaxed);
                    }
                }
                latencies.lock().unwrap().extend(mine);
            });
        readers.push(t.expect("a reader thread"));
    }
    let opened = opening.elapsed();
    let threads_open = threads_of(server.id());

    // The writers.
    let end = Instant::now() + Duration::from_secs(seconds as u64);
    let deposits = Arc::new(Mutex::new((Vec::<f64>::new(), 0usize)));
    let writer_threads: Vec<_> = (0..writers)
        .map(|w| {
            let deposits = deposits.clone();
            std::thread::spawn(move || {
                let mut s = BufReader::new(TcpStream::connect(at).unwrap());
                let (mut took, mut refused) = (Vec::new(), 0);
                let mut n = 0;
                while Instant::now() < end {
                    // A whole wire package (§6.1): relay serve fills nothing in.
                    let body = serde_json::json!({
                        "package_id": format!("pkg_{:016x}{:016x}", w, n),
                        "project_id": "demo", "relay_version": "0.1",
                        "title": format!("writer {w} deposit {n}"), "status": "complete",
                        "package_type": "standard", "review_type": "none",
                        "created_at": relay_wire::time::format(relay_wire::time::now()),
                        "created_by": {"id": "writer", "type": "script"}})
                    .to_string();
                    let t = Instant::now();
                    match deposit(&mut s, at, &body) {
                        Ok(201) => took.push(t.elapsed().as_secs_f64() * 1000.0),
                        Ok(_) => refused += 1,
                        Err(_) => {
                            refused += 1;
                            s = BufReader::new(TcpStream::connect(at).unwrap());
                        }
                    }
                    n += 1;
                }
                let mut d = deposits.lock().unwrap();
                d.0.extend(took);
                d.1 += refused;
            })
        })
        .collect();
    for t in writer_threads {
        t.join().unwrap();
    }
    let threads_busy = threads_of(server.id());
    let (mut took, refused) = std::mem::take(&mut *deposits.lock().unwrap());
    // Let the streams catch up, then stop reading.
    let expected = took.len() * streams;
    let settle = Instant::now();
    while received.load(Ordering::Relaxed) < expected && settle.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    let caught_up = settle.elapsed();
    done.store(true, Ordering::Relaxed);
    let _ = server.kill();
    let _ = server.wait();
    for t in readers {
        let _ = t.join();
    }
    let mut lat = std::mem::take(&mut *latencies.lock().unwrap());
    took.sort_by(f64::total_cmp);
    lat.sort_by(f64::total_cmp);
    println!(
        "| streams | {streams} (opened in {:.1} s) |",
        opened.as_secs_f64()
    );
    println!("| writers, seconds | {writers}, {seconds} |");
    println!(
        "| deposits | {} acknowledged ({:.0}/s), {refused} refused |",
        took.len(),
        took.len() as f64 / seconds as f64
    );
    println!(
        "| deposit p50 / p99 | {:.1} ms / {:.1} ms |",
        ms(&took, 0.5),
        ms(&took, 0.99)
    );
    println!(
        "| events delivered | {} of {expected} ({:.1} s after the last deposit) |",
        lat.len(),
        caught_up.as_secs_f64()
    );
    println!(
        "| event latency p50 / p99 | {:.0} ms / {:.0} ms |",
        ms(&lat, 0.5),
        ms(&lat, 0.99)
    );
    println!(
        "| server threads: idle, streams open, after the writers | {threads_idle}, {threads_open}, {threads_busy} |"
    );
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}
