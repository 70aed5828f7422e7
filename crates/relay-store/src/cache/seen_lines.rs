//! `cache/watch-v1/`: where a watch starts without reading every log. A watch counts each
//! line before its start as seen, so that a log rewritten under it (a checkout, a merge) gives
//! only the lines it has not seen ([`crate::tail`]); it knows them by a 64-bit key of their
//! bytes. This file keeps those keys for the first `covered` bytes of a log, with the log's
//! [`Coverage`], so that the next watch reads only the bytes after them. A log that no longer
//! begins with the covered bytes is read whole again, and its keys saved anew.
//!
//! One binary file per log, `<dir>/<path of the log under .relay/>.keys`: a header (magic,
//! coverage, count, checksum), then the keys sorted, little-endian. Written by rename; a file
//! that is damaged or does not hold for its log is ignored.

use std::path::{Path, PathBuf};

use super::WATCH;
use super::coverage::Coverage;
use super::witness::LogState;

const MAGIC: &[u8; 8] = b"rwseen\0\x01";
const HEADER: usize = 8 * 7;

/// The keys of the lines in the first `coverage.covered` bytes of a log, sorted, each once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenLines {
    pub coverage: Coverage,
    pub keys: Vec<u64>,
}

/// Where the keys of `log` (a log under the store root that holds `cache_dir`) are kept.
pub fn file_path(cache_dir: &Path, log: &Path) -> PathBuf {
    let root = cache_dir.parent().unwrap_or(Path::new(""));
    let rel = match log.strip_prefix(root) {
        Ok(rel) => rel.to_path_buf(),
        Err(_) => PathBuf::from(log.file_name().unwrap_or_default()),
    };
    WATCH.dir(cache_dir).join(rel).with_extension("keys")
}

fn checksum(header: &[u64], keys: &[u64]) -> u64 {
    header
        .iter()
        .chain(keys)
        .fold(0x9e37_79b9_7f4a_7c15, |h, &k| {
            (h ^ k).wrapping_mul(0x0100_0000_01b3).rotate_left(29)
        })
}

impl SeenLines {
    fn header(&self) -> [u64; 5] {
        let c = &self.coverage;
        [c.covered, c.at, c.sum, c.base, self.keys.len() as u64]
    }

    fn to_bytes(&self) -> Vec<u8> {
        let header = self.header();
        let mut out = Vec::with_capacity(HEADER + self.keys.len() * 8);
        out.extend_from_slice(MAGIC);
        for n in header {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&checksum(&header, &self.keys).to_le_bytes());
        for k in &self.keys {
            out.extend_from_slice(&k.to_le_bytes());
        }
        out
    }

    fn from_bytes(bytes: &[u8]) -> Option<SeenLines> {
        let (head, body) = bytes.split_at_checked(HEADER)?;
        let (magic, head) = head.split_first_chunk::<8>()?;
        if magic != MAGIC || body.len() % 8 != 0 {
            return None;
        }
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or_default());
        let mut fields = head.chunks_exact(8).map(word);
        let mut next = || fields.next().unwrap_or_default();
        let (covered, at, sum, base, count, check) =
            (next(), next(), next(), next(), next(), next());
        let keys: Vec<u64> = body.chunks_exact(8).map(word).collect();
        let seen = SeenLines {
            coverage: Coverage {
                covered,
                at,
                sum,
                base,
            },
            keys,
        };
        let sorted = seen.keys.windows(2).all(|w| w[0] < w[1]);
        (count == seen.keys.len() as u64 && sorted && checksum(&seen.header(), &seen.keys) == check)
            .then_some(seen)
    }

    /// Whether `key` is one of these lines'.
    pub fn contains(&self, key: u64) -> bool {
        self.keys.binary_search(&key).is_ok()
    }
}

/// The saved keys of `log`, when there are some and the log (as it stands, `now`) still
/// begins with the bytes they cover.
pub fn load(cache_dir: &Path, log: &Path, now: &LogState) -> Option<SeenLines> {
    let bytes = std::fs::read(file_path(cache_dir, log)).ok()?;
    let seen = SeenLines::from_bytes(&bytes)?;
    seen.coverage
        .holds(log, now)
        .unwrap_or(false)
        .then_some(seen)
}

/// Saves the keys of `log`'s first bytes. Best effort: keys that cannot be saved only cost
/// the next watch a read of the log.
pub fn save(cache_dir: &Path, log: &Path, seen: &SeenLines) {
    let bytes = seen.to_bytes();
    let _ = crate::log::write_atomic_with(&file_path(cache_dir, log), |w| w.write_all(&bytes));
}

/// Removes the saved keys of `log` (a log rewritten by `relay purge`: the keys are a trace
/// of its lines).
pub fn remove(cache_dir: &Path, log: &Path) -> std::io::Result<()> {
    super::remove_derived(&file_path(cache_dir, log))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_kept_while_the_log_only_grows() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let log = dir.path().join("projects/p/facts.ndjson");
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        std::fs::write(&log, b"{\"a\":1}\n").unwrap();
        assert_eq!(
            file_path(&cache, &log),
            cache.join("watch-v1/projects/p/facts.keys")
        );
        let state = LogState::observe(&cache, &log).unwrap();
        let seen = SeenLines {
            coverage: Coverage::of(&log, &state, 8),
            keys: vec![3, 7, 9],
        };
        save(&cache, &log, &seen);
        std::fs::write(&log, b"{\"a\":1}\n{\"b\":2}\n").unwrap();
        let now = LogState::observe(&cache, &log).unwrap();
        let back = load(&cache, &log, &now).unwrap();
        assert_eq!(back, seen);
        assert!(back.contains(7) && !back.contains(8));
        // Rewritten under it: ignored.
        std::fs::write(&log, b"{\"a\":2}\n{\"b\":2}\n").unwrap();
        let now = LogState::observe(&cache, &log).unwrap();
        assert!(load(&cache, &log, &now).is_none());
        // Damaged: ignored.
        let mut bytes = seen.to_bytes();
        *bytes.last_mut().unwrap() ^= 1;
        assert!(SeenLines::from_bytes(&bytes).is_none());
        assert!(SeenLines::from_bytes(&bytes[..HEADER - 1]).is_none());
        // `relay purge` removes them with the rest of what cache/ made of the log.
        crate::cache::forget_log(&cache, &log).unwrap();
        assert!(!file_path(&cache, &log).exists());
        remove(&cache, &log).unwrap();
    }
}
