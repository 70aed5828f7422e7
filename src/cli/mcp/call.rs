//! One tool call in progress ([`Call`]): the checked arguments, the server's [`Defaults`] they
//! override, and the helpers every handler reads them with. The tool table ([`super::tools`])
//! and the handlers ([`super::handlers`]) both build on it, and neither on the other's types.

use serde_json::Value;

use super::schema::Args;
use crate::cli::context::{ActorArgs, SessionArg};
use crate::cli::{CliError, Ctx};
use relay_core::ops::trust::attribution::Claim;
use relay_wire::error::Error;
use relay_wire::time;

/// The server-wide defaults a call's own arguments override: `relay mcp --actor …
/// --session …` (or RELAY_ACTOR, RELAY_ACTOR_TYPE, RELAY_SESSION).
#[derive(Debug, Clone)]
pub struct Defaults {
    pub who: ActorArgs,
    pub session: SessionArg,
    /// `relay mcp --project`.
    pub project: Option<String>,
    /// `relay mcp --model` (or RELAY_MODEL): the embedding model's folder, else the store's.
    pub model: Option<std::path::PathBuf>,
}

/// The arguments a tool takes for the transport rather than for its operation.
const TRANSPORT_KEYS: [&str; 4] = ["project", "actor", "actor_type", "session"];

/// One call in progress.
pub struct Call<'a> {
    pub ctx: &'a Ctx,
    pub args: Args,
    pub defaults: &'a Defaults,
}

impl Call<'_> {
    /// The identity the call claims: its own arguments, else the server's defaults.
    pub(super) fn claim(&self) -> Claim {
        let d = &self.defaults;
        Claim {
            actor: self.args.str("actor").or_else(|| d.who.actor.clone()),
            actor_type: (self.args.str("actor_type")).or_else(|| d.who.actor_type.clone()),
            session: self.session(),
            remote: false,
        }
    }

    pub(super) fn session(&self) -> Option<String> {
        (self.args.str("session")).or_else(|| self.defaults.session.session.clone())
    }

    pub(super) fn time(&self, name: &str) -> Result<Option<time::Timestamp>, CliError> {
        Ok(time::parse_time(name, self.args.str(name).as_deref())?)
    }

    /// Whether an argument was given; `false` counts as not given, as a flag left off.
    pub(super) fn given(&self, name: &str) -> bool {
        self.args
            .get(name)
            .is_some_and(|v| v != &Value::Bool(false))
    }

    /// The call's arguments as the operation's request type (`relay_core::request`), less
    /// the ones every tool takes for the transport (project, actor, actor_type, session),
    /// except those in `keep`, which the request reads itself.
    pub(super) fn request<T: serde::de::DeserializeOwned>(
        &self,
        keep: &[&str],
    ) -> Result<T, CliError> {
        let mut args = self.args.to_map();
        for key in TRANSPORT_KEYS.iter().filter(|k| !keep.contains(k)) {
            args.remove(*key);
        }
        serde_json::from_value(Value::Object(args)).map_err(|e| invalid(e.to_string()))
    }

    /// How a search asked for as `search` ranks, with the server's model.
    pub(super) fn search_mode(
        &self,
        asked: Option<String>,
    ) -> Result<
        (
            relay_core::search::fuse::Mode,
            Option<relay_core::search::model::Model>,
        ),
        CliError,
    > {
        let modes = crate::cli::args::ModeArgs {
            mode: asked,
            model: self.defaults.model.clone(),
        };
        modes.resolve(self.ctx)
    }
}

pub(super) fn invalid(message: String) -> CliError {
    Error::InvalidInput(message).into()
}

pub(super) fn to_value(v: &impl serde::Serialize) -> Result<Value, CliError> {
    serde_json::to_value(v).map_err(|e| Error::Integrity(e.to_string()).into())
}
