//! Reading an import's lines: each is parsed and checked (JSON, kind, carried hash, project
//! map, limits, secrets, schema) on the checking threads, so that judging it needs only what
//! [`Checked`] keeps. Packages, facts and sessions are read through a borrowing tree; a
//! project, or a line that fails a check, is read again through a `Value`, which reports.

use std::io::BufRead;
use std::path::PathBuf;

use serde_json::{Map, Value};

use super::ImportOptions;
use crate::ops::export::Kind;
use relay_store::Store;
use relay_store::config::SecretPolicy;
use relay_store::index::{hash_prefix, id_key};
use relay_store::packages::StoredPackage;
use relay_wire::error::{Error, Result, SchemaError};
use relay_wire::{Fact, Package, Project, Session, Status, canonical, time};

use relay_wire::tree::{Json, Members, Object};

use super::{Ending, digest};

/// Lines parsed per chunk: enough to keep two threads busy, little enough to bound memory.
const CHUNK_BYTES: usize = 1 << 19;

/// The text a chunk's checked records point into: the lines to stage, and the ids, projects
/// and hashes judging needs, back to back; and the logs the packages go to. A few allocations
/// per chunk rather than several per record: the judging thread frees them, and freeing
/// another thread's allocations one by one contends with it for the allocator's lock.
#[derive(Default)]
pub(super) struct Text {
    bytes: Vec<u8>,
    logs: Vec<PathBuf>,
}

/// Where something is in its chunk's [`Text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    start: usize,
    end: usize,
}

impl Text {
    fn with_capacity(bytes: usize) -> Text {
        Text {
            bytes: Vec::with_capacity(bytes),
            logs: Vec::new(),
        }
    }

    fn push(&mut self, bytes: &[u8]) -> Span {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(bytes);
        self.since(start)
    }

    /// What was written from `start` on.
    fn since(&self, start: usize) -> Span {
        Span {
            start,
            end: self.bytes.len(),
        }
    }

    pub(super) fn bytes(&self, span: Span) -> &[u8] {
        &self.bytes[span.start..span.end]
    }

    /// A span pushed as a `&str`.
    pub(super) fn str(&self, span: Span) -> &str {
        std::str::from_utf8(self.bytes(span)).unwrap_or_default()
    }

    /// The number of `log` in [`Text::log`]: lines of a chunk mostly share one.
    fn add_log(&mut self, log: PathBuf) -> usize {
        if self.logs.last() != Some(&log) {
            self.logs.push(log);
        }
        self.logs.len() - 1
    }

    pub(super) fn log(&self, at: usize) -> &std::path::Path {
        &self.logs[at]
    }
}

/// A package that passed every check: what judging it needs, in its chunk's [`Text`], with its
/// line as a first version (the package itself is dropped by the thread that parsed it).
pub(super) struct Incoming {
    pub(super) project: Span,
    pub(super) id: Span,
    pub(super) hash: Span,
    pub(super) line: Span,
    /// In [`Text::log`].
    pub(super) log: usize,
    /// [`id_key`] of the id and [`hash_prefix`] of the hash, made here rather than by the judge.
    pub(super) key: u64,
    pub(super) hash_prefix: u64,
    pub(super) status: Status,
}

impl Incoming {
    /// A package whose staged line was written to `text` from `start` on.
    fn new(
        text: &mut Text,
        line_start: usize,
        project: &str,
        id: &str,
        hash: &str,
        (log, status): (usize, Status),
    ) -> Incoming {
        let line = text.since(line_start);
        Incoming {
            project: text.push(project.as_bytes()),
            id: text.push(id.as_bytes()),
            hash: text.push(hash.as_bytes()),
            line,
            log,
            key: id_key(id),
            hash_prefix: hash_prefix(hash),
            status,
        }
    }

    /// The package again, from its line: only for the rare id the store already holds.
    pub(super) fn package(&self, text: &Text) -> Result<Package> {
        let env: Map<String, Value> = serde_json::from_slice(text.bytes(self.line))
            .map_err(|e| Error::Integrity(format!("cannot re-read a staged package: {e}")))?;
        Ok(Package::from_value(
            env.get("package").cloned().unwrap_or_default(),
        )?)
    }
}

/// A fact or session that passed every check: what judging it needs, worked out here.
pub(super) struct Version {
    pub(super) project: Span,
    /// The line as it would be written (as `log::to_line` writes it).
    pub(super) line: Span,
    /// When the version ended, as the version order compares it.
    pub(super) end: Option<time::Timestamp>,
    /// [`digest`] of the record id, of the record's canonical form, and of its line.
    pub(super) id: u128,
    pub(super) canonical: u128,
    pub(super) line_digest: u128,
    /// A fact's `source_package_id`, and its `fact_id`.
    pub(super) source: Option<(Span, Span)>,
}

impl Version {
    fn new<T: Ending>(rec: &T, text: &mut Text) -> Result<Version> {
        let value = serde_json::to_value(rec)
            .map_err(|e| Error::Integrity(format!("cannot encode a record: {e}")))?;
        let canonical = digest(canonical::to_canonical_string(&value).as_bytes());
        let start = text.bytes.len();
        serde_json::to_writer(&mut text.bytes, rec)
            .map_err(|e| Error::Integrity(format!("cannot encode a record: {e}")))?;
        text.bytes.push(b'\n');
        let line = text.since(start);
        Ok(Version {
            line,
            line_digest: digest(text.bytes(line)),
            project: text.push(rec.project_id().as_bytes()),
            end: rec.end(),
            id: digest(rec.record_id().as_bytes()),
            canonical,
            source: rec.source_package().map(|p| {
                (
                    text.push(p.as_bytes()),
                    text.push(rec.record_id().as_bytes()),
                )
            }),
        })
    }

    /// This version with its own copy of the text it points into, to be judged after its
    /// chunk is gone.
    pub(super) fn detach(&self, text: &Text) -> (Version, Text) {
        let mut own = Text::default();
        let mut copy = |span: Span| own.push(text.bytes(span));
        let (line, project) = (copy(self.line), copy(self.project));
        let source = self.source.map(|(p, f)| (copy(p), copy(f)));
        let version = Version {
            line,
            project,
            source,
            ..*self
        };
        (version, own)
    }
}

/// A record that passed every check, ready to be judged.
pub(super) enum Checked {
    Project(Project),
    Package(Incoming),
    Fact(Version),
    Session(Version),
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
    let value: Value = relay_wire::strict::from_slice(line)
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

/// A line the common way, read through a borrowing tree rather than a `Value`: a package, a
/// fact or a session, with the same checks as [`check_any_line`] in the same order, and the
/// same staged line. `None` whenever the line is anything else (a project, a project the
/// import renames, a credential found, any failed check); [`check_line`] then reads it again,
/// and reports.
fn check_tree_line(
    store: &Store,
    opts: &ImportOptions,
    line: &[u8],
    logs: &mut LogCache,
    text: &mut Text,
) -> Option<Checked> {
    // Exported projects say what they are in their first member.
    if line.starts_with(b"{\"project_id\"") {
        return None;
    }
    let root = Json::parse_strict(std::str::from_utf8(line).ok()?).ok()?;
    let Json::Object(record) = &root else {
        return None;
    };
    // A store's package line is an envelope that carries its hash; a backup's is the bare
    // package.
    if let (Some(Json::Object(package)), Some(Json::Str(carried))) =
        (record.get("package"), record.get("hash"))
    {
        return check_package(store, opts, package, Some(carried), line.len(), logs, text);
    }
    match Kind::of(record)? {
        Kind::Packages => check_package(store, opts, record, None, line.len(), logs, text),
        Kind::Facts => check_version::<Fact>(store, opts, &root, record, line.len(), text),
        Kind::Sessions => check_version::<Session>(store, opts, &root, record, line.len(), text),
        Kind::Projects => None,
    }
}

/// The checks every record takes, in [`check_any_line`]'s order once its hash is checked:
/// its project is not one the import renames, it is within the limits, and it holds no
/// credential (where the store looks for them).
fn passes_common_checks<'r>(
    store: &Store,
    opts: &ImportOptions,
    record: &'r Members,
    line_len: usize,
) -> Option<&'r str> {
    let Some(Json::Str(project)) = record.get("project_id") else {
        return None;
    };
    if opts.project_map.contains_key(project.as_ref()) {
        return None;
    }
    store
        .config()
        .limits()
        .check_parsed_record("the record", record, line_len)
        .ok()?;
    if store.secret_policy() != SecretPolicy::Off && relay_wire::secrets::any_in_object(record) {
        return None;
    }
    Some(project)
}

/// A package, bare or from an envelope that carried `carried`.
fn check_package(
    store: &Store,
    opts: &ImportOptions,
    package: &Members,
    carried: Option<&str>,
    line_len: usize,
    logs: &mut LogCache,
    text: &mut Text,
) -> Option<Checked> {
    if Kind::of(package) != Some(Kind::Packages) {
        return None;
    }
    let hash = canonical::content_hash_of_map(package);
    if carried.is_some_and(|h| h != hash) {
        return None;
    }
    let project = passes_common_checks(store, opts, package, line_len)?;
    relay_wire::package::validate(package).ok()?;
    let (Some(Json::Str(id)), Some(Json::Str(created_at))) =
        (package.get("package_id"), package.get("created_at"))
    else {
        return None;
    };
    for member in relay_wire::package::TIMES {
        if let Some(Json::Str(t)) = package.get(member) {
            time::require_utc(t).ok()?;
        }
    }
    let log = logs.log(store, text, project, time::parse(created_at).ok()?);
    let status = match package.get("status") {
        Some(Json::Str(s)) => Status::parse(s)?,
        _ => return None,
    };
    // The envelope line a deposit writes: {"package":…,"hash":"sha256:…"}.
    let start = text.bytes.len();
    text.bytes.extend_from_slice(b"{\"package\":");
    package.write_compact(&mut text.bytes);
    text.bytes.extend_from_slice(b",\"hash\":\"");
    text.bytes.extend_from_slice(hash.as_bytes());
    text.bytes.extend_from_slice(b"\"}\n");
    Some(Checked::Package(Incoming::new(
        text,
        start,
        project,
        id,
        &hash,
        (log, status),
    )))
}

/// A fact or session, as the [`Version`] that [`Version::new`] makes of the parsed record.
fn check_version<T: TreeVersion>(
    store: &Store,
    opts: &ImportOptions,
    root: &Json,
    record: &Members,
    line_len: usize,
    text: &mut Text,
) -> Option<Checked> {
    let project = passes_common_checks(store, opts, record, line_len)?;
    T::validate(record).ok()?;
    for member in T::TIMES {
        if let Some(Json::Str(t)) = record.get(member) {
            time::require_utc(t).ok()?;
        }
    }
    let Some(Json::Str(id)) = record.get(T::ID) else {
        return None;
    };
    let end = match record.get(T::END) {
        Some(Json::Str(t)) => time::parse(t).ok(),
        _ => None,
    };
    let mut form = String::with_capacity(line_len);
    canonical::write_canonical(root, &mut form);
    let start = text.bytes.len();
    record.write_compact(&mut text.bytes);
    text.bytes.push(b'\n');
    let line = text.since(start);
    let source = match T::SOURCE.and_then(|member| record.get(member)) {
        Some(Json::Str(package)) => Some((text.push(package.as_bytes()), text.push(id.as_bytes()))),
        _ => None,
    };
    Some(T::checked(Version {
        line,
        line_digest: digest(text.bytes(line)),
        project: text.push(project.as_bytes()),
        end,
        id: digest(id.as_bytes()),
        canonical: digest(form.as_bytes()),
        source,
    }))
}

/// What [`check_version`] reads of a fact or a session: its id member, the member its
/// [`Versioned::end`](relay_store::records::Versioned::end) comes from, its validation, and
/// which [`Checked`] it is.
trait TreeVersion {
    const ID: &'static str;
    const END: &'static str;
    /// The member naming a source package, for a kind that has one.
    const SOURCE: Option<&'static str>;
    /// Its times, which import takes in UTC only, as deposit takes a package's
    /// (`time::require_utc_members`): an offset would make a record imported and the same
    /// record written another way two records.
    const TIMES: &'static [&'static str];
    fn validate(record: &Members) -> Result<(), SchemaError>;
    fn checked(version: Version) -> Checked;
}

impl TreeVersion for Fact {
    const ID: &'static str = "fact_id";
    const END: &'static str = "valid_to";
    const SOURCE: Option<&'static str> = Some("source_package_id");
    const TIMES: &'static [&'static str] = &["valid_from", "valid_to", "created_at"];
    fn validate(record: &Members) -> Result<(), SchemaError> {
        relay_wire::fact::validate(record)
    }
    fn checked(version: Version) -> Checked {
        Checked::Fact(version)
    }
}

impl TreeVersion for Session {
    const ID: &'static str = "session_id";
    const END: &'static str = "ended_at";
    const SOURCE: Option<&'static str> = None;
    const TIMES: &'static [&'static str] = &["started_at", "ended_at"];
    fn validate(record: &Members) -> Result<(), SchemaError> {
        relay_wire::session::validate(record)
    }
    fn checked(version: Version) -> Checked {
        Checked::Session(version)
    }
}

/// The package log of the last package checked, and its number in the chunk's [`Text`]: most
/// lines of a stream go to the log before.
#[derive(Default)]
pub(super) struct LogCache(Option<(String, (i32, u32), usize)>);

impl LogCache {
    fn log(
        &mut self,
        store: &Store,
        text: &mut Text,
        project: &str,
        created_at: time::Timestamp,
    ) -> usize {
        use chrono::Datelike;
        let month = (created_at.year(), created_at.month());
        match &self.0 {
            Some((p, m, at)) if p == project && *m == month => *at,
            _ => {
                let at = text.add_log(store.package_log_at(project, created_at));
                self.0 = Some((project.to_string(), month, at));
                at
            }
        }
    }
}

/// Parses and checks one line: JSON, kind, carried hash, project map, limits, secrets, schema.
fn check_line(
    store: &Store,
    opts: &ImportOptions,
    line: &[u8],
    at: &Loc,
    logs: &mut LogCache,
    text: &mut Text,
) -> Result<Checked> {
    match check_tree_line(store, opts, line, logs, text) {
        Some(checked) => Ok(checked),
        None => check_any_line(store, opts, line, at, text),
    }
}

/// [`check_line`] for any line, through a `Value`: every kind of record, every policy, and the
/// error that says what is wrong.
fn check_any_line(
    store: &Store,
    opts: &ImportOptions,
    line: &[u8],
    at: &Loc,
    text: &mut Text,
) -> Result<Checked> {
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
    crate::ops::trust::secrets::guard(store, &mut map).map_err(|e| match e {
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
            super::foreign::fill_project(&mut map);
            Checked::Project(Project::from_map(map).map_err(|e| schema_at(location, e))?)
        }
        Kind::Packages => {
            time::require_utc_members(&map, relay_wire::package::TIMES)
                .map_err(|e| schema_at(location, e))?;
            let p = Package::from_map(map).map_err(|e| schema_at(location, e))?;
            // Unchanged since its hash was checked: no need to hash it again.
            let hash = match known_hash {
                Some(h) if !remapped && store.secret_policy() != SecretPolicy::Redact => h,
                _ => p.content_hash(),
            };
            let start = text.bytes.len();
            text.bytes
                .extend_from_slice(&StoredPackage::envelope_line(&p, &hash)?);
            let log = text.add_log(store.package_log_for(&p));
            Checked::Package(Incoming::new(
                text,
                start,
                p.project_id(),
                p.id(),
                &hash,
                (log, p.status()),
            ))
        }
        Kind::Facts => {
            time::require_utc_members(&map, Fact::TIMES).map_err(|e| schema_at(location, e))?;
            let fact = Fact::from_map(map).map_err(|e| schema_at(location, e))?;
            Checked::Fact(Version::new(&fact, text)?)
        }
        Kind::Sessions => {
            time::require_utc_members(&map, Session::TIMES).map_err(|e| schema_at(location, e))?;
            let session = Session::from_map(map).map_err(|e| schema_at(location, e))?;
            Checked::Session(Version::new(&session, text)?)
        }
    })
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
pub(super) fn read_chunk(reader: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(CHUNK_BYTES + 4096);
    while bytes.len() < CHUNK_BYTES && reader.read_until(b'\n', &mut bytes)? > 0 {}
    Ok(bytes)
}

/// One chunk of a source file: whole lines, with the number of the first.
pub(super) struct Chunk {
    pub(super) bytes: Vec<u8>,
    pub(super) first_line: u64,
}

/// A chunk's records, checked, in line order, and the text they point into.
pub(super) struct CheckedChunk {
    /// The chunk's number in its file, and its size in bytes.
    pub(super) number: u64,
    pub(super) size: u64,
    pub(super) records: Vec<Result<Checked>>,
    pub(super) text: Text,
}

/// Checks a chunk's lines.
pub(super) fn check_chunk(
    store: &Store,
    opts: &ImportOptions,
    number: u64,
    chunk: &Chunk,
    label: &str,
) -> CheckedChunk {
    let mut logs = LogCache::default();
    // Room for the lines, their envelopes, and the ids and hashes judging needs.
    let mut text = Text::with_capacity(chunk.bytes.len() + chunk.bytes.len() / 4 + 4096);
    let records = chunk
        .bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .map(|(i, l)| {
            let at = Loc {
                label,
                line: chunk.first_line + i as u64,
            };
            check_line(store, opts, l, &at, &mut logs, &mut text)
        })
        .collect();
    CheckedChunk {
        number,
        size: chunk.bytes.len() as u64,
        records,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The staged line, hash, id, project and log of a package line, by either path.
    fn staged(checked: Checked, text: &Text) -> (Vec<u8>, String, String, String, PathBuf) {
        match checked {
            Checked::Package(p) => (
                text.bytes(p.line).to_vec(),
                text.str(p.hash).to_string(),
                text.str(p.id).to_string(),
                text.str(p.project).to_string(),
                text.log(p.log).to_path_buf(),
            ),
            _ => panic!("not a package"),
        }
    }

    /// A store with project `demo`, plain import options, and a place for messages.
    fn demo_store() -> (tempfile::TempDir, Store, ImportOptions, Loc<'static>) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let store = Store::open(root).unwrap();
        let opts = ImportOptions {
            project_map: Default::default(),
            dry_run: false,
            on_conflict: crate::ops::import::OnConflict::Fail,
            force: false,
        };
        let at = Loc {
            label: "test",
            line: 1,
        };
        (dir, store, opts, at)
    }

    #[test]
    fn the_package_path_stages_what_the_general_path_stages() {
        let (_dir, store, opts, at) = demo_store();
        let mut logs = LogCache::default();
        let base = r#""project_id":"demo","relay_version":"0.1","title":"T","status":"complete","package_type":"standard","review_type":"none","created_at":"2026-03-01T10:00:00.5Z","created_by":{"id":"me","type":"human"}"#;
        let lines = [
            format!(r#"{{"package_id":"pkg_a",{base}}}"#),
            // Escapes, non-ASCII, numbers of every kind, nulls, extension members and spacing.
            format!(
                r#"{{ "package_id" : "pkg_b", {base}, "description": "caf\u00e9 \"q\" \\ é\n",
                "significance": 7, "x-n": [1.0, -0.5, 1e21, 18446744073709551615, null],
                "topic": null, "tags": ["a", "a"], "x-o": {{"z": 1, "a": {{}}}} }}"#
            ),
        ];
        // A repeated key, or a NUL, takes neither path: the general one says why.
        for bad in [
            format!(r#"{{"package_id":"pkg_c",{base},"title":"Again"}}"#),
            format!(r#"{{"package_id":"pkg_d",{base},"x-o":{{"k":"a\u0000"}}}}"#),
        ] {
            let t = &mut Text::default();
            assert!(check_tree_line(&store, &opts, bad.as_bytes(), &mut logs, t).is_none());
            let Err(e) = check_any_line(&store, &opts, bad.as_bytes(), &at, t) else {
                panic!("{bad} was taken")
            };
            assert!(
                e.to_string().contains("appears twice") || e.to_string().contains("NUL"),
                "{e}"
            );
        }
        let mut text = Text::default();
        let t = &mut text;
        for line in &lines {
            let fast = check_tree_line(&store, &opts, line.as_bytes(), &mut logs, t)
                .expect("the fast path");
            let general = check_any_line(&store, &opts, line.as_bytes(), &at, t).expect("valid");
            assert_eq!(staged(fast, t), staged(general, t), "{line}");
            // The same line as a store's envelope, with the hash it carries.
            let checked = check_any_line(&store, &opts, line.as_bytes(), &at, t).unwrap();
            let (_, hash, ..) = staged(checked, t);
            let envelope = format!(r#"{{"package":{line},"hash":"{hash}"}}"#);
            let fast =
                check_tree_line(&store, &opts, envelope.as_bytes(), &mut logs, t).expect("fast");
            let general = check_any_line(&store, &opts, envelope.as_bytes(), &at, t).unwrap();
            assert_eq!(staged(fast, t), staged(general, t));
            let wrong = envelope.replace(&hash, &format!("sha256:{}", "0".repeat(64)));
            assert!(check_tree_line(&store, &opts, wrong.as_bytes(), &mut logs, t).is_none());
            assert!(check_line(&store, &opts, wrong.as_bytes(), &at, &mut logs, t).is_err());
        }
        // Left to the general path: projects, invalid packages, credentials.
        let project = r#"{"project_id":"demo","name":"Demo","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}"#;
        assert!(check_tree_line(&store, &opts, project.as_bytes(), &mut logs, t).is_none());
        let invalid = format!(r#"{{"package_id":"pkg_c",{base},"significance":11}}"#);
        assert!(check_tree_line(&store, &opts, invalid.as_bytes(), &mut logs, t).is_none());
        assert!(check_line(&store, &opts, invalid.as_bytes(), &at, &mut logs, t).is_err());
        let secret = format!(
            r#"{{"package_id":"pkg_d",{base},"description":"key ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}"#
        );
        assert!(check_tree_line(&store, &opts, secret.as_bytes(), &mut logs, t).is_none());
    }

    #[test]
    fn a_version_carries_its_line_and_digests() {
        let (_dir, store, opts, at) = demo_store();
        let fact = r#"{ "fact_id":"fact_1","project_id":"demo","subject":"s","predicate":"p","value":"caf\u00e9","valid_from":"2026-01-01T00:00:00Z","valid_to":"2026-02-01T00:00:00Z","created_at":"2026-01-01T00:00:00Z","asserted_by":{"id":"me","type":"human"}}"#;
        let mut text = Text::default();
        text.push(b"something before");
        let Checked::Fact(v) =
            check_any_line(&store, &opts, fact.as_bytes(), &at, &mut text).expect("a valid fact")
        else {
            panic!("not a fact")
        };
        let parsed = Fact::from_value(serde_json::from_str(fact).unwrap()).unwrap();
        let line = relay_store::ndjson::to_line(&parsed).unwrap();
        assert_eq!(text.bytes(v.line), line.as_slice());
        assert_eq!(v.line_digest, digest(&line));
        assert_eq!(text.str(v.project), "demo");
        assert_eq!(v.id, digest(b"fact_1"));
        assert_eq!(v.end, Some(time::parse("2026-02-01T00:00:00Z").unwrap()));
        let canonical_text = canonical::to_canonical_string(&parsed.to_value());
        assert_eq!(v.canonical, digest(canonical_text.as_bytes()));
    }

    /// A fact's or session's line, line digest, project, end, id digest and canonical digest.
    type Judged = (Vec<u8>, u128, String, Option<time::Timestamp>, u128, u128);

    fn version(checked: Checked, text: &Text) -> Judged {
        match checked {
            Checked::Fact(v) | Checked::Session(v) => (
                text.bytes(v.line).to_vec(),
                v.line_digest,
                text.str(v.project).to_string(),
                v.end,
                v.id,
                v.canonical,
            ),
            _ => panic!("not a fact or session"),
        }
    }

    #[test]
    fn fact_and_session_lines_take_the_tree_and_stage_what_the_general_path_stages() {
        let (_dir, store, opts, at) = demo_store();
        let mut logs = LogCache::default();
        let mut text = Text::default();
        let t = &mut text;
        let fact = r#""project_id":"demo","subject":"db","predicate":"engine","valid_from":"2026-01-01T00:00:00.5Z","created_at":"2026-01-01T00:00:00Z","asserted_by":{"id":"me","type":"human"}"#;
        let lines = [
            format!(r#"{{"fact_id":"fact_1",{fact},"value":"v","valid_to":null}}"#),
            // Ended; escapes, non-ASCII, numbers, spacing, extension members.
            format!(
                r#"{{ "fact_id" : "fact_2", {fact}, "value": "caf\u00e9 \"q\" é",
                "valid_to": "2026-02-01T00:00:00Z", "confidence": 1.0, "x-n": [1e21, -0, 7] }}"#
            ),
            r#"{"session_id":"sess_1","project_id":"demo","actor_id":"me","actor_type":"human","callsign":"eager-marten","started_at":"2026-01-01T00:00:00Z","ended_at":"2026-01-01T01:00:00.25Z","packages_deposited":["pkg_a"]}"#.to_string(),
            r#"{"session_id":"sess_2","project_id":"demo","actor_id":"me","actor_type":"human","started_at":"2026-01-01T00:00:00Z"}"#.to_string(),
        ];
        for line in &lines {
            let fast = check_tree_line(&store, &opts, line.as_bytes(), &mut logs, t)
                .expect("the tree path");
            let general = check_any_line(&store, &opts, line.as_bytes(), &at, t).expect("valid");
            assert_eq!(version(fast, t), version(general, t), "{line}");
        }
        let ended = check_tree_line(&store, &opts, lines[1].as_bytes(), &mut logs, t).unwrap();
        assert_eq!(
            version(ended, t).3,
            Some(time::parse("2026-02-01T00:00:00Z").unwrap())
        );
        // Left to the general path: an invalid fact, a credential, a renamed project.
        let invalid = format!(r#"{{"fact_id":"fact_3",{fact},"value":"v","confidence":2}}"#);
        assert!(check_tree_line(&store, &opts, invalid.as_bytes(), &mut logs, t).is_none());
        assert!(check_line(&store, &opts, invalid.as_bytes(), &at, &mut logs, t).is_err());
        let secret = format!(
            r#"{{"fact_id":"fact_4",{fact},"value":"ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}"#
        );
        assert!(check_tree_line(&store, &opts, secret.as_bytes(), &mut logs, t).is_none());
        let renaming = ImportOptions {
            project_map: [("demo".to_string(), "other".to_string())].into(),
            ..opts
        };
        assert!(check_tree_line(&store, &renaming, lines[0].as_bytes(), &mut logs, t).is_none());
    }
}
