//! The writers of a log and of small files: whole-line appends with one `write_all` (DESIGN
//! invariants 1, 2, 7), adopting a finished log by rename, atomic whole-file writes.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::cache::witness::Identity;
use relay_wire::error::{Error, Result};

/// Appended to a torn last line before a new record. It holds no quote, brace or bracket, so no
/// fragment it follows can become valid JSON.
pub const TORN_MARK: &[u8] = b" <torn write sealed by relay>";

/// What [`append`] did: whether it sealed a torn last line first, the file's identity before
/// and after, and every byte it wrote (the seal included).
pub struct Appended {
    pub sealed: bool,
    pub before: Identity,
    pub after: Identity,
    pub written: Vec<u8>,
}

/// Appends `bytes` (one or more complete lines) to `path` with a single `write_all`, creating
/// the file and its folders as needed. If the file ends in a torn line, a newline goes first so
/// that the new record starts on a line of its own. Call this only while holding the writer lock.
///
/// The file's modification time is then set from the fine clock, so that no later write by
/// anyone else, however soon, leaves the file with the identity this write gave it (see
/// `cache/witness.rs`).
pub fn append(path: &Path, bytes: &[u8], fsync: bool) -> Result<Appended> {
    debug_assert!(bytes.ends_with(b"\n"));
    let ctx = |what: &str| format!("cannot {what} {}", path.display());
    let dir = path.parent().unwrap_or(Path::new("."));
    let created = !path.exists();
    if created {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(ctx("create the folder for"), e))?;
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)
        .map_err(|e| Error::io(ctx("open"), e))?;
    let before = Identity::of(&file.metadata().map_err(|e| Error::io(ctx("stat"), e))?);
    let len = before.len;
    let mut data = Vec::with_capacity(bytes.len() + 1);
    let mut sealed = false;
    if len > 0 {
        let mut last = [0u8; 1];
        file.seek(SeekFrom::Start(len - 1))
            .map_err(|e| Error::io(ctx("seek in"), e))?;
        file.read_exact(&mut last)
            .map_err(|e| Error::io(ctx("read"), e))?;
        if last[0] != b'\n' {
            // The torn record never reported success: seal it as an invalid line rather than
            // let our newline complete it and bring it back.
            data.extend_from_slice(TORN_MARK);
            data.push(b'\n');
            sealed = true;
        }
    }
    data.extend_from_slice(bytes);
    file.write_all(&data)
        .map_err(|e| Error::io(ctx("append to"), e))?;
    let _ = file.set_modified(std::time::SystemTime::now());
    if fsync {
        file.sync_data().map_err(|e| Error::io(ctx("sync"), e))?;
        if created {
            // The new file's entry, and the folders create_dir_all may just have made.
            for d in dir.ancestors().take(3) {
                sync_dir(d);
            }
        }
    }
    let after = Identity::of(&file.metadata().map_err(|e| Error::io(ctx("stat"), e))?);
    Ok(Appended {
        sealed,
        before,
        after,
        written: data,
    })
}

/// Puts `finished`, a file of complete lines, in place as the log `path` when that log is
/// absent or empty: a rename, so the log appears whole or not at all and nothing is copied.
/// Returns false, leaving both alone, when the log has lines (append to it instead) or the
/// rename cannot be made (`finished` is on another file system). Call this only while holding
/// the writer lock.
pub fn adopt(path: &Path, finished: &Path, fsync: bool) -> Result<bool> {
    let ctx = |what: &str| format!("cannot {what} {}", path.display());
    match std::fs::metadata(path) {
        Ok(m) if m.len() > 0 => return Ok(false),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(ctx("stat"), e)),
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(ctx("create the folder for"), e))?;
    if fsync {
        File::open(finished)
            .and_then(|f| f.sync_data())
            .map_err(|e| Error::io(format!("cannot sync {}", finished.display()), e))?;
    }
    if std::fs::rename(finished, path).is_err() {
        return Ok(false);
    }
    if fsync {
        for d in dir.ancestors().take(3) {
            sync_dir(d);
        }
    }
    Ok(true)
}

/// Makes a new directory entry durable. Best effort: not every platform can open a directory.
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Writes a whole small file atomically: a temporary file beside it, synced, then renamed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// [`write_atomic`] for a file written piece by piece by `write`, through a buffer: a large
/// file need not be assembled in memory first.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    write_atomic_in(path, dir, write)
}

/// [`write_atomic_with`] with the temporary file in `tmp_dir` (on the same file system): for a
/// file git tracks, whose folder must never hold a stray temporary file that an interrupted
/// write left for `git add` to pick up.
pub fn write_atomic_in(
    path: &Path,
    tmp_dir: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    for d in [dir, tmp_dir] {
        std::fs::create_dir_all(d)
            .map_err(|e| Error::io(format!("cannot create {}", d.display()), e))?;
    }
    // A temporary name of this call's own, created new: two threads of one process (a server
    // rebuilding one month's index on two requests) sharing one name wrote one file through
    // two handles, and one could write on into the file the other had renamed into place.
    let tmp = tmp_dir.join(format!(
        ".{}.tmp-{}-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id(),
        relay_wire::ids::random_below(1 << 30)
    ));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))?;
    // (Only a temporary file this call created is removed on failure.)
    let result = (|| {
        let mut f = std::io::BufWriter::with_capacity(1 << 16, file);
        write(&mut f)?;
        let f = f.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(format!("cannot write {}", path.display()), e));
    }
    sync_dir(dir);
    Ok(())
}

/// Creates a whole small file unless one exists, atomically and without ever replacing what
/// another process made meanwhile: a synced temporary file is hard-linked into place, which
/// fails if the name is taken. Returns whether this call created it.
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<bool> {
    if path.exists() {
        return Ok(false);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.new-{}-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id(),
        relay_wire::ids::random_below(1 << 30)
    ));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        match std::fs::hard_link(&tmp, path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e),
        }
    })();
    let _ = std::fs::remove_file(&tmp);
    let created = result.map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
    if created {
        sync_dir(dir);
    }
    Ok(created)
}

/// One record as a line: compact JSON and `\n`.
pub fn to_line(value: &impl serde::Serialize) -> Result<Vec<u8>> {
    let mut line = serde_json::to_vec(value)
        .map_err(|e| Error::Integrity(format!("cannot encode a record: {e}")))?;
    line.push(b'\n');
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::read::test_support::collect;
    use crate::log::{Diagnostics, WarningKind};

    #[test]
    fn two_atomic_writes_of_one_file_at_once_never_share_a_temporary_file() {
        // The inner write stands for a second thread writing the same file meanwhile: each
        // lands whole, and the last rename wins.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index.idx");
        write_atomic_with(&path, |outer| {
            outer.write_all(b"LONGER-")?;
            write_atomic_with(&path, |inner| inner.write_all(b"short"))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            assert_eq!(std::fs::read(&path)?, b"short");
            outer.write_all(b"CONTENT")
        })
        .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"LONGER-CONTENT");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn append_after_a_torn_line_starts_a_new_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/log.ndjson");
        append(&path, b"{\"a\":1}\n", true).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"torn\":")
            .unwrap();
        append(&path, b"{\"b\":2}\n", false).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"a\":1}\n{\"torn\": <torn write sealed by relay>\n{\"b\":2}\n"
        );
        let diag = Diagnostics::default();
        assert_eq!(collect(&path, &diag).len(), 2);
        assert_eq!(diag.take()[0].kind, WarningKind::TornLine);
        // A record torn just before its newline stays dead too.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"c\":3}")
            .unwrap();
        append(&path, b"{\"d\":4}\n", false).unwrap();
        let got: Vec<_> = collect(&path, &diag).into_iter().map(|(_, m)| m).collect();
        assert_eq!(got.len(), 3);
        assert!(got.iter().all(|m| !m.contains_key("c")));
    }

    #[test]
    fn write_atomic_replaces_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
