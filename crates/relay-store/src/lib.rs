//! The `.relay/` folder (format v1 of DESIGN.md): finding it, creating it, and reading and
//! appending its logs. This layer never prints; what its readers skip is collected in
//! [`Diagnostics`] for the caller to report.
//!
//! Its `cache`, `log` and `layout` modules are private: the crates above read by record kind
//! through [`Store`], search reads the indexes through [`index`], line-level work goes through
//! [`ndjson`], and what documents the folder reads [`format`]. No crate above builds a path
//! inside the store or compares its file names.

mod cache;
pub mod config;
pub mod fact_chain;
mod files;
pub mod format;
pub mod index;
mod journal;
mod layout;
mod local;
mod lock;
mod log;
mod months;
pub mod ndjson;
pub mod packages;
pub mod priority;
mod projects;
mod queue;
pub mod records;
pub mod retractions;
pub mod signing;
pub mod snapshot;
pub mod tail;
pub mod tokens;
mod view;
mod wake;

use std::path::{Path, PathBuf};
use std::time::Duration;

pub use config::Config;
pub use journal::{JournalPlace, Journaled, Requeued};
use layout::Layout;
pub use local::CurrentSession;
pub use lock::LockGuard;
pub use log::lines;
pub use log::{Diagnostics, Warning, WarningKind};
pub use months::PackageMonth;
pub use queue::QueuedKind;
pub use view::View;
pub use wake::{FALLBACK_POLL, SAFETY_POLL, StoreEvents, Wake};

use relay_wire::error::{Error, Result};

const GITIGNORE: &str = "# Derived and per-clone state: never committed.\ncache/\nlocal/\n";
const GITATTRIBUTES: &str = "# Every log is append-only, so git can merge clones by keeping both sides' lines.\n*.ndjson merge=union\nallowed_signers merge=union\n";

/// An opened store.
#[derive(Debug)]
pub struct Store {
    layout: Layout,
    config: Config,
    diagnostics: Diagnostics,
    secrets: config::SecretPolicy,
    signing: signing::Signing,
    /// Queued mode: hooks' appends go to the clone's queue (see `queue`).
    queued: bool,
    /// Where the clone's journal of queued lines is, found on first use (see `journal`).
    journal: std::sync::OnceLock<Option<JournalPlace>>,
}

/// Creates `root` and each file that is missing; whether anything was created.
fn create_missing<const N: usize>(root: &Path, files: [(PathBuf, String); N]) -> Result<bool> {
    std::fs::create_dir_all(root)
        .map_err(|e| Error::io(format!("cannot create {}", root.display()), e))?;
    let mut created = false;
    for (path, text) in files {
        created |= log::create_new(&path, text.as_bytes())?;
    }
    Ok(created)
}

/// Whether `dir` looks like a store folder.
fn is_store(dir: &Path) -> bool {
    dir.is_dir()
        && (dir.join(layout::PROJECTS_FILE).is_file() || dir.join(layout::CONFIG_FILE).is_file())
}

impl Store {
    /// Finds the store: `explicit` (a store folder, or a folder holding `.relay/`) when given,
    /// else `.relay/` in `cwd` or its nearest parent, the way git finds `.git`.
    pub fn locate(cwd: &Path, explicit: Option<&Path>) -> Result<PathBuf> {
        if let Some(dir) = explicit {
            let dir = if dir.is_absolute() {
                dir.to_path_buf()
            } else {
                cwd.join(dir)
            };
            let nested = dir.join(layout::STORE_DIR);
            if is_store(&nested) {
                return Ok(nested);
            }
            if is_store(&dir) {
                return Ok(dir);
            }
            return Err(Error::StoreNotFound { searched_from: dir });
        }
        for dir in cwd.ancestors() {
            let candidate = dir.join(layout::STORE_DIR);
            if is_store(&candidate) {
                return Ok(candidate);
            }
        }
        Err(Error::StoreNotFound {
            searched_from: cwd.to_path_buf(),
        })
    }

    pub fn open(root: PathBuf) -> Result<Store> {
        let layout = Layout::new(root);
        let config = Config::load(&layout.config())?;
        let secrets = config
            .secrets()
            .map_err(|m| Error::Integrity(format!("{}: {m}", layout.config().display())))?;
        Ok(Store {
            secrets,
            layout,
            config,
            diagnostics: Diagnostics::default(),
            signing: signing::Signing::default(),
            queued: false,
            journal: std::sync::OnceLock::new(),
        })
    }

    /// Creates the store's files at `root` where they are missing; existing files are left as
    /// they are, so running it twice is harmless. Returns whether anything was created.
    pub fn create(root: &Path, default_project: &str) -> Result<bool> {
        let layout = Layout::new(root.to_path_buf());
        create_missing(
            root,
            [
                (layout.config(), Config::initial_text(default_project)),
                (root.join(".gitignore"), GITIGNORE.to_string()),
                (root.join(".gitattributes"), GITATTRIBUTES.to_string()),
                (layout.projects_file(), String::new()),
            ],
        )
    }

    /// [`Store::create`] for a local store (`relay init --local`), which git never sees: its
    /// config says `local = true`, and it gets no `.gitignore` or `.gitattributes`, which only
    /// matter to a committed store.
    pub fn create_local(root: &Path, default_project: &str) -> Result<bool> {
        let layout = Layout::new(root.to_path_buf());
        create_missing(
            root,
            [
                (layout.config(), Config::initial_local_text(default_project)),
                (layout.projects_file(), String::new()),
            ],
        )
    }

    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The store's folder (`.relay/`), for messages that show where a store is.
    pub fn root(&self) -> &Path {
        self.layout.root()
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The derived indexes under `cache/`, whatever the config says of the search index.
    pub fn indexes(&self) -> cache::Indexes {
        cache::Indexes::at(self.layout.cache_dir())
    }

    /// The indexes searches read, or `None` when the config turns the search index off
    /// (`search_index = false`: searches scan the logs).
    pub fn search_indexes(&self) -> Option<cache::Indexes> {
        self.config.search_index().then(|| self.indexes())
    }

    /// What writes do with credentials.
    pub fn secret_policy(&self) -> config::SecretPolicy {
        self.secrets
    }

    /// Overrides the configured policy for this run (`--redact-secrets`, `--allow-secrets`).
    pub fn set_secret_policy(&mut self, policy: config::SecretPolicy) {
        self.secrets = policy;
    }

    pub fn diagnostics(&self) -> &Diagnostics {
        &self.diagnostics
    }

    /// Takes the exclusive writer lock called `name` (see [`Store::project_lock_name`]).
    pub fn lock(&self, name: &str) -> Result<lock::LockGuard> {
        lock::acquire(
            &self.layout.lock_file(name),
            Duration::from_millis(self.config.lock_timeout_ms()),
        )
    }

    /// The lock that serialises writers of one project's logs.
    pub fn lock_project(&self, project_id: &str) -> Result<lock::LockGuard> {
        self.lock(&format!(
            "project-{}",
            layout::encode_project_dir(project_id)
        ))
    }

    /// The lock of whoever appends to the store file `rel` (relative to the store, `/` or `\`
    /// between its parts): its project's for a file in a project's folder, else the lock of
    /// the project records.
    pub fn lock_for_file(&self, rel: &str) -> Result<lock::LockGuard> {
        let parts: Vec<&str> = rel.split(['/', '\\']).collect();
        match parts.as_slice() {
            [layout::PROJECTS_DIR, dir, ..] => self.lock(&format!("project-{dir}")),
            _ => self.lock("projects"),
        }
    }

    /// The store-wide lock under which a package id that a writer was given (not one relay
    /// drew) is checked against every project and written: the project locks alone would let
    /// two writers put one id into two projects at once. Take it before any project lock.
    pub fn lock_package_ids(&self) -> Result<lock::LockGuard> {
        self.lock("package-ids")
    }

    /// The bytes of every file in the store, but for the per-clone `cache/` and `local/`.
    pub fn size_on_disk(&self) -> u64 {
        let derived = [self.layout.cache_dir(), self.layout.local_dir()];
        walkdir::WalkDir::new(self.root())
            .into_iter()
            .filter_entry(|e| !derived.iter().any(|d| d == e.path()))
            .filter_map(|e| e.ok())
            .filter_map(|e| e.metadata().ok())
            .filter(|m| m.is_file())
            .map(|m| m.len())
            .sum()
    }

    /// Makes `finished` the log `path` if that log is absent or empty ([`log::adopt`]); false
    /// when it has lines, and the caller appends instead. Hold the lock.
    pub fn adopt(&self, path: &Path, finished: &Path) -> Result<bool> {
        log::adopt(path, finished, self.config.fsync())
    }

    /// Appends complete lines to a log under the store's fsync policy. Hold the lock.
    /// A torn last line it seals is reported, as a reader would have. In queued mode a
    /// package log's or a signatures file's lines go to its mirror in the queue instead.
    pub fn append(&self, path: &Path, bytes: &[u8]) -> Result<()> {
        let target = self.append_target(path);
        let queued = *target != *path;
        let checked = queued && self.journal_is_checked();
        if queued {
            // A queued line is journaled first, where no git move reaches (see `journal`). A
            // journal that cannot be written (git's folder read-only) loses no record: it is
            // still queued, and the warning says it is unprotected.
            if let Err(e) = self.journal_append(path, bytes) {
                self.diagnostics
                    .warn(path, 0, WarningKind::JournalUnwritable, e.to_string());
            }
        }
        let path = &*target;
        let before = std::fs::metadata(path);
        // Readers in this process meanwhile read only the lines added, while this append
        // syncs; the announcement ends when it is dropped (after the record, or on failure).
        let _announced = match &before {
            Ok(m) if self.config.search_index() => Some(cache::witness::begin_append(
                &self.layout.cache_dir(),
                path,
                &cache::witness::Identity::of(m),
                bytes,
            )),
            _ => None,
        };
        let before = before.map(|m| m.len()).unwrap_or(0);
        let appended = log::append(path, bytes, self.config.fsync())?;
        if self.config.search_index() {
            // Keep what the cache knows of the log's content current, so the next read need
            // not read the whole log to trust its indexes.
            cache::witness::record_append(
                &self.layout.cache_dir(),
                path,
                &cache::witness::Appended {
                    before: appended.before,
                    after: appended.after,
                    bytes: &appended.written,
                },
            );
        }
        if checked {
            self.mark_journal_checked();
        }
        if appended.sealed {
            let torn_line = std::fs::read(path)
                .map(|b| {
                    let head = b.get(..before as usize).unwrap_or(&b);
                    head.iter().filter(|&&c| c == b'\n').count() as u64 + 1
                })
                .unwrap_or(0);
            self.diagnostics.warn(
                path,
                torn_line,
                WarningKind::TornLine,
                "the last line is incomplete (a write was cut off); it was skipped",
            );
        }
        Ok(())
    }
}
