//! One tool call in progress ([`Call`]): the checked arguments, the server's [`Settings`] they
//! override, and the helpers every handler reads them with. The tool table ([`super::tools`])
//! and the handlers ([`super::handlers`]) both build on it, and neither on the other's types.

use std::path::PathBuf;

use serde_json::Value;

use super::host::{Context, Settings};
use super::schema::Args;
use relay_core::ops::trust::attribution::Claim;
use relay_core::request::search;
use relay_wire::error::{Error, Result};
use relay_wire::time;

/// How a search ranks: its mode, and the model semantic and hybrid search use.
type Ranking = (
    relay_core::search::fuse::Mode,
    Option<relay_core::search::model::Model>,
);

/// The arguments a tool takes for the transport rather than for its operation.
const TRANSPORT_KEYS: [&str; 4] = ["project", "actor", "actor_type", "session"];

/// One call in progress.
pub struct Call<'a> {
    pub ctx: Context<'a>,
    pub args: Args,
    pub defaults: &'a Settings,
}

impl Call<'_> {
    /// The identity the call claims: its own arguments, else the server's defaults.
    pub(super) fn claim(&self) -> Claim {
        let d = &self.defaults;
        Claim {
            actor: self.args.str("actor").or_else(|| d.actor.clone()),
            actor_type: (self.args.str("actor_type")).or_else(|| d.actor_type.clone()),
            session: self.session(),
            remote: false,
        }
    }

    pub(super) fn session(&self) -> Option<String> {
        (self.args.str("session")).or_else(|| self.defaults.session.clone())
    }

    pub(super) fn time(&self, name: &str) -> Result<Option<time::Timestamp>> {
        time::parse_time(name, self.args.str(name).as_deref())
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
    pub(super) fn request<T: serde::de::DeserializeOwned>(&self, keep: &[&str]) -> Result<T> {
        let mut args = self.args.to_map();
        for key in TRANSPORT_KEYS.iter().filter(|k| !keep.contains(k)) {
            args.remove(*key);
        }
        serde_json::from_value(Value::Object(args)).map_err(|e| invalid(e.to_string()))
    }

    /// How a search asked for as `search` ranks, with the server's model.
    pub(super) fn search_mode(&self, asked: Option<String>) -> Result<Ranking> {
        self.ranking(asked, self.defaults.model.clone())
    }

    /// How a search asked for as `asked` ranks, with the model `given` (else the store's).
    pub(super) fn ranking(&self, asked: Option<String>, given: Option<PathBuf>) -> Result<Ranking> {
        let store = self.ctx.store()?;
        let chosen = search::choose_in(store, asked.as_deref(), given)?;
        if let Some(fell_back) = chosen.fell_back {
            self.ctx.host.search_fell_back(store, fell_back);
        }
        Ok((chosen.mode, chosen.model))
    }
}

pub(super) fn invalid(message: String) -> Error {
    Error::InvalidInput(message)
}

pub(super) fn to_value(v: &impl serde::Serialize) -> Result<Value> {
    serde_json::to_value(v).map_err(|e| Error::Integrity(e.to_string()))
}
