//! `relay keys`: make a dedicated signing key, allow a key you already have, rotate to a new
//! one, and list `.relay/allowed_signers`. The logic is [`relay_core::ops::trust::keys`]; a
//! rotation runs through the service ([`relay_core::service::Relay::rotate_key`]).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::cli::context::{ActorArgs, CliError, CmdResult, Ctx, SessionArg};
use relay_core::ops::trust::keys;

/// Make signing keys and list who may sign (.relay/allowed_signers)
///
/// relay signs records with an OpenSSH Ed25519 key (the kind git signs commits with) when
/// [sign] key is set in config.toml, RELAY_SIGNING_KEY or --sign-with names one, or --sign is
/// given. .relay/allowed_signers (committed) says which key may sign as which actor, in git's
/// format; a line `@revoked KEYTYPE BASE64` revokes a key for everyone.
///
/// An actor the file names a key for must sign every record from the line's valid-after (the
/// lines relay writes carry one), else from the commit that added the line; a key added for an
/// actor who already has one counts only with a key rotation record (`relay keys rotate`)
/// signed by the earlier key. `relay verify` reports the rest.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay keys generate --add
  relay keys add
  relay keys add ~/.ssh/id_ed25519.pub --actor jo@example.com
  relay keys generate --out ~/.ssh/relay_ci --actor ci-bot
  relay keys rotate --new ~/.config/relay/signing_key_2026
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
    /// Allow a key you already have: append its allowed_signers line for you
    ///
    /// PATH is an OpenSSH Ed25519 key, private or public (PATH.pub is read when PATH is
    /// neither); only its public half is read. Without PATH: the key this clone signs with
    /// (--sign-with, RELAY_SIGNING_KEY or [sign] key), else ~/.ssh/id_ed25519, the key --sign
    /// uses. The line carries valid-after (now), as `keys generate --add` writes it. A key the
    /// file allows for the actor already is left as it is; a revoked key, and a second key for
    /// an actor who has one, are refused (moving to a new key is `relay keys rotate`).
    Add {
        /// The key: an OpenSSH private key or public key file
        #[arg(value_name = "PATH")]
        path: Option<PathBuf>,
        /// The actor the key signs as; default: [actor] id in config, then git user.email, then $USER
        #[arg(long, env = "RELAY_ACTOR", value_name = "ID")]
        actor: Option<String>,
    },
    /// Move to a new signing key: a key rotation record signed with the current key, and the
    /// new key's line in .relay/allowed_signers
    ///
    /// The record (a package of type x-key-rotation in the selected project, as the actor) says
    /// that the new key signs for the actor from now on, and is signed with the key this clone
    /// signs with now (--sign-with, RELAY_SIGNING_KEY or [sign] key), which allowed_signers must
    /// allow for the actor. Without it, verify reports a key added for an actor who already had
    /// one, and refuses the records it signs. Commit .relay/ afterwards, and sign with the new
    /// key from then on.
    Rotate {
        /// The new key: an OpenSSH key file (private, or PATH.pub), made there as `keys
        /// generate` would when PATH does not exist yet
        #[arg(long, value_name = "PATH")]
        new: PathBuf,
        /// The actor whose key it is; default: [actor] id in config, then git user.email, then $USER
        #[arg(long, env = "RELAY_ACTOR", value_name = "ID")]
        actor: Option<String>,
    },
    /// The entries of .relay/allowed_signers: principals, key type, fingerprint, options
    List,
}

pub fn run(ctx: &mut Ctx, args: KeysArgs) -> CmdResult {
    match args.action {
        Action::Generate { out, actor, add } => generate(ctx, out, actor, add),
        Action::Add { path, actor } => add(ctx, path, actor),
        Action::Rotate { new, actor } => rotate(ctx, new, actor),
        Action::List => list(ctx),
    }
}

fn rotate(ctx: &mut Ctx, new: PathBuf, actor: Option<String>) -> CmdResult {
    let args = ActorArgs {
        actor,
        actor_type: None,
    };
    let claim = args.claim(&SessionArg { session: None });
    let path = ctx
        .cwd
        .join(relay_core::ops::trust::signatures::expand_home(
            &new.to_string_lossy(),
            &ctx.env,
        ));
    let project = ctx.project()?;
    let made = !path.exists();
    let generated = match made {
        false => None,
        true => Some(keys::generate(&path, &ctx.actor(&args)?.id)?),
    };
    let rotate = || -> Result<_, CliError> {
        let new_key = keys::public_key_at(&path)?;
        Ok(ctx.relay()?.rotate_key(&claim, project, &new_key)?)
    };
    let (done, plan) = match rotate() {
        Ok(r) => r,
        Err(e) => {
            // A key made for a rotation that did not happen goes with it.
            if let Some(g) = generated {
                let _ = std::fs::remove_file(&g.path);
                let _ = std::fs::remove_file(&g.public_path);
            }
            return Err(e);
        }
    };
    let package_id = done.package.id().to_string();
    let actor = done.package.created_by().id.to_string();
    if ctx.ui.json {
        ctx.ui.json_line(&serde_json::json!({
            "actor": actor,
            "old_key": plan.old_key,
            "new_key": plan.new_key,
            "package_id": package_id,
            "allowed_signers": plan.line,
            "key_path": path,
            "generated": made,
        }))?;
        return Ok(());
    }
    writeln!(
        ctx.ui.out(),
        "{} signs with {} from now on, instead of {}",
        relay_wire::text::clean_line(&actor),
        plan.new_key,
        plan.old_key
    )?;
    writeln!(
        ctx.ui.out(),
        "  key rotation record {package_id}, signed with {}",
        plan.old_key
    )?;
    writeln!(ctx.ui.out(), "  allowed_signers: {}", plan.line)?;
    if made {
        ctx.ui.note(&format!(
            "Wrote the new key to {} (private, mode 0600) and its .pub.",
            path.display()
        ));
    }
    ctx.ui
        .note("Commit .relay/ (the record and allowed_signers) together.");
    ctx.ui.note(&format!(
        "Sign with the new key from now on: set [sign] key = \"{}\" in .relay/config.toml, or RELAY_SIGNING_KEY.",
        path.display()
    ));
    Ok(())
}

/// The actor a key signs as: `--actor` (no blanks), else who this clone writes as.
fn signing_actor(ctx: &Ctx, actor: Option<String>) -> Result<String, CliError> {
    match actor {
        Some(a) if a.trim().is_empty() || a.chars().any(char::is_whitespace) => {
            Err(CliError::Usage(format!(
                "--actor {a:?}: an actor id for allowed_signers has no blanks"
            )))
        }
        Some(a) => Ok(a),
        None => Ok(ctx
            .actor(&ActorArgs {
                actor: None,
                actor_type: None,
            })
            .map_err(|e| match e {
                relay_wire::error::Error::StoreNotFound { .. } => {
                    CliError::Usage("no store here to take the actor from: give --actor ID".into())
                }
                e => e.into(),
            })?
            .id),
    }
}

fn add(ctx: &mut Ctx, path: Option<PathBuf>, actor: Option<String>) -> CmdResult {
    let (path, done, signs) = allow(ctx, path, actor)?;
    if ctx.ui.json {
        let mut v = serde_json::to_value(&done).map_err(|e| CliError::Output(e.into()))?;
        v["path"] = serde_json::json!(path);
        ctx.ui.json_line(&v)?;
        return Ok(());
    }
    writeln!(ctx.ui.out(), "{}", done.allowed_signers)?;
    if !done.added {
        ctx.ui.note(&format!(
            ".relay/allowed_signers allows {} ({}) for {} already: nothing to add.",
            path.display(),
            done.fingerprint,
            relay_wire::text::clean_line(&done.actor)
        ));
        return Ok(());
    }
    ctx.ui.note(&format!(
        "Added the line above for {} ({}) to .relay/allowed_signers; commit it.",
        path.display(),
        done.fingerprint
    ));
    if !signs {
        // Signing takes the private key, beside a .pub.
        let shown = path.to_string_lossy();
        let private = shown.strip_suffix(".pub").unwrap_or(&shown);
        ctx.ui.note(&format!(
            "Sign with it: set [sign] key = \"{private}\" in .relay/config.toml, or \
             RELAY_SIGNING_KEY."
        ));
    }
    Ok(())
}

/// `keys add`'s work: the key's path, what `keys::allow` did, and whether this clone signs.
fn allow(
    ctx: &Ctx,
    path: Option<PathBuf>,
    actor: Option<String>,
) -> Result<(PathBuf, keys::Allowed, bool), CliError> {
    let store = ctx.store()?;
    let actor = signing_actor(ctx, actor)?;
    let (path, named) = match path {
        Some(p) => (
            ctx.cwd
                .join(relay_core::ops::trust::signatures::expand_home(
                    &p.to_string_lossy(),
                    &ctx.env,
                )),
            true,
        ),
        None => match store.signing_key_path() {
            Some(p) => (p.to_path_buf(), true),
            None => (
                relay_core::ops::trust::signatures::expand_home(
                    relay_core::ops::trust::signatures::DEFAULT_KEY,
                    &ctx.env,
                ),
                false,
            ),
        },
    };
    let public = PathBuf::from(format!("{}.pub", path.display()));
    if !named && !path.exists() && !public.exists() {
        let why = format!(
            "no key to add: this clone signs with none (--sign-with, RELAY_SIGNING_KEY, [sign] \
             key) and {} does not exist; name yours (relay keys add PATH) or make one (relay \
             keys generate --add)",
            path.display()
        );
        return Err(relay_wire::error::Error::InvalidInput(why).into());
    }
    let key = keys::public_key_at(&path)?;
    let done = keys::allow(store, &actor, &key)?;
    Ok((path, done, store.signing_key_path().is_some()))
}

fn generate(ctx: &mut Ctx, out: Option<PathBuf>, actor: Option<String>, add: bool) -> CmdResult {
    let actor = signing_actor(ctx, actor)?;
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
