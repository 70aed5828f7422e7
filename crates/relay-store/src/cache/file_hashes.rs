//! The content hashes of work-tree files, keyed by (path, mtime, size), so that checking a
//! package's file deliverables for staleness (`ops::packages::stale`) hashes a file only when it
//! changed. One small JSON file, `cache/file-hashes-v1/hashes.json`, disposable like every
//! index (invariant 9): missing or unreadable, it starts empty and is rewritten; written
//! atomically, and only when something in it changed.
//!
//! A file rewritten with the same size within the same mtime is not seen as changed; an entry
//! is only kept for a file whose mtime was at least [`SETTLED`] old when it was hashed, so a
//! write that lands in the same clock tick as the hash cannot hide behind it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::FILE_HASHES;

/// How old a file's mtime must be, when it is hashed, for the hash to be kept.
pub const SETTLED: Duration = Duration::from_secs(2);

/// What identifies one state of a file without reading it: its mtime and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// Nanoseconds since the Unix epoch.
    pub mtime_ns: u64,
    pub size: u64,
}

impl Stamp {
    /// The stamp of `meta`; `None` for a file whose mtime is unknown or before 1970.
    pub fn of(meta: &std::fs::Metadata) -> Option<Stamp> {
        let since = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        Some(Stamp {
            mtime_ns: u64::try_from(since.as_nanos()).ok()?,
            size: meta.len(),
        })
    }

    /// Whether a hash taken now may be kept for this stamp (see [`SETTLED`]).
    fn settled(&self, now: SystemTime) -> bool {
        let Ok(now) = now.duration_since(UNIX_EPOCH) else {
            return false;
        };
        u128::from(self.mtime_ns) + SETTLED.as_nanos() <= now.as_nanos()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    mtime_ns: u64,
    size: u64,
    sha256: String,
}

impl Entry {
    fn stamp(&self) -> Stamp {
        Stamp {
            mtime_ns: self.mtime_ns,
            size: self.size,
        }
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct HashesFile {
    format: u32,
    /// By path relative to the folder that holds the store, as deliverables record them.
    files: BTreeMap<String, Entry>,
}

/// The cache, loaded once per read: look up with [`FileHashes::get`], record with
/// [`FileHashes::put`], then [`FileHashes::save`].
#[derive(Debug)]
pub struct FileHashes {
    path: PathBuf,
    file: HashesFile,
    /// Whether the file on disk differs from `file` (also when it was unreadable).
    dirty: bool,
}

fn file_path(cache_dir: &Path) -> PathBuf {
    FILE_HASHES.dir(cache_dir).join("hashes.json")
}

impl FileHashes {
    /// The cache under `cache_dir`; empty when it is missing, unreadable or of another format
    /// (then the next [`FileHashes::save`] rewrites it).
    pub fn load(cache_dir: &Path) -> FileHashes {
        let path = file_path(cache_dir);
        let (file, dirty) = match std::fs::read(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (None, false),
            Err(_) => (None, true),
            Ok(bytes) => match serde_json::from_slice::<HashesFile>(&bytes) {
                Ok(f) if f.format == FILE_HASHES.format => (Some(f), false),
                _ => (None, true),
            },
        };
        let file = file.unwrap_or(HashesFile {
            format: FILE_HASHES.format,
            files: BTreeMap::new(),
        });
        FileHashes { path, file, dirty }
    }

    /// The `sha256:<hex>` hash recorded for `path` in the state `stamp`, if any.
    pub fn get(&self, path: &str, stamp: Stamp) -> Option<&str> {
        self.file
            .files
            .get(path)
            .filter(|e| e.stamp() == stamp)
            .map(|e| e.sha256.as_str())
    }

    /// Records the hash of `path` in the state `stamp`, taken at `hashed_at`; a stamp too
    /// recent to trust (see [`SETTLED`]) drops what was recorded instead.
    pub fn put(&mut self, path: &str, stamp: Stamp, sha256: &str, hashed_at: SystemTime) {
        if !stamp.settled(hashed_at) {
            self.forget(path);
            return;
        }
        let entry = Entry {
            mtime_ns: stamp.mtime_ns,
            size: stamp.size,
            sha256: sha256.to_string(),
        };
        let same = self
            .file
            .files
            .get(path)
            .is_some_and(|e| e.stamp() == stamp && e.sha256 == sha256);
        if !same {
            self.file.files.insert(path.to_string(), entry);
            self.dirty = true;
        }
    }

    /// Drops what was recorded for `path` (a file that is gone).
    pub fn forget(&mut self, path: &str) {
        if self.file.files.remove(path).is_some() {
            self.dirty = true;
        }
    }

    /// Writes the cache back when it changed. A cache that cannot be written is no error.
    pub fn save(self) {
        if !self.dirty {
            return;
        }
        if let Ok(text) = serde_json::to_vec(&self.file) {
            let _ = crate::log::write_atomic(&self.path, &text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: Stamp = Stamp {
        mtime_ns: 1_000_000_000,
        size: 3,
    };

    #[test]
    fn a_recorded_hash_is_found_by_path_and_stamp_after_a_save() {
        let dir = tempfile::tempdir().unwrap();
        let mut hashes = FileHashes::load(dir.path());
        assert_eq!(hashes.get("a.md", OLD), None);
        hashes.put("a.md", OLD, "sha256:aa", SystemTime::now());
        hashes.save();
        let hashes = FileHashes::load(dir.path());
        assert_eq!(hashes.get("a.md", OLD), Some("sha256:aa"));
        let touched = Stamp {
            mtime_ns: OLD.mtime_ns + 1,
            ..OLD
        };
        assert_eq!(hashes.get("a.md", touched), None);
        assert_eq!(hashes.get("b.md", OLD), None);
    }

    #[test]
    fn an_unchanged_cache_is_not_written_and_a_corrupt_one_is_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = file_path(dir.path());
        FileHashes::load(dir.path()).save();
        assert!(!path.exists(), "nothing to write");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, b"{not json").unwrap();
        let hashes = FileHashes::load(dir.path());
        assert_eq!(hashes.get("a.md", OLD), None);
        hashes.save();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, r#"{"format":1,"files":{}}"#);
    }

    #[test]
    fn a_hash_of_a_file_written_just_now_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut hashes = FileHashes::load(dir.path());
        let now = SystemTime::now();
        let fresh = Stamp::of(&std::fs::metadata(dir.path()).unwrap()).unwrap();
        hashes.put("a.md", OLD, "sha256:aa", now);
        hashes.put("a.md", fresh, "sha256:bb", now);
        assert_eq!(hashes.get("a.md", fresh), None);
        assert_eq!(hashes.get("a.md", OLD), None, "the older entry is dropped");
    }
}
