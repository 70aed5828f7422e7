//! The scratch copy the doctor runs hooks in: a clone of the user's repository sharing its
//! objects (nothing is written into them), with a copy of the store (its disposable `cache/`
//! left out) and relay's git hooks; outside git, a folder holding the store copy alone. It is
//! removed when dropped. The clone has no remote and no chained hooks of the user's, so
//! nothing a hook does there reaches the user's repository.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::ops::agents::hooks::{git_hooks, git_hooks_dir};
use crate::ops::git::git;
use relay_store::Store;

/// The identity the probe commits are made as.
const PROBE_IDENTITY: [&str; 6] = [
    "-c",
    "user.name=relay doctor",
    "-c",
    "user.email=doctor@relay.invalid",
    "-c",
    "commit.gpgsign=false",
];

/// Variables of git's that would point a child at the user's repository.
const GIT_VARS: [&str; 4] = ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX"];

pub struct Scratch {
    _dir: tempfile::TempDir,
    /// The scratch work tree (hooks and agents run here).
    pub work: PathBuf,
    /// The store copy.
    pub store: PathBuf,
    /// The user's work tree and its git hooks folder, when the store lives in git.
    pub user: Option<(PathBuf, PathBuf)>,
    /// The scratch clone's hooks folder, when there is a clone.
    pub hooks: Option<PathBuf>,
}

impl Scratch {
    pub fn make(store: &Store) -> Result<Scratch, String> {
        let dir = tempfile::Builder::new()
            .prefix("relay-doctor")
            .tempdir()
            .map_err(|e| e.to_string())?;
        let work = dir.path().join("work");
        let parent = store.root().parent().unwrap_or(store.root());
        let top = git(parent, &["rev-parse", "--show-toplevel"]).map(PathBuf::from);
        let relative = top
            .as_deref()
            .and_then(|t| store.root().strip_prefix(t).ok())
            .map_or_else(|| PathBuf::from(".relay"), Path::to_path_buf);
        let mut scratch = Scratch {
            store: work.join(&relative),
            work,
            _dir: dir,
            user: None,
            hooks: None,
        };
        if let Some(top) = top {
            scratch.clone_from(&top)?;
            let user_hooks = git_hooks_dir(&top).map_err(|e| e.to_string())?;
            scratch.user = Some((top, user_hooks));
        }
        copy_dir(store.root(), &scratch.store, store.indexes().dir())?;
        Ok(scratch)
    }

    /// A clone of `top` without a checkout (the index is HEAD's: commits need no files), its
    /// remote removed, and relay's hooks copied in (without the user's chained ones).
    fn clone_from(&mut self, top: &Path) -> Result<(), String> {
        let mut clone = Command::new("git");
        clone.args(["clone", "-q", "--shared", "--no-checkout"]);
        clone.arg(top).arg(&self.work);
        self.quiet(&mut clone)
            .status()
            .ok()
            .filter(|s| s.success())
            .ok_or_else(|| format!("`git clone {}` failed", top.display()))?;
        // An empty repository has no HEAD to reset to: the index then starts empty.
        let _ = self.quiet(&mut self.git(&["reset", "-q"])).status();
        let _ = self
            .quiet(&mut self.git(&["remote", "remove", "origin"]))
            .status();
        // The clone runs its own copies of the hooks, in its own folder, whatever
        // `core.hooksPath` the user's configuration names: a global absolute one would be the
        // user's own hooks folder, which a copy onto itself would empty.
        let hooks = self.work.join(".git").join("hooks");
        std::fs::create_dir_all(&hooks).map_err(|e| e.to_string())?;
        let local_path = hooks.display().to_string();
        self.quiet(&mut self.git(&["config", "core.hooksPath", &local_path]))
            .status()
            .ok()
            .filter(|s| s.success())
            .ok_or("cannot point the scratch clone at its own hooks folder")?;
        let from = git_hooks_dir(top).map_err(|e| e.to_string())?;
        let same = |a: &Path, b: &Path| {
            a.canonicalize()
                .ok()
                .is_some_and(|a| b.canonicalize().ok() == Some(a))
        };
        for (name, _) in git_hooks("relay") {
            let (source, copy) = (from.join(name), hooks.join(name));
            if same(&from, &hooks) {
                return Err("the scratch clone's hooks folder is the repository's own".into());
            }
            if source.exists() {
                std::fs::copy(&source, copy).map_err(|e| e.to_string())?;
            }
        }
        self.hooks = Some(hooks);
        Ok(())
    }

    fn quiet<'c>(&self, c: &'c mut Command) -> &'c mut Command {
        c.stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
    }

    /// A command run in the scratch work tree against the store copy, whatever the user's
    /// environment points at.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = Command::new(program);
        c.current_dir(&self.work)
            .env(crate::resolve::environment::RELAY_DIR.name(), &self.store);
        for var in GIT_VARS {
            c.env_remove(var);
        }
        c
    }

    /// `git ARGS` in the scratch clone, as the probe identity, running its hooks.
    pub fn git(&self, args: &[&str]) -> Command {
        let mut c = self.command("git");
        c.args(PROBE_IDENTITY);
        if let Some(hooks) = &self.hooks {
            c.arg("-c")
                .arg(format!("core.hooksPath={}", hooks.display()));
        }
        c.args(args);
        c
    }

    /// Everything the store copy's queue (`local/pending/`) holds, as text.
    pub fn queued_text(&self) -> String {
        let pending = relay_store::format::pending_dir(&self.store);
        walkdir::WalkDir::new(pending)
            .into_iter()
            .filter_map(std::result::Result::ok)
            .filter(|e| e.file_type().is_file())
            .filter_map(|e| std::fs::read(e.path()).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .collect()
    }
}

/// Copies the folder `from` to `to`, leaving out `skip`.
fn copy_dir(from: &Path, to: &Path, skip: &Path) -> Result<(), String> {
    for entry in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|e| e.path() != skip)
    {
        let entry = entry.map_err(|e| e.to_string())?;
        let rel = entry.path().strip_prefix(from).unwrap_or(entry.path());
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).map_err(|e| e.to_string())?;
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &target).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
