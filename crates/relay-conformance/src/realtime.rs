//! The `realtime` scenario (L0, §10.2): a server that declares `realtime: true` and offers
//! relay's event stream (`GET /v1/projects/{p}/events`, Server-Sent Events) delivers a package
//! deposited after connecting, with an id to resume from, and resumes after it. §9.1 maps no
//! subscription and §16 leaves the wire open, so a server that declares realtime but lacks
//! relay's route is skipped, never failed: no level requires realtime.

use super::client::{Answer, EventStream};
use super::read::declared;
use super::shape;
use super::{Check, Suite, expect, fail, required, skip};

/// How long the suite waits for an event it expects.
const STREAM_PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

/// The start of the reason of a server that declares realtime without relay's event stream.
pub(crate) const NOT_OFFERED: &str = "relay's SSE route not offered; the descriptor declares \
     realtime: true, but §16 leaves the wire of subscriptions open and no level requires \
     realtime";

/// Whether the answer to relay's event stream says the server has no such route (404, 405,
/// 501) or streams another way (a success that is not `text/event-stream`).
fn other_wire(a: &Answer) -> bool {
    a.no_route() || (a.success() && !a.content_type.starts_with("text/event-stream"))
}

/// `realtime: true` (§10.2: subscribing to changes): through relay's `GET
/// /v1/projects/{p}/events` (Server-Sent Events; §9.1 maps no subscription, §16), a package
/// deposited after connecting arrives as an event with an id; and a client that reconnects
/// with that id as `Last-Event-ID` gets a package deposited while it was away, and not the
/// first one again. Skipped when the descriptor declares realtime false, and when it
/// declares it true but the server has no such route or answers it with no event stream:
/// it may offer subscriptions over another wire (§16), which the suite cannot check.
pub fn realtime(s: &mut Suite) -> Check {
    if !declared(s)?.realtime {
        return skip("the descriptor declares realtime: false (see `missing_capabilities`)");
    }
    let path = s.project_path(&["events"]);
    let stream = match s.client.open_stream(&path, None, STREAM_PATIENCE) {
        Ok(stream) => stream,
        Err(a) if other_wire(&a) => return skip(format!("{NOT_OFFERED}: {}", a.answered())),
        Err(a) => return not_streamed(&a),
    };
    let first = realtime_deposit(s, "Conformance realtime, connected")?;
    let request = stream.request.clone();
    let Some(event) = stream.into_iter().find(|e| e.data.contains(&first)) else {
        return fail(format!(
            "{request} sent no event for `{first}`, deposited after connecting, within {}s \
             (§10.2: realtime)",
            STREAM_PATIENCE.as_secs()
        ));
    };
    let Some(id) = event.id.filter(|i| !i.is_empty()) else {
        return fail(format!(
            "{request} sent the event of `{first}` without an id: a client cannot resume \
             (Last-Event-ID)"
        ));
    };
    let second = realtime_deposit(s, "Conformance realtime, away")?;
    let resumed = subscribe(s, &path, Some(&id))?;
    let request = format!("{} with Last-Event-ID: {id}", resumed.request);
    for event in resumed {
        if event.data.contains(&first) {
            return fail(format!(
                "{request} sent `{first}` again: a resumed stream starts after the event it names"
            ));
        }
        if event.data.contains(&second) {
            return Ok(());
        }
    }
    fail(format!(
        "{request} did not send `{second}`, deposited while the client was away, within {}s",
        STREAM_PATIENCE.as_secs()
    ))
}

/// Opens the event stream, or fails saying what answered instead.
fn subscribe(s: &Suite, path: &[String], last: Option<&str>) -> Check<EventStream> {
    (s.client)
        .open_stream(path, last, STREAM_PATIENCE)
        .or_else(|a| not_streamed(&a))
}

/// The failure of an event stream the server did not open: what answered instead.
fn not_streamed<T>(a: &Answer) -> Check<T> {
    let what = "event stream (§9.1 maps no subscription; the suite subscribes as relay does: \
                GET /v1/projects/{p}/events, Server-Sent Events)";
    required(a, what, "the descriptor's realtime: true (§10.2)")?;
    fail(format!(
        "{}; expected 200 and text/event-stream (§10.2: realtime)",
        a.answered()
    ))
}

/// Deposits a package for the realtime check; its id.
fn realtime_deposit(s: &mut Suite, title: &str) -> Check<String> {
    let package = s.package(title, "complete", chrono::TimeDelta::zero());
    let a = s.deposit(&package);
    expect(&a, &[200, 201], "the package deposited (§8.1)")?;
    Ok(shape::text(&package, "package_id").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_route_missing_or_not_streaming_is_another_wire_a_refusal_is_not() {
        let answer = |status, body| Answer::canned("GET /v1/projects/p/events", status, body);
        assert!(other_wire(&answer(404, json!({"error": "not_found"}))));
        assert!(other_wire(&answer(405, json!({}))));
        assert!(other_wire(&answer(
            501,
            json!({"error": "not_implemented"})
        )));
        assert!(other_wire(&answer(200, json!({"events": []}))), "200 JSON");
        assert!(!other_wire(&answer(
            404,
            json!({"error": "project_not_found"})
        )));
        assert!(!other_wire(&answer(401, json!({"error": "unauthorized"}))));
        assert!(!other_wire(&answer(500, json!({"error": "internal"}))));
    }
}
