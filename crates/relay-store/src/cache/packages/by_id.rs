//! Lookups by package id through the month indexes: a deposit that gives its id looks for it
//! in every month of the store, so a lookup reads the id table and, past the index, only the
//! lines that may hold the id (its bytes, or an escape). It builds an index in its own
//! thread only where one is missing or stale; in `relay serve` it has one that fell behind
//! rebuilt on another thread ([`super::behind`]).

use std::path::Path;

use super::file::{lookup_id, open_valid};
use super::{PACKAGES, index_path, load_or_build};
use crate::cache::lite::LiteLine;
use crate::cache::witness::LogState;

/// The offsets in `log` of the lines that may hold package `id`: from the index's id table,
/// and from the lines the index does not cover yet. The caller reads each line and checks its
/// id (two ids can share a key). `None` when the part of the log the index covers has lines
/// that are not package lines: the caller then scans it, so that one holding the id is
/// reported. (A damaged line past the index is reported by the read that indexes it.)
pub fn find_id(cache_dir: &Path, log: &Path, id: &str) -> std::io::Result<Option<Vec<u64>>> {
    if let Some(found) = find_id_indexed(cache_dir, log, id)? {
        return Ok(Some(found));
    }
    let state = LogState::observe(cache_dir, log)?;
    if let Some(open) = open_valid(&index_path(cache_dir, log), log, &state)?
        && open.header.damaged > 0
    {
        return Ok(None);
    }
    let index = load_or_build(cache_dir, log)?;
    Ok((index.damaged == 0).then(|| {
        (index.docs.iter())
            .filter(|d| d.id == id)
            .map(|d| d.offset)
            .collect()
    }))
}

/// How many bytes of a log past its index an id lookup reads itself, looking only for the
/// id's bytes: a deposit that gives its id checks every month for it, and the month being
/// written grows past [`PACKAGES`]' limit between the reads that index it again.
const ID_TAIL_LIMIT: u64 = 1 << 20;

/// [`find_id`] where the index of `log` holds and covers all but [`ID_TAIL_LIMIT`] bytes of
/// it: the offsets of the lines that may be `id`'s (the indexed ones, and the lines of the
/// tail that may hold it, for the caller to read), building nothing here; past
/// [`PACKAGES`]' limit, a process that rebuilds behind its reads has a thread catch the index
/// up. `None` where the index is missing, stale, damaged, or too far behind.
pub fn find_id_indexed(
    cache_dir: &Path,
    log: &Path,
    id: &str,
) -> std::io::Result<Option<Vec<u64>>> {
    let state = LogState::observe(cache_dir, log)?;
    let path = index_path(cache_dir, log);
    let open = match open_valid(&path, log, &state)? {
        Some(open) if open.header.damaged == 0 => open,
        _ => return Ok(None),
    };
    let covered = open.header.coverage.covered;
    if state.len - covered > ID_TAIL_LIMIT {
        return Ok(None);
    }
    if state.len - covered > PACKAGES.tail_limit {
        // Each lookup until then checks the whole tail; where a thread can catch the index
        // up, one does.
        super::behind::rebuild_behind(cache_dir, log);
    }
    let Ok(Some((mut offsets, _))) = lookup_id(open, id) else {
        return Ok(None);
    };
    if covered < state.len {
        let needle = crate::packages::json_fragment(id);
        offsets.extend(lines_holding(log, covered, state.len, id, &needle)?);
    }
    Ok(Some(offsets))
}

/// The offsets of the complete lines of `log` between `from` (a line's start) and `to` that
/// may be package `id`'s: those whose bytes hold `needle` (the id as relay writes it), and,
/// as the log's prefiltered reads do, those with an escape (`\u00e9`, `\/`: another writer's
/// spelling of the same id) whose package id, read alone, is `id` or cannot be read. The
/// caller reads each line whole.
fn lines_holding(
    log: &Path,
    from: u64,
    to: u64,
    id: &str,
    needle: &str,
) -> std::io::Result<Vec<u64>> {
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    let mut out = Vec::new();
    let mut sink = crate::log::Lines(|_, offset, text: &[u8]| {
        let may_be = finder.find(text).is_some()
            || (text.contains(&b'\\')
                && serde_json::from_slice::<LiteLine>(text)
                    .map_or(true, |l| l.package.package_id == id));
        if may_be {
            out.push(offset);
        }
        Ok::<_, std::io::Error>(true)
    });
    crate::log::LogReader::new(log)
        .from(from, 1)
        .until(to)
        .read(&mut sink)?;
    Ok(out)
}
