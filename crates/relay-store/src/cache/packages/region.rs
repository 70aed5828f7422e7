//! A table of an index file as a query holds it: mapped from the file, so that a query reads
//! only the pages it touches (a rare word needs a few dozen documents of a month's tens of
//! thousands), or owned, for an index built or extended in memory.

use std::ops::{Deref, Range};
use std::sync::Arc;

/// Bytes of one table: a range of a mapped index file, or a buffer of its own.
#[derive(Debug)]
pub(super) enum Region {
    Owned(Vec<u8>),
    Mapped(Arc<memmap2::Mmap>, Range<usize>),
}

impl Default for Region {
    fn default() -> Self {
        Region::Owned(Vec::new())
    }
}

impl Deref for Region {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Region::Owned(v) => v,
            Region::Mapped(map, range) => &map[range.clone()],
        }
    }
}

impl Region {
    /// The bytes as a buffer that can grow: a mapped range is copied out first (only a view
    /// extended by a log's unindexed tail needs this).
    pub(super) fn to_mut(&mut self) -> &mut Vec<u8> {
        if let Region::Mapped(..) = self {
            *self = Region::Owned(self.to_vec());
        }
        match self {
            Region::Owned(v) => v,
            Region::Mapped(..) => unreachable!("made owned above"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_range_reads_its_bytes_and_becomes_owned_to_grow() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"header\nbody").unwrap();
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: the file is this test's own and is not changed while mapped.
        let map = Arc::new(unsafe { memmap2::Mmap::map(&file) }.unwrap());
        let mut r = Region::Mapped(map, 7..11);
        assert_eq!(&*r, b"body");
        r.to_mut().extend(b"+tail");
        assert_eq!(&*r, b"body+tail");
        assert!(matches!(r, Region::Owned(_)));
        assert_eq!(&*Region::default(), b"");
    }
}
