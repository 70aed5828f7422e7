//! The exit-code table. It is documented in the book (docs/guide/exit-codes.md) and stays
//! stable.

use relay_wire::error::{Code, ErrorKind};

pub const OK: u8 = 0;
/// The package, project or store asked for does not exist.
pub const NOT_FOUND: u8 = 1;
/// The command line was wrong: an unknown command or flag, flags that exclude each other.
pub const USAGE: u8 = 2;
/// The store's state forbids it: duplicate id, archived project, illegal transition.
pub const CONFLICT: u8 = 3;
/// The input was invalid: an argument missing or of the wrong type, a value refused,
/// malformed JSON, an unparseable time.
pub const INVALID_INPUT: u8 = 4;
/// The store is damaged or inconsistent.
pub const INTEGRITY: u8 = 5;
/// Another writer held the lock for too long.
pub const LOCK_TIMEOUT: u8 = 6;
/// Anything else: an I/O failure or a bug.
pub const INTERNAL: u8 = 7;
/// A short id that more than one record's id begins with: give more of it.
pub const AMBIGUOUS: u8 = 8;

/// What the argument parser refused, under the rule every door follows
/// ([`relay_core::request::shape_error`]): an operation's argument missing, or a value not
/// of its flag's type (`--limit ten`), is `invalid_schema`; a value not among its flag's
/// choices (`--status shipped`) is `invalid_input`; both exit 4. Anything else (an unknown
/// flag or command) is `usage` (`None`: clap's own exit code, 2).
pub fn of_parse_error(e: &clap::Error) -> Option<(Code, u8)> {
    use clap::error::{ContextKind, ContextValue, ErrorKind as Clap};
    let given = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => !s.is_empty(),
        _ => false,
    };
    match e.kind() {
        // A whole number out of range is the right type with a refused value.
        Clap::ValueValidation if out_of_range(e) => Some((Code::InvalidInput, INVALID_INPUT)),
        Clap::MissingRequiredArgument | Clap::ValueValidation => {
            Some((Code::InvalidSchema, INVALID_INPUT))
        }
        Clap::InvalidValue if given(ContextKind::InvalidValue) => {
            Some((Code::InvalidInput, INVALID_INPUT))
        }
        // A flag whose value was left out: a member missing.
        Clap::InvalidValue => Some((Code::InvalidSchema, INVALID_INPUT)),
        _ => None,
    }
}

fn out_of_range(e: &clap::Error) -> bool {
    use relay_core::request::number::WholeError;
    let source = std::error::Error::source(e);
    matches!(
        source.and_then(|s| s.downcast_ref::<WholeError>()),
        Some(WholeError::OutOfRange(_))
    )
}

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
