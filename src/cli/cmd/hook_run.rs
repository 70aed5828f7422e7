//! `relay hook run EVENT --agent claude|codex|gemini|cursor|opencode`: the one entry point the
//! agents' hooks (and relay's OpenCode plugin) call. It reads the event's JSON on stdin, hands
//! it to `ops::agents::session` on a worker thread, and never blocks or fails the agent: after
//! `TIME_LIMIT` it gives up, it always exits 0, and problems go to `.relay/local/hooks.log`,
//! never to stderr. Its writes are queued (see `store::queue`) in a store git sees.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use clap::{Args, ValueEnum};

use crate::cli::context::{CmdResult, Ctx};
use relay_core::ops::agents::session::{self, Agent, Call, Event, Outcome, TIME_LIMIT};
use relay_store::Store;
use relay_wire::error::Result;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AgentArg {
    /// Claude Code
    Claude,
    /// Codex
    Codex,
    /// Gemini CLI
    Gemini,
    /// Cursor
    Cursor,
    /// OpenCode (through relay's plugin)
    Opencode,
}

impl From<AgentArg> for Agent {
    fn from(a: AgentArg) -> Agent {
        match a {
            AgentArg::Claude => Agent::Claude,
            AgentArg::Codex => Agent::Codex,
            AgentArg::Gemini => Agent::Gemini,
            AgentArg::Cursor => Agent::Cursor,
            AgentArg::Opencode => Agent::OpenCode,
        }
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The agent's event: SessionStart, PreCompact, Stop or SessionEnd
    #[arg(value_name = "EVENT")]
    pub event: String,
    /// The agent that sends it
    #[arg(long, value_enum)]
    pub agent: AgentArg,
    /// SessionStart's briefing budget in characters [default: 9000 for claude and gemini, 8000
    /// for codex, cursor and opencode]
    #[arg(long, value_name = "N")]
    pub max_chars: Option<usize>,
}

pub fn run(ctx: &mut Ctx, args: RunArgs) -> CmdResult {
    let agent = Agent::from(args.agent);
    let store_root = Store::locate(&ctx.cwd, ctx.global.store.as_deref()).ok();
    let (cwd, project) = (ctx.cwd.clone(), ctx.project_flag());
    let (event, max_chars) = (args.event.clone(), args.max_chars);
    let root = store_root.clone();
    let (tx, rx) = mpsc::channel();
    // The worker owns what it needs: on time out the process exits without waiting for it.
    std::thread::spawn(move || {
        let _ = tx.send(work(root, &cwd, project, agent, &event, max_chars));
    });
    let outcome = rx.recv_timeout(TIME_LIMIT).unwrap_or_else(|_| {
        Err(relay_wire::Error::Integrity(format!(
            "gave up after {} s; nothing was added to the agent's context",
            TIME_LIMIT.as_secs()
        )))
    });
    let log = |message: &str| {
        if let Some(root) = &store_root {
            session::log_problem(root, &args.event, agent, message);
        }
    };
    match outcome {
        Ok(Outcome { context, problems }) => {
            problems.iter().for_each(|p| log(p));
            if let Some(context) = context {
                write!(ctx.ui.out(), "{}", session::context_output(agent, &context))?;
            }
        }
        Err(e) => log(&e.to_string()),
    }
    Ok(())
}

fn work(
    store_root: Option<PathBuf>,
    cwd: &Path,
    project: Option<String>,
    agent: Agent,
    event: &str,
    max_chars: Option<usize>,
) -> Result<Outcome> {
    let event = Event::parse(event)?;
    let mut stdin = Vec::new();
    std::io::stdin()
        .read_to_end(&mut stdin)
        .map_err(|e| relay_wire::Error::io("cannot read the event on stdin", e))?;
    let input = session::parse_input(agent, &stdin)?;
    let Some(store_root) = store_root else {
        return Ok(Outcome::default()); // no store here: relay has nothing to do
    };
    let mut store = Store::open(store_root)?;
    let _ = store.reconcile_journal();
    let env = relay_core::resolve::Environment::process();
    let key = relay_core::ops::trust::signatures::key_path(&store, None, false, cwd, env);
    store.set_signing_key(key);
    // What a hook writes waits in the clone's queue, where git never sees it, until the next
    // commit: a hook never leaves the work tree dirty for a pull or a checkout to refuse.
    let queued = relay_core::ops::agents::queue::should_queue(&store);
    store.set_queued(queued);
    let project = match project.or_else(|| store.config().default_project.clone()) {
        Some(p) => p,
        None => {
            return Err(relay_wire::Error::InvalidInput(
                "no project selected: set default_project in .relay/config.toml or RELAY_PROJECT"
                    .into(),
            ));
        }
    };
    let root = session::work_root(cwd);
    let call = Call {
        store: &store,
        root: &root,
        project: &project,
        agent,
        now: relay_wire::time::now(),
    };
    let mut outcome = call.handle(event, &input, max_chars)?;
    // What the store's readers skipped goes to the log, not to the agent's stderr.
    for w in store.diagnostics().take() {
        outcome.problems.push(format!(
            "warning {}:{}: {}",
            w.path.display(),
            w.line,
            w.message
        ));
    }
    Ok(outcome)
}
