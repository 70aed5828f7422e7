//! Import (§10.3) at the speed of the disk and in bounded memory: the source is read once, as
//! a stream, in chunks whose lines two threads parse and validate; each record is then judged
//! against a snapshot of the store and the records before it, and what is new is staged in
//! files under `cache/`. Only when every record has passed are the staged lines appended to
//! the logs, under the locks of the projects they touch. A conflict or a bad record anywhere
//! writes nothing.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::backup::{ImportOptions, ImportSummary, Kind, OnConflict};
use crate::error::{Error, Result, SchemaError};
use crate::search::index::{hash_prefix, id_key};
use crate::store::config::SecretPolicy;
use crate::store::packages::StoredPackage;
use crate::store::records::{Versioned, end_order};
use crate::store::{Store, log};
use crate::wire::{Fact, Package, Project, Session, Status, canonical, time};

/// Lines parsed per chunk: enough to keep two threads busy, little enough to bound memory.
const CHUNK_BYTES: usize = 1 << 20;

/// One file of a source, with the SHA-256 its manifest promises (if any).
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub label: String,
    pub expected: Option<String>,
}

/// What an import reads: files in order, and a folder of temporary files to remove after.
#[derive(Debug, Default)]
pub struct Source {
    pub files: Vec<SourceFile>,
    /// Kept for its `Drop`: the spooled files go when the source does.
    _spool: Option<Spool>,
}

/// A temporary folder under `cache/`, removed when dropped.
#[derive(Debug)]
struct Spool(PathBuf);

impl Spool {
    fn new(store: &Store, what: &str) -> Result<Spool> {
        let dir = store.layout().cache_dir().join(format!(
            "{what}-{}-{}",
            std::process::id(),
            crate::wire::ids::new_id("s")
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        Ok(Spool(dir))
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Source {
    /// A stream from `reader` (stdin), spooled to a file so that it can be read in chunks.
    pub fn spooled(store: &Store, mut reader: impl Read, label: &str) -> Result<Source> {
        let spool = Spool::new(store, "import")?;
        let path = spool.0.join("stream.ndjson");
        let mut f = std::fs::File::create(&path)
            .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
        std::io::copy(&mut reader, &mut f)
            .map_err(|e| Error::io(format!("cannot read {label}"), e))?;
        Ok(Source {
            files: vec![SourceFile {
                path,
                label: label.to_string(),
                expected: None,
            }],
            _spool: Some(spool),
        })
    }

    /// Another store's records, exported to a spooled stream first (a line whose hash does not
    /// match is an error).
    pub fn from_store(store: &Store, root: &Path) -> Result<Source> {
        let other = Store::open(root.to_path_buf())?;
        let projects: Vec<String> = super::projects::list(&other)?
            .iter()
            .map(|p| p.id().to_string())
            .collect();
        let spool = Spool::new(store, "import")?;
        let path = spool.0.join("store.ndjson");
        let file = std::fs::File::create(&path)
            .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        super::backup::each_record(&other, &projects, &mut |_, lines, _| {
            out.write_all(lines)
                .map_err(|e| Error::io("cannot write the spooled records", e))
        })?;
        out.flush()
            .map_err(|e| Error::io("cannot write the spooled records", e))?;
        if let Some(w) = (other.diagnostics().take().into_iter())
            .find(|w| w.kind == crate::store::WarningKind::HashMismatch)
        {
            return Err(Error::Integrity(format!(
                "{}:{}: {}",
                w.path.display(),
                w.line,
                w.message
            )));
        }
        Ok(Source {
            files: vec![SourceFile {
                path,
                label: root.display().to_string(),
                expected: None,
            }],
            _spool: Some(spool),
        })
    }

    /// What `path` holds: a backup folder (its files checked against the manifest as they
    /// are read), another store's `.relay/` folder, a folder of record files without a
    /// manifest (`force`), or an NDJSON stream file.
    pub fn open(store: &Store, path: &Path, force: bool) -> Result<Source> {
        let io = |e| Error::io(format!("cannot read {}", path.display()), e);
        let single = |p: &Path| SourceFile {
            path: p.to_path_buf(),
            label: p.display().to_string(),
            expected: None,
        };
        if !path.is_dir() {
            std::fs::metadata(path).map_err(io)?;
            return Ok(Source {
                files: vec![single(path)],
                _spool: None,
            });
        }
        let manifest_path = path.join(super::backup::MANIFEST);
        if manifest_path.is_file() {
            let manifest: Value = serde_json::from_slice(
                &std::fs::read(&manifest_path).map_err(io)?,
            )
            .map_err(|e| {
                Error::InvalidInput(format!(
                    "{} is not valid JSON: {e}",
                    manifest_path.display()
                ))
            })?;
            let listed = manifest
                .get("files")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let mut files = Vec::new();
            for k in super::backup::KINDS {
                let name = format!("{k}.ndjson");
                let file = path.join(&name);
                if !file.is_file() {
                    if listed.contains_key(&name) {
                        return Err(Error::Integrity(format!(
                            "{} is listed in the manifest but missing; the backup is damaged",
                            file.display()
                        )));
                    }
                    continue;
                }
                files.push(SourceFile {
                    expected: listed
                        .get(&name)
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    ..single(&file)
                });
            }
            return Ok(Source {
                files,
                _spool: None,
            });
        }
        if path.join("projects").is_dir() && path.join("projects.ndjson").is_file() {
            return Source::from_store(store, path);
        }
        let files: Vec<SourceFile> = (super::backup::KINDS.iter())
            .map(|k| path.join(format!("{k}.ndjson")))
            .filter(|f| f.is_file())
            .map(|f| single(&f))
            .collect();
        if files.is_empty() {
            return Err(Error::InvalidInput(format!(
                "{} is neither a backup folder, a relay store, nor an NDJSON file",
                path.display()
            )));
        }
        if !force {
            return Err(Error::InvalidInput(format!(
                "{} has no {}: it is a partial backup (the manifest is written last); pass --force to import it anyway",
                path.display(),
                super::backup::MANIFEST
            )));
        }
        Ok(Source {
            files,
            _spool: None,
        })
    }

    /// The total size of the files, for progress.
    pub fn bytes(&self) -> u64 {
        (self.files.iter())
            .filter_map(|f| std::fs::metadata(&f.path).ok())
            .map(|m| m.len())
            .sum()
    }
}

/// A package that passed every check: what judging it needs, and its line as a first version
/// (the package itself is dropped by the thread that parsed it).
struct Incoming {
    project: String,
    id: String,
    hash: String,
    line: Vec<u8>,
    log: PathBuf,
}

impl Incoming {
    /// The package again, from its line: only for the rare id the store already holds.
    fn package(&self) -> Result<Package> {
        let env: Map<String, Value> = serde_json::from_slice(&self.line)
            .map_err(|e| Error::Integrity(format!("cannot re-read a staged package: {e}")))?;
        Ok(Package::from_value(
            env.get("package").cloned().unwrap_or_default(),
        )?)
    }
}

/// A record that passed every check, ready to be judged.
enum Checked {
    Project(Project),
    Package(Incoming),
    Fact(Fact),
    Session(Session),
}

fn schema_at(location: &dyn std::fmt::Display, e: SchemaError) -> Error {
    Error::InvalidSchema(SchemaError::new(
        e.field,
        format!("{} (at {location})", e.problem),
    ))
}

/// One line of a stream read as a wire record: its kind, the record, and the hash the line
/// carried (a store's package line is an envelope; a backup's is the bare package).
pub fn parse_record(
    line: &[u8],
    location: &dyn std::fmt::Display,
) -> Result<(Kind, Map<String, Value>, Option<String>)> {
    let value: Value = serde_json::from_slice(line)
        .map_err(|e| Error::malformed_json(location.to_string(), &e))?;
    let Value::Object(mut map) = value else {
        return Err(Error::InvalidInput(format!(
            "{location}: a record must be a JSON object"
        )));
    };
    let mut carried = None;
    if let (Some(Value::Object(_)), Some(Value::String(h))) = (map.get("package"), map.get("hash"))
    {
        carried = Some(h.clone());
        if let Some(Value::Object(p)) = map.remove("package") {
            map = p;
        }
    }
    let kind = Kind::of(&map).ok_or_else(|| {
        Error::InvalidInput(format!(
            "{location}: not a wire record (no package_id, fact_id, session_id or project_id)"
        ))
    })?;
    Ok((kind, map, carried))
}

/// Parses and checks one line: JSON, kind, carried hash, project map, limits, secrets, schema.
fn check_line(store: &Store, opts: &ImportOptions, line: &[u8], at: &Loc) -> Result<Checked> {
    let location = at;
    let (kind, mut map, carried) = parse_record(line, at)?;
    // Hashes are checked as the source wrote them; --project-map applies after.
    let mut known_hash = None;
    if kind == Kind::Packages
        && let Some(h) = &carried
    {
        let computed = canonical::content_hash_of_map(&map);
        if *h != computed {
            let id = map.get("package_id").and_then(Value::as_str).unwrap_or("?");
            return Err(Error::Integrity(format!(
                "{location}: package {id} does not match the hash it carries ({h}, computed {computed})"
            )));
        }
        known_hash = Some(computed);
    }
    let mut remapped = false;
    if let Some(Value::String(p)) = map.get("project_id")
        && let Some(new) = opts.project_map.get(p)
    {
        map.insert("project_id".into(), Value::String(new.clone()));
        remapped = true;
    }
    store
        .config()
        .limits()
        .check_record("the record", &map)
        .map_err(|e| Error::InvalidInput(format!("{location}: {e}")))?;
    super::secrets::guard(store, &mut map).map_err(|e| match e {
        Error::SecretDetected {
            field,
            rule,
            preview,
        } => Error::SecretDetected {
            field: format!("{field}` at `{location}"),
            rule,
            preview,
        },
        e => e,
    })?;
    Ok(match kind {
        Kind::Projects => {
            Checked::Project(Project::from_map(map).map_err(|e| schema_at(location, e))?)
        }
        Kind::Packages => {
            let p = Package::from_map(map).map_err(|e| schema_at(location, e))?;
            // Unchanged since its hash was checked: no need to hash it again.
            let hash = match known_hash {
                Some(h) if !remapped && store.secret_policy() != SecretPolicy::Redact => h,
                _ => p.content_hash(),
            };
            Checked::Package(Incoming {
                project: p.project_id().to_string(),
                id: p.id().to_string(),
                line: StoredPackage::envelope_line(&p, &hash)?,
                log: store.package_log_for(&p),
                hash,
            })
        }
        Kind::Facts => Checked::Fact(Fact::from_map(map).map_err(|e| schema_at(location, e))?),
        Kind::Sessions => {
            Checked::Session(Session::from_map(map).map_err(|e| schema_at(location, e))?)
        }
    })
}

/// The first 128 bits of a SHA-256: a compact identity for a line or a canonical form.
fn digest(bytes: &[u8]) -> u128 {
    let d = Sha256::digest(bytes);
    u128::from_le_bytes(d[..16].try_into().unwrap_or_default())
}

/// A versioned record of a project (a fact or a session).
trait Ending: Versioned {
    fn project_id(&self) -> &str;
}
impl Ending for Fact {
    fn project_id(&self) -> &str {
        self.str_field("project_id").unwrap_or_default()
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
    slots: HashMap<u128, Slot>,
    written: HashSet<u128>,
    _kind: std::marker::PhantomData<T>,
}

impl<T: Ending> VersionTable<T> {
    fn load(store: &Store, path: PathBuf) -> Result<VersionTable<T>> {
        let mut table = VersionTable {
            path,
            slots: HashMap::new(),
            written: HashSet::new(),
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
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let (mut buf, mut offset) = (Vec::new(), 0u64);
        loop {
            buf.clear();
            let n = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| Error::io(format!("cannot read {}", table.path.display()), e))?;
            if n == 0 || buf.last() != Some(&b'\n') {
                break;
            }
            if let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(&buf)
                && let Ok(rec) = T::parse(map)
                && table.is_newer(store, &rec)? == std::cmp::Ordering::Greater
            {
                table
                    .slots
                    .insert(digest(rec.record_id().as_bytes()), Self::slot(&rec, offset));
            }
            offset += n as u64;
        }
        Ok(table)
    }

    fn slot(rec: &T, offset: u64) -> Slot {
        let value = serde_json::to_value(rec).unwrap_or_default();
        Slot {
            end: rec.end(),
            canonical: digest(canonical::to_canonical_string(&value).as_bytes()),
            offset,
        }
    }

    /// How `rec` compares with the current version of its id (Greater when there is none),
    /// by the store's version order.
    fn is_newer(&self, _store: &Store, rec: &T) -> Result<std::cmp::Ordering> {
        let Some(cur) = self.slots.get(&digest(rec.record_id().as_bytes())) else {
            return Ok(std::cmp::Ordering::Greater);
        };
        let by_end = end_order(rec.end(), cur.end);
        if by_end != std::cmp::Ordering::Equal {
            return Ok(by_end);
        }
        let value = serde_json::to_value(rec).unwrap_or_default();
        let text = canonical::to_canonical_string(&value);
        if digest(text.as_bytes()) == cur.canonical {
            return Ok(std::cmp::Ordering::Equal);
        }
        // Same end, other content: the canonical forms decide; read the current one back.
        let mut f = std::fs::File::open(&self.path)
            .map_err(|e| Error::io(format!("cannot read {}", self.path.display()), e))?;
        f.seek(SeekFrom::Start(cur.offset))
            .map_err(|e| Error::io(format!("cannot read {}", self.path.display()), e))?;
        let mut line = Vec::new();
        BufReader::new(f)
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::io(format!("cannot read {}", self.path.display()), e))?;
        let current: Value = serde_json::from_slice(&line).unwrap_or_default();
        Ok(text.cmp(&canonical::to_canonical_string(&current)))
    }

    /// Whether `rec` adds anything: newer than what the store holds, and not a line already
    /// staged.
    fn is_new(&mut self, store: &Store, rec: &T, line: &[u8]) -> Result<bool> {
        Ok(self.is_newer(store, rec)? == std::cmp::Ordering::Greater
            && self.written.insert(digest(line)))
    }
}

/// What the import knows of one project while it reads.
struct ProjectState {
    /// Keys of the ids the store held when the project was first met.
    existing: HashMap<u64, u16>,
    /// The project's package logs when it was first met (`existing` points into it).
    logs: Vec<PathBuf>,
    /// Keys of the ids met in the source, with their hash prefix.
    seen: HashMap<u64, u64>,
    facts: Option<VersionTable<Fact>>,
    sessions: Option<VersionTable<Session>>,
}

/// In `ProjectState::existing`: the id has lines in more than one log.
const IN_SEVERAL_LOGS: u16 = u16::MAX;

/// The state of one import.
struct Run<'a> {
    store: &'a Store,
    opts: &'a ImportOptions,
    summary: ImportSummary,
    projects: HashMap<String, ProjectState>,
    stream_projects: Vec<Project>,
    needed: BTreeSet<String>,
    locks: Vec<crate::store::lock::LockGuard>,
    /// The staged files, in the order their logs were first met.
    staged: Vec<Staged>,
    /// Target log → its place in `staged`; and the last one used, which most lines share.
    staged_at: HashMap<std::ffi::OsString, usize>,
    last_staged: Option<usize>,
    spool: Option<Spool>,
}

/// The new lines of one log, written to a file under `cache/` until the import commits.
struct Staged {
    target: PathBuf,
    path: PathBuf,
    writer: std::io::BufWriter<std::fs::File>,
}

fn bump(c: &mut super::backup::Counts, k: Kind) {
    *c.entry(k).or_default() += 1;
}

impl Run<'_> {
    fn project(&mut self, id: &str) -> Result<&mut ProjectState> {
        if !self.projects.contains_key(id) {
            self.needed.insert(id.to_string());
            if !self.opts.dry_run {
                self.locks.push(self.store.lock_project(id)?);
            }
            let mut existing = HashMap::new();
            super::catalog::warm(self.store, id)?;
            let logs = self.store.package_logs(id)?;
            for (i, log) in logs.iter().enumerate() {
                let month = super::catalog::MonthCatalog::load(self.store, log)?;
                for e in &month.entries {
                    // An id in two logs (versions that disagree on their month) is looked up
                    // in every log.
                    let at = existing.entry(id_key(month.id(e))).or_insert(i as u16);
                    if *at != i as u16 {
                        *at = IN_SEVERAL_LOGS;
                    }
                }
            }
            self.projects.insert(
                id.to_string(),
                ProjectState {
                    existing,
                    logs,
                    seen: HashMap::new(),
                    facts: None,
                    sessions: None,
                },
            );
        }
        Ok(self.projects.get_mut(id).expect("inserted above"))
    }

    fn stage(&mut self, target: PathBuf, line: &[u8]) -> Result<()> {
        if self.opts.dry_run {
            return Ok(());
        }
        // Paths are compared as bytes: comparing them as paths, component by component, was a
        // twentieth of an import's time.
        let at = match self.last_staged {
            Some(i) if self.staged[i].target.as_os_str() == target.as_os_str() => i,
            _ => match self.staged_at.get(target.as_os_str()) {
                Some(&i) => i,
                None => {
                    let spool = match &self.spool {
                        Some(s) => s,
                        None => self.spool.insert(Spool::new(self.store, "staged")?),
                    };
                    let path = spool.0.join(format!("{}.ndjson", self.staged.len()));
                    let f = std::fs::File::create(&path)
                        .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
                    let writer = std::io::BufWriter::with_capacity(1 << 16, f);
                    self.staged_at
                        .insert(target.clone().into_os_string(), self.staged.len());
                    self.staged.push(Staged {
                        target,
                        path,
                        writer,
                    });
                    self.staged.len() - 1
                }
            },
        };
        self.last_staged = Some(at);
        self.staged[at]
            .writer
            .write_all(line)
            .map_err(|e| Error::io("cannot stage the import", e))
    }

    fn package(&mut self, incoming: Incoming) -> Result<()> {
        let store = self.store;
        let project = incoming.project.clone();
        let hash = incoming.hash.clone();
        let (key, hp) = (id_key(&incoming.id), hash_prefix(&hash));
        let on_conflict = self.opts.on_conflict;
        let st = self.project(&project)?;
        if st.seen.get(&key) == Some(&hp) {
            bump(&mut self.summary.unchanged, Kind::Packages);
            return Ok(());
        }
        let mut in_store = false;
        if let Some(&at) = st.existing.get(&key) {
            // Only the log that holds the id is looked in (its index was brought up to date
            // when the project was first met).
            let logs = match st.logs.get(usize::from(at)) {
                Some(log) => std::slice::from_ref(log),
                None => st.logs.as_slice(),
            };
            let versions = store.package_versions_in(logs, &incoming.id)?;
            if versions.iter().any(|v| v.hash == hash) {
                bump(&mut self.summary.unchanged, Kind::Packages);
                return Ok(());
            }
            in_store = !versions.is_empty();
            let current = versions
                .into_iter()
                .max_by(crate::store::packages::version_order);
            // The same package at another point of its review: a later version, not a conflict.
            let p = incoming.package()?;
            if let Some(current) = current
                && !st.seen.contains_key(&key)
                && same_but_review(&current.package, &p)
            {
                if current.package.status() == Status::Complete
                    || (p.status() != Status::Complete && p.status() == current.package.status())
                {
                    bump(&mut self.summary.unchanged, Kind::Packages);
                    return Ok(());
                }
                st.seen.insert(key, hp);
                let next = StoredPackage {
                    version: current.version + 1,
                    transition: Some(json!({
                        "action": "import", "from": current.package.status().as_str(), "to": p.status().as_str(),
                        "by": {"id": "relay import", "type": "script"}, "at": time::format(time::now()),
                        "note": "a later version of the package, imported from a backup",
                    })),
                    hash,
                    package: p,
                    location: current.location.clone(),
                };
                let line = log::to_line(&next.to_envelope())?;
                self.stage(store.package_log_for(&next.package), &line)?;
                bump(&mut self.summary.added, Kind::Packages);
                return Ok(());
            }
        }
        if in_store || st.seen.contains_key(&key) {
            return match on_conflict {
                OnConflict::Skip => {
                    bump(&mut self.summary.skipped, Kind::Packages);
                    Ok(())
                }
                OnConflict::Fail => Err(Error::DuplicatePackageId(incoming.id)),
            };
        }
        st.seen.insert(key, hp);
        self.stage(incoming.log, &incoming.line)?;
        bump(&mut self.summary.added, Kind::Packages);
        Ok(())
    }

    /// A fact or session: written when it is newer than the store's current version of its
    /// id and not a line already staged.
    fn versioned<T: Ending>(
        &mut self,
        rec: T,
        kind: Kind,
        path_of: fn(&crate::store::Layout, &str) -> PathBuf,
        table_of: fn(&mut ProjectState) -> &mut Option<VersionTable<T>>,
    ) -> Result<()> {
        let store = self.store;
        let project = rec.project_id().to_string();
        let path = path_of(store.layout(), &project);
        let slot = table_of(self.project(&project)?);
        let table = match slot {
            Some(t) => t,
            None => slot.insert(VersionTable::load(store, path.clone())?),
        };
        let line = log::to_line(&rec)?;
        if table.is_new(store, &rec, &line)? {
            self.stage(path, &line)?;
            bump(&mut self.summary.added, kind);
        } else {
            bump(&mut self.summary.unchanged, kind);
        }
        Ok(())
    }

    fn record(&mut self, rec: Checked) -> Result<()> {
        match rec {
            Checked::Project(p) => {
                self.stream_projects.push(p);
                Ok(())
            }
            Checked::Package(p) => self.package(p),
            Checked::Fact(f) => {
                self.versioned(f, Kind::Facts, crate::store::Layout::facts_file, |st| {
                    &mut st.facts
                })
            }
            Checked::Session(s) => self.versioned(
                s,
                Kind::Sessions,
                crate::store::Layout::sessions_file,
                |st| &mut st.sessions,
            ),
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

    /// Appends what was staged: projects first, then each log's lines. A log that is new (or
    /// empty) takes its staged file whole, by a rename; others get whole lines, a few MiB per
    /// write, so memory stays small however much is new.
    fn commit(&mut self, new_projects: Vec<Project>) -> Result<()> {
        if !new_projects.is_empty() {
            self.store.append_records(
                &self.store.layout().projects_file(),
                &new_projects.iter().collect::<Vec<_>>(),
            )?;
        }
        self.staged_at.clear();
        self.last_staged = None;
        for staged in std::mem::take(&mut self.staged) {
            let Staged {
                target,
                path,
                writer,
            } = staged;
            drop(
                writer
                    .into_inner()
                    .map_err(|e| Error::io("cannot stage the import", e.into_error()))?,
            );
            if self.store.adopt(&target, &path)? {
                continue;
            }
            let io = |e| Error::io(format!("cannot read {}", path.display()), e);
            let mut reader =
                BufReader::with_capacity(1 << 20, std::fs::File::open(&path).map_err(io)?);
            loop {
                let bytes = read_chunk(&mut reader).map_err(io)?;
                if bytes.is_empty() {
                    break;
                }
                self.store.append(&target, &bytes)?;
            }
        }
        Ok(())
    }
}

/// Whether two packages differ at most in their review state (`status`, `review_type`).
fn same_but_review(a: &Package, b: &Package) -> bool {
    let strip = |p: &Package| {
        let mut m = p.as_map().clone();
        m.remove("status");
        m.remove("review_type");
        canonical::to_canonical_string(&Value::Object(m))
    };
    strip(a) == strip(b)
}

/// Where a line is, for messages: `file:line`.
struct Loc<'a> {
    label: &'a str,
    line: u64,
}

impl std::fmt::Display for Loc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.label, self.line)
    }
}

/// The next whole lines of `reader`, about [`CHUNK_BYTES`] of them; empty at the end.
fn read_chunk(reader: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(CHUNK_BYTES + 4096);
    while bytes.len() < CHUNK_BYTES && reader.read_until(b'\n', &mut bytes)? > 0 {}
    Ok(bytes)
}

/// One chunk of a source file: whole lines, with the number of the first.
struct Chunk {
    bytes: Vec<u8>,
    first_line: u64,
}

/// Checks a chunk's lines on two threads; results in line order.
fn check_chunk(
    store: &Store,
    opts: &ImportOptions,
    chunk: &Chunk,
    label: &str,
) -> Vec<Result<Checked>> {
    let lines: Vec<(u64, &[u8])> = chunk
        .bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, l)| (chunk.first_line + i as u64, l))
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .collect();
    let check = |part: &[(u64, &[u8])]| -> Vec<Result<Checked>> {
        part.iter()
            .map(|&(n, l)| check_line(store, opts, l, &Loc { label, line: n }))
            .collect()
    };
    let half = lines.len() / 2;
    std::thread::scope(|s| {
        let later = s.spawn(|| check(&lines[half..]));
        let mut out = check(&lines[..half]);
        match later.join() {
            Ok(rest) => out.extend(rest),
            Err(_) => out.push(Err(Error::Integrity("an import thread failed".into()))),
        }
        out
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
        stream_projects: Vec::new(),
        needed: BTreeSet::new(),
        locks: Vec::new(),
        staged: Vec::new(),
        staged_at: HashMap::new(),
        last_staged: None,
        spool: None,
    };
    // New projects are created under the projects lock, held from the start so that the
    // projects judged new are still new when written.
    let _projects_lock = if opts.dry_run {
        None
    } else {
        Some(store.lock("projects")?)
    };
    for file in &source.files {
        // A reader thread reads and checks the next chunk while this one judges the last.
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<(u64, Vec<Result<Checked>>)>>(1);
        let judged = std::thread::scope(|scope| -> Result<()> {
            let reader_thread = scope.spawn(move || -> Result<String> {
                let io = |e| Error::io(format!("cannot read {}", file.path.display()), e);
                let file_handle = std::fs::File::open(&file.path).map_err(io)?;
                let mut reader = BufReader::with_capacity(1 << 20, file_handle);
                let mut hasher = Sha256::new();
                let mut line_no = 1u64;
                loop {
                    let bytes = read_chunk(&mut reader).map_err(io)?;
                    if bytes.is_empty() {
                        break;
                    }
                    hasher.update(&bytes);
                    let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
                    let size = bytes.len() as u64;
                    let chunk = Chunk {
                        bytes,
                        first_line: line_no,
                    };
                    line_no += lines;
                    let checked = check_chunk(store, opts, &chunk, &file.label);
                    if tx.send(Ok((size, checked))).is_err() {
                        break; // the judge stopped at an error
                    }
                }
                Ok(hasher
                    .finalize()
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect())
            });
            for batch in rx {
                let (size, checked) = batch?;
                for rec in checked {
                    run.record(rec?)?;
                }
                done += size;
                progress(done, total);
            }
            let actual = reader_thread
                .join()
                .map_err(|_| Error::Integrity("the import reader failed".into()))??;
            if let Some(expected) = &file.expected
                && *expected != format!("sha256:{actual}")
            {
                return Err(Error::Integrity(format!(
                    "{} does not match the manifest (expected {expected}, found sha256:{actual}); the backup is damaged",
                    file.path.display()
                )));
            }
            Ok(())
        });
        judged?;
    }
    let new_projects = run.projects_to_create()?;
    if !opts.dry_run {
        run.commit(new_projects)?;
    }
    progress(total, total);
    Ok(run.summary)
}
