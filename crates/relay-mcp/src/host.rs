//! What the server needs from the program that starts it, and nothing of that program's
//! types: the [`Host`] (the store, how an error reads, where notes go), the [`Settings`] it
//! is started with (made from the door's [`Resolved`], as every door's are), and the
//! [`Context`] a tool call reads the store and its project from. A remote client's token
//! ([`Settings::grant`], MCP over HTTP) narrows what the context lets a call see and touch.

use std::path::{Path, PathBuf};

use relay_core::ops::attribution::Claim;
use relay_core::ops::trust::tokens::Grant;
use relay_core::resolve::{Environment, Resolved};
use relay_core::search::choice::FellBack;
use relay_core::service::scope;
use relay_store::Store;
use relay_wire::error::{Error, Result};

/// The program serving MCP (`relay mcp`): it opens the store and owns stderr.
pub trait Host {
    /// The store, opened on first use (an error until there is one).
    fn store(&self) -> Result<&Store>;
    /// An error's message as a client reads it, with what can be done about it.
    fn explain(&self, error: &Error) -> String;
    /// Reports what the store's readers skipped since the last call.
    fn report_warnings(&self);
    /// Reports why a search given no mode fell back to keyword search.
    fn search_fell_back(&self, store: &Store, fell_back: FellBack);
    /// Reports why queries are embedded by the model's static table although it ships a
    /// transformer for them (the host says it once).
    fn query_notice(&self, notice: &str);
}

/// How the server was started: where, and the defaults a call's own arguments override.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The working folder identity and deliverable paths are resolved from.
    pub cwd: PathBuf,
    /// The actor a call claims unless it names one (`relay mcp --actor`, RELAY_ACTOR).
    pub actor: Option<String>,
    /// Its type (`--actor-type`, RELAY_ACTOR_TYPE).
    pub actor_type: Option<String>,
    /// The session a call records unless it names one (`--session`, RELAY_SESSION).
    pub session: Option<String>,
    /// The project a call acts on unless it names one (`relay mcp --project`, RELAY_PROJECT).
    pub project: Option<String>,
    /// The embedding model's folder (`--model`, RELAY_MODEL), else the store's.
    pub model: Option<PathBuf>,
    /// The environment as it was when the server started.
    pub env: Environment,
    /// The token a remote client presented (MCP over HTTP): calls act as its actor, on the
    /// projects it covers, and write only if it may. `None` for the local user (stdio, or
    /// loopback while no token is live), who may do anything.
    pub grant: Option<Grant>,
}

impl Settings {
    /// The defaults `resolved` worked out at the start, with `identity` (the server's own
    /// `--actor`, `--actor-type`, `--session`) over its identity defaults.
    pub fn new(resolved: &Resolved, identity: Claim) -> Settings {
        let identity = resolved.identity_with(identity);
        Settings {
            cwd: resolved.cwd.clone(),
            actor: identity.actor,
            actor_type: identity.actor_type,
            session: identity.session,
            project: resolved.selected_project(),
            model: resolved.model().given,
            env: resolved.env.clone(),
            grant: None,
        }
    }
}

/// What a tool call acts on: the host's store and the project the call selected.
pub struct Context<'a> {
    pub host: &'a dyn Host,
    pub cwd: &'a Path,
    /// The project the call named, else the server's (`relay mcp --project`).
    pub project: Option<String>,
    /// The remote client's token, if any ([`Settings::grant`]).
    pub grant: Option<&'a Grant>,
    /// The operation the call runs (its tool's name), which the service authorizes.
    pub operation: &'static str,
}

impl Context<'_> {
    pub fn store(&self) -> Result<&Store> {
        self.host.store()
    }

    /// The project to act on: the one selected (the call's, else the server's), then the
    /// store's default.
    pub fn project(&self) -> Result<String> {
        let project = match self.project.clone() {
            Some(p) => p,
            None => {
                let store = self.store()?;
                scope::default_project(store)
                    .ok_or_else(|| Error::InvalidInput(scope::no_project(store)))?
            }
        };
        self.who().authorize_project(self.operation, &project)?;
        Ok(project)
    }

    /// The caller, as the service knows callers.
    pub fn who(&self) -> relay_core::service::Caller {
        relay_core::service::Caller::of(self.grant)
    }

    /// `projects` less those the remote client's token does not cover.
    fn visible(&self, projects: Vec<String>) -> Vec<String> {
        self.who().visible(projects)
    }

    /// The projects a listing covers: every project with `all`, else the selected one (which
    /// must exist).
    pub fn projects(&self, all: bool) -> Result<Vec<String>> {
        let store = self.store()?;
        if all {
            return scope::every_project(store).map(|all| self.visible(all));
        }
        scope::only_project(store, self.project()?)
    }

    /// Where to look for something named by a global id: the selected project, then the rest.
    pub fn search_order(&self) -> Result<Vec<String>> {
        let order = scope::search_order(self.store()?, self.project().ok())?;
        Ok(self.visible(order))
    }
}
