//! The clone's journal of hook records: every line relay's hooks queued (see `queue`), kept
//! where no git move reaches. The queue lives in the work tree's `local/pending/`, and a
//! flushed record lives only in whatever commit took it, so a flattened merge, an abandoned
//! branch, a revert, `git worktree remove` or `git clean -fdx` could take a record away for
//! good. The journal is an append-only copy of each queued line under git's common dir
//! (`<common dir>/relay/journal/<store>/`, the queue's layout without its `.pending` suffix),
//! shared by the clone's worktrees.
//!
//! [`Store::reconcile_journal`] (every door's store opening and every hook run call it) puts
//! back into the queue each journaled line that neither the store's logs nor the queue hold,
//! idempotently: the same line, byte for byte, which reads count once. A state already
//! checked (the same journal, logs and queue, by size, time and inode) is not read again.
//! [`Store::forget_journaled`] drops the lines a commit in the branch's upstream holds: they
//! are shared and can be fetched again.
//!
//! The journal is found without running git: the nearest `.git` above the store, a folder or
//! a `gitdir:` file (a linked worktree, a submodule), whose `commondir` names the shared one.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Store, layout, lock, log};
use crate::log::lines;
use relay_wire::error::{Error, Result};

/// Where a store's journal is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalPlace {
    /// The top of the work tree that holds the store.
    pub top: PathBuf,
    /// The store's folder relative to `top`, with `/` (what git names it).
    pub store_rel: String,
    /// The journal's folder.
    pub dir: PathBuf,
}

/// The file under `local/` that records the state the journal was last checked against.
const CHECKED_FILE: &str = "journal-checked";
/// The lock the journal's writers take (appends, and the rewrite that forgets lines).
const LOCK_FILE: &str = ".lock";

/// The work tree's top and git's common dir for a path inside a work tree.
fn git_dirs(start: &Path) -> Option<(PathBuf, PathBuf)> {
    for dir in start.ancestors() {
        let dot = dir.join(".git");
        let Ok(meta) = std::fs::metadata(&dot) else {
            continue;
        };
        let gitdir = if meta.is_dir() {
            dot
        } else {
            let text = std::fs::read_to_string(&dot).ok()?;
            let named = Path::new(text.trim().strip_prefix("gitdir:")?.trim());
            dir.join(named)
        };
        let common = match std::fs::read_to_string(gitdir.join("commondir")) {
            Ok(c) => gitdir.join(c.trim()),
            Err(_) => gitdir,
        };
        return Some((dir.to_path_buf(), common));
    }
    None
}

/// The journal of the store at `root`, if a git work tree holds it.
pub fn place_of(root: &Path) -> Option<JournalPlace> {
    let (top, common) = git_dirs(root.parent()?)?;
    let rel = root.strip_prefix(&top).ok()?;
    let store_rel = rel
        .iter()
        .map(|p| p.to_str())
        .collect::<Option<Vec<_>>>()?
        .join("/");
    if store_rel.is_empty() {
        return None;
    }
    let dir = common
        .join("relay")
        .join("journal")
        .join(layout::encode_project_dir(&store_rel));
    Some(JournalPlace {
        top,
        store_rel,
        dir,
    })
}

/// One journal file and the store file it stands for.
#[derive(Debug, Clone)]
pub struct Journaled {
    pub journal: PathBuf,
    pub tracked: PathBuf,
    /// The tracked file relative to the store, with `/`.
    pub rel: String,
}

/// What a reconciliation did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Requeued {
    /// Lines put back into the queue.
    pub lines: u64,
    /// The store files (relative to the store) they stand for.
    pub files: Vec<String>,
}

fn io(what: &str, path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let message = format!("cannot {what} {}", path.display());
    move |e| Error::io(message, e)
}

fn read_or_empty(path: &Path) -> Result<Vec<u8>> {
    match std::fs::read(path) {
        Ok(b) => Ok(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(Error::io(format!("cannot read {}", path.display()), e)),
    }
}

/// A line for the state of one file: its size, time and inode, or that it is missing.
fn stamp_of(path: &Path) -> String {
    match std::fs::metadata(path) {
        Ok(m) => {
            let t = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            #[cfg(unix)]
            let ino = std::os::unix::fs::MetadataExt::ino(&m);
            #[cfg(not(unix))]
            let ino = 0;
            format!("{} {} {t} {ino}\n", path.display(), m.len())
        }
        Err(_) => format!("{} -\n", path.display()),
    }
}

impl Store {
    /// Where this store's journal is (`None` outside a git work tree).
    pub fn journal_place(&self) -> Option<&JournalPlace> {
        self.journal.get_or_init(|| place_of(self.root())).as_ref()
    }

    fn journal_lock(&self, place: &JournalPlace) -> Result<lock::LockGuard> {
        lock::acquire(
            &place.dir.join(LOCK_FILE),
            Duration::from_millis(self.config.lock_timeout_ms()),
        )
    }

    /// Adds `bytes` (whole lines queued for the store file `tracked`) to the journal.
    pub(super) fn journal_append(&self, tracked: &Path, bytes: &[u8]) -> Result<()> {
        let Some(place) = self.journal_place() else {
            return Ok(());
        };
        let Ok(rel) = tracked.strip_prefix(self.root()) else {
            return Ok(());
        };
        let _lock = self.journal_lock(place)?;
        log::append(&place.dir.join(rel), bytes, self.config.fsync())?;
        Ok(())
    }

    /// Every journal file, with the store file it stands for.
    pub fn journaled_files(&self) -> Result<Vec<Journaled>> {
        let Some(place) = self.journal_place() else {
            return Ok(Vec::new());
        };
        if !place.dir.is_dir() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for entry in walkdir::WalkDir::new(&place.dir)
            .min_depth(1)
            .sort_by_file_name()
        {
            let entry = entry.map_err(|e| {
                let io = e
                    .into_io_error()
                    .unwrap_or_else(|| std::io::Error::other("a loop"));
                Error::io(format!("cannot list {}", place.dir.display()), io)
            })?;
            let name = entry.file_name().to_string_lossy();
            if !entry.file_type().is_file() || name.starts_with('.') {
                continue;
            }
            let Ok(rel) = entry.path().strip_prefix(&place.dir) else {
                continue;
            };
            let parts: Option<Vec<&str>> = rel.iter().map(|p| p.to_str()).collect();
            let Some(parts) = parts else { continue };
            out.push(Journaled {
                journal: entry.path().to_path_buf(),
                tracked: self.root().join(rel),
                rel: parts.join("/"),
            });
        }
        Ok(out)
    }

    /// How many lines the journal holds.
    pub fn journaled_lines(&self) -> Result<u64> {
        let mut n = 0;
        for f in self.journaled_files()? {
            n += lines::whole_lines(&read_or_empty(&f.journal)?).count() as u64;
        }
        Ok(n)
    }

    /// What the journal was checked against: each journal file, its store file and its queued
    /// mirror, as they are now.
    fn journal_state(&self, files: &[Journaled]) -> String {
        let mut s = String::new();
        for f in files {
            s.push_str(&stamp_of(&f.journal));
            s.push_str(&stamp_of(&f.tracked));
            if let Some(q) = self.layout.queued_path(&f.tracked) {
                s.push_str(&stamp_of(&q));
            }
        }
        s
    }

    /// Puts back into the queue every journaled line that neither its store file nor the
    /// queue holds (see the module's header). Cheap when nothing changed since the last check.
    pub fn reconcile_journal(&self) -> Result<Requeued> {
        let files = self.journaled_files()?;
        let mut done = Requeued::default();
        if files.is_empty() {
            return Ok(done);
        }
        let checked = self.layout.local_dir().join(CHECKED_FILE);
        let before = self.journal_state(&files);
        if std::fs::read_to_string(&checked).is_ok_and(|s| s == before) {
            return Ok(done);
        }
        for f in &files {
            let Some(queued) = self.layout.queued_path(&f.tracked) else {
                continue;
            };
            // The journal is read again with the rest: a purge takes a line out of it first.
            let missing_now = || -> Result<Vec<u8>> {
                let journal = read_or_empty(&f.journal)?;
                let (tracked, queue) = (read_or_empty(&f.tracked)?, read_or_empty(&queued)?);
                let mut have: HashSet<&[u8]> = lines::line_set(&tracked);
                have.extend(lines::whole_lines(&queue));
                // A line a killed hook cut off and a later append sealed is no record.
                have.extend(lines::whole_lines(&journal).filter(|l| l.ends_with(log::TORN_MARK)));
                Ok(lines::missing_from(&have, &journal))
            };
            if missing_now()?.is_empty() {
                continue;
            }
            // Again under the lock of the file's writers (a flush may be moving the queue).
            let _lock = self.lock(&lock_name_of(&f.rel))?;
            let bytes = missing_now()?;
            if bytes.is_empty() {
                continue;
            }
            log::append(&queued, &bytes, self.config.fsync())?;
            done.lines += bytes.iter().filter(|&&b| b == b'\n').count() as u64;
            done.files.push(f.rel.clone());
        }
        // The state as it was before the reads vouches for them; after an append nothing is
        // written, and the next read checks again (a git move during this one is then seen).
        match done.lines {
            0 => {
                let _ = std::fs::create_dir_all(self.layout.local_dir());
                let _ = log::write_atomic(&checked, before.as_bytes());
            }
            _ => {
                let _ = std::fs::remove_file(&checked);
            }
        }
        Ok(done)
    }

    /// Whether the journal was checked against the state the logs and the queue are in now.
    pub(super) fn journal_is_checked(&self) -> bool {
        let Ok(files) = self.journaled_files() else {
            return false;
        };
        let checked = self.layout.local_dir().join(CHECKED_FILE);
        std::fs::read_to_string(checked).is_ok_and(|s| s == self.journal_state(&files))
    }

    /// Records the state now as checked: for a queued append that wrote the same line to the
    /// journal and the queue of a state that was checked, so the next read need not read the
    /// logs again.
    pub(super) fn mark_journal_checked(&self) {
        if let Ok(files) = self.journaled_files() {
            let checked = self.layout.local_dir().join(CHECKED_FILE);
            let _ = log::write_atomic(&checked, self.journal_state(&files).as_bytes());
        }
    }

    /// Drops from the journal file of `rel` (a store file, relative to the store) the lines
    /// `held` holds: `held` is that file as a commit in the branch's upstream has it, so those
    /// records are shared and can be fetched again. Returns the lines dropped.
    pub fn forget_journaled(&self, rel: &str, held: &[u8]) -> Result<u64> {
        let Some(place) = self.journal_place() else {
            return Ok(0);
        };
        let journal = place.dir.join(rel);
        let _lock = self.journal_lock(place)?;
        let bytes = read_or_empty(&journal)?;
        let held = lines::line_set(held);
        let keep = lines::missing_from(&held, &bytes);
        let before = lines::whole_lines(&bytes).count() as u64;
        let after = keep.iter().filter(|&&b| b == b'\n').count() as u64;
        if after == before {
            return Ok(0);
        }
        if keep.is_empty() {
            std::fs::remove_file(&journal).map_err(io("remove", &journal))?;
        } else {
            log::write_atomic_with(&journal, |w| w.write_all(&keep))?;
        }
        Ok(before - after)
    }

    /// Drops `gone` (whole lines) from the journal file of the store file `tracked`, for a
    /// command that removes records from the store on purpose (`relay purge`), so that the
    /// journal does not put them back.
    pub fn unjournal(&self, tracked: &Path, gone: &[u8]) -> Result<u64> {
        let Ok(rel) = tracked.strip_prefix(self.root()) else {
            return Ok(0);
        };
        let rel: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
        self.forget_journaled(&rel.join("/"), gone)
    }
}

/// The writers' lock of the store file `rel`: its project's, or the store-wide one.
fn lock_name_of(rel: &str) -> String {
    match rel.split('/').collect::<Vec<_>>().as_slice() {
        [layout::PROJECTS_DIR, dir, _, ..] => format!("project-{dir}"),
        _ => "projects".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store at `<tmp>/repo/.relay` in a folder that looks like a git work tree.
    fn store_in_git() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        let root = repo.join(".relay");
        Store::create(&root, "demo").unwrap();
        (dir, Store::open(root).unwrap())
    }

    #[test]
    fn the_journal_is_under_the_common_dir_for_every_worktree() {
        let (dir, store) = store_in_git();
        let place = store.journal_place().unwrap();
        let repo = dir.path().join("repo");
        assert_eq!(place.top, repo);
        assert_eq!(place.store_rel, ".relay");
        assert_eq!(place.dir, repo.join(".git/relay/journal/%2erelay"));
        // A linked worktree: `.git` is a file naming its own git dir, whose `commondir` leads
        // back to the shared one.
        let own = repo.join(".git/worktrees/wt");
        std::fs::create_dir_all(&own).unwrap();
        std::fs::write(own.join("commondir"), "../..\n").unwrap();
        let wt = dir.path().join("wt");
        std::fs::create_dir_all(wt.join("sub/.relay")).unwrap();
        std::fs::write(wt.join(".git"), format!("gitdir: {}\n", own.display())).unwrap();
        let linked = place_of(&wt.join("sub/.relay")).unwrap();
        assert_eq!(linked.top, wt);
        assert_eq!(linked.store_rel, "sub/.relay");
        assert_eq!(
            linked.dir,
            own.join("../..").join("relay/journal/sub%2f%2erelay")
        );
        assert!(place_of(Path::new("/")).is_none());
    }

    #[test]
    fn queued_lines_are_journaled_and_what_a_git_move_took_is_put_back_once() {
        let (_dir, mut store) = store_in_git();
        let month = store.layout().package_log("demo", "2026-05");
        store.set_queued(true);
        store.append(&month, b"{\"p\":1}\n").unwrap();
        store.append(&month, b"{\"p\":2}\n").unwrap();
        store.set_queued(false);
        let files = store.journaled_files().unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].rel, "projects/demo/packages/2026-05.ndjson");
        assert_eq!(
            std::fs::read(&files[0].journal).unwrap(),
            b"{\"p\":1}\n{\"p\":2}\n"
        );
        // Nothing is missing: the queue holds both.
        assert_eq!(store.reconcile_journal().unwrap(), Requeued::default());
        // The flush moves them into the log; a git move takes the log away with one of them.
        for q in store.queued_files().unwrap() {
            store.flush_queued(&q).unwrap();
        }
        std::fs::write(&month, b"{\"p\":1}\n").unwrap();
        let done = store.reconcile_journal().unwrap();
        assert_eq!(done.lines, 1);
        let queued = store.layout().queued_path(&month).unwrap();
        assert_eq!(std::fs::read(&queued).unwrap(), b"{\"p\":2}\n");
        assert_eq!(store.reconcile_journal().unwrap().lines, 0, "idempotent");
        // The queue itself lost (a worktree removed, `git clean -fdx`): back again.
        std::fs::remove_dir_all(store.layout().local_dir()).unwrap();
        assert_eq!(store.reconcile_journal().unwrap().lines, 1);
        // What the upstream holds is forgotten, and never put back again.
        assert_eq!(
            store
                .forget_journaled("projects/demo/packages/2026-05.ndjson", b"{\"p\":1}\n")
                .unwrap(),
            1
        );
        std::fs::remove_file(&month).unwrap();
        std::fs::remove_dir_all(store.layout().local_dir()).unwrap();
        assert_eq!(store.reconcile_journal().unwrap().lines, 1);
        assert_eq!(std::fs::read(&queued).unwrap(), b"{\"p\":2}\n");
        assert_eq!(
            store.unjournal(&month, b"{\"p\":2}\n").unwrap(),
            1,
            "a purge unjournals"
        );
        assert!(store.journaled_files().unwrap().is_empty());
    }

    #[test]
    fn a_journal_line_a_killed_hook_cut_off_is_never_queued() {
        let (_dir, mut store) = store_in_git();
        let month = store.layout().package_log("demo", "2026-05");
        let place = store.journal_place().unwrap().clone();
        let journal = place.dir.join("projects/demo/packages/2026-05.ndjson");
        std::fs::create_dir_all(journal.parent().unwrap()).unwrap();
        // A hook killed mid-append, and the next append that sealed its fragment.
        std::fs::write(&journal, "{\"p\":").unwrap();
        store.set_queued(true);
        store.append(&month, b"{\"p\":2}\n").unwrap();
        store.set_queued(false);
        let text = std::fs::read_to_string(&journal).unwrap();
        assert!(text.contains("sealed by relay"), "{text}");
        std::fs::remove_dir_all(store.layout().local_dir()).unwrap();
        assert_eq!(store.reconcile_journal().unwrap().lines, 1);
        let queued = store.layout().queued_path(&month).unwrap();
        assert_eq!(std::fs::read(&queued).unwrap(), b"{\"p\":2}\n");
    }

    #[test]
    fn a_store_outside_git_has_no_journal() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let mut store = Store::open(root).unwrap();
        // (Unless some folder above the temp folder is a work tree.)
        if store.journal_place().is_some() {
            return;
        }
        let month = store.layout().package_log("demo", "2026-05");
        store.set_queued(true);
        store.append(&month, b"{\"p\":1}\n").unwrap();
        assert!(store.journaled_files().unwrap().is_empty());
        assert_eq!(store.reconcile_journal().unwrap().lines, 0);
    }
}
