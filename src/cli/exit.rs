//! The exit-code table. It is documented in the book (docs/guide/exit-codes.md) and stays
//! stable.

use relay_wire::error::ErrorKind;

pub const OK: u8 = 0;
/// The package, project or store asked for does not exist.
pub const NOT_FOUND: u8 = 1;
/// The command line was wrong: unknown flag, missing value, no TTY to prompt on.
pub const USAGE: u8 = 2;
/// The store's state forbids it: duplicate id, archived project, illegal transition.
pub const CONFLICT: u8 = 3;
/// The input was invalid: schema violation, malformed JSON, unparseable time.
pub const INVALID_INPUT: u8 = 4;
/// The store is damaged or inconsistent.
pub const INTEGRITY: u8 = 5;
/// Another writer held the lock for too long.
pub const LOCK_TIMEOUT: u8 = 6;
/// Anything else: an I/O failure or a bug.
pub const INTERNAL: u8 = 7;
/// A short id that more than one record's id begins with: give more of it.
pub const AMBIGUOUS: u8 = 8;

pub fn for_kind(kind: ErrorKind) -> u8 {
    match kind {
        ErrorKind::NotFound => NOT_FOUND,
        ErrorKind::Conflict => CONFLICT,
        ErrorKind::InvalidInput => INVALID_INPUT,
        ErrorKind::Ambiguous => AMBIGUOUS,
        ErrorKind::Integrity => INTEGRITY,
        ErrorKind::LockTimeout => LOCK_TIMEOUT,
        ErrorKind::Internal => INTERNAL,
    }
}
