//! The rank tables of the month indexes, kept mapped between the reads of a process that
//! answers many (`relay serve`). A search of a word in most packages reads most of every
//! month's rank table (16 bytes a line, 16 MB at a million packages); mapped afresh for each
//! search, each of its pages costs a fault to map and a flush to unmap, a tenth of such a
//! search's CPU. Kept, a table costs its pages once per index file. Only the rank tables are
//! kept: they are a small part of an index, so what stays mapped stays small; the rest of a
//! file is mapped for each read, as ever.
//!
//! A table is kept per index file as it stands (device, inode, size, modification time): an
//! index is replaced by a rename, never written in place, so a file that looks the same holds
//! the same bytes, and a replaced one gets a table of its own (the old one is unmapped once
//! no read holds it).

use std::collections::HashMap;
use std::fs::File;
use std::ops::Range;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use super::region::Region;

/// Whether this process keeps rank tables mapped ([`keep_rank_tables_mapped`]).
static KEEPING: AtomicBool = AtomicBool::new(false);

/// Per index file, the file as it stood and its rank table, mapped.
static KEPT: Mutex<Option<HashMap<PathBuf, Kept>>> = Mutex::new(None);

struct Kept {
    file: FileKey,
    /// The table's bytes in the file.
    at: Range<usize>,
    map: Arc<memmap2::Mmap>,
    /// The table's bytes in `map`.
    table: Range<usize>,
}

/// What tells one state of a file from another.
#[derive(PartialEq, Eq, Clone, Copy)]
struct FileKey {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
}

/// Makes this process keep the rank tables of the indexes it reads mapped between reads:
/// what a process that answers many searches (`relay serve`) does at its start.
pub fn keep_rank_tables_mapped() {
    KEEPING.store(true, Relaxed);
}

/// The rank table at `range` of the index file `path` (open as `file`), from the tables kept
/// mapped; `None` when this process keeps none, or the table cannot be mapped (the caller then
/// maps it with the rest of the file).
pub(super) fn rank_table(path: &Path, file: &File, range: Range<usize>) -> Option<Region> {
    if !KEEPING.load(Relaxed) {
        return None;
    }
    let meta = file.metadata().ok()?;
    let key = FileKey {
        dev: meta.dev(),
        ino: meta.ino(),
        len: meta.len(),
        mtime: (meta.mtime(), meta.mtime_nsec()),
    };
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    let kept = kept.get_or_insert_with(HashMap::new);
    if let Some(k) = kept.get(path).filter(|k| k.file == key && k.at == range) {
        return Some(Region::mapped_alone(k.map.clone(), k.table.clone()));
    }
    // A map starts at a page: from the page the table starts in.
    // SAFETY: sysconf only reads a value of the system.
    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
        .ok()?
        .max(1);
    let start = range.start / page * page;
    // SAFETY: as for the index's own map (`file::read_partial`): relay replaces index files
    // by rename and never writes one in place, and the table's range was checked against the
    // file's length.
    let map = unsafe {
        memmap2::MmapOptions::new()
            .offset(start as u64)
            .len(range.end - start)
            .map(file)
    }
    .ok()?;
    let table = range.start - start..range.end - start;
    let map = Arc::new(map);
    kept.insert(
        path.to_path_buf(),
        Kept {
            file: key,
            at: range.clone(),
            map: map.clone(),
            table: table.clone(),
        },
    );
    Some(Region::mapped_alone(map, table))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_mapped_once_per_state_of_its_file() {
        keep_rank_tables_mapped();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("2026-01.idx");
        std::fs::write(&path, vec![7u8; 10_000]).unwrap();
        let table = 5_000..9_000;
        let read = |range: Range<usize>| {
            let file = File::open(&path).unwrap();
            rank_table(&path, &file, range).unwrap()
        };
        let (a, b) = (read(table.clone()), read(table.clone()));
        let bytes = |r: &Region| r.get(0..4_000).unwrap().as_ptr();
        assert_eq!(bytes(&a), bytes(&b), "the same map");
        assert_eq!(a.get(0..4_000).unwrap(), &[7u8; 4_000][..]);
        // Replaced by a rename, as relay writes an index: a map of its own, while a read that
        // holds the old one still reads the old bytes.
        let new = dir.path().join("new.idx");
        std::fs::write(&new, vec![9u8; 10_000]).unwrap();
        std::fs::rename(&new, &path).unwrap();
        let c = read(table.clone());
        assert_ne!(bytes(&a), bytes(&c));
        assert_eq!(c.get(0..4_000).unwrap(), &[9u8; 4_000][..]);
        assert_eq!(a.get(0..4_000).unwrap(), &[7u8; 4_000][..]);
        // The table at another place of the same file is mapped again.
        let d = read(1_000..2_000);
        assert_eq!(d.get(0..1_000).unwrap(), &[9u8; 1_000][..]);
        assert!(d.get(1_000..1_001).is_none());
    }
}
