//! The log readers over [`LogReader`]: a log's JSON objects (as `serde_json` maps or borrowing
//! trees), skipping a torn final line or a corrupt line and reporting it to [`Diagnostics`]
//! instead of failing the whole file (DESIGN invariant 2); cutting a log into parts at line
//! boundaries; reading single lines by offset.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use serde_json::{Map, Value};

use super::{Diagnostics, LineSink, LogReader, TORN_MARK, WarningKind};
use relay_wire::error::{Error, Result};
use relay_wire::tree::{Json, Members};

/// Streams the JSON objects of one log to `each(line_number, object)`. A missing file is empty.
/// Blank lines are skipped silently; a torn final line or a corrupt line goes to `diag`.
pub fn read_objects(
    path: &Path,
    diag: &Diagnostics,
    each: impl FnMut(u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    read_objects_filtered(path, diag, None, each)
}

/// Like [`read_objects`], but only lines whose raw bytes contain `prefilter` (or any `\`
/// escape) are parsed (the others are not checked either). A torn final line is still
/// reported.
pub fn read_objects_filtered(
    path: &Path,
    diag: &Diagnostics,
    prefilter: Option<&[u8]>,
    mut each: impl FnMut(u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    let mut sink = Objects::new(path, diag, prefilter, |line, _, map| each(line, map));
    LogReader::new(path).read(&mut sink).map(drop)
}

/// The reader behind [`read_objects_filtered`], over any buffered input (`path` names it in
/// warnings). It never panics, whatever the bytes.
pub fn read_objects_from(
    reader: impl BufRead,
    path: &Path,
    diag: &Diagnostics,
    prefilter: Option<&[u8]>,
    each: &mut impl FnMut(u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    let mut sink = Objects::new(path, diag, prefilter, |line, _, map| each(line, map));
    LogReader::new(path).read_from(reader, &mut sink).map(drop)
}

/// Like [`read_objects`], telling `each(line_number, byte_offset, object)` where each line
/// starts.
#[cfg(test)]
pub fn read_objects_at(
    path: &Path,
    diag: &Diagnostics,
    each: impl FnMut(u64, u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    let mut sink = Objects::new(path, diag, None, each);
    LogReader::new(path).read(&mut sink).map(drop)
}

/// [`read_objects_at`] over the part of the log from byte `start` (where line `first_line`
/// begins) to byte `end` (a line boundary, or the end): so that a log can be read in parts on
/// several threads, with the same offsets, line numbers and warnings as one read.
#[cfg(test)]
pub fn read_objects_between(
    path: &Path,
    diag: &Diagnostics,
    (start, end, first_line): (u64, u64, u64),
    each: impl FnMut(u64, u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    let mut sink = Objects::new(path, diag, None, each);
    part(path, (start, end, first_line))
        .read(&mut sink)
        .map(drop)
}

/// The reader of one part of a log, as [`split_at_lines`] cuts it.
fn part(path: &Path, (start, end, first_line): (u64, u64, u64)) -> LogReader<'_> {
    LogReader::new(path)
        .from(start, first_line)
        .until(end)
        .must_exist()
}

/// Where a log can be cut into `parts` pieces at line boundaries: (start, end, number of the
/// first line) of each piece, covering the whole file.
pub fn split_at_lines(path: &Path, parts: u64) -> Result<Vec<(u64, u64, u64)>> {
    let ctx = |e| Error::io(format!("cannot read {}", path.display()), e);
    let len = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(ctx(e)),
    };
    let reader = BufReader::with_capacity(256 * 1024, File::open(path).map_err(ctx)?);
    split_lines_of(reader, len, parts).map_err(ctx)
}

/// [`split_at_lines`] over a reader of `len` bytes. Lines are counted a buffer at a time (the
/// cut falls at the end of the line holding the byte before each even share), so finding the
/// cuts reads the bytes but copies none.
fn split_lines_of(
    mut reader: impl BufRead,
    len: u64,
    parts: u64,
) -> std::io::Result<Vec<(u64, u64, u64)>> {
    let mut pieces = Vec::new();
    let (mut start, mut start_line) = (0u64, 1u64);
    // `pos` is where line `line` begins, unless the reader stopped inside a line.
    let (mut pos, mut line, mut inside) = (0u64, 1u64, false);
    for i in 1..parts.max(1) {
        let target = len * i / parts;
        while pos < target || inside {
            let buf = reader.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            // Up to the byte before `target`, then on to the end of its line.
            let before = usize::try_from(target.saturating_sub(pos + 1)).unwrap_or(usize::MAX);
            let used = match buf
                .get(before..)
                .and_then(|rest| memchr::memchr(b'\n', rest))
            {
                Some(at) => before + at + 1,
                None => buf.len(),
            };
            line += memchr::memchr_iter(b'\n', &buf[..used]).count() as u64;
            pos += used as u64;
            inside = buf[used - 1] != b'\n';
            reader.consume(used);
        }
        if pos > start && pos < len {
            pieces.push((start, pos, start_line));
            (start, start_line) = (pos, line);
        }
    }
    pieces.push((start, len, start_line));
    Ok(pieces)
}

/// A sink that parses each line into a `serde_json` map for `each(line, offset, map)`, warning
/// about the lines that hold no object and about a torn last line.
struct Objects<'a, F> {
    path: &'a Path,
    diag: &'a Diagnostics,
    /// The searcher for the prefilter's bytes, built once for every line.
    prefilter: Option<memchr::memmem::Finder<'a>>,
    each: F,
}

impl<'a, F: FnMut(u64, u64, Map<String, Value>) -> Result<()>> Objects<'a, F> {
    fn new(path: &'a Path, diag: &'a Diagnostics, prefilter: Option<&'a [u8]>, each: F) -> Self {
        Objects {
            path,
            diag,
            prefilter: prefilter.map(memchr::memmem::Finder::new),
            each,
        }
    }
}

impl<F: FnMut(u64, u64, Map<String, Value>) -> Result<()>> LineSink for Objects<'_, F> {
    type Error = Error;

    fn line(&mut self, line_no: u64, offset: u64, text: &[u8]) -> Result<bool> {
        // A line with any escape might spell the needle differently: parse it to be sure.
        if (self.prefilter.as_ref())
            .is_some_and(|needle| needle.find(text).is_none() && !text.contains(&b'\\'))
        {
            return Ok(true);
        }
        match serde_json::from_slice::<Value>(text) {
            Ok(Value::Object(map)) => (self.each)(line_no, offset, map)?,
            other => warn_unreadable(
                self.diag,
                self.path,
                line_no,
                text,
                other.map(|v| relay_wire::validate::kind(&v)),
            ),
        }
        Ok(true)
    }

    fn torn(&mut self, line_no: u64, _: u64, _: &[u8]) -> Result<()> {
        warn_torn(self.diag, self.path, line_no);
        Ok(())
    }
}

/// Like [`read_objects_between`], each object read into a borrowing tree instead of a
/// `serde_json` map: for readers that only look at a few members of every line. `each` also
/// learns the line's length (without its newline). Lines that are not objects are warned about
/// exactly as there.
pub fn read_trees_between(
    path: &Path,
    diag: &Diagnostics,
    piece: (u64, u64, u64),
    each: impl FnMut(u64, u64, usize, &Members<'_>) -> Result<()>,
) -> Result<()> {
    part(path, piece)
        .read(&mut Trees { path, diag, each })
        .map(drop)
}

/// The sink of [`read_trees_between`].
struct Trees<'a, F> {
    path: &'a Path,
    diag: &'a Diagnostics,
    each: F,
}

impl<F: FnMut(u64, u64, usize, &Members<'_>) -> Result<()>> LineSink for Trees<'_, F> {
    type Error = Error;

    fn line(&mut self, line_no: u64, offset: u64, text: &[u8]) -> Result<bool> {
        match std::str::from_utf8(text).map(Json::parse) {
            Ok(Ok(Json::Object(members))) => (self.each)(line_no, offset, text.len(), &members)?,
            // Whatever else the line is, it is told as the map reader tells it.
            _ => {
                let parsed = serde_json::from_slice::<Value>(text);
                warn_unreadable(
                    self.diag,
                    self.path,
                    line_no,
                    text,
                    parsed.map(|v| relay_wire::validate::kind(&v)),
                );
            }
        }
        Ok(true)
    }

    fn torn(&mut self, line_no: u64, _: u64, _: &[u8]) -> Result<()> {
        warn_torn(self.diag, self.path, line_no);
        Ok(())
    }
}

fn warn_torn(diag: &Diagnostics, path: &Path, line_no: u64) {
    diag.warn(
        path,
        line_no,
        WarningKind::TornLine,
        "the last line is incomplete (a write was cut off); it was skipped",
    );
}

/// Whether `text` is a line git writes around a conflict it could not merge (`<<<<<<< HEAD`,
/// `=======`, `>>>>>>> branch`, and `||||||| base` in diff3 style).
pub fn is_conflict_marker(text: &[u8]) -> bool {
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    text == b"=======".as_slice()
        || [&b"<<<<<<<"[..], b">>>>>>>", b"|||||||"].iter().any(|m| {
            text.strip_prefix(*m)
                .is_some_and(|r| r.is_empty() || r[0] == b' ')
        })
}

/// What a reader says of a conflict marker in a log: the merge is unfinished, and how to
/// finish it.
pub const CONFLICT_MESSAGE: &str = "a git conflict marker: the log holds an unresolved git \
    merge (git's octopus merge does not run relay's union driver); run `relay resolve`, then \
    `git commit`";

/// Warns about a line that holds no JSON object: `what` it holds instead, or why it did not
/// parse.
fn warn_unreadable(
    diag: &Diagnostics,
    path: &Path,
    line_no: u64,
    text: &[u8],
    what: serde_json::Result<&'static str>,
) {
    if is_conflict_marker(text) {
        diag.warn(
            path,
            line_no,
            WarningKind::CorruptLine,
            format!("{CONFLICT_MESSAGE}; the line was skipped"),
        );
        return;
    }
    match what {
        Ok(what) => diag.warn(
            path,
            line_no,
            WarningKind::CorruptLine,
            format!("the line is {what} rather than a JSON object; it was skipped"),
        ),
        Err(_) if text.ends_with(TORN_MARK) => diag.warn(
            path,
            line_no,
            WarningKind::TornLine,
            "a write that was cut off (a crash) left this incomplete line; it was skipped",
        ),
        Err(e) => diag.warn(
            path,
            line_no,
            WarningKind::CorruptLine,
            format!("the line is not valid JSON ({e}); it was skipped"),
        ),
    }
}

/// The whole of a small log, held at once (the projects log, a log purge or `verify --fix`
/// rewrites); `None` when it does not exist.
pub fn read_whole(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(format!("cannot read {}", path.display()), e)),
    }
}

/// The line that starts at `offset` of the log at `path` (without its newline).
pub fn read_line_at(path: &Path, offset: u64) -> Result<Vec<u8>> {
    let io = |e| Error::io(format!("cannot read {}", path.display()), e);
    let file = File::open(path).map_err(io)?;
    line_at(&file, offset).map_err(io)
}

/// Lines of one log read at offsets that mostly increase, through one handle opened on the
/// first read (a search reading the lines an index names). A line within the bytes already
/// buffered is served from them; another is read from its offset a page at a time, so a
/// sparse read (a line in a hundred) costs one small read, not a large buffer refilled.
#[derive(Debug)]
pub struct LinesAt<'a> {
    path: &'a Path,
    reader: Option<BufReader<File>>,
    /// The log offset of the reader's position.
    at: u64,
}

/// What [`LinesAt`] reads at a time: most lines fit in one page.
const LINES_AT_BUFFER: usize = 4096;

impl<'a> LinesAt<'a> {
    pub fn new(path: &'a Path) -> LinesAt<'a> {
        LinesAt {
            path,
            reader: None,
            at: 0,
        }
    }

    /// The log's reader, opened on first use.
    fn reader(&mut self) -> Result<&mut BufReader<File>> {
        let reader = match self.reader.take() {
            Some(r) => r,
            None => BufReader::with_capacity(
                LINES_AT_BUFFER,
                File::open(self.path)
                    .map_err(|e| Error::io(format!("cannot read {}", self.path.display()), e))?,
            ),
        };
        Ok(self.reader.insert(reader))
    }

    /// Reads the line at `offset`, with its newline, appended to `line`. Opening the log is
    /// the error (`cannot read`); a failed read of the line is the `Err` inside.
    pub fn read(&mut self, offset: u64, line: &mut Vec<u8>) -> Result<std::io::Result<usize>> {
        use std::io::{Seek, SeekFrom};
        let ahead = offset.checked_sub(self.at);
        let r = self.reader()?;
        let moved = match ahead {
            Some(n) if n <= r.buffer().len() as u64 => r.seek_relative(n as i64),
            _ => r.seek(SeekFrom::Start(offset)).map(|_| ()),
        };
        let read = moved.and_then(|()| r.read_until(b'\n', line));
        self.at = match read {
            Ok(n) => offset + n as u64,
            Err(_) => u64::MAX, // unknown: the next read seeks
        };
        Ok(read)
    }

    /// [`LinesAt::read`] of a line whose successor is known to start at `next` (an index
    /// knows): one positioned read of the bytes up to `next`, kept up to the first newline,
    /// so the line comes in one system call whatever the buffer holds. Falls back to
    /// [`LinesAt::read`] when those bytes hold no newline.
    pub fn read_before(
        &mut self,
        offset: u64,
        next: u64,
        line: &mut Vec<u8>,
    ) -> Result<std::io::Result<usize>> {
        use std::os::unix::fs::FileExt;
        let Some(span) = next.checked_sub(offset).filter(|&n| n > 0 && n <= 1 << 20) else {
            return self.read(offset, line);
        };
        let r = self.reader()?;
        let start = line.len();
        line.resize(start + span as usize, 0);
        if let Err(e) = r.get_ref().read_exact_at(&mut line[start..], offset) {
            line.truncate(start);
            return match e.kind() {
                std::io::ErrorKind::UnexpectedEof => self.read(offset, line),
                _ => Ok(Err(e)),
            };
        }
        match memchr::memchr(b'\n', &line[start..]) {
            Some(end) => {
                line.truncate(start + end + 1);
                Ok(Ok(end + 1))
            }
            None => {
                line.truncate(start);
                self.read(offset, line)
            }
        }
    }
}

/// The line that starts at `offset` (without its newline), read a few KiB at a time: for
/// reading many lines out of order, where a big buffer would be refilled for every one.
pub fn line_at(file: &File, offset: u64) -> std::io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut line = Vec::new();
    let mut chunk = [0u8; 4096];
    let mut at = offset;
    // Most lines (a fact, a session) are a few hundred bytes: the first read is short, so
    // that reading many of them does not copy 4 KiB for each.
    let mut want = 512;
    loop {
        let n = file.read_at(&mut chunk[..want], at)?;
        want = chunk.len();
        if n == 0 {
            return Ok(line);
        }
        if let Some(end) = memchr::memchr(b'\n', &chunk[..n]) {
            line.extend_from_slice(&chunk[..end]);
            return Ok(line);
        }
        line.extend_from_slice(&chunk[..n]);
        at += n as u64;
    }
}

/// A stretch of a log read in one go, for reading many lines that lie close together without a
/// read per line.
pub struct Window {
    start: u64,
    bytes: Vec<u8>,
}

impl Window {
    /// Past the last offset, how much is read for its line; a longer line is read by itself.
    const TAIL: u64 = 64 * 1024;

    /// The stretch from the first of `offsets` to a little past the last, when that is at most
    /// `max_bytes`; an empty window otherwise (every line is then read by [`line_at`]).
    pub fn read(file: &File, offsets: impl Iterator<Item = u64>, max_bytes: u64) -> Window {
        use std::os::unix::fs::FileExt;
        let (lo, hi) = offsets.fold((u64::MAX, 0), |(lo, hi), o| (lo.min(o), hi.max(o)));
        let mut window = Window {
            start: 0,
            bytes: Vec::new(),
        };
        if lo > hi || hi - lo + Self::TAIL > max_bytes {
            return window;
        }
        window.bytes.resize((hi - lo + Self::TAIL) as usize, 0);
        let mut filled = 0;
        while filled < window.bytes.len() {
            match file.read_at(&mut window.bytes[filled..], lo + filled as u64) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        window.bytes.truncate(filled);
        window.start = lo;
        window
    }

    /// The whole line that starts at `offset` (without its newline), if the window holds it.
    pub fn line(&self, offset: u64) -> Option<&[u8]> {
        let from = usize::try_from(offset.checked_sub(self.start)?).ok()?;
        let rest = self.bytes.get(from..)?;
        let end = memchr::memchr(b'\n', rest)?;
        Some(&rest[..end])
    }
}

#[cfg(test)]
pub(super) mod test_support {
    use super::*;

    /// Every object `read_objects` hands over, with its line number.
    pub(in crate::log) fn collect(
        path: &Path,
        diag: &Diagnostics,
    ) -> Vec<(u64, Map<String, Value>)> {
        let mut out = Vec::new();
        read_objects(path, diag, |n, m| {
            out.push((n, m));
            Ok(())
        })
        .unwrap();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::collect;
    use super::*;

    #[test]
    fn lines_at_any_offset_read_alike_from_the_buffer_or_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.ndjson");
        let lines: Vec<String> = (0..400)
            .map(|i| format!("{{\"n\":{i},\"pad\":\"{}\"}}\n", "x".repeat(i % 97 * 13)))
            .collect();
        std::fs::write(&path, lines.concat()).unwrap();
        let starts: Vec<u64> = lines
            .iter()
            .scan(0u64, |at, l| {
                let s = *at;
                *at += l.len() as u64;
                Some(s)
            })
            .collect();
        let mut reader = LinesAt::new(&path);
        // Forward dense, forward sparse, backward, and the same line twice.
        let order: Vec<usize> = (0..50)
            .chain((50..400).step_by(37))
            .chain([10, 3, 399, 399, 0])
            .collect();
        for i in order {
            let mut line = b"kept".to_vec();
            let n = reader.read(starts[i], &mut line).unwrap().unwrap();
            assert_eq!(n, lines[i].len(), "line {i}");
            assert_eq!(&line[4..], lines[i].as_bytes(), "line {i}");
            // Knowing where a later line starts (the next, or one further on: a line the
            // index skipped between), or past the end, reads the same line.
            let end = starts.len() as u64 * 100_000;
            for next in [starts.get(i + 1), starts.get(i + 3)].map(|n| n.copied().unwrap_or(end)) {
                let mut again = b"kept".to_vec();
                let n = reader
                    .read_before(starts[i], next, &mut again)
                    .unwrap()
                    .unwrap();
                assert_eq!(
                    (n, &again),
                    (lines[i].len(), &line),
                    "line {i} before {next}"
                );
            }
        }
    }

    #[test]
    fn a_window_gives_the_lines_it_holds_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.ndjson");
        std::fs::write(&path, b"one\ntwo\nthree").expect("writes");
        let file = File::open(&path).expect("opens");
        let w = Window::read(&file, [0u64, 4].into_iter(), 1 << 20);
        assert_eq!(w.line(0), Some(&b"one"[..]));
        assert_eq!(w.line(4), Some(&b"two"[..]));
        // The torn last line has no newline: not a whole line.
        assert_eq!(w.line(8), None);
        assert_eq!(w.line(100), None);
        let narrow = Window::read(&file, [0u64, 8].into_iter(), 16);
        assert_eq!(narrow.line(0), None, "too wide a stretch is not read");
    }

    #[test]
    fn a_log_read_in_parts_reads_as_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.ndjson");
        let text: String = (0..50)
            .map(|i| {
                if i == 17 {
                    "not json\n".to_string()
                } else {
                    format!("{{\"n\":{i},\"pad\":\"{}\"}}\n", "x".repeat(i % 7))
                }
            })
            .collect();
        std::fs::write(&path, text + "{\"torn\":").unwrap();
        let whole_diag = Diagnostics::default();
        let mut whole = Vec::new();
        read_objects_at(&path, &whole_diag, |line, at, map| {
            whole.push((line, at, map));
            Ok(())
        })
        .unwrap();
        for parts in [1, 2, 3, 7] {
            let pieces = split_at_lines(&path, parts).unwrap();
            assert_eq!(pieces.first().unwrap().0, 0);
            assert_eq!(
                pieces.last().unwrap().1,
                std::fs::metadata(&path).unwrap().len()
            );
            assert!(pieces.windows(2).all(|w| w[0].1 == w[1].0));
            let diag = Diagnostics::default();
            let mut read = Vec::new();
            for piece in pieces {
                read_objects_between(&path, &diag, piece, |line, at, map| {
                    read.push((line, at, map));
                    Ok(())
                })
                .unwrap();
            }
            assert_eq!(read, whole, "in {parts} parts");
            let lines = |d: &Diagnostics| d.take().iter().map(|w| w.line).collect::<Vec<_>>();
            assert_eq!(lines(&diag), lines(&whole_diag), "in {parts} parts");
            read_objects_at(&path, &whole_diag, |_, _, _| Ok(())).unwrap();
        }
    }

    /// The cuts are the same whatever the reader's buffer: counted a buffer at a time, a cut
    /// still falls where reading whole lines up to each even share would put it.
    #[test]
    fn cuts_do_not_depend_on_the_buffer() {
        let text: Vec<u8> = (0..40)
            .map(|i| format!("{{\"n\":{i},\"pad\":\"{}\"}}\n", "x".repeat(i * 7 % 23)))
            .collect::<String>()
            .into_bytes();
        for torn in [&b""[..], b"{\"torn\":"] {
            let bytes = [&text[..], torn].concat();
            let len = bytes.len() as u64;
            // Whole lines read until each share is reached.
            let by_lines = |parts: u64| {
                let mut starts = vec![0u64];
                starts.extend(
                    (bytes.iter().enumerate())
                        .filter(|(_, b)| **b == b'\n')
                        .map(|(i, _)| i as u64 + 1),
                );
                let mut pieces = Vec::new();
                let (mut start, mut start_line) = (0u64, 1u64);
                for i in 1..parts.max(1) {
                    let target = len * i / parts;
                    let (n, &pos) = (starts.iter().enumerate())
                        .find(|(_, s)| **s >= target)
                        .unwrap_or((starts.len(), &len));
                    if pos > start && pos < len {
                        pieces.push((start, pos, start_line));
                        (start, start_line) = (pos, n as u64 + 1);
                    }
                }
                pieces.push((start, len, start_line));
                pieces
            };
            for parts in [1, 2, 3, 7, 100] {
                for capacity in [1, 2, 3, 16, 100, 1 << 18] {
                    let reader = BufReader::with_capacity(capacity, &bytes[..]);
                    assert_eq!(
                        split_lines_of(reader, len, parts).unwrap(),
                        by_lines(parts),
                        "{parts} parts, buffer {capacity}, torn {}",
                        !torn.is_empty()
                    );
                }
            }
        }
    }

    #[test]
    fn skips_and_reports_corrupt_and_torn_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.ndjson");
        std::fs::write(
            &path,
            b"{\"a\":1}\nnot json\n\n[1]\n\xff\xfe\n{\"b\":2}\n{\"c\":",
        )
        .unwrap();
        let diag = Diagnostics::default();
        let got = collect(&path, &diag);
        assert_eq!(got.iter().map(|(n, _)| *n).collect::<Vec<_>>(), vec![1, 6]);
        let w = diag.take();
        let kinds: Vec<_> = w.iter().map(|w| (w.line, w.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                (2, WarningKind::CorruptLine),
                (4, WarningKind::CorruptLine),
                (5, WarningKind::CorruptLine),
                (7, WarningKind::TornLine)
            ]
        );
        collect(&path, &diag);
        assert_eq!(diag.take().len(), 4, "a fresh command reports again");
    }

    #[test]
    fn conflict_markers_are_named_with_the_command_that_finishes_the_merge() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.ndjson");
        std::fs::write(
            &path,
            "{\"a\":0}\n<<<<<<< .merge_file_x\n{\"b\":1}\n=======\n{\"c\":1}\n>>>>>>> c\n",
        )
        .unwrap();
        let diag = Diagnostics::default();
        let got = collect(&path, &diag);
        assert_eq!(got.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [1, 3, 5]);
        let w = diag.take();
        assert_eq!(w.iter().map(|w| w.line).collect::<Vec<_>>(), [2, 4, 6]);
        for w in &w {
            assert_eq!(w.kind, WarningKind::CorruptLine);
            assert!(w.message.contains("unresolved git merge"), "{}", w.message);
            assert!(w.message.contains("run `relay resolve`"), "{}", w.message);
        }
        assert!(is_conflict_marker(b"<<<<<<<"));
        assert!(is_conflict_marker(b"||||||| base"));
        assert!(!is_conflict_marker(b"<<<<<<<<"));
        assert!(!is_conflict_marker(b"======= x"));
    }

    #[test]
    fn a_missing_file_is_empty() {
        let diag = Diagnostics::default();
        assert!(collect(Path::new("/nonexistent/relay/x.ndjson"), &diag).is_empty());
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

            #[test]
            fn the_log_reader_never_panics(
                bytes in prop::collection::vec(any::<u8>(), 0..512),
                lines in prop::collection::vec(relay_wire::strategies::json(), 0..4),
            ) {
                let mut data = bytes;
                for l in lines {
                    data.extend(serde_json::to_vec(&l).unwrap());
                    data.push(b'\n');
                }
                let diag = Diagnostics::default();
                let mut n = 0;
                let _ = read_objects_from(&data[..], std::path::Path::new("p"), &diag, None, &mut |_, _| { n += 1; Ok(()) });
                prop_assert!(n <= data.iter().filter(|&&b| b == b'\n').count());
            }
        }
    }
}
