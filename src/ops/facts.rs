//! Facts (§7, §8.6, §8.7): assert with atomic supersession, invalidate, and queries for the
//! current value, the value at a past time, and the whole history.
//!
//! After a merge, one key may hold several open facts. Every query then answers with the
//! greatest (`valid_from`, `created_at`, `fact_id`), so all clones agree (DESIGN invariant 6);
//! the next assert or invalidate closes them all.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use crate::error::{Error, Result, SchemaError};
use crate::store::Store;
use crate::store::fact_index::Facts;
use crate::wire::{Fact, ids, time, time::Timestamp};

/// What `facts assert` records.
#[derive(Debug, Clone, Default)]
pub struct AssertRequest {
    pub subject: String,
    pub predicate: String,
    pub value: String,
    /// The package the fact comes from; its `created_by` becomes `asserted_by`.
    pub source_package_id: Option<String>,
    /// Default 1.0.
    pub confidence: Option<f64>,
    pub tags: Vec<String>,
    /// Default: now, taken inside the lock.
    pub valid_from: Option<Timestamp>,
    /// Who asserts (`{"id", "type", "session_id"?}`).
    pub asserted_by: Value,
    /// Whether `asserted_by` was named explicitly; otherwise a source package's author wins.
    pub actor_explicit: bool,
}

/// The outcome of an assert.
#[derive(Debug, Clone)]
pub struct Asserted {
    pub fact: Fact,
    /// The facts this one closed (usually one; none for a new key).
    pub superseded: Vec<Fact>,
    /// False when the value was already current and nothing was written.
    pub created: bool,
}

/// Which facts `list` shows.
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    pub subject: Option<String>,
    pub predicate: Option<String>,
    pub tag: Option<String>,
    /// The facts valid at this time instead of now.
    pub at: Option<Timestamp>,
    /// Every fact, ended ones too.
    pub include_ended: bool,
}

type Rank<'a> = (Timestamp, Timestamp, &'a str);

fn rank(f: &Fact) -> Rank<'_> {
    (f.valid_from(), f.created_at(), f.id())
}

fn of_key<'a, 'k>(
    facts: &'a BTreeMap<String, Fact>,
    subject: &'k str,
    predicate: &'k str,
) -> impl Iterator<Item = &'a Fact> + use<'a, 'k> {
    facts
        .values()
        .filter(move |f| f.subject() == subject && f.predicate() == predicate)
}

/// The facts of one key (or more: a superset is fine, callers filter by key), through the
/// fact index when it can be used.
fn key_facts(
    store: &Store,
    project_id: &str,
    subject: &str,
    predicate: &str,
) -> Result<BTreeMap<String, Fact>> {
    match store.facts_of_key(project_id, subject, predicate)? {
        Facts::Some(facts) => Ok(facts),
        Facts::Unindexed => store.facts(project_id),
    }
}

/// The current fact of a key: the greatest open one.
pub fn current_of<'a>(
    facts: &'a BTreeMap<String, Fact>,
    subject: &str,
    predicate: &str,
) -> Option<&'a Fact> {
    facts
        .values()
        .filter(|f| f.subject() == subject && f.predicate() == predicate && f.is_current())
        .max_by(|a, b| rank(a).cmp(&rank(b)))
}

/// The fact of a key valid at `t`: `valid_from ≤ t < valid_to`.
pub fn at_of<'a>(
    facts: &'a BTreeMap<String, Fact>,
    subject: &str,
    predicate: &str,
    t: Timestamp,
) -> Option<&'a Fact> {
    of_key(facts, subject, predicate)
        .filter(|f| f.valid_at(t))
        .max_by(|a, b| rank(a).cmp(&rank(b)))
}

/// A copy of `fact` ended at `end` (never before it began: an end at or before the start is
/// written as the start, verbatim, whatever its precision).
fn closed(fact: &Fact, end: Timestamp) -> Result<Fact> {
    let to = if end <= fact.valid_from() {
        fact.str_field("valid_from").unwrap_or_default().to_string()
    } else {
        time::format(end)
    };
    let mut map = fact.as_map().clone();
    map.insert("valid_to".into(), Value::String(to));
    Ok(Fact::from_map(map)?)
}

fn asserted_by_for(store: &Store, project_id: &str, req: &AssertRequest) -> Result<Value> {
    let Some(src) = &req.source_package_id else {
        return Ok(req.asserted_by.clone());
    };
    if req.actor_explicit {
        // Still check the source exists.
        store
            .package_versions(project_id, src)?
            .first()
            .ok_or_else(|| Error::PackageNotFound(src.clone()))?;
        return Ok(req.asserted_by.clone());
    }
    let versions = store.package_versions(project_id, src)?;
    let first = versions
        .first()
        .ok_or_else(|| Error::PackageNotFound(src.clone()))?;
    Ok(first
        .package
        .as_map()
        .get("created_by")
        .cloned()
        .unwrap_or_else(|| req.asserted_by.clone()))
}

/// Asserts a fact. Under the project lock it finds the current fact, closes it at the new
/// fact's `valid_from`, and appends both lines in one write (§7.3).
pub fn assert(store: &Store, project_id: &str, req: &AssertRequest) -> Result<Asserted> {
    let mut req = req.clone();
    let mut texts = vec![
        ("subject", req.subject.as_str()),
        ("predicate", req.predicate.as_str()),
        ("value", req.value.as_str()),
    ];
    let tag_names: Vec<String> = (0..req.tags.len()).map(|i| format!("tags[{i}]")).collect();
    texts.extend(
        tag_names
            .iter()
            .map(String::as_str)
            .zip(req.tags.iter().map(String::as_str)),
    );
    let guarded = super::secrets::guard_fields(store, &texts)?;
    req.subject = guarded[0].clone();
    req.predicate = guarded[1].clone();
    req.value = guarded[2].clone();
    req.tags = guarded[3..].to_vec();
    let req = &req;
    // Validate the shape before taking the lock, so bad input costs nobody a wait.
    if let Some(c) = req.confidence
        && !(c.is_finite() && (0.0..=1.0).contains(&c))
    {
        return Err(SchemaError::new(
            "confidence",
            format!("must be a number from 0 to 1 (got {c})"),
        )
        .into());
    }
    let draft_time = req.valid_from.unwrap_or_else(time::now);
    build(project_id, req, draft_time, draft_time, Value::Null)?;

    let _lock = store.lock_project(project_id)?;
    writable(store, project_id, &req.asserted_by)?;
    let asserted_by = asserted_by_for(store, project_id, req)?;
    let now = time::now();
    let facts = key_facts(store, project_id, &req.subject, &req.predicate)?;
    let open: Vec<&Fact> = of_key(&facts, &req.subject, &req.predicate)
        .filter(|f| f.is_current())
        .collect();
    let current = open.iter().copied().max_by(|a, b| rank(a).cmp(&rank(b)));
    if let Some(cur) = current
        && cur.value() == req.value
    {
        return Ok(Asserted {
            fact: cur.clone(),
            superseded: Vec::new(),
            created: false,
        });
    }
    let valid_from = match (req.valid_from, current) {
        (Some(t), Some(cur)) if t < cur.valid_from() => {
            return Err(Error::FactChainConflict(format!(
                "valid_from {} is earlier than the current fact's valid_from {} ({}); a new fact must \
                 start at or after the fact it supersedes",
                time::format(t),
                time::format(cur.valid_from()),
                cur.id()
            )));
        }
        (Some(t), _) => t,
        // A clock that stepped back must not break the chain: start just after the current one.
        (None, Some(cur)) if cur.valid_from() >= now => cur.valid_from() + time::tick(),
        (None, _) => now,
    };
    let fact = build(project_id, req, valid_from, now, asserted_by)?;
    let superseded = open
        .iter()
        .map(|f| closed(f, valid_from))
        .collect::<Result<Vec<_>>>()?;
    let mut lines: Vec<&Fact> = superseded.iter().collect();
    lines.push(&fact);
    store.append_records(&store.layout().facts_file(project_id), &lines)?;
    Ok(Asserted {
        fact,
        superseded,
        created: true,
    })
}

fn build(
    project_id: &str,
    req: &AssertRequest,
    valid_from: Timestamp,
    now: Timestamp,
    by: Value,
) -> Result<Fact> {
    let mut map = Map::new();
    map.insert("fact_id".into(), Value::String(ids::new_id("fact")));
    map.insert("project_id".into(), json!(project_id));
    map.insert("subject".into(), json!(req.subject));
    map.insert("predicate".into(), json!(req.predicate));
    map.insert("value".into(), json!(req.value));
    map.insert("valid_from".into(), Value::String(time::format(valid_from)));
    map.insert("valid_to".into(), Value::Null);
    if let Some(src) = &req.source_package_id {
        map.insert("source_package_id".into(), json!(src));
    }
    map.insert("confidence".into(), json!(req.confidence.unwrap_or(1.0)));
    if !by.is_null() {
        map.insert("asserted_by".into(), by);
    }
    map.insert("created_at".into(), Value::String(time::format(now)));
    if !req.tags.is_empty() {
        map.insert("tags".into(), json!(req.tags));
    }
    Ok(Fact::from_map(map)?)
}

/// Checks, under the lock, that the project takes writes and the asserting session is open.
fn writable(store: &Store, project_id: &str, by: &Value) -> Result<()> {
    if super::projects::get(store, project_id)?.is_archived() {
        return Err(Error::ProjectArchived(project_id.to_string()));
    }
    if let Some(s) = by.get("session_id").and_then(Value::as_str) {
        super::sessions::ensure_open(store, project_id, s)?;
    }
    Ok(())
}

/// Ends the current facts of a key (only those with `value`, when given) without a
/// replacement (§7.4). Returns the facts it ended.
pub fn invalidate(
    store: &Store,
    project_id: &str,
    subject: &str,
    predicate: &str,
    value: Option<&str>,
) -> Result<Vec<Fact>> {
    for (name, v) in [("subject", subject), ("predicate", predicate)] {
        if v.is_empty() {
            return Err(SchemaError::new(name, "must not be empty").into());
        }
    }
    let _lock = store.lock_project(project_id)?;
    writable(store, project_id, &Value::Null)?;
    let now = time::now();
    let facts = key_facts(store, project_id, subject, predicate)?;
    let ended = of_key(&facts, subject, predicate)
        .filter(|f| f.is_current() && value.is_none_or(|v| v == f.value()))
        .map(|f| closed(f, now))
        .collect::<Result<Vec<_>>>()?;
    if !ended.is_empty() {
        store.append_records(
            &store.layout().facts_file(project_id),
            &ended.iter().collect::<Vec<_>>(),
        )?;
    }
    Ok(ended)
}

/// The current fact of a key, or the one valid at `at`.
pub fn get(
    store: &Store,
    project_id: &str,
    subject: &str,
    predicate: &str,
    at: Option<Timestamp>,
) -> Result<Fact> {
    if at.is_none()
        && let Some(current) = store.current_fact_of_key(project_id, subject, predicate)?
    {
        return current.ok_or_else(|| Error::FactNotFound {
            subject: subject.into(),
            predicate: predicate.into(),
        });
    }
    let facts = key_facts(store, project_id, subject, predicate)?;
    let found = match at {
        Some(t) => at_of(&facts, subject, predicate, t),
        None => current_of(&facts, subject, predicate),
    };
    found.cloned().ok_or_else(|| Error::FactNotFound {
        subject: subject.into(),
        predicate: predicate.into(),
    })
}

/// Facts matching `q`, by subject and predicate: one per key (current, or valid at `q.at`),
/// or every fact with `include_ended`.
pub fn list(store: &Store, project_id: &str, q: &ListQuery) -> Result<Vec<Fact>> {
    let matches = |f: &Fact| {
        q.subject.as_deref().is_none_or(|s| s == f.subject())
            && q.predicate.as_deref().is_none_or(|p| p == f.predicate())
            && q.tag.as_deref().is_none_or(|t| f.list("tags").contains(&t))
    };
    // The current facts come from the index, already one per key and in order; other views
    // need every fact.
    if q.at.is_none()
        && !q.include_ended
        && let Some(current) = store.current_facts(project_id)?
    {
        return Ok(current.into_iter().filter(|f| matches(f)).collect());
    }
    let facts = store.facts(project_id)?;
    let facts: Vec<Fact> = facts.into_values().filter(|f| matches(f)).collect();
    let out: Vec<Fact> = if q.include_ended {
        facts
    } else {
        // The best live fact of each key, chosen by position so that nothing is copied.
        let mut best: HashMap<(&str, &str), usize> = HashMap::new();
        for (i, f) in facts.iter().enumerate() {
            let live = match q.at {
                Some(t) => f.valid_at(t),
                None => f.is_current(),
            };
            if !live {
                continue;
            }
            let slot = best.entry((f.subject(), f.predicate())).or_insert(i);
            if rank(f) > rank(&facts[*slot]) {
                *slot = i;
            }
        }
        let mut keep = vec![false; facts.len()];
        for &i in best.values() {
            keep[i] = true;
        }
        facts
            .into_iter()
            .zip(keep)
            .filter_map(|(f, keep)| keep.then_some(f))
            .collect()
    };
    Ok(sorted_by_key_then_rank(out))
}

/// `facts` by subject, predicate and [`rank`], each sort key worked out once (a rank parses
/// timestamps: comparing with it directly costs a list of thousands dearly).
fn sorted_by_key_then_rank(facts: Vec<Fact>) -> Vec<Fact> {
    let mut order: Vec<_> = facts
        .iter()
        .enumerate()
        .map(|(i, f)| (f.subject(), f.predicate(), rank(f), i))
        .collect();
    order.sort_unstable();
    let order: Vec<usize> = order.into_iter().map(|(.., i)| i).collect();
    let mut slots: Vec<Option<Fact>> = facts.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// Every fact of a key, oldest first.
pub fn history(
    store: &Store,
    project_id: &str,
    subject: &str,
    predicate: &str,
) -> Result<Vec<Fact>> {
    let facts = key_facts(store, project_id, subject, predicate)?;
    let mut out: Vec<Fact> = of_key(&facts, subject, predicate).cloned().collect();
    out.sort_by_cached_key(|f| {
        let (from, created, id) = rank(f);
        (from, created, id.to_string())
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(id: &str, value: &str, from: &str, to: Option<&str>, created: &str) -> Fact {
        let mut v = json!({"fact_id": id, "project_id": "p", "subject": "s", "predicate": "p", "value": value,
                           "valid_from": from, "created_at": created});
        if let Some(t) = to {
            v["valid_to"] = json!(t);
        }
        Fact::from_value(v).unwrap()
    }

    fn index(facts: Vec<Fact>) -> BTreeMap<String, Fact> {
        facts.into_iter().map(|f| (f.id().to_string(), f)).collect()
    }

    #[test]
    fn forks_resolve_to_the_greatest_valid_from_then_created_at_then_id() {
        let t = "2026-01-01T00:00:00Z";
        let facts = index(vec![
            fact("fact_a", "1", t, None, t),
            fact("fact_b", "2", "2026-01-02T00:00:00Z", None, t),
            fact("fact_c", "3", "2026-01-02T00:00:00Z", None, t),
        ]);
        assert_eq!(current_of(&facts, "s", "p").unwrap().value(), "3");
        let facts = index(vec![
            fact("fact_z", "1", t, None, "2026-01-01T00:00:00Z"),
            fact("fact_y", "2", t, None, "2026-01-01T00:00:01Z"),
        ]);
        assert_eq!(current_of(&facts, "s", "p").unwrap().value(), "2");
    }

    #[test]
    fn time_travel_boundaries() {
        let facts = index(vec![
            fact(
                "fact_1",
                "old",
                "2026-01-01T00:00:00Z",
                Some("2026-02-01T00:00:00Z"),
                "2026-01-01T00:00:00Z",
            ),
            fact(
                "fact_2",
                "new",
                "2026-02-01T00:00:00Z",
                None,
                "2026-02-01T00:00:00Z",
            ),
        ]);
        let at = |s: &str| {
            at_of(&facts, "s", "p", time::parse(s).unwrap()).map(|f| f.value().to_string())
        };
        assert_eq!(at("2025-12-31T23:59:59Z"), None);
        assert_eq!(at("2026-01-01T00:00:00Z").as_deref(), Some("old"));
        assert_eq!(at("2026-01-31T23:59:59.999999Z").as_deref(), Some("old"));
        assert_eq!(at("2026-02-01T00:00:00Z").as_deref(), Some("new"));
        assert_eq!(at("2030-01-01T00:00:00Z").as_deref(), Some("new"));
    }
}
