//! `GET /v1/projects/{project_id}/events`: the project's new records as Server-Sent Events,
//! the `realtime` capability (§10.2) over HTTP. Each event is an envelope of `relay watch
//! --json` (`ops::watch`), with its cursor as the SSE `id` and its kind as the SSE `event`,
//! so a client that reconnects with `Last-Event-ID` (or `?since=CURSOR`) gets exactly what
//! came after, and a cursor from `relay watch` works here too. The watch runs on a blocking
//! thread and ends when the client goes away or the server shuts down. A stream also ends,
//! within [`RECHECK`], when its caller may no longer read the project (its token revoked or
//! narrowed, a new token making a request without one unwelcome, a console logout): its last
//! event is `closed`, with the error a new request would get. A stream opens with a comment
//! line, so that the client has the answer's status and headers at once, not with the first
//! event.

use std::convert::Infallible;
use std::time::Duration;

use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::Stream;
use serde::Deserialize;

use super::auth::{Access, Credentials, ProjectCall};
use super::extract::Params;
use super::reply::{ApiError, error_body};
use super::state::AppState;
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

/// How many events may wait for a slow client before the watch waits for it.
const BACKLOG: usize = 256;

/// How often an open stream looks whether its caller's rights may have changed (a stat of
/// the token file); it asks again only when they may have.
pub const RECHECK: Duration = Duration::from_millis(200);

/// An open stream: its events, and who it is for.
struct Follow {
    rx: tokio::sync::mpsc::Receiver<Event>,
    state: AppState,
    credentials: Credentials,
    project: String,
    /// The credentials' stamp when the caller was last checked; `None` before the first
    /// check, which comes one tick after the stream opens (so a revocation between the
    /// request's check and the stream's start is seen too).
    checked: Option<(relay_store::tokens::TokensStamp, u64)>,
    tick: tokio::time::Interval,
    /// Whether the first SSE line went out: a comment, so that the client has the answer's
    /// status and headers at once (they go out with the first bytes of the body).
    greeted: bool,
    ended: bool,
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
            tokio::select! {
                e = self.rx.recv() => return e.as_ref().map(to_sse),
                _ = self.tick.tick() => {
                    let now = self.state.credentials_stamp();
                    if self.checked.as_ref() == Some(&now) {
                        continue;
                    }
                    self.checked = Some(now);
                    let (credentials, project) = (self.credentials.clone(), self.project.clone());
                    let still = self
                        .state
                        .blocking(move |s| credentials.may_still_read(s, &project))
                        .await;
                    if let Err(e) = still {
                        self.ended = true;
                        return Some(
                            SseEvent::default()
                                .event("closed")
                                .json_data(error_body(&e))
                                .unwrap_or_else(|_| SseEvent::default().comment("closed")),
                        );
                    }
                }
            }
        }
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
    // Opened before the stream starts, so a bad cursor or kind is a 400, not an empty stream.
    let opened = call
        .run(Access::Read, move |s, caller, project| {
            let (scope, since) = caller.relay(s).watch_scope(&req, || Ok(vec![project]))?;
            Watch::open(&s.store, scope, since)
        })
        .await?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(BACKLOG);
    let sender = tx.clone();
    state.follow(
        opened,
        move || sender.is_closed(),
        move |e| tx.blocking_send(e).is_ok(),
    );
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + RECHECK, RECHECK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let follow = Follow {
        rx,
        state,
        credentials,
        project,
        checked: None,
        tick,
        greeted: false,
        ended: false,
    };
    // When the stream ends, the channel closes and the watch's thread stops with it.
    let stream = futures_util::stream::unfold(follow, |mut f| async move {
        let sse = f.next().await?;
        Some((Ok(sse), f))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
