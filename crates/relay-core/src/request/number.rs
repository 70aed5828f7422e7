//! Whole numbers as every door reads them. A count (a limit, a window in days) is an
//! integer in JSON Schema's sense: any number whose value is whole, however it is spelt, so
//! `100`, `100.0`, `1e2` and `1E2` are all 100 whether they come as JSON (MCP, an HTTP body)
//! or as text (a command-line flag, a query string). A number with a fraction, or text that
//! is not a number, is the wrong type (`invalid_schema`, see [`super::shape_error`]).

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// The whole number `v` holds, if it is a JSON number with no fraction.
pub fn whole_of(v: &Value) -> Option<u64> {
    if let Some(n) = v.as_u64() {
        return Some(n);
    }
    let f = v.as_f64()?;
    (f.fract() == 0.0 && (0.0..9.0e15).contains(&f)).then_some(f as u64)
}

/// The whole number `text` spells as a JSON number (`100`, `100.0`, `1e2`, `1E2`).
pub fn whole_text(text: &str) -> Option<u64> {
    let text = text.trim();
    // Only a JSON number: not `+5`, `.5`, `inf` or `0x10`.
    let json_like = text.starts_with(|c: char| c.is_ascii_digit() || c == '-');
    let v: Value = serde_json::from_str(text).ok().filter(|_| json_like)?;
    whole_of(&v).filter(|_| v.is_number())
}

/// Why a flag's text is not the whole number it needs: the wrong type (`invalid_schema`) or a
/// whole number out of range (`invalid_input`). The CLI reads this back from clap's error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WholeError {
    NotWhole(String),
    OutOfRange(String),
}

impl std::fmt::Display for WholeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WholeError::NotWhole(text) => write!(f, "`{text}` is not a whole number"),
            WholeError::OutOfRange(text) => write!(f, "`{text}` is out of range"),
        }
    }
}

impl std::error::Error for WholeError {}

/// A command-line flag's whole number (clap's value parser): the text of [`whole_text`].
pub fn parse_whole<T: TryFrom<u64>>(text: &str) -> Result<T, WholeError> {
    if let Some(n) = whole_text(text) {
        return T::try_from(n).map_err(|_| WholeError::OutOfRange(text.into()));
    }
    let negative = text.trim().strip_prefix('-').and_then(whole_text).is_some();
    Err(match negative {
        true => WholeError::OutOfRange(text.into()),
        false => WholeError::NotWhole(text.into()),
    })
}

/// A whole number given as a JSON number or as text (a query string's value).
fn read<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let v = Value::deserialize(d)?;
    let n = match &v {
        Value::String(text) => whole_text(text),
        other => whole_of(other),
    };
    // A negative whole number is the right type with a refused value (`invalid_input`).
    let negative = match &v {
        Value::String(text) => text.trim().strip_prefix('-').and_then(whole_text).is_some(),
        other => whole_of(&negate(other)).is_some(),
    };
    n.ok_or_else(|| {
        let e = if negative {
            format!("invalid value: {v} is below zero, expected a whole number of 0 or more")
        } else {
            format!("invalid type: {v}, expected a whole number")
        };
        serde::de::Error::custom(e)
    })
}

/// `-v` for a JSON number (so `-1e2` reads as the whole number it negates).
fn negate(v: &Value) -> Value {
    v.as_f64()
        .and_then(|f| serde_json::Number::from_f64(-f))
        .map_or(Value::Null, Value::Number)
}

/// `#[serde(deserialize_with = "…::whole")]` for a `usize`, `u32` or `u64` member.
pub fn whole<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<T, D::Error> {
    let n = read(d)?;
    T::try_from(n).map_err(|_| serde::de::Error::custom(format!("invalid value: {n} is too large")))
}

/// [`whole`] for an optional member (with `#[serde(default)]`).
pub fn whole_opt<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<Option<T>, D::Error> {
    whole(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_whole_number_is_that_number() {
        for text in ["100", "100.0", "1e2", "1E2", "1e+2", "10000e-2"] {
            assert_eq!(whole_text(text), Some(100), "{text}");
            let v: Value = serde_json::from_str(text).unwrap();
            assert_eq!(whole_of(&v), Some(100), "{text}");
        }
        for text in [
            "100.5", "abc", "", "+5", ".5", "inf", "-1", "\"5\"", "1e400",
        ] {
            assert_eq!(whole_text(text), None, "{text}");
        }
        assert_eq!(
            parse_whole::<u8>("1e3"),
            Err(WholeError::OutOfRange("1e3".into()))
        );
        assert_eq!(
            parse_whole::<u8>("-1"),
            Err(WholeError::OutOfRange("-1".into()))
        );
        assert_eq!(
            parse_whole::<u8>("2.5"),
            Err(WholeError::NotWhole("2.5".into()))
        );
    }

    #[test]
    fn a_member_reads_json_numbers_and_query_text_alike() {
        #[derive(Deserialize)]
        struct R {
            #[serde(deserialize_with = "whole")]
            limit: usize,
        }
        let json: R = serde_json::from_str(r#"{"limit": 1E2}"#).unwrap();
        assert_eq!(json.limit, 100);
        let text: R = serde_json::from_value(serde_json::json!({"limit": "100.0"})).unwrap();
        assert_eq!(text.limit, 100);
        let e = serde_json::from_str::<R>(r#"{"limit": 2.5}"#)
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("invalid type"), "{e}");
        for negative in [
            r#"{"limit": -1}"#,
            r#"{"limit": -1e2}"#,
            r#"{"limit": "-3"}"#,
        ] {
            let e = serde_json::from_str::<R>(negative).err().unwrap();
            assert!(
                e.to_string().starts_with("invalid value"),
                "{negative}: {e}"
            );
        }
        let e = serde_json::from_str::<R>(r#"{"limit": -2.5}"#)
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("invalid type"), "{e}");
    }
}
