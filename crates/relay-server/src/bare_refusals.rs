//! The JSON body of the refusals hyper writes itself. A request hyper cannot parse (a target
//! over 65,534 bytes, more than [`MAX_HEADER_FIELDS`] header fields or a head over hyper's
//! buffer, a line that is not HTTP) never reaches the router: hyper answers 414, 431 or 400
//! with an empty body and closes the connection. Every other refusal of the server carries
//! `{"error", "message"}`, so [`JsonRefusals`] sits between hyper and the socket and gives
//! those three answers the same body: it recognizes hyper's own head (one of those statuses
//! with `content-length: 0`, which the router's answers never are) and writes it again with
//! the body, `Content-Type: application/json` and `Cache-Control: no-store`.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::reply::{ApiError, RequestError, error_body};

/// The most header fields a request may have (hyper's default, which it answers 431 past).
pub const MAX_HEADER_FIELDS: usize = 100;
/// The most bytes of a request's head hyper reads before it answers 431 (its default buffer).
pub const MAX_HEAD_BYTES: usize = 8192 + 4096 * 100;
/// The longest request target hyper takes before it answers 414.
pub const MAX_TARGET_BYTES: usize = u16::MAX as usize - 1;

/// A connection's socket, with hyper's bodiless refusals given their JSON body.
pub struct JsonRefusals<S> {
    inner: S,
    /// A rewritten refusal not yet written out, and how much of it was.
    pending: Option<(Vec<u8>, usize)>,
}

impl<S> JsonRefusals<S> {
    pub fn new(inner: S) -> JsonRefusals<S> {
        JsonRefusals {
            inner,
            pending: None,
        }
    }
}

/// The refusal hyper's own answer with `status` stands for.
fn refusal(status: &[u8]) -> Option<RequestError> {
    Some(match status {
        b"400" => RequestError::BadRequest(
            "the request is not valid HTTP/1.1: its request line or a header field does not \
             parse"
                .into(),
        ),
        b"414" => RequestError::UriTooLong {
            limit: MAX_TARGET_BYTES,
        },
        b"431" => RequestError::HeaderFieldsTooLarge {
            fields: MAX_HEADER_FIELDS,
            bytes: MAX_HEAD_BYTES,
        },
        _ => return None,
    })
}

/// `written` again with a JSON body, when it is a whole bodiless head of one of hyper's own
/// refusals; `None` for anything else (every answer of the router).
pub fn with_json_body(written: &[u8]) -> Option<Vec<u8>> {
    let head = written.strip_suffix(b"\r\n\r\n")?;
    let rest = head.strip_prefix(b"HTTP/1.1 ")?;
    let error = ApiError::Request(refusal(rest.get(..3)?)?);
    let lines: Vec<&[u8]> = head.split(|b| *b == b'\n').collect();
    let bodiless = (lines.iter().skip(1))
        .any(|l| l.eq_ignore_ascii_case(b"content-length: 0\r") || l == b"content-length: 0");
    if !bodiless {
        return None;
    }
    let body = serde_json::to_vec(&error_body(&error)).ok()?;
    let mut out = Vec::with_capacity(head.len() + body.len() + 128);
    for line in &lines {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() >= 15 && line[..15].eq_ignore_ascii_case(b"content-length:") {
            continue;
        }
        out.extend_from_slice(line);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"content-type: application/json\r\ncache-control: no-store\r\n");
    out.extend_from_slice(format!("content-length: {}\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(&body);
    Some(out)
}

impl<S: AsyncWrite + Unpin> JsonRefusals<S> {
    /// Writes out what is pending; ready once nothing is.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, done)) = &mut self.pending {
            if *done == bytes.len() {
                self.pending = None;
                break;
            }
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*done..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *done += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonRefusals<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        if let Some(rewritten) = with_json_body(buf) {
            self.pending = Some((rewritten, 0));
            // Taken whole: what is left of it goes out at the next write, flush or shutdown.
            let _ = self.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    // Not vectored: hyper then writes each answer's head as one buffer, which is what
    // [`with_json_body`] recognizes.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_bodiless_refusals_get_the_json_body_and_others_pass_unchanged() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Sun, 29 Nov 2026 12:00:00 GMT\r\n\r\n";
        let out = String::from_utf8(with_json_body(head).unwrap()).unwrap();
        let (head_out, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head_out.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(head_out.contains("\r\ndate: Sun, 29 Nov 2026 12:00:00 GMT"));
        assert!(head_out.contains("\r\ncontent-type: application/json"));
        assert!(head_out.contains("\r\ncache-control: no-store"));
        assert!(head_out.ends_with(&format!("content-length: {}", body.len())));
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"], "header_fields_too_large");
        for status in ["400 Bad Request", "414 URI Too Long"] {
            let head = format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\n\r\n");
            assert!(with_json_body(head.as_bytes()).is_some(), "{status}");
        }
        // The router's answers: with a body, another status, or a body that follows the head.
        for other in [
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 40\r\n\r\n",
            "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n{}",
            "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
        ] {
            assert_eq!(with_json_body(other.as_bytes()), None, "{other}");
        }
    }
}
