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
use relay_core::ops::trust::tokens::{self, Grant};
use relay_core::ops::{Actor, trust::attribution};
use relay_core::search::filter::Viewer;
use relay_store::Store;
use relay_wire::error::{Error, Result};

/// Who a request acts as.
#[derive(Debug, Clone)]
pub enum Caller {
    /// No token is needed (loopback, none live): the server's own identity, resolved as the
    /// CLI resolves it.
    Local,
    /// A token's grant: its one actor, its projects, read-only or not.
    Token(Grant),
}

/// What a request does with a project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

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

/// The caller of a request with `presented` credentials.
fn identify(shared: &Shared, presented: Presented) -> Result<Caller> {
    let store = &shared.store;
    match presented {
        Presented::Bearer(token) => Ok(Caller::Token(tokens::authenticate(store, &token)?)),
        Presented::Cookie(login) => match shared.logins.grant(&login) {
            Some(grant) => Ok(Caller::Token(grant)),
            // A login that no longer holds (a revoked token) is no login at all.
            None => match tokens::authenticate(store, &login) {
                Ok(grant) => Ok(Caller::Token(grant)),
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
        Presented::None if shared.loopback && !tokens::any_live(store)? => Ok(Caller::Local),
        Presented::None => Err(Error::Unauthenticated(
            "this server needs a token: send `Authorization: Bearer TOKEN` (make one with \
             `relay token create --actor ID`)"
                .into(),
        )),
    }
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
        identify(shared, self.0.clone())?.may_read(project)
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let presented = presented(parts);
        state
            .blocking(move |shared| identify(shared, presented))
            .await
    }
}

impl Caller {
    /// Refuses a project the caller may not read.
    pub fn may_read(&self, project: &str) -> Result<()> {
        match self {
            Caller::Local => Ok(()),
            Caller::Token(g) => g.may_read(project),
        }
    }

    /// Refuses a project the caller may not write to.
    pub fn may_write(&self, project: &str) -> Result<()> {
        match self {
            Caller::Local => Ok(()),
            Caller::Token(g) => g.may_write(project),
        }
    }

    /// Refuses a record naming an actor the caller may not write as: a token writes as its
    /// own actor only. An id left out is the caller's own.
    pub fn may_name(&self, actor_id: Option<&str>, actor_type: Option<&str>) -> Result<()> {
        match self {
            Caller::Local => Ok(()),
            Caller::Token(g) => g.may_name(actor_id.unwrap_or(&g.actor.id), actor_type),
        }
    }

    /// The projects of the store the caller may see.
    pub fn projects(&self, store: &Store) -> Result<Vec<String>> {
        let all: Vec<String> = (relay_core::ops::projects::list(store)?.iter())
            .map(|p| p.id().to_string())
            .collect();
        Ok(match self {
            Caller::Local => all,
            Caller::Token(g) => g.visible(all),
        })
    }

    /// The package `id` names, for this caller. A short id (the start of one package's id) is
    /// read as one only for a caller that sees every project: a start is looked up across the
    /// store, and an ambiguous one lists its candidates, so for a token scoped to some
    /// projects it would name packages it may not read. Such a token gives whole ids.
    pub fn package(&self, store: &Store, id: &str) -> Result<relay_store::packages::StoredPackage> {
        let scoped = matches!(self, Caller::Token(g) if g.projects.is_some());
        match scoped {
            true => relay_core::ops::packages::pull::exact(store.view(), id),
            false => relay_core::ops::packages::pull::specific(store.view(), id),
        }
    }

    /// Only for a token: the projects it may see, to narrow a store-wide answer.
    pub fn scope(&self, store: &Store) -> Result<Option<Vec<String>>> {
        match self {
            Caller::Local => Ok(None),
            Caller::Token(_) => self.projects(store).map(Some),
        }
    }

    /// What the caller claims of its identity for [`attribution`]: a token's actor (and only
    /// a session it names; the clone's current session is not a remote caller's), else the
    /// server's defaults. `session` is the request's own (`?session=`).
    pub fn claim(&self, shared: &Shared, session: Option<String>) -> attribution::Claim {
        match self {
            Caller::Local => attribution::Claim {
                session: session.or_else(|| shared.defaults.session.clone()),
                ..shared.defaults.clone()
            },
            Caller::Token(g) => attribution::Claim {
                actor: Some(g.actor.id.clone()),
                actor_type: Some(g.actor.actor_type.clone()),
                session,
                remote: true,
            },
        }
    }

    /// The caller as an actor (who starts a session): a token's, else resolved from `claim`.
    pub fn actor(&self, shared: &Shared, claim: &attribution::Claim) -> Result<Actor> {
        match self {
            Caller::Local => attribution::actor(&shared.store, &shared.cwd, claim),
            Caller::Token(g) => Ok(g.actor.clone()),
        }
    }

    /// Who looks, for listings (drafts are shown to their creator only).
    pub fn viewer(&self, shared: &Shared, project: &str) -> Viewer {
        match self {
            Caller::Local => attribution::deferred_viewer(&shared.store, &shared.cwd, project),
            Caller::Token(g) => Viewer::known(Some(g.actor.id.clone())),
        }
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
    /// blocking threads), if the caller may `access` the project; a project read must exist
    /// (a write's operation refuses a missing or archived one).
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
            Access::Read => {
                (state.reading(move |s| {
                    caller.may_read(&project)?;
                    relay_core::ops::projects::get(&s.store, &project)?;
                    op(s, &caller, project)
                }))
                .await
            }
            Access::Write => {
                (state.blocking(move |s| {
                    caller.may_write(&project)?;
                    op(s, &caller, project)
                }))
                .await
            }
        }
    }
}
