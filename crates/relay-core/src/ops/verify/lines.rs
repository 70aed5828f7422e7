//! Reading logs for verify: every line with its number and offset, and the object it holds
//! or the problem it has instead (blank lines are skipped).

use std::path::Path;

use serde_json::{Map, Value};

use relay_store::ndjson;
use relay_store::records::Versioned;
use relay_wire::error::{Error, Result};
use relay_wire::tree::{Json, Members};

/// One line of a log, as read.
pub(super) struct Line {
    pub number: u64,
    pub text: Vec<u8>,
    pub complete: bool,
}

/// Every line of a small log, held at once: the projects log, and a log `--fix` rewrites.
pub(super) fn lines(path: &Path) -> Result<Vec<Line>> {
    let Some(bytes) = ndjson::read_whole(path)? else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut start = 0;
    let mut number = 0;
    while start < bytes.len() {
        number += 1;
        let end = memchr::memchr(b'\n', &bytes[start..]).map(|i| start + i);
        let (text, complete, next) = match end {
            Some(e) => (bytes[start..e].to_vec(), true, e + 1),
            None => (bytes[start..].to_vec(), false, bytes.len()),
        };
        out.push(Line {
            number,
            text,
            complete,
        });
        start = next;
    }
    Ok(out)
}

/// Streams the lines of `path` (a missing file has none) to `each(number, offset, text,
/// complete)`, as read, without their newline; one line held at a time.
pub(super) fn each_raw_line(
    path: &Path,
    each: impl FnMut(u64, u64, &[u8], bool) -> Result<()>,
) -> Result<()> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(format!("cannot read {}", path.display()), e)),
    };
    let reader = std::io::BufReader::with_capacity(1 << 20, file);
    ndjson::LogReader::new(path)
        .read_from(reader, &mut Raw(each))
        .map(drop)
}

/// The sink of [`each_raw_line`]: every line, blank or torn too.
struct Raw<F>(F);

impl<F: FnMut(u64, u64, &[u8], bool) -> Result<()>> ndjson::LineSink for Raw<F> {
    type Error = Error;

    fn line(&mut self, number: u64, offset: u64, text: &[u8]) -> Result<bool> {
        (self.0)(number, offset, text, true).map(|()| true)
    }

    fn blank(&mut self, number: u64, offset: u64, text: &[u8]) -> Result<bool> {
        self.line(number, offset, text)
    }

    fn torn(&mut self, number: u64, offset: u64, text: &[u8]) -> Result<()> {
        (self.0)(number, offset, text, false)
    }
}

/// The object a line holds; `None` for a blank line; the problem otherwise.
pub(super) fn line_object(
    text: &[u8],
    complete: bool,
) -> std::result::Result<Option<Map<String, Value>>, (&'static str, String)> {
    if !worth_parsing(text, complete)? {
        return Ok(None);
    }
    match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(m)) => Ok(Some(m)),
        Ok(_) => Err(("corrupt_line", "the line is not a JSON object".into())),
        Err(e) => Err(("corrupt_line", format!("the line is not valid JSON ({e})"))),
    }
}

/// Like [`line_object`], the object read into a borrowing tree: for checks that look at a few
/// members of every line. A line that is no object has the same problem as there.
pub(super) fn line_tree(
    text: &[u8],
    complete: bool,
) -> std::result::Result<Option<Members<'_>>, (&'static str, String)> {
    if !worth_parsing(text, complete)? {
        return Ok(None);
    }
    if let Ok(Ok(Json::Object(m))) = std::str::from_utf8(text).map(Json::parse) {
        return Ok(Some(m));
    }
    line_object(text, complete)?;
    Err(("corrupt_line", "the line is not valid JSON".into()))
}

/// What a line's first and last bytes tell before it is parsed: `false` for a blank line
/// (skipped); the problem of a torn line or a conflict marker.
fn worth_parsing(text: &[u8], complete: bool) -> std::result::Result<bool, (&'static str, String)> {
    if text.iter().all(u8::is_ascii_whitespace) && complete {
        return Ok(false);
    }
    if !complete {
        return Err((
            "torn_line",
            "the last line is incomplete (a write was cut off)".into(),
        ));
    }
    if ndjson::is_conflict_marker(text) {
        return Err(("conflict_marker", ndjson::CONFLICT_MESSAGE.into()));
    }
    if text.ends_with(ndjson::TORN_MARK) {
        return Err((
            "torn_line",
            "a write cut off by a crash, sealed by a later append".into(),
        ));
    }
    Ok(true)
}

/// The record on the line at `offset`, if it reads and validates: the current version of an
/// id, read back when a tie needs the whole record.
pub(super) fn record_at<T: Versioned>(path: &Path, offset: u64) -> Result<Option<T>> {
    let line = ndjson::read_line_at(path, offset)?;
    Ok(whole(&line))
}

/// The record a line holds, if it reads and validates.
pub(super) fn whole<T: Versioned>(line: &[u8]) -> Option<T> {
    match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(m)) => T::parse(m).ok(),
        _ => None,
    }
}
