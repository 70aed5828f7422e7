//! `relay onboard [--write FILE]`: the Markdown block that teaches a coding agent to use relay,
//! printed to paste into AGENTS.md or CLAUDE.md, or kept current between marker comments in such
//! a file (created, updated in place, or appended; written atomically). Needs no store.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use crate::cli::context::{CmdResult, Ctx};
use relay_wire::error::Error;

/// The line that opens relay's block in a file.
pub const START: &str = "<!-- relay:onboard:start -->";
/// The line that closes it.
pub const END: &str = "<!-- relay:onboard:end -->";

/// The block, markers included. Every `relay …` command in it is run by a test.
pub const BLOCK: &str = "<!-- relay:onboard:start -->
## Working memory: relay

This repository records its decisions, open questions and handoffs in `.relay/` with the
`relay` CLI. Commit `.relay/` with your changes. Every command takes `--json`.

- **At the start of a session**, read the briefing (the latest handoff, the lessons that
  matter, where each agent stands, recent work, open questions, current facts) before anything
  else:

  ```sh
  relay orient
  ```

  Claude Code, Codex, Gemini CLI, Cursor and OpenCode get this briefing by themselves at
  session start, and leave a checkpoint before compaction, once relay's hooks are in:
  `relay hook install --claude --codex --gemini --cursor --opencode` (name yours).

- **When you finish a piece of work**, deposit what you did, each decision with its reason,
  what is still open, and what the next session should do first:

  ```sh
  relay deposit --title \"Moved sessions to Redis\" --decision \"Redis over Postgres: 10x fewer writes\" --question \"Do sessions need to survive a restart?\" --handoff \"Load-test the Redis cluster before Friday\"
  ```

- **When you learn something the hard way** (a gotcha any later session must know), record
  it as a lesson; `warning` and `critical` lessons appear in every briefing:

  ```sh
  relay lesson add \"Migrations need a lock timeout\" --content \"Run migrations with --lock-timeout 5s or they block writes\" --severity critical
  ```

- **When you start, switch or stop a task, or get blocked**, record where you stand, so other
  agents see it in their briefing:

  ```sh
  relay checkpoint --working-on \"Moving sessions to Redis\" --decision \"Redis over Postgres\" --blocker \"No staging credentials\"
  ```

- **When some state changes** (a service goes live, a benchmark moves), assert it as a fact;
  the new value supersedes the old one:

  ```sh
  relay facts assert SUBJECT PREDICATE VALUE
  ```

- **When a person must decide**, deposit the work as a draft and flag it for human review
  (PKG is the `pkg_…` id the deposit printed):

  ```sh
  relay deposit --title \"Log retention options\" --status draft --question \"Keep logs 30 or 90 days?\"
  relay review flag PKG --human --note \"Pick the retention period\"
  ```

Look things up with `relay search WORDS`, `relay facts get SUBJECT PREDICATE`,
`relay lesson list` and `relay checkpoint show`.
<!-- relay:onboard:end -->
";

/// Print the block that teaches coding agents to use relay (for AGENTS.md, CLAUDE.md)
///
/// The block tells an agent to run `relay orient` when a session starts (and names the agents
/// relay's hooks brief by themselves: Claude Code, Codex, Gemini CLI, Cursor and OpenCode; see
/// `relay hook`), to deposit decisions, open questions and a handoff note when it finishes a
/// piece of work, to assert facts for state that changes, and to flag work for human review
/// when a person must decide. With --write, the
/// block goes into FILE between the markers <!-- relay:onboard:start --> and
/// <!-- relay:onboard:end -->: the file is created if missing, the block replaced in place if the
/// markers are there (running twice changes nothing), and appended otherwise.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay onboard                        print the block
  relay onboard --write AGENTS.md
  relay onboard --write CLAUDE.md --json")]
pub struct OnboardArgs {
    /// Write the block into FILE (atomically) instead of printing it
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
}

/// What `--write` did to the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Created,
    Updated,
    Appended,
    Unchanged,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Created => "created",
            Action::Updated => "updated",
            Action::Appended => "appended",
            Action::Unchanged => "unchanged",
        }
    }
}

/// What the block tells an agent about committing the store, for a local one (`relay init
/// --local`): git never sees it, so it must never be added.
const COMMIT_LINE: &str = "Commit `.relay/` with your changes.";
const LOCAL_LINE: &str = "This store is local: git never sees `.relay/`; never add it to a commit.";

/// The block for the store here: [`BLOCK`], or for a local store the same with its commit line
/// replaced (without a store, [`BLOCK`]).
fn block_for(ctx: &Ctx) -> String {
    match ctx.store() {
        Ok(store) if store.config().local() => BLOCK.replace(COMMIT_LINE, LOCAL_LINE),
        _ => BLOCK.to_string(),
    }
}

pub fn run(ctx: &mut Ctx, args: OnboardArgs) -> CmdResult {
    let block = block_for(ctx);
    let Some(file) = args.write else {
        if ctx.ui.json {
            ctx.ui.json_line(&json!({ "markdown": block }))?;
        } else {
            ctx.ui.out().write_all(block.as_bytes())?;
        }
        return Ok(());
    };
    let action = write_block(&ctx.cwd.join(&file), &file, &block)?;
    let shown = file.display();
    if ctx.ui.json {
        ctx.ui
            .json_line(&json!({"written": shown.to_string(), "action": action.as_str()}))?;
        return Ok(());
    }
    let out = ctx.ui.out();
    match action {
        Action::Created => writeln!(out, "Created {shown} with relay's onboarding block.")?,
        Action::Updated => writeln!(out, "Updated relay's onboarding block in {shown}.")?,
        Action::Appended => writeln!(out, "Appended relay's onboarding block to {shown}.")?,
        Action::Unchanged => writeln!(out, "{shown} already has the current block.")?,
    }
    Ok(())
}

/// Puts the block into the file at `path` (`shown` names it in errors), through a symlink if it
/// is one (CLAUDE.md is often a link to AGENTS.md).
fn write_block(path: &Path, shown: &Path, block: &str) -> Result<Action, Error> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let existing = match std::fs::read(&target) {
        Ok(bytes) => Some(String::from_utf8(bytes).map_err(|_| {
            Error::InvalidInput(format!(
                "{} is not UTF-8 text; relay only writes its block into Markdown files",
                shown.display()
            ))
        })?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io(format!("cannot read {}", shown.display()), e)),
    };
    let (text, action) = splice(existing.as_deref(), block).map_err(|problem| {
        Error::InvalidInput(format!(
            "{} {problem}; fix the markers by hand (both {START} and {END}, in that order, or \
             neither), then run `relay onboard --write {}` again",
            shown.display(),
            shown.display()
        ))
    })?;
    if action != Action::Unchanged {
        relay_store::ndjson::write_atomic(&target, text.as_bytes())?;
    }
    Ok(action)
}

/// The file's new text with `block` in it, and what changed; `Err` says what is wrong with
/// the markers.
pub fn splice(existing: Option<&str>, block: &str) -> Result<(String, Action), String> {
    let Some(text) = existing else {
        return Ok((block.to_string(), Action::Created));
    };
    let starts = text.matches(START).count();
    let ends = text.matches(END).count();
    match (starts, ends) {
        (0, 0) => {
            let sep = match text {
                "" => "",
                t if t.ends_with("\n\n") => "",
                t if t.ends_with('\n') => "\n",
                _ => "\n\n",
            };
            Ok((format!("{text}{sep}{block}"), Action::Appended))
        }
        (1, 1) => {
            let (s, e) = (text.find(START).unwrap_or(0), text.find(END).unwrap_or(0));
            if e < s {
                return Err("has the end marker before the start marker".into());
            }
            let new = format!(
                "{}{}{}",
                &text[..s],
                block.trim_end_matches('\n'),
                &text[e + END.len()..]
            );
            let action = if new == text {
                Action::Unchanged
            } else {
                Action::Updated
            };
            Ok((new, action))
        }
        _ => Err(format!(
            "has {} and {} of relay's block, so relay cannot tell what to replace",
            relay_wire::text::count(starts, "start marker"),
            relay_wire::text::count(ends, "end marker")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_creates_appends_and_replaces() {
        assert!(BLOCK.starts_with(&format!("{START}\n")) && BLOCK.ends_with(&format!("\n{END}\n")));
        assert_eq!(
            splice(None, BLOCK).unwrap(),
            (BLOCK.to_string(), Action::Created)
        );
        let (appended, a) = splice(Some("# Notes\nkeep me"), BLOCK).unwrap();
        assert_eq!(a, Action::Appended);
        assert_eq!(appended, format!("# Notes\nkeep me\n\n{BLOCK}"));
        assert_eq!(
            splice(Some(&appended), BLOCK).unwrap(),
            (appended, Action::Unchanged)
        );
        let old = format!("a\n{START}\nold text\n{END}\nb\n");
        let (new, a) = splice(Some(&old), BLOCK).unwrap();
        assert_eq!(a, Action::Updated);
        assert_eq!(new, format!("a\n{BLOCK}b\n"));
    }

    #[test]
    fn splice_refuses_broken_markers() {
        assert!(splice(Some(&format!("{START}\nx\n")), BLOCK).is_err());
        assert!(splice(Some(&format!("{END}\nx\n{START}\n")), BLOCK).is_err());
        assert!(splice(Some(&format!("{START}{END}{START}{END}")), BLOCK).is_err());
    }
}
