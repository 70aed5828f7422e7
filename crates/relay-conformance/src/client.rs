//! The suite's HTTP client: one blocking client over the server's base URL, the bearer token on
//! every request, and every answer kept whole (status, content type, JSON body or text) so that a
//! scenario can check it and quote it in its reason. A request that gets no answer is an
//! [`Answer`] too (status 0), so a server that drops one request fails that scenario only; the
//! one request that decides whether the server can be reached at all is [`Client::reach`].

use std::io::{BufRead, BufReader};
use std::time::Duration;

use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use reqwest::{Method, Url};
use serde_json::Value;

use relay_wire::error::{Error, Result};

/// Where the suite sends its requests, and how.
pub struct Client {
    base: Url,
    token: Option<String>,
    http: reqwest::blocking::Client,
}

/// One request and what came back.
#[derive(Debug, Clone)]
pub struct Answer {
    /// `GET /v1/…?…`, as sent (path and query percent-encoded).
    pub request: String,
    /// The HTTP status; 0 when no answer came (see `failure`).
    pub status: u16,
    /// The `Content-Type` header, lowercased; empty when absent.
    pub content_type: String,
    /// The body, when it is JSON.
    pub body: Option<Value>,
    /// The body as text (not read for an event stream).
    pub text: String,
    /// Why no answer came: refused, timed out, not HTTP.
    pub failure: Option<String>,
}

/// What the suite accepts but for event streams (§9.1).
const JSON: &str = "application/json";

/// The longest piece of a body quoted in a reason.
const QUOTE: usize = 200;

impl Answer {
    /// What came back, briefly: `404 {"error":"package_not_found",…}`, or `no answer (…)`.
    pub fn said(&self) -> String {
        if let Some(f) = &self.failure {
            return format!("no answer ({f})");
        }
        let text = match &self.body {
            Some(v) => v.to_string(),
            None => self.text.trim().to_string(),
        };
        let text = match text.char_indices().nth(QUOTE) {
            Some((at, _)) => format!("{}…", &text[..at]),
            None => text,
        };
        if text.is_empty() {
            self.status.to_string()
        } else {
            format!("{} {text}", self.status)
        }
    }

    /// `GET /v1/x answered 404 {…}`.
    pub fn answered(&self) -> String {
        format!("{} answered {}", self.request, self.said())
    }

    /// The error code of an error body (`{"error": CODE, …}`).
    pub fn error_code(&self) -> Option<&str> {
        self.body.as_ref()?.get("error")?.as_str()
    }

    /// Whether the server has no such route at all, as opposed to a route that answered: 405
    /// or 501, or a 404 that does not name one of the protocol's missing records.
    pub fn no_route(&self) -> bool {
        match self.status {
            405 | 501 => true,
            404 => !matches!(
                self.error_code(),
                Some("package_not_found" | "project_not_found" | "fact_not_found")
            ),
            _ => false,
        }
    }

    /// Whether the status is 2xx.
    pub fn success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// A JSON answer to `request`, for tests of the checks.
    #[cfg(test)]
    pub fn canned(request: &str, status: u16, body: Value) -> Answer {
        Answer {
            request: request.into(),
            status,
            content_type: "application/json".into(),
            text: body.to_string(),
            body: Some(body),
            failure: None,
        }
    }
}

impl Client {
    /// A client of the server at `base` (http or https; a path prefix is kept).
    pub fn new(base: &str, token: Option<String>, timeout: Duration) -> Result<Client> {
        let mut url = Url::parse(base)
            .map_err(|e| Error::InvalidInput(format!("`{base}` is not a URL: {e}")))?;
        if !matches!(url.scheme(), "http" | "https") || url.cannot_be_a_base() {
            return Err(Error::InvalidInput(format!(
                "`{base}` is not an http or https URL"
            )));
        }
        url.set_query(None);
        url.set_fragment(None);
        let http = reqwest::blocking::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .user_agent(concat!("relay-conformance/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| Error::io("cannot start the HTTP client", std::io::Error::other(e)))?;
        Ok(Client {
            base: url,
            token: token.filter(|t| !t.is_empty()),
            http,
        })
    }

    /// The base URL, as given.
    pub fn base(&self) -> &Url {
        &self.base
    }

    /// The URL of `path` (its segments, each percent-encoded) with `query`.
    pub fn url<S: AsRef<str>>(&self, path: &[S], query: &[(&str, &str)]) -> Url {
        let mut url = self.base.clone();
        if let Ok(mut segments) = url.path_segments_mut() {
            segments
                .pop_if_empty()
                .extend(path.iter().map(AsRef::as_ref));
        }
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        url
    }

    /// The first request: an answer of any status, or an error when nothing answers at all.
    pub fn reach<S: AsRef<str>>(&self, path: &[S]) -> Result<Answer> {
        let answer = self.send(Method::GET, path, &[], None, JSON);
        match &answer.failure {
            Some(f) => Err(Error::io(
                format!("cannot reach the server at {}", self.base),
                std::io::Error::other(f.clone()),
            )),
            None => Ok(answer),
        }
    }

    pub fn get<S: AsRef<str>>(&self, path: &[S], query: &[(&str, &str)]) -> Answer {
        self.send(Method::GET, path, query, None, JSON)
    }

    pub fn post<S: AsRef<str>>(&self, path: &[S], body: &Value) -> Answer {
        self.send(Method::POST, path, &[], Some(body), JSON)
    }

    pub fn delete<S: AsRef<str>>(&self, path: &[S], query: &[(&str, &str)]) -> Answer {
        self.send(Method::DELETE, path, query, None, JSON)
    }

    /// A GET of an event stream: the status and content type, and the body only when it is
    /// not the stream (which never ends).
    pub fn get_stream<S: AsRef<str>>(&self, path: &[S]) -> Answer {
        self.send(Method::GET, path, &[], None, "text/event-stream")
    }

    /// Opens an event stream (resuming after `last_event_id`, when given) whose reads end
    /// after `patience`; the answer instead, when it is not an event stream.
    pub fn open_stream<S: AsRef<str>>(
        &self,
        path: &[S],
        last_event_id: Option<&str>,
        patience: Duration,
    ) -> std::result::Result<EventStream, Box<Answer>> {
        let url = self.url(path, &[]);
        let request = describe(&Method::GET, &url);
        let mut req = self
            .request(Method::GET, url, "text/event-stream")
            .timeout(patience);
        if let Some(id) = last_event_id {
            req = req.header("Last-Event-ID", id);
        }
        match req.send() {
            Ok(response) => {
                let status = response.status().as_u16();
                let content_type = content_type(&response);
                if status == 200 && content_type.starts_with("text/event-stream") {
                    return Ok(EventStream {
                        request,
                        lines: BufReader::new(response).lines(),
                    });
                }
                Err(Box::new(answer_of(request, response)))
            }
            Err(e) => Err(Box::new(no_answer(request, &e))),
        }
    }

    fn request(&self, method: Method, url: Url, accept: &str) -> reqwest::blocking::RequestBuilder {
        let req = self.http.request(method, url).header(ACCEPT, accept);
        match &self.token {
            Some(t) => req.header(AUTHORIZATION, format!("Bearer {t}")),
            None => req,
        }
    }

    fn send<S: AsRef<str>>(
        &self,
        method: Method,
        path: &[S],
        query: &[(&str, &str)],
        body: Option<&Value>,
        accept: &str,
    ) -> Answer {
        let url = self.url(path, query);
        let request = describe(&method, &url);
        let mut req = self.request(method, url, accept);
        if let Some(b) = body {
            req = req
                .header(CONTENT_TYPE, "application/json")
                .body(b.to_string());
        }
        match req.send() {
            Ok(response) => answer_of(request, response),
            Err(e) => no_answer(request, &e),
        }
    }
}

/// An open Server-Sent Events stream (relay's realtime route), read an event at a time.
pub struct EventStream {
    /// `GET /v1/…/events`, as sent.
    pub request: String,
    lines: std::io::Lines<BufReader<reqwest::blocking::Response>>,
}

/// One event of a stream: its `id` (the cursor a client resumes from) and its `data` lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamEvent {
    pub id: Option<String>,
    pub data: String,
}

impl Iterator for EventStream {
    type Item = StreamEvent;

    /// The next event; `None` when the stream ends or its time is up.
    fn next(&mut self) -> Option<StreamEvent> {
        let mut event = StreamEvent::default();
        let mut fields = false;
        loop {
            let line = self.lines.next()?.ok()?;
            if line.is_empty() {
                if fields {
                    return Some(event);
                }
                continue;
            }
            let (name, value) = line.split_once(':').unwrap_or((line.as_str(), ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match name {
                "id" => event.id = Some(value.to_string()),
                "data" => {
                    if !event.data.is_empty() {
                        event.data.push('\n');
                    }
                    event.data.push_str(value);
                }
                "" => continue,
                _ => {}
            }
            fields |= !name.is_empty();
        }
    }
}

/// `POST /v1/projects/p/packages`: the method and the URL's path and query.
fn describe(method: &Method, url: &Url) -> String {
    match url.query() {
        Some(q) => format!("{method} {}?{q}", url.path()),
        None => format!("{method} {}", url.path()),
    }
}

/// The answer a response makes: its body read, but for an event stream, which is left unread
/// (and closed when dropped).
fn answer_of(request: String, response: reqwest::blocking::Response) -> Answer {
    let status = response.status().as_u16();
    let content_type = content_type(&response);
    let (body, text) = if content_type.starts_with("text/event-stream") {
        (None, String::new())
    } else {
        read_body(response)
    };
    Answer {
        request,
        status,
        content_type,
        body,
        text,
        failure: None,
    }
}

fn content_type(response: &reqwest::blocking::Response) -> String {
    (response.headers().get(CONTENT_TYPE))
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase()
}

fn read_body(response: reqwest::blocking::Response) -> (Option<Value>, String) {
    let text = response.text().unwrap_or_default();
    (serde_json::from_str(&text).ok(), text)
}

fn no_answer(request: String, e: &reqwest::Error) -> Answer {
    // reqwest's own message names the URL; its source says what happened.
    let mut reason = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        reason = s.to_string();
        source = s.source();
    }
    if e.is_timeout() {
        reason = format!("timed out: {reason}");
    }
    Answer {
        request,
        status: 0,
        content_type: String::new(),
        body: None,
        text: String::new(),
        failure: Some(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(status: u16, body: Value) -> Answer {
        Answer::canned("GET /v1/x", status, body)
    }

    #[test]
    fn urls_keep_the_base_path_and_encode_segments_and_queries() {
        let c = Client::new("http://h:1/api/", None, Duration::from_secs(1)).unwrap();
        let u = c.url(&["v1", "projects", "a b/c", "facts"], &[("subject", "x&y")]);
        assert_eq!(
            u.as_str(),
            "http://h:1/api/v1/projects/a%20b%2Fc/facts?subject=x%26y"
        );
        let c = Client::new("https://h", None, Duration::from_secs(1)).unwrap();
        assert_eq!(
            c.url(&["v1", "conformance"], &[]).as_str(),
            "https://h/v1/conformance"
        );
        for bad in ["ftp://h", "h:1", "not a url", "mailto:a@b"] {
            assert!(
                Client::new(bad, None, Duration::from_secs(1)).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_missing_route_is_told_from_a_missing_record() {
        assert!(answer(404, json!({"error": "not_found"})).no_route());
        assert!(answer(405, json!({})).no_route());
        assert!(answer(501, json!({"error": "not_implemented"})).no_route());
        assert!(!answer(404, json!({"error": "package_not_found"})).no_route());
        assert!(!answer(404, json!({"error": "project_not_found"})).no_route());
        assert!(!answer(400, json!({"error": "invalid_input"})).no_route());
        let mut html = answer(404, json!(null));
        html.body = None;
        html.text = "<h1>Not Found</h1>".into();
        assert!(html.no_route());
    }

    #[test]
    fn reasons_quote_the_answer_briefly() {
        let a = answer(404, json!({"error": "package_not_found"}));
        assert_eq!(
            a.answered(),
            r#"GET /v1/x answered 404 {"error":"package_not_found"}"#
        );
        assert_eq!(a.error_code(), Some("package_not_found"));
        let long = answer(200, json!({"text": "x".repeat(500)}));
        assert!(long.said().chars().count() < QUOTE + 10, "{}", long.said());
        assert!(long.said().ends_with('…'));
        let none = Answer {
            failure: Some("connection refused".into()),
            status: 0,
            ..answer(0, json!(null))
        };
        assert_eq!(none.said(), "no answer (connection refused)");
    }
}
