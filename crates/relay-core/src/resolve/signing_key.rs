//! Which key this process signs its writes with, worked out as the environment resolves:
//! the flag or `RELAY_SIGNING_KEY`, else the store's `[sign] key`, else with `--sign` the
//! user's default OpenSSH key.

use std::path::{Path, PathBuf};

use relay_store::Store;

use super::Environment;

/// The key a `--sign` without a configured key uses.
pub const DEFAULT_KEY: &str = "~/.ssh/id_ed25519";

/// `~` or `~/…` with the home folder of `env` put in; other paths as given.
pub fn expand_home(path: &str, env: &Environment) -> PathBuf {
    let home = || env.home();
    match path.strip_prefix('~') {
        Some("") => home().unwrap_or_else(|| PathBuf::from(path)),
        Some(rest) if rest.starts_with('/') || rest.starts_with('\\') => {
            home().map_or_else(|| PathBuf::from(path), |h| h.join(&rest[1..]))
        }
        _ => PathBuf::from(path),
    }
}

/// The key this process signs with: `flag` (`--sign-with`, or `RELAY_SIGNING_KEY`), else
/// `[sign] key` in config.toml (relative to the folder that holds `.relay/`), else, with
/// `sign` (`--sign`), `~/.ssh/id_ed25519`; `None`: writes are not signed.
pub fn key_path(
    store: &Store,
    flag: Option<&Path>,
    sign: bool,
    cwd: &Path,
    env: &Environment,
) -> Option<PathBuf> {
    if let Some(p) = flag.filter(|p| !p.as_os_str().is_empty()) {
        return Some(cwd.join(expand_home(&p.to_string_lossy(), env)));
    }
    if let Some(k) = store.config().sign.key.as_deref().filter(|k| !k.is_empty()) {
        let base = store.root().parent().unwrap_or(store.root());
        return Some(base.join(expand_home(k, env)));
    }
    sign.then(|| expand_home(DEFAULT_KEY, env))
}
