//! What every request of the HTTP server shares ([`AppState`]): the store, the identity a
//! request without a token writes as, the embedding model, the limits, and the shutdown
//! signal. The store, the working folder and the identity defaults come from the door's
//! [`relay_core::resolve::Resolved`] (`Server::bind`), as the CLI's and MCP's do. And
//! [`AppState::blocking`], which runs an operation off the async workers, since `ops` reads
//! files and waits for locks, and [`AppState::reading`], which runs a read on the read threads
//! ([`super::read_pool`]). A new route that needs more shared state (an event channel,
//! say) adds a field to [`Shared`].

use std::ops::Deref;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::reply::ApiError;
use relay_core::ops::attribution::Claim;
use relay_core::search::model::Model;
use relay_store::tokens::TokensStamp;
use relay_store::{Store, Warning};
use relay_wire::error::{Error, Result};

/// Where the store's warnings go (what its readers skipped); the CLI prints them.
pub type WarningSink = Box<dyn Fn(Vec<Warning>) + Send + Sync>;

/// The server's shared state; cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

/// What [`AppState`] holds.
pub struct Shared {
    /// One store for every request: it holds no state but its config and the warnings of
    /// its readers, and it is `Send + Sync`.
    pub store: Store,
    /// The server's working folder (for the identity defaults: config, git `user.email`).
    pub cwd: PathBuf,
    /// Who a request without a token writes as: the server's `--actor`, `--actor-type`,
    /// `--session` (else config, git, `$USER`).
    pub defaults: Claim,
    /// The embedding model of semantic and hybrid search, loaded once.
    pub model: Option<Arc<Model>>,
    /// Whether the server listens on a loopback address only: then it takes requests without
    /// a token while no token is live. Elsewhere a token is always needed.
    pub loopback: bool,
    /// Whether a request always needs a login or a token, even on loopback (`relay ui`).
    pub login_required: bool,
    /// The names a request's `Host` may give ([`super::guard`]).
    pub hosts: super::guard::Hosts,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// How long a request may take to arrive and be answered.
    pub timeout: Duration,
    pub warnings: WarningSink,
    /// The console's logins: its form secret and the logins of `relay ui` links.
    pub logins: super::logins::Logins,
    /// The store's tokens, kept while their file is unchanged ([`super::token_book`]).
    pub tokens: super::token_book::TokenBook,
    /// The sessions of MCP clients at `/mcp`.
    pub mcp_sessions: super::mcp_sessions::Sessions,
    /// The threads reads run on, below the writes' priority ([`super::read_pool`]).
    pub reads: super::read_pool::ReadPool,
    /// The threads open streams read their logs on, apart from the reads' so that a crowd of
    /// streams delays no request ([`super::follow`]).
    pub streams: super::read_pool::ReadPool,
    /// The store's changes, which open streams wait on ([`super::changes::Changes`]).
    pub changes: super::changes::Changes,
    /// How many streams may be open, per caller and in all.
    pub stream_caps: super::stream_caps::StreamCaps,
    /// Becomes `true` when the server starts to shut down: long-lived responses (streams)
    /// should end then, as the server waits for every connection to finish.
    pub shutdown: watch::Receiver<bool>,
}

impl Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    pub fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }

    /// What changes when any caller's rights may have: the token file (a token made,
    /// revoked or narrowed) and the console's logins (a logout). Cheap to take: a stat.
    pub fn credentials_stamp(&self) -> (TokensStamp, u64) {
        (self.store.tokens_stamp(), self.logins.generation())
    }

    /// Runs `op` on tokio's blocking threads, then hands what the store's readers skipped to
    /// the warning sink. A panic in `op` is a 500, not a dead server.
    pub async fn blocking<T: Send + 'static>(
        &self,
        op: impl FnOnce(&Shared) -> Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let state = self.clone();
        let done = tokio::task::spawn_blocking(move || state.warned(op)).await;
        match done {
            Ok(out) => out.map_err(ApiError::Op),
            Err(e) => Err(a_bug(&e)),
        }
    }

    /// [`AppState::blocking`] for an operation that only reads: on the read threads, which
    /// yield the CPU to writes ([`super::read_pool`]).
    pub async fn reading<T: Send + 'static>(
        &self,
        op: impl FnOnce(&Shared) -> Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let state = self.clone();
        match self.reads.run(move || state.warned(op)).await {
            Ok(out) => out.map_err(ApiError::Op),
            Err(panic) => Err(a_bug(&panic_text(&panic))),
        }
    }

    /// Runs `op`, then hands what the store's readers skipped to the warning sink.
    fn warned<T>(&self, op: impl FnOnce(&Shared) -> Result<T>) -> Result<T> {
        let out = op(self);
        let skipped = self.store.diagnostics().take();
        if !skipped.is_empty() {
            (self.warnings)(skipped);
        }
        out
    }
}

/// A request that failed inside relay: a 500 that says so.
fn a_bug(e: &dyn std::fmt::Display) -> ApiError {
    ApiError::Op(Error::Integrity(format!(
        "the request failed inside relay (a bug): {e}"
    )))
}

/// What a panic's payload says.
fn panic_text(panic: &super::read_pool::Panicked) -> String {
    (panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_store_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<relay_store::Store>();
        shared::<super::Shared>();
    }
}
