//! What every command needs: the global flags, the output, the working folder, and the store
//! (opened on first use), plus the CLI's own error type.

use std::cell::OnceCell;
use std::path::PathBuf;

use clap::Args;

use super::exit;
use super::ui::{ColorChoice, Ui};
use crate::error::Error;
use crate::ops::Actor;
use crate::store::Store;

/// Flags every command accepts.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// The store folder (.relay/ itself, or a folder holding it); default: search upward from here
    #[arg(long, global = true, env = "RELAY_DIR", value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// The project to act on; default: `default_project` in .relay/config.toml
    #[arg(long, global = true, env = "RELAY_PROJECT", value_name = "ID")]
    pub project: Option<String>,
    /// Machine-readable output: one JSON object per line; errors as JSON on stderr
    #[arg(long, global = true)]
    pub json: bool,
    /// When to color human output
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Print only results: no notes or warnings on stderr
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

/// Identity flags for commands that write.
#[derive(Debug, Args, Clone)]
pub struct ActorArgs {
    /// Who is acting; default: [actor] id in config, then git user.email, then $USER
    #[arg(long, env = "RELAY_ACTOR", value_name = "ID")]
    pub actor: Option<String>,
    /// What kind of actor
    #[arg(long, env = "RELAY_ACTOR_TYPE", value_name = "TYPE", value_parser = ["human", "agent", "script"])]
    pub actor_type: Option<String>,
    /// The session to record; default: this clone's current session
    #[arg(long, env = "RELAY_SESSION", value_name = "ID")]
    pub session: Option<String>,
}

/// A failed command.
#[derive(Debug)]
pub enum CliError {
    Relay(Error),
    /// The command line cannot be carried out as given (exit 2).
    Usage(String),
    /// Writing the output failed (a closed pipe is not an error).
    Output(std::io::Error),
}

pub type CmdResult = Result<(), CliError>;

impl From<Error> for CliError {
    fn from(e: Error) -> Self {
        CliError::Relay(e)
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Output(e)
    }
}

impl CliError {
    /// The error code, the message, and the exit status.
    pub fn describe(&self) -> (&'static str, String, u8) {
        match self {
            CliError::Relay(e) => (e.code(), e.to_string(), exit::for_kind(e.kind())),
            CliError::Usage(m) => ("usage", m.clone(), exit::USAGE),
            CliError::Output(e) => (
                "io_error",
                format!("cannot write output: {e}"),
                exit::INTERNAL,
            ),
        }
    }
}

pub struct Ctx {
    pub global: GlobalArgs,
    pub ui: Ui,
    pub cwd: PathBuf,
    store: OnceCell<Store>,
}

impl Ctx {
    pub fn new(global: GlobalArgs) -> Result<Ctx, Error> {
        let cwd =
            std::env::current_dir().map_err(|e| Error::io("cannot read the current folder", e))?;
        let ui = Ui::new(global.json, global.quiet, global.color);
        Ok(Ctx {
            global,
            ui,
            cwd,
            store: OnceCell::new(),
        })
    }

    /// The store, found and opened on first use.
    pub fn store(&self) -> Result<&Store, Error> {
        if let Some(s) = self.store.get() {
            return Ok(s);
        }
        let root = Store::locate(&self.cwd, self.global.store.as_deref())?;
        let store = Store::open(root)?;
        Ok(self.store.get_or_init(|| store))
    }

    /// The project to act on: `--project` / `RELAY_PROJECT`, then the config's default.
    pub fn project(&self) -> Result<String, CliError> {
        if let Some(p) = &self.global.project {
            return Ok(p.clone());
        }
        let store = self.store()?;
        store.config().default_project.clone().ok_or_else(|| {
            CliError::Usage(format!(
                "no project selected: pass --project ID, set RELAY_PROJECT, or set default_project in {}",
                store.layout().config().display()
            ))
        })
    }

    /// The projects a listing covers: every project with `all`, else the selected one (which
    /// must exist).
    pub fn projects(&self, all: bool) -> Result<Vec<String>, CliError> {
        let store = self.store()?;
        if all {
            return Ok(store.projects()?.into_keys().collect());
        }
        let id = self.project()?;
        crate::ops::projects::get(store, &id)?;
        Ok(vec![id])
    }

    pub fn actor(&self, args: &ActorArgs) -> Result<Actor, Error> {
        let store = self.store()?;
        Actor::resolve(
            args.actor.as_deref(),
            args.actor_type.as_deref(),
            store.config(),
            &self.cwd,
        )
    }

    /// Prints what the store's readers skipped, once each.
    pub fn report_warnings(&self) {
        if let Some(store) = self.store.get() {
            for w in store.diagnostics().take() {
                self.ui.warning(&w, &self.cwd);
            }
        }
    }
}
