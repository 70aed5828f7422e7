//! The Model Context Protocol server: the tools of [`tools`] behind one transport-agnostic
//! entry, [`Server::message`] (a JSON-RPC message in, its reply out, or none for a
//! notification). Two transports carry it: [`serve`], MCP's stdio transport (one message per
//! line, `relay mcp`), and relay-server's Streamable HTTP transport (`relay serve`, `/mcp`).
//!
//! Written by hand over serde_json rather than with the official Rust SDK (rmcp): the server
//! is a handful of methods (`initialize`, `ping`, `tools/*`, `resources/*`) behind one
//! function, so each transport stays thin (a loop that reads a line and writes a line; a
//! session table and three axum handlers in relay-server). rmcp would put its async handlers,
//! tool macros and session manager where our generated schemas, token scopes and error codes
//! are, and an async runtime into `relay mcp`, which answers one request at a time.
//!
//! Only protocol messages go to stdout; notes and warnings go to stderr. Tool failures come
//! back as tool results with `isError: true` that name the protocol's error code, so that the
//! model sees them; malformed messages, unknown methods and unknown tools are JSON-RPC errors.

mod amp;
mod call;
mod handlers;
pub mod host;
mod input;
pub mod resources;
pub mod schema;
pub mod tools;

use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

pub use host::{Host, Settings};
use relay_wire::error::{Code, Error};

/// The protocol revisions this server speaks, newest first. A client asking for one of them
/// gets it; any other gets the newest.
pub const PROTOCOL_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

// JSON-RPC 2.0 error codes.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP's code for a resource that does not exist.
pub const RESOURCE_NOT_FOUND: i64 = -32002;

const INSTRUCTIONS: &str = "relay keeps this project's shared context (decisions, open questions, \
handoff notes, facts) in an append-only log that humans and other agents read too. At the start \
of a session call `orient` and read the latest handoff, the open questions and the active facts. \
Before working on a topic, `pull` with mode `relevant` to find earlier work on it. When you \
finish something meaningful, `deposit` a package: a title, the decisions you made, the questions \
left open, and a handoff note for whoever continues. Record what is true now with `facts_assert`. \
To follow other agents' work as it lands, call `watch` with the cursor it returned last time. \
`conformance` says what this server implements (Agentic Protocol §11.5): level L3; relevant \
pull is keyword search (BM25), and semantic or hybrid search when a model is configured.";

/// `serverInfo.description` (protocol revision 2025-11-25; older clients ignore it).
const DESCRIPTION: &str = "Shared context for agents and humans: an Agentic Protocol v0.1 \
store at conformance level L3. The `conformance` tool returns the §11.5 descriptor.";

/// The result of `tools/list`: every tool, its description and its input schema.
pub fn tools_list() -> Value {
    let tools: Vec<Value> = tools::TOOLS.iter().map(tools::Tool::describe).collect();
    json!({ "tools": tools })
}

/// A JSON-RPC error: its code and message.
type Failure = (i64, String);

/// The most messages a JSON-RPC batch may hold (protocol revision 2025-03-26, over stdio);
/// a larger one is refused whole before any of its messages runs.
pub const MAX_BATCH: usize = 64;

/// The server of one client, whatever carries its messages: [`Server::message`] answers one
/// JSON-RPC message. It keeps the feeds the client subscribed to, when the transport can
/// send them updates ([`Server::notifying`]).
pub struct Server<'a> {
    host: &'a dyn Host,
    settings: Settings,
    /// The resource URIs subscribed to; `None` on a transport that cannot notify (stdio,
    /// which answers one request at a time and sends nothing unasked).
    subscriptions: Option<BTreeSet<String>>,
}

/// Serves MCP on `input` and `output` until `input` ends.
pub fn serve(
    host: &dyn Host,
    settings: Settings,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let limits = host
        .store()
        .map(|s| s.config().limits())
        .unwrap_or_default();
    let max = usize::try_from(limits.line_bytes).unwrap_or(usize::MAX);
    // A session lives on between searches: the transformer's vectors, when far behind, are
    // built on a thread while the static table ranks.
    relay_core::search::vector_build::build_behind_reads_in_this_process();
    let mut server = Server::new(host, settings);
    while let Some(line) = read_line(&mut input, max)? {
        let reply = match line {
            Line::TooLong(n) => {
                let message = limits
                    .check_input("the message", n)
                    .err()
                    .unwrap_or_default();
                Some(failure(Value::Null, INVALID_REQUEST, message))
            }
            Line::Bytes(bytes) if bytes.trim_ascii().is_empty() => None,
            Line::Bytes(bytes) => match relay_wire::strict::from_slice(&bytes) {
                Ok(message) => server.message(message),
                Err(e) => Some(failure(
                    Value::Null,
                    PARSE_ERROR,
                    format!("parse error: {e}"),
                )),
            },
        };
        if let Some(reply) = reply {
            let mut bytes = serde_json::to_vec(&reply)?;
            bytes.push(b'\n');
            output.write_all(&bytes)?;
            output.flush()?;
        }
    }
    Ok(())
}

enum Line {
    Bytes(Vec<u8>),
    /// A line over the limit (its length); it was read and dropped.
    TooLong(usize),
}

/// Reads one line of at most `max` bytes (without its newline); `None` at the end.
fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut buf = Vec::new();
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    if io::Read::take(&mut *input, limit).read_until(b'\n', &mut buf)? == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(Some(Line::Bytes(buf)));
    }
    if buf.len() <= max {
        // The last line, without a newline.
        return Ok(Some(Line::Bytes(buf)));
    }
    let mut total = buf.len();
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                total += i;
                input.consume(i + 1);
                break;
            }
            None => {
                let n = chunk.len();
                total += n;
                input.consume(n);
            }
        }
    }
    Ok(Some(Line::TooLong(total)))
}

fn failure(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

impl<'a> Server<'a> {
    /// A server for a transport that sends nothing unasked: no resource subscriptions.
    pub fn new(host: &'a dyn Host, settings: Settings) -> Server<'a> {
        Server {
            host,
            settings,
            subscriptions: None,
        }
    }

    /// A server for a transport that can notify the client, holding its `subscriptions` so
    /// far (a session's, kept by the transport between messages).
    pub fn notifying(
        host: &'a dyn Host,
        settings: Settings,
        subscriptions: BTreeSet<String>,
    ) -> Server<'a> {
        Server {
            host,
            settings,
            subscriptions: Some(subscriptions),
        }
    }

    /// The resource URIs the client is subscribed to now.
    pub fn subscriptions(&self) -> BTreeSet<String> {
        self.subscriptions.clone().unwrap_or_default()
    }

    /// Answers one message (or a batch of at most [`MAX_BATCH`], as protocol revision
    /// 2025-03-26 allowed); `None` for
    /// notifications and responses, which get no reply.
    pub fn message(&mut self, message: Value) -> Option<Value> {
        let Value::Array(batch) = message else {
            return self.single(message);
        };
        if batch.is_empty() {
            return Some(failure(
                Value::Null,
                INVALID_REQUEST,
                "an empty batch".into(),
            ));
        }
        if batch.len() > MAX_BATCH {
            // Refused whole, before any of its messages runs.
            return Some(failure(
                Value::Null,
                INVALID_REQUEST,
                format!(
                    "a batch of {} messages is over the most this server takes, {MAX_BATCH}; \
                     nothing was run: send smaller batches",
                    batch.len()
                ),
            ));
        }
        let replies: Vec<Value> = batch.into_iter().filter_map(|m| self.single(m)).collect();
        (!replies.is_empty()).then_some(Value::Array(replies))
    }

    fn single(&mut self, message: Value) -> Option<Value> {
        let Value::Object(mut m) = message else {
            return Some(failure(
                Value::Null,
                INVALID_REQUEST,
                "a JSON-RPC message must be an object".into(),
            ));
        };
        let id = m.remove("id");
        let bad = |id: Option<Value>, message: &str| {
            Some(failure(
                id.unwrap_or(Value::Null),
                INVALID_REQUEST,
                message.into(),
            ))
        };
        if id
            .as_ref()
            .is_some_and(|id| !id.is_string() && !id.is_number())
        {
            return bad(None, "`id` must be a string or a number");
        }
        let method = match m.remove("method") {
            Some(Value::String(method)) => method,
            // A response: this server sends no requests, so there is nothing to match it to.
            None if m.contains_key("result") || m.contains_key("error") => return None,
            _ => return bad(id, "`method` must be a string"),
        };
        if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return bad(Some(id?), "`jsonrpc` must be \"2.0\"");
        }
        // Notifications (`notifications/initialized`, `notifications/cancelled`, …) need no
        // action from a server that answers each request before reading the next.
        let id = id?;
        let params = match m.remove("params") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(p)) => p,
            Some(_) => {
                return Some(failure(
                    id,
                    INVALID_PARAMS,
                    "`params` must be an object".into(),
                ));
            }
        };
        Some(match self.request(&method, params) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err((code, message)) => failure(id, code, message),
        })
    }

    fn request(&mut self, method: &str, params: Map<String, Value>) -> Result<Value, Failure> {
        match method {
            "initialize" => Ok(initialize(&params, self.subscriptions.is_some())),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(tools_list()),
            "tools/call" => self.call(params),
            "resources/list" => resource_reply(resources::list(self.host, &self.settings)),
            "resources/templates/list" => Ok(json!({ "resourceTemplates": [] })),
            "resources/read" => {
                let uri = uri(&params)?;
                resource_reply(resources::read(self.host, &self.settings, &uri))
            }
            "resources/subscribe" | "resources/unsubscribe" if self.subscriptions.is_some() => {
                let uri = uri(&params)?;
                if method == "resources/subscribe" {
                    resource_reply(resources::known(self.host, &self.settings, &uri))?;
                    self.subscriptions.get_or_insert_default().insert(uri);
                } else {
                    self.subscriptions.get_or_insert_default().remove(&uri);
                }
                Ok(json!({}))
            }
            _ => Err((METHOD_NOT_FOUND, format!("method not found: {method}"))),
        }
    }

    fn call(&mut self, mut params: Map<String, Value>) -> Result<Value, Failure> {
        let name = match params.remove("name") {
            Some(Value::String(name)) => name,
            _ => return Err((INVALID_PARAMS, "tools/call needs `name`, a string".into())),
        };
        let Some(tool) = tools::find(&name) else {
            return Err((
                INVALID_PARAMS,
                format!("unknown tool: {name} (tools/list names them)"),
            ));
        };
        let arguments = match params.remove("arguments") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(a)) => a,
            Some(_) => {
                return Err((INVALID_PARAMS, "`arguments` must be an object".into()));
            }
        };
        let (host, settings) = (self.host, &self.settings);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            tools::call(host, settings, tool, arguments)
        }));
        self.host.report_warnings();
        match outcome {
            Ok(Ok(value)) => Ok(tool_result(value, false)),
            Ok(Err(e)) => Ok(tool_error(&e, self.host.explain(&e))),
            Err(_) => Err((
                INTERNAL_ERROR,
                format!("relay failed while running `{name}` (a bug; details on stderr)"),
            )),
        }
    }
}

/// The `uri` a resources method names.
fn uri(params: &Map<String, Value>) -> Result<String, Failure> {
    match params.get("uri") {
        Some(Value::String(uri)) => Ok(uri.clone()),
        _ => Err((INVALID_PARAMS, "`uri` must be a string".into())),
    }
}

/// A resources method's answer: a failure is a JSON-RPC error (MCP has no `isError` for
/// resources), "resource not found" for a URI that names nothing.
fn resource_reply<T>(outcome: relay_wire::error::Result<T>) -> Result<T, Failure> {
    outcome.map_err(|e| {
        let code = match e.code() {
            c if c == Code::InvalidInput.as_str() || c.ends_with("not_found") => RESOURCE_NOT_FOUND,
            _ => INVALID_REQUEST,
        };
        (code, format!("{}: {e}", e.code()))
    })
}

fn initialize(params: &Map<String, Value>, notifies: bool) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let version = PROTOCOL_VERSIONS
        .iter()
        .find(|v| Some(**v) == asked)
        .unwrap_or(&PROTOCOL_VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": {
            "tools": {},
            "resources": {"subscribe": notifies, "listChanged": false},
        },
        "serverInfo": {
            "name": "relay",
            "title": "relay",
            "version": env!("CARGO_PKG_VERSION"),
            "description": DESCRIPTION,
        },
        "instructions": INSTRUCTIONS,
    })
}

/// A tool result: the object as JSON text (for clients that read only text) and as
/// `structuredContent`.
fn tool_result(value: Value, is_error: bool) -> Value {
    json!({
        "content": [{"type": "text", "text": value.to_string()}],
        "structuredContent": value,
        "isError": is_error,
    })
}

/// A failed tool call as the model sees it: `code: message` (the message as the host
/// explains it), and the same as `{"error", "message"}` (what `--json` prints on stderr).
fn tool_error(e: &Error, message: String) -> Value {
    let code = e.code();
    // A usage error of the command line is bad input from a client.
    let code = if code == Code::Usage.as_str() {
        Code::InvalidInput.as_str()
    } else {
        code
    };
    json!({
        "content": [{"type": "text", "text": format!("{code}: {message}")}],
        "structuredContent": {"error": code, "message": message},
        "isError": true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host with no store, whose explanations are marked.
    struct NoStore;

    impl Host for NoStore {
        fn store(&self) -> relay_wire::error::Result<&relay_store::Store> {
            Err(Error::InvalidInput("no store here".into()))
        }
        fn explain(&self, error: &Error) -> String {
            format!("explained: {error}")
        }
        fn report_warnings(&self) {}
        fn search_fell_back(
            &self,
            _: &relay_store::Store,
            _: relay_core::search::choice::FellBack,
        ) {
        }
        fn query_notice(&self, _: &str) {}
    }

    #[test]
    fn a_batch_over_the_most_is_refused_whole_and_one_within_it_is_answered() {
        let call = |id: usize| json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
        let mut server = Server::new(&NoStore, Settings::default());
        let over = Value::Array((0..=MAX_BATCH).map(call).collect());
        let refused = server.message(over).unwrap();
        assert_eq!(refused["error"]["code"], INVALID_REQUEST);
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .contains("nothing was run")
        );
        let within = Value::Array((0..MAX_BATCH).map(call).collect());
        let answers = server.message(within).unwrap();
        assert_eq!(answers.as_array().unwrap().len(), MAX_BATCH);
    }

    #[test]
    fn a_tool_call_reads_the_store_and_its_errors_through_the_host() {
        let input = concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"orient"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"conformance"}}"#,
            "\n",
        );
        let mut out = Vec::new();
        serve(&NoStore, Settings::default(), input.as_bytes(), &mut out).unwrap();
        let replies: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let failed = &replies[0]["result"];
        assert_eq!(failed["isError"], true);
        assert_eq!(
            failed["structuredContent"],
            json!({"error": "invalid_input", "message": "explained: no store here"})
        );
        // The descriptor needs no store.
        assert_eq!(replies[1]["result"]["isError"], false);
    }

    fn lines(input: &[u8], max: usize) -> Vec<Result<String, usize>> {
        let mut r = input;
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut r, max).unwrap() {
            out.push(match l {
                Line::Bytes(b) => Ok(String::from_utf8(b).unwrap()),
                Line::TooLong(n) => Err(n),
            });
        }
        out
    }

    #[test]
    fn lines_over_the_limit_are_dropped_whole() {
        let got = lines(b"abc\n0123456789\nxy\nlast", 5);
        assert_eq!(
            got,
            [
                Ok("abc".into()),
                Err(10),
                Ok("xy".into()),
                Ok("last".into())
            ]
        );
        assert_eq!(lines(b"12345\n123456", 5), [Ok("12345".into()), Err(6)]);
    }

    #[test]
    fn version_negotiation_echoes_a_supported_version_else_offers_the_newest() {
        let v = |asked: Value| {
            let mut p = Map::new();
            p.insert("protocolVersion".into(), asked);
            initialize(&p, false)["protocolVersion"].clone()
        };
        assert_eq!(v(json!("2024-11-05")), "2024-11-05");
        assert_eq!(v(json!("2025-06-18")), "2025-06-18");
        assert_eq!(v(json!("1999-01-01")), PROTOCOL_VERSIONS[0]);
        assert_eq!(v(Value::Null), PROTOCOL_VERSIONS[0]);
    }
}
