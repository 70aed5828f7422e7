//! Who is acting: the actor id and type recorded in `created_by` and `asserted_by`.

use std::path::Path;

use relay_store::{Config, Store};
use relay_wire::ACTOR_TYPES;
use relay_wire::error::{Error, Result};

use crate::resolve::environment::Environment;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: String,
    pub actor_type: String,
}

impl Actor {
    /// Resolves the actor (DESIGN §3): the explicit id (from `--actor` / `RELAY_ACTOR`), then the
    /// config's `[actor] id`, then git `user.email`, then `$USER` of `env`; the type from the
    /// explicit value, then config, then `human`.
    pub fn resolve(
        explicit_id: Option<&str>,
        explicit_type: Option<&str>,
        config: &Config,
        cwd: &Path,
        env: &Environment,
    ) -> Result<Actor> {
        let id = explicit_id
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .or_else(|| config.actor.id.clone().filter(|s| !s.is_empty()))
            .or_else(|| crate::ops::git::user_email(cwd))
            .or_else(|| env.user_name())
            .unwrap_or_else(|| "unknown".to_string());
        let actor_type = explicit_type
            .map(str::to_string)
            .or_else(|| config.actor.actor_type.clone())
            .unwrap_or_else(|| "human".to_string());
        check_actor_type(&actor_type)?;
        Ok(Actor { id, actor_type })
    }

    /// The actor as a write records it: its id is stored text like any other, so a credential
    /// in it is refused (or redacted, by the store's policy) and a NUL refused.
    pub fn guarded(self, store: &Store) -> Result<Actor> {
        let id = crate::ops::trust::secrets::guard_fields(store, &[("actor", &self.id)])?.remove(0);
        Ok(Actor { id, ..self })
    }
}

/// Refuses an actor type outside the spec's enum (§6.2), naming the allowed ones.
pub fn check_actor_type(actor_type: &str) -> Result<()> {
    if ACTOR_TYPES.contains(&actor_type) {
        return Ok(());
    }
    Err(Error::InvalidInput(format!(
        "actor type `{actor_type}` is not one of {}",
        ACTOR_TYPES.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::environment::{USER, USERNAME};

    #[test]
    fn the_last_default_is_the_user_of_the_environment_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        let env = Environment::from_pairs([(USER, ""), (USERNAME, "jo")]);
        let config = Config::default();
        let actor = Actor::resolve(None, None, &config, dir.path(), &env).unwrap();
        // git's `user.email` comes first when this machine's git has one.
        let git = crate::ops::git::user_email(dir.path());
        assert_eq!(actor.id, git.unwrap_or_else(|| "jo".into()));
        assert_eq!(actor.actor_type, "human");
        let given = Actor::resolve(Some("ann"), Some("agent"), &config, dir.path(), &env);
        assert_eq!(given.unwrap().id, "ann");
    }
}
