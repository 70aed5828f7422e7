//! Import (§10.3) at the speed of the disk and in bounded memory: the source is read once, as
//! a stream, in chunks whose lines two threads parse and check (`check`); each record is then
//! judged, in source order, against a snapshot of the store and the records before it, and
//! what is new is staged in files under `cache/`. Only when every record has passed are the
//! staged lines added to the logs, under the locks of the projects they touch: a new log takes
//! its staged file whole, by a rename; a log with lines gets whole-line appends. A conflict or
//! a bad record anywhere writes nothing.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::ops::export::Kind;
use relay_store::index::{KeyHashing, KeyMap, id_key};
use relay_store::records::{Versioned, slot_order};
use relay_store::{Store, ndjson};
use relay_wire::error::{Error, Result};
use relay_wire::{Fact, Project, Session, Status, canonical, time};

mod check;
mod foreign;
mod options;
mod rules;
mod signatures;
mod source;
mod staging;

use check::{Checked, CheckedChunk, Chunk, Incoming, Text, Version, check_chunk, read_chunk};
pub use options::{ImportOptions, ImportSummary, OnConflict, SKIPPED_LISTED, SkippedRecord};
use rules::Elsewhere;
pub use source::{Source, SourceFile};
use staging::Staging;

/// The first 128 bits of a SHA-256: a compact identity for a line or a canonical form.
fn digest(bytes: &[u8]) -> u128 {
    let d = Sha256::digest(bytes);
    u128::from_le_bytes(d[..16].try_into().unwrap_or_default())
}

/// A versioned record of a project (a fact or a session).
trait Ending: Versioned {
    fn project_id(&self) -> &str;
    /// The package the record names as its source, for a kind that can.
    fn source_package(&self) -> Option<&str> {
        None
    }
}
impl Ending for Fact {
    fn project_id(&self) -> &str {
        self.str_field("project_id").unwrap_or_default()
    }
    fn source_package(&self) -> Option<&str> {
        self.str_field("source_package_id")
    }
}
impl Ending for Session {
    fn project_id(&self) -> &str {
        self.str_field("project_id").unwrap_or_default()
    }
}

/// Per record id of a versioned log: its current version's end (parsed, as the version order
/// compares it), canonical digest and line. Kept by a digest of the id: a quarter of a million
/// facts fit in a few MB.
struct Slot {
    end: Option<time::Timestamp>,
    canonical: u128,
    offset: u64,
}

/// The current versions of a fact or session log, compactly, to judge incoming versions.
struct VersionTable<T> {
    path: PathBuf,
    slots: KeyMap<u128, Slot>,
    written: HashSet<u128, KeyHashing>,
    _kind: std::marker::PhantomData<T>,
}

impl<T: Ending> VersionTable<T> {
    fn load(path: PathBuf) -> Result<VersionTable<T>> {
        let mut table = VersionTable {
            path,
            slots: KeyMap::default(),
            written: HashSet::default(),
            _kind: std::marker::PhantomData,
        };
        let file = match std::fs::File::open(&table.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(table),
            Err(e) => {
                return Err(Error::io(
                    format!("cannot read {}", table.path.display()),
                    e,
                ));
            }
        };
        // The table reads itself back while it loads (`order`), so the reader names a copy.
        let path = table.path.clone();
        let mut sink = ndjson::Lines(|_, offset, line: &[u8]| {
            if let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(line)
                && let Ok(rec) = T::parse(map)
            {
                let value = serde_json::to_value(&rec).unwrap_or_default();
                let text = canonical::to_canonical_string(&value);
                let slot = Slot {
                    end: rec.end(),
                    canonical: digest(text.as_bytes()),
                    offset,
                };
                let id = digest(rec.record_id().as_bytes());
                if table.order(id, slot.end, slot.canonical, || Some(rec))?
                    == std::cmp::Ordering::Greater
                {
                    table.slots.insert(id, slot);
                }
            }
            Ok::<_, Error>(true)
        });
        // Blank lines and a torn last line hold no record: the sink never sees them.
        ndjson::LogReader::new(&path)
            .read_from(BufReader::with_capacity(1 << 20, file), &mut sink)?;
        Ok(table)
    }

    /// How `version` compares with the current version of its id (Greater when there is
    /// none), by the store's version order.
    fn is_newer(&self, version: &Version, text: &Text) -> Result<std::cmp::Ordering> {
        self.order(version.id, version.end, version.canonical, || {
            parse_record(text.bytes(version.line))
        })
    }

    /// How a version of the id whose digest is `id` compares with its current version, from
    /// its end and the digest of its canonical form; only when the ends tie are the versions
    /// (`new`, and the current one from its line) read whole.
    fn order(
        &self,
        id: u128,
        end: Option<time::Timestamp>,
        canonical_digest: u128,
        new: impl FnOnce() -> Option<T>,
    ) -> Result<std::cmp::Ordering> {
        let Some(cur) = self.slots.get(&id) else {
            return Ok(std::cmp::Ordering::Greater);
        };
        // The same version again, as a re-import brings it: nothing to read back.
        if canonical_digest == cur.canonical {
            return Ok(std::cmp::Ordering::Equal);
        }
        slot_order(end, cur.end, || {
            let current = ndjson::with_line_at(&self.path, cur.offset, parse_record::<T>)?;
            Ok::<_, Error>((new(), current))
        })
    }

    /// Whether `version` adds anything: newer than what the store holds, and not a line
    /// already staged.
    fn is_new(&mut self, version: &Version, text: &Text) -> Result<bool> {
        Ok(self.is_newer(version, text)? == std::cmp::Ordering::Greater
            && self.written.insert(version.line_digest))
    }
}

/// A record of kind `T` from its line; `None` if the line holds none.
fn parse_record<T: Versioned>(line: &[u8]) -> Option<T> {
    match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(map)) => T::parse(map).ok(),
        _ => None,
    }
}

/// What the import knows of one project while it reads.
struct ProjectState {
    /// Keys of the ids the store held when the project was first met.
    existing: KeyMap<u64, u16>,
    /// The project's package logs when it was first met (`existing` points into it).
    logs: Vec<PathBuf>,
    /// Keys of the ids met in the source, with their hash prefix.
    seen: KeyMap<u64, u64>,
    /// Of the ids met in the source, those whose last version met is not `complete`: its
    /// status and version number, for the next version to follow (§5.3).
    open: KeyMap<u64, (Status, u64)>,
    /// Keys of the stored packages that facts of the source name as their source.
    sources: HashSet<u64, KeyHashing>,
    facts: Option<VersionTable<Fact>>,
    sessions: Option<VersionTable<Session>>,
}

/// Every package id stored in `project`, with the number of its log in
/// [`Store::package_logs`], read from the logs' catalogs (brought up to date first).
fn each_stored_id(store: &Store, project: &str, mut each: impl FnMut(&str, usize)) -> Result<()> {
    store.warm_catalogs(project)?;
    for (i, log) in store.package_logs(project)?.iter().enumerate() {
        let month = relay_store::index::MonthCatalog::load(store, log)?;
        for e in &month.entries {
            each(month.id(e), i);
        }
    }
    Ok(())
}

/// A little less than a package's line takes in a typical stream (the benchmark corpus
/// averages 880 bytes): the source's size over this is about as many packages as it holds.
const BYTES_PER_PACKAGE: u64 = 600;

/// In `ProjectState::existing`: the id has lines in more than one log.
const IN_SEVERAL_LOGS: u16 = u16::MAX;

/// What an incoming package follows in its project.
enum Before {
    /// A version identical to it: nothing to write.
    Same,
    /// Nothing: it is new to the project.
    Nothing,
    /// A version in this status with this version number: the store's (the package), or the
    /// one the source carried last (its hash prefix).
    Version(Status, u64, std::result::Result<relay_wire::Package, u64>),
}

/// The state of one import.
struct Run<'a> {
    store: &'a Store,
    opts: &'a ImportOptions,
    summary: ImportSummary,
    projects: HashMap<String, ProjectState>,
    /// How many packages a project's table of ids met is sized for at first: growing a
    /// table of a million ids would hold the old one and the new at once.
    expected_packages: usize,
    stream_projects: Vec<Project>,
    needed: BTreeSet<String>,
    locks: Vec<relay_store::LockGuard>,
    /// What is new, staged per target log until the commit.
    staging: Staging,
    /// The ids the store held in every project, loaded when a new id is first met.
    elsewhere: Option<Elsewhere>,
    /// Facts whose source package was not known when they were met, with their text.
    waiting: Vec<(Version, Text)>,
}

fn bump(c: &mut crate::ops::export::Counts, k: Kind) {
    *c.entry(k).or_default() += 1;
}

impl Run<'_> {
    fn project(&mut self, id: &str) -> Result<&mut ProjectState> {
        if !self.projects.contains_key(id) {
            self.needed.insert(id.to_string());
            if !self.opts.dry_run {
                self.locks.push(self.store.lock_project(id)?);
            }
            let mut existing = KeyMap::default();
            each_stored_id(self.store, id, |package, i| {
                // An id in two logs (versions that disagree on their month) is looked up in
                // every log.
                let at = existing.entry(id_key(package)).or_insert(i as u16);
                if *at != i as u16 {
                    *at = IN_SEVERAL_LOGS;
                }
            })?;
            let logs = self.store.package_logs(id)?;
            self.projects.insert(
                id.to_string(),
                ProjectState {
                    existing,
                    logs,
                    // Sized for the whole source at the first project met; others grow.
                    seen: KeyMap::with_capacity_and_hasher(
                        std::mem::take(&mut self.expected_packages),
                        KeyHashing::default(),
                    ),
                    open: KeyMap::default(),
                    sources: HashSet::default(),
                    facts: None,
                    sessions: None,
                },
            );
        }
        Ok(self.projects.get_mut(id).expect("inserted above"))
    }

    fn stage(&mut self, target: &Path, line: &[u8]) -> Result<()> {
        if self.opts.dry_run {
            return Ok(());
        }
        self.staging.write(self.store, target, line)
    }

    /// A package: new, the same as a version already held (nothing to write), a later version
    /// of one held (§5.3 must allow the step), or refused: its id is held with other content,
    /// here or by another project (§6.1), or it would take the package back in its lifecycle.
    fn package(&mut self, incoming: &Incoming, text: &Text) -> Result<()> {
        let store = self.store;
        let (key, hp) = (incoming.key, incoming.hash_prefix);
        let (id, hash) = (text.str(incoming.id), text.str(incoming.hash));
        let project = text.str(incoming.project);
        let st = self.project(project)?;
        // The version this one would follow: the one the source carried last, else the
        // store's current version.
        let before = match st.seen.get(&key) {
            Some(&seen) if seen == hp => Before::Same,
            Some(&seen) => {
                let (status, version) = st.open.get(&key).copied().unwrap_or((Status::Complete, 0));
                Before::Version(status, version, Err(seen))
            }
            // Only the log that holds the id is looked in (its index was brought up to date
            // when the project was first met).
            None => match st.existing.get(&key) {
                Some(&at) => {
                    let logs = match st.logs.get(usize::from(at)) {
                        Some(log) => std::slice::from_ref(log),
                        None => st.logs.as_slice(),
                    };
                    let versions = store.package_versions_in(logs, id)?;
                    if versions.iter().any(|v| v.hash == hash) {
                        Before::Same
                    } else {
                        // None only for another id with the same key.
                        (versions.into_iter())
                            .max_by(relay_store::packages::version_order)
                            .map_or(Before::Nothing, |c| {
                                Before::Version(c.package.status(), c.version, Ok(c.package))
                            })
                    }
                }
                None => Before::Nothing,
            },
        };
        let (from, version, earlier) = match before {
            Before::Same => {
                // Held already: a fact of the source may name it without a lookup.
                self.project(project)?.sources.insert(key);
                bump(&mut self.summary.unchanged, Kind::Packages);
                return Ok(());
            }
            Before::Nothing => {
                if self.held_elsewhere(project, key, id)? {
                    return self.refuse(Kind::Packages, id, Error::DuplicatePackageId(id.into()));
                }
                let st = self.project(project)?;
                st.seen.insert(key, hp);
                if incoming.status != Status::Complete {
                    st.open.insert(key, (incoming.status, 1));
                }
                self.stage(text.log(incoming.log), text.bytes(incoming.line))?;
                bump(&mut self.summary.added, Kind::Packages);
                return Ok(());
            }
            Before::Version(from, version, earlier) => (from, version, earlier),
        };
        let p = incoming.package(text)?;
        let same = match &earlier {
            Ok(stored) => rules::same_but_review(stored, &p),
            Err(prefix) => rules::same_as_earlier(&p, from, *prefix),
        };
        if !same {
            return self.refuse(Kind::Packages, id, Error::DuplicatePackageId(id.into()));
        }
        let to = p.status();
        if to == from {
            // The same state under another review type: nothing moves.
            bump(&mut self.summary.unchanged, Kind::Packages);
            return Ok(());
        }
        if !from.may_become(to) {
            let error = Error::InvalidTransition {
                package_id: id.to_string(),
                from: from.as_str().to_string(),
                action: format!("import a `{}` version of", to.as_str()),
            };
            return self.refuse(Kind::Packages, id, error);
        }
        let next = rules::next_version(p, hash, from, version);
        let st = self.project(project)?;
        st.seen.insert(key, hp);
        match to {
            Status::Complete => st.open.remove(&key),
            _ => st.open.insert(key, (to, next.version)),
        };
        let line = ndjson::to_line(&next.to_envelope())?;
        self.stage(&store.package_log_for(&next.package), &line)?;
        bump(&mut self.summary.added, Kind::Packages);
        Ok(())
    }

    /// A fact or session: written when it is newer than the store's current version of its
    /// id and not a line already staged.
    fn versioned<T: Ending>(
        &mut self,
        version: &Version,
        text: &Text,
        kind: Kind,
        path_of: fn(&Store, &str) -> PathBuf,
        table_of: fn(&mut ProjectState) -> &mut Option<VersionTable<T>>,
    ) -> Result<()> {
        let project = text.str(version.project);
        let path = path_of(self.store, project);
        if self
            .table(project, &path, table_of)?
            .is_new(version, text)?
        {
            self.stage(&path, text.bytes(version.line))?;
            bump(&mut self.summary.added, kind);
        } else {
            bump(&mut self.summary.unchanged, kind);
        }
        Ok(())
    }

    /// The version table of a fact or session log of `project` (at `path`), loaded when
    /// first needed.
    fn table<T: Ending>(
        &mut self,
        project: &str,
        path: &Path,
        table_of: fn(&mut ProjectState) -> &mut Option<VersionTable<T>>,
    ) -> Result<&mut VersionTable<T>> {
        let slot = table_of(self.project(project)?);
        Ok(match slot {
            Some(t) => t,
            None => slot.insert(VersionTable::load(path.to_path_buf())?),
        })
    }

    /// Whether a fact version would be written: it is not in the store or staged already.
    fn fact_would_be_added(&mut self, fact: &Version, text: &Text) -> Result<bool> {
        let project = text.str(fact.project);
        let path = self.store.facts_log(project);
        let table = self.table::<Fact>(project, &path, |st| &mut st.facts)?;
        Ok(table.is_newer(fact, text)? == std::cmp::Ordering::Greater
            && !table.written.contains(&fact.line_digest))
    }

    fn record(&mut self, rec: Checked, text: &Text) -> Result<()> {
        match rec {
            Checked::Project(p) => {
                self.stream_projects.push(p);
                Ok(())
            }
            Checked::Package(p) => self.package(&p, text),
            Checked::Fact(f) => self.fact(f, text, false),
            Checked::Session(s) => {
                self.versioned::<Session>(&s, text, Kind::Sessions, Store::sessions_log, |st| {
                    &mut st.sessions
                })
            }
        }
    }

    /// Projects: those missing are created; every project a record names must exist after.
    fn projects_to_create(&mut self) -> Result<Vec<Project>> {
        let existing = self.store.projects()?;
        let mut new_projects: Vec<Project> = Vec::new();
        for p in std::mem::take(&mut self.stream_projects) {
            self.needed.remove(p.id());
            match existing.get(p.id()) {
                Some(_) => bump(&mut self.summary.unchanged, Kind::Projects),
                None if new_projects.iter().any(|n| n.id() == p.id()) => {}
                None => {
                    new_projects.push(p);
                    bump(&mut self.summary.added, Kind::Projects);
                }
            }
        }
        for id in self.needed.iter().filter(|id| !existing.contains_key(*id)) {
            let ts = time::format(time::now());
            new_projects.push(Project::from_value(
                json!({"project_id": id, "name": id, "created_at": ts, "updated_at": ts}),
            )?);
            bump(&mut self.summary.added, Kind::Projects);
        }
        Ok(new_projects)
    }

    /// Appends what was staged: projects first, then each log's lines ([`Staging::commit`]).
    fn commit(&mut self, new_projects: Vec<Project>) -> Result<()> {
        if !new_projects.is_empty() {
            self.store.append_records(
                &self.store.projects_log(),
                &new_projects.iter().collect::<Vec<_>>(),
            )?;
        }
        std::mem::take(&mut self.staging).commit(self.store)
    }
}

/// Reads one source file and judges its records in order. A reader thread cuts the file into
/// chunks of whole lines; two threads check whole chunks, each its own; this thread takes the
/// results back in order and judges them, while the next chunks are being checked.
fn judge_file(
    store: &Store,
    opts: &ImportOptions,
    file: &SourceFile,
    run: &mut Run<'_>,
    progress: &mut dyn FnMut(u64),
) -> Result<()> {
    use std::sync::{Mutex, mpsc};
    let io = |e| Error::io(format!("cannot read {}", file.path.display()), e);
    let failed = || Error::Integrity("an import thread failed".into());
    let (chunk_tx, chunk_rx) = mpsc::sync_channel::<(u64, Chunk)>(2);
    // Shared by the checkers; the first to stop drops it, so that the reader stops too.
    let chunk_rx = Mutex::new(Some(chunk_rx));
    struct Closing<'a, T>(&'a Mutex<Option<T>>);
    impl<T> Drop for Closing<'_, T> {
        fn drop(&mut self) {
            self.0.lock().unwrap_or_else(|e| e.into_inner()).take();
        }
    }
    let (done_tx, done_rx) = mpsc::sync_channel::<CheckedChunk>(2);
    std::thread::scope(|scope| -> Result<()> {
        let reader = scope.spawn(move || -> Result<Option<String>> {
            let handle = std::fs::File::open(&file.path).map_err(io)?;
            let mut reader = BufReader::with_capacity(1 << 20, handle);
            // The manifest's digest, only when there is one to compare with.
            let mut hasher = file.expected.as_ref().map(|_| Sha256::new());
            let (mut line_no, mut number) = (1u64, 0u64);
            loop {
                let bytes = read_chunk(&mut reader).map_err(io)?;
                if bytes.is_empty() {
                    break;
                }
                if let Some(h) = hasher.as_mut() {
                    h.update(&bytes);
                }
                let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
                let chunk = Chunk {
                    bytes,
                    first_line: line_no,
                };
                line_no += lines;
                if chunk_tx.send((number, chunk)).is_err() {
                    break; // the judge stopped at an error
                }
                number += 1;
            }
            Ok(hasher.map(|h| h.finalize().iter().map(|b| format!("{b:02x}")).collect()))
        });
        let checkers: Vec<_> = (0..2)
            .map(|_| {
                let (chunk_rx, done_tx) = (&chunk_rx, done_tx.clone());
                scope.spawn(move || {
                    let _closing = Closing(chunk_rx);
                    loop {
                        let next = match chunk_rx.lock().as_deref() {
                            Ok(Some(rx)) => rx.recv().ok(),
                            _ => None,
                        };
                        let Some((number, chunk)) = next else { break };
                        let checked = check_chunk(store, opts, number, &chunk, &file.label);
                        if done_tx.send(checked).is_err() {
                            break;
                        }
                    }
                })
            })
            .collect();
        drop(done_tx);
        // Chunks come back in any order; they are judged in file order.
        let mut early: BTreeMap<u64, CheckedChunk> = BTreeMap::new();
        let mut next = 0u64;
        let judged = (|| -> Result<()> {
            for checked in &done_rx {
                early.insert(checked.number, checked);
                while let Some(chunk) = early.remove(&next) {
                    for rec in chunk.records {
                        run.record(rec?, &chunk.text)?;
                    }
                    progress(chunk.size);
                    next += 1;
                }
            }
            Ok(())
        })();
        // On an error, stop the others: they see their channels close.
        drop(done_rx);
        for c in checkers {
            c.join().map_err(|_| failed())?;
        }
        let digest = reader.join().map_err(|_| failed())??;
        judged?;
        if let (Some(expected), Some(actual)) = (&file.expected, digest)
            && *expected != format!("sha256:{actual}")
        {
            return Err(Error::Integrity(format!(
                "{} does not match the manifest (expected {expected}, found sha256:{actual}); the backup is damaged",
                file.path.display()
            )));
        }
        Ok(())
    })
}

/// Imports `source`. See the module header for how.
pub fn import(
    store: &Store,
    source: &Source,
    opts: &ImportOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<ImportSummary> {
    let total = source.bytes();
    let mut done = 0u64;
    let mut run = Run {
        store,
        opts,
        summary: ImportSummary {
            dry_run: opts.dry_run,
            ..Default::default()
        },
        projects: HashMap::new(),
        expected_packages: (total / BYTES_PER_PACKAGE) as usize,
        stream_projects: Vec::new(),
        needed: BTreeSet::new(),
        locks: Vec::new(),
        staging: Staging::default(),
        elsewhere: None,
        waiting: Vec::new(),
    };
    // New projects are created under the projects lock, held from the start so that the
    // projects judged new are still new when written; and package ids are checked against
    // every project under the store-wide ids lock, taken before any project's.
    // A backup's signatures are read first, so a damaged file writes nothing.
    let carried = signatures::read(source.signatures.as_ref())?;
    let _locks = if opts.dry_run {
        None
    } else {
        Some((store.lock("projects")?, store.lock_package_ids()?))
    };
    for file in &source.files {
        judge_file(store, opts, file, &mut run, &mut |size| {
            done += size;
            progress(done, total);
        })?;
    }
    for (fact, text) in std::mem::take(&mut run.waiting) {
        run.fact(fact, &text, true)?;
    }
    let new_projects = run.projects_to_create()?;
    if !opts.dry_run {
        run.commit(new_projects)?;
        // The projects' locks are taken again, one at a time, for their signatures.
        run.locks.clear();
        let mut projects: Vec<String> = run.projects.keys().cloned().collect();
        projects.sort();
        run.summary.signatures = signatures::carry(store, &projects, &carried)?;
    }
    progress(total, total);
    Ok(run.summary)
}
