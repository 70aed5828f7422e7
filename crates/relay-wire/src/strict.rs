//! JSON that relay is asked to store, parsed strictly: a key repeated in one object and a NUL
//! character (`\u0000`) in a key or a string are errors, with the line and column where they
//! are. JSON itself allows both, but readers disagree on which of two values counts (a
//! record one tool reads differently from another cannot be trusted), and NUL ends strings in
//! C, shells and terminals. Every transport reads its input through here (deposit `--from`,
//! `--ext`, HTTP bodies, MCP messages, imports); what the store already holds is read as it is.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parses one JSON text strictly into a `Value`.
pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Strict.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// [`from_slice`] for text.
pub fn from_str(text: &str) -> serde_json::Result<Value> {
    from_slice(text.as_bytes())
}

/// The error of a key seen twice in one object.
pub(super) fn repeated_key<E: de::Error>(key: &str) -> E {
    E::custom(format_args!(
        "the key `{}` appears twice in one object (relay refuses repeated keys: readers disagree on which value counts)",
        super::text::clean_line(key)
    ))
}

/// The error of a NUL character in a key or a string.
pub(super) fn nul<E: de::Error>() -> E {
    E::custom("a string holds a NUL character (\\u0000), which relay never stores")
}

/// The one member name of the map that `serde_json`, built with `arbitrary_precision`, hands a
/// visitor for a number that is not a 64-bit integer; the member's value is the number's text.
pub(super) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// The number whose text came under [`NUMBER_TOKEN`]. A strict reader refuses a number no
/// double can hold (`1e400`), as serde_json does without `arbitrary_precision`: canonical JSON
/// (§6.7) could not hash it.
pub(super) fn number_from_text<E: de::Error>(text: &str, strict: bool) -> Result<Number, E> {
    let number: Number = text.parse().map_err(E::custom)?;
    if strict && number.as_f64().is_none() {
        return Err(E::custom(format_args!(
            "the number {} is out of range (a JSON number must fit a double)",
            super::text::clean_line(text)
        )));
    }
    Ok(number)
}

/// A `Value` read with the checks of this module.
#[derive(Clone, Copy)]
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Number(i.into()))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(Value::Number(u.into()))
    }
    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Number::from_f64(x).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        self.visit_string(s.to_owned())
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        if s.contains('\0') {
            return Err(nul());
        }
        Ok(Value::String(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element_seed(Strict)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if members.is_empty() && key == NUMBER_TOKEN {
                let text: String = map.next_value()?;
                return number_from_text(&text, true).map(Value::Number);
            }
            if key.contains('\0') {
                return Err(nul());
            }
            if members.contains_key(&key) {
                return Err(repeated_key(&key));
            }
            let value = map.next_value_seed(Strict)?;
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_serde_json_does_when_nothing_is_wrong() {
        for text in [
            r#"{"b":1,"a":[true,null,{"x":"\u00e9\n\"q\""}],"c":-0.5,"d":1e300,"e":""}"#,
            r#"[1, 2.50, -7, 18446744073709551615, -9223372036854775808, "tab\tand\\"]"#,
            r#"{"nested":{"deep":{"deeper":[[],{}]}}, "n":null, "k":{"k":{"k":1}}}"#,
            r#"{"same value in two objects":[{"id":1},{"id":1}]}"#,
            "\"just a string\"",
        ] {
            let strict = from_str(text).expect("parses");
            let plain: Value = serde_json::from_str(text).unwrap();
            assert_eq!(strict, plain, "{text}");
            assert_eq!(strict.to_string(), plain.to_string(), "{text}");
        }
    }

    #[test]
    fn a_repeated_key_or_a_nul_is_an_error_where_it_is() {
        let e = from_str("{\"title\": \"a\",\n \"title\": \"b\"}").unwrap_err();
        assert!(
            e.to_string().contains("the key `title` appears twice"),
            "{e}"
        );
        assert_eq!(e.line(), 2);
        let e = from_str(r#"{"a": {"x": 1, "y": 2, "x": 3}}"#).unwrap_err();
        assert!(e.to_string().contains("`x` appears twice"), "{e}");
        for text in [
            r#"{"title": "a\u0000b"}"#,
            r#"{"ti\u0000tle": "ab"}"#,
            r#"["ok", ["\u0000"]]"#,
        ] {
            let e = from_str(text).unwrap_err();
            assert!(e.to_string().contains("NUL character"), "{text}: {e}");
        }
        assert!(from_str(r#"{"a": 1} {"b": 2}"#).is_err(), "one text only");
        for text in [r#"{"x-n": 1e400}"#, "[-1E999]"] {
            let e = from_str(text).unwrap_err();
            assert!(e.to_string().contains("out of range"), "{text}: {e}");
            assert!(crate::tree::Json::parse_strict(text).is_err(), "{text}");
        }
        assert!(from_slice(b"{\"a\": \"\xff\"}").is_err());
    }
}
