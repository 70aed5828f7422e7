//! `relay mcp`: placeholder wiring for issue 9 (to be replaced).

use clap::Args;

use crate::cli::{CmdResult, Ctx};

/// (placeholder)
#[derive(Debug, Args)]
pub struct McpArgs {}

pub fn run(_ctx: &mut Ctx, _args: McpArgs) -> CmdResult {
    Ok(())
}
