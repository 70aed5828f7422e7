//! What the HTTP server answers: an error becomes its code's status (from the one table,
//! `error::Code::http_status`) and the body `{"error": CODE, "message": …}`, as `--json`
//! errors read; a result becomes JSON with 200 or 201. The failures only HTTP has (no route,
//! a body too large, a wrong `Host`, …) are [`RequestError`]s here, not the core's errors.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use std::fmt;

use relay_wire::error::{Code, Error, SchemaError};

/// A request HTTP itself refuses, before or around the operation it asks for.
#[derive(Debug)]
pub enum RequestError {
    /// A path the server does not route.
    NoRoute { method: String, path: String },
    /// A method its path does not take.
    MethodNotAllowed { method: String, path: String },
    /// A body over the server's limit, in bytes.
    PayloadTooLarge { limit: u64 },
    /// A body that is not JSON by its `Content-Type` (what it said).
    UnsupportedMediaType(String),
    /// Not read and answered within the server's time limit, in seconds.
    RequestTimeout { seconds: u64 },
    /// A `Host` that names another server than this one (DNS rebinding): what it named.
    MisdirectedRequest(String),
    /// A request that is not valid HTTP/1.1, or that names its `Host` more than once: why.
    BadRequest(String),
    /// A request target over hyper's limit, in bytes.
    UriTooLong { limit: usize },
    /// Header fields over the server's limits (their count, or the head's bytes).
    HeaderFieldsTooLarge { fields: usize, bytes: usize },
    /// The caller is at its own cap: why, and in how many seconds to try again.
    TooManyRequests { why: String, retry_after: u64 },
    /// The server is at a cap for everyone: why, and in how many seconds to try again.
    ServerBusy { why: String, retry_after: u64 },
}

impl RequestError {
    /// Its code in the one table of codes.
    pub fn code(&self) -> Code {
        match self {
            RequestError::NoRoute { .. } => Code::NotFound,
            RequestError::MethodNotAllowed { .. } => Code::MethodNotAllowed,
            RequestError::PayloadTooLarge { .. } => Code::PayloadTooLarge,
            RequestError::UnsupportedMediaType(_) => Code::UnsupportedMediaType,
            RequestError::RequestTimeout { .. } => Code::RequestTimeout,
            RequestError::MisdirectedRequest(_) => Code::MisdirectedRequest,
            RequestError::BadRequest(_) => Code::BadRequest,
            RequestError::UriTooLong { .. } => Code::UriTooLong,
            RequestError::HeaderFieldsTooLarge { .. } => Code::HeaderFieldsTooLarge,
            RequestError::TooManyRequests { .. } => Code::TooManyRequests,
            RequestError::ServerBusy { .. } => Code::ServerBusy,
        }
    }

    /// The seconds a client should wait before it asks again (`Retry-After`), for a refusal
    /// that a later try may pass.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            RequestError::TooManyRequests { retry_after, .. }
            | RequestError::ServerBusy { retry_after, .. } => Some(*retry_after),
            _ => None,
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::NoRoute { method, path } => write!(
                f,
                "no route for {method} {path}; the routes are under /v1/ (see `relay serve --help`)"
            ),
            RequestError::MethodNotAllowed { method, path } => {
                write!(f, "{path} does not take {method}")
            }
            RequestError::PayloadTooLarge { limit } => write!(
                f,
                "the request body is over the server's limit of {limit} bytes (relay serve --max-body); nothing was written"
            ),
            RequestError::UnsupportedMediaType(given) => write!(
                f,
                "the request body must be JSON with `Content-Type: application/json`, not {given}"
            ),
            RequestError::RequestTimeout { seconds } => write!(
                f,
                "the request was not received and answered within {seconds} s (relay serve --timeout)"
            ),
            RequestError::MisdirectedRequest(m) | RequestError::BadRequest(m) => write!(f, "{m}"),
            RequestError::UriTooLong { limit } => write!(
                f,
                "the request target (path and query) is over {limit} bytes; send long input in a \
                 JSON body (POST) instead"
            ),
            RequestError::HeaderFieldsTooLarge { fields, bytes } => write!(
                f,
                "the request's header fields are over the server's limits ({fields} fields, \
                 {bytes} bytes in all); send fewer or shorter headers"
            ),
            RequestError::TooManyRequests { why, retry_after }
            | RequestError::ServerBusy { why, retry_after } => {
                write!(f, "{why}; try again in {retry_after} s")
            }
        }
    }
}

/// A failed request: the operation's error, or HTTP's own refusal, answered with its code's
/// status.
#[derive(Debug)]
pub enum ApiError {
    Op(Error),
    Request(RequestError),
}

impl ApiError {
    /// The error code.
    pub fn code(&self) -> Code {
        match self {
            ApiError::Op(e) => e.error_code(),
            ApiError::Request(e) => e.code(),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Op(e) => e.fmt(f),
            ApiError::Request(e) => e.fmt(f),
        }
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        ApiError::Op(e)
    }
}

impl From<RequestError> for ApiError {
    fn from(e: RequestError) -> Self {
        ApiError::Request(e)
    }
}

impl From<SchemaError> for ApiError {
    fn from(e: SchemaError) -> Self {
        ApiError::Op(e.into())
    }
}

/// The status of an error code, from the table of codes.
pub fn status_of(code: Code) -> StatusCode {
    StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The body of an error: `{"error": CODE, "message": …}`, as `--json` errors read.
pub fn error_body(e: &ApiError) -> Value {
    let mut body = json!({"error": e.code().as_str(), "message": e.to_string()});
    // relay's member beside the code: the actor a token writes as, for a client to write as.
    if let ApiError::Op(Error::NotTheTokensActor {
        actor_id,
        actor_type,
        ..
    }) = e
    {
        body["actor"] = json!({"id": actor_id, "type": actor_type});
    }
    body
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (status_of(self.code()), axum::Json(error_body(&self))).into_response();
        if let ApiError::Request(e) = &self
            && let Some(seconds) = e.retry_after()
        {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if self.code() == Code::Unauthenticated {
            // RFC 6750 §3: a 401 names the scheme the client should use.
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"relay\""),
            );
        }
        response
    }
}

/// A successful answer: JSON with its status, and headers besides.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
    pub headers: Vec<(header::HeaderName, HeaderValue)>,
}

/// The header a read of one package carries its signature's verdict in, as JSON: the body
/// is the package exactly as stored, which its hash covers.
pub const SIGNATURE_HEADER: &str = "x-relay-signature";

impl Reply {
    pub fn ok(body: Value) -> Reply {
        Reply {
            status: StatusCode::OK,
            body,
            headers: Vec::new(),
        }
    }

    /// The answer with `value`, as JSON in ASCII (other characters escaped), in header
    /// `name`.
    pub fn with_json_header(mut self, name: &'static str, value: &Value) -> Reply {
        let mut ascii = String::new();
        for c in value.to_string().chars() {
            match c {
                ' '..='~' => ascii.push(c),
                c => {
                    let mut units = [0; 2];
                    for u in c.encode_utf16(&mut units) {
                        ascii.push_str(&format!("\\u{u:04x}"));
                    }
                }
            }
        }
        if let Ok(v) = HeaderValue::from_str(&ascii) {
            self.headers
                .push((header::HeaderName::from_static(name), v));
        }
        self
    }

    /// The 501 of §10.2 for an operation that needs a capability the server lacks: the error's
    /// `{"error", "message"}` and `capability`, the descriptor's flag for it.
    pub fn missing_capability(e: Error, capability: &str) -> Reply {
        let mut body = error_body(&ApiError::from(e));
        body["capability"] = Value::from(capability);
        Reply {
            status: StatusCode::NOT_IMPLEMENTED,
            body,
            headers: Vec::new(),
        }
    }

    /// 201 when `created`, else 200 (a retry that wrote nothing).
    pub fn written(created: bool, body: Value) -> Reply {
        Reply {
            status: if created {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            },
            body,
            headers: Vec::new(),
        }
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body)).into_response();
        for (name, value) in self.headers {
            response.headers_mut().insert(name, value);
        }
        response
    }
}

pub type Answer = Result<Reply, ApiError>;

/// A value as JSON, for results that serialize.
pub fn to_json(v: &impl serde::Serialize) -> Result<Value, Error> {
    serde_json::to_value(v).map_err(|e| Error::Integrity(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_answer_with_the_tables_status_and_a_json_body() {
        let cases: [(ApiError, u16, &str); 7] = [
            (
                Error::PackageNotFound("pkg_1".into()).into(),
                404,
                "package_not_found",
            ),
            (
                Error::Unauthenticated("no token".into()).into(),
                401,
                "unauthenticated",
            ),
            (
                Error::Unauthorized("read-only".into()).into(),
                403,
                "unauthorized",
            ),
            (
                RequestError::PayloadTooLarge { limit: 4 }.into(),
                413,
                "payload_too_large",
            ),
            (
                RequestError::UnsupportedMediaType("x".into()).into(),
                415,
                "unsupported_media_type",
            ),
            (
                RequestError::RequestTimeout { seconds: 1 }.into(),
                408,
                "request_timeout",
            ),
            (
                Error::DuplicatePackageId("pkg_1".into()).into(),
                409,
                "duplicate_package_id",
            ),
        ];
        for (e, status, code) in cases {
            let body = error_body(&e);
            let message = e.to_string();
            let r = e.into_response();
            assert_eq!(r.status().as_u16(), status, "{code}");
            assert_eq!(body, json!({"error": code, "message": message}));
            assert_eq!(
                r.headers()[header::CONTENT_TYPE],
                "application/json",
                "{code}"
            );
            assert_eq!(
                r.headers().contains_key(header::WWW_AUTHENTICATE),
                status == 401,
                "{code}"
            );
        }
    }
}
