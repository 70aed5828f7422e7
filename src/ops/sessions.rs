//! Sessions (§5.5): start one with a callsign, end it, and ask what happened in it. A session
//! line is appended at start and a closing version at end; `packages_deposited` is always
//! computed from the packages, and written into the record when the session ends.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{Actor, callsign};
use crate::error::{Error, Result};
use crate::store::Store;
use crate::store::local::CurrentSession;
use crate::store::packages::StoredPackage;
use crate::wire::{Session, ids, time};

/// A session with the packages deposited in it so far.
#[derive(Debug, Clone)]
pub struct SessionView {
    /// The session, with `packages_deposited` brought up to date.
    pub session: Session,
    /// Its packages, oldest first.
    pub packages: Vec<StoredPackage>,
}

/// The packages of a project by the session that deposited them, oldest first.
fn packages_by_session(
    store: &Store,
    project_id: &str,
) -> Result<BTreeMap<String, Vec<StoredPackage>>> {
    packages_by_session_at(store, project_id, None)
}

/// [`packages_by_session`], or as the store stood at `as_of` (a snapshot read).
fn packages_by_session_at(
    store: &Store,
    project_id: &str,
    as_of: Option<time::Timestamp>,
) -> Result<BTreeMap<String, Vec<StoredPackage>>> {
    let packages: Vec<StoredPackage> = match as_of {
        Some(t) => super::snapshot::packages_at(store, project_id, t)?,
        None => store.current_packages(project_id)?.into_values().collect(),
    };
    let mut out: BTreeMap<String, Vec<StoredPackage>> = BTreeMap::new();
    for p in packages {
        if let Some(s) = p.package.created_by().session_id {
            out.entry(s.to_string()).or_default().push(p);
        }
    }
    for list in out.values_mut() {
        list.sort_by_cached_key(|p| (p.package.created_at(), p.package.id().to_string()));
    }
    Ok(out)
}

fn with_packages(session: Session, packages: Vec<StoredPackage>) -> Result<SessionView> {
    let mut map = session.into_map();
    let ids: Vec<Value> = packages.iter().map(|p| json!(p.package.id())).collect();
    map.insert("packages_deposited".into(), Value::Array(ids));
    Ok(SessionView {
        session: Session::from_map(map)?,
        packages,
    })
}

/// Starts a session for `actor` in a project. `requested` is a callsign to use instead of a
/// generated one; it must not belong to another open session of the project.
pub fn start(
    store: &Store,
    project_id: &str,
    actor: &Actor,
    requested: Option<&str>,
) -> Result<Session> {
    let guarded = super::secrets::guard_fields(
        store,
        &[
            ("actor_id", actor.id.as_str()),
            ("callsign", requested.unwrap_or_default()),
        ],
    )?;
    let actor = &Actor {
        id: guarded[0].clone(),
        actor_type: actor.actor_type.clone(),
    };
    let requested = requested.map(|_| guarded[1].as_str());
    if requested.is_some_and(|c| c.trim().is_empty()) {
        return Err(Error::InvalidInput("a callsign must not be empty".into()));
    }
    let _lock = store.lock_project(project_id)?;
    let project = super::projects::get(store, project_id)?;
    if project.is_archived() {
        return Err(Error::ProjectArchived(project_id.to_string()));
    }
    let sessions = store.sessions(project_id)?;
    let taken: Vec<&str> = sessions
        .values()
        .filter(|s| s.is_active())
        .filter_map(|s| s.callsign())
        .collect();
    let name = match requested {
        Some(c) if taken.contains(&c) => return Err(Error::CallsignInUse(c.to_string())),
        Some(c) => c.to_string(),
        None => callsign::generate(&taken),
    };
    let session = Session::from_value(json!({
        "session_id": ids::new_id("sess"),
        "project_id": project_id,
        "actor_id": actor.id,
        "actor_type": actor.actor_type,
        "callsign": name,
        "started_at": time::format(time::now()),
        "ended_at": null,
        "packages_deposited": [],
    }))?;
    store.append_session(project_id, &session)?;
    Ok(session)
}

/// Finds a session by id or callsign in `projects` (searched in order). A callsign names the
/// open session that holds it, else the one that started last.
pub fn resolve(store: &Store, projects: &[String], key: &str) -> Result<Session> {
    for project in projects {
        let sessions = store.sessions_mentioning(project, key)?;
        if let Some(s) = sessions.get(key) {
            return Ok(s.clone());
        }
        let by_callsign = sessions
            .values()
            .filter(|s| s.callsign() == Some(key))
            .max_by_key(|s| {
                (
                    s.is_active(),
                    s.str_field("started_at").and_then(|t| time::parse(t).ok()),
                )
            });
        if let Some(s) = by_callsign {
            return Ok(s.clone());
        }
    }
    Err(Error::SessionNotFound(key.to_string()))
}

/// Ends a session: appends its closing version with `ended_at` and `packages_deposited`.
/// Ending an ended session returns it unchanged.
pub fn end(store: &Store, session: &Session) -> Result<SessionView> {
    let project_id = session
        .str_field("project_id")
        .unwrap_or_default()
        .to_string();
    let _lock = store.lock_project(&project_id)?;
    let current = store
        .sessions(&project_id)?
        .remove(session.id())
        .ok_or_else(|| Error::SessionNotFound(session.id().to_string()))?;
    let packages = packages_by_session(store, &project_id)?
        .remove(current.id())
        .unwrap_or_default();
    if !current.is_active() {
        return with_packages(current, packages);
    }
    let mut map = current.into_map();
    map.insert("ended_at".into(), Value::String(time::format(time::now())));
    let view = with_packages(Session::from_map(map)?, packages)?;
    store.append_session(&project_id, &view.session)?;
    if store
        .current_session()
        .is_some_and(|c| c.session_id == view.session.id())
    {
        store.set_current_session(None)?;
    }
    Ok(view)
}

/// The sessions of a project, oldest first, with their packages.
pub fn list(store: &Store, project_id: &str, active_only: bool) -> Result<Vec<SessionView>> {
    list_at(store, project_id, active_only, None)
}

/// A session as it stood at `t`: `None` if it had not started; still open if it ended since.
fn session_at(s: Session, t: time::Timestamp) -> Result<Option<Session>> {
    let at = |member: &str| s.str_field(member).and_then(|v| time::parse(v).ok());
    if at("started_at").is_none_or(|started| started > t) {
        return Ok(None);
    }
    if at("ended_at").is_none_or(|ended| ended <= t) {
        return Ok(Some(s));
    }
    let mut map = s.into_map();
    map.insert("ended_at".into(), Value::Null);
    Ok(Some(Session::from_map(map)?))
}

/// [`list`], or for a snapshot read the sessions as they were at `as_of`: those started by
/// then, open if they ended since, with the packages deposited by then.
pub fn list_at(
    store: &Store,
    project_id: &str,
    active_only: bool,
    as_of: Option<time::Timestamp>,
) -> Result<Vec<SessionView>> {
    let mut by_session = packages_by_session_at(store, project_id, as_of)?;
    let mut out = Vec::new();
    for s in store.sessions(project_id)?.into_values() {
        let s = match as_of {
            Some(t) => match session_at(s, t)? {
                Some(s) => s,
                None => continue,
            },
            None => s,
        };
        if active_only && !s.is_active() {
            continue;
        }
        let packages = by_session.remove(s.id()).unwrap_or_default();
        out.push(with_packages(s, packages)?);
    }
    out.sort_by_cached_key(|v| {
        (
            v.session
                .str_field("started_at")
                .and_then(|t| time::parse(t).ok()),
            v.session.id().to_string(),
        )
    });
    Ok(out)
}

/// One session and its packages.
pub fn view(store: &Store, session: Session) -> Result<SessionView> {
    let project_id = session
        .str_field("project_id")
        .unwrap_or_default()
        .to_string();
    let packages = packages_by_session(store, &project_id)?
        .remove(session.id())
        .unwrap_or_default();
    with_packages(session, packages)
}

/// Makes `session` this clone's current session.
pub fn make_current(store: &Store, session: &Session) -> Result<()> {
    store.set_current_session(Some(&CurrentSession {
        project_id: session
            .str_field("project_id")
            .unwrap_or_default()
            .to_string(),
        session_id: session.id().to_string(),
    }))
}

/// Ends the session named by `key` (an id or callsign, looked for in `projects` in order), else
/// the acting one of [`acting`] with `explicit`; `None` when none is named and none is acting.
pub fn end_named(
    store: &Store,
    projects: &[String],
    key: Option<&str>,
    explicit: Option<&str>,
) -> Result<Option<SessionView>> {
    let target = match key {
        Some(key) => Some(resolve(store, projects, key)?),
        None => acting(store, projects, explicit)?,
    };
    target.map(|s| end(store, &s)).transpose()
}

/// The session a command acts in: `explicit` (an id or callsign from `--session` /
/// `RELAY_SESSION`), else the clone's current session. An explicit session that does not exist
/// is an error; a stale clone setting is ignored.
pub fn acting(
    store: &Store,
    projects: &[String],
    explicit: Option<&str>,
) -> Result<Option<Session>> {
    if let Some(key) = explicit.filter(|k| !k.is_empty()) {
        return resolve(store, projects, key).map(Some);
    }
    let Some(cur) = store.current_session() else {
        return Ok(None);
    };
    Ok(store
        .sessions_mentioning(&cur.project_id, &cur.session_id)?
        .remove(&cur.session_id))
}

/// Fails unless `session_id` is an open session of the project. Writers call it under the
/// project lock, so no write lands in a session after its end.
pub fn ensure_open(store: &Store, project_id: &str, session_id: &str) -> Result<()> {
    match store
        .sessions_mentioning(project_id, session_id)?
        .get(session_id)
    {
        Some(s) if s.is_active() => Ok(()),
        Some(s) => Err(Error::SessionEnded(
            s.callsign().unwrap_or(s.id()).to_string(),
        )),
        None => Err(Error::SessionNotFound(session_id.to_string())),
    }
}

/// The session a write in `project_id` records: `explicit` (id or callsign), which must be an
/// open session of that project; else the clone's current session if it is open and belongs
/// to that project.
pub fn for_write(
    store: &Store,
    project_id: &str,
    explicit: Option<&str>,
) -> Result<Option<Session>> {
    let projects = [project_id.to_string()];
    match acting(store, &projects, explicit)? {
        Some(s) if s.str_field("project_id") != Some(project_id) => Ok(None),
        Some(s) if !s.is_active() => match explicit {
            Some(_) => Err(Error::SessionEnded(
                s.callsign().unwrap_or(s.id()).to_string(),
            )),
            None => Ok(None),
        },
        Some(s) => Ok(Some(s)),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::deposit::deposit;
    use crate::ops::deposit::test_support::{context, store_with};

    fn claude() -> Actor {
        Actor {
            id: "claude".into(),
            actor_type: "agent".into(),
        }
    }

    #[test]
    fn a_session_records_its_packages_and_refuses_writes_once_ended() {
        let (_dir, store) = store_with(&["demo"]);
        let s = start(&store, "demo", &claude(), Some("coral-heron")).unwrap();
        assert_eq!(s.callsign(), Some("coral-heron"));
        let clash = start(&store, "demo", &claude(), Some("coral-heron")).unwrap_err();
        assert_eq!(clash.code(), "callsign_in_use");
        let mut ctx = context("demo");
        ctx.session_id = Some(s.id().to_string());
        let input = json!({"title": "In the session"});
        let done = deposit(&store, input.as_object().unwrap().clone(), &ctx).unwrap();
        let id = done.package.id().to_string();
        assert!(ensure_open(&store, "demo", s.id()).is_ok());

        let ended = end(&store, &s).unwrap();
        assert_eq!(ended.session.list("packages_deposited"), [id.as_str()]);
        assert!(!ended.session.is_active());
        let e = ensure_open(&store, "demo", s.id()).unwrap_err();
        assert_eq!(e.code(), "session_ended");
        // Ending again changes nothing; the callsign is free again.
        let again = end(&store, &s).unwrap();
        assert_eq!(again.session, ended.session);
        assert!(start(&store, "demo", &claude(), Some("coral-heron")).is_ok());
    }

    #[test]
    fn a_callsign_names_the_open_session_before_older_ones() {
        let (_dir, store) = store_with(&["demo"]);
        let old = start(&store, "demo", &claude(), Some("amber-fox")).unwrap();
        end(&store, &old).unwrap();
        let new = start(&store, "demo", &claude(), Some("amber-fox")).unwrap();
        let projects = ["demo".to_string()];
        assert_eq!(
            resolve(&store, &projects, "amber-fox").unwrap().id(),
            new.id()
        );
        assert_eq!(resolve(&store, &projects, old.id()).unwrap().id(), old.id());
        let e = resolve(&store, &projects, "no-such").unwrap_err();
        assert_eq!(e.code(), "session_not_found");
        let listed: Vec<String> = (list(&store, "demo", false).unwrap().iter())
            .map(|v| v.session.id().to_string())
            .collect();
        assert_eq!(listed, [old.id(), new.id()]);
        assert_eq!(list(&store, "demo", true).unwrap().len(), 1);
    }
}
