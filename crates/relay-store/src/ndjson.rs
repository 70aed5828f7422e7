//! Lines of NDJSON, for the operations that work on a log's lines rather than on its records
//! (verify, purge, import, export, resolve, signatures) and for relay's other files written
//! whole (`write_atomic`). Records by kind are read through the [`Store`](crate::Store)'s
//! methods; these take the file a `Store` method named.

pub use crate::log::{
    CONFLICT_MESSAGE, LineSink, Lines, LinesAt, LogReader, TORN_MARK, Window, append,
    is_conflict_marker, line_at, read_line_at, read_objects, read_objects_filtered,
    read_objects_from, read_trees_between, read_whole, split_at_lines, to_line, with_line_at,
    write_atomic,
};
