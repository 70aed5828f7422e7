//! What installing relay into other tools' files shares (git's hooks, the agents' hook files,
//! the OpenCode plugin): the backup kept beside a file relay replaced, the error naming a file
//! relay could not write, the list of changes reported, and a hook as read back from a file.

use std::path::{Path, PathBuf};

use relay_wire::error::Error;

/// What a file relay replaced is renamed to: `<file>.relay-backup`.
pub const BACKUP_SUFFIX: &str = "relay-backup";

/// What an install or uninstall did, one line per file.
pub type Changes = Vec<String>;

/// One relay hook as the agent's file holds it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstalledHook {
    /// The agent's own name for the event (`SessionStart`, …).
    pub event: String,
    /// The exact command line the agent runs (through `sh -c`).
    pub command: String,
}

/// The error for a file relay could not write.
pub fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::io(format!("cannot write {}", path.display()), e)
}

/// Where the file at `path` is kept while relay's version stands in its place.
pub fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{BACKUP_SUFFIX}"));
    PathBuf::from(name)
}

/// Removes the folder relay created for a file, when nothing else is in it.
pub fn remove_empty_parent(path: &Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::remove_dir(dir); // only when empty
    }
}
