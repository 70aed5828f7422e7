//! A small server of the Agentic Protocol's HTTP mapping (§9.1, with relay's fact-read and
//! review routes) that the suite is run against, with one switch per breakage the suite must
//! catch. It keeps one project (`stub`) in memory, answers each connection's one request on a
//! thread (`Connection: close`), and declares L3 with every capability false: relevant pull
//! and the event stream answer 501 naming what is missing (§10.2). It is a test double, not
//! an implementation: just enough for every scenario to pass when nothing is broken.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use reqwest::Url;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use relay_wire::{Package, canonical, ids, time};

/// The project the stub holds.
pub const PROJECT: &str = "stub";

/// What the stub gets wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Break {
    /// Nothing: every scenario passes.
    Nothing,
    /// Hashes keys sorted and nothing else canonical (`json.dumps(sort_keys=True)`): L1.
    SortKeysHasher,
    /// No fact reads (`GET /v1/projects/{p}/facts` answers 404): L2.
    NoFactReads,
    /// Review transitions answer 200 with the package unchanged: L3.
    NoReviewTransitions,
}

#[derive(Default)]
struct State {
    /// Packages by id, and their hashes.
    packages: BTreeMap<String, (Value, String)>,
    facts: Vec<Value>,
}

/// A running stub; it stops accepting when dropped.
pub struct Stub {
    pub url: String,
    stop: Arc<Mutex<bool>>,
}

impl Drop for Stub {
    fn drop(&mut self) {
        *self.stop.lock().unwrap() = true;
        let _ = TcpStream::connect(self.url.trim_start_matches("http://"));
    }
}

impl Stub {
    pub fn start(broken: Break) -> Stub {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let stop = Arc::new(Mutex::new(false));
        let stopped = stop.clone();
        let state = Arc::new(Mutex::new(State::default()));
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                if *stopped.lock().unwrap() {
                    break;
                }
                let state = state.clone();
                std::thread::spawn(move || serve(stream, &state, broken));
            }
        });
        Stub { url, stop }
    }
}

/// One request: method, URL, body.
struct Request {
    method: String,
    url: Url,
    body: Value,
}

impl Request {
    fn query(&self, name: &str) -> Option<String> {
        (self.url.query_pairs())
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    }
}

fn serve(stream: TcpStream, state: &Mutex<State>, broken: Break) {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or("/").to_string();
    let mut length = 0;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let request = Request {
        method,
        url: Url::parse(&format!("http://stub{target}")).unwrap(),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    let (status, reply) = route(&request, &mut state.lock().unwrap(), broken);
    let text = reply.to_string();
    let head = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        text.len()
    );
    let mut stream = reader.into_inner();
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(text.as_bytes());
}

fn error(status: u16, code: &str) -> (u16, Value) {
    (status, json!({"error": code, "message": code}))
}

fn route(r: &Request, state: &mut State, broken: Break) -> (u16, Value) {
    let path: Vec<&str> = r
        .url
        .path_segments()
        .map(Iterator::collect)
        .unwrap_or_default();
    match (r.method.as_str(), path.as_slice()) {
        ("GET", ["v1", "conformance"]) => (
            200,
            json!({"protocol_version": "0.1", "conformance_level": "L3",
                "capabilities": {"hybrid_search": false, "semantic_search": false,
                    "realtime": false, "blob_storage": false},
                "implementation": {"name": "relay-conformance stub", "version": "0"}}),
        ),
        (_, ["v1", "projects", p, ..]) if *p != PROJECT => error(404, "project_not_found"),
        ("GET", ["v1", "projects", _, "packages"]) => match r.query("mode").as_deref() {
            Some("relevant") => (
                501,
                json!({"error": "search_not_supported", "capability": "hybrid_search",
                    "message": "no search: semantic_search and hybrid_search are false"}),
            ),
            _ => {
                let limit = r.query("limit").and_then(|l| l.parse().ok()).unwrap_or(5);
                (200, json!({"packages": latest(state, limit)}))
            }
        },
        ("POST", ["v1", "projects", _, "packages"]) => deposit(state, &r.body, broken),
        ("GET", ["v1", "packages", id]) => match state.packages.get(*id) {
            Some((p, h)) => (200, json!({"package": p, "hash": h})),
            None => error(404, "package_not_found"),
        },
        ("GET", ["v1", "projects", _, "orient"]) => {
            let window: u64 = r
                .query("window_days")
                .and_then(|w| w.parse().ok())
                .unwrap_or(14);
            let recent = latest(state, 20);
            (
                200,
                json!({"project": {"project_id": PROJECT, "name": "stub"},
                    "recent_packages": recent, "active_facts": current(state),
                    "open_questions": questions(&recent), "window_days": window,
                    "generated_at": time::format(time::now())}),
            )
        }
        ("GET", ["v1", "orchestrate"]) => {
            let recent = latest(state, 20);
            let mut digest = json!({"summary": {"packages": recent.len()},
                "active_facts": current(state), "open_questions": questions(&recent),
                "snippets": []});
            if r.query("project").is_none() {
                digest["projects"] = json!([{"project_id": PROJECT, "packages": recent.len()}]);
            }
            (200, digest)
        }
        ("GET", ["v1", "projects", _, "events"]) => (
            501,
            json!({"error": "not_implemented", "capability": "realtime"}),
        ),
        ("GET", ["v1", "projects", _, "facts"]) if broken == Break::NoFactReads => {
            error(404, "not_found")
        }
        ("GET", ["v1", "projects", _, "facts"]) => {
            let key = |f: &&Value| {
                Some(f["subject"].as_str().unwrap_or_default()) == r.query("subject").as_deref()
                    && Some(f["predicate"].as_str().unwrap_or_default())
                        == r.query("predicate").as_deref()
            };
            let at = r.query("at").and_then(|t| time::parse(&t).ok());
            let facts: Vec<&Value> = match at {
                None => state
                    .facts
                    .iter()
                    .filter(|f| f["valid_to"].is_null())
                    .collect(),
                Some(t) => (state.facts.iter())
                    .filter(|f| {
                        let from = time::parse(f["valid_from"].as_str().unwrap()).unwrap();
                        let to = f["valid_to"].as_str().map(|s| time::parse(s).unwrap());
                        from <= t && to.is_none_or(|to| t < to)
                    })
                    .collect(),
            };
            (
                200,
                json!({"facts": facts.into_iter().filter(key).collect::<Vec<_>>()}),
            )
        }
        ("POST", ["v1", "projects", _, "facts"]) => assert(state, &r.body),
        ("DELETE", ["v1", "projects", _, "facts"]) => {
            let now = time::format(time::now());
            let mut n = 0;
            for f in &mut state.facts {
                if f["valid_to"].is_null()
                    && f["subject"].as_str() == r.query("subject").as_deref()
                    && f["predicate"].as_str() == r.query("predicate").as_deref()
                {
                    f["valid_to"] = json!(now);
                    n += 1;
                }
            }
            (200, json!({"invalidated": n}))
        }
        ("GET", ["v1", "projects", _, "reviews"]) => {
            let waiting: Vec<&Value> = (state.packages.values())
                .map(|(p, _)| p)
                .filter(|p| p["status"] == "awaiting_review")
                .collect();
            (200, json!({"packages": waiting}))
        }
        ("POST", ["v1", "packages", id, action]) => review(state, id, action, &r.body, broken),
        _ => error(404, "not_found"),
    }
}

/// The newest packages first.
fn latest(state: &State, limit: usize) -> Vec<Value> {
    let mut all: Vec<&Value> = state.packages.values().map(|(p, _)| p).collect();
    all.sort_by_key(|p| std::cmp::Reverse(time::parse(p["created_at"].as_str().unwrap()).unwrap()));
    all.into_iter().take(limit).cloned().collect()
}

fn current(state: &State) -> Vec<Value> {
    (state.facts.iter())
        .filter(|f| f["valid_to"].is_null())
        .cloned()
        .collect()
}

fn questions(packages: &[Value]) -> Vec<Value> {
    (packages.iter())
        .filter_map(|p| p["open_questions"].as_array())
        .flatten()
        .cloned()
        .collect()
}

fn deposit(state: &mut State, body: &Value, broken: Break) -> (u16, Value) {
    if Package::from_value(body.clone()).is_err() || body["project_id"] != PROJECT {
        return error(400, "invalid_schema");
    }
    let hash = match broken {
        Break::SortKeysHasher => sort_keys_hash(body),
        _ => canonical::content_hash(body),
    };
    let id = body["package_id"].as_str().unwrap().to_string();
    match state.packages.get(&id) {
        Some((p, h)) if *h == hash => (200, json!({"package": p, "hash": h})),
        Some(_) => error(409, "duplicate_package_id"),
        None => {
            state.packages.insert(id, (body.clone(), hash.clone()));
            (201, json!({"package": body, "hash": hash}))
        }
    }
}

/// The hash of a hasher that only sorts keys: nulls kept, numbers as serde_json writes them.
fn sort_keys_hash(v: &Value) -> String {
    fn write(v: &Value, out: &mut String) {
        match v {
            Value::Object(m) => {
                let mut members: Vec<_> = m.iter().collect();
                members.sort_by(|a, b| a.0.cmp(b.0));
                out.push('{');
                for (i, (k, v)) in members.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::from(k.as_str()).to_string());
                    out.push(':');
                    write(v, out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(v, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut text = String::new();
    write(v, &mut text);
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn assert(state: &mut State, body: &Value) -> (u16, Value) {
    let now = time::format(time::now());
    let from = body["valid_from"].as_str().unwrap_or(&now).to_string();
    for f in &mut state.facts {
        if f["valid_to"].is_null()
            && f["subject"] == body["subject"]
            && f["predicate"] == body["predicate"]
        {
            f["valid_to"] = json!(from);
        }
    }
    let fact = json!({"fact_id": ids::new_id("fact"), "project_id": PROJECT,
        "subject": body["subject"], "predicate": body["predicate"], "value": body["value"],
        "valid_from": from, "valid_to": null, "created_at": now});
    state.facts.push(fact.clone());
    (201, json!({"fact": fact}))
}

fn review(state: &mut State, id: &str, action: &str, body: &Value, broken: Break) -> (u16, Value) {
    let Some((p, h)) = state.packages.get_mut(id) else {
        return error(404, "package_not_found");
    };
    let status = p["status"].as_str().unwrap_or_default().to_string();
    let to = match (action, status.as_str()) {
        ("flag", "draft" | "revision_requested") => "awaiting_review",
        ("approve", "awaiting_review") => "complete",
        ("request-changes", "awaiting_review") => "revision_requested",
        ("flag" | "approve" | "request-changes", _)
            if broken == Break::NoReviewTransitions && action != "flag" =>
        {
            return (200, json!({"package": p}));
        }
        ("flag" | "approve" | "request-changes", _) => return error(400, "invalid_transition"),
        _ => return error(404, "not_found"),
    };
    if broken == Break::NoReviewTransitions && action != "flag" {
        return (200, json!({"package": p}));
    }
    p["status"] = json!(to);
    if action == "flag" {
        p["review_type"] = body["review_type"].clone();
    }
    *h = canonical::content_hash(p);
    (200, json!({"package": p}))
}
