//! How the HTTP server reads what it is sent: the path's id, the query string and a JSON body,
//! each turned into a typed value, or into an [`ApiError`] (`invalid_input`, `invalid_schema`,
//! 413, 415) instead of axum's plain-text rejections. The body's size limit and content type
//! are checked here, before anything is parsed.

use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::{header, request::Parts};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::guard::is_json;
use super::reply::{ApiError, RequestError};
use super::state::AppState;
use relay_core::request::decode_error;
use relay_wire::error::{Error, SchemaError};

/// The one path parameter of a route (a project, package or session id), percent-decoded.
/// Any string is accepted: ids reach the store only through its encoding, never as a path.
pub struct PathId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PathId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(PathId(id)),
            Err(e) => Err(Error::InvalidInput(format!("the path: {}", e.body_text())).into()),
        }
    }
}

/// The query string, parsed into `T` (which should deny unknown fields, so that a misspelt
/// parameter is an error and not a silent default).
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        // A key given more than once reads as a list (`?type=a&type=b`).
        match serde_html_form::from_str::<T>(parts.uri.query().unwrap_or_default()) {
            Ok(t) => Ok(Params(t)),
            Err(e) => Err(decode_error("the query string", &e.to_string()).into()),
        }
    }
}

/// A request body: JSON, at most the server's `max_body` bytes. An empty body is `None`, so
/// that routes whose body is optional take none; a non-empty one must say `Content-Type:
/// application/json` (415 otherwise) and parse (400 `invalid_schema` otherwise). (A write
/// that names another type is refused before, even with no body: `super::guard`.)
pub struct JsonBody(pub Option<Value>);

impl FromRequest<AppState> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        let limit = state.max_body;
        let too_large = || {
            ApiError::Request(RequestError::PayloadTooLarge {
                limit: limit as u64,
            })
        };
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        if declared.is_some_and(|n| n > limit as u64) {
            return Err(too_large());
        }
        let content_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let mut bytes = Vec::new();
        let mut stream = req.into_body().into_data_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| {
                if declares_too_much(&e) {
                    return too_large();
                }
                ApiError::Op(Error::InvalidInput(format!(
                    "the request body could not be read: {e}"
                )))
            })?;
            if bytes.len() + chunk.len() > limit {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        if bytes.is_empty() {
            return Ok(JsonBody(None));
        }
        if !content_type.as_deref().is_some_and(is_json) {
            let given = content_type.map_or("no Content-Type".to_string(), |t| format!("`{t}`"));
            return Err(RequestError::UnsupportedMediaType(given).into());
        }
        relay_wire::strict::from_slice(&bytes)
            .map(|v| JsonBody(Some(v)))
            .map_err(|e| Error::malformed_json("the request body", &e).into())
    }
}

/// Whether a body failed to arrive because it declared more than any limit: a chunk whose
/// size does not fit in 64 bits (hyper stops there, before reading it). That is a body too
/// large (413), not a malformed one.
fn declares_too_much(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut at = Some(e);
    while let Some(e) = at {
        if e.to_string().contains("chunk size: overflow") {
            return true;
        }
        at = e.source();
    }
    false
}

impl JsonBody {
    /// The body as an object; an absent body is an empty one when `required` is false.
    pub fn object(self, what: &str, required: bool) -> Result<Map<String, Value>, Error> {
        match self.0 {
            Some(Value::Object(map)) => Ok(map),
            None if !required => Ok(Map::new()),
            None => Err(SchemaError::new("", format!("the request body must be {what}")).into()),
            Some(_) => Err(SchemaError::new(
                "",
                format!("the request body must be {what}, a JSON object"),
            )
            .into()),
        }
    }

    /// The body read into `T` (absent: `{}`), its mismatches under the one rule of
    /// [`decode_error`].
    pub fn parse<T: DeserializeOwned>(self, what: &str) -> Result<T, Error> {
        relay_core::request::from_json(what, self.object(what, false)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_chunk_too_large_to_count_is_a_body_too_large() {
        let overflow = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "invalid chunk size: overflow",
        );
        let wrapped = axum::Error::new(overflow);
        assert!(declares_too_much(&wrapped));
        let torn = axum::Error::new(std::io::Error::other("connection reset"));
        assert!(!declares_too_much(&torn));
    }

    #[test]
    fn bodies_must_be_objects_and_optional_ones_may_be_absent() {
        assert_eq!(JsonBody(None).object("x", false).unwrap(), Map::new());
        assert_eq!(
            JsonBody(None).object("a package", true).unwrap_err().code(),
            "invalid_schema"
        );
        assert_eq!(
            JsonBody(Some(json!([1])))
                .object("x", false)
                .unwrap_err()
                .code(),
            "invalid_schema"
        );
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        struct Note {
            #[allow(dead_code)]
            note: Option<String>,
        }
        assert!(JsonBody(None).parse::<Note>("x").is_ok());
        let e = JsonBody(Some(json!({"nite": 1})))
            .parse::<Note>("x")
            .unwrap_err();
        assert_eq!(e.code(), "invalid_schema");
        assert!(e.to_string().contains("nite"), "{e}");
    }
}
