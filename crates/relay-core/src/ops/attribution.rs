//! Attribution: who writes, in which session, from which commit. Every transport names what the
//! caller claimed (a [`Claim`]) and gets the same answer here, so a deposit made from the CLI,
//! an MCP tool or the HTTP server is attributed by one rule (DESIGN §3 "Identity").

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::ops::facts::{AssertRequest, Asserted};
use crate::ops::packages::deposit::{DepositContext, Deposited};
use crate::ops::packages::review::{Action, TransitionRequest};
use crate::ops::trust::identity::Actor;
use crate::request::deposit::Form;
use crate::resolve::environment::Environment;
use crate::search::filter::Viewer;
use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_wire::error::Result;
use relay_wire::time;

pub use crate::request::caller::Claim;

impl Claim {
    /// The claim `env` makes (`RELAY_ACTOR`, `RELAY_SESSION`, as set), for readers.
    pub fn of_environment(env: &Environment) -> Claim {
        Claim {
            actor: env.actor(),
            actor_type: None,
            session: env.session(),
            remote: false,
        }
    }
}

/// The actor alone (no session): the claim, then config, git `user.email` and `$USER`.
pub fn actor(store: &Store, cwd: &Path, claim: &Claim) -> Result<Actor> {
    Actor::resolve(
        claim.actor.as_deref(),
        claim.actor_type.as_deref(),
        store.config(),
        cwd,
        Environment::process(),
    )
}

/// Who writes into `project_id`, and in which session: the claimed session, else (unless the
/// claim is remote) the clone's current session when it belongs to that project; the actor
/// is the claimed one, else the session's actor, else the usual defaults.
pub fn writer(
    store: &Store,
    cwd: &Path,
    project_id: &str,
    claim: &Claim,
) -> Result<(Actor, Option<String>)> {
    let session = match (&claim.session, claim.remote) {
        (None, true) => None,
        (named, _) => crate::ops::sessions::for_write(store, project_id, named.as_deref())?,
    };
    let actor = match (&claim.actor, &session) {
        (None, Some(s)) => Actor {
            id: s.str_field("actor_id").unwrap_or_default().to_string(),
            actor_type: claim
                .actor_type
                .clone()
                .unwrap_or_else(|| s.str_field("actor_type").unwrap_or("human").to_string()),
        },
        _ => actor(store, cwd, claim)?,
    };
    Ok((actor.guarded(store)?, session.map(|s| s.id().to_string())))
}

/// Who is looking, for what listings show (drafts are visible to their creator): the writer
/// identity a deposit here would record.
pub fn viewer(store: &Store, cwd: &Path, project_id: &str) -> Result<Actor> {
    let env = Environment::process();
    let claim = Claim::of_environment(env);
    match writer(store, cwd, project_id, &claim) {
        Ok((actor, _)) => Ok(actor),
        Err(_) => Actor::resolve(claim.actor.as_deref(), None, store.config(), cwd, env),
    }
}

/// The viewer of [`viewer`], worked out only if a listing meets a draft: resolving it may run
/// git, which would otherwise cost every listing a few milliseconds.
pub fn deferred_viewer(store: &Store, cwd: &Path, project_id: &str) -> Viewer {
    let (root, cwd, project) = (
        store.root().to_path_buf(),
        cwd.to_path_buf(),
        project_id.to_string(),
    );
    Viewer::deferred(move || {
        let store = Store::open(root.clone()).ok()?;
        viewer(&store, &cwd, &project).ok().map(|a| a.id)
    })
}

/// Deposits a whole or partial package into `project_id`. When the input has no `created_by`,
/// relay attributes it: the writer identity of the claim and (unless the claim is remote) the
/// HEAD commit of the work tree at `cwd`.
pub fn deposit(
    store: &Store,
    cwd: &Path,
    input: Map<String, Value>,
    project_id: String,
    claim: &Claim,
) -> Result<Deposited> {
    deposit_in(store, cwd, input, project_id, claim, Form::Filled)
}

/// [`deposit`] of a package taken in `form`: whole, as the protocol takes it, or with what it
/// lacks filled in.
pub fn deposit_in(
    store: &Store,
    cwd: &Path,
    input: Map<String, Value>,
    project_id: String,
    claim: &Claim,
    form: Form,
) -> Result<Deposited> {
    let attribute = !input.contains_key("created_by");
    let git_commit = if attribute && !claim.remote {
        crate::ops::git::head_commit(cwd)
    } else {
        None
    };
    let (actor, session_id) = if attribute {
        writer(store, cwd, &project_id, claim)?
    } else {
        (actor(store, cwd, claim)?, None)
    };
    let context = DepositContext {
        attribution_explicit: claim.actor.is_some()
            || claim.actor_type.is_some()
            || claim.session.is_some(),
        actor,
        project_id,
        session_id,
        git_commit,
        now: time::now(),
        remote: claim.remote,
        form,
    };
    crate::ops::packages::deposit::deposit(store, input, &context)
}

/// Asserts a fact in `project` as the writer of the claim (`asserted_by`).
pub fn assert(
    store: &Store,
    cwd: &Path,
    project: &str,
    mut req: AssertRequest,
    claim: &Claim,
) -> Result<Asserted> {
    let (actor, session_id) = writer(store, cwd, project, claim)?;
    let mut by = json!({"id": actor.id, "type": actor.actor_type});
    if let Some(s) = session_id {
        by["session_id"] = json!(s);
    }
    req.asserted_by = by;
    req.actor_explicit = claim.actor.is_some() || claim.actor_type.is_some();
    crate::ops::facts::assert(store, project, &req)
}

/// Applies a review action to a package of any project, as the claim's writer in that
/// package's project.
pub fn transition(
    store: &Store,
    cwd: &Path,
    package_id: &str,
    action: Action,
    note: Option<String>,
    claim: &Claim,
) -> Result<StoredPackage> {
    let target = crate::ops::packages::pull::specific(store.view(), package_id)?;
    let (actor, session_id) = writer(store, cwd, target.package.project_id(), claim)?;
    let req = TransitionRequest {
        action,
        note,
        actor,
        session_id,
    };
    crate::ops::packages::review::transition(store, target.package.id(), &req)
}

/// Retracts a package or fact of any project, as the claim's writer in that record's project.
pub fn retract(
    store: &Store,
    cwd: &Path,
    id: &str,
    reason: &str,
    project_hint: Option<String>,
    claim: &Claim,
) -> Result<crate::ops::packages::retract::Retracted> {
    let (_, project, id) =
        crate::ops::packages::retract::locate(store, id, project_hint.as_deref())?;
    let (actor, session_id) = writer(store, cwd, &project, claim)?;
    crate::ops::packages::retract::retract(
        store,
        &crate::ops::packages::retract::RetractRequest {
            id,
            reason: reason.to_string(),
            actor,
            session_id,
            project_hint: Some(project),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo() -> (tempfile::TempDir, Store) {
        crate::ops::packages::deposit::test_support::store_with(&["demo"])
    }

    fn titled(title: &str) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("title".into(), json!(title));
        map
    }

    #[test]
    fn a_deposit_in_a_session_is_its_actors_unless_another_is_claimed() {
        let (dir, store) = demo();
        let agent = Actor {
            id: "agent-7".into(),
            actor_type: "agent".into(),
        };
        let s = crate::ops::sessions::start(&store, "demo", &agent, None).unwrap();
        let claim = Claim {
            session: Some(s.id().to_string()),
            ..Claim::default()
        };
        let done = deposit(&store, dir.path(), titled("a"), "demo".into(), &claim).unwrap();
        let by = &done.package.to_value()["created_by"];
        assert_eq!(
            (by["id"].as_str(), by["type"].as_str()),
            (Some("agent-7"), Some("agent"))
        );
        assert_eq!(by["session_id"].as_str(), Some(s.id()));

        let claim = Claim {
            actor: Some("ada".into()),
            ..claim
        };
        let done = deposit(&store, dir.path(), titled("b"), "demo".into(), &claim).unwrap();
        let by = &done.package.to_value()["created_by"];
        assert_eq!(
            (by["id"].as_str(), by["type"].as_str()),
            (Some("ada"), Some("human"))
        );
        assert_eq!(by["session_id"].as_str(), Some(s.id()));
    }

    #[test]
    fn a_remote_claim_does_not_write_in_the_clones_current_session() {
        let (dir, store) = demo();
        let agent = Actor {
            id: "agent-7".into(),
            actor_type: "agent".into(),
        };
        let s = crate::ops::sessions::start(&store, "demo", &agent, None).unwrap();
        crate::ops::sessions::make_current(&store, &s).unwrap();
        let local = deposit(
            &store,
            dir.path(),
            titled("a"),
            "demo".into(),
            &Claim::default(),
        );
        let by = &local.unwrap().package.to_value()["created_by"];
        assert_eq!(by["session_id"].as_str(), Some(s.id()));

        let remote = Claim {
            actor: Some("bot".into()),
            actor_type: Some("script".into()),
            remote: true,
            ..Claim::default()
        };
        let done = deposit(&store, dir.path(), titled("b"), "demo".into(), &remote).unwrap();
        let by = &done.package.to_value()["created_by"];
        assert_eq!(by, &json!({"id": "bot", "type": "script"}));
        // A session it names is recorded.
        let named = Claim {
            session: Some(s.id().to_string()),
            ..remote
        };
        let done = deposit(&store, dir.path(), titled("c"), "demo".into(), &named).unwrap();
        let by = &done.package.to_value()["created_by"];
        assert_eq!(by["session_id"].as_str(), Some(s.id()));
    }

    #[test]
    fn a_given_created_by_is_kept_as_it_came() {
        let (dir, store) = demo();
        let mut input = titled("c");
        input.insert("created_by".into(), json!({"id": "bob", "type": "script"}));
        let claim = Claim {
            actor: Some("ada".into()),
            ..Claim::default()
        };
        let done = deposit(&store, dir.path(), input, "demo".into(), &claim).unwrap();
        let by = &done.package.to_value()["created_by"];
        assert_eq!(by, &json!({"id": "bob", "type": "script"}));
    }
}
