//! Signing keys (`relay keys`): making a dedicated OpenSSH Ed25519 key for relay, adding a key
//! to `.relay/allowed_signers`, and listing what that file allows and revokes.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use ssh_key::rand_core::OsRng;
use ssh_key::{Algorithm, LineEnding, PrivateKey};

use relay_store::Store;
use relay_wire::allowed_signers::AllowedSigners;
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
                "{} exists, and relay never overwrites a key: give another --out PATH",
                p.display()
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
        allowed_signers: format!("{actor} namespaces=\"{NAMESPACE}\" {public}"),
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
                .starts_with("jo@x.org namespaces=\"relay\" ssh-ed25519 ")
        );
        let parsed = AllowedSigners::parse(&g.allowed_signers).unwrap();
        assert_eq!(parsed.entries[0].principals, ["jo@x.org"]);
        let again = generate(&path, "jo@x.org").unwrap_err();
        assert!(again.to_string().contains("never overwrites"), "{again}");
    }
}
