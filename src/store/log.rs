//! Append-only NDJSON logs: whole-line appends with one `write_all` (DESIGN invariants 1, 2, 7),
//! and a streaming reader that skips a torn final line or a corrupt line and reports it instead
//! of failing the whole file.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::wire::tree::{Json, Members};

/// Something a reader met and skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub path: PathBuf,
    /// 1-based line number.
    pub line: u64,
    pub kind: WarningKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// The last line has no newline: a write was cut off.
    TornLine,
    /// The line is not a JSON object.
    CorruptLine,
    /// The line is JSON but not a valid record.
    InvalidRecord,
    /// The stored hash does not match the package.
    HashMismatch,
    /// A package id is stored in more than one project (ids are unique in a store, §6.1).
    DuplicatePackageId,
}

impl WarningKind {
    pub fn as_str(self) -> &'static str {
        match self {
            WarningKind::TornLine => "torn_line",
            WarningKind::CorruptLine => "corrupt_line",
            WarningKind::InvalidRecord => "invalid_record",
            WarningKind::HashMismatch => "hash_mismatch",
            WarningKind::DuplicatePackageId => "duplicate_package_id",
        }
    }
}

/// Warnings collected while a command runs, each reported once.
#[derive(Debug, Default)]
pub struct Diagnostics {
    warnings: Mutex<Vec<Warning>>,
}

impl Diagnostics {
    pub fn warn(&self, path: &Path, line: u64, kind: WarningKind, message: impl Into<String>) {
        let mut w = self.warnings.lock().unwrap_or_else(|p| p.into_inner());
        if w.iter()
            .any(|x| x.line == line && x.path == path && x.kind == kind)
        {
            return;
        }
        w.push(Warning {
            path: path.to_path_buf(),
            line,
            kind,
            message: message.into(),
        });
    }

    /// Takes the warnings gathered so far.
    pub fn take(&self) -> Vec<Warning> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

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
/// escape) are parsed (the
/// others are not checked either). A torn final line is still reported.
pub fn read_objects_filtered(
    path: &Path,
    diag: &Diagnostics,
    prefilter: Option<&[u8]>,
    mut each: impl FnMut(u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(format!("cannot open {}", path.display()), e)),
    };
    read_objects_from(
        BufReader::with_capacity(256 * 1024, file),
        path,
        diag,
        prefilter,
        &mut each,
    )
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
    read_objects_offsets(reader, path, diag, prefilter, &mut |line, _, map| {
        each(line, map)
    })
}

/// Like [`read_objects`], telling `each(line_number, byte_offset, object)` where each line
/// starts.
pub fn read_objects_at(
    path: &Path,
    diag: &Diagnostics,
    mut each: impl FnMut(u64, u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(format!("cannot open {}", path.display()), e)),
    };
    read_objects_offsets(
        BufReader::with_capacity(256 * 1024, file),
        path,
        diag,
        None,
        &mut each,
    )
}

/// [`read_objects_at`] over the part of the log from byte `start` (where line `first_line`
/// begins) to byte `end` (a line boundary, or the end): so that a log can be read in parts on
/// several threads, with the same offsets, line numbers and warnings as one read.
pub fn read_objects_between(
    path: &Path,
    diag: &Diagnostics,
    (start, end, first_line): (u64, u64, u64),
    mut each: impl FnMut(u64, u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    let ctx = |e| Error::io(format!("cannot read {}", path.display()), e);
    let mut file = File::open(path).map_err(ctx)?;
    file.seek(SeekFrom::Start(start)).map_err(ctx)?;
    let reader = BufReader::with_capacity(256 * 1024, file.take(end - start));
    read_lines_from(reader, path, diag, None, (first_line, start), &mut each)
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

fn read_objects_offsets(
    reader: impl BufRead,
    path: &Path,
    diag: &Diagnostics,
    prefilter: Option<&[u8]>,
    each: &mut impl FnMut(u64, u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    read_lines_from(reader, path, diag, prefilter, (1, 0), each)
}

fn read_lines_from(
    reader: impl BufRead,
    path: &Path,
    diag: &Diagnostics,
    prefilter: Option<&[u8]>,
    at: (u64, u64),
    each: &mut impl FnMut(u64, u64, Map<String, Value>) -> Result<()>,
) -> Result<()> {
    each_whole_line(
        reader,
        path,
        diag,
        prefilter,
        at,
        &mut |line_no, offset, text| match serde_json::from_slice::<Value>(text) {
            Ok(Value::Object(map)) => each(line_no, offset, map),
            other => {
                warn_unreadable(
                    diag,
                    path,
                    line_no,
                    text,
                    other.map(|v| crate::wire::validate::kind(&v)),
                );
                Ok(())
            }
        },
    )
}

/// Like [`read_objects_between`], each object read into a borrowing tree instead of a
/// `serde_json` map: for readers that only look at a few members of every line. `each` also
/// learns the line's length (without its newline). Lines that are not objects are warned about
/// exactly as there.
pub fn read_trees_between(
    path: &Path,
    diag: &Diagnostics,
    (start, end, first_line): (u64, u64, u64),
    mut each: impl FnMut(u64, u64, usize, &Members<'_>) -> Result<()>,
) -> Result<()> {
    let ctx = |e| Error::io(format!("cannot read {}", path.display()), e);
    let mut file = File::open(path).map_err(ctx)?;
    file.seek(SeekFrom::Start(start)).map_err(ctx)?;
    let reader = BufReader::with_capacity(256 * 1024, file.take(end - start));
    let at = (first_line, start);
    each_whole_line(
        reader,
        path,
        diag,
        None,
        at,
        &mut |line_no, offset, text| {
            match std::str::from_utf8(text).map(Json::parse) {
                Ok(Ok(Json::Object(members))) => each(line_no, offset, text.len(), &members),
                // Whatever else the line is, it is told as the map reader tells it.
                _ => {
                    let parsed = serde_json::from_slice::<Value>(text);
                    warn_unreadable(
                        diag,
                        path,
                        line_no,
                        text,
                        parsed.map(|v| crate::wire::validate::kind(&v)),
                    );
                    Ok(())
                }
            }
        },
    )
}

/// Warns about a line that holds no JSON object: `what` it holds instead, or why it did not
/// parse.
fn warn_unreadable(
    diag: &Diagnostics,
    path: &Path,
    line_no: u64,
    text: &[u8],
    what: serde_json::Result<&'static str>,
) {
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

/// Hands `each(line_number, offset, text)` every whole, non-blank line of `reader` (which
/// starts at byte `start`, on line `first_line`), without its newline; an unfinished last line
/// is warned about instead. With a `prefilter`, lines that cannot hold it are passed over.
fn each_whole_line(
    mut reader: impl BufRead,
    path: &Path,
    diag: &Diagnostics,
    prefilter: Option<&[u8]>,
    (first_line, start): (u64, u64),
    each: &mut impl FnMut(u64, u64, &[u8]) -> Result<()>,
) -> Result<()> {
    let mut buf = Vec::with_capacity(4096);
    let mut line_no = first_line - 1;
    let mut next = start;
    loop {
        buf.clear();
        let n = reader
            .read_until(b'\n', &mut buf)
            .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
        if n == 0 {
            return Ok(());
        }
        line_no += 1;
        let offset = next;
        next += n as u64;
        if buf.last() != Some(&b'\n') {
            diag.warn(
                path,
                line_no,
                WarningKind::TornLine,
                "the last line is incomplete (a write was cut off); it was skipped",
            );
            return Ok(());
        }
        let text = &buf[..buf.len() - 1];
        if text.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // A line with any escape might spell the needle differently: parse it to be sure.
        if prefilter.is_some_and(|needle| !contains(text, needle) && !text.contains(&b'\\')) {
            continue;
        }
        each(line_no, offset, text)?;
    }
}

/// Appended to a torn last line before a new record. It holds no quote, brace or bracket, so no
/// fragment it follows can become valid JSON.
pub const TORN_MARK: &[u8] = b" <torn write sealed by relay>";

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|w| w == needle)
}

/// Appends `bytes` (one or more complete lines) to `path` with a single `write_all`, creating
/// the file and its folders as needed. If the file ends in a torn line, a newline goes first so
/// that the new record starts on a line of its own. Call this only while holding the writer lock.
/// Returns whether a torn last line had to be sealed first.
pub fn append(path: &Path, bytes: &[u8], fsync: bool) -> Result<bool> {
    debug_assert!(bytes.ends_with(b"\n"));
    let ctx = |what: &str| format!("cannot {what} {}", path.display());
    let dir = path.parent().unwrap_or(Path::new("."));
    let created = !path.exists();
    if created {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(ctx("create the folder for"), e))?;
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)
        .map_err(|e| Error::io(ctx("open"), e))?;
    let len = file
        .metadata()
        .map_err(|e| Error::io(ctx("stat"), e))?
        .len();
    let mut data = Vec::with_capacity(bytes.len() + 1);
    let mut sealed = false;
    if len > 0 {
        let mut last = [0u8; 1];
        file.seek(SeekFrom::Start(len - 1))
            .map_err(|e| Error::io(ctx("seek in"), e))?;
        file.read_exact(&mut last)
            .map_err(|e| Error::io(ctx("read"), e))?;
        if last[0] != b'\n' {
            // The torn record never reported success: seal it as an invalid line rather than
            // let our newline complete it and bring it back.
            data.extend_from_slice(TORN_MARK);
            data.push(b'\n');
            sealed = true;
        }
    }
    data.extend_from_slice(bytes);
    file.write_all(&data)
        .map_err(|e| Error::io(ctx("append to"), e))?;
    if fsync {
        file.sync_data().map_err(|e| Error::io(ctx("sync"), e))?;
        if created {
            // The new file's entry, and the folders create_dir_all may just have made.
            for d in dir.ancestors().take(3) {
                sync_dir(d);
            }
        }
    }
    Ok(sealed)
}

/// Puts `finished`, a file of complete lines, in place as the log `path` when that log is
/// absent or empty: a rename, so the log appears whole or not at all and nothing is copied.
/// Returns false, leaving both alone, when the log has lines (append to it instead) or the
/// rename cannot be made (`finished` is on another file system). Call this only while holding
/// the writer lock.
pub fn adopt(path: &Path, finished: &Path, fsync: bool) -> Result<bool> {
    let ctx = |what: &str| format!("cannot {what} {}", path.display());
    match std::fs::metadata(path) {
        Ok(m) if m.len() > 0 => return Ok(false),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(ctx("stat"), e)),
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(ctx("create the folder for"), e))?;
    if fsync {
        File::open(finished)
            .and_then(|f| f.sync_data())
            .map_err(|e| Error::io(format!("cannot sync {}", finished.display()), e))?;
    }
    if std::fs::rename(finished, path).is_err() {
        return Ok(false);
    }
    if fsync {
        for d in dir.ancestors().take(3) {
            sync_dir(d);
        }
    }
    Ok(true)
}

/// Makes a new directory entry durable. Best effort: not every platform can open a directory.
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Writes a whole small file atomically: a temporary file beside it, synced, then renamed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// [`write_atomic`] for a file written piece by piece by `write`, through a buffer: a large
/// file need not be assembled in memory first.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id()
    ));
    let result = (|| {
        let mut f = std::io::BufWriter::with_capacity(1 << 16, File::create(&tmp)?);
        write(&mut f)?;
        let f = f.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(format!("cannot write {}", path.display()), e));
    }
    sync_dir(dir);
    Ok(())
}

/// Creates a whole small file unless one exists, atomically and without ever replacing what
/// another process made meanwhile: a synced temporary file is hard-linked into place, which
/// fails if the name is taken. Returns whether this call created it.
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<bool> {
    if path.exists() {
        return Ok(false);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.new-{}-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id(),
        crate::wire::ids::random_below(1 << 30)
    ));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        match std::fs::hard_link(&tmp, path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e),
        }
    })();
    let _ = std::fs::remove_file(&tmp);
    let created = result.map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
    if created {
        sync_dir(dir);
    }
    Ok(created)
}

/// The line that starts at `offset` (without its newline), read a few KiB at a time: for
/// reading many lines out of order, where a big buffer would be refilled for every one.
pub fn line_at(file: &File, offset: u64) -> std::io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut line = Vec::new();
    let mut chunk = [0u8; 4096];
    let mut at = offset;
    loop {
        let n = file.read_at(&mut chunk, at)?;
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

/// One record as a line: compact JSON and `\n`.
pub fn to_line(value: &impl serde::Serialize) -> Result<Vec<u8>> {
    let mut line = serde_json::to_vec(value)
        .map_err(|e| Error::Integrity(format!("cannot encode a record: {e}")))?;
    line.push(b'\n');
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn collect(path: &Path, diag: &Diagnostics) -> Vec<(u64, Map<String, Value>)> {
        let mut out = Vec::new();
        read_objects(path, diag, |n, m| {
            out.push((n, m));
            Ok(())
        })
        .unwrap();
        out
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
    fn a_missing_file_is_empty() {
        let diag = Diagnostics::default();
        assert!(collect(Path::new("/nonexistent/relay/x.ndjson"), &diag).is_empty());
    }

    #[test]
    fn append_after_a_torn_line_starts_a_new_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/log.ndjson");
        append(&path, b"{\"a\":1}\n", true).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"torn\":")
            .unwrap();
        append(&path, b"{\"b\":2}\n", false).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"a\":1}\n{\"torn\": <torn write sealed by relay>\n{\"b\":2}\n"
        );
        let diag = Diagnostics::default();
        assert_eq!(collect(&path, &diag).len(), 2);
        assert_eq!(diag.take()[0].kind, WarningKind::TornLine);
        // A record torn just before its newline stays dead too.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"c\":3}")
            .unwrap();
        append(&path, b"{\"d\":4}\n", false).unwrap();
        let got: Vec<_> = collect(&path, &diag).into_iter().map(|(_, m)| m).collect();
        assert_eq!(got.len(), 3);
        assert!(got.iter().all(|m| !m.contains_key("c")));
    }

    #[test]
    fn write_atomic_replaces_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

            #[test]
            fn the_log_reader_never_panics(
                bytes in prop::collection::vec(any::<u8>(), 0..512),
                lines in prop::collection::vec(crate::wire::props::json(), 0..4),
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
