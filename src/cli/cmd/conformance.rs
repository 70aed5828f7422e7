//! `relay conformance`: the §11.5 descriptor of what this build implements.

use std::io::Write;

use clap::Args;

use crate::cli::{CmdResult, Ctx};
use crate::ops::{conformance, semantic};

/// Print the conformance descriptor (§11.5): protocol version, level and capabilities
///
/// semantic_search and hybrid_search are true only when an embedding model is configured
/// (--model, RELAY_MODEL, or `[search] model` in .relay/config.toml) and loads.
#[derive(Debug, Args)]
pub struct ConformanceArgs {
    /// The embedding model's folder (see `relay search --help`)
    #[arg(long, value_name = "PATH", env = "RELAY_MODEL")]
    pub model: Option<std::path::PathBuf>,
}

pub fn run(ctx: &mut Ctx, args: ConformanceArgs) -> CmdResult {
    let choice = semantic::ModelChoice { given: args.model };
    let d = conformance::descriptor(semantic::available(ctx.store().ok(), &choice));
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
