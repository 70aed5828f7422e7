//! What a disposable cache under `cache/` knows of the log it was built from (DESIGN
//! invariant 9): how many bytes it covers, always ending at a line end, and the fingerprint
//! of the log's first `at` bytes (at least those covered) when it was built
//! ([`super::witness`]). The index holds for as long as the log still begins with exactly
//! those bytes, whatever happened to the file meanwhile: a log that only grew is extended
//! with its new lines; a log whose covered bytes changed in any way (a checkout, a merge in
//! another order, a rebase, a repair) is indexed again. Validity is decided by what the log
//! holds, never by a sample of it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::witness::{LogState, Sum};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    /// Bytes of the log covered: the end of a complete line.
    pub covered: u64,
    /// The log's first `at` bytes (`at` ≥ `covered`) had the fingerprint `sum` under the
    /// witness's `base` when the index was made.
    pub at: u64,
    pub sum: u64,
    pub base: u64,
}

impl Coverage {
    /// The coverage of the first `covered` bytes of `log`, read since `start` was observed.
    /// When the file was replaced during the read, the coverage proves nothing and never
    /// holds (the index is built again next time).
    pub fn of(log: &Path, start: &LogState, covered: u64) -> Coverage {
        let proven = covered <= start.len && start.still_current(log);
        Coverage {
            covered,
            at: if proven { start.len } else { 0 },
            sum: if proven { start.sum.0 } else { u64::MAX },
            base: start.base,
        }
    }

    /// Whether the log, as it stands (`now`), still begins with the bytes this covers.
    pub fn holds(&self, log: &Path, now: &LogState) -> std::io::Result<bool> {
        if self.base != now.base || self.covered > self.at || self.at > now.len {
            return Ok(false);
        }
        now.has_prefix(log, self.at, Sum(self.sum))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_keeps_coverage_and_rewrites_break_it() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let log = dir.path().join("p/a.ndjson");
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        std::fs::write(&log, b"{\"a\":1}\n").unwrap();
        let start = LogState::observe(&cache, &log).unwrap();
        let c = Coverage::of(&log, &start, 8);
        std::fs::write(&log, b"{\"a\":1}\n{\"b\":2}\n").unwrap();
        let now = LogState::observe(&cache, &log).unwrap();
        assert!(c.holds(&log, &now).unwrap());
        std::fs::write(&log, b"{\"a\":2}\n{\"b\":2}\n").unwrap();
        let now = LogState::observe(&cache, &log).unwrap();
        assert!(!c.holds(&log, &now).unwrap());
        std::fs::write(&log, b"{\"a\"").unwrap();
        let now = LogState::observe(&cache, &log).unwrap();
        assert!(!c.holds(&log, &now).unwrap());
    }

    #[test]
    fn lines_in_another_order_of_the_same_size_break_it() {
        // What merging branches in another order gives: same length, same first and last
        // 4 KiB; only the middle moved.
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let log = dir.path().join("p/a.ndjson");
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        let pad = "x".repeat(5000);
        let line = |n: u32| format!("{{\"n\":{n},\"pad\":\"{pad}\"}}\n");
        let x = [line(1), line(2), line(3), line(4)].concat();
        let y = [line(1), line(3), line(2), line(4)].concat();
        std::fs::write(&log, &x).unwrap();
        let start = LogState::observe(&cache, &log).unwrap();
        let c = Coverage::of(&log, &start, x.len() as u64);
        std::fs::remove_file(&log).unwrap();
        std::fs::write(&log, &y).unwrap();
        let now = LogState::observe(&cache, &log).unwrap();
        assert_eq!(now.len, x.len() as u64);
        assert!(!c.holds(&log, &now).unwrap());
    }
}
