//! Who sends a request (§9.2): the [`Caller`] extractor reads `Authorization: Bearer TOKEN`
//! and turns it into a token's grant ([`relay_core::ops::trust::tokens`]), or, on a loopback address while
//! no token is live, into the local user. Every route but `/v1/conformance` takes it, before
//! its body is read, so a request without a valid token learns nothing else. The caller then
//! decides what a request may touch and whom its writes are attributed to.

use axum::extract::FromRequestParts;
use axum::http::{Method, header, request::Parts};

use super::extract::PathId;
use super::reply::ApiError;
use super::state::{AppState, Shared};
use relay_core::ops::attribution;
use relay_core::ops::trust::tokens::{self, Grant};
use relay_core::search::filter::Viewer;
use relay_core::service;
use relay_wire::error::{Error, Result};

/// Who a request acts as: the service's caller ([`relay_core::service::Caller`]), the local
/// user or a token's grant, as this door finds it. What it may do is the service's to say.
#[derive(Debug, Clone)]
pub struct Caller(pub service::Caller);

impl std::ops::Deref for Caller {
    type Target = service::Caller;

    fn deref(&self) -> &service::Caller {
        &self.0
    }
}

/// What a request does with a project: the service's own word for it.
pub use relay_core::service::Access;

/// What the `Authorization` header held, or else the console's login cookie.
#[derive(Clone)]
enum Presented {
    None,
    Bearer(String),
    /// The console's login cookie: a token, or a `relay ui` login.
    Cookie(String),
    /// Another scheme, or not text.
    Other,
}

fn presented(parts: &Parts) -> Presented {
    let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
        // A browser's cookie goes with any request to this origin, so it counts for reads and
        // for the console's own forms, which check a form token; never for a JSON write.
        let reads = matches!(parts.method, Method::GET | Method::HEAD);
        return match super::logins::cookie(&parts.headers) {
            Some(c) if reads || parts.uri.path().starts_with("/console/") => Presented::Cookie(c),
            _ => Presented::None,
        };
    };
    let Ok(text) = value.to_str() else {
        return Presented::Other;
    };
    match text.trim().split_once(' ') {
        // The scheme is case-insensitive (RFC 9110 §11.1).
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => {
            Presented::Bearer(token.trim().to_string())
        }
        _ => Presented::Other,
    }
}

/// The grant of a presented token, from the tokens the server keeps ([`Shared::tokens`]).
pub fn authenticate(shared: &Shared, token: &str) -> Result<tokens::Grant> {
    tokens::authenticate_among(&shared.tokens.tokens(&shared.store)?, token)
}

/// The caller of a request with `presented` credentials: on the request's own async worker,
/// since the tokens are kept in memory while their file is unchanged.
fn identify(shared: &Shared, presented: Presented) -> Result<Caller> {
    match presented {
        Presented::Bearer(token) => Ok(token_caller(authenticate(shared, &token)?)),
        Presented::Cookie(login) => match shared.logins.grant(&login) {
            Some(grant) => Ok(token_caller(grant)),
            // A login that no longer holds (a revoked token) is no login at all.
            None => match authenticate(shared, &login) {
                Ok(grant) => Ok(token_caller(grant)),
                Err(_) => identify(shared, Presented::None),
            },
        },
        Presented::Other => Err(Error::Unauthenticated(
            "the Authorization header must read `Bearer TOKEN`".into(),
        )),
        Presented::None if shared.login_required => Err(Error::Unauthenticated(
            "this console needs the login of its `relay ui` link: open the link relay ui \
             printed (it works once; run relay ui again for a new one), or send \
             `Authorization: Bearer TOKEN`"
                .into(),
        )),
        Presented::None
            if shared.loopback
                && !tokens::any_live_among(&shared.tokens.tokens(&shared.store)?) =>
        {
            Ok(Caller(service::Caller::Local))
        }
        Presented::None => Err(Error::Unauthenticated(
            "this server needs a token: send `Authorization: Bearer TOKEN` (make one with \
             `relay token create --actor ID`)"
                .into(),
        )),
    }
}

fn token_caller(grant: Grant) -> Caller {
    Caller(service::Caller::Token(grant))
}

/// What a request presented to be let in, kept to ask again later: an open event stream
/// checks that its caller may still read, as tokens are revoked or narrowed.
#[derive(Clone)]
pub struct Credentials(Presented);

impl<S: Send + Sync> FromRequestParts<S> for Credentials {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Credentials(presented(parts)))
    }
}

impl Credentials {
    /// Refuses, as a new request would be refused, when the caller these credentials make
    /// now may not read `project` (a token revoked, or narrowed to other projects).
    pub fn may_still_read(&self, shared: &Shared, project: &str) -> Result<()> {
        identify(shared, self.0.clone())?.authorize_project("watch", project)
    }

    /// The caller these credentials make now, or the refusal a new request would get (a
    /// token revoked, a console logout).
    pub fn caller_now(&self, shared: &Shared) -> Result<Caller> {
        identify(shared, self.0.clone())
    }
}

impl Caller {
    /// The service as this caller sees it, on the served store, answering in parameter names.
    pub fn relay<'s>(&'s self, s: &'s Shared) -> service::Relay<'s> {
        service::Relay::new(
            &s.store,
            &s.cwd,
            &self.0,
            relay_core::request::Spelling::Param,
        )
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        // Found once, by [`admit`], for a route of an operation.
        if let Some(caller) = parts.extensions.get::<Caller>() {
            return Ok(caller.clone());
        }
        Ok(identify(state, presented(parts))?)
    }
}

/// Lets a request of `operation` in, or refuses it, before its query or body is read: its
/// caller, then the service's answer to whether that caller may run the operation and touch
/// the project of the path (`/v1/projects/{project_id}/…`). The caller found is kept in the
/// request for the handler.
pub async fn admit(parts: &mut Parts, state: &AppState, operation: &str) -> Result<(), ApiError> {
    if service::rules::of(operation)?.access == service::Access::Public {
        // Anyone may call it; but a token presented must hold (RFC 6750 §3.1): a revoked
        // or unknown one is refused, as on every other route.
        if let Presented::Bearer(token) = presented(parts) {
            authenticate(state, &token)?;
        }
        return Ok(());
    }
    let caller = Caller::from_request_parts(parts, state).await?;
    caller.authorize(operation)?;
    let params = axum::extract::RawPathParams::from_request_parts(parts, state).await;
    let names_project = params.is_ok_and(|p| p.iter().any(|(name, _)| name == "project_id"));
    if names_project {
        let PathId(project) = PathId::from_request_parts(parts, state).await?;
        caller.authorize_project(operation, &project)?;
    }
    parts.extensions.insert(caller);
    Ok(())
}

impl Caller {
    /// What the caller claims of its identity for [`attribution`]: a token's actor (and only
    /// a session it names; the clone's current session is not a remote caller's), else the
    /// server's defaults. `session` is the request's own (`?session=`).
    pub fn claim(&self, shared: &Shared, session: Option<String>) -> attribution::Claim {
        match &self.0 {
            service::Caller::Local => attribution::Claim {
                session: session.or_else(|| shared.defaults.session.clone()),
                ..shared.defaults.clone()
            },
            service::Caller::Token(g) => attribution::Claim {
                actor: Some(g.actor.id.clone()),
                actor_type: Some(g.actor.actor_type.clone()),
                session,
                remote: true,
            },
        }
    }

    /// Whose the streams and sessions this caller opens are, for the caps on them: its
    /// token's id (a console login counts as its token), or the local user's.
    pub fn owner(&self) -> String {
        match self.grant() {
            Some(g) => g.token_id.clone(),
            None => "(the local user)".into(),
        }
    }

    /// Who looks, for listings (drafts are shown to their creator only).
    pub fn viewer(&self, shared: &Shared, project: &str) -> Viewer {
        self.relay(shared).viewer(project)
    }
}

/// A request about one project (`/v1/projects/{project_id}/…`): who asks, and which project.
/// Extracted before the body, so a request without a valid token learns nothing else.
pub struct ProjectCall {
    pub state: AppState,
    pub caller: Caller,
    pub project: String,
}

impl FromRequestParts<AppState> for ProjectCall {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let caller = Caller::from_request_parts(parts, state).await?;
        let PathId(project) = PathId::from_request_parts(parts, state).await?;
        Ok(ProjectCall {
            state: state.clone(),
            caller,
            project,
        })
    }
}

impl ProjectCall {
    /// Runs `op` off the async workers (a read on the read threads, a write on tokio's
    /// blocking threads); the service let the caller in on the project before the request
    /// was read ([`admit`]). A project read must exist (a write's operation refuses a missing
    /// or archived one).
    pub async fn run<T: Send + 'static>(
        self,
        access: Access,
        op: impl FnOnce(&Shared, &Caller, String) -> Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let ProjectCall {
            state,
            caller,
            project,
        } = self;
        match access {
            Access::Read | Access::Public => {
                (state.reading(move |s| {
                    relay_core::ops::projects::get(&s.store, &project)?;
                    op(s, &caller, project)
                }))
                .await
            }
            Access::Write => (state.blocking(move |s| op(s, &caller, project))).await,
        }
    }
}
