//! Field-level checks shared by the wire types. Each check names the field by its full path and
//! says what is wrong, so that `invalid_schema` errors can be acted on without reading the spec.
//! A member that is `null` counts as absent: canonical JSON omits it, so it cannot matter.

use serde_json::{Map, Value};

use super::tree::{Node, Object, View};
use crate::error::SchemaError;

pub type Check<T> = Result<T, SchemaError>;

/// The JSON kind of a value, for messages: "a number", "an object", …
pub fn kind<N: Node>(v: &N) -> &'static str {
    match v.view() {
        View::Null => "null",
        View::Bool(_) => "a boolean",
        View::Number(_) => "a number",
        View::Str(_) => "a string",
        View::Array(_) => "an array",
        View::Object(_) => "an object",
    }
}

/// A view of one JSON object being validated (in either kind of tree), with the path that
/// leads to it.
pub struct Fields<'a, O: Object> {
    map: &'a O,
    prefix: String,
}

impl<'a, O: Object> Fields<'a, O> {
    pub fn root(map: &'a O) -> Self {
        Fields {
            map,
            prefix: String::new(),
        }
    }

    pub fn path(&self, name: &str) -> String {
        format!("{}{}", self.prefix, name)
    }

    fn err(&self, name: &str, problem: impl Into<String>) -> SchemaError {
        SchemaError::new(self.path(name), problem)
    }

    /// The member's value, or `None` when it is absent or `null`.
    pub fn get(&self, name: &str) -> Option<&'a O::Node> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    pub fn optional_str(&self, name: &str) -> Check<Option<&'a str>> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => match v.view() {
                View::Str(s) => Ok(Some(s)),
                _ => Err(self.err(name, format!("must be a string, got {}", kind(v)))),
            },
        }
    }

    pub fn required_str(&self, name: &str) -> Check<&'a str> {
        self.optional_str(name)?
            .ok_or_else(|| self.err(name, "is required"))
    }

    /// A required string that is not empty.
    pub fn id(&self, name: &str) -> Check<&'a str> {
        let s = self.required_str(name)?;
        if s.is_empty() {
            return Err(self.err(name, "must not be empty"));
        }
        Ok(s)
    }

    pub fn optional_enum(&self, name: &str, allowed: &[&str]) -> Check<Option<&'a str>> {
        let Some(s) = self.optional_str(name)? else {
            return Ok(None);
        };
        if allowed.contains(&s) {
            Ok(Some(s))
        } else {
            Err(self.err(
                name,
                format!("must be one of {} (got \"{s}\")", allowed.join(", ")),
            ))
        }
    }

    pub fn required_enum(&self, name: &str, allowed: &[&str]) -> Check<&'a str> {
        self.optional_enum(name, allowed)?
            .ok_or_else(|| self.err(name, "is required"))
    }

    pub fn optional_timestamp(&self, name: &str) -> Check<Option<&'a str>> {
        let Some(s) = self.optional_str(name)? else {
            return Ok(None);
        };
        super::time::parse(s).map_err(|m| self.err(name, format!("must be a timestamp: {m}")))?;
        Ok(Some(s))
    }

    pub fn required_timestamp(&self, name: &str) -> Check<&'a str> {
        self.optional_timestamp(name)?
            .ok_or_else(|| self.err(name, "is required"))
    }

    pub fn string_list(&self, name: &str) -> Check<()> {
        let Some(v) = self.get(name) else {
            return Ok(());
        };
        match v.view() {
            View::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if !matches!(item.view(), View::Str(_)) {
                        return Err(self.err(
                            &format!("{name}[{i}]"),
                            format!("must be a string, got {}", kind(item)),
                        ));
                    }
                }
                Ok(())
            }
            _ => Err(self.err(
                name,
                format!("must be an array of strings, got {}", kind(v)),
            )),
        }
    }

    pub fn optional_object(&self, name: &str) -> Check<Option<Fields<'a, O>>> {
        let Some(v) = self.get(name) else {
            return Ok(None);
        };
        match v.view() {
            View::Object(m) => Ok(Some(Fields {
                map: m,
                prefix: joined(&self.prefix, name, None, true),
            })),
            _ => Err(self.err(name, format!("must be an object, got {}", kind(v)))),
        }
    }

    pub fn required_object(&self, name: &str) -> Check<Fields<'a, O>> {
        self.optional_object(name)?
            .ok_or_else(|| self.err(name, "is required"))
    }

    /// An optional array of objects, each handed to `each` with its own path.
    pub fn object_list(&self, name: &str, each: impl Fn(&Fields<'a, O>) -> Check<()>) -> Check<()> {
        let Some(v) = self.get(name) else {
            return Ok(());
        };
        match v.view() {
            View::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    match item.view() {
                        View::Object(m) => each(&Fields {
                            map: m,
                            prefix: joined(&self.prefix, name, Some(i), true),
                        })?,
                        _ => {
                            return Err(SchemaError::new(
                                joined(&self.prefix, name, Some(i), false),
                                format!("must be an object, got {}", kind(item)),
                            ));
                        }
                    }
                }
                Ok(())
            }
            _ => Err(self.err(
                name,
                format!("must be an array of objects, got {}", kind(v)),
            )),
        }
    }

    /// An optional integer within `min..=max`.
    pub fn optional_int(&self, name: &str, min: i64, max: i64) -> Check<Option<i64>> {
        let Some(v) = self.get(name) else {
            return Ok(None);
        };
        match v.view() {
            // 5.0 is the integer 5: canonical JSON (and JavaScript) cannot tell them apart.
            View::Number(n) => match n.as_i64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                    .map(|f| f as i64)
            }) {
                Some(i) if (min..=max).contains(&i) => Ok(Some(i)),
                _ => Err(self.err(
                    name,
                    format!("must be an integer from {min} to {max} (got {n})"),
                )),
            },
            _ => Err(self.err(
                name,
                format!("must be an integer from {min} to {max}, got {}", kind(v)),
            )),
        }
    }

    /// An optional number within `min..=max`.
    pub fn optional_number(&self, name: &str, min: f64, max: f64) -> Check<Option<f64>> {
        let Some(v) = self.get(name) else {
            return Ok(None);
        };
        match v.view() {
            View::Number(n) => match n.as_f64() {
                Some(x) if x >= min && x <= max => Ok(Some(x)),
                _ => Err(self.err(
                    name,
                    format!("must be a number from {min} to {max} (got {n})"),
                )),
            },
            _ => Err(self.err(
                name,
                format!("must be a number from {min} to {max}, got {}", kind(v)),
            )),
        }
    }

    /// Checks an actor object (`created_by`, `asserted_by`): §6.2, plus relay's `git_commit`.
    pub fn actor(&self) -> Check<()> {
        self.id("id")?;
        self.required_enum("type", super::ACTOR_TYPES)?;
        self.optional_str("session_id")?;
        self.optional_str("git_commit")?;
        Ok(())
    }
}

/// `prefix` and `name`, then `[index]` and `.` when asked: the path of a nested object. Built
/// by hand, not by `format!`: one is made for every nested object validated, and read only when
/// something in it is wrong.
fn joined(prefix: &str, name: &str, index: Option<usize>, dot: bool) -> String {
    let mut path = String::with_capacity(prefix.len() + name.len() + 24);
    path.push_str(prefix);
    path.push_str(name);
    if let Some(mut i) = index {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (i % 10) as u8;
            i /= 10;
            if i == 0 {
                break;
            }
        }
        path.push('[');
        path.extend(digits[at..].iter().map(|&d| char::from(d)));
        path.push(']');
    }
    if dot {
        path.push('.');
    }
    path
}

/// Requires `value` to be a JSON object; `what` names it in the error.
pub fn into_object(value: Value, what: &str) -> Check<Map<String, Value>> {
    match value {
        Value::Object(map) => Ok(map),
        other => Err(SchemaError::new(
            "",
            format!("a {what} must be a JSON object, got {}", kind(&other)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_paths_name_the_member_and_item() {
        assert_eq!(joined("", "created_by", None, true), "created_by.");
        assert_eq!(
            joined("a.", "deliverables", Some(0), false),
            "a.deliverables[0]"
        );
        assert_eq!(joined("", "d", Some(1207), true), "d[1207].");
        let v = serde_json::json!({"deliverables": [{"path": "p"}, {"path": 3}]});
        let f = Fields::root(v.as_object().unwrap());
        let e = f
            .object_list("deliverables", |d| d.required_str("path").map(|_| ()))
            .unwrap_err();
        assert_eq!(e.field, "deliverables[1].path");
    }
}
