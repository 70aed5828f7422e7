//! A table of an index file as a query holds it: mapped from the file, so that a query reads
//! only the pages it touches (a rare word needs a few dozen documents of a month's tens of
//! thousands), and grown in memory by the records of a log's unindexed tail without copying
//! the mapped part (a month's table is megabytes; its tail after a deposit is a few records).
//!
//! A query that knows which few records it needs reads them ahead from the file
//! ([`Region::read_ahead`]): a page fault maps its neighbours too (16 pages here), and each
//! mapped page costs again when the map goes, so a few scattered records cost less read than
//! touched.

use std::fs::File;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::sync::Arc;

/// Pieces of a table read ahead closer than this many bytes are read as one.
const READ_AHEAD_GAP: usize = 512;

/// Bytes of one table: a range of a mapped index file (or none), then bytes appended in
/// memory. A record lies wholly in one part or the other, so a read never spans both.
#[derive(Debug, Default)]
pub(super) struct Region {
    mapped: Option<(Arc<memmap2::Mmap>, Range<usize>)>,
    /// The mapped file, for reads ahead.
    file: Option<Arc<File>>,
    /// Pieces of the mapped part read ahead: (start in the table, start in `read`, length),
    /// ascending and disjoint.
    pub(super) pieces: Vec<(usize, usize, usize)>,
    read: Vec<u8>,
    appended: Vec<u8>,
}

impl Region {
    /// The bytes `range` of `map`, which maps `file` whole.
    pub(super) fn mapped(map: Arc<memmap2::Mmap>, file: Arc<File>, range: Range<usize>) -> Region {
        Region {
            mapped: Some((map, range)),
            file: Some(file),
            ..Region::default()
        }
    }

    /// The bytes `range` of `map`, which maps part of a file: nothing is read ahead of it.
    pub(super) fn mapped_alone(map: Arc<memmap2::Mmap>, range: Range<usize>) -> Region {
        Region {
            mapped: Some((map, range)),
            ..Region::default()
        }
    }

    /// Reads the byte ranges `wanted` of the mapped part (ascending; ranges past it are left
    /// out) from the file into memory, so that [`Region::get`] answers them without touching
    /// the map. Replaces what an earlier call read; a read that fails leaves them to the map.
    pub(super) fn read_ahead(&mut self, wanted: impl IntoIterator<Item = Range<usize>>) {
        self.pieces.clear();
        self.read.clear();
        let (Some((_, base)), Some(file)) = (&self.mapped, &self.file) else {
            return;
        };
        let mut merged: Vec<Range<usize>> = Vec::new();
        for r in wanted {
            let r = r.start..r.end.min(base.len());
            if r.start >= r.end {
                continue;
            }
            match merged.last_mut() {
                Some(last) if r.start >= last.start && r.start <= last.end + READ_AHEAD_GAP => {
                    last.end = last.end.max(r.end);
                }
                _ => merged.push(r),
            }
        }
        self.read
            .reserve_exact(merged.iter().map(|r| r.len()).sum());
        self.pieces.reserve_exact(merged.len());
        for r in merged {
            let at = self.read.len();
            self.read.resize(at + r.len(), 0);
            if file
                .read_exact_at(&mut self.read[at..], (base.start + r.start) as u64)
                .is_err()
            {
                self.pieces.clear();
                self.read.clear();
                return;
            }
            self.pieces.push((r.start, at, r.len()));
        }
    }

    /// The bytes `range` of the mapped part if a read ahead holds them.
    pub(super) fn read_piece(&self, range: &Range<usize>) -> Option<&[u8]> {
        let i = self
            .pieces
            .partition_point(|p| p.0 <= range.start)
            .checked_sub(1)?;
        let (start, at, len) = self.pieces[i];
        (range.end <= start + len)
            .then(|| &self.read[at + range.start - start..at + range.end - start])
    }

    #[inline]
    fn base(&self) -> &[u8] {
        match &self.mapped {
            Some((map, range)) => map.get(range.clone()).unwrap_or_default(),
            None => &[],
        }
    }

    /// Whether a part of the table is read from a file.
    pub(super) fn is_mapped(&self) -> bool {
        self.mapped.is_some()
    }

    pub(super) fn len(&self) -> usize {
        self.base().len() + self.appended.len()
    }

    /// The bytes at `range` of the whole table; `None` past its end or across the border of
    /// its two parts.
    #[inline]
    pub(super) fn get(&self, range: Range<usize>) -> Option<&[u8]> {
        let base = self.base();
        match range.start.checked_sub(base.len()) {
            None if !self.pieces.is_empty() && range.end <= base.len() => {
                self.read_piece(&range).or_else(|| base.get(range))
            }
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
        let mut r = Region::mapped(map, Arc::new(file), 7..11);
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

    #[test]
    fn bytes_read_ahead_are_the_mapped_bytes_and_the_rest_still_reads_from_the_map() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let body: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        let mut bytes = b"head\n".to_vec();
        bytes.extend(&body);
        std::fs::write(&path, &bytes).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: the file is this test's own and is not changed while mapped.
        let map = Arc::new(unsafe { memmap2::Mmap::map(&file) }.unwrap());
        let mut r = Region::mapped(map, Arc::new(file), 5..5005);
        // Two near ranges merge into one read, a far one is read apart, one past the end is
        // left out.
        r.read_ahead([10..20, 30..40, 3000..3049, 4990..5100]);
        assert_eq!(r.pieces.len(), 3);
        assert_eq!(r.read.len(), 30 + 49 + 10);
        for range in [
            10..20,
            12..40,
            3000..3049,
            4990..5000,
            0..4,
            100..200,
            2990..3010,
        ] {
            assert_eq!(
                r.get(range.clone()),
                Some(&body[range.clone()]),
                "{range:?}"
            );
        }
        // The pieces answer without the map, so they hold the file's bytes.
        assert!(r.read_piece(&(3000..3049)).is_some() && r.read_piece(&(100..200)).is_none());
        assert_eq!(r.get(4999..5001), None);
        r.appended().extend(b"+tail");
        assert_eq!(r.get(5000..5005), Some(&b"+tail"[..]));
        // A new read ahead replaces the last.
        r.read_ahead(std::iter::once(0..8));
        assert_eq!(r.read.len(), 8);
        assert_eq!(r.get(3000..3049), Some(&body[3000..3049]));
    }
}
