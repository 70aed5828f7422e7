//! Signing keys (`relay keys`): making a dedicated OpenSSH Ed25519 key for relay, adding a key
//! to `.relay/allowed_signers` (its line carries `valid-after`, the moment it was made, so its
//! actor must sign from then on whatever git says), allowing a key the user already has
//! (`relay keys add`), listing what that file allows and revokes, and what a key rotation
//! needs (`relay keys rotate`): the key this clone signs with, allowed for the actor, and a new
//! key whose line joins the file.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use ssh_key::rand_core::OsRng;
use ssh_key::{Algorithm, LineEnding, PrivateKey, PublicKey};

use relay_store::Store;
use relay_wire::allowed_signers::{Allowance, AllowedSigners};
use relay_wire::error::{Error, Result};
use relay_wire::signature::{NAMESPACE, fingerprint};

use crate::resolve::environment::Environment;

/// Where `relay keys generate` puts a key when not told: `$XDG_CONFIG_HOME/relay/signing_key`,
/// else `~/.config/relay/signing_key`.
pub fn default_key_path(env: &Environment) -> Result<PathBuf> {
    let config = env.config_home().ok_or_else(|| {
        Error::InvalidInput("neither XDG_CONFIG_HOME nor HOME is set: give --out PATH".into())
    })?;
    Ok(config.join("relay").join("signing_key"))
}

/// A key `generate` made.
#[derive(Debug, Clone, Serialize)]
pub struct Generated {
    pub path: PathBuf,
    pub public_path: PathBuf,
    pub fingerprint: String,
    /// The line that allows it for `actor` in `allowed_signers`.
    pub allowed_signers: String,
}

/// Makes an Ed25519 key for `actor` at `path` (mode 0600) and `path.pub`; never overwrites.
pub fn generate(path: &Path, actor: &str) -> Result<Generated> {
    let public_path = PathBuf::from(format!("{}.pub", path.display()));
    for p in [path, &public_path] {
        if p.exists() {
            return Err(Error::InvalidInput(format!(
                "{} exists, and relay never overwrites a key: allow that key with `relay keys \
                 add {}`, or give another --out PATH",
                p.display(),
                path.display()
            )));
        }
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    }
    let mut key = PrivateKey::random(&mut OsRng, Algorithm::Ed25519)
        .map_err(|e| Error::Integrity(format!("cannot make a key: {e}")))?;
    key.set_comment(actor);
    let private = key
        .to_openssh(LineEnding::LF)
        .map_err(|e| Error::Integrity(format!("cannot encode the key: {e}")))?;
    let public = key
        .public_key()
        .to_openssh()
        .map_err(|e| Error::Integrity(format!("cannot encode the key: {e}")))?;
    write_new(path, private.as_bytes(), 0o600)?;
    write_new(&public_path, format!("{public}\n").as_bytes(), 0o644)?;
    Ok(Generated {
        path: path.to_path_buf(),
        public_path,
        fingerprint: fingerprint(key.public_key()),
        allowed_signers: allowed_line(actor, &public),
    })
}

/// The `allowed_signers` line relay writes for `public` (OpenSSH text) signing as `actor`: the
/// relay namespace, and valid from now.
pub fn allowed_line(actor: &str, public: &str) -> String {
    format!(
        "{actor} namespaces=\"{NAMESPACE}\",{} {public}",
        super::signers::valid_after_now()
    )
}

/// The public key of the key file at `path`: an OpenSSH private key (its public half), a
/// public key, or, failing both, `PATH.pub`.
pub fn public_key_at(path: &Path) -> Result<PublicKey> {
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|e| Error::io(format!("cannot read {}", p.display()), e))
    };
    let text = read(path)?;
    if let Ok(k) = PrivateKey::from_openssh(text.trim()) {
        return Ok(k.public_key().clone());
    }
    if let Ok(k) = PublicKey::from_openssh(text.trim()) {
        return Ok(k);
    }
    let public = PathBuf::from(format!("{}.pub", path.display()));
    let text = read(&public).map_err(|_| {
        Error::InvalidInput(format!(
            "{} is neither an OpenSSH private key nor a public key",
            path.display()
        ))
    })?;
    PublicKey::from_openssh(text.trim())
        .map_err(|e| Error::InvalidInput(format!("{} is not a public key ({e})", public.display())))
}

/// A key rotation `plan_rotation` checked: the statement to deposit (signed with the key
/// this store signs with) and the line `allowed_signers` gains.
#[derive(Debug, Clone)]
pub struct RotationPlan {
    pub package: serde_json::Map<String, serde_json::Value>,
    pub old_key: String,
    pub new_key: String,
    pub line: String,
}

/// What rotating `actor` (of `actor_type`) to `new` takes: this store signs, with a key that
/// `allowed_signers` allows for the actor now (and does not revoke), and `new` is another
/// key.
pub fn plan_rotation(
    store: &Store,
    actor: &str,
    actor_type: &str,
    new: &PublicKey,
) -> Result<RotationPlan> {
    let Some(signer) = store.signer()? else {
        return Err(Error::InvalidInput(
            "a key rotation is signed with the key it replaces: give it with --sign-with \
             OLD_KEY (or [sign] key in config.toml, or RELAY_SIGNING_KEY)"
                .into(),
        ));
    };
    let old = signer.public_key();
    let signers = super::signers::Signers::load(store, true)?;
    let allowance = signers.allows(actor, &old, relay_wire::time::now());
    if allowance != Allowance::Allowed {
        let why = match allowance {
            Allowance::NotAllowed(r) => r,
            _ => "it is revoked".into(),
        };
        return Err(Error::InvalidInput(format!(
            "the signing key {} may not sign as {actor} now ({why}): a rotation is signed \
             with a key allowed_signers allows for {actor}",
            signer.fingerprint
        )));
    }
    let new_key = fingerprint(new);
    if new_key == signer.fingerprint {
        return Err(Error::InvalidInput(format!(
            "the new key is the one this clone signs with ({new_key}): give another"
        )));
    }
    let package = relay_wire::key_rotation::input(actor, actor_type, &signer.fingerprint, new)
        .map_err(Error::Integrity)?;
    let public = new
        .to_openssh()
        .map_err(|e| Error::Integrity(format!("cannot encode the key: {e}")))?;
    Ok(RotationPlan {
        package,
        old_key: signer.fingerprint.clone(),
        new_key,
        line: allowed_line(actor, &public),
    })
}

/// Creates `path` (failing if it exists) with `mode` on Unix, and writes `bytes`.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode);
    }
    let _ = mode;
    let mut f = options
        .open(path)
        .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
}

/// Appends `line` to `.relay/allowed_signers` (created when absent), refusing a line that
/// does not parse or a file that would not.
pub fn add_allowed(store: &Store, line: &str) -> Result<()> {
    let path = store.allowed_signers_file();
    let before = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Error::io(format!("cannot read {}", path.display()), e)),
    };
    let mut text = before.clone();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(line.trim_end());
    text.push('\n');
    AllowedSigners::parse(&text).map_err(|(n, m)| {
        Error::Integrity(format!(
            "{}:{n}: {m}; fix or remove that line",
            path.display()
        ))
    })?;
    let _lock = store.lock("allowed-signers")?;
    relay_store::ndjson::write_atomic(&path, text.as_bytes())
}

/// What `allow` did with a key.
#[derive(Debug, Clone, Serialize)]
pub struct Allowed {
    pub actor: String,
    pub fingerprint: String,
    /// The line that allows the key for the actor: the one appended, or the one already there.
    pub allowed_signers: String,
    /// Whether the line was appended (false: the file allowed the key for the actor already).
    pub added: bool,
}

/// Allows `key`, a key its owner already has (`relay keys add`), to sign as `actor`: appends
/// its line (valid from now) to `allowed_signers`, unless a line there allows it for the actor
/// already. Refuses a key that is not Ed25519, a revoked key, and a key for an actor who has
/// another key allowed: that takes a rotation record (`relay keys rotate`), else `verify`
/// reports an unverified key change.
pub fn allow(store: &Store, actor: &str, key: &PublicKey) -> Result<Allowed> {
    let fp = fingerprint(key);
    if key.algorithm() != Algorithm::Ed25519 {
        return Err(Error::InvalidInput(format!(
            "the key {fp} is of type {}; relay signs with ed25519 keys only (make one with \
             `relay keys generate --add`)",
            key.algorithm()
        )));
    }
    let allowed = store.allowed_signers()?;
    if let Some((line, _)) = (allowed.revoked.iter()).find(|(_, k)| k.key_data() == key.key_data())
    {
        return Err(Error::InvalidInput(format!(
            "the key {fp} is revoked (line {line} of allowed_signers): a revoked key signs for \
             nobody"
        )));
    }
    let for_actor = |e: &&relay_wire::allowed_signers::Entry| e.names(actor) && e.signs_relay();
    let same = |e: &&relay_wire::allowed_signers::Entry| e.key.key_data() == key.key_data();
    let text = |line: u64| {
        let file = std::fs::read_to_string(store.allowed_signers_file()).unwrap_or_default();
        let n = usize::try_from(line)
            .unwrap_or(usize::MAX)
            .saturating_sub(1);
        file.lines().nth(n).unwrap_or_default().trim().to_string()
    };
    if let Some(e) = allowed.entries.iter().filter(for_actor).find(same) {
        return Ok(Allowed {
            actor: actor.to_string(),
            fingerprint: fp,
            allowed_signers: text(e.line),
            added: false,
        });
    }
    let other = (allowed.entries.iter())
        .filter(for_actor)
        .find(|e| !same(e) && !allowed.revokes(&e.key));
    if let Some(e) = other {
        return Err(Error::InvalidInput(format!(
            "{actor} already signs with {} (line {} of allowed_signers): moving to another key \
             takes a key rotation record signed with that one, `relay keys rotate --new PATH \
             --sign-with OLD_KEY`",
            fingerprint(&e.key),
            e.line
        )));
    }
    let public = key
        .to_openssh()
        .map_err(|e| Error::Integrity(format!("cannot encode the key: {e}")))?;
    let line = allowed_line(actor, &public);
    add_allowed(store, &line)?;
    Ok(Allowed {
        actor: actor.to_string(),
        fingerprint: fp,
        allowed_signers: line,
        added: true,
    })
}

/// One line of `allowed_signers`, as `relay keys list` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    pub line: u64,
    /// Comma-separated actor ids or patterns; `@revoked` for a revocation.
    pub principals: String,
    pub key_type: String,
    pub fingerprint: String,
    pub options: String,
    pub revoked: bool,
}

/// Every entry and revocation of `allowed_signers`, in line order.
pub fn list(store: &Store) -> Result<Vec<Listed>> {
    let allowed = store.allowed_signers()?;
    let revoked: Vec<_> = allowed
        .revoked
        .iter()
        .map(|(_, k)| k.key_data().clone())
        .collect();
    let mut out: Vec<Listed> = (allowed.entries.iter())
        .map(|e| Listed {
            line: e.line,
            principals: e.principals.join(","),
            key_type: e.key.algorithm().to_string(),
            fingerprint: fingerprint(&e.key),
            options: e.options.clone(),
            revoked: revoked.contains(e.key.key_data()),
        })
        .collect();
    out.extend(allowed.revoked.iter().map(|(line, k)| Listed {
        line: *line,
        principals: "@revoked".into(),
        key_type: k.algorithm().to_string(),
        fingerprint: fingerprint(k),
        options: String::new(),
        revoked: true,
    }));
    out.sort_by_key(|l| l.line);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_key_signs_and_is_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/key");
        let g = generate(&path, "jo@x.org").unwrap();
        let (signer, warning) = relay_store::signing::load_key(&path).unwrap();
        assert_eq!(
            (signer.fingerprint.as_str(), warning),
            (g.fingerprint.as_str(), None)
        );
        assert!(
            g.allowed_signers
                .starts_with("jo@x.org namespaces=\"relay\",valid-after=\"20"),
            "{}",
            g.allowed_signers
        );
        assert!(g.allowed_signers.contains("Z\" ssh-ed25519 "));
        assert_eq!(
            public_key_at(&path).unwrap(),
            public_key_at(&g.public_path).unwrap()
        );
        let parsed = AllowedSigners::parse(&g.allowed_signers).unwrap();
        assert_eq!(parsed.entries[0].principals, ["jo@x.org"]);
        let again = generate(&path, "jo@x.org").unwrap_err();
        assert!(again.to_string().contains("never overwrites"), "{again}");
    }
}
