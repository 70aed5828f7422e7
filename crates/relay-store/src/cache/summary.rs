//! What `relay status` counts of each monthly package log (its packages by type and status,
//! and the newest one's `created_at`), kept per log so that a status of a store of a million
//! packages reads one small file per month instead of loading every month's catalog. Kept
//! like every index (invariant 9), but whole: it holds only while its log is exactly the
//! bytes it covers; a log that grew or changed is counted again from its catalog. A month
//! whose log has damaged or torn lines is never saved, so its warnings are reported by every
//! status that counts it.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::SUMMARY;
use super::catalog::MonthCatalog;
use super::coverage::Coverage;
use super::witness::LogState;
use crate::Store;
use relay_wire::error::{Error, Result};

/// The counts of one month's packages, each at its current version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonthSummary {
    /// How many packages of each type have each status: `type → status → count`.
    pub counts: BTreeMap<String, BTreeMap<String, u64>>,
    /// The newest package's `created_at` as written; `None` for a month with none.
    pub newest: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct SummaryFile {
    format: u32,
    coverage: Option<Coverage>,
    summary: MonthSummary,
}

pub(super) fn file_path(cache_dir: &Path, log: &Path) -> PathBuf {
    SUMMARY.month_file(cache_dir, log)
}

/// Counts `log` from its catalog (the package index, brought up to date).
fn count(store: &Store, catalog: &MonthCatalog) -> Result<MonthSummary> {
    let mut s = MonthSummary::default();
    for (i, e) in catalog.entries.iter().enumerate() {
        let mut tally = |package_type: &str, status: &str| {
            *s.counts
                .entry(package_type.to_string())
                .or_default()
                .entry(status.to_string())
                .or_default() += 1;
        };
        match (catalog.package_type(e), i == 0) {
            (Some(t), false) => tally(t, e.status.as_str()),
            // The newest package's line is read for its time as written, and a type the
            // index's table could not hold for its name.
            _ => {
                if let Some(p) = catalog.read(store, e)? {
                    let pkg = &p.package;
                    tally(pkg.package_type(), pkg.status().as_str());
                    if i == 0 {
                        s.newest = Some(pkg.created_at_str().to_string());
                    }
                }
            }
        }
    }
    Ok(s)
}

fn ends_with_newline(log: &Path, len: u64) -> std::io::Result<bool> {
    if len == 0 {
        return Ok(true);
    }
    let mut f = std::fs::File::open(log)?;
    f.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    f.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// The summary of `log` saved in its file, when that covers exactly the log as it stands.
pub fn saved(store: &Store, log: &Path) -> Result<Option<MonthSummary>> {
    let cache = store.layout().cache_dir();
    let io = |e| Error::io(format!("cannot read {}", log.display()), e);
    let Some(file) = std::fs::read(file_path(&cache, log))
        .ok()
        .and_then(|b| serde_json::from_slice::<SummaryFile>(&b).ok())
        .filter(|f| f.format == SUMMARY.format)
    else {
        return Ok(None);
    };
    let state = LogState::observe(&cache, log).map_err(io)?;
    let holds = match &file.coverage {
        Some(c) => c.covered == state.len && c.holds(log, &state).map_err(io)?,
        None => false,
    };
    Ok(holds.then_some(file.summary))
}

/// Counts `log` from the month's catalog and saves the summary, when the log is whole and
/// undamaged (a cache that cannot be written is no error).
pub fn count_and_save(store: &Store, log: &Path) -> Result<MonthSummary> {
    let cache = store.layout().cache_dir();
    let io = |e| Error::io(format!("cannot read {}", log.display()), e);
    let state = LogState::observe(&cache, log).map_err(io)?;
    let catalog = MonthCatalog::load(store, log)?;
    let summary = count(store, &catalog)?;
    let whole = ends_with_newline(log, state.len).map_err(io)?;
    if whole && !catalog.damaged() && state.still_current(log) {
        let file = SummaryFile {
            format: SUMMARY.format,
            coverage: Some(Coverage::of(log, &state, state.len)),
            summary: summary.clone(),
        };
        let path = file_path(&cache, log);
        if let Some(dir) = path.parent()
            && std::fs::create_dir_all(dir).is_ok()
            && let Ok(text) = serde_json::to_vec(&file)
        {
            let _ = crate::log::write_atomic(&path, &text);
        }
    }
    Ok(summary)
}

/// One pair of counts of a whole log (a project's sessions: how many, how many open), kept
/// under `name` beside the months' summaries while the log is exactly the bytes it covers;
/// else `count` is called and its answer saved (unless the log ends torn or a warning about
/// it was raised while counting, so that every read that counts it reports it again).
pub fn log_counts(
    store: &Store,
    log: &Path,
    name: &str,
    count: impl FnOnce() -> Result<(u64, u64)>,
) -> Result<(u64, u64)> {
    #[derive(Serialize, Deserialize)]
    struct CountsFile {
        format: u32,
        coverage: Coverage,
        counts: (u64, u64),
    }
    let cache = store.layout().cache_dir();
    let io = |e| Error::io(format!("cannot read {}", log.display()), e);
    let project = log.parent().and_then(Path::file_name);
    let path = SUMMARY
        .dir(&cache)
        .join(project.unwrap_or_default())
        .join(format!("{name}.json"));
    if !log.exists() {
        return count();
    }
    let state = LogState::observe(&cache, log).map_err(io)?;
    if let Some(file) = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<CountsFile>(&b).ok())
        .filter(|f| f.format == SUMMARY.format)
        && file.coverage.covered == state.len
        && file.coverage.holds(log, &state).map_err(io)?
    {
        return Ok(file.counts);
    }
    let counts = count()?;
    let whole = ends_with_newline(log, state.len).map_err(io)?;
    if whole && !store.diagnostics().about(log) && state.still_current(log) {
        let file = CountsFile {
            format: SUMMARY.format,
            coverage: Coverage::of(log, &state, state.len),
            counts,
        };
        if let Some(dir) = path.parent()
            && std::fs::create_dir_all(dir).is_ok()
            && let Ok(text) = serde_json::to_vec(&file)
        {
            let _ = crate::log::write_atomic(&path, &text);
        }
    }
    Ok(counts)
}

/// Checks the summary file of `log` against a fresh count of its catalog (`relay verify`).
pub fn check(store: &Store, log: &Path) -> Result<super::Check> {
    use super::Check;
    let cache = store.layout().cache_dir();
    let io = |e| Error::io(format!("cannot read {}", log.display()), e);
    let Ok(bytes) = std::fs::read(file_path(&cache, log)) else {
        return Ok(Check::Absent);
    };
    let Some(file) = serde_json::from_slice::<SummaryFile>(&bytes)
        .ok()
        .filter(|f| f.format == SUMMARY.format)
    else {
        return Ok(Check::OutOfDate);
    };
    let state = LogState::observe(&cache, log).map_err(io)?;
    let holds = match &file.coverage {
        Some(c) => c.covered == state.len && c.holds(log, &state).map_err(io)?,
        None => false,
    };
    if !holds {
        return Ok(Check::OutOfDate);
    }
    let fresh = count(store, &MonthCatalog::load(store, log)?)?;
    Ok(if fresh == file.summary {
        Check::Sound
    } else {
        Check::Stale("its counts are not those of the log's packages".into())
    })
}

/// Removes the summary file of `log`; the next status counts the month again.
pub fn remove(cache_dir: &Path, log: &Path) -> std::io::Result<()> {
    super::remove_derived(&file_path(cache_dir, log))
}
