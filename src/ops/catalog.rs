//! The package logs as their search indexes describe them: per month, each package once, at
//! its current version, with the few numbers listings need (created_at, status, type), and
//! without reading a line. Listings (`pull --latest`, orient, status) choose from this and
//! read only the lines they show, so their cost follows what they print, not the store's size.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::pull::Filter;
use crate::error::{Error, Result};
use crate::search::index::{self, Doc, QueryView};
use crate::store::Store;
use crate::store::packages::StoredPackage;
use crate::wire::Status;

/// One package of a month: its current version first, then older ones.
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    pub created_micros: i64,
    pub status: Status,
    /// The package type, when the index's type table holds it.
    pub package_type: Option<String>,
    pub significance: i8,
    /// Line offsets of its versions, the current one first.
    versions: Vec<u64>,
}

/// The packages of one monthly log.
#[derive(Debug)]
pub struct MonthCatalog {
    pub log: PathBuf,
    /// Newest `created_at` first; ties by package id.
    pub entries: Vec<Entry>,
}

/// The version order of `store::packages::version_order` as the index knows it: complete
/// wins, then the version number, then the hash's first 64 bits.
fn order(d: &Doc) -> (bool, u32, u64) {
    (d.status == Status::Complete, d.version, d.hash_prefix)
}

impl MonthCatalog {
    /// The catalog of `log`, its index brought up to date as needed. A log with damaged or
    /// torn lines is also read in full once, so that they are reported as a scan would.
    pub fn load(store: &Store, log: &Path) -> Result<MonthCatalog> {
        let cache = store.layout().cache_dir();
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        let view = index::query(&cache, log, &[]).map_err(io)?;
        if view.damaged || ends_torn(log).map_err(io)? {
            store.report_damage(log)?;
        }
        Ok(MonthCatalog {
            log: log.to_path_buf(),
            entries: entries(&view),
        })
    }

    /// The package of `entry` at its current version: the first of its versions whose line
    /// reads and checks out (a damaged line is reported and the next version taken).
    pub fn read(&self, store: &Store, entry: &Entry) -> Result<Option<StoredPackage>> {
        let mut read: Vec<StoredPackage> = Vec::new();
        for &offset in &entry.versions {
            if let Some(p) = store.package_at(&self.log, offset)? {
                // Versions the index cannot tell apart are settled by the full order.
                if read.first().is_some_and(|first| first.version != p.version) {
                    break;
                }
                read.push(p);
                if entry.versions.len() == 1 {
                    break;
                }
            }
        }
        Ok(read
            .into_iter()
            .max_by(crate::store::packages::version_order))
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
    /// Like [`MonthCatalog::read`], from the log's bytes already in memory (`log_bytes`):
    /// what a full export uses, rather than open the log once per package. Every version is
    /// read and checked, so a damaged old version is reported too.
    pub fn read_in(&self, store: &Store, log_bytes: &[u8], entry: &Entry) -> Option<StoredPackage> {
        let mut read: Vec<StoredPackage> = Vec::new();
        for &offset in &entry.versions {
            let start = offset as usize;
            let line = log_bytes.get(start..)?;
            let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
            let line_no = || log_bytes[..start].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            let parsed = match serde_json::from_slice::<serde_json::Value>(line) {
                Ok(serde_json::Value::Object(env)) => {
                    // The line number is counted only for a warning.
                    StoredPackage::from_envelope(env, &self.log, 0)
                }
                _ => Err((
                    crate::store::WarningKind::CorruptLine,
                    "the line is not a JSON object; it was skipped".into(),
                )),
            };
            match parsed {
                Ok(p) => read.push(p),
                Err((kind, message)) => {
                    store
                        .diagnostics()
                        .warn(&self.log, line_no(), kind, message);
                }
            }
        }
        read.into_iter()
            .max_by(crate::store::packages::version_order)
    }
}

fn entries(view: &QueryView) -> Vec<Entry> {
    let mut by_id: HashMap<&str, Vec<Doc>> = HashMap::with_capacity(view.doc_count());
    for i in 0..view.doc_count() as u32 {
        if let (Some(id), Some(doc)) = (view.doc_id(i), view.doc(i)) {
            by_id.entry(id).or_default().push(doc);
        }
    }
    let mut out: Vec<(&str, Entry)> = by_id
        .into_iter()
        .map(|(id, mut docs)| {
            docs.sort_by_key(|d| std::cmp::Reverse(order(d)));
            let current = &docs[0];
            let entry = Entry {
                id: id.to_string(),
                created_micros: current.created_micros,
                status: current.status,
                package_type: view.doc_type(current).map(str::to_string),
                significance: current.significance,
                versions: docs.iter().map(|d| d.offset).collect(),
            };
            (id, entry)
        })
        .collect();
    out.sort_unstable_by(|(ia, a), (ib, b)| {
        b.created_micros.cmp(&a.created_micros).then(ia.cmp(ib))
    });
    out.into_iter().map(|(_, e)| e).collect()
}

/// Whether `entry` can pass `filter`, judged from the index alone (a `true` still needs the
/// line read and [`Filter::matches`]).
pub fn may_match(entry: &Entry, filter: &Filter) -> bool {
    let at = entry.created_micros;
    if filter.since.is_some_and(|s| at < s.timestamp_micros())
        || filter.until.is_some_and(|u| at >= u.timestamp_micros())
        || filter.status.is_some_and(|s| s != entry.status)
    {
        return false;
    }
    match &entry.package_type {
        Some(t) => filter.types.is_empty() || filter.types.contains(t),
        None => true,
    }
}

/// Brings every package log's index of `project` up to date, two logs at a time: commands that
/// read every month call this first, so a cold cache is rebuilt on both cores.
pub fn warm(store: &Store, project: &str) -> Result<()> {
    if !store.config().search_index() {
        return Ok(());
    }
    let logs = store.package_logs(project)?;
    index::warm(&store.layout().cache_dir(), &logs)
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
        .filter(|log| !index::is_warm(&cache, log))
        .filter_map(|log| std::fs::metadata(log).ok())
        .map(|m| m.len())
        .sum()
}
