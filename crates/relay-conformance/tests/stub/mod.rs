//! A small server of the Agentic Protocol's HTTP mapping (§9.1, with relay's fact-read and
//! review routes) that the suite is run against, with one switch per breakage the suite must
//! catch. It keeps one project (`stub`) in memory, answers each connection's one request on a
//! thread (`Connection: close`), and declares L3 with keyword search only (relay's
//! `x-keyword_search`; the four flags of §10.2 false): semantic or hybrid search and the
//! event stream answer 501 naming what is missing (§10.2). It is a test double, not an
//! implementation: just enough for every scenario to pass when nothing is broken. Packages
//! and search are `packages.rs`; facts and reviews `writes.rs`.

mod packages;
mod writes;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use reqwest::Url;
use serde_json::{Value, json};

use relay_wire::time;

/// The project the stub holds.
pub const PROJECT: &str = "stub";

/// What the stub gets wrong: one switch per bug the suite must catch, and the level each
/// leaves (tests/levels.rs). `AgentToken` is no bug but a server's choice the suite must
/// live with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Break {
    /// Nothing: every scenario passes.
    Nothing,
    /// Not a bug: the token writes as the stub's own agent (a package naming another actor
    /// is 403 `unauthorized` with relay's `actor` member), and reviews only packages flagged
    /// for an agent (403 `unauthorized` for one flagged `human`), as relay serve does with a
    /// token. Passes L3.
    AgentToken,
    /// Hashes keys sorted and nothing else canonical (`json.dumps(sort_keys=True)`): L0.
    SortKeysHasher,
    /// No fact reads (`GET /v1/projects/{p}/facts` answers 404): L1.
    NoFactReads,
    /// Review transitions answer 200 with the package unchanged: L2.
    NoReviewTransitions,
    /// Stores a package_type outside §6.3 and not `x-*`: L0.
    AcceptsUnknownPackageType,
    /// Refuses a package_type in the `x-*` namespace (§12.2): L0.
    RefusesExtensionType,
    /// Stores a created_by.type outside human, agent, script: L0.
    AcceptsBadActorType,
    /// Stores a significance outside 1–10: L0.
    AcceptsSignificanceOutOfRange,
    /// Stores a package whose project_id is not its path's: L0.
    IgnoresPathProject,
    /// Fills in a missing status instead of refusing the package: L0.
    FillsMissingStatus,
    /// Relevant pull lists its matches newest first, not by relevance: none.
    UnorderedRelevance,
    /// Declares semantic search but searches words only: a query by meaning finds nothing.
    ClaimsSemanticReturnsNothing,
    /// orient lists the newest packages whatever `window_days` says: none.
    OrientIgnoresWindow,
    /// orient's active facts include ended ones: L1.
    OrientListsEndedFacts,
    /// Stores a numeric-looking fact value as a JSON number: L1.
    FactValueAsNumber,
    /// Drops the `x-*` members of an asserted fact: L1.
    DropsFactExtensions,
    /// Flags for a review_type outside human and agent: L2.
    FlagAcceptsUnknownReviewType,
    /// Flags a package already awaiting review again: L2.
    FlagFromAwaitingReview,
    /// Declares realtime, but offers no relay event stream (404): L3, realtime skipped.
    RealtimeOtherWire,
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

/// The descriptor (§11.5): L3, keyword search (relay's flag), the rest as broken.
fn descriptor(broken: Break) -> Value {
    json!({"protocol_version": "0.1", "conformance_level": "L3",
        "capabilities": {"hybrid_search": false,
            "semantic_search": broken == Break::ClaimsSemanticReturnsNothing,
            "realtime": broken == Break::RealtimeOtherWire, "blob_storage": false,
            "x-keyword_search": true},
        "implementation": {"name": "relay-conformance stub", "version": "0"}})
}

fn route(r: &Request, state: &mut State, broken: Break) -> (u16, Value) {
    let path: Vec<&str> = r
        .url
        .path_segments()
        .map(Iterator::collect)
        .unwrap_or_default();
    match (r.method.as_str(), path.as_slice()) {
        ("GET", ["v1", "conformance"]) => (200, descriptor(broken)),
        (_, ["v1", "projects", p, ..]) if *p != PROJECT => error(404, "project_not_found"),
        ("GET", ["v1", "projects", _, "packages"]) => match r.query("mode").as_deref() {
            Some("relevant") => packages::relevant(state, r, broken),
            _ => {
                let limit = r.query("limit").and_then(|l| l.parse().ok()).unwrap_or(5);
                (200, json!({"packages": packages::latest(state, limit)}))
            }
        },
        ("POST", ["v1", "projects", _, "packages"]) => packages::deposit(state, &r.body, broken),
        ("GET", ["v1", "packages", id]) => match state.packages.get(*id) {
            Some((p, h)) => (200, json!({"package": p, "hash": h})),
            None => error(404, "package_not_found"),
        },
        ("GET", ["v1", "projects", _, "orient"]) => packages::orient(state, r, broken),
        ("GET", ["v1", "orchestrate"]) => {
            let recent = packages::latest(state, 20);
            let mut digest = json!({"summary": {"packages": recent.len()},
                "active_facts": writes::current(state), "open_questions":
                packages::questions(&recent), "snippets": []});
            if r.query("project").is_none() {
                digest["projects"] = json!([{"project_id": PROJECT, "packages": recent.len()}]);
            }
            (200, digest)
        }
        ("GET", ["v1", "projects", _, "events"]) if broken == Break::RealtimeOtherWire => {
            error(404, "not_found")
        }
        ("GET", ["v1", "projects", _, "events"]) => (
            501,
            json!({"error": "not_implemented", "capability": "realtime"}),
        ),
        ("GET", ["v1", "projects", _, "facts"]) if broken == Break::NoFactReads => {
            error(404, "not_found")
        }
        ("GET", ["v1", "projects", _, "facts"]) => writes::facts(state, r),
        ("POST", ["v1", "projects", _, "facts"]) => writes::assert(state, &r.body, broken),
        ("DELETE", ["v1", "projects", _, "facts"]) => writes::invalidate(state, r),
        ("GET", ["v1", "projects", _, "reviews"]) => {
            let waiting: Vec<&Value> = (state.packages.values())
                .map(|(p, _)| p)
                .filter(|p| p["status"] == "awaiting_review")
                .collect();
            (200, json!({"packages": waiting}))
        }
        ("POST", ["v1", "packages", id, action]) => {
            writes::review(state, id, action, &r.body, broken)
        }
        _ => error(404, "not_found"),
    }
}

/// A time member of a stored record.
fn time_of(v: &Value, name: &str) -> Option<time::Timestamp> {
    time::parse(v[name].as_str()?).ok()
}
