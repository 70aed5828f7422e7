//! The package logs as their package indexes describe them: per month, each package once, at
//! its current version, with the few numbers listings need (created_at, status, type), and
//! without reading a line. Listings (`pull --latest`, orient, status) choose from this and
//! read only the lines they show, so their cost follows what they print, not the store's size.
//! (Which entries a listing's filter may pass, judged from the catalog, is `search::filter`'s
//! `Filter::may_match`.)

use std::path::{Path, PathBuf};

use super::packages::{self, Doc, QueryView};
use crate::Store;
use crate::packages::{StoredPackage, VersionKey};
use relay_wire::Status;
use relay_wire::error::{Error, Result};

/// One package of a month, at its current version. Its id, type and versions are kept by the
/// [`MonthCatalog`] (see [`MonthCatalog::id`]), so a catalog of a busy month is a few flat
/// tables rather than an allocation per package.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub created_micros: i64,
    pub status: Status,
    pub significance: i8,
    /// The current version's document in the month's index.
    doc: u32,
    /// Its versions: `versions[first..first + count]`, the current one first.
    first: u32,
    count: u32,
}

/// The packages of one monthly log.
#[derive(Debug)]
pub struct MonthCatalog {
    pub log: PathBuf,
    /// Newest `created_at` first; ties by package id.
    pub entries: Vec<Entry>,
    view: QueryView,
    /// Line offsets of every entry's versions (see [`Entry`]).
    versions: Vec<u64>,
    /// Whether `entries` holds every package of the month, or only the newest
    /// ([`MonthCatalog::load_newest`]).
    pub complete: bool,
}

/// The version order of `store::packages::version_order` as the index knows it.
fn order(d: &Doc) -> VersionKey {
    VersionKey::new(d.status, u64::from(d.version), d.hash_prefix)
}

impl MonthCatalog {
    /// The catalog of `log`, its index brought up to date as needed. A log with damaged or
    /// torn lines is also read in full once, so that they are reported as a scan would.
    pub fn load(store: &Store, log: &Path) -> Result<MonthCatalog> {
        Self::load_newest(store, log, usize::MAX)
    }

    /// [`MonthCatalog::load`], but `entries` may hold only the month's newest packages: every
    /// one created at or after the time of its `want`-th newest line, in the same order as
    /// the whole catalog begins with (`complete` tells which). What `pull --latest` reads of
    /// the month being written on every request: its lines' times and keys, and only the
    /// newest packages' records, not every document grouped and sorted.
    pub fn load_newest(store: &Store, log: &Path, want: usize) -> Result<MonthCatalog> {
        let cache = store.layout().cache_dir();
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        let view = packages::query(&cache, log, &[]).map_err(io)?;
        if view.damaged || ends_torn(log).map_err(io)? {
            store.report_damage(log)?;
        }
        let (entries, versions, complete) = match newest(&view, want) {
            Some((entries, versions)) => (entries, versions, false),
            None => {
                let all: Vec<u32> = (0..view.doc_count() as u32).collect();
                let (entries, versions) = entries(&view, &all);
                (entries, versions, true)
            }
        };
        Ok(MonthCatalog {
            log: log.to_path_buf(),
            entries,
            view,
            versions,
            complete,
        })
    }

    /// Whether the month's index met lines it could not read (reported when it was loaded).
    pub fn damaged(&self) -> bool {
        self.view.damaged
    }

    /// The package id of `entry`.
    pub fn id(&self, entry: &Entry) -> &str {
        self.view.doc_id(entry.doc).unwrap_or_default()
    }

    /// The package type of `entry`, when the index's type table holds it.
    pub fn package_type(&self, entry: &Entry) -> Option<&str> {
        let doc = self.view.doc(entry.doc)?;
        self.view.doc_type(&doc)
    }

    /// Line offsets of the versions of `entry`, the current one first.
    pub fn versions(&self, entry: &Entry) -> &[u64] {
        let first = entry.first as usize;
        &self.versions[first..first + entry.count as usize]
    }

    /// The package of `entry` at its current version: the first of its versions whose line
    /// reads and checks out (a damaged line is reported and the next version taken).
    pub fn read(&self, store: &Store, entry: &Entry) -> Result<Option<StoredPackage>> {
        let versions = self.versions(entry);
        let mut read: Vec<StoredPackage> = Vec::new();
        for &offset in versions {
            if let Some(p) = store.package_at(&self.log, offset)? {
                // Versions the index cannot tell apart are settled by the full order.
                if read.first().is_some_and(|first| first.version != p.version) {
                    break;
                }
                read.push(p);
                if versions.len() == 1 {
                    break;
                }
            }
        }
        Ok(read.into_iter().max_by(crate::packages::version_order))
    }
}

/// Which entries of a month may hold every one of some byte strings: the month's log is read
/// once, and an entry passes if the line of any of its versions holds them all, or holds a
/// `\` (an escape could spell them otherwise, so such a line is left to the parser).
pub struct LinePrefilter {
    pass: Vec<bool>,
}

impl LinePrefilter {
    /// Whether `entry` (by its place in `entries`) may match.
    pub fn may_match(&self, at: usize) -> bool {
        self.pass.get(at).copied().unwrap_or(true)
    }
}

impl MonthCatalog {
    /// The entries whose lines may hold every one of `needles` (see [`LinePrefilter`]): what
    /// lets a listing filtered by text the index does not keep (tags, authors) skip parsing
    /// the lines that cannot match.
    pub fn prefilter(&self, needles: &[String]) -> Result<LinePrefilter> {
        let bytes = std::fs::read(&self.log)
            .map_err(|e| Error::io(format!("cannot read {}", self.log.display()), e))?;
        let finders: Vec<memchr::memmem::Finder> = needles
            .iter()
            .map(|n| memchr::memmem::Finder::new(n.as_bytes()))
            .collect();
        let line = |offset: u64| -> &[u8] {
            let start = (offset as usize).min(bytes.len());
            let rest = &bytes[start..];
            &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())]
        };
        let holds = |l: &[u8]| {
            memchr::memchr(b'\\', l).is_some() || finders.iter().all(|f| f.find(l).is_some())
        };
        let pass = (self.entries.iter())
            .map(|e| self.versions(e).iter().any(|&o| holds(line(o))))
            .collect();
        Ok(LinePrefilter { pass })
    }
}

/// Whether the last line of `log` lacks its newline.
fn ends_torn(log: &Path) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(log)?;
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

impl MonthCatalog {
    /// Like [`MonthCatalog::read`], through a log already open (`file`): what a full export
    /// uses, rather than open the log once per package. Every version is read and checked, so
    /// a damaged old version is reported too.
    pub fn read_in(
        &self,
        store: &Store,
        file: &std::fs::File,
        entry: &Entry,
    ) -> Option<StoredPackage> {
        let mut read: Vec<StoredPackage> = Vec::new();
        for &offset in self.versions(entry) {
            let line = crate::log::line_at(file, offset).ok()?;
            let parsed = match serde_json::from_slice::<serde_json::Value>(&line) {
                Ok(serde_json::Value::Object(env)) => {
                    // The line number is counted only for a warning.
                    StoredPackage::from_envelope(env, &self.log, 0)
                }
                _ => Err((
                    crate::WarningKind::CorruptLine,
                    "the line is not a JSON object; it was skipped".into(),
                )),
            };
            match parsed {
                Ok(p) => read.push(p),
                Err((kind, message)) => {
                    let line_no = line_number(file, offset);
                    store.diagnostics().warn(&self.log, line_no, kind, message);
                }
            }
        }
        read.into_iter().max_by(crate::packages::version_order)
    }
}

/// The number of the line at `offset`: one more than the newlines before it.
fn line_number(file: &std::fs::File, offset: u64) -> u64 {
    use std::io::Read;
    let mut head = Vec::new();
    let _ = file.take(offset).read_to_end(&mut head);
    head.iter().filter(|&&b| b == b'\n').count() as u64 + 1
}

/// A month with fewer lines than this many times what is wanted of it is catalogued whole.
const NEWEST_WHOLE_BELOW: usize = 4;

/// The entries of the packages created at or after the time of the `want`-th newest line
/// of the month, with their versions, as [`entries`] orders them: the start of the whole
/// catalog. `None` where the month is small beside `want`, or a record cannot be read.
fn newest(view: &QueryView, want: usize) -> Option<(Vec<Entry>, Vec<u64>)> {
    let n = view.doc_count();
    if want == 0 || n / NEWEST_WHOLE_BELOW < want {
        return None;
    }
    let created: Vec<i64> = (0..n as u32)
        .map(|i| view.doc_created(i))
        .collect::<Option<_>>()?;
    let mut times = created.clone();
    let (_, &mut since, _) = times.select_nth_unstable_by(want - 1, |a, b| b.cmp(a));
    // Every line of the packages that have one that new: a package's versions come whole
    // (the entry's time is its current version's, so the ones that end up older are cut).
    let keys: std::collections::HashSet<u64, super::KeyHashing> = (0..n as u32)
        .filter(|&i| created[i as usize] >= since)
        .map(|i| view.doc_key(i))
        .collect::<Option<_>>()?;
    let chosen: Vec<u32> = (0..n as u32)
        .filter(|&i| view.doc_key(i).is_some_and(|k| keys.contains(&k)))
        .collect();
    let (mut entries, versions) = entries(view, &chosen);
    entries.retain(|e| e.created_micros >= since);
    Some((entries, versions))
}

/// The packages of the month's documents `chosen` (ascending) newest first, and their
/// versions' offsets. Documents are grouped by package through a sort on the id's 64-bit
/// key, which each document's record holds (ids that share a key are told apart by their
/// text), so no per-package allocation is made.
fn entries(view: &QueryView, chosen: &[u32]) -> (Vec<Entry>, Vec<u64>) {
    let docs: Vec<(u32, Doc)> = (chosen.iter())
        .filter_map(|&i| Some((i, view.doc(i)?)))
        .collect();
    // Documents by their place in `docs`.
    let doc = |i: u32| &docs[i as usize].1;
    let number = |i: u32| docs[i as usize].0;
    let id = |i: u32| view.doc_id(number(i)).unwrap_or_default();
    let key = |i: u32| {
        view.doc_key(number(i))
            .unwrap_or_else(|| super::id_key(id(i)))
    };
    let mut by_key: Vec<(u64, u32)> = (0..docs.len() as u32).map(|i| (key(i), i)).collect();
    by_key.sort_unstable();
    let mut entries = Vec::with_capacity(by_key.len());
    let mut versions = Vec::with_capacity(by_key.len());
    let mut group: Vec<u32> = Vec::new();
    let mut rest = by_key.as_slice();
    while let Some(&(key, _)) = rest.first() {
        let run = rest.partition_point(|&(k, _)| k == key);
        let (same_key, after) = rest.split_at(run);
        rest = after;
        group.clear();
        group.extend(same_key.iter().map(|&(_, i)| i));
        // Best version first; within a (rare) key collision, grouped by id text.
        group.sort_unstable_by(|&a, &b| {
            id(a)
                .cmp(id(b))
                .then_with(|| order(doc(b)).cmp(&order(doc(a))))
                .then(a.cmp(&b))
        });
        for package in group.chunk_by(|&a, &b| id(a) == id(b)) {
            let current = doc(package[0]);
            entries.push(Entry {
                created_micros: current.created_micros,
                status: current.status,
                significance: current.significance,
                // (its place in `docs` until the entries are ordered below)
                doc: package[0],
                first: versions.len() as u32,
                count: package.len() as u32,
            });
            versions.extend(package.iter().map(|&i| doc(i).offset));
        }
    }
    // Put in the log's order, newest line first, the entries are nearly in the order of
    // time already (a log is appended to as time goes), and a sort that follows runs of
    // sorted input ends in a few passes instead of sorting entries that came by key.
    let mut at_doc: Vec<u32> = vec![u32::MAX; docs.len()];
    for (i, e) in entries.iter().enumerate() {
        at_doc[e.doc as usize] = i as u32;
    }
    let mut entries: Vec<Entry> = (at_doc.iter().rev())
        .filter(|&&i| i != u32::MAX)
        .map(|&i| entries[i as usize])
        .collect();
    entries.sort_by(|a, b| {
        b.created_micros
            .cmp(&a.created_micros)
            .then_with(|| id(a.doc).cmp(id(b.doc)))
    });
    for e in &mut entries {
        e.doc = number(e.doc);
    }
    (entries, versions)
}

/// Brings every package log's index of `project` up to date, two logs at a time: commands that
/// read every month call this first, so a cold cache is rebuilt on both cores.
pub fn warm(store: &Store, project: &str) -> Result<()> {
    if !store.config().search_index() {
        return Ok(());
    }
    let logs = store.package_logs(project)?;
    packages::warm(&store.layout().cache_dir(), &logs)
        .map_err(|e| Error::io("cannot build the package indexes under cache/", e))?;
    Ok(())
}

/// The bytes of package logs, over `projects`, that have no usable index yet: what the next
/// read of every month will have to index.
pub fn cold_bytes(store: &Store, projects: &[String]) -> u64 {
    let cache = store.layout().cache_dir();
    projects
        .iter()
        .filter_map(|p| store.package_logs(p).ok())
        .flatten()
        .filter(|log| !packages::is_warm(&cache, log))
        .filter_map(|log| std::fs::metadata(log).ok())
        .map(|m| m.len())
        .sum()
}
