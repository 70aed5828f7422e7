//! Reading an import's lines: each is parsed and checked (JSON, kind, carried hash, project
//! map, limits, secrets, schema) on the checking threads, so that judging it needs only what
//! [`Checked`] keeps. Packages, nearly all of a stream, are read through a borrowing tree.

use std::io::BufRead;
use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::error::{Error, Result, SchemaError};
use crate::ops::backup::{ImportOptions, Kind};
use crate::search::index::{hash_prefix, id_key};
use crate::store::config::SecretPolicy;
use crate::store::packages::StoredPackage;
use crate::store::{Store, log};
use crate::wire::{Fact, Package, Project, Session, canonical, time};

/// Lines parsed per chunk: enough to keep two threads busy, little enough to bound memory.
const CHUNK_BYTES: usize = 1 << 19;

/// A package that passed every check: what judging it needs, and its line as a first version
/// (the package itself is dropped by the thread that parsed it).
pub(super) struct Incoming {
    pub(super) project: String,
    pub(super) id: String,
    pub(super) hash: String,
    /// [`id_key`] of the id and [`hash_prefix`] of the hash, made here rather than by the judge.
    pub(super) key: u64,
    pub(super) hash_prefix: u64,
    pub(super) line: Vec<u8>,
    pub(super) log: PathBuf,
}

impl Incoming {
    fn new(project: &str, id: &str, hash: String, line: Vec<u8>, log: PathBuf) -> Incoming {
        Incoming {
            project: project.to_string(),
            id: id.to_string(),
            key: id_key(id),
            hash_prefix: hash_prefix(&hash),
            hash,
            line,
            log,
        }
    }

    /// The package again, from its line: only for the rare id the store already holds.
    pub(super) fn package(&self) -> Result<Package> {
        let env: Map<String, Value> = serde_json::from_slice(&self.line)
            .map_err(|e| Error::Integrity(format!("cannot re-read a staged package: {e}")))?;
        Ok(Package::from_value(
            env.get("package").cloned().unwrap_or_default(),
        )?)
    }
}

/// A record that passed every check, ready to be judged. A fact or session comes with its
/// line as it would be written, made on the checking thread.
pub(super) enum Checked {
    Project(Project),
    Package(Incoming),
    Fact(Fact, Vec<u8>),
    Session(Session, Vec<u8>),
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

/// A package line the common way, read through a borrowing tree rather than a `Value`: the
/// same checks as [`check_line`] in the same order, and the same staged line. `None` whenever
/// the line is anything else (another kind of record, a project the import renames, a
/// credential found, any failed check); [`check_line`] then reads it again, and reports.
fn check_package_line(
    store: &Store,
    opts: &ImportOptions,
    line: &[u8],
    logs: &mut LogCache,
) -> Option<Checked> {
    use crate::wire::tree::{Json, Object};
    // Exported facts, sessions and projects say what they are in their first member.
    if [&b"{\"fact_id\""[..], b"{\"session_id\"", b"{\"project_id\""]
        .iter()
        .any(|p| line.starts_with(p))
    {
        return None;
    }
    let Json::Object(root) = Json::parse(std::str::from_utf8(line).ok()?).ok()? else {
        return None;
    };
    // A store's line is an envelope that carries its hash; a backup's is the bare package.
    let (package, carried) = match (root.get("package"), root.get("hash")) {
        (Some(Json::Object(p)), Some(Json::Str(h))) => (p, Some(h.as_ref())),
        _ => (&root, None),
    };
    if Kind::of(package) != Some(Kind::Packages) {
        return None;
    }
    let hash = canonical::content_hash_of_map(package);
    if carried.is_some_and(|h| h != hash) {
        return None;
    }
    let Some(Json::Str(project)) = package.get("project_id") else {
        return None;
    };
    if opts.project_map.contains_key(project.as_ref()) {
        return None;
    }
    store
        .config()
        .limits()
        .check_parsed_record("the record", package, line.len())
        .ok()?;
    if store.secret_policy() != SecretPolicy::Off
        && package
            .members()
            .any(|(_, v)| crate::wire::secrets::any_in(v))
    {
        return None;
    }
    crate::wire::package::validate(package).ok()?;
    let (Some(Json::Str(id)), Some(Json::Str(created_at))) =
        (package.get("package_id"), package.get("created_at"))
    else {
        return None;
    };
    // The envelope line a deposit writes: {"package":…,"hash":"sha256:…"}.
    let mut staged = Vec::with_capacity(line.len() + 96);
    staged.extend_from_slice(b"{\"package\":");
    package.write_compact(&mut staged);
    staged.extend_from_slice(b",\"hash\":\"");
    staged.extend_from_slice(hash.as_bytes());
    staged.extend_from_slice(b"\"}\n");
    let log = logs.log(store, project, time::parse(created_at).ok()?);
    Some(Checked::Package(Incoming::new(
        project, id, hash, staged, log,
    )))
}

/// The package log of the last package checked: most lines of a stream go to the log before.
#[derive(Default)]
pub(super) struct LogCache(Option<(String, (i32, u32), PathBuf)>);

impl LogCache {
    fn log(&mut self, store: &Store, project: &str, created_at: time::Timestamp) -> PathBuf {
        use chrono::Datelike;
        let month = (created_at.year(), created_at.month());
        match &self.0 {
            Some((p, m, log)) if p == project && *m == month => log.clone(),
            _ => {
                let log = store.package_log_at(project, created_at);
                self.0 = Some((project.to_string(), month, log.clone()));
                log
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
) -> Result<Checked> {
    match check_package_line(store, opts, line, logs) {
        Some(checked) => Ok(checked),
        None => check_any_line(store, opts, line, at),
    }
}

/// [`check_line`] for any line, through a `Value`: every kind of record, every policy, and the
/// error that says what is wrong.
fn check_any_line(store: &Store, opts: &ImportOptions, line: &[u8], at: &Loc) -> Result<Checked> {
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
    crate::ops::secrets::guard(store, &mut map).map_err(|e| match e {
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
            let line = StoredPackage::envelope_line(&p, &hash)?;
            Checked::Package(Incoming::new(
                p.project_id(),
                p.id(),
                hash,
                line,
                store.package_log_for(&p),
            ))
        }
        Kind::Facts => {
            let fact = Fact::from_map(map).map_err(|e| schema_at(location, e))?;
            let line = log::to_line(&fact)?;
            Checked::Fact(fact, line)
        }
        Kind::Sessions => {
            let session = Session::from_map(map).map_err(|e| schema_at(location, e))?;
            let line = log::to_line(&session)?;
            Checked::Session(session, line)
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

/// Checks a chunk's lines; results in line order.
pub(super) fn check_chunk(
    store: &Store,
    opts: &ImportOptions,
    chunk: &Chunk,
    label: &str,
) -> Vec<Result<Checked>> {
    let mut logs = LogCache::default();
    chunk
        .bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .map(|(i, l)| {
            let at = Loc {
                label,
                line: chunk.first_line + i as u64,
            };
            check_line(store, opts, l, &at, &mut logs)
        })
        .collect()
}

/// A checked chunk: its number in the file, its size, and its records in line order.
pub(super) type CheckedChunk = (u64, u64, Vec<Result<Checked>>);

#[cfg(test)]
mod tests {
    use super::*;

    /// The staged line, hash, id, project and log of a package line, by either path.
    fn staged(checked: Checked) -> (Vec<u8>, String, String, String, PathBuf) {
        match checked {
            Checked::Package(p) => (p.line, p.hash, p.id, p.project, p.log),
            _ => panic!("not a package"),
        }
    }

    #[test]
    fn the_package_path_stages_what_the_general_path_stages() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let store = Store::open(root).unwrap();
        let opts = ImportOptions {
            project_map: Default::default(),
            dry_run: false,
            on_conflict: crate::ops::backup::OnConflict::Fail,
            force: false,
        };
        let at = Loc {
            label: "test",
            line: 1,
        };
        let mut logs = LogCache::default();
        let base = r#""project_id":"demo","relay_version":"0.1","title":"T","status":"complete","package_type":"standard","review_type":"none","created_at":"2026-03-01T10:00:00.5Z","created_by":{"id":"me","type":"human"}"#;
        let lines = [
            format!(r#"{{"package_id":"pkg_a",{base}}}"#),
            // Escapes, non-ASCII, numbers of every kind, nulls, extension members, a repeated
            // key, and spacing.
            format!(
                r#"{{ "package_id" : "pkg_b", {base}, "description": "caf\u00e9 \"q\" \\ é\n",
                "significance": 7, "x-n": [1.0, -0.5, 1e21, 18446744073709551615, null],
                "topic": null, "tags": ["a", "a"], "x-o": {{"z": 1, "a": {{}}}}, "title": "Again" }}"#
            ),
        ];
        for line in &lines {
            let fast = check_package_line(&store, &opts, line.as_bytes(), &mut logs)
                .expect("the fast path");
            let general = check_any_line(&store, &opts, line.as_bytes(), &at).expect("valid");
            assert_eq!(staged(fast), staged(general), "{line}");
            // The same line as a store's envelope, with the hash it carries.
            let (_, hash, ..) =
                staged(check_any_line(&store, &opts, line.as_bytes(), &at).unwrap());
            let envelope = format!(r#"{{"package":{line},"hash":"{hash}"}}"#);
            let fast =
                check_package_line(&store, &opts, envelope.as_bytes(), &mut logs).expect("fast");
            let general = check_any_line(&store, &opts, envelope.as_bytes(), &at).unwrap();
            assert_eq!(staged(fast), staged(general));
            let wrong = envelope.replace(&hash, &format!("sha256:{}", "0".repeat(64)));
            assert!(check_package_line(&store, &opts, wrong.as_bytes(), &mut logs).is_none());
            assert!(check_line(&store, &opts, wrong.as_bytes(), &at, &mut logs).is_err());
        }
        // Left to the general path: other records, invalid packages, credentials.
        let fact = r#"{"fact_id":"fact_1","project_id":"demo","subject":"s","predicate":"p","value":"v","valid_from":"2026-01-01T00:00:00Z","created_at":"2026-01-01T00:00:00Z"}"#;
        assert!(check_package_line(&store, &opts, fact.as_bytes(), &mut logs).is_none());
        let invalid = format!(r#"{{"package_id":"pkg_c",{base},"significance":11}}"#);
        assert!(check_package_line(&store, &opts, invalid.as_bytes(), &mut logs).is_none());
        assert!(check_line(&store, &opts, invalid.as_bytes(), &at, &mut logs).is_err());
        let secret = format!(
            r#"{{"package_id":"pkg_d",{base},"description":"key ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}"#
        );
        assert!(check_package_line(&store, &opts, secret.as_bytes(), &mut logs).is_none());
    }
}
