//! `relay scan`: audit the store (or the lines staged for commit) for credentials.

use std::io::Write;

use clap::Args;

use crate::cli::context::{CliError, CmdResult, Ctx};
use relay_core::ops::trust::secrets::{self, Found};
use relay_wire::error::Error;
use relay_wire::secrets as rules;

/// Look for credentials in the store: every line, every version
///
/// Reports file:line, the rule and the field, never the secret itself, and exits 4
/// (secret_detected) when it finds any. --staged looks only at the store lines staged for the next git commit (the
/// pre-commit hook that `relay hook install --git` installs runs it, and a finding blocks the
/// commit). The rules cover the credentials of some 130 services by their token formats
/// (private keys; cloud, code hosting, CI, registry, AI, chat, mail, payment and monitoring
/// services' keys and tokens), JWTs, passwords in URLs, Authorization headers, and
/// generic-secret (password=, secret=, token=, api_key= … with a high-entropy value). In a
/// JSON record, member names are scanned as well as values. docs/reference/secret-rules.md
/// lists every rule id.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Only the store lines staged for commit
    #[arg(long)]
    pub staged: bool,
}

/// The lines a staged diff adds under `store_rel`, with their file and line numbers.
fn staged_lines(ctx: &Ctx, store_rel: &str) -> Result<Vec<(String, u64, String)>, CliError> {
    let diff = relay_core::ops::git::git_raw(
        &ctx.cwd,
        &[
            "diff",
            "--cached",
            "-U0",
            "--no-color",
            "--no-ext-diff",
            "--",
            store_rel,
        ],
    )
    .ok_or_else(|| Error::InvalidInput("scan --staged needs a git repository".into()))?;
    let text = String::from_utf8_lossy(&diff);
    let (mut file, mut line) = (String::new(), 0u64);
    let mut out = Vec::new();
    for l in text.lines() {
        if let Some(f) = l.strip_prefix("+++ ") {
            file = f.strip_prefix("b/").unwrap_or(f).to_string();
        } else if let Some(h) = l.strip_prefix("@@ ") {
            // @@ -a,b +c,d @@
            line = h
                .split(' ')
                .find_map(|p| p.strip_prefix('+'))
                .and_then(|p| p.split(',').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
        } else if let Some(added) = l.strip_prefix('+') {
            out.push((file.clone(), line, added.to_string()));
            line += 1;
        }
    }
    Ok(out)
}

pub fn run(ctx: &mut Ctx, args: ScanArgs) -> CmdResult {
    let store = ctx.store()?;
    let found: Vec<Found> = if args.staged {
        let top = relay_core::ops::git::git(&ctx.cwd, &["rev-parse", "--show-toplevel"])
            .ok_or_else(|| Error::InvalidInput("scan --staged needs a git repository".into()))?;
        let rel = store
            .root()
            .strip_prefix(&top)
            .unwrap_or(store.root())
            .display()
            .to_string();
        staged_lines(ctx, &rel)?
            .iter()
            .flat_map(|(f, n, t)| secrets::scan_line(f, *n, t))
            .collect()
    } else {
        secrets::scan_store(store)?
    };
    for f in &found {
        if ctx.ui.json {
            ctx.ui.json_line(f)?;
        } else {
            let field = if f.field.is_empty() {
                String::new()
            } else {
                format!(" in `{}`", f.field)
            };
            writeln!(ctx.ui.out(), "{}:{}: {}{field}", f.file, f.line, f.rule)?;
        }
    }
    if found.is_empty() {
        if !ctx.ui.json && !ctx.ui.quiet {
            writeln!(
                ctx.ui.out(),
                "No credentials found ({} rules).",
                rules::rule_ids().len()
            )?;
        }
        return Ok(());
    }
    Err(Error::SecretsFound(found.len()).into())
}
