//! What a flush moved under a resumed watch. A cursor taken while a hook's record waited in the
//! clone's queue holds a position in the queued month; a commit then moves those lines to the
//! end of the tracked month and removes the queued file. A watch resumed from that cursor
//! finds the queued position gone and the lines new in the tracked log: [`Store::moved_lines`]
//! finds them there (the run of whole lines as long as what the cursor had read of the queue,
//! ending in the bytes its fingerprint covers), so they are not announced a second time.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use super::{
    Cursor, Position, TAIL_BYTES, WatchedLog, fingerprint, holds_before, io_error, line_key,
};
use crate::Store;
use relay_wire::error::Result;

impl Store {
    /// The keys ([`line_key`]) of the lines a flush moved from `tracked`'s queued month into
    /// it after `cursor` had read them in the queue; empty when the cursor read nothing there,
    /// the queue still holds what it read, or no such run follows the cursor's position in the
    /// tracked log.
    pub fn moved_lines(&self, tracked: &WatchedLog, cursor: &Cursor) -> Result<Vec<u64>> {
        let Some(queued) = self.layout.queued_path(&tracked.path) else {
            return Ok(Vec::new());
        };
        let rel = queued.strip_prefix(self.layout.root()).unwrap_or(&queued);
        let name: Vec<_> = rel.iter().map(|p| p.to_string_lossy()).collect();
        let Some(read) = cursor.get(&name.join("/")).filter(|at| at.offset > 0) else {
            return Ok(Vec::new());
        };
        if holds_before(&queued, read)? {
            return Ok(Vec::new());
        }
        let after = cursor.get(&tracked.name).map_or(0, |at| at.offset);
        run_ending_like(&tracked.path, after, read)
    }
}

/// The keys of the first run of whole lines after `after` in the log at `path` that is
/// `read.offset` bytes long and whose last bytes have `read.tail` as fingerprint.
fn run_ending_like(path: &std::path::Path, after: u64, read: Position) -> Result<Vec<u64>> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(path, e)),
    };
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(after))
        .and_then(|_| file.read_to_end(&mut bytes))
        .map_err(|e| io_error(path, e))?;
    // Where each whole line starts, and where the last one ends.
    let mut starts = vec![0usize];
    starts.extend(memchr::memchr_iter(b'\n', &bytes).map(|i| i + 1));
    let len = read.offset as usize;
    for (i, &end) in starts.iter().enumerate().skip(1) {
        let Some(start) = end.checked_sub(len) else {
            continue;
        };
        let Ok(first) = starts[..i].binary_search(&start) else {
            continue;
        };
        let covered = &bytes[start.max(end.saturating_sub(TAIL_BYTES))..end];
        if fingerprint(covered) != read.tail {
            continue;
        }
        return Ok(starts[first..=i]
            .windows(2)
            .map(|w| line_key(&bytes[w[0]..w[1] - 1]))
            .collect());
    }
    Ok(Vec::new())
}
