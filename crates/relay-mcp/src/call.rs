//! One tool call in progress ([`Call`]): the checked arguments, the caller parts read from
//! them, the server's [`Settings`] they override, and the helpers every handler reads them
//! with (above all [`Call::request`], the arguments as the operation's request type). The tool table ([`super::tools`])
//! and the handlers ([`super::handlers`]) both build on it, and neither on the other's types.

use std::path::PathBuf;

use serde_json::Value;

use super::host::{Context, Settings};
use super::schema::Args;
use relay_core::ops::attribution::Claim;
use relay_core::request::Spelling;
use relay_core::request::caller::{CALLER_KEYS, Caller};
use relay_core::request::shape_error;
use relay_core::search::choice as search;
use relay_core::service::Relay;
use relay_wire::error::{Error, Result};

/// How a search ranks: its mode, and the model semantic and hybrid search use.
type Ranking = (
    relay_core::search::fuse::Mode,
    Option<relay_core::search::model::Model>,
);

/// One call in progress.
pub struct Call<'a> {
    pub ctx: Context<'a>,
    pub args: Args,
    /// Who calls and on what: the arguments `project`, `actor`, `actor_type`, `session`.
    pub caller: Caller,
    pub defaults: &'a Settings,
}

/// The caller parts of checked `args`.
pub(super) fn caller(args: &Args) -> Result<Caller> {
    let mut parts = args.to_map();
    parts.retain(|k, _| CALLER_KEYS.contains(&k.as_str()));
    serde_json::from_value(Value::Object(parts)).map_err(|e| shape_error("", e.to_string()))
}

impl Call<'_> {
    /// Who calls, as the service knows callers: the local user, or a remote client's token.
    pub(super) fn who(&self) -> relay_core::service::Caller {
        self.ctx.who()
    }

    /// Runs `op` on the service, as this call's caller, answering in parameter names.
    pub(super) fn relay<T>(&self, op: impl FnOnce(&Relay<'_>) -> Result<T>) -> Result<T> {
        let who = self.who();
        op(&Relay::new(
            self.ctx.store()?,
            self.ctx.cwd,
            &who,
            Spelling::Param,
        ))
    }

    /// The identity the call claims: its own arguments, else the server's defaults.
    /// A remote client's token acts as its one actor ([`super::tools::permit`] refused a
    /// call naming another).
    pub(super) fn claim(&self) -> Claim {
        let d = &self.defaults;
        let who = &self.caller.actor;
        if let Some(grant) = &d.grant {
            return Claim {
                actor: Some(grant.actor.id.clone()),
                actor_type: Some(grant.actor.actor_type.clone()),
                session: self.session(),
                remote: true,
            };
        }
        Claim {
            actor: who.actor.clone().or_else(|| d.actor.clone()),
            actor_type: who.actor_type.clone().or_else(|| d.actor_type.clone()),
            session: self.session(),
            remote: false,
        }
    }

    pub(super) fn session(&self) -> Option<String> {
        let asked = self.caller.session.session.clone();
        asked.or_else(|| self.defaults.session.clone())
    }

    /// Whether an argument was given; `false` counts as not given, as a flag left off.
    pub(super) fn given(&self, name: &str) -> bool {
        self.args
            .get(name)
            .is_some_and(|v| v != &Value::Bool(false))
    }

    /// The call's arguments as the operation's request type (`relay_core::request`), less
    /// the caller parts (project, actor, actor_type, session), which [`Call::caller`] holds.
    /// The arguments were checked against the schema generated from that type, so what
    /// fails here is rare; it is `invalid_input` all the same.
    pub(super) fn request<T: serde::de::DeserializeOwned>(&self) -> Result<T> {
        self.request_keeping(&[])
    }

    /// [`Call::request`] for a request that reads some caller parts itself (`keep`), as the
    /// Agent Memory Protocol's requests read `project`.
    pub(super) fn request_keeping<T: serde::de::DeserializeOwned>(
        &self,
        keep: &[&str],
    ) -> Result<T> {
        let mut args = self.args.to_map();
        args.retain(|k, _| !CALLER_KEYS.contains(&k.as_str()) || keep.contains(&k.as_str()));
        serde_json::from_value(Value::Object(args)).map_err(|e| shape_error("", e.to_string()))
    }

    /// How a search asked for as `search` ranks, with the server's model.
    pub(super) fn search_mode(&self, asked: Option<String>) -> Result<Ranking> {
        self.ranking(asked, self.defaults.model.clone())
    }

    /// How a search asked for as `asked` ranks, with the model `given` (else the store's).
    pub(super) fn ranking(&self, asked: Option<String>, given: Option<PathBuf>) -> Result<Ranking> {
        let store = self.ctx.store()?;
        let chosen = search::choose_in(store, asked.as_deref(), given)?;
        if let Some(notice) = chosen.query_notice() {
            self.ctx.host.query_notice(&notice);
        }
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
