//! Where an import keeps its new lines until it commits: one file per target log, under
//! `cache/`, in the order the logs were first met. However many logs an import touches (months,
//! projects, fact and session logs) and however its lines interleave, it holds at most
//! [`OPEN_STAGED`] staged files open, plus [`SYNC_QUEUE`] handed to the thread that syncs
//! them early: a file the stream moved away from is closed once more recent ones need its
//! place, and opened again to append when the stream comes back to it.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use relay_store::Store;
use relay_wire::error::{Error, Result};

use super::check::read_chunk;
use super::source::Spool;

/// The most staged files open for writing at once.
pub(super) const OPEN_STAGED: usize = 16;

/// The most staged files waiting for the early-sync thread; past this a file is not synced
/// early (the commit syncs every file anyway).
pub(super) const SYNC_QUEUE: usize = 4;

/// Bytes a staged file's writer buffers.
const WRITE_BUFFER: usize = 1 << 16;

/// The new lines of one log.
struct Staged {
    target: PathBuf,
    path: PathBuf,
    /// Open while the file is among the [`OPEN_STAGED`] most recently written.
    writer: Option<BufWriter<File>>,
}

/// The staged files of one import.
#[derive(Default)]
pub(super) struct Staging {
    spool: Option<Spool>,
    /// In the order their logs were first met.
    files: Vec<Staged>,
    /// Target log → its place in `files`, and the last one written, which most lines share.
    by_target: HashMap<OsString, usize>,
    last: Option<usize>,
    /// The files with an open writer, least recently written first.
    open: Vec<usize>,
    /// The thread that syncs files the stream moved on from (see [`Staging::sync_early`]).
    syncer: Option<(SyncSender<File>, JoinHandle<()>)>,
}

fn stage_error(e: std::io::Error) -> Error {
    Error::io("cannot stage the import", e)
}

impl Staging {
    /// Adds `line` to the staged lines of the log `target`.
    pub(super) fn write(&mut self, store: &Store, target: &Path, line: &[u8]) -> Result<()> {
        // Paths are compared as bytes: comparing them as paths, component by component, was a
        // twentieth of an import's time.
        let at = match self.last {
            Some(i) if self.files[i].target.as_os_str() == target.as_os_str() => i,
            _ => self.place_of(store, target)?,
        };
        if self.last != Some(at) {
            if let Some(before) = self.last {
                self.sync_early(store, before);
            }
            self.last = Some(at);
            self.open_writer(at)?;
        }
        let writer = self.files[at].writer.as_mut().expect("opened above");
        writer.write_all(line).map_err(stage_error)
    }

    /// The place of `target`'s staged file, made on first sight.
    fn place_of(&mut self, store: &Store, target: &Path) -> Result<usize> {
        if let Some(&i) = self.by_target.get(target.as_os_str()) {
            return Ok(i);
        }
        let spool = match &self.spool {
            Some(s) => s,
            None => self.spool.insert(Spool::new(store, "staged")?),
        };
        let path = spool.0.join(format!("{}.ndjson", self.files.len()));
        File::create(&path)
            .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
        self.by_target
            .insert(target.as_os_str().to_owned(), self.files.len());
        self.files.push(Staged {
            target: target.to_path_buf(),
            path,
            writer: None,
        });
        Ok(self.files.len() - 1)
    }

    /// Makes `at` the most recently written file, its writer open: opened again to append
    /// when it was closed, after closing the least recently written one if that makes room.
    fn open_writer(&mut self, at: usize) -> Result<()> {
        if let Some(k) = self.open.iter().position(|&i| i == at) {
            self.open.remove(k);
            self.open.push(at);
            return Ok(());
        }
        if self.open.len() >= OPEN_STAGED {
            let oldest = self.open.remove(0);
            self.close(oldest)?;
        }
        let staged = &mut self.files[at];
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&staged.path)
            .map_err(|e| Error::io(format!("cannot open {}", staged.path.display()), e))?;
        staged.writer = Some(BufWriter::with_capacity(WRITE_BUFFER, file));
        self.open.push(at);
        Ok(())
    }

    /// Writes out and closes the writer of `at`.
    fn close(&mut self, at: usize) -> Result<()> {
        if let Some(writer) = self.files[at].writer.take() {
            drop(
                writer
                    .into_inner()
                    .map_err(|e| stage_error(e.into_error()))?,
            );
        }
        Ok(())
    }

    /// A staged file the stream has moved on from (a month's packages arrive together) is
    /// written to disk now, by a thread of its own, rather than all at the commit: the commit
    /// then finds most of its syncing done. Best effort, when the store syncs at all, and only
    /// while the thread keeps up (a stream that jumps between logs at every line would
    /// otherwise queue a handle per line): the commit syncs every file again and reports what
    /// fails.
    fn sync_early(&mut self, store: &Store, staged: usize) {
        if !store.config().fsync() {
            return;
        }
        let Some(writer) = self.files[staged].writer.as_mut() else {
            return;
        };
        let Ok(file) = writer.flush().and_then(|()| writer.get_ref().try_clone()) else {
            return;
        };
        let syncer = self.syncer.get_or_insert_with(|| {
            let (tx, rx): (SyncSender<File>, Receiver<File>) = sync_channel(SYNC_QUEUE);
            let handle = std::thread::spawn(move || {
                for file in rx {
                    let _ = file.sync_data();
                }
            });
            (tx, handle)
        });
        // A full queue drops (closes) this handle rather than wait for the disk.
        let _ = syncer.0.try_send(file);
    }

    /// Adds the staged lines to their logs, one log at a time, in the order the logs were
    /// first met: a log that is new (or empty) takes its staged file whole, by a rename;
    /// others get whole lines, a few MiB per write, so memory stays small however much is new.
    pub(super) fn commit(mut self, store: &Store) -> Result<()> {
        if let Some((tx, handle)) = self.syncer.take() {
            drop(tx);
            let _ = handle.join();
        }
        for at in std::mem::take(&mut self.open) {
            self.close(at)?;
        }
        for Staged { target, path, .. } in std::mem::take(&mut self.files) {
            if store.adopt(&target, &path)? {
                continue;
            }
            let io = |e| Error::io(format!("cannot read {}", path.display()), e);
            let mut reader = BufReader::with_capacity(1 << 20, File::open(&path).map_err(io)?);
            loop {
                let bytes = read_chunk(&mut reader).map_err(io)?;
                if bytes.is_empty() {
                    break;
                }
                store.append(&target, &bytes)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files this process holds open under `dir` (other tests' files are elsewhere).
    fn open_under(dir: &Path) -> usize {
        let Ok(fds) = std::fs::read_dir("/proc/self/fd") else {
            return 0;
        };
        fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
            .filter(|target| target.starts_with(dir))
            .count()
    }

    #[test]
    fn many_logs_interleaved_stay_within_the_bound_and_keep_their_lines() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let store = Store::open(root).unwrap();
        let targets: Vec<PathBuf> = (0..OPEN_STAGED * 4)
            .map(|i| dir.path().join(format!("logs/{i:03}.ndjson")))
            .collect();
        let mut staging = Staging::default();
        let mut most = 0;
        // Every line goes to another log than the one before: the worst order for handles.
        for round in 0..5 {
            for (i, target) in targets.iter().enumerate() {
                let line = format!("{{\"log\":{i},\"round\":{round}}}\n");
                staging.write(&store, target, line.as_bytes()).unwrap();
                most = most.max(open_under(dir.path()));
            }
        }
        assert!(
            most <= OPEN_STAGED + SYNC_QUEUE + 1,
            "{most} files open at once for {} logs",
            targets.len()
        );
        staging.commit(&store).unwrap();
        for (i, target) in targets.iter().enumerate() {
            let want: String = (0..5)
                .map(|round| format!("{{\"log\":{i},\"round\":{round}}}\n"))
                .collect();
            assert_eq!(std::fs::read_to_string(target).unwrap(), want);
        }
    }
}
