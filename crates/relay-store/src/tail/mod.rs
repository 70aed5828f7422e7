//! Following logs as they grow, for `relay watch` and the HTTP event stream. A watch holds a
//! [`Position`] in each log it covers (a byte offset after a whole line, and a fingerprint of
//! the bytes just before it); a [`Cursor`] carries those positions across restarts as opaque
//! text. [`LogTail`] tells a log that grew from one that was rewritten under the reader (a
//! checkout, a merge, a quarantine by `verify --fix`) and, after a rewrite, hands over only
//! the lines it has not handed over before, so a reader is told of the rewrite and is neither
//! given a gap nor, within one watch, a repeat. The lines before a tail's start are counted
//! as seen from keys saved under `cache/` when the log still begins with the bytes they cover
//! ([`crate::cache::seen_lines`]), so a watch on a large store reads only what is new since.

use std::collections::HashSet;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::Store;
use crate::cache::seen_lines::{self, SeenLines};
use crate::cache::witness::LogState;
use crate::cache::{Fnv, WATCH, coverage::Coverage};
use crate::log::{LineSink, LogReader};
use relay_wire::error::{Error, Result};

mod cursor;
mod moved;
pub use cursor::Cursor;

/// What kind of record a log holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogKind {
    Projects,
    Sessions,
    Packages,
    Facts,
    /// `retractions.ndjson`: which packages and facts reads hide.
    Retractions,
}

impl LogKind {
    pub const ALL: [LogKind; 5] = [
        LogKind::Projects,
        LogKind::Sessions,
        LogKind::Packages,
        LogKind::Facts,
        LogKind::Retractions,
    ];
}

/// One log a watch covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchedLog {
    pub kind: LogKind,
    /// The project whose folder holds the log; `None` for `projects.ndjson`.
    pub project_id: Option<String>,
    pub path: PathBuf,
    /// The path under `.relay/`, with `/`: how events and cursors name the log.
    pub name: String,
    /// A month of packages in the clone's queue (`local/pending/`): its lines are announced
    /// when they enter the queue, and the file goes when a flush moves them into the tracked
    /// log, which is no rewrite to report.
    pub queued: bool,
}

impl Store {
    /// The logs of `kinds` in `projects` (`None`: every project the store knows now), in the
    /// order a watch reads them: `projects.ndjson`, then each project by id with its sessions,
    /// its package logs by month, its facts and its retractions, so a session or a package is
    /// read before the records that name it.
    pub fn watched_logs(
        &self,
        projects: Option<&[String]>,
        kinds: &[LogKind],
    ) -> Result<Vec<WatchedLog>> {
        let root = self.layout.root();
        let name_of = |path: &Path| {
            let rel = path.strip_prefix(root).unwrap_or(path);
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/")
        };
        let log = |kind, project_id: Option<&str>, path: PathBuf| WatchedLog {
            kind,
            project_id: project_id.map(str::to_string),
            name: name_of(&path),
            path,
            queued: false,
        };
        let mut logs = Vec::new();
        if kinds.contains(&LogKind::Projects) {
            logs.push(log(LogKind::Projects, None, self.layout.projects_file()));
        }
        let ids = match projects {
            Some(ids) => ids.to_vec(),
            None => self.all_project_ids()?,
        };
        for id in &ids {
            if kinds.contains(&LogKind::Sessions) {
                logs.push(log(
                    LogKind::Sessions,
                    Some(id),
                    self.layout.sessions_file(id),
                ));
            }
            if kinds.contains(&LogKind::Packages) {
                for path in self.tracked_package_logs(id)? {
                    logs.push(log(LogKind::Packages, Some(id), path));
                }
                // Then the months waiting in the clone's queue, where hooks write: a reader
                // of the tracked logs alone would hear of a hook's record only at the next
                // commit, though every read sees it at once.
                for path in self.queued_package_logs(id)? {
                    logs.push(WatchedLog {
                        queued: true,
                        ..log(LogKind::Packages, Some(id), path)
                    });
                }
            }
            if kinds.contains(&LogKind::Facts) {
                logs.push(log(LogKind::Facts, Some(id), self.layout.facts_file(id)));
            }
            if kinds.contains(&LogKind::Retractions) {
                logs.push(log(
                    LogKind::Retractions,
                    Some(id),
                    self.layout.retractions_file(id),
                ));
            }
        }
        Ok(logs)
    }
}

/// Where a reader stands in one log: just after a whole line (or at 0), and a fingerprint of
/// the bytes before that point, by which a rewritten log is told from one that grew.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Position {
    pub offset: u64,
    pub tail: u32,
}

/// How many bytes before a position its fingerprint covers.
const TAIL_BYTES: usize = 64;

fn fingerprint(bytes: &[u8]) -> u32 {
    let mut h = Fnv::default();
    h.write(bytes);
    let x = h.finish();
    (x ^ (x >> 32)) as u32
}

/// The position at `offset` in `file`, whose fingerprint is read from the file.
fn position_in(file: &mut File, offset: u64) -> std::io::Result<Position> {
    Ok(bytes_before(file, offset)?.0)
}

/// The position at `offset` in `file`, and the bytes before it that its fingerprint covers.
fn bytes_before(file: &mut File, offset: u64) -> std::io::Result<(Position, Vec<u8>)> {
    let start = offset.saturating_sub(TAIL_BYTES as u64);
    let mut buf = vec![0; (offset - start) as usize];
    file.seek(SeekFrom::Start(start))?;
    file.read_exact(&mut buf)?;
    let at = Position {
        offset,
        tail: fingerprint(&buf),
    };
    Ok((at, buf))
}

/// The position after the last whole line of the log at `path` (0 when there is none), read
/// from its end: what a watch that does not read a log records for it, so that its cursor
/// says "up to here" for every log in the store.
pub fn end_position(path: &Path) -> Result<Position> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Position::default()),
        Err(e) => return Err(io_error(path, e)),
    };
    let len = file.metadata().map_err(|e| io_error(path, e))?.len();
    let mut end = len;
    let mut chunk = vec![0u8; 64 * 1024];
    // Back from the end to the last newline.
    let after_newline = loop {
        if end == 0 {
            break 0;
        }
        let start = end.saturating_sub(chunk.len() as u64);
        let buf = &mut chunk[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))
            .and_then(|_| file.read_exact(buf))
            .map_err(|e| io_error(path, e))?;
        if let Some(i) = memchr::memrchr(b'\n', buf) {
            break start + i as u64 + 1;
        }
        end = start;
    };
    position_in(&mut file, after_newline).map_err(|e| io_error(path, e))
}

/// A hasher for keys that are already hashes.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type LineSet = HashSet<u64, BuildHasherDefault<PassThrough>>;

/// A 64-bit key of a line's bytes: how a tail knows a line it has handed over.
pub fn line_key(line: &[u8]) -> u64 {
    let mut h = Fnv::default();
    h.write(line);
    h.finish()
}

/// Why a log no longer continues from where the reader stood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rewrite {
    /// The bytes before the position changed (a checkout, a merge that reordered lines).
    Rewritten,
    /// The log is shorter than the position.
    Shrank,
    /// The log is gone.
    Removed,
    /// A cursor from an earlier run no longer matches the log: what that run had seen is not
    /// known, so the whole log is read again and records may repeat.
    Unknown,
}

impl Rewrite {
    pub fn as_str(self) -> &'static str {
        match self {
            Rewrite::Rewritten => "rewritten",
            Rewrite::Shrank => "shrank",
            Rewrite::Removed => "removed",
            Rewrite::Unknown => "cursor_mismatch",
        }
    }
}

/// What [`LogTail::advance`] hands over.
#[derive(Debug)]
pub enum Change<'a> {
    /// The log was rewritten; the lines that follow are those of the new log not seen before.
    Rewrite(Rewrite),
    /// A new line, and the position after it.
    Line(Position, &'a [u8]),
}

/// Where a [`LogTail`] starts.
#[derive(Debug, Clone, Copy)]
pub enum Start {
    /// After every whole line there now.
    End,
    /// At the first line.
    Beginning,
    /// At a position from a cursor.
    At(Position),
}

/// One log followed from a position: the lines it has handed over (by a 64-bit key of their
/// bytes) and the file's last seen size, time and inode, so an unchanged log costs one `stat`.
pub struct LogTail {
    pub log: WatchedLog,
    at: Position,
    /// The lines seen: those in `saved` and those in `seen`.
    seen: LineSet,
    saved: Option<SeenLines>,
    stamp: Option<(u64, SystemTime)>,
    /// A rewrite found when the tail was opened, reported at the first [`LogTail::advance`].
    pending: Option<Rewrite>,
    /// The last bytes handed over, for the fingerprint of the next position.
    last: Vec<u8>,
    /// When the log was first found missing, while it stays missing.
    missing_since: Option<Instant>,
    /// Whether the last advance left a rewrite to settle: look again soon.
    pub settling: bool,
}

/// How long after its last change a log that no longer continues from the position is left
/// to settle before it is read as rewritten.
const SETTLE: Duration = Duration::from_millis(150);

/// How long a log must stay missing to be reported removed.
const GONE_AFTER: Duration = Duration::from_millis(300);

/// What a [`LineSink`] for [`LogTail`] collects: each new line's key and end.
struct Collect<'a, F> {
    seen: &'a mut LineSet,
    saved: Option<&'a SeenLines>,
    last: &'a mut Vec<u8>,
    at: &'a mut Position,
    emit: F,
    remember_only: bool,
}

impl<F: FnMut(Position, &[u8]) -> Result<bool>> LineSink for Collect<'_, F> {
    type Error = Error;

    fn line(&mut self, _number: u64, offset: u64, text: &[u8]) -> Result<bool> {
        self.next(offset, text)
    }

    fn blank(&mut self, _number: u64, offset: u64, text: &[u8]) -> Result<bool> {
        // A blank line holds no record, but the position moves past it.
        self.remember(offset, text);
        Ok(true)
    }
}

impl<F: FnMut(Position, &[u8]) -> Result<bool>> Collect<'_, F> {
    fn remember(&mut self, offset: u64, text: &[u8]) {
        let end = offset + text.len() as u64 + 1;
        self.last.extend_from_slice(text);
        self.last.push(b'\n');
        if self.last.len() > TAIL_BYTES {
            let cut = self.last.len() - TAIL_BYTES;
            self.last.drain(..cut);
        }
        *self.at = Position {
            offset: end,
            tail: fingerprint(self.last),
        };
    }

    fn next(&mut self, offset: u64, text: &[u8]) -> Result<bool> {
        // The fingerprint covers the bytes before the position, which may be shorter than
        // TAIL_BYTES only at the start of the file, where `last` starts empty too.
        self.remember(offset, text);
        let key = line_key(text);
        if self.saved.is_some_and(|s| s.contains(key))
            || !self.seen.insert(key)
            || self.remember_only
        {
            return Ok(true);
        }
        (self.emit)(*self.at, text)
    }
}

impl LogTail {
    /// Opens `log` at `start`. From a position, the lines before it are read once (as seen);
    /// a position the log no longer matches is reported as [`Rewrite::Unknown`] at the first
    /// advance, which then reads the whole log.
    pub fn open(log: WatchedLog, start: Start) -> Result<LogTail> {
        LogTail::open_saving(log, start, None)
    }

    /// [`LogTail::open`], counting the lines before the start from the keys saved under
    /// `cache_dir` when they still hold, and saving them for the next watch when they did not
    /// or it read more than [`WATCH`]'s `tail_limit` past them.
    pub fn open_saving(log: WatchedLog, start: Start, cache_dir: Option<&Path>) -> Result<LogTail> {
        let mut tail = LogTail {
            log,
            at: Position::default(),
            seen: LineSet::default(),
            saved: None,
            stamp: None,
            pending: None,
            last: Vec::new(),
            missing_since: None,
            settling: false,
        };
        let until = match start {
            Start::Beginning => return Ok(tail),
            Start::End => None,
            Start::At(at) => {
                if at.offset == 0 {
                    return Ok(tail);
                }
                match tail.matches(at)? {
                    true => Some(at.offset),
                    false => {
                        tail.pending = Some(Rewrite::Unknown);
                        return Ok(tail);
                    }
                }
            }
        };
        // No stamp yet: the first advance looks at the file whatever its size and time.
        match cache_dir {
            Some(cache) => tail.read_before_start(cache, until)?,
            None => tail.read(until, true, &mut |_, _| Ok(true))?,
        }
        Ok(tail)
    }

    /// Counts the lines up to `until` (the end: `None`) as seen, from the saved keys and the
    /// bytes after them, and saves the keys when that read was long.
    fn read_before_start(&mut self, cache: &Path, until: Option<u64>) -> Result<()> {
        let path = self.log.path.clone();
        let io = |e| io_error(&path, e);
        let state = LogState::observe(cache, &path).map_err(io)?;
        let saved = seen_lines::load(cache, &path, &state);
        let had_keys = saved.is_some();
        if let Some(saved) = saved
            && until.is_none_or(|end| saved.coverage.covered <= end)
            && saved.coverage.covered > 0
        {
            let mut file = File::open(&path).map_err(io)?;
            (self.at, self.last) = bytes_before(&mut file, saved.coverage.covered).map_err(io)?;
            self.saved = Some(saved);
        }
        let from = self.at.offset;
        self.read(until, true, &mut |_, _| Ok(true))?;
        let long = self.at.offset - from > WATCH.tail_limit;
        // Keys that cover bytes read after the log was observed would prove nothing.
        if (long || !had_keys) && self.at.offset > 0 && self.at.offset <= state.len {
            let mut keys = self.saved.take().map(|s| s.keys).unwrap_or_default();
            keys.extend(self.seen.drain());
            keys.sort_unstable();
            keys.dedup();
            let saved = SeenLines {
                coverage: Coverage::of(&path, &state, self.at.offset),
                keys,
            };
            seen_lines::save(cache, &path, &saved);
            self.saved = Some(saved);
        }
        Ok(())
    }

    /// The keys ([`line_key`]) of the lines this tail has read, before its start included
    /// (those counted from keys saved under `cache/` are not in it).
    pub fn seen_keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.seen.iter().copied()
    }

    /// Whether this tail has handed over (or counted as seen before its start) a line with
    /// this key ([`line_key`]).
    pub fn has_seen(&self, key: u64) -> bool {
        self.seen.contains(&key) || self.saved.as_ref().is_some_and(|s| s.contains(key))
    }

    /// Where the reader stands now.
    pub fn position(&self) -> Position {
        self.at
    }

    /// Whether the log still holds, before `at.offset`, the bytes `at` was taken after.
    fn matches(&self, at: Position) -> Result<bool> {
        let mut file = match File::open(&self.log.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(io_error(&self.log.path, e)),
        };
        let len = file
            .metadata()
            .map_err(|e| io_error(&self.log.path, e))?
            .len();
        if len < at.offset {
            return Ok(false);
        }
        let found = position_in(&mut file, at.offset).map_err(|e| io_error(&self.log.path, e))?;
        Ok(found == at)
    }

    /// Reads the lines after the position (up to `until`), handing each one not seen before
    /// to `emit` with the position after it, unless `remember_only`. `emit` returns whether
    /// to go on.
    fn read(
        &mut self,
        until: Option<u64>,
        remember_only: bool,
        emit: &mut dyn FnMut(Position, &[u8]) -> Result<bool>,
    ) -> Result<()> {
        let from = self.at.offset;
        let mut sink = Collect {
            seen: &mut self.seen,
            saved: self.saved.as_ref(),
            last: &mut self.last,
            at: &mut self.at,
            emit,
            remember_only,
        };
        let mut reader = LogReader::new(&self.log.path).from(from, 1);
        if let Some(end) = until {
            reader = reader.until(end);
        }
        reader.read(&mut sink)?;
        Ok(())
    }

    /// Hands every line added since the last call to `emit` as [`Change::Line`], after a
    /// [`Change::Rewrite`] when the log was rewritten under the reader (the position then
    /// moves through the new log, and only lines this tail has not handed over before are
    /// given). A log rewritten while this advance read it is found by the bytes before where
    /// the read began, and reported at the next advance. `emit` returns whether to go on; when
    /// it stops, the position is just after the last line it took.
    pub fn advance(&mut self, emit: &mut dyn FnMut(Change<'_>) -> Result<bool>) -> Result<()> {
        self.settling = false;
        if let Some(why) = self.pending.take() {
            return self.replay(why, emit);
        }
        let now = stamp(&self.log.path);
        if now.is_some() && now == self.stamp {
            return Ok(());
        }
        let Some((len, _)) = now else {
            self.stamp = None;
            // git replaces a file by removing it and writing it anew: a log is gone only when
            // it stays gone.
            let since = *self.missing_since.get_or_insert_with(Instant::now);
            if self.at.offset > 0 && since.elapsed() >= GONE_AFTER {
                self.restart();
                emit(Change::Rewrite(Rewrite::Removed))?;
            }
            return Ok(());
        };
        self.missing_since = None;
        if self.at.offset > 0 && !self.matches(self.at)? {
            // git writes a file in steps (removed, created, filled): a log changed this very
            // moment may be half written. Look again once it has settled.
            let settling =
                now.is_some_and(|(_, modified)| modified.elapsed().is_ok_and(|age| age < SETTLE));
            self.settling = settling;
            if settling {
                self.stamp = None;
                return Ok(());
            }
            self.stamp = now;
            let why = if len < self.at.offset {
                Rewrite::Shrank
            } else {
                Rewrite::Rewritten
            };
            self.restart();
            if !emit(Change::Rewrite(why))? {
                return Ok(());
            }
        }
        self.stamp = now;
        let from = self.at;
        let mut stopped = false;
        let mut lines = |at: Position, line: &[u8]| {
            let go_on = emit(Change::Line(at, line))?;
            stopped = !go_on;
            Ok(go_on)
        };
        self.read(None, false, &mut lines)?;
        if self.at.offset < len {
            // Stopped early, or a torn last line: look again next time.
            self.stamp = None;
        }
        if from.offset > 0
            && self.at != from
            && let Some(why) = self.rewritten_before(from)?
        {
            if stopped {
                self.restart();
                self.pending = Some(why);
                return Ok(());
            }
            return self.replay(why, emit);
        }
        Ok(())
    }

    /// Whether the log, after a read that began at `from`, no longer holds the bytes before
    /// it: it was rewritten while it was read (a merge between two reads of the file), and the
    /// read went on in the new log from the old offset, past lines it never gave. A log
    /// missing now is left to the next advance, which waits to see it stay gone.
    fn rewritten_before(&self, from: Position) -> Result<Option<Rewrite>> {
        let Some((len, _)) = stamp(&self.log.path) else {
            return Ok(None);
        };
        Ok((!self.matches(from)?).then_some(if len < from.offset {
            Rewrite::Shrank
        } else {
            Rewrite::Rewritten
        }))
    }

    /// Reports a rewrite, then reads the log from its start, giving only the lines not seen.
    fn replay(
        &mut self,
        why: Rewrite,
        emit: &mut dyn FnMut(Change<'_>) -> Result<bool>,
    ) -> Result<()> {
        self.restart();
        self.stamp = stamp(&self.log.path);
        if !emit(Change::Rewrite(why))? {
            return Ok(());
        }
        let mut lines = |at: Position, line: &[u8]| emit(Change::Line(at, line));
        self.read(None, false, &mut lines)
    }

    /// Back to the start of the log, keeping what was seen.
    fn restart(&mut self) {
        self.at = Position::default();
        self.last.clear();
    }
}

fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::io(format!("cannot read {}", path.display()), e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn log(dir: &Path) -> WatchedLog {
        WatchedLog {
            kind: LogKind::Facts,
            project_id: Some("p".into()),
            path: dir.join("facts.ndjson"),
            name: "projects/p/facts.ndjson".into(),
            queued: false,
        }
    }

    fn append(path: &Path, text: &str) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        f.write_all(text.as_bytes()).unwrap();
    }

    /// Makes the log look settled: last changed a second ago.
    fn settle(path: &Path) {
        let f = std::fs::File::options().append(true).open(path).unwrap();
        f.set_modified(SystemTime::now() - Duration::from_secs(1))
            .unwrap();
    }

    fn drain(tail: &mut LogTail) -> (Vec<String>, Vec<Rewrite>) {
        let mut lines = Vec::new();
        let mut rewrites = Vec::new();
        tail.advance(&mut |change| {
            match change {
                Change::Rewrite(why) => rewrites.push(why),
                Change::Line(_, line) => lines.push(String::from_utf8(line.to_vec()).unwrap()),
            }
            Ok(true)
        })
        .unwrap();
        // Stamps have coarse times on some file systems: forget the stamp, as a later write
        // within the same tick would.
        tail.stamp = None;
        (lines, rewrites)
    }

    #[test]
    fn a_tail_hands_over_new_whole_lines_once() {
        let dir = tempfile::tempdir().unwrap();
        let l = log(dir.path());
        append(&l.path, "{\"a\":1}\n");
        let mut tail = LogTail::open(l.clone(), Start::End).unwrap();
        assert_eq!(drain(&mut tail), (vec![], vec![]));
        append(&l.path, "{\"b\":2}\n{\"c\":3");
        assert_eq!(drain(&mut tail).0, vec!["{\"b\":2}"]);
        append(&l.path, "}\n{\"b\":2}\n");
        // The torn line is whole now; the exact duplicate counts once.
        assert_eq!(drain(&mut tail).0, vec!["{\"c\":3}"]);
        let at = tail.position();
        assert_eq!(at.offset, std::fs::metadata(&l.path).unwrap().len());

        // Resuming from the position gives what came after it, nothing before.
        append(&l.path, "{\"d\":4}\n");
        let mut again = LogTail::open(l.clone(), Start::At(at)).unwrap();
        assert_eq!(drain(&mut again), (vec!["{\"d\":4}".to_string()], vec![]));
        let mut all = LogTail::open(l, Start::Beginning).unwrap();
        assert_eq!(drain(&mut all).0.len(), 4);
    }

    #[test]
    fn a_tail_starts_from_saved_keys_and_reads_only_what_came_after() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let l = log(dir.path());
        append(&l.path, "{\"a\":1}\n");
        let after_a = end_position(&l.path).unwrap();
        append(&l.path, "{\"b\":2}\n");
        let open = |start| LogTail::open_saving(l.clone(), start, Some(&cache)).unwrap();
        // The first watch reads the log and saves its keys.
        let first = open(Start::End);
        assert!(first.seen.is_empty());
        assert_eq!(first.saved.as_ref().unwrap().keys.len(), 2);
        assert!(seen_lines::file_path(&cache, &l.path).is_file());

        // The next reads only what came after them, and gives what comes after its start.
        append(&l.path, "{\"c\":3}\n");
        let mut next = open(Start::End);
        assert_eq!(next.saved.as_ref().unwrap().keys.len(), 2);
        assert_eq!(next.seen.len(), 1);
        assert_eq!(next.position(), end_position(&l.path).unwrap());
        append(&l.path, "{\"d\":4}\n{\"a\":1}\n");
        // A line seen before the start (here a repeat of the first) counts once, as ever.
        assert_eq!(drain(&mut next), (vec!["{\"d\":4}".to_string()], vec![]));

        // A cursor before the saved keys' end cannot use them: the log is read to it.
        let mut from_cursor = open(Start::At(after_a));
        assert!(from_cursor.saved.is_none());
        assert_eq!(from_cursor.seen.len(), 1);
        assert_eq!(
            drain(&mut from_cursor).0,
            vec!["{\"b\":2}", "{\"c\":3}", "{\"d\":4}"]
        );
        // One at or after it starts from them.
        let from_end = open(Start::At(next.position()));
        assert!(from_end.saved.is_some());

        // A log rewritten under the saved keys is read whole, and its keys saved anew.
        std::fs::write(&l.path, "{\"a\":1}\n{\"x\":9}\n").unwrap();
        let mut rewritten = open(Start::End);
        assert_eq!(rewritten.saved.as_ref().unwrap().keys.len(), 2);
        // Back to a log with a line this watch never saw: it is given after the resync.
        std::fs::write(&l.path, "{\"a\":1}\n{\"b\":2}\n{\"x\":9}\n").unwrap();
        settle(&l.path);
        assert_eq!(
            drain(&mut rewritten),
            (vec!["{\"b\":2}".to_string()], vec![Rewrite::Rewritten])
        );
    }

    #[test]
    fn a_rewritten_log_is_reported_and_gives_only_unseen_lines() {
        let dir = tempfile::tempdir().unwrap();
        let l = log(dir.path());
        append(&l.path, "{\"a\":1}\n{\"x\":1}\n");
        let mut tail = LogTail::open(l.clone(), Start::End).unwrap();
        let at = tail.position();
        // A merge that puts the other side's line before ours.
        std::fs::write(&l.path, "{\"a\":1}\n{\"y\":2}\n{\"x\":1}\n").unwrap();
        // Just written, it may be half written: looked at again later.
        assert_eq!(drain(&mut tail), (vec![], vec![]));
        assert!(tail.settling);
        settle(&l.path);
        assert_eq!(
            drain(&mut tail),
            (vec!["{\"y\":2}".to_string()], vec![Rewrite::Rewritten])
        );
        // A checkout back to less: reported, nothing to give.
        std::fs::write(&l.path, "{\"a\":1}\n").unwrap();
        settle(&l.path);
        assert_eq!(drain(&mut tail), (vec![], vec![Rewrite::Shrank]));
        std::fs::remove_file(&l.path).unwrap();
        // Gone for a moment (as git replaces a file) is not gone.
        assert_eq!(drain(&mut tail), (vec![], vec![]));
        tail.missing_since = Some(Instant::now() - GONE_AFTER);
        assert_eq!(drain(&mut tail), (vec![], vec![Rewrite::Removed]));

        // A cursor from before the rewrite no longer matches: told, and the log is read whole.
        std::fs::write(&l.path, "{\"a\":1}\n{\"z\":3}\n").unwrap();
        let mut late = LogTail::open(l, Start::At(at)).unwrap();
        let (lines, why) = drain(&mut late);
        assert_eq!(why, vec![Rewrite::Unknown]);
        assert_eq!(lines, vec!["{\"a\":1}", "{\"z\":3}"]);
    }

    #[test]
    fn a_log_rewritten_while_it_is_read_is_read_again() {
        // What CI caught once: a merge wrote the log between two reads of one advance, so
        // the read went on in the new file from the old offset, and the line the merge put
        // before it was never given.
        let dir = tempfile::tempdir().unwrap();
        let l = log(dir.path());
        // (A line ends with what tells it apart, as a package ends with its hash.)
        let line = |n: u32| format!("{{\"pad\":\"{}\",\"n\":{n}}}", "p".repeat(80));
        let file = |ns: &[u32]| ns.iter().map(|&n| line(n) + "\n").collect::<String>();
        append(&l.path, &file(&[0, 2]));
        let mut tail = LogTail::open(l.clone(), Start::End).unwrap();
        append(&l.path, &file(&[3]));
        let (mut given, mut rewrites, mut merged) = (Vec::new(), Vec::new(), false);
        tail.advance(&mut |change| {
            match change {
                Change::Line(_, text) => given.push(String::from_utf8(text.to_vec()).unwrap()),
                Change::Rewrite(why) => rewrites.push(why),
            }
            if !merged {
                // While line 3 is handed over, the merge puts line 1 before line 2.
                std::fs::write(&l.path, file(&[0, 1, 2, 3])).unwrap();
                merged = true;
            }
            Ok(true)
        })
        .unwrap();
        // Found in the same advance: a resync, then the line it missed.
        assert_eq!(
            (given, rewrites),
            (vec![line(3), line(1)], vec![Rewrite::Rewritten])
        );
        assert_eq!(tail.position(), end_position(&l.path).unwrap());

        // A reader that stops at line 4 gets the resync and line 5 at its next advance.
        append(&l.path, &file(&[4]));
        tail.advance(&mut |change| {
            assert!(matches!(change, Change::Line(..)));
            std::fs::write(&l.path, file(&[0, 1, 2, 5, 3, 4])).unwrap();
            Ok(false)
        })
        .unwrap();
        assert_eq!(tail.position(), Position::default());
        assert_eq!(drain(&mut tail), (vec![line(5)], vec![Rewrite::Rewritten]));
    }
}
