//! Who looks at a console page ([`Who`]): the request's [`Caller`], and whether it may write
//! from the page (a login with a write-scoped token) with the form token that proves a form
//! came from one of our pages.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::http::auth::Caller;
use crate::http::reply::ApiError;
use crate::http::state::AppState;

/// The person behind a console request.
#[derive(Debug, Clone)]
pub struct Who {
    /// What the request may read, as for the JSON routes.
    pub caller: Caller,
    /// The logged-in actor, if any.
    pub name: Option<String>,
    /// The form token of this login: `Some` only when the caller may write from the page.
    pub csrf: Option<String>,
}

impl Who {
    /// Whether this person may approve or request changes from the page.
    pub fn can_write(&self) -> bool {
        self.csrf.is_some()
    }
}

impl FromRequestParts<AppState> for Who {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let caller = Caller::from_request_parts(parts, state).await?;
        Ok(Who {
            caller,
            name: None,
            csrf: None,
        })
    }
}
