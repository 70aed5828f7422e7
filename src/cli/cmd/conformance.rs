//! `relay conformance`: the §11.5 descriptor of what this build implements.

use std::io::Write;

use clap::Args;

use crate::cli::{CmdResult, Ctx};
use crate::ops::conformance;

/// Print the conformance descriptor (§11.5): protocol version, level and capabilities
#[derive(Debug, Args)]
pub struct ConformanceArgs {}

pub fn run(ctx: &mut Ctx, _args: ConformanceArgs) -> CmdResult {
    let d = conformance::descriptor();
    if ctx.ui.json {
        ctx.ui.json_line(&d)?;
        return Ok(());
    }
    let out = ctx.ui.out();
    writeln!(
        out,
        "Agentic Protocol {}, conformance level {}",
        d.protocol_version, d.conformance_level
    )?;
    writeln!(
        out,
        "Implementation: {} {}",
        d.implementation.name, d.implementation.version
    )?;
    writeln!(out, "Capabilities:")?;
    for (name, on) in d.capabilities.flags() {
        writeln!(out, "  {name}: {}", if on { "yes" } else { "no" })?;
    }
    Ok(())
}
