//! The candidate scan: grep-searcher streams each package log through a case-insensitive,
//! Unicode-aware matcher for the query's stems, and only matching lines reach the caller.

use std::io;
use std::path::Path;

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkFinish, SinkMatch};

use relay_wire::error::{Error, Result};

/// A matcher for lines that may hold a word with one of `stems`: each stem's scan pattern as a
/// substring, in any case; for a non-ASCII stem also any `\u` escape, which may spell it.
pub fn matcher(stems: &[String]) -> Result<RegexMatcher> {
    let mut patterns: Vec<&str> = stems
        .iter()
        .map(|s| super::query::scan_pattern(s))
        .collect();
    if stems.iter().any(|s| !s.is_ascii()) {
        patterns.push("\\u");
    }
    RegexMatcherBuilder::new()
        .case_insensitive(true)
        .unicode(true)
        .line_terminator(Some(b'\n'))
        .build_literals(&patterns)
        .map_err(|e| Error::InvalidInput(format!("cannot search for that query: {e}")))
}

/// What the scan met in one file: the number of bytes read.
struct LineSink<'a, F: FnMut(u64, &[u8]) -> io::Result<bool>> {
    each: &'a mut F,
    bytes: u64,
}

impl<F: FnMut(u64, &[u8]) -> io::Result<bool>> Sink for LineSink<'_, F> {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> io::Result<bool> {
        (self.each)(mat.absolute_byte_offset(), mat.bytes())
    }

    fn finish(&mut self, _: &Searcher, finish: &SinkFinish) -> io::Result<()> {
        self.bytes = finish.byte_count();
        Ok(())
    }
}

/// Calls `each(byte_offset, line)` for every line of `path` that `matcher` matches (the line
/// includes its `\n`). Returns the bytes scanned. A missing file scans nothing.
pub fn scan_file(
    path: &Path,
    matcher: &RegexMatcher,
    mut each: impl FnMut(u64, &[u8]) -> io::Result<bool>,
) -> Result<u64> {
    let mut searcher = SearcherBuilder::new()
        .line_number(false)
        .binary_detection(BinaryDetection::none())
        .build();
    let mut sink = LineSink {
        each: &mut each,
        bytes: 0,
    };
    match searcher.search_path(matcher, path, &mut sink) {
        Ok(()) => Ok(sink.bytes),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(Error::io(format!("cannot search {}", path.display()), e)),
    }
}
