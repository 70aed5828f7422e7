//! Parsed JSON as validation and canonical hashing see it: the [`Node`] and [`Object`] traits,
//! read-only, with two kinds of tree behind them.
//!
//! - `serde_json::Value`, for records being built or changed.
//! - [`Json`], for records read in bulk (export, import). It borrows its strings from the line
//!   it was parsed from and keeps an object's members in a plain list, in order. A `Value`
//!   allocates every key and string and hashes every key into a map; for records of a dozen
//!   members, that was most of the cost of reading one.
//!
//! Both behave alike where it matters: a repeated key keeps its first place and takes its last
//! value, as `serde_json::Map` does, so a record hashes, validates and serializes the same
//! whichever tree holds it.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Number, Value};

/// One value, seen without caring which tree holds it.
pub enum View<'v, N: Node> {
    Null,
    Bool(bool),
    Number(&'v Number),
    Str(&'v str),
    Array(&'v [N]),
    Object(&'v N::Object),
}

/// A JSON value in some tree.
pub trait Node: Sized {
    type Object: Object<Node = Self>;
    fn view(&self) -> View<'_, Self>;
    fn is_null(&self) -> bool {
        matches!(self.view(), View::Null)
    }
    /// The string, when it is known to hold nothing that JSON escapes (`"`, `\`, controls).
    fn plain_str(&self) -> Option<&str> {
        None
    }
}

/// A JSON object in some tree.
pub trait Object {
    type Node: Node<Object = Self>;
    /// The member's value (`null` included), or `None` when absent.
    fn get(&self, name: &str) -> Option<&Self::Node>;
    /// The members, in their order.
    fn members(&self) -> impl Iterator<Item = (&str, &Self::Node)>;
}

impl Node for Value {
    type Object = Map<String, Value>;
    fn view(&self) -> View<'_, Self> {
        match self {
            Value::Null => View::Null,
            Value::Bool(b) => View::Bool(*b),
            Value::Number(n) => View::Number(n),
            Value::String(s) => View::Str(s),
            Value::Array(a) => View::Array(a),
            Value::Object(m) => View::Object(m),
        }
    }
}

impl Object for Map<String, Value> {
    type Node = Value;
    fn get(&self, name: &str) -> Option<&Value> {
        Map::get(self, name)
    }
    fn members(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.iter().map(|(k, v)| (k.as_str(), v))
    }
}

/// A JSON value whose strings borrow from the text it was parsed from where they can (where
/// the text holds them without escapes).
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    Number(Number),
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Members<'a>),
}

/// An object's members, in order, each key once.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Members<'a>(Vec<(Cow<'a, str>, Json<'a>)>);

impl<'a> Json<'a> {
    /// Parses one JSON text, borrowing from it.
    pub fn parse(text: &'a str) -> serde_json::Result<Json<'a>> {
        serde_json::from_str(text)
    }

    /// [`Json::parse`] for input relay is asked to store: a key repeated in one object, or a
    /// NUL in a key or a string, is an error (see [`super::strict`]).
    pub fn parse_strict(text: &'a str) -> serde_json::Result<Json<'a>> {
        let mut de = serde_json::Deserializer::from_str(text);
        let value = JsonVisitor { strict: true }.deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    }
}

impl Json<'_> {
    /// Appends the compact JSON text of this value to `out`: the bytes `serde_json` writes for
    /// it, faster. A borrowed string held no escape in its source, so it holds nothing
    /// `serde_json` would escape either, and is copied as it is.
    pub fn write_compact(&self, out: &mut Vec<u8>) {
        match self {
            Json::Null => out.extend_from_slice(b"null"),
            Json::Bool(true) => out.extend_from_slice(b"true"),
            Json::Bool(false) => out.extend_from_slice(b"false"),
            Json::Number(n) => write_serialized(n, out),
            Json::Str(s) => write_text(s, out),
            Json::Array(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write_compact(out);
                }
                out.push(b']');
            }
            Json::Object(m) => m.write_compact(out),
        }
    }
}

// The `Cow` itself is the point: whether the string was borrowed decides how it is written.
#[allow(clippy::ptr_arg)]
fn write_text(s: &Cow<'_, str>, out: &mut Vec<u8>) {
    match s {
        Cow::Borrowed(plain) => {
            out.push(b'"');
            out.extend_from_slice(plain.as_bytes());
            out.push(b'"');
        }
        Cow::Owned(escaped) => write_serialized(escaped, out),
    }
}

fn write_serialized(value: &impl Serialize, out: &mut Vec<u8>) {
    // Writing to a Vec fails only for a value that cannot be JSON, which these are not.
    let _ = serde_json::to_writer(out, value);
}

impl Members<'_> {
    /// [`Json::write_compact`] for an object.
    pub fn write_compact(&self, out: &mut Vec<u8>) {
        out.push(b'{');
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_text(k, out);
            out.push(b':');
            v.write_compact(out);
        }
        out.push(b'}');
    }

    /// A member that is a string, as a record's `str_field` reads it: `None` when absent or
    /// not a string.
    pub fn str_member(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(Json::Str(s)) => Some(s),
            _ => None,
        }
    }

    /// A string member that parses as a timestamp.
    pub fn time_member(&self, name: &str) -> Option<super::time::Timestamp> {
        self.str_member(name)
            .and_then(|t| super::time::parse(t).ok())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> Node for Json<'a> {
    type Object = Members<'a>;
    fn view(&self) -> View<'_, Self> {
        match self {
            Json::Null => View::Null,
            Json::Bool(b) => View::Bool(*b),
            Json::Number(n) => View::Number(n),
            Json::Str(s) => View::Str(s),
            Json::Array(a) => View::Array(a),
            Json::Object(m) => View::Object(m),
        }
    }
    /// A borrowed string held no escape in its source text, and JSON text cannot hold a bare
    /// `"`, `\` or control character: it holds nothing to escape.
    fn plain_str(&self) -> Option<&str> {
        match self {
            Json::Str(Cow::Borrowed(s)) => Some(s),
            _ => None,
        }
    }
}

impl<'a> Object for Members<'a> {
    type Node = Json<'a>;
    fn get(&self, name: &str) -> Option<&Json<'a>> {
        // The first bytes are compared before the rest: member names mostly differ there, and a
        // record is looked into member by member while it is validated.
        let name = name.as_bytes();
        self.0
            .iter()
            .find(|(k, _)| {
                let k = k.as_bytes();
                k.len() == name.len() && k.first() == name.first() && k == name
            })
            .map(|(_, v)| v)
    }
    fn members(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }
}

/// A key or string that borrows when the parser can lend it (serde's own `Cow` never does).
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s)))
            }
        }
        d.deserialize_str(TextVisitor)
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(JsonVisitor { strict: false })
    }
}

/// Reads a [`Json`]; a `strict` one refuses a repeated key and a NUL.
#[derive(Clone, Copy)]
struct JsonVisitor {
    strict: bool,
}

impl<'de> DeserializeSeed<'de> for JsonVisitor {
    type Value = Json<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Json<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }
    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(i.into()))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(u.into()))
    }
    fn visit_f64<E>(self, x: f64) -> Result<Json<'de>, E> {
        // JSON text cannot spell a non-finite number; `Value` makes it null too.
        Ok(Number::from_f64(x).map_or(Json::Null, Json::Number))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Borrowed(s)))
    }
    // A string with an escape is handed over owned; only such a one can hold a NUL (JSON
    // text cannot hold a raw control character).
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Json<'de>, E> {
        self.visit_string(s.to_owned())
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Json<'de>, E> {
        if self.strict && s.contains('\0') {
            return Err(super::strict::nul());
        }
        Ok(Json::Str(Cow::Owned(s)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Json<'de>)> = Vec::with_capacity(16);
        // Past a few dozen members, keys are found through a table: a hostile object of a
        // hundred thousand keys must not take quadratic time.
        const SCANNED: usize = 32;
        let mut places: Option<std::collections::HashMap<Cow<'de, str>, usize>> = None;
        while let Some(Text(key)) = map.next_key()? {
            if members.is_empty() && key == super::strict::NUMBER_TOKEN {
                let Text(text) = map.next_value()?;
                return super::strict::number_from_text(&text, self.strict).map(Json::Number);
            }
            if self.strict && key.contains('\0') {
                return Err(super::strict::nul());
            }
            let value: Json<'de> = map.next_value_seed(self)?;
            if members.len() == SCANNED && places.is_none() {
                let table = members.iter().enumerate().map(|(i, (k, _))| (k.clone(), i));
                places = Some(table.collect());
            }
            // A repeated key keeps its first place and takes the last value, as in a `Map`.
            let found = match &places {
                Some(table) => table.get(&key).copied(),
                None => members.iter().position(|(k, _)| *k == key),
            };
            match found {
                Some(_) if self.strict => return Err(super::strict::repeated_key(&key)),
                Some(i) => members[i].1 = value,
                None => {
                    if let Some(table) = places.as_mut() {
                        table.insert(key.clone(), members.len());
                    }
                    members.push((key, value));
                }
            }
        }
        Ok(Json::Object(Members(members)))
    }
}

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(n) => n.serialize(s),
            Json::Str(t) => s.serialize_str(t),
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(m) => m.serialize(s),
        }
    }
}

impl Serialize for Members<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k.as_ref(), v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLES: &[&str] = &[
        r#"{"b":1,"a":[true,null,{"x":"\u00e9\n\"q\""}],"c":-0.5,"d":1e300,"e":""}"#,
        r#"{"k":1,"j":2,"k":3}"#,
        r#"[1, 2.50, -7, 18446744073709551615, -9223372036854775808, "tab\tand\\"]"#,
        r#"{"nested":{"deep":{"deeper":[[],{}]}}, "n":null}"#,
        "\"just a string\"",
        r#"{"raw":"Zürich → 東京 🚀","esc":"\u001f\b\f\/ \ud83d\ude80","del":"\u007f"}"#,
    ];

    #[test]
    fn serializes_as_a_value_would_and_borrows_plain_strings() {
        for text in SAMPLES {
            let json = Json::parse(text).expect("parses");
            let value: Value = serde_json::from_str(text).expect("parses");
            assert_eq!(
                serde_json::to_string(&json).unwrap(),
                serde_json::to_string(&value).unwrap(),
                "{text}"
            );
            let mut compact = Vec::new();
            json.write_compact(&mut compact);
            assert_eq!(compact, serde_json::to_vec(&value).unwrap(), "{text}");
            let mut canonical = String::new();
            crate::canonical::write_canonical(&json, &mut canonical);
            assert_eq!(
                canonical,
                crate::canonical::to_canonical_string(&value),
                "{text}"
            );
        }
        let Json::Object(m) = Json::parse(r#"{"plain":"yes","esc":"a\"b"}"#).unwrap() else {
            panic!("an object")
        };
        assert!(matches!(
            m.get("plain"),
            Some(Json::Str(Cow::Borrowed("yes")))
        ));
        assert!(matches!(m.get("esc"), Some(Json::Str(Cow::Owned(s))) if s == "a\"b"));
    }

    #[test]
    fn large_objects_keep_their_order_and_their_last_values() {
        let mut text = String::from("{");
        for i in 0..20_000 {
            text.push_str(&format!("\"k{i}\":{i},"));
        }
        text.push_str("\"k5\":-5,\"k19999\":-1}");
        let Json::Object(m) = Json::parse(&text).unwrap() else {
            panic!("an object")
        };
        assert_eq!(m.len(), 20_000);
        assert_eq!(m.get("k5"), Some(&Json::Number((-5).into())));
        assert_eq!(m.get("k19999"), Some(&Json::Number((-1).into())));
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), value.to_string());
    }

    #[test]
    fn strict_parsing_refuses_a_repeated_key_or_a_nul_and_reads_the_rest_alike() {
        for text in SAMPLES
            .iter()
            .filter(|t| !t.contains("\"k\":1,\"j\":2,\"k\""))
        {
            assert_eq!(
                Json::parse_strict(text).unwrap(),
                Json::parse(text).unwrap()
            );
        }
        let e = Json::parse_strict(r#"{"k":1,"j":{"x":[{"y":2,"y":3}]}}"#).unwrap_err();
        assert!(e.to_string().contains("`y` appears twice"), "{e}");
        for text in [r#"{"k":"a\u0000"}"#, r#"{"\u0000":1}"#, r#"[["\u0000"]]"#] {
            let e = Json::parse_strict(text).unwrap_err();
            assert!(e.to_string().contains("NUL"), "{text}: {e}");
            assert!(Json::parse(text).is_ok(), "reading the store is not strict");
        }
    }

    #[test]
    fn a_repeated_key_keeps_its_place_and_its_last_value() {
        let Json::Object(m) = Json::parse(r#"{"k":1,"j":2,"k":3}"#).unwrap() else {
            panic!("an object")
        };
        let keys: Vec<&str> = m.members().map(|(k, _)| k).collect();
        assert_eq!(keys, ["k", "j"]);
        assert_eq!(m.get("k"), Some(&Json::Number(3.into())));
    }
}
