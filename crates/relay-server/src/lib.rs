//! The HTTP transport behind `relay serve`: the spec's §9.1 mapping of the operations, with
//! bearer tokens (§9.2). It sits beside `cli` and `mcp` and imports neither: it parses
//! requests ([`reply`]), resolves who acts ([`auth`], through `ops::trust::attribution`), calls `ops`
//! ([`routes`], [`facts`], [`sessions`], [`events`]) and answers JSON (or a stream of events); it never prints, and its failures are
//! [`relay_wire::Error`]s whose statuses come from `error::Code::http_status`.
//!
//! This file is the server's life: [`Server::bind`] makes the runtime, binds the address and
//! installs the signal handlers (so a signal that comes as soon as the address is known is
//! already a graceful stop); [`Server::run`] accepts connections on hyper's HTTP/1 builder,
//! with a time limit on reading a request's headers, until SIGINT or SIGTERM; then it stops
//! accepting, lets every request in flight finish (writes included), and returns.

mod amp;
pub mod auth;
mod console;
mod events;
pub mod extract;
mod facts;
pub mod guard;
pub mod logins;
mod params;
mod projects;
pub mod reply;
pub mod route_table;
mod router;
pub mod routes;
mod sessions;
pub mod state;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::sync::watch;

use relay_core::ops::trust::attribution::Claim;
use relay_core::resolve::Resolved;
use relay_core::search::model::Model;
use relay_wire::error::{Error, Result};
pub use router::{router, routes};
pub use state::{AppState, Shared, WarningSink};

/// The largest request body by default: 4 MiB.
pub const DEFAULT_MAX_BODY: usize = 4 << 20;
/// How long a request may take to arrive and be answered, by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How to serve.
pub struct Options {
    pub listen: SocketAddr,
    pub max_body: usize,
    pub timeout: Duration,
    /// Who a request without a token writes as.
    pub defaults: Claim,
    pub model: Option<Arc<Model>>,
    pub warnings: WarningSink,
    /// Names besides the listening address that a request's `Host` may give (a proxy's, a
    /// DNS name): `NAME` for any port, or `NAME:PORT`.
    pub allowed_hosts: Vec<String>,
    /// Every request but `/v1/conformance` needs a login or a token, even on loopback with
    /// no token live: `relay ui`, whose browser holds the login of its one-time link.
    pub login_required: bool,
}

/// A bound server, not yet accepting.
pub struct Server {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    address: SocketAddr,
    state: AppState,
    stopping: watch::Sender<bool>,
    signals: Signals,
}

impl Server {
    /// Binds `options.listen` for `store`. The address may be any; a request is answered
    /// without a token only on a loopback address while no token is live (and never when
    /// `options.login_required`).
    pub fn bind(resolved: &Resolved, options: Options) -> Result<Server> {
        // The server's own handle on the store (shared between its threads), with the
        // door's secrets policy and key; a key that cannot sign fails now, not on a write.
        let store = resolved.open_store()?;
        store.signer()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("relay-serve")
            .build()
            .map_err(|e| Error::io("cannot start the HTTP server", e))?;
        let listen = options.listen;
        let cannot = |e| Error::io(format!("cannot listen on {listen}"), e);
        let std_listener = std::net::TcpListener::bind(listen).map_err(cannot)?;
        std_listener.set_nonblocking(true).map_err(cannot)?;
        let address = std_listener.local_addr().map_err(cannot)?;
        let hosts = guard::Hosts::new(address, &options.allowed_hosts)?;
        let (listener, signals) = {
            let _inside = runtime.enter();
            let listener = tokio::net::TcpListener::from_std(std_listener).map_err(cannot)?;
            (listener, Signals::install()?)
        };
        let (stopping, shutdown) = watch::channel(false);
        let state = AppState::new(Shared {
            store,
            cwd: resolved.cwd.clone(),
            defaults: resolved.identity_with(options.defaults),
            model: options.model,
            loopback: address.ip().is_loopback(),
            login_required: options.login_required,
            hosts,
            max_body: options.max_body,
            timeout: options.timeout,
            warnings: options.warnings,
            logins: logins::Logins::new()?,
            shutdown,
        });
        Ok(Server {
            runtime,
            listener,
            address,
            state,
            stopping,
            signals,
        })
    }

    /// The address really bound (port 0 asks the system for a free one).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// A one-time link that logs a browser in to the console as `grant` (what `relay ui`
    /// opens): the login lives in this process only, and the link works once.
    pub fn console_link(&self, grant: relay_core::ops::trust::tokens::Grant) -> Result<String> {
        let code = self.state.logins.one_time_code(grant)?;
        Ok(format!("{}/console/login?code={code}", self.url()))
    }

    /// The server's base URL, e.g. `http://127.0.0.1:7700`.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully: no new connections, every
    /// request in flight answered (a connection that stays open past the time limit after
    /// that is dropped), every operation already running finished.
    pub fn run(self) -> Result<()> {
        let Server {
            runtime,
            listener,
            state,
            stopping,
            mut signals,
            ..
        } = self;
        let app = router(state.clone());
        let timeout = state.timeout;
        runtime.block_on(async move {
            // Long-lived responses (event streams) hear of the stop at once, so that the
            // connections they hold can finish.
            let stop = async {
                signals.received().await;
                let _ = stopping.send(true);
            };
            accept_until(listener, app, timeout, stop).await;
        });
        // Dropping the runtime waits for the blocking threads: a write under way completes.
        drop(runtime);
        Ok(())
    }
}

/// Accepts connections and serves `app` on each until `stop` resolves; then waits (at most
/// `timeout`) for the open connections to finish their requests.
async fn accept_until(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    timeout: Duration,
    stop: impl Future<Output = ()>,
) {
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    // A client that sends its headers slowly loses its connection; the body and the answer
    // are under the router's time limit.
    http.timer(TokioTimer::new()).header_read_timeout(timeout);
    let mut stop = std::pin::pin!(stop);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors, say: pause rather than spin, and go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A connection that fails (a client gone) concerns that client only.
            let _ = connection.await;
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(timeout, graceful.shutdown()).await;
}

/// SIGINT and SIGTERM, listened for from [`Server::bind`] on.
struct Signals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    fn install() -> Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let cannot = |e| Error::io("cannot listen for signals", e);
            Ok(Signals {
                interrupt: signal(SignalKind::interrupt()).map_err(cannot)?,
                terminate: signal(SignalKind::terminate()).map_err(cannot)?,
            })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    async fn received(&mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    }
}
