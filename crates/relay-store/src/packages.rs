//! Package logs: `projects/<dir>/packages/YYYY-MM.ndjson`, one envelope per line,
//! `{"package": {…}, "hash": "sha256:…"}` plus `version` and `transition` for versions after the
//! first. Readers check every hash and skip (and report) lines that do not match.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{Store, WarningKind, layout, log};
use relay_wire::error::{Error, Result};
use relay_wire::tree::{Json, Members};
use relay_wire::{Package, Status};

/// Where a record was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    pub line: u64,
}

/// One version of a package as stored.
#[derive(Debug, Clone)]
pub struct StoredPackage {
    pub package: Package,
    pub hash: String,
    /// 1 for the deposit itself; each review transition adds one.
    pub version: u64,
    /// Metadata of the transition that made this version (absent on version 1).
    pub transition: Option<Value>,
    pub location: Location,
}

impl StoredPackage {
    /// Reads one envelope line: the package must validate and match its stored hash.
    pub fn from_envelope(
        mut env: Map<String, Value>,
        path: &Path,
        line: u64,
    ) -> std::result::Result<StoredPackage, (WarningKind, String)> {
        let Some(raw) = env.remove("package") else {
            return Err((
                WarningKind::InvalidRecord,
                "the line has no `package` member; skipped".into(),
            ));
        };
        let package = Package::from_value(raw).map_err(|e| {
            (
                WarningKind::InvalidRecord,
                format!("not a valid package: {e}; skipped"),
            )
        })?;
        let hash = package.content_hash();
        match env.get("hash").and_then(Value::as_str) {
            Some(stored) if stored == hash => {}
            stored => {
                return Err((
                    WarningKind::HashMismatch,
                    format!(
                        "package {} does not match its stored hash (stored {}, computed {hash}); it was \
                         changed after it was written, so it was skipped",
                        package.id(),
                        stored.unwrap_or("none")
                    ),
                ));
            }
        }
        Ok(StoredPackage {
            version: env.get("version").and_then(Value::as_u64).unwrap_or(1),
            transition: env.remove("transition"),
            package,
            hash,
            location: Location {
                path: path.to_path_buf(),
                line,
            },
        })
    }

    /// This version's line: the package, its hash, and for versions after the first the
    /// version number and the transition that made it.
    pub fn to_envelope(&self) -> Map<String, Value> {
        let mut env = Self::envelope(&self.package, &self.hash);
        if self.version > 1 {
            env.insert("version".into(), Value::from(self.version));
        }
        if let Some(t) = &self.transition {
            env.insert("transition".into(), t.clone());
        }
        env
    }

    /// The line of a first version, as [`StoredPackage::envelope`] makes it, without copying
    /// the package.
    pub fn envelope_line(package: &Package, hash: &str) -> Result<Vec<u8>> {
        #[derive(serde::Serialize)]
        struct Envelope<'a> {
            package: &'a Map<String, Value>,
            hash: &'a str,
        }
        log::to_line(&Envelope {
            package: package.as_map(),
            hash,
        })
    }

    /// The envelope line for a package: what a deposit appends.
    pub fn envelope(package: &Package, hash: &str) -> Map<String, Value> {
        let mut env = Map::new();
        env.insert("package".into(), package.to_value());
        env.insert("hash".into(), Value::String(hash.to_string()));
        env
    }
}

/// The package of a stored line as the text it was stored as, when the line checks out the way
/// [`StoredPackage::from_envelope`] checks it (a valid package that matches its hash). `None`
/// for anything else, or anything unusual; the caller then reads the line the full way, which
/// reports what is wrong.
pub fn checked_package_text(line: &[u8]) -> Option<&str> {
    #[derive(serde::Deserialize)]
    struct Envelope<'a> {
        #[serde(borrow)]
        package: &'a serde_json::value::RawValue,
        hash: &'a str,
    }
    if let Some(first) = checked_first_version(line) {
        return Some(first.text);
    }
    let env: Envelope<'_> = serde_json::from_slice(line).ok()?;
    checked_package_tree(env.package.get(), env.hash).map(|_| env.package.get())
}

/// A first version read the quick way, from a line laid out exactly as relay writes one.
pub struct FirstVersionLine<'a> {
    /// The package as the text it was stored as.
    pub text: &'a str,
    pub package: Members<'a>,
    pub hash: &'a str,
}

/// The line as a first version when it is laid out exactly as relay writes one
/// (`{"package":{…},"hash":"sha256:…"}`, nothing else, so version 1 without a transition) and
/// checks out the way [`StoredPackage::from_envelope`] checks it. `None` for anything else:
/// the caller then reads the line the full way, which reports what is wrong.
pub fn checked_first_version(line: &[u8]) -> Option<FirstVersionLine<'_>> {
    let (text, hash) = split_first_version_line(line)?;
    let package = checked_package_tree(text, hash)?;
    Some(FirstVersionLine {
        text,
        package,
        hash,
    })
}

/// The package `text` as a borrowing tree (no `Package` is built, so nothing is allocated per
/// member), when it is one object that validates and matches `hash`.
fn checked_package_tree<'a>(text: &'a str, hash: &str) -> Option<Members<'a>> {
    let Json::Object(package) = Json::parse(text).ok()? else {
        return None;
    };
    relay_wire::package::validate(&package).ok()?;
    (relay_wire::canonical::content_hash_of_map(&package) == hash).then_some(package)
}

/// The package text and hash of a line laid out exactly as relay writes a first version,
/// `{"package":{…},"hash":"sha256:…"}`, found by its fixed ends instead of by parsing the line
/// twice. What lies between the ends is only taken as the package once it parses as one JSON
/// object, so a line that merely looks like this one is never misread. `None` for any other
/// layout.
fn split_first_version_line(line: &[u8]) -> Option<(&str, &str)> {
    const HEAD: &[u8] = b"{\"package\":";
    const HASH: &[u8] = b",\"hash\":\"";
    let body = line.strip_prefix(HEAD)?.strip_suffix(b"\"}")?;
    let at = body.len().checked_sub(HASH.len() + SHA256_HASH_LEN)?;
    let (package, hash) = (&body[..at], &body[at + HASH.len()..]);
    // The hash is not looked into here: the caller compares it with the package's computed
    // hash, which holds no quote, so a match also proves the split was at the real member.
    if !body[at..].starts_with(HASH)
        || package.first() != Some(&b'{')
        || package.last() != Some(&b'}')
    {
        return None;
    }
    Some((
        std::str::from_utf8(package).ok()?,
        std::str::from_utf8(hash).ok()?,
    ))
}

/// The length of `sha256:` and 64 hex digits.
const SHA256_HASH_LEN: usize = 7 + 64;

/// Orders two versions of one package: the greater is current. A `complete` version wins
/// (complete is terminal); then the higher version number; then the greater hash; then the
/// greater transition metadata. Line order
/// plays no part, so every clone holding the same lines picks the same version.
pub fn version_order(a: &StoredPackage, b: &StoredPackage) -> Ordering {
    let complete = |p: &StoredPackage| p.package.status() == Status::Complete;
    complete(a)
        .cmp(&complete(b))
        .then(a.version.cmp(&b.version))
        .then_with(|| a.hash.cmp(&b.hash))
        .then_with(|| transition_order(a, b))
}

/// [`version_order`] as a compact key, for readers that keep a few numbers per line instead of
/// the versions themselves (the package index's catalog, relevant pull): complete first, then
/// the version number, then the hash's first 64 bits. Two versions that differ only past
/// those bits (a SHA-256 prefix collision, or one transition made twice) compare equal here;
/// only [`version_order`] settles them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct VersionKey {
    complete: bool,
    version: u64,
    hash_prefix: u64,
}

impl VersionKey {
    pub fn new(status: Status, version: u64, hash_prefix: u64) -> VersionKey {
        VersionKey {
            complete: status == Status::Complete,
            version,
            hash_prefix,
        }
    }
}

/// Two clones can make the same transition (same package, so same hash) by different people
/// at different times: the transition metadata, compared canonically, settles it.
fn transition_order(a: &StoredPackage, b: &StoredPackage) -> Ordering {
    let text = |p: &StoredPackage| {
        p.transition
            .as_ref()
            .map(relay_wire::canonical::to_canonical_string)
            .unwrap_or_default()
    };
    text(a).cmp(&text(b))
}

/// The quoted JSON form of `id` without its quotes, as it appears inside a stored line: the
/// bytes a prefiltered read ([`Store::scan_packages`]) looks for.
pub fn json_fragment(id: &str) -> String {
    let quoted = serde_json::to_string(id).unwrap_or_default();
    quoted[1..quoted.len().saturating_sub(1)].to_string()
}

/// Keeps `p` in `current` (by package id) if it is the newest version met so far
/// ([`version_order`]).
pub fn keep_current(current: &mut HashMap<String, StoredPackage>, p: StoredPackage) {
    match current.get(p.package.id()) {
        Some(cur) if version_order(&p, cur) != Ordering::Greater => {}
        _ => {
            current.insert(p.package.id().to_string(), p);
        }
    }
}

/// The monthly package logs (`YYYY-MM.ndjson`) in `dir`, oldest month first.
pub(super) fn month_logs_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(format!("cannot list {}", dir.display()), e)),
    };
    let mut logs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(layout::is_package_log_name)
        })
        .map(|e| e.path())
        .collect();
    logs.sort();
    Ok(logs)
}

impl Store {
    /// The monthly package logs of a project, oldest month first: the tracked logs and the
    /// months waiting in the clone's queue (`local/pending/`), each queued month right after
    /// the tracked log of the same month. So every read sees what relay's hooks queued, and a
    /// reader that goes month by month still meets the months in order; one month may have
    /// two logs (same file name), and a package id may be in both.
    pub fn package_logs(&self, project_id: &str) -> Result<Vec<PathBuf>> {
        let mut logs = self.tracked_package_logs(project_id)?;
        let queued = self.queued_package_logs(project_id)?;
        if queued.is_empty() {
            return Ok(logs);
        }
        logs.extend(queued);
        let pending = self.layout.pending_dir();
        logs.sort_by(|a, b| {
            (a.file_name(), a.starts_with(&pending)).cmp(&(b.file_name(), b.starts_with(&pending)))
        });
        Ok(logs)
    }

    /// The monthly package logs git tracks (none of the queue), oldest month first.
    pub fn tracked_package_logs(&self, project_id: &str) -> Result<Vec<PathBuf>> {
        month_logs_in(&self.layout.packages_dir(project_id))
    }

    /// Streams every valid package version of a project. `prefilter`, when given, must occur
    /// in a line's raw bytes for the line to be parsed at all.
    pub fn scan_packages(
        &self,
        project_id: &str,
        prefilter: Option<&[u8]>,
        mut each: impl FnMut(StoredPackage) -> Result<()>,
    ) -> Result<()> {
        for path in self.package_logs(project_id)? {
            self.scan_log(&path, prefilter, &mut each)?;
        }
        Ok(())
    }

    fn scan_log(
        &self,
        path: &std::path::Path,
        prefilter: Option<&[u8]>,
        each: &mut impl FnMut(StoredPackage) -> Result<()>,
    ) -> Result<()> {
        let diag = &self.diagnostics;
        log::read_objects_filtered(path, diag, prefilter, |line, env| {
            match StoredPackage::from_envelope(env, path, line) {
                Ok(p) => each(p),
                Err((kind, message)) => {
                    diag.warn(path, line, kind, message);
                    Ok(())
                }
            }
        })
    }

    /// Every version stored in one package log, in line order (damaged lines reported).
    pub fn scan_log_at(
        &self,
        path: &Path,
        mut each: impl FnMut(StoredPackage) -> Result<()>,
    ) -> Result<()> {
        self.scan_log(path, None, &mut each)
    }

    /// Reads one log in full only for what it reports: the warnings for its damaged lines.
    /// Readers that go by an index call this for a log the index found damage in.
    pub fn report_damage(&self, path: &Path) -> Result<()> {
        self.scan_log(path, None, &mut |_| Ok(()))
    }

    /// The `package_id` written in the line at `offset`, however damaged the rest is.
    pub fn package_id_at(&self, path: &Path, offset: u64) -> Option<String> {
        log::with_line_at(path, offset, |line| {
            let v: Value = serde_json::from_slice(line).ok()?;
            v.get("package")?
                .get("package_id")?
                .as_str()
                .map(str::to_string)
        })
        .ok()?
    }

    /// The number (from 1) of the first line of `path` that holds package `package_id` as relay
    /// writes it, or 0 when there is none: for a message about a version read through an
    /// index, which knows offsets, not line numbers. It reads the log, so it is for rare paths.
    pub fn line_of_package(&self, path: &Path, package_id: &str) -> u64 {
        use std::io::BufRead;
        let needle = format!("\"package_id\":\"{}\"", json_fragment(package_id));
        let Ok(file) = std::fs::File::open(path) else {
            return 0;
        };
        for (i, line) in std::io::BufReader::new(file).split(b'\n').enumerate() {
            match line {
                Ok(l) if l.windows(needle.len()).any(|w| w == needle.as_bytes()) => {
                    return i as u64 + 1;
                }
                Ok(_) => {}
                Err(_) => return 0,
            }
        }
        0
    }

    /// Reads the package line that starts at `offset` in `path` (as a search found it).
    /// Problems are reported to the diagnostics and give `None`.
    pub fn package_at(&self, path: &Path, offset: u64) -> Result<Option<StoredPackage>> {
        use std::io::{Seek, SeekFrom};
        let ctx = |e| Error::io(format!("cannot read {}", path.display()), e);
        // The line number, for a warning: the newlines before the offset.
        let line_number = |file: &mut std::fs::File| -> u64 {
            let mut head = Vec::new();
            let _ = file.seek(SeekFrom::Start(0));
            let _ =
                std::io::Read::read_to_end(&mut std::io::Read::take(&mut *file, offset), &mut head);
            head.iter().filter(|&&b| b == b'\n').count() as u64 + 1
        };
        let parsed = log::with_line_at(path, offset, |line| {
            match serde_json::from_slice::<Value>(line) {
                Ok(Value::Object(env)) => StoredPackage::from_envelope(env, path, 0),
                _ => Err((
                    WarningKind::CorruptLine,
                    "the line is not a JSON object; it was skipped".into(),
                )),
            }
        })?;
        match parsed {
            Ok(p) => Ok(Some(p)),
            Err((kind, message)) => {
                let line = line_number(&mut std::fs::File::open(path).map_err(ctx)?);
                self.diagnostics.warn(path, line, kind, message);
                Ok(None)
            }
        }
    }

    /// Every stored version of one package in a project (empty when there is none). Each
    /// log's package index (`cache::packages`) says which lines to read; a log without a
    /// usable index is scanned for the id's bytes.
    pub fn package_versions(
        &self,
        project_id: &str,
        package_id: &str,
    ) -> Result<Vec<StoredPackage>> {
        let logs = self.package_logs(project_id)?;
        if !self.config.search_index() {
            return self.package_versions_in(&logs, package_id);
        }
        // Through the indexes that hold as they are; the others are built first, two logs at
        // a time (a log that cannot be indexed is scanned). The versions keep the logs' order.
        let cache = self.layout.cache_dir();
        let mut found: Vec<Option<Vec<u64>>> = (logs.iter())
            .map(|log| super::cache::packages::find_id_indexed(&cache, log, package_id))
            .map(|f| f.ok().flatten())
            .collect();
        let cold: Vec<std::path::PathBuf> = (logs.iter().zip(&found))
            .filter(|(_, f)| f.is_none())
            .map(|(log, _)| log.clone())
            .collect();
        if !cold.is_empty() {
            let _ = super::cache::packages::warm(&cache, &cold);
        }
        let mut out = Vec::new();
        for (log, offsets) in logs.iter().zip(&mut found) {
            match offsets.take() {
                Some(offsets) => out.extend(self.versions_at(log, &offsets, package_id)?),
                None => {
                    out.extend(self.package_versions_in(std::slice::from_ref(log), package_id)?)
                }
            }
        }
        Ok(out)
    }

    /// The versions of `package_id` among the lines of `log` at `offsets`.
    fn versions_at(
        &self,
        log: &Path,
        offsets: &[u64],
        package_id: &str,
    ) -> Result<Vec<StoredPackage>> {
        let mut out = Vec::new();
        for &offset in offsets {
            if let Some(p) = self.package_at(log, offset)?
                && p.package.id() == package_id
            {
                out.push(p);
            }
        }
        Ok(out)
    }

    /// Every project that holds package `package_id`, with its versions there: package ids
    /// are unique in the whole store (§6.1), so this is one project, or none; more than one
    /// only in a store that broke the rule (two clones merged, an older relay). Projects come
    /// in byte-wise order of their ids, whatever project is selected, so every reader picks
    /// the same one. Each project's logs are looked up through their indexes, as
    /// [`Store::package_versions`] does.
    pub fn package_everywhere(
        &self,
        package_id: &str,
    ) -> Result<Vec<(String, Vec<StoredPackage>)>> {
        let mut out = Vec::new();
        for project in self.all_project_ids()? {
            let versions = self.package_versions(&project, package_id)?;
            if !versions.is_empty() {
                out.push((project, versions));
            }
        }
        Ok(out)
    }

    /// The ids of the packages, in every project, that begin with `prefix`: sorted, each once.
    /// One pass over the ids each log's package index holds, reading no line (a store without
    /// `cache/` indexes each log in memory). What short ids are resolved against.
    pub fn package_ids_starting_with(&self, prefix: &str) -> Result<Vec<String>> {
        let cache = self.config.search_index().then(|| self.layout.cache_dir());
        let mut out = std::collections::BTreeSet::new();
        for project in self.all_project_ids()? {
            let logs = self.package_logs(&project)?;
            if let Some(cache) = &cache {
                let _ = super::cache::packages::warm(cache, &logs);
            }
            for log in &logs {
                let view = match &cache {
                    Some(cache) => super::cache::packages::query(cache, log, &[]),
                    None => super::cache::packages::scan(log),
                }
                .map_err(|e| Error::io(format!("cannot read {}", log.display()), e))?;
                let ids = (0..view.doc_count() as u32).filter_map(|i| view.doc_id(i));
                out.extend(ids.filter(|id| id.starts_with(prefix)).map(str::to_string));
            }
        }
        Ok(out.into_iter().collect())
    }

    /// [`Store::package_versions`] in `logs` only, their indexes taken as they are.
    pub fn package_versions_in(
        &self,
        logs: &[std::path::PathBuf],
        package_id: &str,
    ) -> Result<Vec<StoredPackage>> {
        let fragment = json_fragment(package_id);
        let cache = self.config.search_index().then(|| self.layout.cache_dir());
        let mut out = Vec::new();
        for path in logs {
            let offsets = (cache.as_deref())
                .and_then(|c| super::cache::packages::find_id(c, path, package_id).ok())
                .flatten();
            let Some(offsets) = offsets else {
                self.scan_log(path, Some(fragment.as_bytes()), &mut |p: StoredPackage| {
                    if p.package.id() == package_id {
                        out.push(p);
                    }
                    Ok(())
                })?;
                continue;
            };
            out.extend(self.versions_at(path, &offsets, package_id)?);
        }
        Ok(out)
    }

    /// The current version of every package in a project, by id.
    pub fn current_packages(&self, project_id: &str) -> Result<HashMap<String, StoredPackage>> {
        self.current_packages_since(project_id, None)
    }

    /// The current version of every package created at or after `since` (all when `None`).
    /// Only the monthly logs that can hold such packages are read, so a window costs the same
    /// however old the store is.
    pub fn current_packages_since(
        &self,
        project_id: &str,
        since: Option<relay_wire::time::Timestamp>,
    ) -> Result<HashMap<String, StoredPackage>> {
        let first_log = since.map(|t| format!("{}.ndjson", relay_wire::time::month_key(t)));
        let mut out: HashMap<String, StoredPackage> = HashMap::new();
        for path in self.package_logs(project_id)? {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if first_log.as_deref().is_some_and(|first| name < first) {
                continue;
            }
            self.scan_log(&path, None, &mut |p: StoredPackage| {
                if since.is_none_or(|t| p.package.created_at() >= t) {
                    keep_current(&mut out, p);
                }
                Ok(())
            })?;
        }
        Ok(out)
    }

    /// The log a package belongs in: the month of its `created_at`, so all its versions share
    /// one file.
    pub fn package_log_for(&self, package: &Package) -> PathBuf {
        self.package_log_at(package.project_id(), package.created_at())
    }

    /// [`Store::package_log_for`] a package of `project_id` created at `created_at`.
    pub fn package_log_at(
        &self,
        project_id: &str,
        created_at: relay_wire::time::Timestamp,
    ) -> PathBuf {
        let month = relay_wire::time::month_key(created_at);
        self.layout.package_log(project_id, &month)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored(status: &str, version: u64, hash: &str) -> StoredPackage {
        let p = Package::from_value(json!({
            "package_id": "pkg_1", "project_id": "p", "relay_version": "0.1", "title": "T",
            "status": status, "package_type": "standard", "review_type": "human",
            "created_at": "2026-04-18T20:00:00Z", "created_by": {"id": "jo", "type": "human"}
        }))
        .unwrap();
        StoredPackage {
            package: p,
            hash: hash.into(),
            version,
            transition: None,
            location: Location {
                path: PathBuf::new(),
                line: 1,
            },
        }
    }

    #[test]
    fn complete_then_version_then_hash_wins() {
        let cases = [
            (
                stored("complete", 2, "a"),
                stored("revision_requested", 3, "b"),
            ),
            (
                stored("awaiting_review", 3, "a"),
                stored("revision_requested", 2, "b"),
            ),
            (
                stored("awaiting_review", 2, "b"),
                stored("revision_requested", 2, "a"),
            ),
        ];
        for (winner, loser) in cases {
            assert_eq!(version_order(&winner, &loser), Ordering::Greater);
            assert_eq!(version_order(&loser, &winner), Ordering::Less);
        }
    }

    #[test]
    fn the_compact_key_orders_as_the_full_rule_does() {
        let hashes = [
            "sha256:00ff000000000000aa",
            "sha256:0100000000000000bb",
            "sha256:ff00000000000000cc",
        ];
        let mut all = Vec::new();
        for status in ["complete", "awaiting_review", "revision_requested", "draft"] {
            for version in 1..4 {
                for hash in hashes {
                    all.push(stored(status, version, hash));
                }
            }
        }
        for a in &all {
            for b in &all {
                let of = |p: &StoredPackage| {
                    let prefix = crate::cache::packages::hash_prefix(&p.hash);
                    VersionKey::new(p.package.status(), p.version, prefix)
                };
                let key = of(a).cmp(&of(b));
                assert_eq!(key, version_order(a, b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_sound_line_gives_its_package_text_and_others_none() {
        let p = stored("complete", 1, "");
        let hash = p.package.content_hash();
        let text = serde_json::to_string(p.package.as_map()).unwrap();
        let line = format!(r#"{{"package":{text},"hash":"{hash}"}}"#);
        assert_eq!(checked_package_text(line.as_bytes()), Some(text.as_str()));
        // Spacing is kept: the text is what was stored.
        let spaced = line.replacen(r#""title":"T""#, r#""title" : "T""#, 1);
        assert!(checked_package_text(spaced.as_bytes()).is_some_and(|t| t.contains(" : ")));
        let changed = line.replacen(r#""title":"T""#, r#""title":"U""#, 1);
        assert_eq!(
            checked_package_text(changed.as_bytes()),
            None,
            "hash mismatch"
        );
        // Invalid, yet carrying the hash of exactly what it holds: only validation refuses it.
        let mut bad = p.package.as_map().clone();
        bad.insert("status".into(), Value::from("done"));
        let bad_hash = relay_wire::canonical::content_hash_of_map(&bad);
        let bad_text = serde_json::to_string(&bad).unwrap();
        let invalid = format!(r#"{{"package":{bad_text},"hash":"{bad_hash}"}}"#);
        assert_eq!(checked_package_text(invalid.as_bytes()), None, "invalid");
        assert_eq!(checked_package_text(b"{\"package\":{}}"), None, "no hash");
        assert_eq!(checked_package_text(b"not json"), None);
        // Any other layout is read by parsing the line: spacing, members in another order.
        let loose = format!(r#"{{ "package" : {text} , "hash" : "{hash}" }}"#);
        assert_eq!(checked_package_text(loose.as_bytes()), Some(text.as_str()));
        let reordered = format!(r#"{{"hash":"{hash}","package":{text}}}"#);
        assert_eq!(
            checked_package_text(reordered.as_bytes()),
            Some(text.as_str())
        );
        // A line with relay's ends but another member between them is not split into a package
        // that runs on into that member; read the full way, the extra member is ignored.
        let smuggled = format!(r#"{{"package":{text},"x":{{}},"hash":"{hash}"}}"#);
        assert_eq!(
            split_first_version_line(smuggled.as_bytes()).map(|p| p.0.len()),
            Some(text.len() + r#","x":{}"#.len())
        );
        assert!(checked_first_version(smuggled.as_bytes()).is_none());
        assert_eq!(
            checked_package_text(smuggled.as_bytes()),
            Some(text.as_str())
        );
        assert_eq!(
            split_first_version_line(line.as_bytes()),
            Some((text.as_str(), hash.as_str())),
            "relay's own layout is split at its ends"
        );
    }

    #[test]
    fn an_id_is_found_in_every_project_that_holds_it_in_byte_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "p").unwrap();
        let store = Store::open(root).unwrap();
        // A long id's folder name is shortened by a digest: its record makes it known.
        let long = "p".repeat(300);
        store
            .append_project(
                &relay_wire::Project::from_value(json!({"project_id": long, "name": "L",
                "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"}))
                .unwrap(),
            )
            .unwrap();
        for project in ["zeta", "Alpha", long.as_str(), "mid"] {
            let mut map = stored("complete", 1, "").package.as_map().clone();
            map.insert("project_id".into(), Value::from(project));
            let package = Package::from_map(map).unwrap();
            let line = StoredPackage::envelope_line(&package, &package.content_hash()).unwrap();
            std::fs::create_dir_all(store.package_log_for(&package).parent().unwrap()).unwrap();
            store
                .append(&store.package_log_for(&package), &line)
                .unwrap();
        }
        let found = store.package_everywhere("pkg_1").unwrap();
        let projects: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(projects, ["Alpha", "mid", long.as_str(), "zeta"]);
        assert!(
            found
                .iter()
                .all(|(p, v)| v.len() == 1 && v[0].package.project_id() == p)
        );
        assert!(store.package_everywhere("pkg_2").unwrap().is_empty());
    }

    #[test]
    fn fragments_match_the_stored_form() {
        assert_eq!(json_fragment("pkg_1"), "pkg_1");
        assert_eq!(json_fragment("a\"b"), "a\\\"b");
    }
}
