//! Where a request comes from, checked before any route reads it ([`check`], which
//! `routes::router` runs as a layer before every route). Two attacks reach a server on a
//! developer's machine through the developer's own browser, and neither needs a token when
//! none is live:
//!
//! - **DNS rebinding**: a page at `evil.example` makes its name resolve to 127.0.0.1, and its
//!   scripts then read and write the store as a same-origin page. The page's requests carry
//!   `Host: evil.example`, so the server answers only a `Host` that names it ([`Hosts`]): its
//!   listening address, `localhost`, or a name the operator gave (`relay serve --allow-host`);
//!   anything else is 421 `misdirected_request`.
//! - **Cross-site requests**: a page on another origin cannot read the answers (no CORS
//!   headers are sent), but a form or `fetch(…, {mode: "no-cors"})` still sends the request.
//!   Browsers say where a request comes from (`Origin`, `Sec-Fetch-Site`); a request without
//!   a bearer token that a browser marks as coming from another origin is refused with 403,
//!   whatever its method, unless it is a link followed to a page (a top-level navigation,
//!   which writes nothing and shows the answer to the person, not to the other site). A
//!   request with `Authorization: Bearer` needs no such check: a page on another origin cannot
//!   add that header without a CORS preflight, which this server never grants. And a write to
//!   the JSON routes that names a content type other than JSON is 415 even with no body,
//!   since an HTML form always names one: a browser too old to send `Origin` still cannot
//!   post a form that writes.

use std::net::{IpAddr, SocketAddr};

use axum::http::{HeaderMap, Method, header, request::Parts};

use relay_wire::error::{Error, Result};

use super::reply::{ApiError, RequestError};

/// The names a request's `Host` may give: the server's own address and the operator's names.
#[derive(Debug, Clone)]
pub struct Hosts {
    /// The address the server listens on (an unspecified IP: every interface).
    bound: SocketAddr,
    /// The names the operator allowed (`--allow-host`), each with a port or for any port.
    allowed: Vec<(String, Option<u16>)>,
}

/// A `Host` (or an origin's authority): the name in lower case without a trailing dot, and
/// the port if one is given. `None` when it does not parse.
fn split_host(text: &str) -> Option<(String, Option<u16>)> {
    let text = text.trim();
    let (name, port) = if let Some(rest) = text.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (format!("[{inside}]"), port)
    } else {
        match text.split_once(':') {
            Some((name, port)) => (name.to_string(), Some(port)),
            None => (text.to_string(), None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name.is_empty() || name.contains(['/', '@', ' ', '\\']) {
        return None;
    }
    Some((name, port))
}

/// The IP a host name is the literal of (`127.0.0.1`, `[::1]`).
fn ip_literal(name: &str) -> Option<IpAddr> {
    let bare = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    bare.parse().ok()
}

impl Hosts {
    /// The names of a server bound to `bound`, and the operator's `allowed` names (`NAME` for
    /// any port, or `NAME:PORT`). A name that does not parse is an error.
    pub fn new(bound: SocketAddr, allowed: &[String]) -> Result<Hosts> {
        let allowed = (allowed.iter())
            .map(|a| {
                split_host(a).ok_or_else(|| {
                    Error::InvalidInput(format!(
                        "--allow-host `{a}` is not a host name: give NAME or NAME:PORT, as \
                         browsers send it in Host (relay.example.com, relay.example.com:8443)"
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Hosts { bound, allowed })
    }

    /// Whether a `Host` names this server. Its own names must give its port (or none, when
    /// it listens on 80): `localhost`, the IP it listens on, or, when it listens on every
    /// interface, any IP (a name that is an IP cannot be rebound). The operator's names match
    /// as given.
    pub fn names_this_server(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(host) else {
            return false;
        };
        let operator =
            (self.allowed.iter()).any(|(n, p)| *n == name && (p.is_none() || *p == port));
        if operator {
            return true;
        }
        if port.unwrap_or(80) != self.bound.port() {
            return false;
        }
        if name == "localhost" {
            return true;
        }
        match ip_literal(&name) {
            Some(ip) => self.bound.ip().is_unspecified() || ip == self.bound.ip(),
            None => false,
        }
    }

    /// What a refused `Host` is told: the names that would have been answered.
    fn refusal(&self, given: Option<&str>) -> RequestError {
        let port = self.bound.port();
        let own = if self.bound.ip().is_unspecified() {
            format!("localhost:{port} or one of this machine's IP addresses with :{port}")
        } else {
            format!("{} or localhost:{port}", self.bound)
        };
        let mut names = own;
        for (n, p) in &self.allowed {
            names.push_str(", ");
            names.push_str(n);
            if let Some(p) = p {
                names.push_str(&format!(":{p}"));
            }
        }
        let given = match given {
            Some(h) => format!("`{}`", relay_wire::text::clean_line(h)),
            None => "no Host".into(),
        };
        RequestError::MisdirectedRequest(format!(
            "this server answers requests for {names}, not {given}: a page that reaches it \
             under another name (DNS rebinding) may neither read nor write the store. Behind \
             a proxy or under a DNS name, start it with `relay serve --allow-host NAME`"
        ))
    }
}

/// A header's value as text, if it is.
fn text<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Refuses a request whose `Host` (or absolute URI) names another server, and one that
/// names its `Host` more than once (RFC 9112 §3.2: a server answers it 400), since a proxy
/// may route by one and this server judge by the other.
fn check_host(hosts: &Hosts, parts: &Parts) -> Result<(), RequestError> {
    if parts.headers.get_all(header::HOST).iter().nth(1).is_some() {
        return Err(RequestError::BadRequest(
            "the request has more than one Host header; send exactly one".into(),
        ));
    }
    let host = text(&parts.headers, header::HOST.as_str());
    if !host.is_some_and(|h| hosts.names_this_server(h)) {
        return Err(hosts.refusal(host));
    }
    if let Some(authority) = parts.uri.authority()
        && !hosts.names_this_server(authority.as_str())
    {
        return Err(hosts.refusal(Some(authority.as_str())));
    }
    Ok(())
}

/// Whether `origin` (`scheme://host[:port]`, as browsers send it) is the origin `host` is
/// served at: the same name and port, over http or https (a TLS proxy in front).
pub fn same_origin(origin: &str, host: &str) -> bool {
    let (scheme, authority) = match origin.split_once("://") {
        Some(("http", a)) => (80, a),
        Some(("https", a)) => (443, a),
        _ => return false,
    };
    let (Some((o_name, o_port)), Some((h_name, h_port))) =
        (split_host(authority), split_host(host))
    else {
        return false;
    };
    o_name == h_name && o_port.unwrap_or(scheme) == h_port.unwrap_or(scheme)
}

/// Refuses a request without a bearer token that a browser says comes from another origin.
pub fn check_site(method: &Method, headers: &HeaderMap) -> Result<()> {
    if headers.contains_key(header::AUTHORIZATION) {
        return Ok(());
    }
    let from = |what: String| {
        Err(Error::Unauthorized(format!(
            "a request without a token must come from this server's own pages, not from \
             {what}: another site may neither read nor write the store through a browser. \
             Programs send `Authorization: Bearer TOKEN` (relay token create), or no Origin"
        )))
    };
    if let Some(site) = text(headers, "sec-fetch-site")
        && site != "same-origin"
        && site != "none"
    {
        // A link followed from elsewhere opens a page: the person sees it, the other site
        // does not, and the console's cookie (SameSite=Strict) does not go with it.
        let navigation = text(headers, "sec-fetch-mode") == Some("navigate")
            && text(headers, "sec-fetch-dest").is_none_or(|d| d == "document");
        let reads = matches!(*method, Method::GET | Method::HEAD);
        if !(navigation && reads) {
            return from(format!("a {site} page"));
        }
    }
    if let Some(origin) = text(headers, header::ORIGIN.as_str()) {
        let host = text(headers, header::HOST.as_str()).unwrap_or_default();
        if !same_origin(origin, host) {
            return from(format!("`{}`", relay_wire::text::clean_line(origin)));
        }
    }
    Ok(())
}

/// Whether a `Content-Type` is JSON: `application/json`, with any parameters.
pub fn is_json(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("application/json")
}

/// Refuses a write to the JSON routes that says it sends anything but JSON, even with no
/// body: an HTML form always names its type, so a form posted from another site by a browser
/// too old to say where it comes from writes nothing. The console's own forms (under
/// `/console/`) carry a form token instead.
fn check_type(parts: &Parts) -> Result<(), RequestError> {
    if matches!(parts.method, Method::GET | Method::HEAD)
        || parts.uri.path().starts_with("/console/")
    {
        return Ok(());
    }
    match text(&parts.headers, header::CONTENT_TYPE.as_str()) {
        Some(t) if !is_json(t) => Err(RequestError::UnsupportedMediaType(format!(
            "`{}`",
            relay_wire::text::clean_line(t)
        ))),
        None if parts.headers.contains_key(header::CONTENT_TYPE) => Err(
            RequestError::UnsupportedMediaType("a Content-Type that is not text".into()),
        ),
        _ => Ok(()),
    }
}

/// The checks of the layer `routes::router` puts before every route: the `Host`, the site a
/// browser says the request comes from, and a write's content type.
pub fn check(hosts: &Hosts, parts: &Parts) -> Result<(), ApiError> {
    check_host(hosts, parts)?;
    check_site(&parts.method, &parts.headers)?;
    Ok(check_type(parts)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn hosts(bound: &str, allowed: &[&str]) -> Hosts {
        let allowed: Vec<String> = allowed.iter().map(|a| a.to_string()).collect();
        Hosts::new(bound.parse().unwrap(), &allowed).unwrap()
    }

    #[test]
    fn a_loopback_server_answers_its_own_address_and_localhost_only() {
        let h = hosts("127.0.0.1:7700", &[]);
        for ok in [
            "127.0.0.1:7700",
            "localhost:7700",
            "LOCALHOST:7700",
            "localhost.:7700",
        ] {
            assert!(h.names_this_server(ok), "{ok}");
        }
        for refused in [
            "evil.example:7700",
            "evil.example",
            "127.0.0.1:7701",
            "127.0.0.1",
            "localhost",
            "127.0.0.2:7700",
            "[::1]:7700",
            "localhost.evil.example:7700",
            "127.0.0.1:7700@evil",
            "",
            "127.0.0.1:77000",
        ] {
            assert!(!h.names_this_server(refused), "{refused}");
        }
        let on_80 = hosts("127.0.0.1:80", &[]);
        assert!(on_80.names_this_server("localhost") && on_80.names_this_server("127.0.0.1"));
    }

    #[test]
    fn every_interface_answers_any_ip_and_the_operators_names() {
        let h = hosts(
            "0.0.0.0:7700",
            &["relay.example.com", "ops.example.com:8443"],
        );
        for ok in [
            "10.1.2.3:7700",
            "[fe80::1]:7700",
            "localhost:7700",
            "relay.example.com",
            "relay.example.com:443",
            "Relay.Example.com.",
            "ops.example.com:8443",
        ] {
            assert!(h.names_this_server(ok), "{ok}");
        }
        for refused in ["evil.example:7700", "ops.example.com", "10.1.2.3:80"] {
            assert!(!h.names_this_server(refused), "{refused}");
        }
        let v6 = hosts("[::1]:7700", &[]);
        assert!(v6.names_this_server("[::1]:7700") && !v6.names_this_server("127.0.0.1:7700"));
        assert!(Hosts::new("127.0.0.1:1".parse().unwrap(), &["a/b".into()]).is_err());
        assert!(Hosts::new("127.0.0.1:1".parse().unwrap(), &["a:x".into()]).is_err());
    }

    #[test]
    fn json_is_application_json_with_any_parameters() {
        assert!(is_json("application/json"));
        assert!(is_json("Application/JSON; charset=utf-8"));
        assert!(!is_json("text/plain"));
        assert!(!is_json("application/x-www-form-urlencoded"));
        assert!(!is_json("application/jsonp"));
    }

    #[test]
    fn a_request_with_two_hosts_is_refused_whichever_comes_first() {
        let hosts = hosts("127.0.0.1:7700", &[]);
        let parts = |names: &[&str]| {
            let mut b = axum::http::Request::builder().uri("/v1/projects");
            for n in names {
                b = b.header("host", *n);
            }
            b.body(()).unwrap().into_parts().0
        };
        assert!(check_host(&hosts, &parts(&["127.0.0.1:7700"])).is_ok());
        for two in [
            ["127.0.0.1:7700", "evil.example"],
            ["evil.example", "127.0.0.1:7700"],
            ["127.0.0.1:7700", "127.0.0.1:7700"],
        ] {
            let e = check_host(&hosts, &parts(&two)).unwrap_err();
            assert_eq!(e.code(), relay_wire::error::Code::BadRequest, "{two:?}");
        }
    }

    #[test]
    fn writes_that_say_they_send_anything_but_json_are_refused() {
        let parts = |method: &str, path: &str, kind: Option<&'static str>| {
            let mut b = axum::http::Request::builder().method(method).uri(path);
            if let Some(k) = kind {
                b = b.header("content-type", k);
            }
            b.body(()).unwrap().into_parts().0
        };
        let form = Some("application/x-www-form-urlencoded");
        assert!(check_type(&parts("POST", "/v1/projects/api/archive", form)).is_err());
        assert!(check_type(&parts("DELETE", "/amp/records/x", Some("text/plain"))).is_err());
        assert!(check_type(&parts("POST", "/v1/projects/api/archive", None)).is_ok());
        let json = Some("application/json; charset=utf-8");
        assert!(check_type(&parts("POST", "/v1/projects/api/archive", json)).is_ok());
        assert!(check_type(&parts("POST", "/console/review/pkg_1", form)).is_ok());
        assert!(check_type(&parts("GET", "/v1/projects", form)).is_ok());
    }

    #[test]
    fn origins_match_by_name_port_and_default_port() {
        assert!(same_origin("http://127.0.0.1:7700", "127.0.0.1:7700"));
        assert!(same_origin(
            "https://relay.example.com",
            "relay.example.com"
        ));
        assert!(same_origin(
            "http://relay.example.com",
            "relay.example.com:80"
        ));
        assert!(!same_origin("http://evil.example", "127.0.0.1:7700"));
        assert!(!same_origin("http://127.0.0.1:7701", "127.0.0.1:7700"));
        assert!(!same_origin("null", "127.0.0.1:7700"));
        assert!(!same_origin("file://", "127.0.0.1:7700"));
    }

    fn site(method: Method, pairs: &[(&'static str, &'static str)]) -> Result<()> {
        let mut h = HeaderMap::new();
        h.insert("host", HeaderValue::from_static("127.0.0.1:7700"));
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        check_site(&method, &h)
    }

    #[test]
    fn browsers_on_another_origin_are_refused_and_programs_are_not() {
        // curl and other programs: no Origin, no Sec-Fetch-*.
        assert!(site(Method::POST, &[]).is_ok());
        assert!(site(Method::GET, &[]).is_ok());
        // The console's own pages.
        let own = [
            ("origin", "http://127.0.0.1:7700"),
            ("sec-fetch-site", "same-origin"),
        ];
        assert!(site(Method::POST, &own).is_ok());
        assert!(site(Method::GET, &[("sec-fetch-site", "none")]).is_ok());
        // Another site's writes, however they are sent.
        for pairs in [
            &[("origin", "http://evil.example")][..],
            &[("sec-fetch-site", "cross-site")],
            &[("sec-fetch-site", "same-site")],
            &[("origin", "null")],
            &[
                ("sec-fetch-site", "cross-site"),
                ("sec-fetch-mode", "navigate"),
                ("sec-fetch-dest", "document"),
            ],
        ] {
            let e = site(Method::POST, pairs).unwrap_err();
            assert_eq!(e.code(), "unauthorized", "{pairs:?}");
            assert!(site(Method::DELETE, pairs).is_err(), "{pairs:?}");
        }
        // Another site's reads: fetches and embeds are refused, a link followed is not.
        let fetch = [("sec-fetch-site", "cross-site"), ("sec-fetch-mode", "cors")];
        assert!(site(Method::GET, &fetch).is_err());
        let frame = [
            ("sec-fetch-site", "cross-site"),
            ("sec-fetch-mode", "navigate"),
            ("sec-fetch-dest", "iframe"),
        ];
        assert!(site(Method::GET, &frame).is_err());
        let link = [
            ("sec-fetch-site", "cross-site"),
            ("sec-fetch-mode", "navigate"),
            ("sec-fetch-dest", "document"),
        ];
        assert!(site(Method::GET, &link).is_ok());
        // A token: a page on another origin cannot send one without a preflight.
        let mut h = HeaderMap::new();
        h.insert("authorization", HeaderValue::from_static("Bearer relay_x"));
        h.insert("origin", HeaderValue::from_static("http://evil.example"));
        assert!(check_site(&Method::POST, &h).is_ok());
    }
}
