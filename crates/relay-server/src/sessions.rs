//! The session routes of `relay serve` (§5.5; the spec gives them no HTTP mapping): list a
//! project's sessions, start one, end one. A session started here is not made the clone's
//! current session: the client names it in its writes (`?session=ID`).

use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::{Access, Caller, ProjectCall};
use super::extract::{JsonBody, Params, PathId};
use super::reply::{Answer, Reply};
use super::state::AppState;
use relay_core::ops::sessions;
use relay_wire::error::Error;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// Only the sessions that have not ended.
    #[serde(default)]
    active: bool,
    /// A snapshot read: the sessions as they were at this time.
    as_of: Option<String>,
}

/// A project's sessions, oldest first: `{"sessions": […]}`.
pub async fn list(call: ProjectCall, Params(q): Params<ListParams>) -> Answer {
    call.run(Access::Read, move |s, _, project| {
        let as_of = relay_wire::time::parse_time("as_of", q.as_of.as_deref())?;
        let all = sessions::list(relay_store::View::of(&s.store, as_of), &project, q.active)?;
        let list: Vec<Value> = all.iter().map(|v| v.session.to_value()).collect();
        Ok(Reply::ok(json!({ "sessions": list })))
    })
    .await
}

/// The body of a session start; every member is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartBody {
    callsign: Option<String>,
    /// Without a token, who the session is for (default: the server's identity); with one,
    /// it must be the token's actor.
    actor_id: Option<String>,
    actor_type: Option<String>,
}

/// Starts a session as the caller: 201 with the session record.
pub async fn start(call: ProjectCall, body: JsonBody) -> Answer {
    let body: StartBody = body.parse("a session")?;
    call.run(Access::Write, move |s, caller, project| {
        caller.may_name(body.actor_id.as_deref(), body.actor_type.as_deref())?;
        let mut claim = caller.claim(s, None);
        claim.actor = body.actor_id.or(claim.actor);
        claim.actor_type = body.actor_type.or(claim.actor_type);
        let actor = caller.actor(s, &claim)?;
        let session = sessions::start(&s.store, &project, &actor, body.callsign.as_deref())?;
        Ok(Reply::written(true, session.to_value()))
    })
    .await
}

/// Ends a session (by id or callsign, in the projects the caller may see): the closed
/// record, with the packages deposited in it. A token may end only its own actor's sessions.
pub async fn end(
    State(state): State<AppState>,
    caller: Caller,
    PathId(key): PathId,
    body: JsonBody,
) -> Answer {
    // No body is needed; one, if sent, must be an empty object.
    if !body.object("an empty object", false)?.is_empty() {
        return Err(Error::InvalidInput("ending a session takes no body".into()).into());
    }
    state
        .blocking(move |s| {
            let projects = caller.projects(&s.store)?;
            let session = sessions::resolve(&s.store, &projects, &key)?;
            caller.may_write(session.str_field("project_id").unwrap_or_default())?;
            let actor = session.str_field("actor_id");
            caller.may_name(
                Some(actor.unwrap_or_default()),
                session.str_field("actor_type"),
            )?;
            let ended = sessions::end(&s.store, &session)?;
            Ok(Reply::ok(ended.session.to_value()))
        })
        .await
}
