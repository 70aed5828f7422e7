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

/// The position at `offset` in `file`, whose fingerprint is read from the file; `None` when
/// the file is shorter than that now (cut short under the reader).
fn position_now(file: &mut File, offset: u64) -> std::io::Result<Option<Position>> {
    match bytes_before(file, offset) {
        Ok((at, _)) => Ok(Some(at)),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether the file at `path` still holds, before `at.offset`, the bytes `at` was taken after
/// (a missing file, or one cut short, does not).
fn holds_before(path: &Path, at: Position) -> Result<bool> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io_error(path, e)),
    };
    let len = file.metadata().map_err(|e| io_error(path, e))?.len();
    if len < at.offset {
        return Ok(false);
    }
    Ok(position_now(&mut file, at.offset).map_err(|e| io_error(path, e))? == Some(at))
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
/// says "up to here" for every log in the store. A log cut short while it is read (written
/// anew in place) is read again.
pub fn end_position(path: &Path) -> Result<Position> {
    let mut tries = 0;
    loop {
        match end_position_once(path) {
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && tries < 3 => tries += 1,
            r => return r.map_err(|e| io_error(path, e)),
        }
    }
}

fn end_position_once(path: &Path) -> std::io::Result<Position> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Position::default()),
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len();
    #[cfg(test)]
    moment(Moment::EndScan);
    let mut end = len;
    let mut chunk = vec![0u8; 64 * 1024];
    // Back from the end to the last newline.
    let after_newline = loop {
        if end == 0 {
            break 0;
        }
        let start = end.saturating_sub(chunk.len() as u64);
        let buf = &mut chunk[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(buf)?;
        if let Some(i) = memchr::memrchr(b'\n', buf) {
            break start + i as u64 + 1;
        }
        end = start;
    };
    position_in(&mut file, after_newline)
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
/// bytes) and the file's last seen size and time, so an unchanged log costs one `stat`.
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

/// The moments of a read a test can act in ([`tests::at_moment`]), to write the log then.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Moment {
    /// A tail opened at a cursor (or at the end) is about to read the lines before it.
    OpenRead,
    /// An advance is about to read.
    Read,
    /// An advance has read a chunk of whole lines and is about to check the bytes before it.
    Check,
    /// The end of a log is about to be read, for its end position.
    EndScan,
    /// Saved keys were found to hold, and the bytes before their end are about to be read.
    SavedKeys,
}

#[cfg(test)]
fn moment(m: Moment) {
    tests::act_at(m);
}

/// How a [`LogTail::read_checked`] ended.
enum ReadEnd {
    /// At the length it was given, at a torn last line, or where `emit` said to stop.
    Done,
    /// The log no longer holds the bytes before the position: written anew meanwhile.
    Changed,
}

/// How long after its last change a log that no longer continues from the position is left
/// to settle before it is read as rewritten. (The tail's own tests say when a log has settled:
/// however slow the machine, a log they just wrote has not.)
#[cfg(not(test))]
const SETTLE: Duration = Duration::from_millis(150);
#[cfg(test)]
const SETTLE: Duration = Duration::from_secs(3600);

/// How many bytes an advance reads at a time, at least (a longer line is read whole). Its
/// tests read a few at a time, so that their lines span reads.
#[cfg(not(test))]
const CHUNK: usize = 256 * 1024;
#[cfg(test)]
const CHUNK: usize = 64;

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
        #[cfg(test)]
        moment(Moment::OpenRead);
        // No stamp yet: the first advance looks at the file whatever its size and time.
        match cache_dir {
            Some(cache) => tail.read_before_start(cache, until)?,
            None => tail.read(until, true, &mut |_, _| Ok(true))?,
        }
        // A log written anew in place while it was read up to the cursor: what was read may
        // be the new file's, so none of it counts as seen, and the log is given whole.
        if let Start::At(at) = start
            && (tail.at != at || !tail.matches(at)?)
        {
            if let Some(cache) = cache_dir {
                let _ = seen_lines::remove(cache, &tail.log.path);
            }
            tail.restart();
            tail.seen.clear();
            tail.saved = None;
            tail.pending = Some(Rewrite::Unknown);
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
            #[cfg(test)]
            moment(Moment::SavedKeys);
            let mut file = File::open(&path).map_err(io)?;
            // (A log cut short since the keys were found to hold is read from its start.)
            match bytes_before(&mut file, saved.coverage.covered) {
                Ok(before) => {
                    (self.at, self.last) = before;
                    self.saved = Some(saved);
                }
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {}
                Err(e) => return Err(io(e)),
            }
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
        holds_before(&self.log.path, at)
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

    /// Reads the whole lines from the position up to `len`, a chunk at a time, handing each
    /// one not seen before to `emit` with the position after it. A chunk's lines are handed
    /// over only once the bytes before it are found unchanged, read after it: a log written
    /// anew in place meanwhile (a script's `>`, `std::fs::write`) is never read as a mix of
    /// two files, with a position in the new one past lines never given.
    fn read_checked(
        &mut self,
        len: u64,
        emit: &mut dyn FnMut(Position, &[u8]) -> Result<bool>,
    ) -> Result<ReadEnd> {
        #[cfg(test)]
        moment(Moment::Read);
        let path = self.log.path.clone();
        let io = |e| io_error(&path, e);
        let mut file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ReadEnd::Done),
            Err(e) => return Err(io(e)),
        };
        let (mut chunk, mut want) = (Vec::new(), CHUNK as u64);
        let stopped = std::cell::Cell::new(false);
        let mut lines = |at: Position, line: &[u8]| {
            let go_on = emit(at, line)?;
            stopped.set(!go_on);
            Ok(go_on)
        };
        while self.at.offset < len {
            let start = self.at.offset;
            let size = (len - start).min(want);
            chunk.resize(size as usize, 0);
            file.seek(SeekFrom::Start(start)).map_err(io)?;
            match file.read_exact(&mut chunk) {
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    return Ok(ReadEnd::Changed);
                }
                r => r.map_err(io)?,
            }
            let Some(end) = chunk.iter().rposition(|&b| b == b'\n') else {
                if start + size == len {
                    break; // a torn last line
                }
                want *= 2; // a line longer than the chunk
                continue;
            };
            want = CHUNK as u64;
            #[cfg(test)]
            moment(Moment::Check);
            if start > 0 && position_now(&mut file, start).map_err(io)? != Some(self.at) {
                return Ok(ReadEnd::Changed);
            }
            let mut sink = Collect {
                seen: &mut self.seen,
                saved: self.saved.as_ref(),
                last: &mut self.last,
                at: &mut self.at,
                emit: &mut lines,
                remember_only: false,
            };
            LogReader::new(&path)
                .from(start, 1)
                .read_from(&chunk[..=end], &mut sink)?;
            if stopped.get() {
                break;
            }
        }
        Ok(ReadEnd::Done)
    }

    /// Hands every line added since the last call to `emit` as [`Change::Line`], after a
    /// [`Change::Rewrite`] when the log was rewritten under the reader (the position then
    /// moves through the new log, and only lines this tail has not handed over before are
    /// given). `emit` returns whether to go on; when it stops, the position is just after the
    /// last line it took.
    pub fn advance(&mut self, emit: &mut dyn FnMut(Change<'_>) -> Result<bool>) -> Result<()> {
        self.settling = false;
        if let Some(why) = self.pending.take() {
            return self.replay(why, emit);
        }
        let now = stamp(&self.log.path);
        if now.is_some() && now == self.stamp {
            return Ok(());
        }
        let Some((len, modified)) = now else {
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
            if modified.elapsed().is_ok_and(|age| age < SETTLE) {
                self.look_again_soon();
                return Ok(());
            }
            let why = if len < self.at.offset {
                Rewrite::Shrank
            } else {
                Rewrite::Rewritten
            };
            return self.replay(why, emit);
        }
        self.read_to(now, emit)
    }

    /// Reports a rewrite, then reads the log from its start, giving only the lines not seen.
    fn replay(
        &mut self,
        why: Rewrite,
        emit: &mut dyn FnMut(Change<'_>) -> Result<bool>,
    ) -> Result<()> {
        self.restart();
        self.stamp = None;
        let now = stamp(&self.log.path);
        if !emit(Change::Rewrite(why))? {
            return Ok(());
        }
        self.read_to(now, emit)
    }

    /// Reads the lines up to the length the stamp `now` saw, and keeps the stamp when they
    /// were all read: else the next advance looks again.
    fn read_to(
        &mut self,
        now: Option<(u64, SystemTime)>,
        emit: &mut dyn FnMut(Change<'_>) -> Result<bool>,
    ) -> Result<()> {
        self.stamp = None;
        let Some((len, _)) = now else {
            return Ok(());
        };
        let mut lines = |at: Position, line: &[u8]| emit(Change::Line(at, line));
        match self.read_checked(len, &mut lines)? {
            // (stopped, or a torn last line: the stamp stays unset)
            ReadEnd::Done if self.at.offset == len => self.stamp = now,
            ReadEnd::Done => {}
            // (the next advance finds what changed, at the position)
            ReadEnd::Changed => self.look_again_soon(),
        }
        Ok(())
    }

    /// Leaves the stamp unset and asks to be advanced again soon.
    fn look_again_soon(&mut self) {
        self.stamp = None;
        self.settling = true;
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
mod tests;
