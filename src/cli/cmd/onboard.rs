//! `relay onboard`: placeholder wiring for issue 9 (to be replaced).

use clap::Args;

use crate::cli::{CmdResult, Ctx};

/// (placeholder)
#[derive(Debug, Args)]
pub struct OnboardArgs {}

pub fn run(_ctx: &mut Ctx, _args: OnboardArgs) -> CmdResult {
    Ok(())
}
