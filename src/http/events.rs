//! `GET /v1/projects/{project_id}/events`: the project's new records as Server-Sent Events,
//! the `realtime` capability (§10.2) over HTTP. Each event is an envelope of `relay watch
//! --json` (`ops::watch`), with its cursor as the SSE `id` and its kind as the SSE `event`,
//! so a client that reconnects with `Last-Event-ID` (or `?since=CURSOR`) gets exactly what
//! came after, and a cursor from `relay watch` works here too. The watch runs on a blocking
//! thread and ends when the client goes away or the server shuts down.

use std::convert::Infallible;

use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::Stream;
use serde::Deserialize;

use super::auth::{Access, ProjectCall};
use super::extract::Params;
use super::reply::ApiError;
use crate::error::Error;
use crate::ops::watch::{self, Event, EventKind, Scope, Since, Until, Watch};

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

pub async fn events(
    call: ProjectCall,
    Params(q): Params<EventParams>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let resume = match headers.get("last-event-id") {
        Some(v) => Some(v.to_str().map(str::to_string).map_err(|_| {
            ApiError(Error::InvalidInput(
                "Last-Event-ID is not text: give the id of an event this stream sent".into(),
            ))
        })?),
        None => None,
    };
    let since = resume.or(q.since).unwrap_or_else(|| "now".into());
    let state = call.state.clone();
    // Opened before the stream starts, so a bad cursor or kind is a 400, not an empty stream.
    let opened = call
        .run(Access::Read, move |s, _caller, project| {
            let scope = Scope {
                projects: Some(vec![project]),
                kinds: EventKind::parse_list(q.kind.as_deref().unwrap_or(""))?,
            };
            Watch::open(&s.store, scope, Since::parse(&since)?)
        })
        .await?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(BACKLOG);
    let shutdown = state.shutdown.clone();
    tokio::task::spawn_blocking(move || {
        let mut w = opened;
        let mut stop = || tx.is_closed() || *shutdown.borrow();
        // A failed read ends the stream; the client reconnects from its last id.
        let _ = watch::follow(
            &state.store,
            &mut w,
            Until::default(),
            &mut stop,
            &mut |e| Ok(tx.blocking_send(e).is_ok()),
        );
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        let e = rx.recv().await?;
        let sse = SseEvent::default()
            .id(e.cursor.clone())
            .event(e.kind.as_str())
            .json_data(&e)
            .unwrap_or_else(|_| SseEvent::default().comment("an event that is not JSON"));
        Some((Ok(sse), rx))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
