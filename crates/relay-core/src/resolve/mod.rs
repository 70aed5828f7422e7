//! What every door (the CLI, MCP, HTTP and the console) shares, worked out once at its start
//! from the [`Environment`] snapshot and the door's own flags ([`Flags`]): the store (opened
//! on first use, with its secrets policy and signing key), the working folder, the identity
//! defaults, the selected project and the embedding model's choice. A door then reads these
//! from one [`Resolved`] instead of asking the environment or its arguments again.

pub mod environment;
pub mod signing_key;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use relay_store::config::SecretPolicy;
use relay_store::{Config, Store};
use relay_wire::error::{Error, Result};

pub use environment::Environment;

use crate::request::caller::Claim;
use crate::request::scope;
use crate::request::search::ModelChoice;

/// What a door was told at its start; each `None` leaves a value to the environment, then to
/// the store.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// The store folder (`--store`); else `RELAY_DIR`, else found upward from the working
    /// folder.
    pub store: Option<PathBuf>,
    /// The project to act on (`--project`); else `RELAY_PROJECT`, else the config's default.
    pub project: Option<String>,
    /// Who acts, and in which session (`--actor`, `--actor-type`, `--session`); else
    /// `RELAY_ACTOR`, `RELAY_ACTOR_TYPE`, `RELAY_SESSION`.
    pub identity: Claim,
    /// The embedding model's folder (`--model`); else `RELAY_MODEL`, else the config's.
    pub model: Option<PathBuf>,
    /// The secrets policy for this run (`--redact-secrets`, `--allow-secrets`); else the
    /// config's.
    pub secrets: Option<SecretPolicy>,
    /// The key to sign every write with (`--sign-with`); else `RELAY_SIGNING_KEY`.
    pub sign_with: Option<PathBuf>,
    /// Sign writes with the default key when none is configured (`--sign`).
    pub sign: bool,
}

/// What a door acts on, worked out once (see the module's header).
#[derive(Debug)]
pub struct Resolved {
    /// The environment as it was when the door started.
    pub env: Environment,
    /// The working folder: identity defaults (git `user.email`), deliverable paths and the
    /// search for the store start here.
    pub cwd: PathBuf,
    store_dir: Option<PathBuf>,
    project: Option<String>,
    identity: Claim,
    model: Option<PathBuf>,
    secrets: Option<SecretPolicy>,
    sign_with: Option<PathBuf>,
    sign: bool,
    store: OnceLock<Store>,
}

impl Resolved {
    /// Each of `flags`, else its environment variable in `env`.
    pub fn new(env: Environment, cwd: PathBuf, flags: Flags) -> Resolved {
        use environment::RELAY_SIGNING_KEY;
        use environment::{RELAY_ACTOR, RELAY_ACTOR_TYPE, RELAY_DIR, RELAY_MODEL, RELAY_SESSION};
        let text = |var| env.filled(var).map(str::to_string);
        let path = |var| env.filled(var).map(PathBuf::from);
        let identity = Claim {
            actor: flags.identity.actor.or_else(|| text(RELAY_ACTOR)),
            actor_type: flags.identity.actor_type.or_else(|| text(RELAY_ACTOR_TYPE)),
            session: flags.identity.session.or_else(|| text(RELAY_SESSION)),
            remote: flags.identity.remote,
        };
        Resolved {
            store_dir: flags.store.or_else(|| path(RELAY_DIR)),
            project: flags.project.or_else(|| env.project()),
            identity,
            model: flags.model.or_else(|| path(RELAY_MODEL)),
            secrets: flags.secrets,
            sign_with: flags.sign_with.or_else(|| path(RELAY_SIGNING_KEY)),
            sign: flags.sign,
            store: OnceLock::new(),
            env,
            cwd,
        }
    }

    /// The process's environment ([`Environment::process`]) and working folder, with `flags`.
    pub fn at_start(flags: Flags) -> Result<Resolved> {
        let cwd =
            std::env::current_dir().map_err(|e| Error::io("cannot read the current folder", e))?;
        Ok(Resolved::new(Environment::process().clone(), cwd, flags))
    }

    /// The store folder as given (`--store` or `RELAY_DIR`), if it was.
    pub fn store_dir(&self) -> Option<&Path> {
        self.store_dir.as_deref()
    }

    /// The store, found and opened on first use, with this run's secrets policy and signing
    /// key.
    pub fn store(&self) -> Result<&Store> {
        if let Some(s) = self.store.get() {
            return Ok(s);
        }
        let store = self.open_store()?;
        Ok(self.store.get_or_init(|| store))
    }

    /// The store, to change how this run writes (e.g. to queue its writes).
    pub fn store_mut(&mut self) -> Result<&mut Store> {
        self.store()?;
        self.store
            .get_mut()
            .ok_or_else(|| Error::Integrity("the store was not opened".into()))
    }

    /// The store if it was opened already.
    pub fn opened_store(&self) -> Option<&Store> {
        self.store.get()
    }

    /// A handle on the store of its own (for a server that shares it between threads), with
    /// the same policy and key.
    pub fn open_store(&self) -> Result<Store> {
        let root = Store::locate(&self.cwd, self.store_dir())?;
        let mut store = Store::open(root)?;
        // Records a git move took from the store go back into the clone's queue before
        // anything reads it (see `relay-store`'s `journal`); a failure here fails no read.
        let _ = store.reconcile_journal();
        if let Some(policy) = self.secrets {
            store.set_secret_policy(policy);
        }
        let key = signing_key::key_path(
            &store,
            self.sign_with.as_deref(),
            self.sign,
            &self.cwd,
            &self.env,
        );
        store.set_signing_key(key);
        Ok(store)
    }

    /// The store's configuration.
    pub fn config(&self) -> Result<&Config> {
        Ok(self.store()?.config())
    }

    /// The project selected at the start (`--project`, else `RELAY_PROJECT`), if one was.
    pub fn selected_project(&self) -> Option<String> {
        self.project.clone()
    }

    /// The project to act on: the one selected, else the config's default; `None` when
    /// neither names one.
    pub fn acting_project(&self) -> Result<Option<String>> {
        match self.selected_project() {
            Some(p) => Ok(Some(p)),
            None => Ok(scope::default_project(self.store()?)),
        }
    }

    /// Who acts and in which session unless an operation is told otherwise.
    pub fn identity(&self) -> &Claim {
        &self.identity
    }

    /// `claim` (a door's own identity flags), with the identity defaults where it names
    /// nothing.
    pub fn identity_with(&self, claim: Claim) -> Claim {
        let defaults = &self.identity;
        Claim {
            actor: claim.actor.or_else(|| defaults.actor.clone()),
            actor_type: claim.actor_type.or_else(|| defaults.actor_type.clone()),
            session: claim.session.or_else(|| defaults.session.clone()),
            remote: claim.remote,
        }
    }

    /// Where the embedding model comes from: the one given, else the config's.
    pub fn model(&self) -> ModelChoice {
        ModelChoice {
            given: self.model.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::environment::*;
    use super::*;

    fn resolved(env: Environment, flags: Flags) -> Resolved {
        Resolved::new(env, PathBuf::from("/nowhere"), flags)
    }

    #[test]
    fn the_identity_defaults_come_from_the_snapshot_unless_flagged() {
        let env = Environment::from_pairs([
            (RELAY_ACTOR, "from-env"),
            (RELAY_ACTOR_TYPE, "agent"),
            (RELAY_SESSION, ""),
        ]);
        let r = resolved(env.clone(), Flags::default());
        assert_eq!(r.identity().actor.as_deref(), Some("from-env"));
        assert_eq!(r.identity().actor_type.as_deref(), Some("agent"));
        assert_eq!(r.identity().session, None, "an empty variable is unset");
        let flagged = Flags {
            identity: Claim {
                actor: Some("flag".into()),
                ..Claim::default()
            },
            ..Flags::default()
        };
        let r = resolved(env, flagged);
        assert_eq!(r.identity().actor.as_deref(), Some("flag"));
        assert_eq!(r.identity().actor_type.as_deref(), Some("agent"));
        assert_eq!(
            resolved(Environment::default(), Flags::default())
                .identity()
                .actor,
            None
        );
    }

    #[test]
    fn project_store_and_model_come_from_flags_then_the_snapshot() {
        let env = Environment::from_pairs([
            (RELAY_PROJECT, "web"),
            (RELAY_DIR, "/srv/store"),
            (RELAY_MODEL, "/models/m"),
        ]);
        let r = resolved(env.clone(), Flags::default());
        assert_eq!(r.selected_project().as_deref(), Some("web"));
        assert_eq!(r.store_dir(), Some(Path::new("/srv/store")));
        assert_eq!(r.model().given, Some(PathBuf::from("/models/m")));
        let flags = Flags {
            project: Some("api".into()),
            store: Some("/here".into()),
            ..Flags::default()
        };
        let r = resolved(env, flags);
        assert_eq!(r.selected_project().as_deref(), Some("api"));
        assert_eq!(r.store_dir(), Some(Path::new("/here")));
        let none = resolved(
            Environment::from_pairs([(RELAY_PROJECT, "")]),
            Flags::default(),
        );
        assert_eq!(none.selected_project(), None);
        assert!(none.opened_store().is_none());
    }
}
