//! The ids of the packages of a few sparse custom types (agent memory's `x-lesson` and
//! `x-checkpoint`) in each
//! monthly package log, so that a read of them whatever their age opens one small file per
//! month instead of every month's catalog. Kept like every index (invariant 9): a log that
//! grew is scanned from where the file's coverage ends; any other change rebuilds it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::TYPES;
use super::coverage::Coverage;
use super::witness::LogState;

/// The package types this index tracks.
pub const TRACKED: &[&str] = &["x-lesson", "x-checkpoint"];

/// One log's file: what it covers, and the ids of each tracked type in line order.
#[derive(Debug, Default, Serialize, Deserialize)]
struct TypesFile {
    format: u32,
    /// The types tracked when it was written: a file that tracked others is rebuilt.
    types: Vec<String>,
    coverage: Option<Coverage>,
    ids: BTreeMap<String, Vec<String>>,
}

pub(super) fn file_path(cache_dir: &Path, log: &Path) -> PathBuf {
    TYPES.month_file(cache_dir, log)
}

/// Adds the tracked packages of the complete lines of `log` from byte `from` up to byte `to`
/// to `ids`, streamed a megabyte at a time (a month's log is tens of megabytes, and a cold
/// cache builds two at once); returns where the complete lines end.
fn scan(
    log: &Path,
    from: u64,
    to: u64,
    ids: &mut BTreeMap<String, Vec<String>>,
) -> std::io::Result<u64> {
    let needles = needles();
    let mut sink = crate::log::Lines(|_, _, line: &[u8]| {
        scan_line(line, &needles, ids);
        Ok::<_, std::io::Error>(true)
    });
    (crate::log::LogReader::new(log).from(from, 1).until(to))
        .buffer(1 << 20)
        .must_exist()
        .read(&mut sink)
}

/// What a line of a tracked type holds: the type as a JSON string.
fn needles() -> Vec<String> {
    TRACKED.iter().map(|t| format!("\"{t}\"")).collect()
}

/// Adds the package of `line` to `ids` if it is of a tracked type.
fn scan_line(line: &[u8], needles: &[String], ids: &mut BTreeMap<String, Vec<String>>) {
    if !(needles.iter()).any(|n| memchr::memmem::find(line, n.as_bytes()).is_some()) {
        return;
    }
    let Ok(serde_json::Value::Object(env)) = serde_json::from_slice(line) else {
        return;
    };
    let package = env.get("package");
    let field = |k: &str| package.and_then(|p| p.get(k)).and_then(|v| v.as_str());
    if let (Some(t), Some(id)) = (field("package_type"), field("package_id"))
        && TRACKED.contains(&t)
    {
        let list = ids.entry(t.to_string()).or_default();
        if !list.iter().any(|known| known == id) {
            list.push(id.to_string());
        }
    }
}

/// The ids of the packages of `package_type` (one of [`TRACKED`]) in `log`, in the order they
/// first appear. The cache file is brought up to date and saved when it changed; a cache that
/// cannot be written is no error.
pub fn ids_of_type(
    cache_dir: &Path,
    log: &Path,
    package_type: &str,
) -> std::io::Result<Vec<String>> {
    let path = file_path(cache_dir, log);
    let state = LogState::observe(cache_dir, log)?;
    let log_len = state.len;
    let mut file = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<TypesFile>(&b).ok())
        .filter(|f| f.format == TYPES.format && f.types == TRACKED)
        .unwrap_or_default();
    let holds = match &file.coverage {
        Some(c) => c.holds(log, &state)?,
        None => false,
    };
    if !holds {
        file = TypesFile {
            format: TYPES.format,
            types: TRACKED.iter().map(|t| t.to_string()).collect(),
            ..TypesFile::default()
        };
    }
    let start = file.coverage.as_ref().map_or(0, |c| c.covered);
    if start < log_len {
        // Only complete lines are covered: a torn last line is read again once it is whole.
        let end = scan(log, start, log_len, &mut file.ids)?;
        if end > start {
            file.coverage = Some(Coverage::of(log, &state, end));
            if let Some(dir) = path.parent()
                && std::fs::create_dir_all(dir).is_ok()
                && let Ok(text) = serde_json::to_vec(&file)
            {
                let _ = crate::log::write_atomic(&path, &text);
            }
        }
    }
    Ok(file.ids.remove(package_type).unwrap_or_default())
}

/// Builds the types files that `logs` lack, on two threads, when two or more do: a read of
/// every month (orient's lessons) after a fresh clone would otherwise scan them one by one.
/// A single missing file is left to that read.
pub fn warm(cache_dir: &Path, logs: &[PathBuf]) -> std::io::Result<()> {
    let cold: Vec<&PathBuf> = (logs.iter())
        .filter(|log| !file_path(cache_dir, log).exists())
        .collect();
    if cold.len() < 2 {
        return Ok(());
    }
    super::on_two_threads(&cold, |log| {
        ids_of_type(cache_dir, log, TRACKED[0]).map(drop)
    })
}

/// Checks the types file of `log` against the bytes of the log it covers.
pub fn check(cache_dir: &Path, log: &Path) -> std::io::Result<super::Check> {
    use super::Check;
    let path = file_path(cache_dir, log);
    let Ok(bytes) = std::fs::read(&path) else {
        return Ok(Check::Absent);
    };
    let Some(file) = serde_json::from_slice::<TypesFile>(&bytes)
        .ok()
        .filter(|f| f.format == TYPES.format && f.types == TRACKED)
    else {
        return Ok(Check::OutOfDate); // an older format or other types: rebuilt when read
    };
    let Some(coverage) = &file.coverage else {
        return Ok(Check::OutOfDate);
    };
    let state = LogState::observe(cache_dir, log)?;
    if !coverage.holds(log, &state)? {
        return Ok(Check::OutOfDate);
    }
    let mut fresh = BTreeMap::new();
    scan(log, 0, coverage.covered, &mut fresh)?;
    Ok(if fresh == file.ids {
        Check::Sound
    } else {
        Check::Stale("its package ids are not those of the log's lines".into())
    })
}

/// Removes the types file of `log`; the next read of lessons or checkpoints builds it.
pub fn remove(cache_dir: &Path, log: &Path) -> std::io::Result<()> {
    super::remove_derived(&file_path(cache_dir, log))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, t: &str) -> String {
        format!(
            "{{\"package\":{{\"package_id\":\"{id}\",\"package_type\":\"{t}\"}},\"hash\":\"h\"}}\n"
        )
    }

    #[test]
    fn a_grown_log_is_scanned_from_its_coverage_and_a_rewritten_one_again() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let log = dir.path().join("projects/demo/packages/2026-01.ndjson");
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        std::fs::write(&log, line("a", "x-lesson") + &line("b", "standard")).unwrap();
        assert_eq!(ids_of_type(&cache, &log, "x-lesson").unwrap(), ["a"]);
        let grown = line("a", "x-lesson") + &line("b", "standard") + &line("c", "x-lesson");
        std::fs::write(&log, &grown).unwrap();
        assert_eq!(ids_of_type(&cache, &log, "x-lesson").unwrap(), ["a", "c"]);
        // A torn last line is left for later.
        std::fs::write(
            &log,
            grown.clone() + "{\"package\":{\"package_type\":\"x-lesson\"",
        )
        .unwrap();
        assert_eq!(ids_of_type(&cache, &log, "x-lesson").unwrap(), ["a", "c"]);
        std::fs::write(&log, line("z", "x-lesson")).unwrap();
        assert_eq!(ids_of_type(&cache, &log, "x-lesson").unwrap(), ["z"]);
    }

    #[test]
    fn warm_builds_every_months_file_that_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let logs: Vec<PathBuf> = (1..=5)
            .map(|m| {
                dir.path()
                    .join(format!("projects/demo/packages/2026-0{m}.ndjson"))
            })
            .collect();
        std::fs::create_dir_all(logs[0].parent().unwrap()).unwrap();
        for (m, log) in logs.iter().enumerate() {
            std::fs::write(
                log,
                line(&format!("l{m}"), "x-lesson") + &line("s", "standard"),
            )
            .unwrap();
        }
        warm(&cache, &logs).unwrap();
        for (m, log) in logs.iter().enumerate() {
            assert!(file_path(&cache, log).exists(), "{}", log.display());
            assert_eq!(
                ids_of_type(&cache, log, "x-lesson").unwrap(),
                [format!("l{m}")]
            );
        }
    }

    #[test]
    fn check_streams_the_covered_lines_and_finds_an_edited_file_stale() {
        use super::super::Check;
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let log = dir.path().join("projects/demo/packages/2026-01.ndjson");
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        assert!(matches!(check(&cache, &log).unwrap(), Check::Absent));
        let lines = line("a", "x-lesson") + &line("b", "standard") + &line("c", "x-checkpoint");
        // A torn last line: the index covers the lines before it, and so does the check.
        std::fs::write(&log, lines + "{\"package\":{\"package_type\":\"x-lesson\"").unwrap();
        ids_of_type(&cache, &log, "x-lesson").unwrap();
        assert!(matches!(check(&cache, &log).unwrap(), Check::Sound));
        let path = file_path(&cache, &log);
        let edited = std::fs::read_to_string(&path)
            .unwrap()
            .replace("\"a\"", "\"q\"");
        std::fs::write(&path, edited).unwrap();
        assert!(matches!(check(&cache, &log).unwrap(), Check::Stale(_)));
    }
}
