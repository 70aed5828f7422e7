//! One request type per operation: what each door (CLI, MCP, HTTP) asks of the core, with
//! its defaults written once as named constants and its own `validate()`. The CLI builds a
//! request from its clap arguments; MCP and HTTP deserialize it directly, so a parameter
//! means the same thing, and defaults to the same value, whichever door it came through.

pub mod caller;
pub mod deposit;
pub mod fact_key;
pub mod facts;
pub mod listing;
pub mod memory;
pub mod number;
pub mod orchestrate;
pub mod orient;
pub mod retract;
pub mod review;
pub mod scope;
pub mod search;
pub mod sessions;
pub mod watch;

pub use listing::{DEFAULT_LISTING_LIMIT, ListingFilter, Spelling};
pub use orchestrate::OrchestrateRequest;
pub use orient::OrientRequest;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use relay_wire::error::{Error, Result, SchemaError};
use relay_wire::time;

/// How many days back a briefing (orient, orchestrate) looks unless asked otherwise.
pub const DEFAULT_WINDOW_DAYS: u32 = 14;

/// The longest window a briefing looks back (a century).
pub const MAX_WINDOW_DAYS: u32 = 36_500;

/// Refuses a window over [`MAX_WINDOW_DAYS`]; `name` is the parameter as the caller spelt it.
pub fn check_window(name: &str, days: u32) -> Result<()> {
    if days > MAX_WINDOW_DAYS {
        return Err(Error::InvalidInput(format!(
            "{name} {days} is over {MAX_WINDOW_DAYS}"
        )));
    }
    Ok(())
}

/// Refuses two parameters given together that exclude each other.
pub fn check_exclusive(a: (&str, bool), b: (&str, bool)) -> Result<()> {
    if a.1 && b.1 {
        return Err(Error::InvalidInput(format!(
            "`{}` and `{}` cannot be used together",
            a.0, b.0
        )));
    }
    Ok(())
}

/// A snapshot time given as text (`as_of`), parsed; `name` is the parameter as spelt by the
/// door it came through (`--as-of`, `as_of`), for the error message.
pub fn parse_as_of(name: &str, text: Option<&str>) -> Result<Option<time::Timestamp>> {
    time::parse_time(name, text)
}

/// The one rule every door follows to tell §8.1's `invalid_schema` from `invalid_input`:
/// a member that is **missing**, **unknown**, or of the **wrong type** (text where a number
/// is due, a number that is not whole where an integer is) makes the request's shape wrong,
/// `invalid_schema`. A member of the right type whose **value** is refused (a limit of 0, a
/// window over its maximum, a status that is not one of §6's, a time that does not parse) is
/// `invalid_input`. A door decodes with these two and no other code.
pub fn shape_error(member: &str, why: impl Into<String>) -> Error {
    SchemaError::new(member, why).into()
}

/// A member of the right type with a value refused (see [`shape_error`]).
pub fn value_error(why: impl Into<String>) -> Error {
    Error::InvalidInput(why.into())
}

/// A decoding error (serde's, from a JSON body or a query string) under the rule of
/// [`shape_error`]: a member missing, unknown or of the wrong type is `invalid_schema`; a
/// value refused (an unknown variant, an invalid value) is `invalid_input`. `what` names
/// the request.
pub fn decode_error(what: &str, message: &str) -> Error {
    let shape = [
        "missing field",
        "unknown field",
        "invalid type",
        "invalid digit",
        "cannot parse",
    ]
    .iter()
    .any(|m| message.contains(m));
    match shape {
        true => shape_error("", format!("in {what}: {message}")),
        false => value_error(format!("in {what}: {message}")),
    }
}

/// A request read from a door's JSON arguments (`what` names the operation, for the
/// message). A member missing, misspelt or of the wrong type is `invalid_schema` — §8.1's
/// code for a required field missing or invalid — whichever door it came through.
pub fn from_json<T: DeserializeOwned>(what: &str, args: Map<String, Value>) -> Result<T> {
    serde_json::from_value(Value::Object(args)).map_err(|e| decode_error(what, &e.to_string()))
}

/// The schema of a string that must be one of `values` (written once, beside the rule that
/// checks it).
pub(crate) fn one_of(values: &[&str]) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": values })
}

pub(crate) fn default_window_days() -> u32 {
    DEFAULT_WINDOW_DAYS
}
