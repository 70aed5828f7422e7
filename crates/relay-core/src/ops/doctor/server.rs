//! A relay server the user names (`relay doctor --server URL`): it must answer its conformance
//! descriptor (§11.5, `GET /v1/conformance`) with this protocol version and a level. One
//! plain HTTP/1.1 request over a socket: no HTTP client is needed for one GET, and an `https`
//! server is left to `relay conformance --check URL`, which speaks TLS.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use serde_json::Value;

use super::Finding;

const CHECK: &str = "server";
/// How long the server has to connect and answer.
const LIMIT: Duration = Duration::from_secs(5);
/// The descriptor's path under the server's URL.
const DESCRIPTOR: &str = "/v1/conformance";

pub fn check(url: Option<&str>) -> Finding {
    let Some(url) = url else {
        return Finding::skip(
            CHECK,
            "no server named (relay doctor --server URL checks one)",
        );
    };
    let fix = format!(
        "start it (`relay serve`) or correct the URL; `relay conformance --check {url}` tests it in full"
    );
    match descriptor(url) {
        Ok(d) => {
            let version = d["protocol_version"].as_str().unwrap_or_default();
            let level = d["conformance_level"].as_str().unwrap_or_default();
            if version != relay_wire::PROTOCOL_VERSION {
                Finding::fail(
                    CHECK,
                    format!(
                        "{url} speaks protocol {version:?}, not {}",
                        relay_wire::PROTOCOL_VERSION
                    ),
                    fix,
                )
            } else if !["L0", "L1", "L2", "L3"].contains(&level) {
                Finding::fail(CHECK, format!("{url} claims no conformance level"), fix)
            } else {
                Finding::ok(
                    CHECK,
                    format!("{url} answers: protocol {version}, level {level}"),
                )
            }
        }
        Err(why) => Finding::fail(CHECK, format!("{url}: {why}"), fix),
    }
}

/// The descriptor the server at `url` answers.
fn descriptor(url: &str) -> Result<Value, String> {
    let rest = url.strip_prefix("http://").ok_or(
        "only http:// URLs are checked here (for https, use `relay conformance --check URL`)",
    )?;
    let (authority, base) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let address = match authority.contains(':') && !authority.ends_with(']') {
        true => authority.to_string(),
        false => format!("{authority}:80"),
    };
    let socket = (address
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve it ({e})"))?)
    .next()
    .ok_or("it resolves to no address")?;
    let mut stream =
        TcpStream::connect_timeout(&socket, LIMIT).map_err(|e| format!("does not answer ({e})"))?;
    let _ = stream.set_read_timeout(Some(LIMIT));
    let _ = stream.set_write_timeout(Some(LIMIT));
    let path = format!("{}{DESCRIPTOR}", base.trim_end_matches('/'));
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| format!("cannot send the request ({e})"))?;
    let mut reply = Vec::new();
    stream
        .read_to_end(&mut reply)
        .map_err(|e| format!("no full answer ({e})"))?;
    let reply = String::from_utf8_lossy(&reply);
    let (head, body) = reply
        .split_once("\r\n\r\n")
        .ok_or("the answer is not HTTP")?;
    let status = head.lines().next().unwrap_or_default();
    if status.split_whitespace().nth(1) != Some("200") {
        return Err(format!("GET {path} answered `{status}`"));
    }
    let chunked = head.lines().any(|l| {
        l.to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked")
    });
    let body = match chunked {
        true => unchunk(body),
        false => body.to_string(),
    };
    serde_json::from_str(&body).map_err(|e| format!("GET {path} is not a JSON descriptor ({e})"))
}

/// A chunked body's content.
fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_descriptor_is_read_and_a_silent_server_is_a_finding() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut buf = [0u8; 1024];
            let n = s.read(&mut buf).unwrap();
            assert!(String::from_utf8_lossy(&buf[..n]).starts_with("GET /v1/conformance "));
            let body = r#"{"protocol_version":"0.1","conformance_level":"L3"}"#;
            let chunked = format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len());
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n{chunked}"
            );
        });
        let f = check(Some(&url));
        server.join().unwrap();
        assert_eq!(f.status, super::super::Status::Ok, "{f:?}");
        let gone = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", gone.local_addr().unwrap());
        drop(gone);
        let f = check(Some(&url));
        assert_eq!(f.status, super::super::Status::Fail, "{f:?}");
        assert!(f.detail.contains("does not answer"), "{f:?}");
        assert_eq!(check(None).status, super::super::Status::Skip);
    }
}
