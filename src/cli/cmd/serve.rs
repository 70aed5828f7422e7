//! `relay serve`: the store over HTTP (the spec's §9.1 mapping). The server is
//! [`relay_server`]; this command checks that the address may be served, loads the embedding
//! model, prints the address it bound, and prints the store's warnings as requests meet them.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use serde_json::json;

use crate::cli::args::report_query_notice;
use crate::cli::context::{ActorArgs, CliError, CmdResult, Ctx, SessionArg};
use crate::cli::ui::Ui;
use relay_core::ops::trust::tokens;
use relay_core::search::semantic::{self, ModelChoice, ModelState};
use relay_server::{
    self as http, DEFAULT_MAX_BODY, DEFAULT_MAX_STREAMS, DEFAULT_MAX_STREAMS_PER_CALLER, Options,
    Server,
};
use relay_store::Warning;

/// Serve the store over HTTP: the Agentic Protocol's HTTP mapping (§9.1), with bearer tokens
///
/// Prints the address it listens on as its first line (`--json`: {"url": …}), then answers
/// until SIGINT or SIGTERM; it then stops accepting, finishes the requests in flight and
/// exits 0. Bodies are JSON (`Content-Type: application/json`) and answers are the JSON the
/// matching command prints with --json; errors are {"error": CODE, "message": …} with the
/// status of the table in docs/guide/exit-codes.md.
///
/// Routes: GET /v1/conformance; POST and GET /v1/projects/P/packages (deposit; pull with
/// mode=latest or mode=relevant&query=…); GET /v1/packages/ID; GET /v1/projects/P/orient;
/// GET /v1/orchestrate?project=P&focus=…; POST /v1/packages/ID/flag, /approve and
/// /request-changes; GET /v1/projects/P/reviews; POST, GET and DELETE /v1/projects/P/facts;
/// GET /v1/projects/P/facts/history; GET and POST /v1/projects/P/sessions; POST
/// /v1/sessions/ID/end. Writes take ?session=ID to record a session.
///
/// Auth: once a live token exists (`relay token create`), every request but
/// /v1/conformance needs `Authorization: Bearer TOKEN`, and its writes are the token's
/// actor's. With no token, the server answers loopback requests only and writes as --actor
/// (else config, git user.email, $USER), like the CLI; it refuses to listen on another
/// address until a token exists.
///
/// Every request must name the server in its Host header (its listening address, localhost,
/// or a name given with --allow-host; 421 otherwise), and a request without a token that a
/// browser marks as coming from another site (Origin, Sec-Fetch-Site) is refused (403).
///
/// MCP: /mcp serves the tools of `relay mcp` over MCP's Streamable HTTP transport, to agents
/// on other machines (`claude mcp add --transport http relay URL/mcp --header
/// "Authorization: Bearer TOKEN"`), with the same tokens and scopes; a client subscribed
/// to a project's feed (relay://projects/P/packages) is notified of each new record.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay serve                        http://127.0.0.1:7700, no token needed while none exists
  curl -s 'localhost:7700/v1/projects/web/packages?mode=latest&limit=5'
  relay token create --actor claude --actor-type agent --project web     prints it once
  relay serve --listen 0.0.0.0:7700  every interface, now that a token exists
  curl -s -X POST -H 'Content-Type: application/json' -H \"Authorization: Bearer $TOKEN\" \\
       -d '{\"title\": \"Fixed the login bug\"}' localhost:7700/v1/projects/web/packages")]
pub struct ServeArgs {
    /// The address to listen on, IP:PORT or NAME:PORT (localhost:7700 binds loopback; port
    /// 0: any free port). Only loopback until a token exists
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:7700", value_parser = listen_address)]
    pub listen: SocketAddr,
    /// The largest request body, in bytes (larger: 413)
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_BODY)]
    pub max_body: usize,
    /// Seconds a request may take to arrive and be answered (slower: 408, or for headers
    /// the connection is closed)
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
    /// The most event streams (/v1/projects/{id}/events, GET /mcp) open at once; past it a
    /// new one is refused with 503 and Retry-After. An open stream holds a socket, no thread
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STREAMS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_streams: usize,
    /// The most event streams one caller (a token, a console login, the local user) holds
    /// open; past it its new one is refused with 429 and Retry-After
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STREAMS_PER_CALLER, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_streams_per_caller: usize,
    /// The embedding model for semantic and hybrid search (see `relay search --help`)
    #[arg(long, value_name = "PATH", env = "RELAY_MODEL")]
    pub model: Option<std::path::PathBuf>,
    /// Answer requests whose Host is NAME too (repeatable): the name clients reach the
    /// server by, behind a proxy or under a DNS name. NAME matches any port, NAME:PORT that
    /// port only. Without it, only the listening address and localhost are answered (421
    /// otherwise), so that a web page cannot reach the server under a name of its own
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Who requests without a token write as
    #[command(flatten)]
    pub who: ActorArgs,
    #[command(flatten)]
    pub session: SessionArg,
}

/// `--listen`, as the server resolves it.
fn listen_address(text: &str) -> Result<SocketAddr, String> {
    http::listen_address(text).map_err(|e| e.to_string())
}

pub fn run(ctx: &mut Ctx, args: ServeArgs) -> CmdResult {
    let store = ctx.store()?;
    if !args.listen.ip().is_loopback() && !tokens::any_live(store)? {
        return Err(CliError::Usage(format!(
            "refusing to listen on {} without a token: anyone who can reach it could read and \
             write the store. Make one with `relay token create --actor ID --actor-type agent` \
             (clients send it as `Authorization: Bearer TOKEN`), or listen on 127.0.0.1",
            args.listen
        )));
    }
    let model = load_model(ctx, args.model)?;
    let root = ctx.store()?.root().to_path_buf();
    let options = Options {
        listen: args.listen,
        max_body: args.max_body,
        timeout: Duration::from_secs(args.timeout),
        max_streams: args.max_streams,
        max_streams_per_caller: args.max_streams_per_caller,
        defaults: args.who.claim(&args.session),
        model,
        warnings: warning_printer(ctx),
        allowed_hosts: args.allow_host,
        login_required: false,
    };
    let server = Server::bind(ctx, options)?;
    let url = server.url();
    announce(ctx, &format!("listening on {url}"), &url, &root)?;
    let auth = if server.address().ip().is_loopback() && !tokens::any_live(ctx.store()?)? {
        "no token needed until one exists (relay token create)"
    } else {
        "every request but /v1/conformance needs a token"
    };
    ctx.ui.note(&format!(
        "relay serve: serving {} at {url}; {auth}. Stop with Ctrl-C.",
        root.display()
    ));
    server.run()?;
    ctx.ui.note("relay serve: stopped");
    Ok(())
}

/// Prints where the server is as the first line: `line`, or with --json {"url", "store"};
/// whoever reads it (a test, a supervisor) has it before the first request.
pub(super) fn announce(
    ctx: &mut Ctx,
    line: &str,
    url: &str,
    root: &std::path::Path,
) -> Result<(), CliError> {
    if ctx.ui.json {
        ctx.ui.json_line(&json!({"url": url, "store": root}))?;
    } else {
        use std::io::Write;
        writeln!(ctx.ui.out(), "{line}")?;
    }
    ctx.ui.flush()?;
    Ok(())
}

/// The embedding model of semantic and hybrid search: `given`, else the store's; one that
/// does not load leaves keyword search, with a warning.
pub(super) fn load_model(
    ctx: &mut Ctx,
    given: Option<std::path::PathBuf>,
) -> Result<Option<Arc<relay_core::search::model::Model>>, CliError> {
    let store = ctx.store()?;
    Ok(
        match semantic::load_model(Some(store), &ModelChoice { given }) {
            ModelState::Loaded(m) => {
                // A long-lived process loads the query side now, so the first query does not
                // wait for it, and says at the start if it is unusable.
                if let Some(notice) = m.query_notice() {
                    report_query_notice(&ctx.ui, &notice);
                }
                Some(Arc::new(*m))
            }
            ModelState::None => None,
            ModelState::Broken { path, reason } => {
                ctx.ui.tolerated_error(
                    relay_wire::Code::SearchNotSupported.as_str(),
                    &format!(
                        "the embedding model at {} does not load ({reason}); relevant pull is keyword search only",
                        path.display()
                    ),
                );
                None
            }
        },
    )
}

/// Prints what the store's readers skipped, once per line of a log however many requests
/// meet it, through a `Ui` of the command's own settings.
pub(super) fn warning_printer(ctx: &Ctx) -> http::WarningSink {
    let ui = Ui::new(
        ctx.ui.json,
        ctx.ui.quiet,
        ctx.global.color,
        ctx.env.no_color(),
    );
    let cwd = ctx.cwd.clone();
    let seen: Mutex<HashSet<(std::path::PathBuf, u64, &'static str)>> = Mutex::default();
    Box::new(move |warnings: Vec<Warning>| {
        let mut seen = seen.lock().unwrap_or_else(|p| p.into_inner());
        for w in warnings {
            if seen.insert((w.path.clone(), w.line, w.kind.as_str())) {
                ui.warning(&w, &cwd);
            }
        }
    })
}
