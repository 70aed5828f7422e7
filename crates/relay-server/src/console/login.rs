//! Who looks at a console page ([`Who`]), and how a person logs in to write from it.
//!
//! A browser cannot send `Authorization: Bearer`, so the console keeps a login in a cookie
//! (`HttpOnly`, `SameSite=Strict`, never readable by a script): either a token pasted into the
//! login form, or a one-time link that `relay ui` prints, which becomes a login known to this
//! server process only ([`Logins`]). The cookie is honoured for reads and for the console's
//! own forms (under `/console/`), never for the JSON routes' writes. Every form carries a
//! token derived from the login and a secret of this process ([`Who::csrf`]), and a form
//! whose `Origin` or `Sec-Fetch-Site` says it came from elsewhere is refused.

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, extract::rejection::FormRejection};
use maud::html;
use serde::Deserialize;

use super::{html_page, layout};
use crate::auth::Caller;
use crate::extract::Params;
use crate::logins::{COOKIE, cookie, same};
use crate::reply::ApiError;
use crate::state::AppState;
use relay_wire::error::{Error, Result};

/// The person behind a console request.
#[derive(Debug, Clone)]
pub struct Who {
    /// What the request may read, as for the JSON routes.
    pub caller: Caller,
    /// The logged-in actor, if any.
    pub name: Option<String>,
    /// The form token of this login: `Some` only when the caller may write from the page.
    pub csrf: Option<String>,
    cookie: Option<String>,
}

impl Who {
    /// Whether this person may approve or request changes from the page.
    pub fn can_write(&self) -> bool {
        self.csrf.is_some()
    }

    /// Refuses a form that did not come from one of this login's pages: a missing or wrong
    /// form token, or no login that may write.
    pub fn check_form(&self, presented: &str) -> Result<()> {
        match &self.csrf {
            Some(expected) if same(expected, presented.trim()) => Ok(()),
            Some(_) => Err(Error::Unauthorized(
                "the form is out of date or came from another site: reload the page and try again"
                    .into(),
            )),
            None => Err(Error::Unauthorized(
                "log in with a token that may write (relay token create --actor ID) to change anything from the console"
                    .into(),
            )),
        }
    }
}

/// Refuses a form posted from another site: browsers say where a request comes from in
/// `Sec-Fetch-Site` and `Origin`.
pub fn same_site(headers: &HeaderMap) -> Result<()> {
    let value = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    if let Some(site) = value("sec-fetch-site")
        && site != "same-origin"
        && site != "none"
    {
        return Err(Error::Unauthorized(format!(
            "a console form must come from the console itself, not from a {site} page"
        )));
    }
    if let (Some(origin), Some(host)) = (value("origin"), value("host")) {
        let bare = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        if bare != Some(host) {
            return Err(Error::Unauthorized(format!(
                "a console form must come from this server ({host}), not from {origin}"
            )));
        }
    }
    Ok(())
}

impl FromRequestParts<AppState> for Who {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let caller = match Caller::from_request_parts(parts, state).await {
            Ok(c) => c,
            // A browser without a login is shown the login form, not a JSON error.
            Err(ApiError::Op(Error::Unauthenticated(_)))
                if parts.method == axum::http::Method::GET =>
            {
                return Err(Redirect::to("/console/login").into_response());
            }
            Err(e) => return Err(super::failure(e, "/")),
        };
        let bearer = parts.headers.contains_key(header::AUTHORIZATION);
        let cookie = cookie(&parts.headers).filter(|_| !bearer);
        let (name, csrf) = match (caller.grant(), &cookie) {
            (Some(g), Some(c)) => (
                Some(g.actor.id.clone()),
                (!g.read_only).then(|| state.logins.csrf(c)),
            ),
            (Some(g), None) => (Some(g.actor.id.clone()), None),
            (None, _) => (None, None),
        };
        Ok(Who {
            caller,
            name,
            csrf,
            cookie,
        })
    }
}

/// `/console/login`: `?code=` is a `relay ui` link; otherwise the form.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoginParams {
    code: Option<String>,
}

fn login_page(status: StatusCode, problem: Option<&str>) -> Response {
    let page = layout(
        "Log in",
        html! {
            nav class="top" { a class="home" href="/" { "relay" } }
            main id="login" {
                h2 { "Log in" }
                p { "Paste a token to approve or request changes from the console, or to read a store that needs one. "
                    "Make one with " code { "relay token create --actor YOUR-ID" } ", or run " code { "relay ui" } ", which logs you in." }
                @if let Some(p) = problem { p class="problem" role="alert" { (p) } }
                form method="post" action="/console/login" {
                    label { "Token " input type="password" name="token" autocomplete="off" required; }
                    button type="submit" { "Log in" }
                }
                p class="note" { "The token is kept in a cookie that scripts cannot read, for this browser session." }
            }
        },
    );
    let mut r = html_page(status, page);
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn set_cookie(value: &str, max_age: Option<u32>) -> HeaderValue {
    let age = max_age
        .map(|s| format!("; Max-Age={s}"))
        .unwrap_or_default();
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; HttpOnly; SameSite=Strict; Path=/{age}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("relay_console=; Max-Age=0; Path=/"))
}

fn logged_in(value: &str) -> Response {
    let mut r = Redirect::to("/").into_response();
    r.headers_mut()
        .insert(header::SET_COOKIE, set_cookie(value, None));
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

pub async fn form(State(state): State<AppState>, Params(q): Params<LoginParams>) -> Response {
    let Some(code) = q.code else {
        return login_page(StatusCode::OK, None);
    };
    match state.logins.redeem(&code) {
        Ok(Some(key)) => logged_in(&key),
        Ok(None) => login_page(
            StatusCode::UNAUTHORIZED,
            Some(
                "This login link was used already or belongs to another run of relay ui: run relay ui again, or paste a token.",
            ),
        ),
        Err(e) => ApiError::from(e).into_response(),
    }
}

#[derive(Debug, Deserialize)]
pub struct LoginForm {
    token: String,
}

pub async fn submit(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: std::result::Result<Form<LoginForm>, FormRejection>,
) -> Response {
    if let Err(e) = same_site(&headers) {
        return login_page(StatusCode::FORBIDDEN, Some(&e.to_string()));
    }
    let Ok(Form(form)) = form else {
        return login_page(StatusCode::BAD_REQUEST, Some("The form needs a token."));
    };
    let token = form.token.trim().to_string();
    match crate::auth::authenticate(&state, &token).map_err(ApiError::Op) {
        Ok(_) => logged_in(&token),
        Err(ApiError::Op(Error::Unauthenticated(why))) => login_page(
            StatusCode::UNAUTHORIZED,
            Some(&format!("Not logged in: {why}.")),
        ),
        Err(e) => e.into_response(),
    }
}

#[derive(Debug, Deserialize)]
pub struct LogoutForm {
    csrf: String,
}

pub async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    who: Who,
    form: std::result::Result<Form<LogoutForm>, FormRejection>,
) -> Response {
    let checked = same_site(&headers).and_then(|()| match &form {
        Ok(Form(f)) => who.check_form(&f.csrf),
        Err(_) => Err(Error::InvalidInput("the form needs its csrf field".into())),
    });
    if let Err(e) = checked {
        return super::failure(e, "/");
    }
    if let Some(key) = &who.cookie {
        state.logins.forget(key);
    }
    let mut r = Redirect::to("/").into_response();
    r.headers_mut()
        .insert(header::SET_COOKIE, set_cookie("", Some(0)));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_from_another_site_are_refused() {
        let mut h = HeaderMap::new();
        h.insert("host", HeaderValue::from_static("127.0.0.1:7700"));
        assert!(same_site(&h).is_ok());
        h.insert("origin", HeaderValue::from_static("http://127.0.0.1:7700"));
        h.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        assert!(same_site(&h).is_ok());
        h.insert("origin", HeaderValue::from_static("http://evil.example"));
        assert!(same_site(&h).is_err());
        h.insert("origin", HeaderValue::from_static("http://127.0.0.1:7700"));
        h.insert("sec-fetch-site", HeaderValue::from_static("cross-site"));
        assert!(same_site(&h).is_err());
    }
}
