//! A table of an index file as a query holds it: mapped from the file, so that a query reads
//! only the pages it touches (a rare word needs a few dozen documents of a month's tens of
//! thousands), and grown in memory by the records of a log's unindexed tail without copying
//! the mapped part (a month's table is megabytes; its tail after a deposit is a few records).

use std::ops::Range;
use std::sync::Arc;

/// Bytes of one table: a range of a mapped index file (or none), then bytes appended in
/// memory. A record lies wholly in one part or the other, so a read never spans both.
#[derive(Debug, Default)]
pub(super) struct Region {
    mapped: Option<(Arc<memmap2::Mmap>, Range<usize>)>,
    appended: Vec<u8>,
}

impl Region {
    /// The bytes `range` of `map`.
    pub(super) fn mapped(map: Arc<memmap2::Mmap>, range: Range<usize>) -> Region {
        Region {
            mapped: Some((map, range)),
            appended: Vec::new(),
        }
    }

    fn base(&self) -> &[u8] {
        match &self.mapped {
            Some((map, range)) => map.get(range.clone()).unwrap_or_default(),
            None => &[],
        }
    }

    /// Whether a part of the table is read from a file.
    #[cfg(test)]
    pub(super) fn is_mapped(&self) -> bool {
        self.mapped.is_some()
    }

    pub(super) fn len(&self) -> usize {
        self.base().len() + self.appended.len()
    }

    /// The bytes at `range` of the whole table; `None` past its end or across the border of
    /// its two parts.
    pub(super) fn get(&self, range: Range<usize>) -> Option<&[u8]> {
        let base = self.base();
        match range.start.checked_sub(base.len()) {
            None => base.get(range),
            Some(start) => (self.appended).get(start..range.end.checked_sub(base.len())?),
        }
    }

    /// The buffer that records appended to the table go to.
    pub(super) fn appended(&mut self) -> &mut Vec<u8> {
        &mut self.appended
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_range_reads_its_bytes_and_grows_without_a_copy() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"header\nbody").unwrap();
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: the file is this test's own and is not changed while mapped.
        let map = Arc::new(unsafe { memmap2::Mmap::map(&file) }.unwrap());
        let mut r = Region::mapped(map, 7..11);
        assert_eq!(r.get(0..4), Some(&b"body"[..]));
        r.appended().extend(b"+tail");
        assert_eq!(r.len(), 9);
        assert_eq!(r.get(0..4), Some(&b"body"[..]));
        assert_eq!(r.get(4..9), Some(&b"+tail"[..]));
        assert_eq!(r.get(5..7), Some(&b"ta"[..]));
        assert_eq!(r.get(2..6), None, "no read spans the two parts");
        assert_eq!(r.get(8..10), None);
        assert!(r.is_mapped());
        let mut owned = Region::default();
        assert_eq!(owned.get(0..0), Some(&b""[..]));
        owned.appended().extend(b"abc");
        assert_eq!(owned.get(1..3), Some(&b"bc"[..]));
    }
}
