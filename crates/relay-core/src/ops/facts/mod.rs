//! Facts (§7, §8.6, §8.7): assert with atomic supersession, invalidate, and queries for the
//! current value, the value at a past time, and the whole history.
//!
//! Every read follows the key's effective chain (`store::fact_chain`), so clones merged by
//! git answer alike (DESIGN invariant 6); an assert or invalidate also appends the versions
//! that make the stored chain equal the effective one.

pub mod history;
pub mod lines;
mod reads;
pub mod sources;

pub use reads::{get, history, list, list_rendered, sourced_by};

use crate::request::Spelling;
use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::search::filter::{Hidden, Reveal};
use relay_store::Store;
use relay_store::fact_chain::{self, Link};
use relay_store::index::Facts;
use relay_wire::error::{Error, Result, SchemaError};
use relay_wire::{Fact, expiry, ids, time, time::Timestamp};

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
    /// When the fact stops being served (`x-expires-at`, RFC 3339; see [`relay_wire::expiry`]).
    pub expires_at: Option<String>,
    /// `x-*` extension members the fact keeps as given (§12.1); an `x-expires-at` among them
    /// is read as [`AssertRequest::expires_at`].
    pub extensions: Map<String, Value>,
}

/// The outcome of an assert.
#[derive(Debug, Clone)]
pub struct Asserted {
    pub fact: Fact,
    /// The facts this one closed (usually one; none for a new key).
    pub superseded: Vec<Fact>,
    /// False when the same value with the same metadata was already current and nothing was
    /// written.
    pub created: bool,
}

impl Asserted {
    /// The answer as transports give it: `{"fact": {…}, "unchanged": bool, "superseded": [id…]}`.
    pub fn to_value(&self) -> Value {
        let superseded: Vec<&str> = self.superseded.iter().map(Fact::id).collect();
        json!({"fact": self.fact.to_value(), "unchanged": !self.created, "superseded": superseded})
    }
}

/// The member of a `history --json` line that says what a fact's current version stores as
/// `valid_to` when the effective end differs (`null`: stored as open).
pub const STORED_VALID_TO: &str = "x-stored_valid_to";

/// A fact of a history as transports give it: the fact with its effective `valid_to`, and
/// [`STORED_VALID_TO`] where that differs from what is stored.
pub fn link_value(link: &Link) -> Value {
    let mut v = link.fact.to_value();
    if let (Some(stored), Value::Object(map)) = (&link.stored_valid_to, &mut v) {
        map.insert(STORED_VALID_TO.into(), json!(stored));
    }
    v
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
    /// Retracted or expired facts shown anyway.
    pub reveal: Reveal,
    /// A snapshot read: the facts as recorded by this time and valid then, as the store stood
    /// (facts recorded since are left out, whatever their `valid_from`).
    pub as_of: Option<Timestamp>,
}

/// The effective chain of one key, from facts at their current versions (a superset of the
/// key's is fine).
pub fn chain_of(
    facts: &BTreeMap<String, Fact>,
    subject: &str,
    predicate: &str,
) -> Result<Vec<Link>> {
    let of_key = facts
        .values()
        .filter(|f| f.subject() == subject && f.predicate() == predicate)
        .cloned()
        .collect();
    fact_chain::effective_chain(of_key)
}

/// How many keys of `facts` (at their current versions) have a current fact: the last of
/// each chain, unless it ended.
pub fn current_count(facts: &BTreeMap<String, Fact>) -> usize {
    let mut last: std::collections::HashMap<(&str, &str), &Fact> = Default::default();
    for f in facts.values() {
        let slot = last.entry((f.subject(), f.predicate())).or_insert(f);
        if fact_chain::chain_rank(f) > fact_chain::chain_rank(slot) {
            *slot = f;
        }
    }
    last.values().filter(|f| f.is_current()).count()
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

/// A copy of `fact` ended at `end` (never before it began: an end at or before the start is
/// written as the start, verbatim, whatever its precision).
fn closed(fact: &Fact, end: Timestamp) -> Result<Fact> {
    let to = if end <= fact.valid_from() {
        fact.str_field("valid_from").unwrap_or_default().to_string()
    } else {
        time::format(end)
    };
    fact_chain::with_valid_to(fact, &to)
}

/// Who asserts: the caller when named explicitly or when there is no source package, else
/// the source package's author. The source must be a package of the project
/// ([`crate::ops::facts::sources::check_source_package`], the rule import applies too).
fn asserted_by_for(store: &Store, project_id: &str, req: &AssertRequest) -> Result<Value> {
    let Some(src) = &req.source_package_id else {
        return Ok(req.asserted_by.clone());
    };
    let source = sources::check_source_package(store, project_id, src)?;
    if let Some(r) = store.retractions(project_id)?.package(src) {
        // Every read would hide the fact at once (see `filter::Hidden::fact`).
        return Err(Error::Hidden {
            code: relay_wire::error::Code::PackageNotFound,
            message: format!(
                "package `{src}` was retracted by {} at {}: {}; a fact asserted from it would \
                 be hidden from every read: name another source, or none",
                r.actor(),
                time::format(r.retracted_at),
                r.reason
            ),
        });
    }
    if req.actor_explicit {
        return Ok(req.asserted_by.clone());
    }
    Ok(source
        .package
        .as_map()
        .get("created_by")
        .cloned()
        .unwrap_or_else(|| req.asserted_by.clone()))
}

/// Whether asserting `req` would record what `current` already says: the same value, and the
/// same confidence, source, tags and (when given) `valid_from`. Who asserts is not compared.
fn restates(current: &Fact, req: &AssertRequest) -> bool {
    current.value() == req.value
        && current.confidence() == req.confidence.unwrap_or(1.0)
        && current.str_field("source_package_id") == req.source_package_id.as_deref()
        && current.list("tags") == req.tags.iter().map(String::as_str).collect::<Vec<_>>()
        && req.valid_from.is_none_or(|t| t == current.valid_from())
        && current.str_field(expiry::EXPIRES_AT) == req.expires_at.as_deref()
        && extensions_of(current.as_map()) == req.extensions
}

/// A fact's `x-*` members other than the expiry, which [`restates`] compares on its own.
fn extensions_of(map: &Map<String, Value>) -> Map<String, Value> {
    (map.iter())
        .filter(|(k, _)| k.starts_with("x-") && *k != expiry::EXPIRES_AT)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Refuses an expiry that is not a time, or not in the future (`invalid_input`).
pub(crate) fn check_expiry(at: Option<&str>) -> Result<()> {
    let Some(at) = at else { return Ok(()) };
    let t = time::parse(at).map_err(|m| {
        Error::InvalidInput(format!(
            "{}: `{at}` is not an RFC 3339 time: {m}",
            expiry::EXPIRES_AT
        ))
    })?;
    expiry::requested(Some(&time::format(t)), None, time::now())
        .map(drop)
        .map_err(|m| Error::InvalidInput(format!("{}: {m}", expiry::EXPIRES_AT)))
}

/// The closing versions that make the stored chain of `chain` equal its effective one.
fn closing_versions(chain: &[Link]) -> Vec<Fact> {
    chain
        .iter()
        .filter(|l| l.differs())
        .map(|l| l.fact.clone())
        .collect()
}

/// Asserts a fact. Under the project lock it finds the key's chain, and appends in one write
/// the new fact and the versions that close what it supersedes at its `valid_from` (§7.3).
pub fn assert(store: &Store, project_id: &str, req: &AssertRequest) -> Result<Asserted> {
    let mut req = req.clone();
    if let Some(given) = &req.source_package_id {
        req.source_package_id = Some(sources::whole_source_id(store, project_id, given)?);
    }
    if let Some(at) = req.extensions.remove(expiry::EXPIRES_AT) {
        let at = at.as_str().map(str::to_string).ok_or_else(|| {
            SchemaError::new(expiry::EXPIRES_AT, "must be an RFC 3339 time, as text")
        })?;
        req.expires_at = req.expires_at.or(Some(at));
    }
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
    let guarded = crate::ops::trust::secrets::guard_fields(store, &texts)?;
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
    check_expiry(req.expires_at.as_deref())?;
    let draft_time = req.valid_from.unwrap_or_else(time::now);
    build(project_id, req, draft_time, draft_time, Value::Null)?;

    let _lock = store.lock_project(project_id)?;
    writable(store, project_id, &req.asserted_by)?;
    let asserted_by = asserted_by_for(store, project_id, req)?;
    let now = time::now();
    let mut facts = key_facts(store, project_id, &req.subject, &req.predicate)?;
    let chain = chain_of(&facts, &req.subject, &req.predicate)?;
    // A current fact that reads hide (retracted, expired) is not restated: it is superseded.
    let hidden = Hidden::load(store.view(), &[project_id.to_string()], Reveal::default())?;
    if let Some(cur) = fact_chain::current(&chain)
        && restates(cur, req)
        && hidden.fact(cur).is_none()
    {
        return Ok(Asserted {
            fact: cur.clone(),
            superseded: Vec::new(),
            created: false,
        });
    }
    let last = chain.last().map(|l| &l.fact);
    let valid_from = match (req.valid_from, last) {
        (Some(t), Some(last)) if t < last.valid_from() => {
            return Err(Error::FactChainConflict(format!(
                "valid_from {} is earlier than the valid_from {} of the key's latest fact ({}); a \
                 new fact must start at or after the fact it supersedes",
                time::format(t),
                time::format(last.valid_from()),
                last.id()
            )));
        }
        (Some(t), _) => t,
        // A clock that stepped back must not break the chain: start just after the latest.
        (None, Some(last)) if last.valid_from() >= now => last.valid_from() + time::tick(),
        (None, _) => now,
    };
    // A fact that starts with the latest one must still come after it in the chain.
    let created_at = match last {
        Some(last) if last.valid_from() == valid_from && last.created_at() >= now => {
            last.created_at() + time::tick()
        }
        _ => now,
    };
    let fact = build(project_id, req, valid_from, created_at, asserted_by)?;
    facts.insert(fact.id().to_string(), fact.clone());
    let superseded = closing_versions(&chain_of(&facts, &req.subject, &req.predicate)?);
    let mut lines: Vec<&Fact> = superseded.iter().collect();
    lines.push(&fact);
    let writer = req.asserted_by.get("id").and_then(Value::as_str);
    store.append_facts(project_id, &lines, writer)?;
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
    for (k, v) in &req.extensions {
        map.insert(k.clone(), v.clone());
    }
    if let Some(at) = &req.expires_at {
        map.insert(expiry::EXPIRES_AT.into(), json!(at));
    }
    Ok(Fact::from_map(map)?)
}

/// Checks, under the lock, that the project takes writes and the asserting session is open.
fn writable(store: &Store, project_id: &str, by: &Value) -> Result<()> {
    if crate::ops::projects::get(store, project_id)?.is_archived() {
        return Err(Error::ProjectArchived(project_id.to_string()));
    }
    if let Some(s) = by.get("session_id").and_then(Value::as_str) {
        crate::ops::sessions::ensure_open(store, project_id, s)?;
    }
    Ok(())
}

/// Ends the current fact of a key (only if it has `value`, when given) without a
/// replacement (§7.4), and closes any fact a merge left open at its effective end. Returns
/// the current fact it ended, if any.
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
    let chain = chain_of(&facts, subject, predicate)?;
    let ended = fact_chain::current(&chain)
        .filter(|f| value.is_none_or(|v| v == f.value()))
        .map(|f| closed(f, now))
        .transpose()?;
    let Some(ended) = ended else {
        return Ok(Vec::new());
    };
    let mut lines = closing_versions(&chain);
    lines.push(ended.clone());
    store.append_facts(project_id, &lines.iter().collect::<Vec<_>>(), None)?;
    Ok(vec![ended])
}

/// The facts requests every door decodes, turned into the operations' inputs here, beside
/// the operations.
impl crate::request::facts::AssertFactRequest {
    /// The core's assert request; the asserter is the caller's to fill in.
    pub fn into_assert(self, spelling: Spelling) -> Result<AssertRequest> {
        self.validate()?;
        let valid_from = self.valid_from.as_deref();
        Ok(AssertRequest {
            valid_from: time::parse_time(&spelling.name("valid_from"), valid_from)?,
            subject: self.subject,
            predicate: self.predicate,
            value: self.value,
            source_package_id: self.source_package_id,
            confidence: self.confidence,
            tags: self.tags,
            extensions: self.extensions,
            ..AssertRequest::default()
        })
    }
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
        let current = |facts| {
            let chain = chain_of(facts, "s", "p").unwrap();
            fact_chain::current(&chain).map(|f| f.value().to_string())
        };
        assert_eq!(current(&facts).as_deref(), Some("3"));
        let facts = index(vec![
            fact("fact_z", "1", t, None, "2026-01-01T00:00:00Z"),
            fact("fact_y", "2", t, None, "2026-01-01T00:00:01Z"),
        ]);
        assert_eq!(current(&facts).as_deref(), Some("2"));
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
        let chain = chain_of(&facts, "s", "p").unwrap();
        let at = |s: &str| {
            fact_chain::at(&chain, time::parse(s).unwrap()).map(|f| f.value().to_string())
        };
        assert_eq!(at("2025-12-31T23:59:59Z"), None);
        assert_eq!(at("2026-01-01T00:00:00Z").as_deref(), Some("old"));
        assert_eq!(at("2026-01-31T23:59:59.999999Z").as_deref(), Some("old"));
        assert_eq!(at("2026-02-01T00:00:00Z").as_deref(), Some("new"));
        assert_eq!(at("2030-01-01T00:00:00Z").as_deref(), Some("new"));
    }

    #[test]
    fn only_the_same_value_and_metadata_restate_the_current_fact() {
        let mut cur = fact(
            "fact_1",
            "live",
            "2026-01-01T00:00:00Z",
            None,
            "2026-01-01T00:00:00Z",
        );
        let req = AssertRequest {
            value: "live".into(),
            ..AssertRequest::default()
        };
        assert!(restates(&cur, &req));
        let differs = [
            AssertRequest {
                value: "down".into(),
                ..req.clone()
            },
            AssertRequest {
                confidence: Some(0.5),
                ..req.clone()
            },
            AssertRequest {
                source_package_id: Some("pkg_1".into()),
                ..req.clone()
            },
            AssertRequest {
                tags: vec!["x".into()],
                ..req.clone()
            },
            AssertRequest {
                valid_from: Some(time::parse("2026-02-01T00:00:00Z").unwrap()),
                ..req.clone()
            },
        ];
        for d in &differs {
            assert!(!restates(&cur, d), "{d:?}");
        }
        let same_start = AssertRequest {
            valid_from: Some(time::parse("2026-01-01T00:00:00Z").unwrap()),
            confidence: Some(1.0),
            ..req.clone()
        };
        assert!(restates(&cur, &same_start));
        cur = fact_chain::with_valid_to(&cur, "2026-01-02T00:00:00Z").unwrap();
        assert!(
            restates(&cur, &req),
            "restating compares members, not whether it is open"
        );
    }

    use crate::ops::packages::deposit::test_support::forked_store;

    fn by(id: &str) -> AssertRequest {
        AssertRequest {
            subject: "s".into(),
            predicate: "p".into(),
            value: id.into(),
            asserted_by: json!({"id": "jo", "type": "human"}),
            ..AssertRequest::default()
        }
    }

    #[test]
    fn an_assert_on_a_forked_key_closes_every_fact_at_its_effective_end() {
        let (_dir, store) = forked_store();
        let done = assert(&store, "demo", &by("c")).unwrap();
        let closed: Vec<(&str, Option<&str>)> = (done.superseded.iter())
            .map(|f| (f.id(), f.str_field("valid_to")))
            .collect();
        assert_eq!(closed[0], ("fact_a", Some("2026-02-01T00:00:00Z")));
        assert_eq!(closed[1].0, "fact_b");
        assert_eq!(closed[1].1, done.fact.str_field("valid_from"));
        let chain = history(&store, "demo", "s", "p").unwrap();
        assert!(chain.iter().all(|l| !l.differs()), "{chain:?}");
        assert_eq!(fact_chain::current(&chain), Some(&done.fact));
    }

    #[test]
    fn invalidate_ends_the_current_fact_only_and_records_the_fork() {
        let (_dir, store) = forked_store();
        assert!(
            invalidate(&store, "demo", "s", "p", Some("fact_a"))
                .unwrap()
                .is_empty()
        );
        let ended = invalidate(&store, "demo", "s", "p", Some("fact_b")).unwrap();
        assert_eq!(ended.len(), 1);
        assert_eq!(ended[0].id(), "fact_b");
        let chain = history(&store, "demo", "s", "p").unwrap();
        assert!(chain.iter().all(|l| !l.differs()), "{chain:?}");
        assert!(fact_chain::current(&chain).is_none());
        let err = get(&store, "demo", "s", "p", None, Default::default()).unwrap_err();
        assert_eq!(err.code(), "fact_not_found");
    }

    #[test]
    fn a_start_before_the_latest_fact_is_a_chain_conflict() {
        let (_dir, store) = forked_store();
        let early = AssertRequest {
            valid_from: Some(time::parse("2026-01-15T00:00:00Z").unwrap()),
            ..by("c")
        };
        let err = assert(&store, "demo", &early).unwrap_err();
        assert_eq!(err.code(), "fact_chain_conflict");
    }

    /// A fact of project `demo` from `source`, stored open unless `to` is given.
    fn sourced(id: &str, key: (&str, &str), from: &str, to: Option<&str>, source: &str) -> Fact {
        let mut v = json!({"fact_id": id, "project_id": "demo", "subject": key.0,
            "predicate": key.1, "value": id, "valid_from": from, "created_at": from});
        if let Some(t) = to {
            v["valid_to"] = json!(t);
        }
        if !source.is_empty() {
            v["source_package_id"] = json!(source);
        }
        Fact::from_value(v).unwrap()
    }

    #[test]
    fn sourced_by_finds_the_package_facts_current_and_ended_with_their_effective_ends() {
        let (jan, feb, mar) = (
            "2026-01-01T00:00:00Z",
            "2026-02-01T00:00:00Z",
            "2026-03-01T00:00:00Z",
        );
        for indexed in [true, false] {
            let (dir, store) = crate::ops::packages::deposit::test_support::store_with(&["demo"]);
            let store = match indexed {
                true => store,
                false => crate::ops::packages::deposit::test_support::unindexed(&store),
            };
            assert_eq!(store.config().search_index(), indexed);
            let facts = [
                // Ended as stored.
                sourced("fact_1", ("s", "p"), jan, Some(feb), "pkg_src"),
                sourced("fact_2", ("s", "p"), feb, None, ""),
                // Stored open, but ended by the next fact of the chain (a merge's fork).
                sourced("fact_3", ("s", "q"), jan, None, "pkg_src"),
                sourced("fact_4", ("s", "q"), mar, None, "pkg_other"),
                // Current.
                sourced("fact_5", ("t", "p"), feb, None, "pkg_src"),
                // Mentions the package but comes from another.
                sourced("fact_6", ("pkg_src", "p"), jan, None, "pkg_other"),
            ];
            let log = store.facts_log("demo");
            store
                .append_records(&log, &facts.iter().collect::<Vec<_>>())
                .unwrap();
            let got = sourced_by(&store, "demo", "pkg_src").unwrap();
            let shown: Vec<(&str, &str, &str, Option<&str>)> = (got.iter())
                .map(|f| (f.id(), f.subject(), f.predicate(), f.str_field("valid_to")))
                .collect();
            assert_eq!(
                shown,
                [
                    ("fact_1", "s", "p", Some(feb)),
                    ("fact_3", "s", "q", Some(mar)),
                    ("fact_5", "t", "p", None),
                ],
                "indexed: {indexed}"
            );
            assert!(sourced_by(&store, "demo", "pkg_none").unwrap().is_empty());
            drop(dir);
        }
    }
}
