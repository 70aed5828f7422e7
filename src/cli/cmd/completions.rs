//! `relay completions`: placeholder wiring for issue 9 (to be replaced).

use clap::Args;

use crate::cli::{CmdResult, Ctx};

/// (placeholder)
#[derive(Debug, Args)]
pub struct CompletionsArgs {}

pub fn run(_ctx: &mut Ctx, _args: CompletionsArgs) -> CmdResult {
    Ok(())
}
