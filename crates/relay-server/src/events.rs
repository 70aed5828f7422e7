//! `GET /v1/projects/{project_id}/events`: the project's new records as Server-Sent Events,
//! the `realtime` capability (§10.2) over HTTP. Each event is an envelope of `relay watch
//! --json` (`ops::watch`), with its cursor as the SSE `id` and its kind as the SSE `event`,
//! so a client that reconnects with `Last-Event-ID` (or `?since=CURSOR`) gets exactly what
//! came after, and a cursor from `relay watch` works here too. The watch holds no thread
//! while it waits ([`super::follow`]) and ends when the client goes away or the server shuts
//! down; a caller past its cap of open streams is refused (429, or 503 at the server's). A stream also ends,
//! within [`RECHECK`], when its caller may no longer read the project (its token revoked or
//! narrowed, a new token making a request without one unwelcome, a console logout): its last
//! event is `closed`, with the error a new request would get. A stream opens with a comment
//! line, so that the client has the answer's status and headers at once, not with the first
//! event.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Instant;

use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::Stream;
use serde::Deserialize;

use super::auth::{Access, Credentials, ProjectCall};
use super::extract::Params;
use super::follow::{Follower, RECHECK, Step};
use super::reply::{ApiError, error_body};
use super::state::AppState;
use super::stream_caps::StreamSlot;
use relay_core::ops::watch::{Event, Watch};
use relay_core::request::watch::WatchRequest;
use relay_wire::error::Error;

/// `?since=` (a cursor, `now` or `beginning`; `Last-Event-ID` wins) and `?kind=` (a
/// comma-separated list, as `relay watch --kind`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventParams {
    since: Option<String>,
    kind: Option<String>,
}

/// An open stream: its events, and who it is for.
struct Follow {
    follower: Follower,
    /// Events read and not yet sent.
    queue: VecDeque<Event>,
    state: AppState,
    credentials: Credentials,
    project: String,
    /// The credentials' stamp when the caller was last checked; `None` before the first
    /// check, which comes one [`RECHECK`] after the stream opens (so a revocation between the
    /// request's check and the stream's start is seen too).
    checked: Option<(relay_store::tokens::TokensStamp, u64)>,
    next_check: Instant,
    /// Whether the first SSE line went out: a comment, so that the client has the answer's
    /// status and headers at once (they go out with the first bytes of the body).
    greeted: bool,
    ended: bool,
    /// Its place under the server's caps, given back when the stream ends.
    _slot: StreamSlot,
}

/// A watch event as an SSE event: its cursor as the id, its kind as the name.
fn to_sse(e: &Event) -> SseEvent {
    SseEvent::default()
        .id(e.cursor.clone())
        .event(e.kind.as_str())
        .json_data(e)
        .unwrap_or_else(|_| SseEvent::default().comment("an event that is not JSON"))
}

impl Follow {
    /// The next SSE event: a watch event, or the `closed` event that ends a stream whose
    /// caller may no longer read; `None` when the stream is over.
    async fn next(&mut self) -> Option<SseEvent> {
        if self.ended {
            return None;
        }
        if !self.greeted {
            self.greeted = true;
            return Some(SseEvent::default().comment("relay: following"));
        }
        loop {
            if Instant::now() >= self.next_check {
                self.next_check = Instant::now() + RECHECK;
                if let Err(e) = self.may_still_read() {
                    self.ended = true;
                    return Some(
                        SseEvent::default()
                            .event("closed")
                            .json_data(error_body(&e))
                            .unwrap_or_else(|_| SseEvent::default().comment("closed")),
                    );
                }
            }
            if let Some(e) = self.queue.pop_front() {
                return Some(to_sse(&e));
            }
            let within = self.next_check.saturating_duration_since(Instant::now());
            match self.follower.step(within).await {
                Step::Events(events) => self.queue.extend(events),
                Step::Idle => {}
                Step::Over => return None,
            }
        }
    }

    /// Whether the caller may still read the project, asked again only when a token or a
    /// login may have changed since the last time.
    fn may_still_read(&mut self) -> Result<(), ApiError> {
        let now = self.state.credentials_stamp();
        if self.checked.as_ref() == Some(&now) {
            return Ok(());
        }
        self.checked = Some(now);
        Ok(self
            .credentials
            .may_still_read(&self.state, &self.project)?)
    }
}

pub async fn events(
    call: ProjectCall,
    credentials: Credentials,
    Params(q): Params<EventParams>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let resume = match headers.get("last-event-id") {
        Some(v) => Some(v.to_str().map(str::to_string).map_err(|_| {
            ApiError::Op(Error::InvalidInput(
                "Last-Event-ID is not text: give the id of an event this stream sent".into(),
            ))
        })?),
        None => None,
    };
    // The request every door reads (`relay watch`, MCP's `watch`); a stream takes no limit.
    let mut req = WatchRequest {
        kinds: q.kind,
        ..WatchRequest::default()
    };
    if let Some(since) = resume.or(q.since) {
        req.since = since;
    }
    let state = call.state.clone();
    let project = call.project.clone();
    // Past a cap, refused before anything is read.
    let slot = state.stream_caps.admit(&call.caller.owner())?;
    // Opened before the stream starts, so a bad cursor or kind is a 400, not an empty stream.
    let opened = call
        .run(Access::Read, move |s, caller, project| {
            let (scope, since) = caller.relay(s).watch_scope(&req, || Ok(vec![project]))?;
            Watch::open(&s.store, scope, since)
        })
        .await?;
    let follow = Follow {
        follower: Follower::new(&state, opened),
        queue: VecDeque::new(),
        state,
        credentials,
        project,
        checked: None,
        next_check: Instant::now() + RECHECK,
        greeted: false,
        ended: false,
        _slot: slot,
    };
    // When the client goes away, the stream is dropped, and with it its watch and its slot.
    let stream = futures_util::stream::unfold(follow, |mut f| async move {
        let sse = f.next().await?;
        Some((Ok(sse), f))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
