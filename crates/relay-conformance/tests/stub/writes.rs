//! The stub's facts (assert with supersession, current and point-in-time reads, invalidation)
//! and review transitions (§5.3), each with the breakages of `Break` that concern it.

use serde_json::{Value, json};

use super::packages::TOKEN_ACTOR;
use super::{Break, PROJECT, Request, State, error, time_of};
use relay_wire::{canonical, ids, time};

pub fn current(state: &State) -> Vec<Value> {
    (state.facts.iter())
        .filter(|f| f["valid_to"].is_null())
        .cloned()
        .collect()
}

/// The facts of the key asked for: current, or valid at `at`.
pub fn facts(state: &State, r: &Request) -> (u16, Value) {
    let key = |f: &&Value| {
        f["subject"].as_str() == r.query("subject").as_deref()
            && f["predicate"].as_str() == r.query("predicate").as_deref()
    };
    let at = r.query("at").and_then(|t| time::parse(&t).ok());
    let facts: Vec<&Value> = (state.facts.iter())
        .filter(|f| match at {
            None => f["valid_to"].is_null(),
            Some(t) => {
                let to = time_of(f, "valid_to");
                time_of(f, "valid_from") <= Some(t) && to.is_none_or(|to| t < to)
            }
        })
        .filter(key)
        .collect();
    (200, json!({"facts": facts}))
}

pub fn assert(state: &mut State, body: &Value, broken: Break) -> (u16, Value) {
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
    let mut value = body["value"].clone();
    let number = value.as_str().and_then(|v| v.parse::<f64>().ok());
    if let Some(n) = number.filter(|_| broken == Break::FactValueAsNumber) {
        value = json!(n);
    }
    let mut fact = json!({"fact_id": ids::new_id("fact"), "project_id": PROJECT,
        "subject": body["subject"], "predicate": body["predicate"], "value": value,
        "valid_from": from, "valid_to": null, "created_at": now});
    let extensions = (body.as_object().into_iter().flatten())
        .filter(|(k, _)| k.starts_with("x-") && broken != Break::DropsFactExtensions);
    for (k, v) in extensions {
        fact[k] = v.clone();
    }
    state.facts.push(fact.clone());
    (201, json!({"fact": fact}))
}

pub fn invalidate(state: &mut State, r: &Request) -> (u16, Value) {
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

/// flag, approve or request-changes of a package (§5.3, §8.5).
pub fn review(
    state: &mut State,
    id: &str,
    action: &str,
    body: &Value,
    broken: Break,
) -> (u16, Value) {
    let Some((p, h)) = state.packages.get_mut(id) else {
        return error(404, "package_not_found");
    };
    let kind = body["review_type"].as_str().unwrap_or_default();
    let known = matches!(kind, "human" | "agent");
    if action == "flag" && !known && broken != Break::FlagAcceptsUnknownReviewType {
        return error(400, "invalid_schema");
    }
    let status = p["status"].as_str().unwrap_or_default().to_string();
    let again = broken == Break::FlagFromAwaitingReview;
    let to = match (action, status.as_str()) {
        ("flag", "draft" | "revision_requested") => "awaiting_review",
        ("flag", "awaiting_review") if again => "awaiting_review",
        ("approve", "awaiting_review") => "complete",
        ("request-changes", "awaiting_review") => "revision_requested",
        ("approve" | "request-changes", _) if broken == Break::NoReviewTransitions => {
            return (200, json!({"package": p}));
        }
        ("flag" | "approve" | "request-changes", _) => return error(400, "invalid_transition"),
        _ => return error(404, "not_found"),
    };
    if action != "flag" {
        if broken == Break::NoReviewTransitions {
            return (200, json!({"package": p}));
        }
        if broken == Break::AgentToken && p["review_type"] != TOKEN_ACTOR.1 {
            return error(403, "unauthorized");
        }
    }
    p["status"] = json!(to);
    if action == "flag" {
        p["review_type"] = json!(kind);
    }
    *h = canonical::content_hash(p);
    (200, json!({"package": p}))
}
