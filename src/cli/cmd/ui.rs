//! `relay ui`: the web console in a browser with nothing to set up. It serves the store on a
//! free loopback port (the server of `relay serve`) and opens a one-time link that logs the
//! browser in as the person running it, so reviews can be approved from the page without
//! making a token; where no browser opens, it prints the link. That login is the run's
//! secret: the server answers nothing without it (or a token), so no other page or program
//! reads or writes through it.

use std::net::{Ipv4Addr, SocketAddr};

use clap::Args;

use super::serve::{announce, load_model, warning_printer};
use crate::cli::context::{ActorArgs, CmdResult, Ctx, SessionArg};
use relay_core::ops::attribution;
use relay_core::ops::trust::tokens::Grant;
use relay_server::{
    DEFAULT_MAX_BODY, DEFAULT_MAX_STREAMS, DEFAULT_MAX_STREAMS_PER_CALLER, DEFAULT_TIMEOUT,
    Options, Server,
};

/// Open the web console: timeline, search, facts, the review queue and orient, in a browser
///
/// Starts the HTTP server of `relay serve` on 127.0.0.1 (a free port unless --port) and opens
/// the default browser on a link that logs it in as you (--actor, else config, git
/// user.email, $USER), so you can approve or request changes from the page. The link works
/// once and the login lasts while this command runs; nothing is written to the store's
/// tokens. Every request needs that login (or a token): another page in the browser, or
/// another program on the machine, reads and writes nothing through this server. Prints the
/// link as its first line (--json: {"url": …}); with --no-open, or where no browser opens,
/// open it yourself. Stop with Ctrl-C.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay ui                      opens the console in your browser
  relay ui --no-open            prints the link only (a remote shell, a test)
  relay ui --port 7800 --model ~/.relay/models/minilm    a fixed port, search by meaning")]
pub struct UiArgs {
    /// The port on 127.0.0.1 (0: any free port)
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    pub port: u16,
    /// Print the link, do not open a browser
    #[arg(long)]
    pub no_open: bool,
    /// The embedding model for search by meaning (see `relay search --help`)
    #[arg(long, value_name = "PATH", env = "RELAY_MODEL")]
    pub model: Option<std::path::PathBuf>,
    /// Who you are in the console (approvals are recorded as this actor)
    #[command(flatten)]
    pub who: ActorArgs,
    #[command(flatten)]
    pub session: SessionArg,
}

pub fn run(ctx: &mut Ctx, args: UiArgs) -> CmdResult {
    let model = load_model(ctx, args.model)?;
    let claim = args.who.claim(&args.session);
    let store = ctx.store()?;
    let actor = attribution::actor(store, &ctx.cwd, &claim)?;
    let root = store.root().to_path_buf();
    let options = Options {
        listen: SocketAddr::from((Ipv4Addr::LOCALHOST, args.port)),
        max_body: DEFAULT_MAX_BODY,
        timeout: DEFAULT_TIMEOUT,
        max_streams: DEFAULT_MAX_STREAMS,
        max_streams_per_caller: DEFAULT_MAX_STREAMS_PER_CALLER,
        defaults: claim,
        model,
        warnings: warning_printer(ctx),
        allowed_hosts: Vec::new(),
        login_required: true,
    };
    let server = Server::bind(ctx, options)?;
    let who = format!("{} ({})", actor.id, actor.actor_type);
    let link = server.console_link(Grant {
        token_id: "relay-ui".into(),
        actor,
        projects: None,
        read_only: false,
    })?;
    announce(ctx, &link, &link, &root)?;
    if !args.no_open {
        match webbrowser::open(&link) {
            Ok(()) => ctx.ui.note("relay ui: opened the console in your browser"),
            Err(e) => ctx.ui.note(&format!(
                "relay ui: no browser opened here ({e}); open the link above"
            )),
        }
    }
    ctx.ui.note(&format!(
        "relay ui: serving {} as {who}; the link works once. Stop with Ctrl-C.",
        root.display()
    ));
    server.run()?;
    ctx.ui.note("relay ui: stopped");
    Ok(())
}
