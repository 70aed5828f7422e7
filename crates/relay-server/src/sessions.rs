//! The session routes of `relay serve` (§5.5; the spec gives them no HTTP mapping): list a
//! project's sessions, start one, end one. A session started here is not made the clone's
//! current session: the client names it in its writes (`?session=ID`).

use axum::extract::State;
use serde_json::{Value, json};

use super::auth::{Access, Caller, ProjectCall};
use super::extract::{JsonBody, Params, PathId};
use super::reply::{Answer, Reply};
use super::state::AppState;
use relay_core::request::sessions::{SessionEndRequest, SessionListRequest, SessionStartRequest};
use relay_core::request::{self};
use relay_wire::error::{Error, SchemaError};

/// A project's sessions, oldest first: `{"sessions": […]}`.
pub async fn list(call: ProjectCall, Params(req): Params<SessionListRequest>) -> Answer {
    call.run(Access::Read, move |s, caller, project| {
        let (all, _) = caller.relay(s).sessions_list(&project, &req)?;
        let list: Vec<Value> = all.iter().map(|v| v.session.to_value()).collect();
        Ok(Reply::ok(json!({ "sessions": list })))
    })
    .await
}

/// Starts a session as the caller: 201 with the session record. The body is the request
/// every door takes (`SessionStartRequest`) with who the session is for: `actor_id` and
/// `actor_type`, which without a token default to the server's identity, and with one must
/// be the token's actor. The server's clone keeps its own current session: a client names
/// the new one in its writes (`?session=ID`), so `make_current: true` is refused.
pub async fn start(call: ProjectCall, body: JsonBody) -> Answer {
    let mut body = body.object("a session", false)?;
    let mut text = |key: &str| match body.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(SchemaError::new(
            key,
            format!("must be a string, not {other}"),
        )),
    };
    let (actor_id, actor_type) = (text("actor_id")?, text("actor_type")?);
    let mut req: SessionStartRequest = request::from_json("a session", body)?;
    if req.make_current == Some(true) {
        return Err(Error::InvalidInput(
            "the server does not change its clone's current session: name the session in \
             writes instead (?session=ID)"
                .into(),
        )
        .into());
    }
    req.make_current = Some(false);
    call.run(Access::Write, move |s, caller, project| {
        let mut claim = caller.claim(s, None);
        claim.actor = actor_id.or(claim.actor);
        claim.actor_type = actor_type.or(claim.actor_type);
        let session = caller.relay(s).session_start(&claim, &project, &req)?;
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
    let req = SessionEndRequest { session: Some(key) };
    req.validate()?;
    let key = req.session.unwrap_or_default();
    state
        .blocking(move |s| {
            let ended = caller.relay(s).session_end(&key)?;
            Ok(Reply::ok(ended.session.to_value()))
        })
        .await
}
