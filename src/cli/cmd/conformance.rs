//! `relay conformance`: the §11.5 descriptor of what this build implements.

use std::io::Write;

use clap::Args;

use crate::cli::{CmdResult, Ctx};
use crate::ops::status;

/// Print the conformance descriptor (§11.5): protocol version, level and capabilities
#[derive(Debug, Args)]
pub struct ConformanceArgs {}

pub fn run(ctx: &mut Ctx, _args: ConformanceArgs) -> CmdResult {
    let d = status::conformance();
    if ctx.ui.json {
        ctx.ui.json_line(&d)?;
        return Ok(());
    }
    let out = ctx.ui.out();
    writeln!(
        out,
        "Agentic Protocol {}, conformance level {}",
        d["protocol_version"].as_str().unwrap_or("?"),
        d["conformance_level"].as_str().unwrap_or("?")
    )?;
    writeln!(
        out,
        "Implementation: {} {}",
        d["implementation"]["name"].as_str().unwrap_or("?"),
        d["implementation"]["version"].as_str().unwrap_or("?")
    )?;
    writeln!(out, "Capabilities:")?;
    if let Some(caps) = d["capabilities"].as_object() {
        for (name, on) in caps {
            let shown = match on {
                serde_json::Value::Bool(true) => "yes".to_string(),
                serde_json::Value::Bool(false) => "no".to_string(),
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            writeln!(out, "  {name}: {shown}")?;
        }
    }
    Ok(())
}
