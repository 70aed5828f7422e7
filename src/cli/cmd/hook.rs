//! `relay hook`: install relay into git and into coding agents (Claude Code, Codex, Gemini CLI,
//! Cursor, OpenCode), take it out again, and `relay hook run`, which the agents' hooks call.

use std::io::Write;

use clap::{Args, Subcommand};
use serde_json::json;

use super::hook_git::{self, MergeDriverArgs, ReconcileArgs};
use super::hook_run::{self, RunArgs};
use crate::cli::context::{CliError, CmdResult, Ctx};
use relay_core::ops::agents::hooks::{self, AgentFile};
use relay_core::resolve::Environment;
use relay_core::resolve::environment::PATH;

/// Hook relay into git and coding agents (Claude Code, Codex, Gemini CLI, Cursor, OpenCode)
///
/// --git installs four git hooks. None blocks or fails git (but for credentials about to be
/// committed), and none leaves a change in the work tree for `git pull`, checkout, rebase,
/// cherry-pick, `stash pop` or merge to refuse over: what they record waits in this clone's
/// queue, .relay/local/pending/, which git never sees (reads show it at once), and enters the
/// store with your next commit.
///
/// post-commit: `relay deposit --auto --queue` records the commit in the queue (title from the
/// subject, description from the body, branch and diff stats, the changed files as
/// deliverables). One package per change: its id comes from the change (`git patch-id` of the
/// diff outside the store, and the author), so an amend that keeps the diff, a cherry-pick or
/// a rebased replay adds none; nothing is recorded while a rebase or cherry-pick replays
/// commits.
///
/// pre-commit: `relay hook flush --stage` moves the queue into the store's logs and stages
/// them, so they enter this commit (not during a rebase, cherry-pick or revert, for
/// `git commit -- PATHS`, or when nothing else is staged: the queue then waits for a later
/// commit); then `relay scan --staged` blocks a commit that stages credentials in the store.
///
/// post-merge and post-rewrite: `relay hook reconcile` puts back into the queue what the move
/// took from the store (every queued record is also kept in the clone's journal under
/// .git/relay/, which no git move, `git worktree remove` or `git clean -fdx` reaches, until
/// the branch's upstream holds it); then, after a merge or a rebase (not an amend), `relay
/// verify --quiet`, a read-only check.
///
/// --git also points this clone's git at relay's merge driver for the store's logs (git's
/// info/attributes and `merge.relay.driver`): a merge keeps each line of both sides once, so
/// a merged and a rebased clone hold the same lines and answer alike. Clones without it merge
/// with git's union driver, which the committed .relay/.gitattributes names.
///
/// Existing hooks are kept and still run; hooks an earlier relay installed are updated.
///
/// --claude merges into .claude/settings.json, --codex into .codex/hooks.json, --gemini into
/// .gemini/settings.json and --cursor into .cursor/hooks.json hooks that run `relay hook run
/// EVENT --agent NAME`, each with a 15 s timeout; --opencode writes the OpenCode plugin
/// .opencode/plugins/relay.js, which runs the same commands at OpenCode's events. What they
/// deposit is queued the same way. The events, in relay's names (the agent's own in brackets:
/// Gemini CLI, Cursor, OpenCode):
///
/// SessionStart [SessionStart, sessionStart, session.created]: a briefing into the agent's
/// context, at most 9,000 characters for Claude Code and Gemini CLI and 8,000 for the others;
/// after a compaction it leads with the session's latest checkpoint. It first deposits the
/// work of earlier sessions that never reached SessionEnd and were last seen over an hour ago.
///
/// PreCompact [PreCompress, preCompact, experimental.session.compacting]: a checkpoint
/// (x-checkpoint, with x-agent-session = the session id): the last prompt, the branch, the
/// last commit, the files changed and not committed.
///
/// Stop [AfterAgent, stop, session.idle], after every turn: only notes that the session is
/// alive; no deposit.
///
/// SessionEnd [SessionEnd, sessionEnd, session.deleted]: deposits the session's work once:
/// the commits since it started and the uncommitted files; nothing when it did nothing.
/// OpenCode's sessions rarely end by deletion, and a Codex before SessionEnd never ends one:
/// their sessions are deposited at a later SessionStart.
///
/// Installing twice changes nothing; entries of earlier versions (`relay orient --md`,
/// `relay deposit --auto --quiet`) are replaced. Uninstall takes relay's entries out and keeps
/// everyone else's; a file relay created is removed. Hooks never commit, amend, push or move a
/// ref; the only thing they stage is the queue, into the commit you are making.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay hook install --git
  relay hook install --claude
  relay hook install --codex --gemini --cursor --opencode
  relay hook uninstall --git --claude --codex --gemini --cursor --opencode
  relay hook flush
  relay hook reconcile
  echo '{\"session_id\":\"s1\",\"source\":\"startup\"}' | relay hook run SessionStart --agent claude")]
pub struct HookArgs {
    #[command(subcommand)]
    pub action: HookAction,
}

#[derive(Debug, Subcommand)]
pub enum HookAction {
    /// Install hooks (installing twice changes nothing)
    Install(Which),
    /// Remove relay's hooks and restore what was there before
    Uninstall(Which),
    /// Move what relay's hooks queued into the store's logs (the pre-commit hook runs it)
    ///
    /// The hooks write into .relay/local/pending/, which git never sees; this appends those
    /// lines to the tracked logs under the writers' lock and empties the queue (`relay
    /// status` says how many records wait). Nothing changes for reads: they saw the queue
    /// already. With --stage it also `git add`s the logs it changed; when staging is unsafe
    /// (a rebase, cherry-pick or revert in progress, or `git commit -- PATHS`, which commits
    /// through a temporary index) or nothing else is staged (git would refuse the empty commit
    /// and leave the store staged), it moves nothing, and the queue waits for the next commit.
    /// --json prints {"packages", "lines", "files", "staged", "deferred"}: what moved, where,
    /// whether it was staged, and why nothing moved.
    Flush(FlushArgs),
    /// Put back into the queue what a git move took from the store (post-merge and
    /// post-rewrite run it)
    ///
    /// Every record relay's hooks queue is also written to the clone's journal, under git's
    /// own folder (`.git/relay/journal/`), where no git move, `git worktree remove` or `git
    /// clean -fdx` reaches. A flattened merge, a reset, a revert or an abandoned branch can
    /// take a flushed record out of the store; this puts each such record back into the queue
    /// (the same line, which reads count once), so the next commit carries it again. Records
    /// that a commit in the branch's upstream holds are shared, and leave the journal. Every
    /// relay command does the first part when it opens the store; this also does the second.
    /// --json prints {"requeued", "forgotten", "journaled"}.
    Reconcile(ReconcileArgs),
    /// Merge two versions of a store log (git runs it: `merge.relay.driver`)
    ///
    /// `relay hook install --git` points this clone's git at it for the store's logs: it
    /// writes into OURS every line of OURS, then every line of THEIRS that OURS lacks, each
    /// line once; nothing either side holds is dropped (a log only grows). Clones that merged and
    /// clones that rebased the same commits then hold the same lines. Clones without it merge
    /// with git's union driver, which the committed .relay/.gitattributes names.
    MergeDriver(MergeDriverArgs),
    /// Handle one agent event (what the installed agent hooks run)
    ///
    /// Reads the event's JSON on stdin. Always exits 0 and writes nothing on stderr: problems
    /// are appended to .relay/local/hooks.log, one line each; after 10 s it gives up. Only
    /// SessionStart prints: the briefing in the form the agent documents for adding context
    /// (one line of JSON: hookSpecificOutput.additionalContext for claude, codex and gemini,
    /// additional_context for cursor; plain text for relay's opencode plugin).
    Run(RunArgs),
}

#[derive(Debug, Args)]
pub struct FlushArgs {
    /// Also add the store files it changed to git's index (what the pre-commit hook asks)
    #[arg(long)]
    pub stage: bool,
}

#[derive(Debug, Args)]
pub struct Which {
    /// The git hooks of the repository you are in
    #[arg(long)]
    pub git: bool,
    /// Claude Code's .claude/settings.json in the repository's top folder
    #[arg(long)]
    pub claude: bool,
    /// Codex's .codex/hooks.json in the repository's top folder
    #[arg(long)]
    pub codex: bool,
    /// Gemini CLI's .gemini/settings.json in the repository's top folder
    #[arg(long)]
    pub gemini: bool,
    /// Cursor's .cursor/hooks.json in the repository's top folder
    #[arg(long)]
    pub cursor: bool,
    /// An OpenCode plugin, .opencode/plugins/relay.js, in the repository's top folder
    #[arg(long)]
    pub opencode: bool,
}

impl Which {
    /// The agents' files asked for, in `AgentFile::ALL`'s order.
    fn agent_files(&self) -> Vec<AgentFile> {
        let wanted = [
            self.claude,
            self.codex,
            self.gemini,
            self.cursor,
            self.opencode,
        ];
        AgentFile::ALL
            .iter()
            .zip(wanted)
            .filter_map(|(file, wanted)| wanted.then_some(*file))
            .collect()
    }
}

/// How hooks (and git, for relay's merge driver) call relay: plain `relay` when that is this
/// binary on PATH (so a committed `.claude/settings.json` works for everyone), else this
/// binary by its full path.
pub fn relay_command(env: &Environment) -> String {
    let me = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok());
    let on_path = env.os(PATH).and_then(|paths| {
        std::env::split_paths(paths)
            .map(|d| d.join("relay"))
            .find(|p| p.is_file())
            .and_then(|p| p.canonicalize().ok())
    });
    match (me, on_path) {
        (Some(me), Some(found)) if me == found => "relay".to_string(),
        (Some(me), _) => match me.to_str() {
            Some(s) => format!("'{}'", s.replace('\'', "'\\''")),
            None => "relay".to_string(),
        },
        (None, _) => "relay".to_string(),
    }
}

pub fn run(ctx: &mut Ctx, args: HookArgs) -> CmdResult {
    let (which, install) = match args.action {
        HookAction::Install(w) => (w, true),
        HookAction::Uninstall(w) => (w, false),
        HookAction::Run(run) => return hook_run::run(ctx, run),
        HookAction::Flush(flush) => return run_flush(ctx, flush),
        HookAction::Reconcile(args) => return hook_git::run_reconcile(ctx, args),
        HookAction::MergeDriver(args) => return hook_git::run_merge_driver(ctx, args),
    };
    let files = which.agent_files();
    if !which.git && files.is_empty() {
        return Err(CliError::Usage(
            "say which hooks: --git, --claude, --codex, --gemini, --cursor, --opencode, or several"
                .into(),
        ));
    }
    let relay = relay_command(&ctx.env);
    let mut changes = Vec::new();
    if which.git {
        let dir = hooks::git_hooks_dir(&ctx.cwd)?;
        changes.extend(if install {
            hooks::install_git(&dir, &relay)?
        } else {
            hooks::uninstall_git(&dir)?
        });
        if install {
            // The store's folder as git names it (`.relay` until a store exists).
            let store_rel = relay_core::ops::git::driver::store_rel(ctx.store().ok());
            let driver = relay_core::ops::git::driver::install(&ctx.cwd, &store_rel, &relay)?;
            changes.extend(driver);
        } else {
            changes.extend(relay_core::ops::git::driver::uninstall(&ctx.cwd)?);
        }
    }
    let top = relay_core::ops::agents::session::work_root(&ctx.cwd);
    for file in files {
        changes.extend(if install {
            hooks::install_agent(file, &top, &relay)?
        } else {
            hooks::uninstall_agent(file, &top)?
        });
    }
    if ctx.ui.json {
        ctx.ui.json_line(&json!({"changes": changes}))?;
    } else if changes.is_empty() {
        writeln!(ctx.ui.out(), "Nothing to do.")?;
    } else {
        for c in changes {
            writeln!(ctx.ui.out(), "{c}")?;
        }
    }
    Ok(())
}

fn run_flush(ctx: &mut Ctx, args: FlushArgs) -> CmdResult {
    let store = match ctx.store() {
        Ok(store) => store,
        // Hooks installed in a repository without a store: nothing was queued.
        Err(relay_wire::Error::StoreNotFound { .. }) => {
            ctx.ui.note("No relay store here: nothing to flush.");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    let done = relay_core::ops::agents::queue::flush(store, &ctx.cwd, args.stage)?;
    if ctx.ui.json {
        ctx.ui.json_line(&done)?;
        return Ok(());
    }
    if let Some(why) = &done.deferred {
        ctx.ui.note(&format!(
            "The queue waits for the next commit: {why}; nothing was moved."
        ));
    } else if done.lines == 0 {
        ctx.ui.note("Nothing queued.");
    } else {
        let staged = if done.staged { ", staged" } else { "" };
        ctx.ui.note(&format!(
            "Moved {} ({}) into {}{staged}.",
            relay_wire::text::count(done.packages, "queued package version"),
            relay_wire::text::count(done.lines, "line"),
            done.files.join(", ")
        ));
    }
    Ok(())
}
