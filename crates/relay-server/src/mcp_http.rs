//! `/mcp`: the MCP server of `relay mcp` ([`relay_mcp`], the same tools, schemas and errors)
//! over MCP's Streamable HTTP transport (protocol revisions 2025-06-18 and 2025-11-25), so
//! that agents on other machines read and write the store `relay serve` holds.
//!
//! - `POST /mcp` carries one JSON-RPC message. `initialize` opens a session and answers with
//!   its `Mcp-Session-Id`, which every later request must send (400 without it, 404 for a
//!   session that ended or another caller's). A request gets one JSON answer; a notification
//!   or a response gets 202 and no body. The client must accept both `application/json` and
//!   `text/event-stream` (406 otherwise), and a `MCP-Protocol-Version` it sends must be one
//!   this server speaks (400 otherwise).
//! - `GET /mcp` is the session's stream of server messages (SSE): a
//!   `notifications/resources/updated` for each subscribed project feed when a record lands
//!   in its project (a watch of the store, as `/v1/projects/{id}/events` follows one).
//! - `DELETE /mcp` ends the session.
//!
//! Every request passes the server's guard (its `Host`, a browser's cross-site request) and
//! is authenticated as every route is ([`Caller`]: the same bearer tokens, 401 with
//! `WWW-Authenticate`); besides, as MCP requires, a request whose `Origin` is not this server's
//! is refused (403), with a token or without. A token's grant goes with each tool call, which
//! then acts as its actor, on the projects it covers, and writes only if it may. The
//! synchronous server runs on the blocking threads, like every operation of the routes.
//!
//! Kept on our hand-written server rather than the official Rust SDK (rmcp, whose streamable
//! HTTP service mounts on axum): the server answers each message with one function, so the
//! transport is this file's session table and three handlers; rmcp would replace the
//! tool table's generated schemas, scope checks and error mapping with its own macros and
//! types, run its own session manager beside our auth and guard, and bring its dependency
//! tree into a crate that already has axum and tokio.

use std::collections::{BTreeSet, VecDeque};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use serde_json::{Value, json};

use super::auth::{Caller, Credentials};
use super::extract::JsonBody;
use super::follow::{Follower, RECHECK, Step};
pub use super::mcp_sessions::{MAX_SESSIONS, MAX_SESSIONS_PER_CALLER, Missing, Sessions};
use super::reply::{ApiError, RequestError};
use super::state::{AppState, Shared};
use super::stream_caps::StreamSlot;
use relay_core::ops::trust::tokens::{self, Grant};
use relay_core::ops::watch::{Event, Scope, Since, Watch};
use relay_core::resolve::Environment;
use relay_core::search::choice::FellBack;
use relay_mcp::{Host, Server, Settings, resources};
use relay_store::Store;
use relay_wire::error::{Error, Result};

/// The header that names a session.
pub const SESSION_HEADER: &str = "mcp-session-id";
/// The header that names the protocol revision of a request after `initialize`.
pub const VERSION_HEADER: &str = "mcp-protocol-version";

/// Who owns what a caller opens: its token, or the local user.
fn owner(caller: &Caller) -> Option<String> {
    caller.grant().map(|g| g.token_id.clone())
}

fn grant(caller: &Caller) -> Option<Grant> {
    caller.grant().cloned()
}

/// A refusal of the transport itself, as MCP's SDKs read one: a JSON-RPC error without an id.
fn refuse(status: StatusCode, message: String) -> Response {
    let body = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": relay_mcp::INVALID_REQUEST, "message": message},
    });
    (status, axum::Json(body)).into_response()
}

fn missing(why: Missing) -> Response {
    match why {
        Missing::NotSent => refuse(
            StatusCode::BAD_REQUEST,
            "no Mcp-Session-Id: send the one `initialize` answered with".into(),
        ),
        Missing::Unknown => refuse(
            StatusCode::NOT_FOUND,
            "no such session (it ended, or it is another caller's): initialize again".into(),
        ),
    }
}

fn header_text<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Refuses a request whose `Origin` is not this server's, token or not (MCP's transport
/// requires servers to check it: DNS rebinding, a page's scripts).
fn check_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let host = header_text(headers, header::HOST.as_str()).unwrap_or_default();
    match origin.to_str() {
        Ok(o) if super::guard::same_origin(o, host) => Ok(()),
        _ => Err(ApiError::Op(Error::Unauthorized(
            "MCP over HTTP takes no request from another origin: a page on another site may \
             not reach the store through a browser"
                .into(),
        ))),
    }
}

/// Whether `Accept` lists `wanted` (or `*/*`, or its type's wildcard).
pub fn accepts(headers: &HeaderMap, wanted: &str) -> bool {
    let kind = wanted.split('/').next().unwrap_or_default();
    (headers.get_all(header::ACCEPT).iter())
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|item| item.split(';').next().unwrap_or_default().trim())
        .any(|m| {
            m.eq_ignore_ascii_case(wanted)
                || m == "*/*"
                || m.eq_ignore_ascii_case(&format!("{kind}/*"))
        })
}

/// Refuses a `MCP-Protocol-Version` this server does not speak (none sent is fine: the spec
/// says to assume 2025-03-26).
pub fn check_version(headers: &HeaderMap) -> Result<(), String> {
    match headers.get(VERSION_HEADER) {
        None => Ok(()),
        Some(v) => match v.to_str() {
            Ok(v) if relay_mcp::PROTOCOL_VERSIONS.contains(&v) => Ok(()),
            _ => Err(format!(
                "MCP-Protocol-Version must be one of {}",
                relay_mcp::PROTOCOL_VERSIONS.join(", ")
            )),
        },
    }
}

/// The server's [`Host`]: its store, errors as they read, and warnings to its sink.
struct HttpHost<'a>(&'a Shared);

impl Host for HttpHost<'_> {
    fn store(&self) -> Result<&Store> {
        Ok(&self.0.store)
    }

    fn explain(&self, error: &Error) -> String {
        error.to_string()
    }

    fn report_warnings(&self) {
        let skipped = self.0.store.diagnostics().take();
        if !skipped.is_empty() {
            (self.0.warnings)(skipped);
        }
    }

    fn search_fell_back(&self, _: &Store, _: FellBack) {}

    fn query_notice(&self, _: &str) {}
}

/// What a tool call starts from: the server's identity defaults, and the caller's token.
fn settings(shared: &Shared, caller: &Caller) -> Settings {
    Settings {
        cwd: shared.cwd.clone(),
        actor: shared.defaults.actor.clone(),
        actor_type: shared.defaults.actor_type.clone(),
        session: shared.defaults.session.clone(),
        project: None,
        model: None,
        env: Environment::default(),
        grant: grant(caller),
    }
}

/// `POST /mcp`.
pub async fn post(
    State(state): State<AppState>,
    headers: HeaderMap,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Response {
    if let Err(refused) = check_origin(&headers) {
        return refused.into_response();
    }
    if !accepts(&headers, "application/json") || !accepts(&headers, "text/event-stream") {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            "Accept must list application/json and text/event-stream".into(),
        );
    }
    let Some(message) = body else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "the body must be a JSON-RPC message".into(),
        );
    };
    if message.is_array() {
        // Checked before any message runs: the revisions served over HTTP have no batches.
        return refuse(
            StatusCode::BAD_REQUEST,
            "a POST to /mcp carries one JSON-RPC message, not a batch (MCP 2025-06-18 and \
             later); nothing was run: send each message in a POST of its own"
                .into(),
        );
    }
    let initializing = message.get("method").and_then(Value::as_str) == Some("initialize");
    let owner = owner(&caller);
    let (session_id, subscriptions) = if initializing {
        let id = match tokens::random_hex("an MCP session id") {
            Ok(id) => id,
            Err(e) => return ApiError::Op(e).into_response(),
        };
        (id, Arc::default())
    } else {
        if let Err(message) = check_version(&headers) {
            return refuse(StatusCode::BAD_REQUEST, message);
        }
        let id = header_text(&headers, SESSION_HEADER);
        match state.mcp_sessions.find(id, &owner) {
            Ok(subs) => (id.unwrap_or_default().to_string(), subs),
            Err(why) => return missing(why),
        }
    };
    let is_request = message.get("method").is_some() && message.get("id").is_some();
    let kept = subscriptions.clone();
    let answered = state
        .blocking(move |shared| {
            let host = HttpHost(shared);
            let before = kept.lock().map(|s| s.clone()).unwrap_or_default();
            let mut server = Server::notifying(&host, settings(shared, &caller), before);
            let reply = server.message(message);
            if let Ok(mut s) = kept.lock() {
                *s = server.subscriptions();
            }
            Ok(reply)
        })
        .await;
    let reply = match answered {
        Ok(reply) => reply,
        Err(e) => return e.into_response(),
    };
    if initializing
        && reply.as_ref().is_some_and(|r| r.get("result").is_some())
        && let Err(open) = state.mcp_sessions.open(session_id.clone(), owner)
    {
        return ApiError::Request(RequestError::ServerBusy {
            why: format!(
                "the server holds {open} MCP sessions, its most, none of them this caller's \
                 to end; end a session (DELETE /mcp) or wait"
            ),
            retry_after: 5,
        })
        .into_response();
    }
    let mut response = match reply {
        Some(reply) if is_request => axum::Json(reply).into_response(),
        Some(reply) => (StatusCode::BAD_REQUEST, axum::Json(reply)).into_response(),
        None => StatusCode::ACCEPTED.into_response(),
    };
    if let Ok(v) = HeaderValue::from_str(&session_id) {
        response.headers_mut().insert(SESSION_HEADER, v);
    }
    response
}

/// `DELETE /mcp`: ends the session.
pub async fn delete(State(state): State<AppState>, headers: HeaderMap, caller: Caller) -> Response {
    if let Err(refused) = check_origin(&headers) {
        return refused.into_response();
    }
    match (state.mcp_sessions).end(header_text(&headers, SESSION_HEADER), &owner(&caller)) {
        Ok(()) => StatusCode::OK.into_response(),
        Err(why) => missing(why),
    }
}

/// `GET /mcp`: the session's notifications, as SSE `message` events. Like the event stream
/// it holds no thread while it waits ([`super::follow`]) and counts under the same caps; it
/// ends within [`RECHECK`] of its session ending (DELETE) or its token being revoked.
pub async fn get(
    State(state): State<AppState>,
    headers: HeaderMap,
    credentials: Credentials,
    caller: Caller,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, Response> {
    check_origin(&headers).map_err(IntoResponse::into_response)?;
    if !accepts(&headers, "text/event-stream") {
        return Err(refuse(
            StatusCode::NOT_ACCEPTABLE,
            "Accept must list text/event-stream".into(),
        ));
    }
    let session = header_text(&headers, SESSION_HEADER).map(str::to_string);
    let subscriptions = (state.mcp_sessions)
        .find(session.as_deref(), &owner(&caller))
        .map_err(missing)?;
    let slot = (state.stream_caps)
        .admit(&caller.owner())
        .map_err(|e| ApiError::from(e).into_response())?;
    let every = Scope {
        projects: None,
        kinds: Vec::new(),
    };
    let opened = state
        .reading(move |s| Watch::open(&s.store, every, Since::Now))
        .await
        .map_err(IntoResponse::into_response)?;
    let notes = Notes {
        follower: Follower::new(&state, opened),
        queue: VecDeque::new(),
        subscriptions,
        grant: grant(&caller),
        who: owner(&caller),
        session,
        credentials,
        state,
        next_check: Instant::now() + RECHECK,
        _slot: slot,
    };
    let stream = futures_util::stream::unfold(notes, |mut n| async move {
        let note = n.next().await?;
        let event = SseEvent::default()
            .event("message")
            .json_data(note)
            .unwrap_or_else(|_| SseEvent::default().comment("a message that is not JSON"));
        Some((Ok(event), n))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// An open `GET /mcp` stream: the store's events, made into its session's notifications.
struct Notes {
    follower: Follower,
    queue: VecDeque<Value>,
    subscriptions: Arc<Mutex<BTreeSet<String>>>,
    grant: Option<Grant>,
    who: Option<String>,
    session: Option<String>,
    credentials: Credentials,
    state: AppState,
    next_check: Instant,
    _slot: StreamSlot,
}

impl Notes {
    /// The next notification; `None` once the session ended, the token no longer holds, or
    /// the server stops.
    async fn next(&mut self) -> Option<Value> {
        loop {
            if Instant::now() >= self.next_check {
                self.next_check = Instant::now() + RECHECK;
                if !self.still_holds() {
                    return None;
                }
            }
            if let Some(note) = self.queue.pop_front() {
                return Some(note);
            }
            let within = self.next_check.saturating_duration_since(Instant::now());
            match self.follower.step(within).await {
                Step::Events(events) => {
                    let (subs, grant) = (&self.subscriptions, self.grant.as_ref());
                    (self.queue).extend(events.iter().filter_map(|e| updated(e, subs, grant)));
                }
                Step::Idle => {}
                Step::Over => return None,
            }
        }
    }

    /// Whether the session still lives and its caller is still let in, as a new request
    /// would be; a token narrowed since narrows what is notified.
    fn still_holds(&mut self) -> bool {
        let lives = (self.state.mcp_sessions)
            .find(self.session.as_deref(), &self.who)
            .is_ok();
        match self.credentials.caller_now(&self.state) {
            Ok(caller) if lives && owner(&caller) == self.who => {
                self.grant = grant(&caller);
                true
            }
            _ => false,
        }
    }
}

/// The notification an event makes for a session subscribed to its project's feed (and
/// whose token still covers the project), if any.
fn updated(
    event: &Event,
    subscriptions: &Mutex<BTreeSet<String>>,
    grant: Option<&Grant>,
) -> Option<Value> {
    let project = event.project_id.as_deref()?;
    let uri = resources::feed_uri(project);
    let subscribed = subscriptions.lock().ok()?.contains(&uri);
    let who = relay_core::service::Caller::of(grant);
    let covered = who.authorize_project("watch", project).is_ok();
    (subscribed && covered).then(|| {
        json!({
            "jsonrpc": "2.0",
            "method": "notifications/resources/updated",
            "params": {"uri": uri, "title": format!("Packages of {project}")},
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn a_session_serves_its_owner_only_until_it_ends() {
        let sessions = Sessions::default();
        let alice = Some("tok_a".to_string());
        sessions.open("s1".into(), alice.clone()).unwrap();
        assert!(sessions.find(Some("s1"), &alice).is_ok());
        assert_eq!(sessions.find(None, &alice).err(), Some(Missing::NotSent));
        assert_eq!(
            sessions.find(Some("s1"), &Some("tok_b".into())).err(),
            Some(Missing::Unknown)
        );
        assert_eq!(
            sessions.find(Some("s1"), &None).err(),
            Some(Missing::Unknown)
        );
        assert_eq!(sessions.end(Some("s1"), &None), Err(Missing::Unknown));
        assert_eq!(sessions.end(Some("s1"), &alice), Ok(()));
        assert_eq!(
            sessions.find(Some("s1"), &alice).err(),
            Some(Missing::Unknown)
        );
        assert!(sessions.is_empty());
    }

    #[test]
    fn accept_must_list_each_type_or_a_wildcard() {
        let both = headers(&[("accept", "application/json, text/event-stream")]);
        assert!(accepts(&both, "application/json") && accepts(&both, "text/event-stream"));
        let split = headers(&[("accept", "application/json;q=0.9"), ("accept", "text/*")]);
        assert!(accepts(&split, "application/json") && accepts(&split, "text/event-stream"));
        let json_only = headers(&[("accept", "application/json")]);
        assert!(!accepts(&json_only, "text/event-stream"));
        assert!(accepts(&headers(&[("accept", "*/*")]), "text/event-stream"));
        assert!(!accepts(&HeaderMap::new(), "application/json"));
    }

    #[test]
    fn a_protocol_version_must_be_one_spoken_or_none() {
        assert!(check_version(&HeaderMap::new()).is_ok());
        assert!(check_version(&headers(&[(VERSION_HEADER, "2025-06-18")])).is_ok());
        assert!(check_version(&headers(&[(VERSION_HEADER, "2025-11-25")])).is_ok());
        assert!(check_version(&headers(&[(VERSION_HEADER, "1999-01-01")])).is_err());
    }

    #[test]
    fn another_origin_is_refused_even_with_a_token() {
        let same = headers(&[
            ("host", "127.0.0.1:7700"),
            ("origin", "http://127.0.0.1:7700"),
        ]);
        assert!(check_origin(&same).is_ok());
        assert!(check_origin(&headers(&[("host", "127.0.0.1:7700")])).is_ok());
        let other = headers(&[
            ("host", "127.0.0.1:7700"),
            ("origin", "http://evil.example"),
            ("authorization", "Bearer x"),
        ]);
        let refused = check_origin(&other).unwrap_err().into_response();
        assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    }

    #[test]
    fn an_update_goes_to_subscribers_of_the_project_the_token_covers() {
        let event = Event {
            cursor: "c".into(),
            kind: relay_core::ops::watch::EventKind::Package,
            project_id: Some("web".into()),
            record: json!({}),
        };
        let subs = Mutex::new(BTreeSet::from([resources::feed_uri("web")]));
        let note = updated(&event, &subs, None).unwrap();
        assert_eq!(note["method"], "notifications/resources/updated");
        assert_eq!(note["params"]["uri"], "relay://projects/web/packages");
        assert!(updated(&event, &Mutex::default(), None).is_none());
        let elsewhere = Grant {
            token_id: "tok".into(),
            actor: relay_core::ops::Actor {
                id: "a".into(),
                actor_type: "agent".into(),
            },
            projects: Some(vec!["api".into()]),
            read_only: true,
        };
        assert!(updated(&event, &subs, Some(&elsewhere)).is_none());
    }
}
