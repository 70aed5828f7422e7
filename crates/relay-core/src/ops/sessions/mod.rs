//! Sessions (§5.5): start one with a callsign, end it, and ask what happened in it. A session
//! line is appended at start and a closing version at end; `packages_deposited` is always
//! computed from the packages, and written into the record when the session ends.

pub mod callsign;
mod callsign_words;

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::ops::Actor;
use relay_store::CurrentSession;
use relay_store::packages::StoredPackage;
use relay_store::{Store, View};
use relay_wire::error::{Error, Result, SessionRef};
use relay_wire::{Session, ids, time};

/// A session with the packages deposited in it so far.
#[derive(Debug, Clone)]
pub struct SessionView {
    /// The session, with `packages_deposited` brought up to date.
    pub session: Session,
    /// Its packages, oldest first.
    pub packages: Vec<StoredPackage>,
}

/// The packages of each session of a project as `view` reads them (now, or as the store stood
/// at its time), each session's oldest first.
fn packages_by_session(
    view: View<'_>,
    project_id: &str,
) -> Result<BTreeMap<String, Vec<StoredPackage>>> {
    let packages = crate::ops::packages::snapshot::packages(view, project_id, None)?;
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
    let guarded = crate::ops::trust::secrets::guard_fields(
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
    let project = crate::ops::projects::get(store, project_id)?;
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
/// open session that holds it, else the one that started last. A callsign that two or more
/// open sessions hold (merged clones that each started one) names none of them: that is
/// [`Error::AmbiguousCallsign`], listing them, so that no one ends or writes into another's
/// session by its name. A short id, the start of one session's id
/// ([`crate::ops::short_ids`]), names that session when nothing has it as id or callsign.
pub fn resolve(store: &Store, projects: &[String], key: &str) -> Result<Session> {
    match resolve_whole(store, projects, key) {
        Err(Error::SessionNotFound(missing)) if missing == key => {
            match crate::ops::short_ids::session_id(store, projects, key)? {
                Some(id) => resolve_whole(store, projects, &id),
                None => Err(Error::SessionNotFound(missing)),
            }
        }
        other => other,
    }
}

/// [`resolve`] by a whole id or callsign.
fn resolve_whole(store: &Store, projects: &[String], key: &str) -> Result<Session> {
    for project in projects {
        let sessions = store.sessions_mentioning(project, key)?;
        if let Some(s) = sessions.get(key) {
            return Ok(s.clone());
        }
        let named: Vec<&Session> = (sessions.values())
            .filter(|s| s.callsign() == Some(key))
            .collect();
        let open: Vec<&Session> = named.iter().copied().filter(|s| s.is_active()).collect();
        if open.len() > 1 {
            return Err(ambiguous(project, key, open));
        }
        let by_callsign = named.into_iter().max_by_key(|s| {
            (
                s.is_active(),
                started(s),
                // A tie of start times is broken by the id, whatever the line order.
                s.id().to_string(),
            )
        });
        if let Some(s) = by_callsign {
            return Ok(s.clone());
        }
    }
    Err(Error::SessionNotFound(key.to_string()))
}

/// When a session started (`None` if its time does not parse).
fn started(s: &Session) -> Option<time::Timestamp> {
    s.str_field("started_at").and_then(|t| time::parse(t).ok())
}

/// Sessions oldest first, a tie of start times broken by the id: one order on every clone.
fn oldest_first(sessions: &mut [&Session]) {
    sessions.sort_by_cached_key(|s| (started(s), s.id().to_string()));
}

/// The error for a callsign that the open sessions `open` of `project` share.
fn ambiguous(project: &str, callsign: &str, mut open: Vec<&Session>) -> Error {
    oldest_first(&mut open);
    Error::AmbiguousCallsign {
        callsign: callsign.to_string(),
        project: project.to_string(),
        sessions: open.into_iter().map(session_ref).collect(),
    }
}

/// A session as errors and reports name it: id, actor and start.
pub fn session_ref(s: &Session) -> SessionRef {
    let field = |k: &str| s.str_field(k).unwrap_or_default().to_string();
    SessionRef {
        id: s.id().to_string(),
        actor_id: field("actor_id"),
        actor_type: field("actor_type"),
        started_at: field("started_at"),
    }
}

/// The callsigns that two or more open sessions hold, each with those sessions oldest first.
/// Within one clone a callsign is never given twice; merged clones can hold such pairs.
pub fn shared_callsigns<'a>(
    sessions: impl IntoIterator<Item = &'a Session>,
) -> BTreeMap<&'a str, Vec<&'a Session>> {
    let mut by_callsign: BTreeMap<&str, Vec<&Session>> = BTreeMap::new();
    for s in sessions.into_iter().filter(|s| s.is_active()) {
        if let Some(c) = s.callsign() {
            by_callsign.entry(c).or_default().push(s);
        }
    }
    by_callsign.retain(|_, list| list.len() > 1);
    for list in by_callsign.values_mut() {
        oldest_first(list);
    }
    by_callsign
}

/// The name each of `sessions` is shown by, keyed by session id: its callsign, or where open
/// sessions share its callsign, the callsign and the shortest prefix of the id (at least 8 hex digits) that
/// tells it from every other session of that callsign, e.g. `twin-fox (sess_0f3a9c21…)`. A
/// session without a callsign is shown by its id. The same sessions give the same labels on
/// every clone, whatever the order of their lines.
pub fn labels<'a>(sessions: impl IntoIterator<Item = &'a Session>) -> BTreeMap<String, String> {
    let all: Vec<&Session> = sessions.into_iter().collect();
    let shared = shared_callsigns(all.iter().copied());
    let mut out = BTreeMap::new();
    for s in &all {
        let label = match s.callsign() {
            None => s.id().to_string(),
            Some(c) if !shared.contains_key(c) => c.to_string(),
            Some(c) => {
                let namesakes: Vec<&str> = (all.iter())
                    .filter(|o| o.callsign() == Some(c))
                    .map(|o| o.id())
                    .collect();
                format!("{c} ({})", short_id(s.id(), &namesakes))
            }
        };
        out.insert(s.id().to_string(), label);
    }
    out
}

/// The shortest prefix of `id`, of at least `sess_` and 8 characters, that no other of `ids`
/// starts with, followed by `…`; the whole id when no prefix is enough.
fn short_id(id: &str, ids: &[&str]) -> String {
    const SHORTEST: usize = "sess_".len() + 8;
    for (end, _) in id.char_indices().skip(SHORTEST) {
        let prefix = &id[..end];
        if (ids.iter()).all(|other| *other == id || !other.starts_with(prefix)) {
            return format!("{prefix}…");
        }
    }
    id.to_string()
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
    let packages = packages_by_session(store.view(), &project_id)?
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

/// The sessions of a project, oldest first, with their packages; for a snapshot read (a
/// `view` with a time), the sessions as they were then: those started by then, open if they
/// ended since, with the packages deposited by then.
pub fn list(view: View<'_>, project_id: &str, active_only: bool) -> Result<Vec<SessionView>> {
    let (store, as_of) = (view.store(), view.as_of());
    let mut by_session = packages_by_session(view, project_id)?;
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
    let packages = packages_by_session(store.view(), &project_id)?
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
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};
    use relay_wire::error::ErrorKind;

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
        let listed: Vec<String> = (list(store.view(), "demo", false).unwrap().iter())
            .map(|v| v.session.id().to_string())
            .collect();
        assert_eq!(listed, [old.id(), new.id()]);
        assert_eq!(list(store.view(), "demo", true).unwrap().len(), 1);
    }

    /// A session of `actor` with `callsign` started at `at`, appended as a merge would bring
    /// it: no clone checked its callsign against the other's.
    fn merged_in(store: &Store, callsign: &str, actor: &str, id: &str, at: &str) -> Session {
        let s = Session::from_value(json!({
            "session_id": id, "project_id": "demo", "actor_id": actor, "actor_type": "human",
            "callsign": callsign, "started_at": at, "ended_at": null, "packages_deposited": [],
        }))
        .unwrap();
        store.append_session("demo", &s).unwrap();
        s
    }

    const ANA: &str = "sess_0000000000000000000000000000000a";
    const BOB: &str = "sess_0000000000000000000000000000000b";

    #[test]
    fn a_callsign_two_open_sessions_share_names_neither() {
        let (_dir, store) = store_with(&["demo"]);
        let projects = ["demo".to_string()];
        // Bob's line first: the order of lines must not change the answer.
        merged_in(&store, "twin-fox", "bob", BOB, "2026-01-01T10:00:00Z");
        merged_in(&store, "twin-fox", "ana", ANA, "2026-01-01T09:00:00Z");
        let e = resolve(&store, &projects, "twin-fox").unwrap_err();
        assert_eq!(
            (e.code(), e.kind()),
            ("callsign_in_use", ErrorKind::Conflict)
        );
        assert_eq!(
            e.to_string(),
            format!(
                "callsign `twin-fox` names 2 open sessions of project `demo` (merged clones each \
                 started one): {ANA} (ana, human, started 2026-01-01T09:00:00Z) and {BOB} (bob, \
                 human, started 2026-01-01T10:00:00Z); nothing was done: name the session by its \
                 id instead"
            )
        );
        // Ending by callsign ends nothing; the acting session and a write refuse it too.
        let before = std::fs::read(store.sessions_log("demo")).unwrap();
        let e = end_named(&store, &projects, Some("twin-fox"), None).unwrap_err();
        assert_eq!(e.code(), "callsign_in_use");
        assert_eq!(std::fs::read(store.sessions_log("demo")).unwrap(), before);
        assert!(acting(&store, &projects, Some("twin-fox")).is_err());
        assert!(for_write(&store, "demo", Some("twin-fox")).is_err());
        // By id, each is found and ended; then the callsign names the one still open.
        assert_eq!(resolve(&store, &projects, BOB).unwrap().id(), BOB);
        let ended = end_named(&store, &projects, Some(BOB), None)
            .unwrap()
            .unwrap();
        assert!(!ended.session.is_active());
        assert_eq!(resolve(&store, &projects, "twin-fox").unwrap().id(), ANA);
        end_named(&store, &projects, Some("twin-fox"), None).unwrap();
        // Both ended: the one that started last, as for any ended callsign.
        assert_eq!(resolve(&store, &projects, "twin-fox").unwrap().id(), BOB);
    }

    #[test]
    fn shared_callsigns_are_labelled_with_the_shortest_telling_id_prefix() {
        let (_dir, store) = store_with(&["demo"]);
        let alone = start(&store, "demo", &claude(), Some("amber-fox")).unwrap();
        merged_in(&store, "twin-fox", "bob", BOB, "2026-01-01T10:00:00Z");
        merged_in(&store, "twin-fox", "ana", ANA, "2026-01-01T09:00:00Z");
        let other = "sess_1234567800000000000000000000000b";
        merged_in(&store, "twin-fox", "cy", other, "2026-01-01T11:00:00Z");
        let all = store.sessions("demo").unwrap();
        let shared = shared_callsigns(all.values());
        let ids: Vec<(&str, Vec<&str>)> = (shared.iter())
            .map(|(c, list)| (*c, list.iter().map(|s| s.id()).collect()))
            .collect();
        assert_eq!(ids, [("twin-fox", vec![ANA, BOB, other])]);
        let labels = labels(all.values());
        assert_eq!(labels[alone.id()], "amber-fox");
        // Told apart by their last digit only: the whole id.
        assert_eq!(labels[ANA], format!("twin-fox ({ANA})"));
        assert_eq!(labels[BOB], format!("twin-fox ({BOB})"));
        assert_eq!(labels[other], "twin-fox (sess_12345678…)");
        assert_eq!(short_id(ANA, &[ANA]), "sess_00000000…");
        assert_eq!(short_id("sess_1", &["sess_1", "sess_2"]), "sess_1");
    }

    #[test]
    fn an_ended_namesake_leaves_the_callsign_unambiguous() {
        let (_dir, store) = store_with(&["demo"]);
        let old = merged_in(&store, "twin-fox", "bob", BOB, "2026-01-01T10:00:00Z");
        end(&store, &old).unwrap();
        merged_in(&store, "twin-fox", "ana", ANA, "2026-01-01T09:00:00Z");
        let projects = ["demo".to_string()];
        assert_eq!(resolve(&store, &projects, "twin-fox").unwrap().id(), ANA);
        let all = store.sessions("demo").unwrap();
        assert!(shared_callsigns(all.values()).is_empty());
        assert_eq!(labels(all.values())[ANA], "twin-fox");
    }
}
