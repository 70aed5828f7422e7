//! What a disposable cache under `cache/` knows of the log it was built from (DESIGN
//! invariant 9): how many bytes it covers, always ending at a line end, and fingerprints of
//! the first and last (up to) 4 KiB of them. A log that only grew still matches, and the cache
//! is extended with the new lines; a log rewritten under it (a git checkout or merge, a repair)
//! does not, and the cache is built again.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

const FINGERPRINT_BYTES: u64 = 4096;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    /// Bytes of the log covered: the end of a complete line.
    pub covered: u64,
    /// SHA-256 prefixes of the first and the last (up to) 4 KiB of the covered bytes.
    pub head: String,
    pub tail: String,
}

fn fingerprint(file: &mut File, start: u64, len: u64) -> std::io::Result<String> {
    file.seek(SeekFrom::Start(start))?;
    let mut buf = Vec::with_capacity(len as usize);
    file.take(len).read_to_end(&mut buf)?;
    Ok(Sha256::digest(&buf)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

impl Coverage {
    /// The coverage of the first `covered` bytes of `log`.
    pub fn of(log: &Path, covered: u64) -> std::io::Result<Coverage> {
        let mut file = File::open(log)?;
        let n = covered.min(FINGERPRINT_BYTES);
        Ok(Coverage {
            covered,
            head: fingerprint(&mut file, 0, n)?,
            tail: fingerprint(&mut file, covered - n, n)?,
        })
    }

    /// Whether `log`, now `log_len` bytes long, still begins with the bytes this covers.
    pub fn still_holds(&self, log: &Path, log_len: u64) -> std::io::Result<bool> {
        Ok(self.covered <= log_len && *self == Coverage::of(log, self.covered)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_keeps_coverage_and_rewrites_break_it() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("a.ndjson");
        std::fs::write(&log, b"{\"a\":1}\n").unwrap();
        let c = Coverage::of(&log, 8).unwrap();
        std::fs::write(&log, b"{\"a\":1}\n{\"b\":2}\n").unwrap();
        assert!(c.still_holds(&log, 16).unwrap());
        std::fs::write(&log, b"{\"a\":2}\n{\"b\":2}\n").unwrap();
        assert!(!c.still_holds(&log, 16).unwrap());
        assert!(!c.still_holds(&log, 4).unwrap());
    }
}
