//! Append-only NDJSON logs: the writers (`write.rs`), the one line reader and its sink
//! (`reader.rs`), the object readers built on it (`read.rs`) and what they skip
//! (`diagnostics.rs`). Every item is re-exported here, so callers name them
//! `crate::log::X`.

mod diagnostics;
pub mod lines;
mod read;
mod reader;
mod write;

pub use diagnostics::{Diagnostics, Warning, WarningKind};
pub use read::{
    CONFLICT_MESSAGE, LinesAt, Window, is_conflict_marker, line_at, read_line_at, read_objects,
    read_objects_filtered, read_objects_from, read_trees_between, read_whole, split_at_lines,
};
pub use reader::{LineSink, Lines, LogReader, with_line_at};
pub use write::{
    TORN_MARK, adopt, append, create_new, to_line, write_atomic, write_atomic_in, write_atomic_with,
};
