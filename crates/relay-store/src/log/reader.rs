//! The one log reader: [`LogReader`] walks the whole lines of a log (or of a stretch of it) and
//! hands each to a [`LineSink`] with its 1-based number and byte offset, borrowed from one
//! reused buffer; the sink also hears of blank lines and of a torn last line, and can stop early.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use relay_wire::error::Error;

/// An error a [`LineSink`] can return, which the reader can also make from a failed read.
pub trait LogError: Sized {
    /// `what` (`"open"`, `"read"`) failed on `path`.
    fn io(what: &str, path: &Path, e: std::io::Error) -> Self;
}

impl LogError for Error {
    fn io(what: &str, path: &Path, e: std::io::Error) -> Self {
        Error::io(format!("cannot {what} {}", path.display()), e)
    }
}

impl LogError for std::io::Error {
    fn io(_: &str, _: &Path, e: std::io::Error) -> Self {
        e
    }
}

/// What a [`LogReader`] hands the lines it reads to. Each method returns whether to go on.
pub trait LineSink {
    type Error: LogError;

    /// A whole line that is not blank, without its newline, starting at byte `offset`.
    fn line(&mut self, number: u64, offset: u64, text: &[u8]) -> Result<bool, Self::Error>;

    /// A whole line of whitespace only (without its newline): passed over unless the sink
    /// says otherwise.
    fn blank(&mut self, _number: u64, _offset: u64, _text: &[u8]) -> Result<bool, Self::Error> {
        Ok(true)
    }

    /// The last line, which has no newline (a write was cut off). The read ends there.
    fn torn(&mut self, _number: u64, _offset: u64, _text: &[u8]) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// A sink from a closure `(number, offset, text) -> go on?` that ignores blank and torn lines.
pub struct Lines<F>(pub F);

impl<F, E> LineSink for Lines<F>
where
    F: FnMut(u64, u64, &[u8]) -> Result<bool, E>,
    E: LogError,
{
    type Error = E;

    fn line(&mut self, number: u64, offset: u64, text: &[u8]) -> Result<bool, E> {
        (self.0)(number, offset, text)
    }
}

/// Reads a log's whole lines into a [`LineSink`]: `LogReader::new(path).from(offset, line)
/// .until(end).buffer(n).read(&mut sink)`. A missing file is empty unless
/// [`must_exist`](Self::must_exist).
#[derive(Debug, Clone, Copy)]
pub struct LogReader<'p> {
    path: &'p Path,
    start: u64,
    first_line: u64,
    end: Option<u64>,
    capacity: usize,
    must_exist: bool,
}

impl<'p> LogReader<'p> {
    /// The whole log at `path`, through a 256 KiB buffer.
    pub fn new(path: &'p Path) -> Self {
        LogReader {
            path,
            start: 0,
            first_line: 1,
            end: None,
            capacity: 256 * 1024,
            must_exist: false,
        }
    }

    /// Starts at byte `offset`, where line number `line` begins.
    pub fn from(mut self, offset: u64, line: u64) -> Self {
        (self.start, self.first_line) = (offset, line);
        self
    }

    /// Stops at byte `end` (a line boundary, or the end of the file).
    pub fn until(mut self, end: u64) -> Self {
        self.end = Some(end);
        self
    }

    /// Reads through a buffer of `bytes`.
    pub fn buffer(mut self, bytes: usize) -> Self {
        self.capacity = bytes;
        self
    }

    /// A missing file is an error ("cannot read"), as for a part of a log known to exist.
    pub fn must_exist(mut self) -> Self {
        self.must_exist = true;
        self
    }

    /// Reads the file into `sink`. Returns the offset just past the last whole line read: the
    /// end, or where the sink stopped, or where a torn last line begins.
    pub fn read<S: LineSink>(&self, sink: &mut S) -> Result<u64, S::Error> {
        let mut file = match File::open(self.path) {
            Ok(f) => f,
            Err(e) if self.must_exist => return Err(S::Error::io("read", self.path, e)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(self.start),
            Err(e) => return Err(S::Error::io("open", self.path, e)),
        };
        if self.start > 0 {
            file.seek(SeekFrom::Start(self.start))
                .map_err(|e| S::Error::io("read", self.path, e))?;
        }
        match self.end {
            Some(end) => self.read_from(
                BufReader::with_capacity(self.capacity, file.take(end - self.start)),
                sink,
            ),
            None => self.read_from(BufReader::with_capacity(self.capacity, file), sink),
        }
    }

    /// [`read`](Self::read) over any buffered input, which starts at the reader's offset and
    /// line (the path only names it in errors). It never panics, whatever the bytes.
    pub fn read_from<S: LineSink>(
        &self,
        mut reader: impl BufRead,
        sink: &mut S,
    ) -> Result<u64, S::Error> {
        let mut buf = Vec::with_capacity(4096);
        let (mut number, mut next) = (self.first_line - 1, self.start);
        loop {
            buf.clear();
            let n = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| S::Error::io("read", self.path, e))?;
            if n == 0 {
                return Ok(next);
            }
            number += 1;
            let offset = next;
            if buf.last() != Some(&b'\n') {
                sink.torn(number, offset, &buf)?;
                return Ok(offset);
            }
            next += n as u64;
            let text = &buf[..n - 1];
            let go_on = if text.iter().all(u8::is_ascii_whitespace) {
                sink.blank(number, offset, text)?
            } else {
                sink.line(number, offset, text)?
            };
            if !go_on {
                return Ok(next);
            }
        }
    }
}

/// `read(line)` of the line that starts at `offset` in `path`, without its newline, whether it
/// is whole, blank or torn (empty past the end), read through an 8 KiB buffer: for reading one
/// line out of many. A missing file is an error ("cannot read").
pub fn with_line_at<T>(
    path: &Path,
    offset: u64,
    read: impl FnOnce(&[u8]) -> T,
) -> Result<T, Error> {
    /// Hands the first line it meets to its function, then stops the read.
    struct First<F, T>(Option<F>, Option<T>);
    impl<F: FnOnce(&[u8]) -> T, T> LineSink for First<F, T> {
        type Error = Error;
        fn line(&mut self, _: u64, _: u64, text: &[u8]) -> Result<bool, Error> {
            self.1 = self.0.take().map(|read| read(text));
            Ok(false)
        }
        fn blank(&mut self, number: u64, offset: u64, text: &[u8]) -> Result<bool, Error> {
            self.line(number, offset, text)
        }
        fn torn(&mut self, number: u64, offset: u64, text: &[u8]) -> Result<(), Error> {
            self.line(number, offset, text).map(drop)
        }
    }
    let mut first = First(Some(read), None);
    (LogReader::new(path).from(offset, 1))
        .buffer(8 * 1024)
        .must_exist()
        .read(&mut first)?;
    Ok(match first {
        First(Some(read), _) => read(b""),
        First(None, got) => got.expect("the sink read its line"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records what the reader told it; stops after `stop_after` lines.
    #[derive(Default)]
    struct Record {
        seen: Vec<(&'static str, u64, u64, Vec<u8>)>,
        stop_after: Option<usize>,
    }

    impl LineSink for Record {
        type Error = std::io::Error;
        fn line(&mut self, number: u64, offset: u64, text: &[u8]) -> std::io::Result<bool> {
            self.seen.push(("line", number, offset, text.to_vec()));
            Ok(self.stop_after != Some(self.seen.len()))
        }
        fn blank(&mut self, number: u64, offset: u64, text: &[u8]) -> std::io::Result<bool> {
            self.seen.push(("blank", number, offset, text.to_vec()));
            Ok(true)
        }
        fn torn(&mut self, number: u64, offset: u64, text: &[u8]) -> std::io::Result<()> {
            self.seen.push(("torn", number, offset, text.to_vec()));
            Ok(())
        }
    }

    fn log(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.ndjson");
        std::fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    fn seen(r: &Record) -> Vec<(&'static str, u64, u64, &[u8])> {
        r.seen
            .iter()
            .map(|(k, n, o, t)| (*k, *n, *o, &t[..]))
            .collect()
    }

    #[test]
    fn lines_come_with_their_numbers_and_offsets() {
        let (_dir, path) = log(b"one\ntwo\nthree\n");
        let mut r = Record::default();
        let end = LogReader::new(&path).buffer(2).read(&mut r).unwrap();
        assert_eq!(
            seen(&r),
            [
                ("line", 1, 0, &b"one"[..]),
                ("line", 2, 4, b"two"),
                ("line", 3, 8, b"three")
            ]
        );
        assert_eq!(end, 14);
    }

    #[test]
    fn a_torn_last_line_ends_the_read() {
        let (_dir, path) = log(b"one\n{\"torn\":");
        let mut r = Record::default();
        let end = LogReader::new(&path).read(&mut r).unwrap();
        assert_eq!(
            seen(&r),
            [("line", 1, 0, &b"one"[..]), ("torn", 2, 4, b"{\"torn\":")]
        );
        assert_eq!(end, 4, "the whole lines end where the torn one begins");
    }

    #[test]
    fn blank_lines_are_told_apart() {
        let (_dir, path) = log(b"\none\n \t\ntwo\n");
        let mut r = Record::default();
        LogReader::new(&path).read(&mut r).unwrap();
        assert_eq!(
            seen(&r),
            [
                ("blank", 1, 0, &b""[..]),
                ("line", 2, 1, b"one"),
                ("blank", 3, 5, b" \t"),
                ("line", 4, 8, b"two")
            ]
        );
        let mut only = Vec::new();
        LogReader::new(&path)
            .read(&mut Lines(|n, _, _: &[u8]| {
                only.push(n);
                Ok::<_, std::io::Error>(true)
            }))
            .unwrap();
        assert_eq!(only, [2, 4], "a closure sink passes blank lines over");
    }

    #[test]
    fn a_read_can_start_mid_file_and_stop_at_an_end() {
        let (_dir, path) = log(b"one\ntwo\nthree\nfour\n");
        let mut r = Record::default();
        let end = LogReader::new(&path)
            .from(4, 2)
            .until(14)
            .read(&mut r)
            .unwrap();
        assert_eq!(
            seen(&r),
            [("line", 2, 4, &b"two"[..]), ("line", 3, 8, b"three")]
        );
        assert_eq!(end, 14);
    }

    #[test]
    fn a_sink_can_stop_early() {
        let (_dir, path) = log(b"one\ntwo\nthree\n");
        let mut r = Record {
            stop_after: Some(2),
            ..Record::default()
        };
        let end = LogReader::new(&path).read(&mut r).unwrap();
        assert_eq!(seen(&r).len(), 2);
        assert_eq!(end, 8, "just past the line it stopped at");
    }

    #[test]
    fn a_missing_file_is_empty_unless_it_must_exist() {
        let path = Path::new("/nonexistent/relay/x.ndjson");
        let mut r = Record::default();
        assert_eq!(LogReader::new(path).from(7, 3).read(&mut r).unwrap(), 7);
        assert!(r.seen.is_empty());
        assert!(LogReader::new(path).must_exist().read(&mut r).is_err());
    }
}
