//! The HTTP transport behind `relay serve`: the spec's §9.1 mapping of the operations, with
//! bearer tokens (§9.2), and the MCP server of `relay-mcp` at `/mcp` ([`mcp_http`], MCP's
//! Streamable HTTP transport). It imports nothing of the CLI: it parses
//! requests ([`reply`]), resolves who acts ([`auth`], through `ops::attribution`), calls `ops`
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
mod bare_refusals;
mod changes;
mod console;
mod events;
pub mod extract;
mod facts;
mod follow;
pub mod guard;
pub mod logins;
pub mod mcp_http;
pub mod mcp_sessions;
mod params;
mod projects;
mod read_pool;
pub mod reply;
pub mod route_table;
mod router;
pub mod routes;
mod sessions;
pub mod state;
mod stream_caps;
mod token_book;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::sync::watch;

use relay_core::ops::attribution::Claim;
use relay_core::resolve::Resolved;
use relay_core::search::model::Model;
use relay_wire::error::{Error, Result};
pub use router::{router, routes};
pub use state::{AppState, Shared, WarningSink};

/// The largest request body by default: 4 MiB.
pub const DEFAULT_MAX_BODY: usize = 4 << 20;
/// How long a request may take to arrive and be answered, by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The most event streams (`/v1/projects/{id}/events`, `GET /mcp`) open at once, in all.
pub const DEFAULT_MAX_STREAMS: usize = 1024;
/// The most event streams one caller (a token, a console login, the local user) holds open.
pub const DEFAULT_MAX_STREAMS_PER_CALLER: usize = 64;

/// The address `relay serve --listen` names: `IP:PORT` (`[::1]:7700` for IPv6), or
/// `NAME:PORT` with a host name resolved by the system (`localhost:7700`). Of a name's
/// addresses, a loopback one is taken first (IPv4 before IPv6), so `localhost` binds
/// loopback only, as `127.0.0.1` does; a name that resolves elsewhere binds there, under the
/// rules of any other address (a token must exist).
pub fn listen_address(text: &str) -> Result<SocketAddr> {
    if let Ok(address) = text.parse::<SocketAddr>() {
        return Ok(address);
    }
    let bad = |why: String| {
        Error::InvalidInput(format!(
            "`{text}` is not an address to listen on: give IP:PORT or NAME:PORT \
             (127.0.0.1:7700, localhost:7700, 0.0.0.0:7700){why}"
        ))
    };
    let Some((name, port)) = text.rsplit_once(':') else {
        return Err(bad(String::new()));
    };
    let port: u16 = port
        .parse()
        .map_err(|_| bad(format!("; `{port}` is not a port")))?;
    if name.is_empty() || name.contains(['[', ']', '/', ' ']) {
        return Err(bad(String::new()));
    }
    let resolved: Vec<SocketAddr> = std::net::ToSocketAddrs::to_socket_addrs(&(name, port))
        .map_err(|e| bad(format!("; `{name}` does not resolve: {e}")))?
        .collect();
    let rank = |a: &SocketAddr| (!a.ip().is_loopback(), !a.is_ipv4());
    resolved
        .into_iter()
        .min_by_key(rank)
        .ok_or_else(|| bad(format!("; `{name}` resolves to no address")))
}

/// How to serve.
pub struct Options {
    pub listen: SocketAddr,
    pub max_body: usize,
    pub timeout: Duration,
    /// The most event streams open at once, in all ([`DEFAULT_MAX_STREAMS`]) and per caller
    /// ([`DEFAULT_MAX_STREAMS_PER_CALLER`]).
    pub max_streams: usize,
    pub max_streams_per_caller: usize,
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
        limit_malloc_arenas();
        raise_open_files_limit();
        // A month's index that falls behind steady deposits is rebuilt on a thread of its
        // own, not by the read that finds it so (with its client waiting).
        store.indexes().rebuild_behind_reads();
        // So are the transformer's vectors, when far behind: the static table ranks meanwhile.
        relay_core::search::vector_build::build_behind_reads_in_this_process();
        // Searches keep the buckets of the store's ids between them (a broad one then reads
        // its lines once less), and the indexes' rank tables mapped.
        relay_core::search::relevant::keep_between_searches();
        relay_store::index::keep_rank_tables_mapped();
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
        let changes = changes::Changes::start(&store, resolved.env.watch_poll());
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
            tokens: token_book::TokenBook::default(),
            mcp_sessions: mcp_http::Sessions::default(),
            reads: read_pool::ReadPool::start(read_threads())
                .map_err(|e| Error::io("cannot start the HTTP server's read threads", e))?,
            streams: read_pool::ReadPool::start_named(stream_threads(), "relay-stream")
                .map_err(|e| Error::io("cannot start the HTTP server's stream threads", e))?,
            changes,
            stream_caps: stream_caps::StreamCaps::new(
                options.max_streams,
                options.max_streams_per_caller,
            ),
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
        // Then the reads still queued run (unless their client left), and an index being
        // rebuilt behind the reads is finished.
        drop(runtime);
        state.reads.stop();
        relay_store::index::wait_for_rebuilds();
        Ok(())
    }
}

/// Caps the C allocator's arenas at two per core. glibc gives each thread that meets
/// contention an arena of its own, up to eight per core, and a freed block stays in its arena:
/// a server's read and write threads, each allocating a search's megabytes in turn, held over
/// 566 MB under 16 writers and 4 readers at a million packages. With four arenas on two cores
/// it held 255 MB, and search p99 was no worse (91 ms against 97). Elsewhere, a no-op.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let arenas = i32::try_from(2 * cores).unwrap_or(i32::MAX);
        // SAFETY: mallopt sets a parameter of the allocator; M_ARENA_MAX takes a count.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, arenas);
        }
    }
}

/// How many threads answer reads: two per core (a read waits on the disk at times), and
/// never fewer than four.
fn read_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (2 * cores).max(4)
}

/// How many threads read the logs of open streams: one per core. Each read is short (a stat
/// and the lines new since the last), and a stream waits for none.
fn stream_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Raises the limit on open files to the most the system allows this process: each open
/// stream holds a socket, and the usual soft limit of 1,024 is below the streams' caps.
fn raise_open_files_limit() {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the one struct given.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0
                && limit.rlim_cur < limit.rlim_max
            {
                limit.rlim_cur = limit.rlim_max;
                libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
            }
        }
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
        let io = TokioIo::new(bare_refusals::JsonRefusals::new(stream));
        let connection = graceful.watch(http.serve_connection(io, service));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_takes_an_ip_or_a_name_that_resolves_loopback_first() {
        assert_eq!(
            listen_address("127.0.0.1:7700").unwrap(),
            "127.0.0.1:7700".parse().unwrap()
        );
        assert_eq!(
            listen_address("[::1]:0").unwrap(),
            "[::1]:0".parse().unwrap()
        );
        let local = listen_address("localhost:7701").unwrap();
        assert!(local.ip().is_loopback(), "{local}");
        assert_eq!(local.port(), 7701);
        assert_eq!(listen_address("LOCALHOST:0").unwrap().port(), 0);
        for bad in [
            "localhost",
            "localhost:http",
            ":7700",
            "local host:1",
            "7700",
        ] {
            let e = listen_address(bad).unwrap_err().to_string();
            assert!(e.contains("not an address to listen on"), "{bad}: {e}");
        }
    }
}
