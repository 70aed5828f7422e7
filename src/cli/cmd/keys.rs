//! `relay keys`: make a dedicated signing key, and list `.relay/allowed_signers`. The logic is
//! [`relay_core::ops::trust::keys`].

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::cli::context::{ActorArgs, CliError, CmdResult, Ctx};
use relay_core::ops::trust::keys;

/// Make signing keys and list who may sign (.relay/allowed_signers)
///
/// relay signs records with an OpenSSH Ed25519 key (the kind git signs commits with) when
/// [sign] key is set in config.toml, RELAY_SIGNING_KEY or --sign-with names one, or --sign is
/// given. .relay/allowed_signers (committed) says which key may sign as which actor, in git's
/// format; a line `@revoked KEYTYPE BASE64` revokes a key for everyone.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay keys generate --add
  relay keys generate --out ~/.ssh/relay_ci --actor ci-bot
  relay keys list")]
pub struct KeysArgs {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line
    ///
    /// Never overwrites a file. The default path is $XDG_CONFIG_HOME/relay/signing_key (or
    /// ~/.config/relay/signing_key). Sign with it by setting [sign] key in config.toml, or
    /// RELAY_SIGNING_KEY, or --sign-with PATH.
    Generate {
        /// Where to write the private key (the public key goes to PATH.pub)
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        /// The actor the key signs as; default: [actor] id in config, then git user.email, then $USER
        #[arg(long, env = "RELAY_ACTOR", value_name = "ID")]
        actor: Option<String>,
        /// Also append the line to .relay/allowed_signers
        #[arg(long)]
        add: bool,
    },
    /// The entries of .relay/allowed_signers: principals, key type, fingerprint, options
    List,
}

pub fn run(ctx: &mut Ctx, args: KeysArgs) -> CmdResult {
    match args.action {
        Action::Generate { out, actor, add } => generate(ctx, out, actor, add),
        Action::List => list(ctx),
    }
}

fn generate(ctx: &mut Ctx, out: Option<PathBuf>, actor: Option<String>, add: bool) -> CmdResult {
    let actor = match actor {
        Some(a) if a.trim().is_empty() || a.chars().any(char::is_whitespace) => {
            return Err(CliError::Usage(format!(
                "--actor {a:?}: an actor id for allowed_signers has no blanks"
            )));
        }
        Some(a) => a,
        None => {
            ctx.actor(&ActorArgs {
                actor: None,
                actor_type: None,
            })
            .map_err(|e| match e {
                relay_wire::error::Error::StoreNotFound { .. } => {
                    CliError::Usage("no store here to take the actor from: give --actor ID".into())
                }
                e => e.into(),
            })?
            .id
        }
    };
    let path = match out {
        Some(p) => ctx
            .cwd
            .join(relay_core::ops::trust::signatures::expand_home(
                &p.to_string_lossy(),
                &ctx.env,
            )),
        None => keys::default_key_path(&ctx.env)?,
    };
    // The store is found before anything is written, so --add outside a store writes nothing.
    let store = if add { Some(ctx.store()?) } else { None };
    let g = keys::generate(&path, &actor)?;
    if let Some(store) = store {
        keys::add_allowed(store, &g.allowed_signers)?;
    }
    if ctx.ui.json {
        let mut v = serde_json::to_value(&g).map_err(|e| CliError::Output(e.into()))?;
        v["added"] = serde_json::Value::Bool(add);
        ctx.ui.json_line(&v)?;
        return Ok(());
    }
    writeln!(ctx.ui.out(), "{}", g.allowed_signers)?;
    ctx.ui.note(&format!(
        "Wrote {} (private, mode 0600) and {}; fingerprint {}.",
        g.path.display(),
        g.public_path.display(),
        g.fingerprint
    ));
    if add {
        ctx.ui
            .note("Added the line above to .relay/allowed_signers; commit it.");
    } else {
        ctx.ui
            .note("Add the line above to .relay/allowed_signers (or rerun with --add).");
    }
    ctx.ui.note(&format!(
        "Sign with it: set [sign] key = \"{}\" in .relay/config.toml, or RELAY_SIGNING_KEY.",
        g.path.display()
    ));
    Ok(())
}

fn list(ctx: &mut Ctx) -> CmdResult {
    let entries = keys::list(ctx.store()?)?;
    if ctx.ui.json {
        for e in &entries {
            ctx.ui.json_line(e)?;
        }
        return Ok(());
    }
    if entries.is_empty() {
        ctx.ui
            .note("No allowed signers: .relay/allowed_signers is empty or absent.");
        return Ok(());
    }
    for e in &entries {
        let revoked = if e.revoked && e.principals != "@revoked" {
            "  (revoked)"
        } else {
            ""
        };
        let options = if e.options.is_empty() {
            String::new()
        } else {
            format!("  {}", e.options)
        };
        writeln!(
            ctx.ui.out(),
            "{}  {}  {}{options}{revoked}",
            relay_wire::text::clean_line(&e.principals),
            e.key_type,
            e.fingerprint
        )?;
    }
    Ok(())
}
