//! The watch over real stores: scopes, cursors, hidden records, the clone's queue.

use super::*;
use crate::ops::{facts, projects};

fn demo() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(".relay");
    Store::create(&root, "demo").unwrap();
    let store = Store::open(root).unwrap();
    projects::create(&store, "demo", None, None).unwrap();
    projects::create(&store, "other", None, None).unwrap();
    (dir, store)
}

fn assert(store: &Store, project: &str, subject: &str) {
    let req = facts::AssertRequest {
        subject: subject.into(),
        predicate: "is".into(),
        value: "1".into(),
        source_package_id: None,
        confidence: None,
        tags: Vec::new(),
        valid_from: None,
        asserted_by: serde_json::json!({"id": "me", "type": "human"}),
        actor_explicit: true,
        expires_at: None,
        extensions: Default::default(),
    };
    facts::assert(store, project, &req).unwrap();
}

/// What the pre-commit hook does: writes out of queued mode, the queue moved into the store.
fn flush_queue(store: &mut Store) {
    store.set_queued(false);
    for q in store.queued_files().unwrap() {
        store.flush_queued(&q).unwrap();
    }
    assert!(store.queued_files().unwrap().is_empty());
}

fn drain(store: &Store, w: &mut Watch) -> Vec<Event> {
    let mut got = Vec::new();
    w.poll(store, &mut |e| {
        got.push(e);
        Ok(true)
    })
    .unwrap();
    got
}

#[test]
fn collect_stops_at_its_limit_and_its_cursor_goes_on_from_there() {
    let (_dir, store) = demo();
    let all = || Scope {
        projects: None,
        kinds: vec![EventKind::Fact],
    };
    let (none, start) = collect(&store, all(), Since::Now, 10, Duration::ZERO).unwrap();
    assert!(none.is_empty());
    for subject in ["a", "b", "c"] {
        assert(&store, "demo", subject);
    }
    let since = || Since::parse(&start).unwrap();
    let (two, cursor) = collect(&store, all(), since(), 2, Duration::ZERO).unwrap();
    assert_eq!(two.len(), 2);
    assert_eq!(cursor, two[1].cursor);
    let (rest, end) = collect(
        &store,
        all(),
        Since::parse(&cursor).unwrap(),
        10,
        Duration::ZERO,
    )
    .unwrap();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].record["subject"], "c");
    assert_eq!(end, rest[0].cursor);
    // A long poll with nothing new waits, then answers empty.
    let (later, _) = collect(
        &store,
        all(),
        Since::parse(&end).unwrap(),
        10,
        Duration::from_millis(20),
    )
    .unwrap();
    assert!(later.is_empty());
}

fn retract(store: &Store, id: &str, reason: &str) {
    let req = crate::ops::packages::retract::RetractRequest {
        id: id.into(),
        reason: reason.into(),
        actor: crate::ops::Actor {
            id: "ana".into(),
            actor_type: "human".into(),
        },
        session_id: None,
        project_hint: Some("demo".into()),
    };
    crate::ops::packages::retract::retract(store, &req).unwrap();
}

#[test]
fn a_replay_names_hidden_records_and_says_why_never_their_content() {
    use crate::ops::packages::deposit::{deposit, test_support::context};
    let (_dir, store) = demo();
    for (id, title) in [("pkg_gone", "secret plan"), ("pkg_kept", "kept plan")] {
        let input = json!({"package_id": id, "title": title,
            "status": "awaiting_review", "review_type": "human"});
        deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
    }
    crate::ops::packages::deposit::test_support::approve(&store, "pkg_gone");
    let fact = |id: &str, value: &str, extra: Value| {
        let mut v = json!({"fact_id": id, "project_id": "demo", "subject": id,
            "predicate": "is", "value": value, "valid_from": "2026-01-01T00:00:00Z",
            "created_at": "2026-01-01T00:00:00Z"});
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        relay_wire::Fact::from_value(v).unwrap()
    };
    let facts = [
        fact(
            "fact_old",
            "stale secret",
            json!({"x-expires-at": "2026-02-01T00:00:00Z"}),
        ),
        fact(
            "fact_src",
            "derived secret",
            json!({"source_package_id": "pkg_gone"}),
        ),
    ];
    let log = store.facts_log("demo");
    store
        .append_records(&log, &facts.iter().collect::<Vec<_>>())
        .unwrap();
    retract(&store, "pkg_gone", "leaked");
    let all = || Scope {
        projects: None,
        kinds: Vec::new(),
    };
    let (events, _) = collect(&store, all(), Since::Beginning, 100, Duration::ZERO).unwrap();
    let text = serde_json::to_string(&events).unwrap();
    for secret in ["secret plan", "stale secret", "derived secret"] {
        assert!(!text.contains(secret), "{secret}: {text}");
    }
    let hidden: Vec<(EventKind, &str, &str)> = (events.iter())
        .filter(|e| matches!(e.kind, EventKind::Retracted | EventKind::Expired))
        .map(|e| {
            let r = &e.record;
            (
                e.kind,
                r["id"].as_str().unwrap(),
                r["because"].as_str().unwrap(),
            )
        })
        .collect();
    // The package once (not once per version, nor again for its retraction line).
    assert_eq!(
        hidden,
        [
            (EventKind::Retracted, "pkg_gone", "retracted"),
            (EventKind::Expired, "fact_old", "expired"),
            (EventKind::Retracted, "fact_src", "source_retracted"),
        ]
    );
    let gone = events
        .iter()
        .find(|e| e.record["id"] == "pkg_gone")
        .unwrap();
    assert_eq!(gone.record["retraction"]["reason"], "leaked");
    assert_eq!(gone.project_id.as_deref(), Some("demo"));
    let kept = events.iter().filter(|e| e.kind == EventKind::Package);
    assert_eq!(kept.count(), 1);
    // Asked for facts only, a hidden fact still comes in its place.
    let facts_only = Scope {
        projects: None,
        kinds: vec![EventKind::Fact],
    };
    let (events, _) = collect(&store, facts_only, Since::Beginning, 100, Duration::ZERO).unwrap();
    let kinds: Vec<EventKind> = events.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [EventKind::Expired, EventKind::Retracted]);
}

#[test]
fn a_retraction_made_while_watching_comes_as_an_event() {
    let (_dir, store) = demo();
    let scope = Scope {
        projects: Some(vec!["demo".into()]),
        kinds: vec![EventKind::Fact],
    };
    let mut w = Watch::open(&store, scope, Since::Now).unwrap();
    assert(&store, "demo", "api");
    let got = drain(&store, &mut w);
    assert_eq!(got.len(), 1);
    let id = got[0].record["fact_id"].as_str().unwrap().to_string();
    retract(&store, &id, "wrong");
    let got = drain(&store, &mut w);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].kind, EventKind::Retracted);
    assert_eq!(got[0].record["id"], id.as_str());
    assert_eq!(got[0].record["record"], "fact");
    assert_eq!(got[0].record["retraction"]["reason"], "wrong");
    assert!(drain(&store, &mut w).is_empty());
    // Resumed from before the assert, the fact comes as its retraction, once.
    let mut again = Watch::open(
        &store,
        Scope {
            projects: None,
            kinds: Vec::new(),
        },
        Since::Beginning,
    )
    .unwrap();
    let replay: Vec<EventKind> = drain(&store, &mut again).iter().map(|e| e.kind).collect();
    assert_eq!(
        replay,
        [EventKind::Project, EventKind::Project, EventKind::Retracted]
    );
}

#[test]
fn kinds_parse_from_a_list_and_name_what_is_wrong() {
    assert_eq!(
        EventKind::parse_list("package, fact,").unwrap(),
        [EventKind::Package, EventKind::Fact]
    );
    let err = EventKind::parse_list("package,resync").unwrap_err();
    assert!(err.to_string().contains("`resync`"), "{err}");
    assert!(matches!(Since::parse("now"), Ok(Since::Now)));
    assert!(Since::parse("tomorrow").is_err());
}

#[test]
fn a_watch_gives_its_scope_and_its_cursor_covers_every_log() {
    let (_dir, store) = demo();
    let scope = Scope {
        projects: Some(vec!["demo".into()]),
        kinds: vec![EventKind::Fact],
    };
    let mut w = Watch::open(&store, scope, Since::Now).unwrap();
    assert(&store, "other", "x");
    assert(&store, "demo", "y");
    let got = drain(&store, &mut w);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].kind, EventKind::Fact);
    assert_eq!(got[0].record["subject"], "y");
    // Resumed with every kind and project, the cursor still means "after this".
    let all = Scope {
        projects: None,
        kinds: Vec::new(),
    };
    let since = Since::parse(&w.cursor()).unwrap();
    let mut again = Watch::open(&store, all, since).unwrap();
    assert!(drain(&store, &mut again).is_empty());
    assert(&store, "other", "z");
    let got = drain(&store, &mut again);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].project_id.as_deref(), Some("other"));
}

#[test]
fn a_queued_record_is_announced_when_it_enters_the_queue_and_not_again_when_flushed() {
    use crate::ops::packages::deposit::{deposit, test_support::context};
    let (_dir, mut store) = demo();
    let scope = || Scope {
        projects: None,
        kinds: Vec::new(),
    };
    let mut early = Watch::open(&store, scope(), Since::Now).unwrap();
    store.set_queued(true);
    let input = json!({"package_id": "pkg_hooked", "title": "from a hook"});
    deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
    let got = drain(&store, &mut early);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].kind, EventKind::Package);
    assert_eq!(got[0].record["package"]["package_id"], "pkg_hooked");
    // Opened while the record waits in the queue: it is there already, as for a log.
    let mut late = Watch::open(&store, scope(), Since::Now).unwrap();
    let mut replay = Watch::open(&store, scope(), Since::Beginning).unwrap();
    let packages = |got: Vec<Event>| {
        got.into_iter()
            .filter(|e| e.kind == EventKind::Package)
            .count()
    };
    assert_eq!(packages(drain(&store, &mut replay)), 1);

    flush_queue(&mut store);
    std::thread::sleep(Duration::from_millis(400));
    for w in [&mut early, &mut late, &mut replay] {
        assert!(drain(&store, w).is_empty());
        // Twice: the queued month is found gone only after a while.
        assert!(drain(&store, w).is_empty());
    }
    // What is written after the flush is announced as ever, once.
    let input = json!({"package_id": "pkg_after", "title": "by hand"});
    deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
    let got = drain(&store, &mut early);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].record["package"]["package_id"], "pkg_after");
    // A cursor taken while the record waited in the queue: resumed after the flush, it
    // does not hear of the record again.
    store.set_queued(true);
    let input = json!({"package_id": "pkg_second", "title": "from a hook again"});
    deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
    // A queued month made anew where one was flushed is left to settle first.
    let mut got = drain(&store, &mut early);
    std::thread::sleep(Duration::from_millis(200));
    got.extend(drain(&store, &mut early));
    assert_eq!(got.len(), 1, "{got:?}");
    let before_flush = early.cursor();
    flush_queue(&mut store);
    let since = Since::Cursor(Cursor::decode(&before_flush).unwrap());
    let mut resumed = Watch::open(&store, scope(), since).unwrap();
    assert!(drain(&store, &mut resumed).is_empty());
    // A cursor taken after the flush goes on from there.
    std::thread::sleep(Duration::from_millis(400));
    assert!(drain(&store, &mut early).is_empty());
    assert!(drain(&store, &mut early).is_empty());
    let since = Since::Cursor(Cursor::decode(&early.cursor()).unwrap());
    let mut resumed = Watch::open(&store, scope(), since).unwrap();
    assert!(drain(&store, &mut resumed).is_empty());
}

#[test]
fn a_line_in_both_the_queue_and_its_tracked_month_is_announced_once() {
    use crate::ops::packages::deposit::{deposit, test_support::context};
    let (_dir, mut store) = demo();
    store.set_queued(true);
    let input = json!({"package_id": "pkg_twice", "title": "from a hook"});
    deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
    // A flush that moved the line but was cut short before it removed the queued month.
    let queued = store.queued_files().unwrap();
    let kept: Vec<(std::path::PathBuf, Vec<u8>)> = queued
        .iter()
        .map(|q| (q.queued.clone(), std::fs::read(&q.queued).unwrap()))
        .collect();
    store.set_queued(false);
    for q in &queued {
        store.flush_queued(q).unwrap();
    }
    for (path, bytes) in &kept {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let scope = Scope {
        projects: None,
        kinds: vec![EventKind::Package],
    };
    let mut w = Watch::open(&store, scope, Since::Beginning).unwrap();
    let got = drain(&store, &mut w);
    let ids: Vec<&Value> = got
        .iter()
        .map(|e| &e.record["package"]["package_id"])
        .collect();
    assert_eq!(ids, [&json!("pkg_twice")]);
}
