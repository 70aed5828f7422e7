//! relay as a library: create a store, deposit two packages, pull them back (the latest, and one
//! by id), assert a fact, supersede it, and read it. Everything the CLI does goes through these
//! same functions.
//!
//! `cargo run --example library [DIR]` works in DIR/.relay (created if missing), or in a fresh
//! folder under the system's temp folder that it removes afterwards.

use std::path::PathBuf;

use relay::ops::facts::{self, AssertRequest};
use relay::ops::packages::deposit::{DepositContext, Form, deposit};
use relay::ops::{Actor, packages::pull, projects};
use relay::search::filter::Filter;
use relay::store::Store;
use relay::wire::time;
use serde_json::{Map, Value, json};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (dir, scratch) = match std::env::args_os().nth(1) {
        Some(d) => (PathBuf::from(d), false),
        None => {
            let unique = format!("relay-library-example-{}", std::process::id());
            (std::env::temp_dir().join(unique), true)
        }
    };
    let result = run(&dir);
    if scratch {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

fn run(dir: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    // A store is a `.relay/` folder; `create` is idempotent, `open` reads its config.
    let root = dir.join(".relay");
    let project = "demo";
    Store::create(&root, project)?;
    let store = Store::open(root.clone())?;
    projects::ensure(&store, project, Some("Library example"))?;
    println!("created a store at {}", root.display());

    let actor = Actor {
        id: "example-agent".into(),
        actor_type: "agent".into(),
    };
    let ctx = |now| DepositContext {
        project_id: project.into(),
        actor: actor.clone(),
        session_id: None,
        git_commit: None,
        attribution_explicit: true,
        now,
        // A deposit of this process, not a request from a client of a server.
        remote: false,
        // A partial package: relay fills in what it lacks, as the CLI's flags do.
        form: Form::Filled,
    };

    // Deposit: a partial wire package; relay fills in id, time, project, status and author.
    let first = deposit(
        &store,
        fields(json!({
            "title": "Moved sessions to Redis",
            "package_type": "decision",
            "decisions_made": ["Redis over Postgres for sessions: 10x fewer writes"],
            "open_questions": ["Do sessions need to survive a restart?"],
            "handoff_note": "Load-test the Redis cluster before Friday",
        })),
        &ctx(time::now()),
    )?;
    println!(
        "deposited {} ({})",
        first.package.id(),
        first.package.title()
    );
    let second = deposit(
        &store,
        fields(json!({"title": "Load test passed", "tags": ["infra"]})),
        &ctx(time::now() + chrono::Duration::seconds(1)),
    )?;
    println!(
        "deposited {} ({})",
        second.package.id(),
        second.package.title()
    );

    // Pull: the newest packages, then one by id, checked against its stored hash.
    let scope = [project.to_string()];
    let latest = pull::latest(&store, &scope, &Filter::default(), 5)?;
    println!("latest: {}", latest[0].package.title());
    assert_eq!(latest[0].package.id(), second.package.id());
    let again = pull::specific(store.view(), first.package.id())?;
    assert_eq!(again.hash, first.hash);
    println!(
        "pulled {} by id: handoff {:?}",
        again.package.id(),
        again.package.str_field("handoff_note").unwrap_or_default()
    );

    // Facts: a new value supersedes the current one in one atomic write.
    let by = json!({"id": actor.id, "type": actor.actor_type});
    for value in ["staging", "live"] {
        let asserted = facts::assert(
            &store,
            project,
            &AssertRequest {
                subject: "sessions".into(),
                predicate: "backend".into(),
                value: format!("redis ({value})"),
                asserted_by: by.clone(),
                actor_explicit: true,
                ..AssertRequest::default()
            },
        )?;
        println!(
            "asserted sessions backend = {} (superseded {})",
            asserted.fact.value(),
            asserted.superseded.len()
        );
    }
    let current = facts::get(
        &store,
        project,
        "sessions",
        "backend",
        None,
        Default::default(),
    )?;
    println!("fact now: sessions backend = {}", current.value());
    assert_eq!(current.value(), "redis (live)");
    Ok(())
}

fn fields(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}
