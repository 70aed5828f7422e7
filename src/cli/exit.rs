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

/// A parse error in one line, for `--json`: what clap's text says before its usage line (the
/// refusal, the arguments it lists, its tips), so that nothing a terminal shows is lost:
/// `the following required arguments were not provided: <VALUE>`, `unrecognized subcommand
/// 'depost'; tip: a similar subcommand exists: 'deposit'`.
pub fn parse_error_message(e: &clap::Error) -> String {
    let rendered = e.to_string();
    let mut out = String::new();
    let mut listing = false;
    for line in rendered.lines() {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        let (indented, text) = (line.starts_with(' '), line.trim());
        if text.is_empty() {
            listing = false;
            continue;
        }
        let text = text.strip_prefix("error: ").unwrap_or(text);
        if out.is_empty() {
            out.push_str(text);
        } else if listing && indented && !text.starts_with("tip:") {
            out.push_str(if out.ends_with(':') { " " } else { ", " });
            out.push_str(text);
        } else {
            out.push_str("; ");
            out.push_str(text);
        }
        listing = text.ends_with(':') || (listing && indented);
    }
    out
}

/// Puts clap's suggestions for a mistyped command or flag closest first (clap lists them
/// in another order: `relay serach` offered `watch`, `serve`, `search`).
pub fn order_suggestions(e: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue};
    let typed = [ContextKind::InvalidSubcommand, ContextKind::InvalidArg]
        .into_iter()
        .find_map(|k| match e.get(k) {
            Some(ContextValue::String(s)) => Some(s.clone()),
            _ => None,
        });
    let Some(typed) = typed else { return };
    let typed = typed.trim_start_matches('-').to_string();
    for kind in [ContextKind::SuggestedSubcommand, ContextKind::SuggestedArg] {
        if let Some(ContextValue::Strings(found)) = e.get(kind) {
            let mut found = found.clone();
            // Most alike first; equal ones keep clap's order.
            found.sort_by(|a, b| {
                let near = |s: &String| strsim::jaro_winkler(&typed, s.trim_start_matches('-'));
                near(b).total_cmp(&near(a))
            });
            e.insert(kind, ContextValue::Strings(found));
        }
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
