//! The clone's queue of hook writes. In queued mode ([`Store::set_queued`]), what relay's
//! hooks append to a package log or a signatures file lands in its mirror under
//! `local/pending/` ([`Layout::queued_path`](super::Layout::queued_path)), which git never
//! sees: a hook never leaves the work tree dirty for the next `git pull`, checkout or rebase to
//! refuse. Reads see the queue ([`Store::package_logs`] lists the queued months, the signature
//! readers read the queued signatures), and [`Store::flush_queued`] moves a queued file's lines
//! into the tracked file. Other kinds (facts, sessions, projects, retractions) are written
//! through even in queued mode: no hook writes them, and their writers check what they depend
//! on (the current fact, an open session, an existing project) against the one tracked log
//! under the lock, which a second, queued copy would split.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use super::{Store, WarningKind, layout, log};
use crate::log::lines;
use relay_wire::error::{Error, Result};

/// The folder under `local/` where a flush writes the new copy of a log before it renames it
/// into place: never beside the tracked log, where an interrupted write would leave a stray
/// file for `git add` to pick up.
const FLUSH_DIR: &str = "flush";

/// The folder under `local/` where a flush keeps a log's cut-off last line it left out.
const TORN_DIR: &str = "torn";

/// What a queued file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum QueuedKind {
    /// A month of packages.
    Packages,
    /// Signatures of records (written with the packages they sign).
    Signatures,
    /// Anything else (only a relay other than this one queues such a file).
    Other,
}

/// One file in the queue and the tracked file it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    pub queued: PathBuf,
    pub tracked: PathBuf,
    /// The project folder's name under `projects/`, for a project's file.
    pub project_dir: Option<String>,
    pub kind: QueuedKind,
}

/// What a tracked path `rel` (relative to the store) holds, and its project folder.
fn kind_of(rel: &Path) -> (QueuedKind, Option<String>) {
    let parts: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
    match parts.as_slice() {
        [layout::PROJECTS_DIR, dir, layout::PACKAGES_DIR, name]
            if layout::is_package_log_name(name) =>
        {
            (QueuedKind::Packages, Some(dir.to_string()))
        }
        [layout::PROJECTS_DIR, dir, layout::SIGNATURES_FILE] => {
            (QueuedKind::Signatures, Some(dir.to_string()))
        }
        [layout::PROJECTS_DIR, dir, ..] => (QueuedKind::Other, Some(dir.to_string())),
        _ => (QueuedKind::Other, None),
    }
}

impl Store {
    /// Queued mode: appends to package logs and signatures files go to the clone's queue
    /// under `local/pending/` instead (what relay's hooks use, so git never sees their writes).
    pub fn set_queued(&mut self, on: bool) {
        self.queued = on;
    }

    /// Whether writes are queued.
    pub fn is_queued(&self) -> bool {
        self.queued
    }

    /// Where an append to `path` lands: its queued mirror in queued mode, for a package log
    /// or a signatures file; else `path` itself.
    pub(super) fn append_target<'a>(&self, path: &'a Path) -> Cow<'a, Path> {
        if !self.queued {
            return Cow::Borrowed(path);
        }
        let Ok(rel) = path.strip_prefix(self.root()) else {
            return Cow::Borrowed(path);
        };
        match kind_of(rel).0 {
            QueuedKind::Packages | QueuedKind::Signatures => self
                .layout
                .queued_path(path)
                .map_or(Cow::Borrowed(path), Cow::Owned),
            QueuedKind::Other => Cow::Borrowed(path),
        }
    }

    /// The queued monthly package logs of a project, oldest month first.
    pub fn queued_package_logs(&self, project_id: &str) -> Result<Vec<PathBuf>> {
        let Some(dir) = self
            .layout
            .queued_path(&self.layout.packages_dir(project_id))
        else {
            return Ok(Vec::new());
        };
        super::packages::month_logs_in(&dir)
    }

    /// The queued signatures of a project (the file may not exist).
    pub fn queued_signatures_file(&self, project_id: &str) -> Option<PathBuf> {
        self.layout
            .queued_path(&self.layout.signatures_file(project_id))
    }

    /// Every file in the queue, each project's package logs before its signatures (the order
    /// they are flushed in: a signature after what it signs, as a write puts them).
    pub fn queued_files(&self) -> Result<Vec<Queued>> {
        let dir = self.layout.pending_dir();
        if !dir.is_dir() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for entry in walkdir::WalkDir::new(&dir).min_depth(1) {
            let entry = entry.map_err(|e| {
                let io = e
                    .into_io_error()
                    .unwrap_or_else(|| std::io::Error::other("a loop"));
                Error::io(format!("cannot list {}", dir.display()), io)
            })?;
            if !entry.file_type().is_file() {
                continue;
            }
            let queued = entry.into_path();
            let Some(tracked) = self.layout.tracked_path(&queued) else {
                continue;
            };
            let rel = tracked.strip_prefix(self.root()).unwrap_or(&tracked);
            let (kind, project_dir) = kind_of(rel);
            out.push(Queued {
                queued,
                tracked,
                project_dir,
                kind,
            });
        }
        out.sort_by(|a, b| {
            (&a.project_dir, a.kind, &a.queued).cmp(&(&b.project_dir, b.kind, &b.queued))
        });
        Ok(out)
    }

    /// Moves the lines of one queued file into the tracked file it stands for, under the lock
    /// its writers take, and removes the queued file. Only lines the tracked file does not
    /// hold yet are written, each once, so no flush (a repeated one, one after a git move
    /// brought the same lines back) leaves a duplicate. The tracked file is replaced whole, by
    /// a rename of a synced copy written under `local/`: an interrupt (Ctrl-C during a
    /// commit, a crash) leaves it as it was or with every new line, never with a torn one,
    /// and the queued file, removed only after, is moved again by the next flush. A last
    /// queued line cut off by a crash never reported success and is dropped (and reported), and
    /// so is a cut-off last line of the tracked log (kept under `local/torn/`), which a commit
    /// would otherwise carry to every clone. Returns the lines written.
    pub fn flush_queued(&self, q: &Queued) -> Result<u64> {
        if self.queued {
            return Err(Error::Integrity(
                "cannot flush the queue with queued writes on: the lines would go back into it"
                    .into(),
            ));
        }
        let lock_name = match &q.project_dir {
            Some(dir) => format!("project-{dir}"),
            None => "projects".to_string(),
        };
        let _lock = self.lock(&lock_name)?;
        let bytes = match std::fs::read(&q.queued) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(Error::io(format!("cannot read {}", q.queued.display()), e)),
        };
        if !lines::torn_tail(&bytes).is_empty() {
            let line = lines::whole_lines(&bytes).count() as u64 + 1;
            self.diagnostics.warn(
                &q.queued,
                line,
                WarningKind::TornLine,
                "the last queued line is incomplete (a write was cut off); it was not moved",
            );
        }
        // What an interrupted flush of these files left under `local/` goes first.
        let scratch = self.layout.local_dir().join(FLUSH_DIR).join(&lock_name);
        let _ = std::fs::remove_dir_all(&scratch);
        let tracked = match std::fs::read(&q.tracked) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(Error::io(format!("cannot read {}", q.tracked.display()), e)),
        };
        let held = lines::line_set(&tracked);
        let mut new = lines::missing_from(&held, &bytes);
        // A line a crash cut off in the queue and sealed there is not a record.
        if new
            .windows(log::TORN_MARK.len())
            .any(|w| w == log::TORN_MARK)
        {
            let mut kept = Vec::with_capacity(new.len());
            for line in lines::whole_lines(&new).filter(|l| !l.ends_with(log::TORN_MARK)) {
                kept.extend_from_slice(line);
                kept.push(b'\n');
            }
            new = kept;
        }
        let moved = lines::whole_lines(&new).count() as u64;
        let torn = lines::torn_tail(&tracked);
        if moved > 0 || !torn.is_empty() {
            let whole = &tracked[..tracked.len() - torn.len()];
            if !torn.is_empty() {
                // A write cut off before it reported success (an older relay's flush, a
                // crashed deposit). The flush stages this log for a commit: a sealed fragment
                // there would fail every teammate's `verify`, so it is left out, kept aside
                // under `local/torn/`, and reported.
                let aside = self.layout.local_dir().join(TORN_DIR).join(format!(
                    "{}.{}",
                    q.tracked
                        .file_name()
                        .and_then(|n| n.to_str())
                        .unwrap_or("log"),
                    relay_wire::ids::random_below(1 << 30)
                ));
                log::write_atomic(&aside, torn)?;
                self.diagnostics.warn(
                    &q.tracked,
                    lines::whole_lines(whole).count() as u64 + 1,
                    WarningKind::TornLine,
                    format!(
                        "the last line was cut off by a write that never finished; the flush \
                         left it out (kept in {})",
                        aside.display()
                    ),
                );
            }
            log::write_atomic_in(&q.tracked, &scratch, |w| {
                w.write_all(whole)?;
                w.write_all(&new)
            })?;
            let _ = std::fs::remove_dir(&scratch);
        }
        match std::fs::remove_file(&q.queued) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Error::io(
                    format!("cannot remove {}", q.queued.display()),
                    e,
                ));
            }
            _ => {}
        }
        // Empty folders left behind go too (best effort; another writer may be filling one).
        let pending = self.layout.pending_dir();
        for dir in q.queued.ancestors().skip(1) {
            if !dir.starts_with(&pending) || dir == pending || std::fs::remove_dir(dir).is_err() {
                break;
            }
        }
        Ok(moved)
    }

    /// How many package versions wait in the queue (its package logs' lines).
    pub fn queued_package_lines(&self) -> Result<u64> {
        let mut n = 0;
        for q in self.queued_files()? {
            if q.kind == QueuedKind::Packages {
                let bytes = std::fs::read(&q.queued)
                    .map_err(|e| Error::io(format!("cannot read {}", q.queued.display()), e))?;
                n += bytes.iter().filter(|&&b| b == b'\n').count() as u64;
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        (dir, Store::open(root).unwrap())
    }

    #[test]
    fn queued_mode_sends_package_logs_and_signatures_to_the_queue_only() {
        let (_dir, mut store) = store();
        let layout = store.layout().clone();
        let month = layout.package_log("demo", "2026-05");
        let signatures = layout.signatures_file("demo");
        let facts = layout.facts_file("demo");
        assert_eq!(store.append_target(&month), Cow::Borrowed(month.as_path()));
        store.set_queued(true);
        store.append(&month, b"{\"p\":1}\n").unwrap();
        store.append(&signatures, b"{\"s\":1}\n").unwrap();
        store.append(&facts, b"{\"f\":1}\n").unwrap();
        assert!(!month.exists() && !signatures.exists());
        assert_eq!(
            std::fs::read(&facts).unwrap(),
            b"{\"f\":1}\n",
            "written through"
        );
        let queued_month = layout.queued_path(&month).unwrap();
        assert_eq!(std::fs::read(&queued_month).unwrap(), b"{\"p\":1}\n");
        assert_eq!(
            store.queued_package_logs("demo").unwrap(),
            std::slice::from_ref(&queued_month)
        );
        assert_eq!(
            store.package_logs("demo").unwrap(),
            std::slice::from_ref(&queued_month),
            "reads see the queue"
        );
        let files = store.queued_files().unwrap();
        let kinds: Vec<QueuedKind> = files.iter().map(|q| q.kind).collect();
        assert_eq!(kinds, [QueuedKind::Packages, QueuedKind::Signatures]);
        assert_eq!(files[0].tracked, month);
        assert_eq!(files[1].tracked, signatures);
        assert_eq!(files[0].project_dir.as_deref(), Some("demo"));
        assert_eq!(store.queued_package_lines().unwrap(), 1);

        // Flushing needs queued writes off, or the lines would go back in.
        assert!(store.flush_queued(&files[0]).is_err());
        store.set_queued(false);
        store.append(&month, b"{\"p\":0}\n").unwrap();
        assert_eq!(store.flush_queued(&files[0]).unwrap(), 1);
        assert_eq!(store.flush_queued(&files[1]).unwrap(), 1);
        assert_eq!(
            std::fs::read_to_string(&month).unwrap(),
            "{\"p\":0}\n{\"p\":1}\n"
        );
        assert_eq!(std::fs::read_to_string(&signatures).unwrap(), "{\"s\":1}\n");
        assert!(store.queued_files().unwrap().is_empty());
        assert!(
            !layout.pending_dir().join("projects").exists(),
            "emptied folders go"
        );
        assert_eq!(
            store.package_logs("demo").unwrap(),
            std::slice::from_ref(&month)
        );
        assert_eq!(store.flush_queued(&files[0]).unwrap(), 0, "already moved");
    }

    #[test]
    fn signature_reads_include_the_queued_signatures() {
        use relay_wire::signature::{RecordKind, Signature};
        let (_dir, mut store) = store();
        let signature = |id: &str| Signature {
            record: RecordKind::Package,
            id: id.into(),
            hash: format!("sha256:{}", "a".repeat(64)),
            actor: "jo".into(),
            key: "SHA256:k".into(),
            sshsig: "s".into(),
        };
        store
            .append_signatures("demo", &[signature("pkg_tracked")])
            .unwrap();
        store.set_queued(true);
        store
            .append_signatures("demo", &[signature("pkg_queued")])
            .unwrap();
        let ids: Vec<String> = (store.signatures("demo").unwrap().into_iter())
            .map(|(_, s)| s.id)
            .collect();
        assert_eq!(ids, ["pkg_tracked", "pkg_queued"]);
        assert_eq!(store.signatures_of("demo", "pkg_queued").unwrap().len(), 1);
    }

    #[test]
    fn a_queued_month_is_listed_right_after_the_tracked_month() {
        let (_dir, mut store) = store();
        let layout = store.layout().clone();
        for m in ["2026-03", "2026-05"] {
            store
                .append(&layout.package_log("demo", m), b"{}\n")
                .unwrap();
        }
        store.set_queued(true);
        for m in ["2026-04", "2026-05"] {
            store
                .append(&layout.package_log("demo", m), b"{}\n")
                .unwrap();
        }
        let q = |m: &str| layout.queued_path(&layout.package_log("demo", m)).unwrap();
        assert_eq!(
            store.package_logs("demo").unwrap(),
            [
                layout.package_log("demo", "2026-03"),
                q("2026-04"),
                layout.package_log("demo", "2026-05"),
                q("2026-05"),
            ]
        );
        assert_eq!(
            store.tracked_package_logs("demo").unwrap(),
            [
                layout.package_log("demo", "2026-03"),
                layout.package_log("demo", "2026-05"),
            ]
        );
    }

    #[test]
    fn a_torn_queued_line_is_not_moved_and_a_crash_before_removal_adds_nothing_twice() {
        let (_dir, store) = store();
        let layout = store.layout().clone();
        let month = layout.package_log("demo", "2026-05");
        let queued = layout.queued_path(&month).unwrap();
        std::fs::create_dir_all(queued.parent().unwrap()).unwrap();
        std::fs::write(&queued, "{\"a\":1}\n{\"b\":").unwrap();
        let files = store.queued_files().unwrap();
        assert_eq!(store.flush_queued(&files[0]).unwrap(), 1);
        assert_eq!(std::fs::read_to_string(&month).unwrap(), "{\"a\":1}\n");
        let warnings = store.diagnostics().take();
        assert_eq!(warnings.len(), 1);
        assert_eq!(
            (warnings[0].kind, warnings[0].line),
            (WarningKind::TornLine, 2)
        );
        // The lines moved, the queued file left behind (a crash): the next flush writes only
        // what the log lacks, each line once.
        std::fs::create_dir_all(queued.parent().unwrap()).unwrap();
        std::fs::write(&queued, "{\"a\":1}\n{\"c\":1}\n{\"c\":1}\n").unwrap();
        assert_eq!(
            store
                .flush_queued(&store.queued_files().unwrap()[0])
                .unwrap(),
            1
        );
        assert_eq!(
            std::fs::read_to_string(&month).unwrap(),
            "{\"a\":1}\n{\"c\":1}\n"
        );
    }

    #[test]
    #[cfg(unix)]
    fn a_flush_replaces_the_log_whole_and_leaves_no_file_beside_it() {
        let (_dir, store) = store();
        let layout = store.layout().clone();
        let month = layout.package_log("demo", "2026-05");
        std::fs::create_dir_all(month.parent().unwrap()).unwrap();
        // A log a crash left torn, and what an interrupted flush left under `local/`.
        std::fs::write(&month, "{\"a\":1}\n{\"b\"").unwrap();
        let stray = layout.local_dir().join(FLUSH_DIR).join("project-demo");
        std::fs::create_dir_all(&stray).unwrap();
        std::fs::write(stray.join(".2026-05.ndjson.tmp-1-2"), "{\"a\"").unwrap();
        let queued = layout.queued_path(&month).unwrap();
        std::fs::create_dir_all(queued.parent().unwrap()).unwrap();
        std::fs::write(&queued, "{\"q\":1}\n").unwrap();
        let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
        let before = inode(&month);
        store
            .flush_queued(&store.queued_files().unwrap()[0])
            .unwrap();
        // The log's cut-off last line is left out (kept aside), never committed sealed.
        assert_eq!(
            std::fs::read_to_string(&month).unwrap(),
            "{\"a\":1}\n{\"q\":1}\n"
        );
        let aside: Vec<String> = std::fs::read_dir(layout.local_dir().join(TORN_DIR))
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        assert_eq!(aside, ["{\"b\""]);
        assert_eq!(store.diagnostics().take()[0].kind, WarningKind::TornLine);
        assert_ne!(
            inode(&month),
            before,
            "replaced by a rename, not appended to"
        );
        let beside: Vec<_> = std::fs::read_dir(month.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(beside, [std::ffi::OsString::from("2026-05.ndjson")]);
        assert!(
            !stray.exists(),
            "the interrupted flush's leftovers are gone"
        );
    }
}
