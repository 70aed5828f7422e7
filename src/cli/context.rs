//! What every command needs: the output ([`Ui`]) and what the run acts on ([`Resolved`]: the
//! environment snapshot, the working folder, the store opened on first use, the selected
//! project), worked out once from the global flags; plus the CLI's own error type. Identity is
//! resolved by [`relay_core::ops::attribution`]; the identity flags here only say what
//! the user claimed.

use std::io::IsTerminal;
use std::ops::Deref;
use std::path::PathBuf;

use clap::Args;

use super::exit;
use super::ui::{ColorChoice, Ui};
use relay_wire::error::{Code, Error};
use serde_json::{Map, Value};

use relay_core::ops::Actor;
use relay_core::ops::attribution::{self, Claim};
use relay_core::request::Spelling;
use relay_core::resolve::{Flags, Resolved};
use relay_core::search::filter::Viewer;
use relay_core::service::{self, scope};
use relay_store::config::SecretPolicy;

/// Flags every command accepts.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// The store folder (.relay/ itself, or a folder holding it); default: search upward from here
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "RELAY_DIR",
        value_name = "DIR"
    )]
    pub store: Option<PathBuf>,
    /// The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_name = "ID"
    )]
    pub project: Option<String>,
    /// Machine-readable output: one JSON object per line; errors as JSON on stderr
    #[arg(long, global = true, help_heading = "Global options")]
    pub json: bool,
    /// When to color human output
    #[arg(long, global = true, help_heading = "Global options", value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Print only results: no notes or warnings on stderr
    #[arg(long, short, global = true, help_heading = "Global options")]
    pub quiet: bool,
    /// For this command, store credentials found in the input as <REDACTED:rule-id>
    #[arg(
        long,
        global = true,
        help_heading = "Global options for writes",
        conflicts_with = "allow_secrets"
    )]
    pub redact_secrets: bool,
    /// For this command, store credentials found in the input as they are
    #[arg(long, global = true, help_heading = "Global options for writes")]
    pub allow_secrets: bool,
    /// Sign this command's writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519
    #[arg(long, global = true, help_heading = "Global options for writes")]
    pub sign: bool,
    /// Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)
    #[arg(
        long,
        global = true,
        help_heading = "Global options for writes",
        env = "RELAY_SIGNING_KEY",
        value_name = "PATH"
    )]
    pub sign_with: Option<PathBuf>,
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
}

impl ActorArgs {
    /// What these flags and `session` claim, for [`relay_core::ops::attribution`].
    pub fn claim(&self, session: &SessionArg) -> Claim {
        Claim {
            actor: self.actor.clone(),
            actor_type: self.actor_type.clone(),
            session: session.session.clone(),
            remote: false,
        }
    }
}

/// The session flag for commands that record one.
#[derive(Debug, Args, Clone)]
pub struct SessionArg {
    /// The session (id or callsign) to record; default: this clone's current session
    #[arg(long, env = "RELAY_SESSION", value_name = "SESSION")]
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

/// An error's message with what the user can do about it, in terms of relay's commands.
pub fn explain(e: &Error) -> String {
    match hint(e) {
        Some(h) => format!("{e}; {h}"),
        None => e.to_string(),
    }
}

/// What the user can do about an error, in terms of relay's commands.
fn hint(e: &Error) -> Option<String> {
    Some(match e {
        Error::ProjectNotFound(id) => {
            format!(
                "create it with `relay projects create {id}`, or list them with `relay projects list`"
            )
        }
        Error::DuplicatePackageId(id) => {
            format!("deposit a new package with `--parent {id}` instead")
        }
        Error::InvalidTransition {
            package_id, from, ..
        } if from == "complete" => {
            format!("to correct it, deposit a new package with `--parent {package_id}`")
        }
        Error::ProjectArchived(id) => {
            format!("run `relay projects unarchive {id}` to write into it")
        }
        Error::SessionNotFound(_) => "list them with `relay session list`".into(),
        Error::SessionEnded(_) => {
            "start a new one with `relay session start`, or unset RELAY_SESSION".into()
        }
        Error::CallsignInUse(_) => "pick another with --callsign, or let relay choose".into(),
        Error::AmbiguousCallsign { .. } => {
            "`relay session list --active` shows each session with its id".into()
        }
        Error::StoreNotFound { .. } => {
            "run `relay init` to create one, or point at one with --store DIR or RELAY_DIR".into()
        }
        Error::LockTimeout { .. } => {
            "try again; raise lock_timeout_ms in config.toml if writes are slow".into()
        }
        _ => return None,
    })
}

impl CliError {
    /// Ending "the current session" when there is none.
    pub fn no_current_session() -> CliError {
        CliError::Usage("no current session to end: name one (relay session end SESSION)".into())
    }

    /// The error code, the message, and the exit status.
    pub fn describe(&self) -> (&'static str, String, u8) {
        match self {
            CliError::Relay(e) => (e.code(), explain(e), exit::for_kind(e.kind())),
            CliError::Usage(m) => (Code::Usage.as_str(), m.clone(), exit::USAGE),
            CliError::Output(e) => (
                Code::IoError.as_str(),
                format!("cannot write output: {e}"),
                exit::INTERNAL,
            ),
        }
    }
}

/// A command's output and what it acts on; the accessors of [`Resolved`] (`env`, `store()`,
/// `selected_project()` …) are the context's own.
pub struct Ctx {
    /// The global flags as given.
    pub global: GlobalArgs,
    pub ui: Ui,
    /// The working folder ([`Resolved::cwd`]), a field of its own so that a command can read
    /// it while it writes through `ui`.
    pub cwd: PathBuf,
    resolved: Resolved,
}

impl Deref for Ctx {
    type Target = Resolved;

    fn deref(&self) -> &Resolved {
        &self.resolved
    }
}

/// Below this, indexing is quick enough to go unannounced.
const COLD_NOTE_BYTES: u64 = 64 << 20;

impl Ctx {
    pub fn new(global: GlobalArgs) -> Result<Ctx, Error> {
        let secrets = if global.redact_secrets {
            Some(SecretPolicy::Redact)
        } else if global.allow_secrets {
            Some(SecretPolicy::Off)
        } else {
            None
        };
        let resolved = Resolved::at_start(Flags {
            store: global.store.clone(),
            project: global.project.clone(),
            secrets,
            sign_with: global.sign_with.clone(),
            sign: global.sign,
            ..Flags::default()
        })?;
        let ui = Ui::new(
            global.json,
            global.quiet,
            global.color,
            resolved.env.no_color(),
        );
        Ok(Ctx {
            global,
            ui,
            cwd: resolved.cwd.clone(),
            resolved,
        })
    }

    /// Sends this run's hook writes to the clone's queue (`.relay/local/pending/`) when git
    /// sees the store (`ops::agents::queue::should_queue`); whether it does.
    pub fn queue_writes(&mut self) -> Result<bool, Error> {
        let store = self.resolved.store_mut()?;
        let on = relay_core::ops::agents::queue::should_queue(store);
        store.set_queued(on);
        Ok(on)
    }

    /// Prints `packages` as every `--json` read of packages does: one envelope a line,
    /// `{"package", "x-stale"}`, their files checked now (not for a snapshot read, `as_of`).
    pub fn json_packages(
        &mut self,
        packages: &[relay_store::packages::StoredPackage],
        as_of: Option<relay_wire::time::Timestamp>,
    ) -> Result<(), super::CliError> {
        let store = self.store()?;
        let stale = relay_core::ops::packages::stale::of_packages_at(
            store,
            packages.iter().map(|p| &p.package),
            as_of,
        );
        for (p, stale) in packages.iter().zip(&stale) {
            self.ui
                .json_line(&super::render::package_envelope(&p.package, stale))?;
        }
        Ok(())
    }

    /// Says on stderr when an `--as-of` time is one that a snapshot answers oddly: still to
    /// come, or before the projects read existed ([`relay_core::ops::packages::snapshot::note`]).
    pub fn note_as_of(
        &self,
        projects: &[String],
        as_of: Option<relay_wire::time::Timestamp>,
    ) -> Result<(), Error> {
        if let Some(t) = as_of
            && let Some(note) =
                relay_core::ops::packages::snapshot::note(self.store()?, projects, t)?
        {
            self.ui.note(&note);
        }
        Ok(())
    }

    /// On a terminal, says so when this command is about to index many megabytes of package
    /// logs (the first read after `cache/` was cleared, or after a clone), and shows a bar of
    /// the bytes indexed while the returned guard lives (the command keeps it to its end).
    #[must_use = "the bar lives as long as the guard"]
    pub fn note_cold_indexes(&self, projects: &[String]) -> Option<super::ui::Polled> {
        let bytes = self.note_cold_indexes_only(projects)?;
        Some(
            self.ui
                .progress_polled("indexing", bytes, relay_store::index::bytes_indexed),
        )
    }

    /// [`Ctx::note_cold_indexes`]'s note without its bar (a command that shows progress of its
    /// own); the bytes to index when it said so.
    pub fn note_cold_indexes_only(&self, projects: &[String]) -> Option<u64> {
        // The note is for a terminal only; off one, its check (a coverage test per log) is
        // not worth its cost.
        if self.ui.quiet || self.ui.json || !std::io::stderr().is_terminal() {
            return None;
        }
        let store = self.store().ok()?;
        if !store.config().search_index() {
            return None;
        }
        // RELAY_COLD_NOTE_BYTES lowers the threshold, for tests.
        let threshold = self.env.cold_note_bytes().unwrap_or(COLD_NOTE_BYTES);
        let bytes = store.cold_catalog_bytes(projects);
        if bytes == 0 || bytes < threshold {
            return None;
        }
        self.ui.terminal_note(&format!(
            "relay: indexing {:.1} MB of package logs into .relay/cache/ (first use since the cache was cleared); later commands reuse it",
            bytes as f64 / f64::from(1 << 20)
        ));
        Some(bytes)
    }

    /// The service as the local user sees it, answering in flag names (`--as-of`).
    pub fn relay(&self) -> Result<service::Relay<'_>, CliError> {
        static LOCAL: service::Caller = service::Caller::Local;
        let (store, cwd) = (self.store()?, &self.cwd);
        Ok(service::Relay::new(store, cwd, &LOCAL, Spelling::Flag))
    }

    /// The project to act on: `--project` / `RELAY_PROJECT`, then the config's default.
    pub fn project(&self) -> Result<String, CliError> {
        match self.resolved.acting_project()? {
            Some(p) => Ok(p),
            None => Err(CliError::Usage(scope::no_project(self.store()?))),
        }
    }

    /// Where to look for something named by a global id (a package, a session): the selected
    /// project first, then every other.
    pub fn search_order(&self) -> Result<Vec<String>, CliError> {
        Ok(scope::search_order(self.store()?, self.project().ok())?)
    }

    /// The project named on the command line (`--project`), else by `RELAY_PROJECT`.
    pub fn project_flag(&self) -> Option<String> {
        self.resolved.selected_project()
    }

    /// The projects a listing covers: every project with `all`, else the selected one (which
    /// must exist).
    pub fn projects(&self, all: bool) -> Result<Vec<String>, CliError> {
        let store = self.store()?;
        if all {
            return Ok(scope::every_project(store)?);
        }
        Ok(scope::only_project(store, self.project()?)?)
    }

    pub fn actor(&self, args: &ActorArgs) -> Result<Actor, Error> {
        let claim = args.claim(&SessionArg { session: None });
        attribution::actor(self.store()?, &self.cwd, &claim)
    }

    /// Who is looking, for what listings show ([`attribution::viewer`]).
    pub fn viewer(&self, project_id: &str) -> Result<Actor, Error> {
        attribution::viewer(self.store()?, &self.cwd, project_id)
    }

    /// The viewer, worked out only if a listing meets a draft ([`attribution::deferred_viewer`]).
    pub fn deferred_viewer(&self, project_id: &str) -> Result<Viewer, Error> {
        Ok(attribution::deferred_viewer(
            self.store()?,
            &self.cwd,
            project_id,
        ))
    }

    /// The project a package goes into: its `project_id`, else the selected project.
    pub fn target_project(&self, input: &Map<String, Value>) -> Result<String, CliError> {
        match scope::deposit_project(self.global.project.as_deref(), input)? {
            Some(p) => Ok(p),
            None => self.project(),
        }
    }

    /// Prints what the store's readers skipped, once each.
    pub fn report_warnings(&self) {
        if let Some(store) = self.resolved.opened_store() {
            for w in store.diagnostics().take() {
                self.ui.warning(&w, &self.cwd);
            }
        }
    }
}
