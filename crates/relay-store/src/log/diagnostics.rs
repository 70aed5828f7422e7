//! What a log reader met and skipped: [`Warning`]s, their [`WarningKind`], and the
//! [`Diagnostics`] that collect them while a command runs.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Something a reader met and skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub path: PathBuf,
    /// 1-based line number.
    pub line: u64,
    pub kind: WarningKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// The last line has no newline: a write was cut off.
    TornLine,
    /// The line is not a JSON object.
    CorruptLine,
    /// The line is JSON but not a valid record.
    InvalidRecord,
    /// The stored hash does not match the package.
    HashMismatch,
    /// A package id is stored in more than one project (ids are unique in a store, §6.1).
    DuplicatePackageId,
    /// The signing key's file can be read by others (line 0: the whole file).
    KeyPermissions,
    /// A hook's record could not be written to the clone's journal (line 0): it is queued, but
    /// no longer safe from a git move that takes it away.
    JournalUnwritable,
}

impl WarningKind {
    pub fn as_str(self) -> &'static str {
        match self {
            WarningKind::TornLine => "torn_line",
            WarningKind::CorruptLine => "corrupt_line",
            WarningKind::InvalidRecord => "invalid_record",
            WarningKind::HashMismatch => "hash_mismatch",
            WarningKind::DuplicatePackageId => "duplicate_package_id",
            WarningKind::KeyPermissions => "key_permissions",
            WarningKind::JournalUnwritable => "journal_unwritable",
        }
    }
}

/// Warnings collected while a command runs, each reported once.
#[derive(Debug, Default)]
pub struct Diagnostics {
    warnings: Mutex<Vec<Warning>>,
}

impl Diagnostics {
    pub fn warn(&self, path: &Path, line: u64, kind: WarningKind, message: impl Into<String>) {
        let mut w = self.warnings.lock().unwrap_or_else(|p| p.into_inner());
        if w.iter()
            .any(|x| x.line == line && x.path == path && x.kind == kind)
        {
            return;
        }
        w.push(Warning {
            path: path.to_path_buf(),
            line,
            kind,
            message: message.into(),
        });
    }

    /// Whether a warning gathered so far is about the file at `path`.
    pub fn about(&self, path: &Path) -> bool {
        let w = self.warnings.lock().unwrap_or_else(|p| p.into_inner());
        w.iter().any(|x| x.path == path)
    }

    /// Takes the warnings gathered so far.
    pub fn take(&self) -> Vec<Warning> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|p| p.into_inner()))
    }
}
