//! The stub's packages: deposit with relay's validation of §6 (and the project of the path),
//! latest pull, keyword search ranked by where the query's words stand, and orient over its
//! window; each with the breakages of `Break` that concern it.

use std::cmp::Reverse;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::{Break, PROJECT, Request, State, error, time_of, writes};
use relay_wire::{Package, canonical, time};

/// The actor a token of [`Break::AgentToken`] writes as.
pub const TOKEN_ACTOR: (&str, &str) = ("stub-agent", "agent");

/// The newest packages first.
pub fn latest(state: &State, limit: usize) -> Vec<Value> {
    let mut all: Vec<&Value> = state.packages.values().map(|(p, _)| p).collect();
    all.sort_by_key(|p| Reverse(time_of(p, "created_at")));
    all.into_iter().take(limit).cloned().collect()
}

pub fn questions(packages: &[Value]) -> Vec<Value> {
    (packages.iter())
        .filter_map(|p| p["open_questions"].as_array())
        .flatten()
        .cloned()
        .collect()
}

/// The package as the stub validates it: what a breakage lets through made valid.
fn as_checked(body: &Value, broken: Break) -> Value {
    let mut checked = body.clone();
    let ptype = body["package_type"].as_str();
    match broken {
        Break::AcceptsUnknownPackageType
            if ptype.is_some_and(|t| !relay_wire::package::is_known_package_type(t)) =>
        {
            checked["package_type"] = json!("standard");
        }
        Break::AcceptsBadActorType if checked["created_by"].is_object() => {
            checked["created_by"]["type"] = json!("agent");
        }
        Break::AcceptsSignificanceOutOfRange => {
            checked.as_object_mut().map(|m| m.remove("significance"));
        }
        _ => {}
    }
    checked
}

pub fn deposit(state: &mut State, body: &Value, broken: Break) -> (u16, Value) {
    let mut stored = body.clone();
    if broken == Break::FillsMissingStatus && body.get("status").is_none() {
        stored["status"] = json!("complete");
    }
    let extension = (body["package_type"].as_str()).is_some_and(|t| t.starts_with("x-"));
    if Package::from_value(as_checked(&stored, broken)).is_err()
        || (body["project_id"] != PROJECT && broken != Break::IgnoresPathProject)
        || (extension && broken == Break::RefusesExtensionType)
    {
        return error(400, "invalid_schema");
    }
    let (id, kind) = TOKEN_ACTOR;
    let by = &body["created_by"];
    if broken == Break::AgentToken && (by["id"] != id || by["type"] != kind) {
        let (status, mut refusal) = error(403, "unauthorized");
        refusal["actor"] = json!({"id": id, "type": kind});
        return (status, refusal);
    }
    let hash = match broken {
        Break::SortKeysHasher => sort_keys_hash(&stored),
        _ => canonical::content_hash(&stored),
    };
    let id = stored["package_id"].as_str().unwrap().to_string();
    match state.packages.get(&id) {
        Some((p, h)) if *h == hash => (200, json!({"package": p, "hash": h})),
        Some(_) => error(409, "duplicate_package_id"),
        None => {
            state.packages.insert(id, (stored.clone(), hash.clone()));
            (201, json!({"package": stored, "hash": hash}))
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

/// Lowercased words: runs of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// How well a package matches the query's words: each time one stands in its title counts
/// two, in its description one.
fn score(p: &Value, query: &[String]) -> usize {
    let count = |field: &str| {
        let text = words(p[field].as_str().unwrap_or_default());
        move |w: &String| text.iter().filter(|t| *t == w).count()
    };
    let (title, description) = (count("title"), count("description"));
    query.iter().map(|w| 2 * title(w) + description(w)).sum()
}

/// Relevant pull (§8.2): keyword search, best first (newest first among equals); semantic or
/// hybrid search asked for with relay's `search=` answers 501 naming it, unless declared.
pub fn relevant(state: &State, r: &Request, broken: Break) -> (u16, Value) {
    let semantic = broken == Break::ClaimsSemanticReturnsNothing;
    let missing = match r.query("search").as_deref() {
        Some("semantic") if !semantic => Some("semantic_search"),
        Some("hybrid") => Some("hybrid_search"),
        _ => None,
    };
    if let Some(capability) = missing {
        return (
            501,
            json!({"error": "search_not_supported", "capability": capability,
                "message": format!("no {capability} here: keyword search only")}),
        );
    }
    let query = words(&r.query("query").unwrap_or_default());
    let limit = r.query("limit").and_then(|l| l.parse().ok()).unwrap_or(5);
    let mut found: Vec<(usize, &Value)> = (state.packages.values())
        .map(|(p, _)| (score(p, &query), p))
        .filter(|(n, _)| *n > 0)
        .collect();
    found.sort_by_key(|(n, p)| match broken {
        Break::UnorderedRelevance => (Reverse(0), Reverse(time_of(p, "created_at"))),
        _ => (Reverse(*n), Reverse(time_of(p, "created_at"))),
    });
    let packages: Vec<&Value> = found.into_iter().take(limit).map(|(_, p)| p).collect();
    (200, json!({"packages": packages}))
}

/// orient (§8.3): the newest packages of the window, the current facts, their questions.
pub fn orient(state: &State, r: &Request, broken: Break) -> (u16, Value) {
    let window: u64 = r
        .query("window_days")
        .and_then(|w| w.parse().ok())
        .unwrap_or(14);
    let since = time::now() - chrono::TimeDelta::days(window as i64);
    let recent: Vec<Value> = (latest(state, usize::MAX).into_iter())
        .filter(|p| broken == Break::OrientIgnoresWindow || time_of(p, "created_at") >= Some(since))
        .take(20)
        .collect();
    let facts = match broken {
        Break::OrientListsEndedFacts => state.facts.clone(),
        _ => writes::current(state),
    };
    (
        200,
        json!({"project": {"project_id": PROJECT, "name": "stub"},
            "recent_packages": recent, "active_facts": facts,
            "open_questions": questions(&recent), "window_days": window,
            "generated_at": time::format(time::now())}),
    )
}
