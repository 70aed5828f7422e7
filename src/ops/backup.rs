//! Backup and restore (§5.2, §10.1, §10.3): export projects to plain wire records (a backup
//! folder with a manifest, or one NDJSON stream) and import them back, validated, hash-checked,
//! idempotent. Packages travel in their current version, facts with their whole history.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result, SchemaError};
use crate::store::packages::StoredPackage;
use crate::store::{Store, log};
use crate::wire::{Fact, Package, Project, Session, Status, time};

pub const BACKUP_FORMAT_VERSION: u64 = 1;
pub const MANIFEST: &str = "manifest.json";
pub const KINDS: [&str; 4] = ["projects", "packages", "facts", "sessions"];

/// The kind of a wire record, told by its id field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Projects,
    Packages,
    Facts,
    Sessions,
}

impl Kind {
    pub fn of(map: &Map<String, Value>) -> Option<Kind> {
        if map.contains_key("package_id") {
            Some(Kind::Packages)
        } else if map.contains_key("fact_id") {
            Some(Kind::Facts)
        } else if map.contains_key("session_id") {
            Some(Kind::Sessions)
        } else if map.contains_key("project_id") {
            Some(Kind::Projects)
        } else {
            None
        }
    }

    pub fn file(self) -> &'static str {
        match self {
            Kind::Projects => "projects.ndjson",
            Kind::Packages => "packages.ndjson",
            Kind::Facts => "facts.ndjson",
            Kind::Sessions => "sessions.ndjson",
        }
    }
}

/// Receives exported records: their kind, one or more whole JSON lines, and how many.
pub type Sink<'a> = dyn FnMut(Kind, &[u8], usize) -> Result<()> + 'a;

/// Streams every record of the chosen projects to `sink`, in a fixed order: projects, packages
/// (current versions, by creation), facts (every version that is current for its id: the
/// whole history, by key and time), sessions. Memory holds one monthly log and a compact
/// table of the facts, not the store.
pub fn each_record(store: &Store, projects: &[String], sink: &mut Sink<'_>) -> Result<()> {
    let all = super::projects::list(store)?;
    for p in all
        .iter()
        .filter(|p| projects.iter().any(|id| id == p.id()))
    {
        sink(Kind::Projects, &log::to_line(&p.to_value())?, 1)?;
    }
    for id in projects {
        each_package(store, id, sink)?;
    }
    for id in projects {
        each_fact(store, id, sink)?;
    }
    for id in projects {
        let mut sessions: Vec<Session> = store.sessions(id)?.into_values().collect();
        sessions.sort_by_cached_key(|s| {
            (
                s.str_field("started_at").and_then(|t| time::parse(t).ok()),
                s.id().to_string(),
            )
        });
        for s in sessions {
            sink(Kind::Sessions, &log::to_line(&s.to_value())?, 1)?;
        }
    }
    Ok(())
}

/// One project's packages, month by month, each month's lines turned into records by two
/// threads.
fn each_package(store: &Store, project: &str, sink: &mut Sink<'_>) -> Result<()> {
    if !store.config().search_index() {
        let mut packages: Vec<StoredPackage> =
            store.current_packages(project)?.into_values().collect();
        packages.sort_by_cached_key(|p| (p.package.created_at(), p.package.id().to_string()));
        for p in packages {
            sink(Kind::Packages, &log::to_line(&p.package.to_value())?, 1)?;
        }
        return Ok(());
    }
    for path in store.package_logs(project)? {
        let month = super::catalog::MonthCatalog::load(store, &path)?;
        let bytes = std::fs::read(&path)
            .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
        let mut entries: Vec<&super::catalog::Entry> = month.entries.iter().collect();
        entries.sort_by(|a, b| (a.created_micros, &a.id).cmp(&(b.created_micros, &b.id)));
        let half = entries.len().div_ceil(2);
        let render = |part: &[&super::catalog::Entry]| -> Result<(Vec<u8>, usize)> {
            let (mut out, mut n) = (Vec::new(), 0);
            for e in part {
                if let Some(p) = month.read_in(store, &bytes, e) {
                    out.extend(log::to_line(&p.package.to_value())?);
                    n += 1;
                }
            }
            Ok((out, n))
        };
        let (first, second) = std::thread::scope(|s| {
            let later = s.spawn(|| render(&entries[half..]));
            let first = render(&entries[..half]);
            (first, later.join())
        });
        let second = second.map_err(|_| Error::Integrity("an export thread failed".into()))?;
        for (out, n) in [first?, second?] {
            sink(Kind::Packages, &out, n)?;
        }
    }
    Ok(())
}

/// Where a fact's current version is, and what it is sorted by.
struct FactSlot {
    order: (String, String, time::Timestamp, time::Timestamp, String),
    offset: u64,
}

/// One project's facts at their current versions: a first pass finds, per fact id, the line
/// of its current version; a second reads those lines in order.
fn each_fact(store: &Store, project: &str, sink: &mut Sink<'_>) -> Result<()> {
    use crate::store::records::Versioned;
    use std::io::{BufRead, Seek, SeekFrom};
    let path = store.layout().facts_file(project);
    let io = |e| Error::io(format!("cannot read {}", path.display()), e);
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(e)),
    };
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let read_at = |r: &mut std::io::BufReader<std::fs::File>, at: u64| -> Result<Option<Fact>> {
        r.seek(SeekFrom::Start(at)).map_err(io)?;
        let mut buf = Vec::new();
        r.read_until(b'\n', &mut buf).map_err(io)?;
        Ok(match serde_json::from_slice::<Value>(&buf) {
            Ok(Value::Object(m)) => Fact::parse(m).ok(),
            _ => None,
        })
    };
    let mut slots: HashMap<String, FactSlot> = HashMap::new();
    let mut offsets = Vec::new();
    {
        // Offsets of each line, to find a version again.
        let mut offset = 0u64;
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = reader.read_until(b'\n', &mut line).map_err(io)?;
            if n == 0 {
                break;
            }
            offsets.push(offset);
            offset += n as u64;
        }
    }
    let mut line_index = 0usize;
    let mut compare =
        std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(&path).map_err(io)?);
    log::read_objects(&path, store.diagnostics(), |line, map| {
        line_index = (line as usize).saturating_sub(1);
        let Ok(f) = Fact::parse(map) else {
            store.diagnostics().warn(
                &path,
                line,
                crate::store::WarningKind::InvalidRecord,
                "not a valid fact; skipped",
            );
            return Ok(());
        };
        let offset = offsets.get(line_index).copied().unwrap_or(0);
        let replace = match slots.get(f.id()) {
            None => true,
            Some(slot) => match read_at(&mut compare, slot.offset)? {
                Some(cur) => f.version_order(&cur) == std::cmp::Ordering::Greater,
                None => true,
            },
        };
        if replace {
            let order = (
                f.subject().to_string(),
                f.predicate().to_string(),
                f.valid_from(),
                f.created_at(),
                f.id().to_string(),
            );
            slots.insert(f.id().to_string(), FactSlot { order, offset });
        }
        Ok(())
    })?;
    drop(offsets);
    let mut slots: Vec<FactSlot> = slots.into_values().collect();
    slots.sort_by(|a, b| a.order.cmp(&b.order));
    let mut out = Vec::with_capacity(1 << 20);
    let mut n = 0;
    for slot in slots {
        if let Some(f) = read_at(&mut reader, slot.offset)? {
            out.extend(log::to_line(&f.to_value())?);
            n += 1;
        }
        if out.len() >= 1 << 20 {
            sink(Kind::Facts, &out, n)?;
            out.clear();
            n = 0;
        }
    }
    sink(Kind::Facts, &out, n)
}

/// Fails when the readers skipped records (a hash mismatch, an invalid record): a backup that
/// silently leaves them out would claim to be complete.
pub fn refuse_damage(store: &Store) -> Result<()> {
    use crate::store::WarningKind;
    let warnings = store.diagnostics().take();
    let damage: Vec<_> = warnings
        .iter()
        .filter(|w| {
            matches!(
                w.kind,
                WarningKind::HashMismatch | WarningKind::InvalidRecord
            )
        })
        .collect();
    if let Some(w) = damage.first() {
        return Err(Error::Integrity(format!(
            "{} record(s) could not be read ({}:{}: {}); run `relay verify --fix` before backing up",
            damage.len(),
            w.path.display(),
            w.line,
            w.message
        )));
    }
    Ok(())
}

/// Counts per kind.
pub type Counts = BTreeMap<Kind, usize>;

fn sha256_hex(bytes: &[u8]) -> String {
    format!(
        "sha256:{}",
        Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}

/// Writes a backup folder: one NDJSON file per kind, then `manifest.json` last, so a folder
/// without a manifest is known to be partial. `dir` must not exist or be empty.
pub fn export_dir(store: &Store, projects: &[String], dir: &Path) -> Result<Counts> {
    if dir.exists()
        && std::fs::read_dir(dir)
            .map_err(|e| Error::io(format!("cannot read {}", dir.display()), e))?
            .next()
            .is_some()
    {
        return Err(Error::InvalidInput(format!(
            "{} is not empty; give a new or empty folder for the backup",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    // Each kind's file is written as its records stream in, hashed on the way.
    let mut files: BTreeMap<Kind, (std::io::BufWriter<std::fs::File>, Sha256)> = BTreeMap::new();
    for kind in [Kind::Projects, Kind::Packages, Kind::Facts, Kind::Sessions] {
        let path = dir.join(kind.file());
        let f = std::fs::File::create(&path)
            .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
        files.insert(
            kind,
            (std::io::BufWriter::with_capacity(1 << 20, f), Sha256::new()),
        );
    }
    let mut counts = Counts::new();
    each_record(store, projects, &mut |kind, lines, n| {
        use std::io::Write;
        let (w, h) = files.get_mut(&kind).expect("every kind has a file");
        h.update(lines);
        w.write_all(lines)
            .map_err(|e| Error::io(format!("cannot write {}", kind.file()), e))?;
        *counts.entry(kind).or_default() += n;
        Ok(())
    })?;
    refuse_damage(store)?;
    let mut hashes = Map::new();
    for (kind, (w, h)) in files {
        let f = w
            .into_inner()
            .map_err(|e| Error::io(format!("cannot write {}", kind.file()), e.into_error()))?;
        f.sync_all()
            .map_err(|e| Error::io(format!("cannot sync {}", kind.file()), e))?;
        let digest: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        hashes.insert(kind.file().to_string(), json!(format!("sha256:{digest}")));
        counts.entry(kind).or_default();
    }
    let manifest = json!({
        "tool": "relay",
        "tool_version": env!("CARGO_PKG_VERSION"),
        "protocol_version": crate::wire::PROTOCOL_VERSION,
        "backup_format_version": BACKUP_FORMAT_VERSION,
        "generated_at": time::format(time::now()),
        "projects": projects,
        "counts": counts,
        "files": hashes,
    });
    let mut text =
        serde_json::to_vec_pretty(&manifest).map_err(|e| Error::Integrity(e.to_string()))?;
    text.push(b'\n');
    log::write_atomic(&dir.join(MANIFEST), &text)?;
    Ok(counts)
}

/// One record read for import, with where it came from.
#[derive(Debug, Clone)]
pub struct Incoming {
    pub kind: Kind,
    pub record: Map<String, Value>,
    /// `file:line`, for errors.
    pub location: String,
    /// The hash the source carried for a package, if any.
    pub hash: Option<String>,
}

/// What an import would do, or did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ImportSummary {
    /// New records written (or to write, in a dry run), per kind.
    pub added: Counts,
    /// Records already present, identical, per kind.
    pub unchanged: Counts,
    /// Conflicting packages skipped with `--on-conflict skip`.
    pub skipped: Counts,
    pub dry_run: bool,
}

/// How an import treats a package whose id exists with other content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnConflict {
    Fail,
    Skip,
}

#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub project_map: HashMap<String, String>,
    pub dry_run: bool,
    pub on_conflict: OnConflict,
    /// Accept a backup folder without a manifest.
    pub force: bool,
}

/// Parses NDJSON text into records; `source` names it in errors.
pub fn parse_stream(bytes: &[u8], source: &str) -> Result<Vec<Incoming>> {
    let mut out = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let location = format!("{source}:{}", i + 1);
        let value: Value = serde_json::from_slice(line)
            .map_err(|e| Error::malformed_json(location.clone(), &e))?;
        let Value::Object(mut map) = value else {
            return Err(Error::InvalidInput(format!(
                "{location}: a record must be a JSON object"
            )));
        };
        // A store's package line is an envelope; a backup's is the bare package.
        let mut hash = None;
        if let (Some(Value::Object(_)), Some(Value::String(h))) =
            (map.get("package"), map.get("hash"))
        {
            hash = Some(h.clone());
            if let Some(Value::Object(p)) = map.remove("package") {
                map = p;
            }
        }
        let kind = Kind::of(&map).ok_or_else(|| {
            Error::InvalidInput(format!(
                "{location}: not a wire record (no package_id, fact_id, session_id or project_id)"
            ))
        })?;
        out.push(Incoming {
            kind,
            record: map,
            location,
            hash,
        });
    }
    Ok(out)
}

/// Reads what `path` holds: a backup folder (with its manifest checked), another store's
/// `.relay/` folder, or an NDJSON stream file.
pub fn read_source(path: &Path, force: bool) -> Result<Vec<Incoming>> {
    let io = |e| Error::io(format!("cannot read {}", path.display()), e);
    if !path.is_dir() {
        return parse_stream(
            &std::fs::read(path).map_err(io)?,
            &path.display().to_string(),
        );
    }
    if path.join(MANIFEST).is_file() {
        return read_backup(path);
    }
    let is_store = path.join("projects").is_dir() && path.join("projects.ndjson").is_file();
    if is_store {
        return read_store(path);
    }
    if KINDS
        .iter()
        .any(|k| path.join(format!("{k}.ndjson")).is_file())
    {
        if !force {
            return Err(Error::InvalidInput(format!(
                "{} has no {MANIFEST}: it is a partial backup (the manifest is written last); pass --force to import it anyway",
                path.display()
            )));
        }
        let mut out = Vec::new();
        for k in KINDS {
            let file = path.join(format!("{k}.ndjson"));
            if file.is_file() {
                out.extend(parse_stream(
                    &std::fs::read(&file).map_err(io)?,
                    &file.display().to_string(),
                )?);
            }
        }
        return Ok(out);
    }
    Err(Error::InvalidInput(format!(
        "{} is neither a backup folder, a relay store, nor an NDJSON file",
        path.display()
    )))
}

fn read_backup(dir: &Path) -> Result<Vec<Incoming>> {
    let io = |e| Error::io(format!("cannot read {}", dir.display()), e);
    let manifest: Value = serde_json::from_slice(&std::fs::read(dir.join(MANIFEST)).map_err(io)?)
        .map_err(|e| {
        Error::InvalidInput(format!(
            "{}/{MANIFEST} is not valid JSON: {e}",
            dir.display()
        ))
    })?;
    let files = manifest
        .get("files")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut out = Vec::new();
    for k in KINDS {
        let name = format!("{k}.ndjson");
        let file = dir.join(&name);
        let bytes = match std::fs::read(&file) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !files.contains_key(&name) => {
                continue;
            }
            Err(e) => return Err(Error::io(format!("cannot read {}", file.display()), e)),
        };
        if let Some(expected) = files.get(&name).and_then(Value::as_str) {
            let actual = sha256_hex(&bytes);
            if actual != expected {
                return Err(Error::Integrity(format!(
                    "{} does not match the manifest (expected {expected}, found {actual}); the backup is damaged",
                    file.display()
                )));
            }
        }
        out.extend(parse_stream(&bytes, &file.display().to_string())?);
    }
    Ok(out)
}

fn read_store(root: &Path) -> Result<Vec<Incoming>> {
    let store = Store::open(root.to_path_buf())?;
    let projects: Vec<String> = super::projects::list(&store)?
        .iter()
        .map(|p| p.id().to_string())
        .collect();
    // Envelopes whose hash does not match are skipped by the reader; report them here as errors.
    let mut bytes = Vec::new();
    each_record(&store, &projects, &mut |_, lines, _| {
        bytes.extend_from_slice(lines);
        Ok(())
    })?;
    if let Some(w) = store
        .diagnostics()
        .take()
        .into_iter()
        .find(|w| w.kind == crate::store::WarningKind::HashMismatch)
    {
        return Err(Error::Integrity(format!(
            "{}:{}: {}",
            w.path.display(),
            w.line,
            w.message
        )));
    }
    let mut records = parse_stream(&bytes, &root.display().to_string())?;
    for r in &mut records {
        r.location = root.display().to_string();
    }
    Ok(records)
}

/// Imports records. Everything is validated (and every package hash checked against the one
/// the source carries) before anything is written; then each project's records are appended
/// under its lock. Records already present and identical are left alone, so importing twice
/// changes nothing.
pub fn import(
    store: &Store,
    incoming: Vec<Incoming>,
    opts: &ImportOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<ImportSummary> {
    // A dry run first: a conflict found in a later project must not leave earlier ones written.
    if !opts.dry_run {
        let plan = ImportOptions {
            dry_run: true,
            ..opts.clone()
        };
        import_pass(store, incoming.clone(), &plan, &mut |_, _| {})?;
    }
    import_pass(store, incoming, opts, progress)
}

fn import_pass(
    store: &Store,
    incoming: Vec<Incoming>,
    opts: &ImportOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<ImportSummary> {
    // Hashes are checked as the source wrote them; --project-map applies after.
    // Then the secrets policy, as for any write.
    let remap = |mut m: Map<String, Value>, location: &str| -> Result<Map<String, Value>> {
        if let Some(Value::String(p)) = m.get("project_id")
            && let Some(new) = opts.project_map.get(p)
        {
            m.insert("project_id".into(), Value::String(new.clone()));
        }
        store
            .config()
            .limits()
            .check_record(&format!("the record at {location}"), &m)
            .map_err(Error::InvalidInput)?;
        super::secrets::guard(store, &mut m).map_err(|e| match e {
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
        Ok(m)
    };
    // Validate everything first.
    let mut projects: Vec<Project> = Vec::new();
    let mut packages: Vec<Package> = Vec::new();
    let mut facts: Vec<Fact> = Vec::new();
    let mut sessions: Vec<Session> = Vec::new();
    let at = |loc: &str, e: SchemaError| {
        Error::InvalidSchema(SchemaError::new(
            e.field,
            format!("{} (at {loc})", e.problem),
        ))
    };
    for rec in incoming {
        match rec.kind {
            Kind::Projects => projects.push(
                Project::from_map(remap(rec.record, &rec.location)?)
                    .map_err(|e| at(&rec.location, e))?,
            ),
            Kind::Packages => {
                let p = Package::from_map(rec.record).map_err(|e| at(&rec.location, e))?;
                if let Some(h) = &rec.hash
                    && *h != p.content_hash()
                {
                    return Err(Error::Integrity(format!(
                        "{}: package {} does not match the hash it carries ({h}, computed {})",
                        rec.location,
                        p.id(),
                        p.content_hash()
                    )));
                }
                packages.push(
                    Package::from_map(remap(p.into_map(), &rec.location)?)
                        .map_err(|e| at(&rec.location, e))?,
                );
            }
            Kind::Facts => facts.push(
                Fact::from_map(remap(rec.record, &rec.location)?)
                    .map_err(|e| at(&rec.location, e))?,
            ),
            Kind::Sessions => sessions.push(
                Session::from_map(remap(rec.record, &rec.location)?)
                    .map_err(|e| at(&rec.location, e))?,
            ),
        }
    }
    let mut summary = ImportSummary {
        dry_run: opts.dry_run,
        ..Default::default()
    };
    let bump = |c: &mut Counts, k: Kind| *c.entry(k).or_default() += 1;

    // Projects: those missing are created; every project a record names must exist after.
    let mut needed: BTreeSet<String> = BTreeSet::new();
    needed.extend(packages.iter().map(|p| p.project_id().to_string()));
    needed.extend(
        facts
            .iter()
            .filter_map(|f| f.str_field("project_id").map(str::to_string)),
    );
    needed.extend(
        sessions
            .iter()
            .filter_map(|s| s.str_field("project_id").map(str::to_string)),
    );
    {
        let _lock = store.lock("projects")?;
        let existing = store.projects()?;
        let mut new_projects: Vec<Project> = Vec::new();
        for p in &projects {
            needed.remove(p.id());
            match existing.get(p.id()) {
                Some(_) => bump(&mut summary.unchanged, Kind::Projects),
                None if new_projects.iter().any(|n| n.id() == p.id()) => {}
                None => {
                    new_projects.push(p.clone());
                    bump(&mut summary.added, Kind::Projects);
                }
            }
        }
        for id in needed.iter().filter(|id| !existing.contains_key(*id)) {
            let ts = time::format(time::now());
            new_projects.push(Project::from_value(
                json!({"project_id": id, "name": id, "created_at": ts, "updated_at": ts}),
            )?);
            bump(&mut summary.added, Kind::Projects);
        }
        if !opts.dry_run && !new_projects.is_empty() {
            store.append_records(
                &store.layout().projects_file(),
                &new_projects.iter().collect::<Vec<_>>(),
            )?;
        }
    }

    // Per project, under its lock.
    let mut by_project: BTreeMap<String, ProjectRecords> = BTreeMap::new();
    for p in packages {
        by_project
            .entry(p.project_id().to_string())
            .or_default()
            .0
            .push(p);
    }
    for f in facts {
        by_project
            .entry(f.str_field("project_id").unwrap_or_default().to_string())
            .or_default()
            .1
            .push(f);
    }
    for s in sessions {
        by_project
            .entry(s.str_field("project_id").unwrap_or_default().to_string())
            .or_default()
            .2
            .push(s);
    }
    let total = by_project.len();
    for (done, (project, (packages, facts, sessions))) in by_project.into_iter().enumerate() {
        progress(done, total);
        let _lock = store.lock_project(&project)?;
        // Packages: new ids are appended to their month's log; an id present with other
        // content is a conflict.
        let existing = store.current_packages(&project)?;
        let mut all_versions: HashMap<String, Vec<String>> = HashMap::new();
        store.scan_packages(&project, None, |p| {
            all_versions
                .entry(p.package.id().to_string())
                .or_default()
                .push(p.hash);
            Ok(())
        })?;
        let mut logs: BTreeMap<PathBuf, Vec<u8>> = BTreeMap::new();
        let mut seen: HashMap<String, String> = HashMap::new();
        for p in packages {
            let hash = p.content_hash();
            let known = all_versions
                .get(p.id())
                .is_some_and(|hs| hs.contains(&hash))
                || seen.get(p.id()) == Some(&hash);
            if known {
                bump(&mut summary.unchanged, Kind::Packages);
                continue;
            }
            // The same package at another point of its review: a later version, not a conflict.
            if let Some(current) = existing.get(p.id())
                && !seen.contains_key(p.id())
                && same_but_review(&current.package, &p)
            {
                if current.package.status() == Status::Complete
                    || (p.status() != Status::Complete && p.status() == current.package.status())
                {
                    bump(&mut summary.unchanged, Kind::Packages);
                    continue;
                }
                seen.insert(p.id().to_string(), hash.clone());
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
                logs.entry(store.package_log_for(&next.package))
                    .or_default()
                    .extend(log::to_line(&next.to_envelope())?);
                bump(&mut summary.added, Kind::Packages);
                continue;
            }
            if existing.contains_key(p.id()) || seen.contains_key(p.id()) {
                match opts.on_conflict {
                    OnConflict::Skip => {
                        bump(&mut summary.skipped, Kind::Packages);
                        continue;
                    }
                    OnConflict::Fail => return Err(Error::DuplicatePackageId(p.id().to_string())),
                }
            }
            seen.insert(p.id().to_string(), hash.clone());
            logs.entry(store.package_log_for(&p))
                .or_default()
                .extend(log::to_line(&StoredPackage::envelope(&p, &hash))?);
            bump(&mut summary.added, Kind::Packages);
        }
        // Facts and sessions: a version not present is appended; the version rules of the
        // store decide which is current.
        let fact_lines = new_versions(store.facts(&project)?, facts, Kind::Facts, &mut summary)?;
        let session_lines = new_versions(
            store.sessions(&project)?,
            sessions,
            Kind::Sessions,
            &mut summary,
        )?;
        if opts.dry_run {
            continue;
        }
        for (path, bytes) in logs {
            store.append(&path, &bytes)?;
        }
        if !fact_lines.is_empty() {
            store.append(&store.layout().facts_file(&project), &fact_lines)?;
        }
        if !session_lines.is_empty() {
            store.append(&store.layout().sessions_file(&project), &session_lines)?;
        }
    }
    progress(total, total);
    Ok(summary)
}

/// Whether two packages differ at most in their review state (`status`, `review_type`).
fn same_but_review(a: &Package, b: &Package) -> bool {
    let strip = |p: &Package| {
        let mut m = p.as_map().clone();
        m.remove("status");
        m.remove("review_type");
        crate::wire::canonical::to_canonical_string(&Value::Object(m))
    };
    strip(a) == strip(b)
}

/// One project's incoming packages, facts and sessions.
type ProjectRecords = (Vec<Package>, Vec<Fact>, Vec<Session>);

/// The lines of the records in `incoming` that the store does not hold yet.
fn new_versions<T: crate::store::records::Versioned + Clone>(
    current: BTreeMap<String, T>,
    incoming: Vec<T>,
    kind: Kind,
    summary: &mut ImportSummary,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut written: BTreeSet<String> = BTreeSet::new();
    for rec in incoming {
        let line = log::to_line(&rec)?;
        // Present already, or older than what is present: nothing to add.
        let known = current
            .get(rec.record_id())
            .is_some_and(|c| rec.version_order(c) != std::cmp::Ordering::Greater);
        if known || !written.insert(String::from_utf8_lossy(&line).into_owned()) {
            *summary.unchanged.entry(kind).or_default() += 1;
            continue;
        }
        out.extend(line);
        *summary.added.entry(kind).or_default() += 1;
    }
    Ok(out)
}
