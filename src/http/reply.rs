//! What the HTTP server answers: an error becomes its code's status (from the one table,
//! `error::Code::http_status`) and the body `{"error": CODE, "message": …}`, as `--json`
//! errors read; a result becomes JSON with 200 or 201.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::error::{Code, Error, SchemaError};

/// A failed request: the error, answered with its code's status.
#[derive(Debug)]
pub struct ApiError(pub Error);

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        ApiError(e)
    }
}

impl From<SchemaError> for ApiError {
    fn from(e: SchemaError) -> Self {
        ApiError(e.into())
    }
}

/// The status of an error, from the table of codes.
pub fn status_of(e: &Error) -> StatusCode {
    StatusCode::from_u16(e.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The body of an error: `{"error": CODE, "message": …}`, as `--json` errors read.
pub fn error_body(e: &Error) -> Value {
    json!({"error": e.code(), "message": e.to_string()})
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (status_of(&self.0), axum::Json(error_body(&self.0))).into_response();
        if self.0.error_code() == Code::Unauthenticated {
            // RFC 6750 §3: a 401 names the scheme the client should use.
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"relay\""),
            );
        }
        response
    }
}

/// A successful answer: JSON with its status.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
}

impl Reply {
    pub fn ok(body: Value) -> Reply {
        Reply {
            status: StatusCode::OK,
            body,
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
        }
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body)).into_response()
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
        let cases = [
            (
                Error::PackageNotFound("pkg_1".into()),
                404,
                "package_not_found",
            ),
            (
                Error::Unauthenticated("no token".into()),
                401,
                "unauthenticated",
            ),
            (Error::Unauthorized("read-only".into()), 403, "unauthorized"),
            (
                Error::PayloadTooLarge { limit: 4 },
                413,
                "payload_too_large",
            ),
            (
                Error::UnsupportedMediaType("x".into()),
                415,
                "unsupported_media_type",
            ),
            (Error::RequestTimeout { seconds: 1 }, 408, "request_timeout"),
            (
                Error::DuplicatePackageId("pkg_1".into()),
                409,
                "duplicate_package_id",
            ),
        ];
        for (e, status, code) in cases {
            let body = error_body(&e);
            let message = e.to_string();
            let r = ApiError(e).into_response();
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
