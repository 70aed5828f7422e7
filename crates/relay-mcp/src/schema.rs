//! Tool arguments: the checks a call's arguments pass before anything runs, read from the
//! very schema `tools/list` publishes (generated from the request type, see [`super::input`]),
//! so the two never disagree.

use serde_json::{Map, Value, json};

use relay_core::request::{shape_error, value_error};
use relay_wire::error::{Error, SchemaError};

/// What a property's schema accepts, for an error message.
fn expected(schema: &Value) -> String {
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
        return format!("one of {}", values.join(", "));
    }
    let bounded = |what: &str| match (schema.get("minimum"), schema.get("maximum")) {
        (Some(min), Some(max)) => format!("{what} from {} to {}", bound(min), bound(max)),
        (Some(min), None) => format!("{what}, at least {}", bound(min)),
        (None, Some(max)) => format!("{what}, at most {}", bound(max)),
        (None, None) => what.to_string(),
    };
    if let Some(types) = schema["type"].as_array() {
        let each: Vec<String> = types
            .iter()
            .map(|t| expected(&json!({"type": t})))
            .collect();
        return each.join(" or ");
    }
    match schema["type"].as_str().unwrap_or_default() {
        "string" => "a string".into(),
        "integer" => bounded("an integer"),
        "number" => bounded("a number"),
        "boolean" => "true or false".into(),
        "array" => format!(
            "an array of {}s",
            schema["items"]["type"].as_str().unwrap_or("value")
        ),
        "object" => "a JSON object".into(),
        other => format!("a {other}"),
    }
}

/// A bound as it reads: `1`, not `1.0`.
fn bound(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 => format!("{}", f as i64),
        Some(f) => f.to_string(),
        None => v.to_string(),
    }
}

/// An integer, also when written as a number with no fraction (`5.0`).
fn integer(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            .map(|f| f as i64)
    })
}

fn within(schema: &Value, n: f64) -> bool {
    let min = schema["minimum"].as_f64().unwrap_or(f64::NEG_INFINITY);
    let max = schema["maximum"].as_f64().unwrap_or(f64::INFINITY);
    (min..=max).contains(&n)
}

/// Whether `v` is of the JSON type the property's `schema` names (its enum and bounds
/// aside): the line between `invalid_schema` and `invalid_input`
/// ([`relay_core::request::shape_error`]).
fn typed(schema: &Value, v: &Value) -> bool {
    if let Some(types) = schema["type"].as_array() {
        return types.iter().any(|t| typed(&json!({"type": t}), v));
    }
    match schema["type"].as_str().unwrap_or_default() {
        "string" => v.is_string(),
        "integer" => integer(v).is_some(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "array" => v
            .as_array()
            .is_some_and(|items| items.iter().all(|i| typed(&schema["items"], i))),
        "object" => v.is_object(),
        _ if schema["enum"].is_array() => v.is_string(),
        _ => true,
    }
}

/// Whether `v` is what the property's `schema` accepts.
fn accepts(schema: &Value, v: &Value) -> bool {
    if let Some(values) = schema["enum"].as_array() {
        return values.contains(v);
    }
    if let Some(types) = schema["type"].as_array() {
        return types.iter().any(|t| accepts(&json!({"type": t}), v));
    }
    match schema["type"].as_str().unwrap_or_default() {
        "string" => v.is_string(),
        "integer" => integer(v).is_some_and(|n| within(schema, n as f64)),
        "number" => v.as_f64().is_some_and(|n| within(schema, n)),
        "boolean" => v.is_boolean(),
        "array" => v
            .as_array()
            .is_some_and(|items| items.iter().all(|i| accepts(&schema["items"], i))),
        "object" => v.is_object(),
        _ => true,
    }
}

/// Whether `name` is admitted by one of the schema's `patternProperties`. The patterns
/// relay publishes are prefixes (`^x-`, §12.1's extensions), and are read as such.
fn admitted_by_pattern(schema: &Value, name: &str) -> bool {
    (schema["patternProperties"]
        .as_object()
        .into_iter()
        .flatten())
    .filter_map(|(pattern, _)| pattern.strip_prefix('^'))
    .any(|prefix| name.starts_with(prefix))
}

/// Checks a call's arguments against the tool's `inputSchema`. A `null` counts as absent (some
/// clients send one for every optional parameter left out).
pub fn check(tool: &str, schema: &Value, arguments: Map<String, Value>) -> Result<Args, Error> {
    let empty = Map::new();
    let properties = schema["properties"].as_object().unwrap_or(&empty);
    let mut args = Map::new();
    for (name, value) in arguments {
        if value.is_null() {
            continue;
        }
        if admitted_by_pattern(schema, &name) {
            args.insert(name, value);
            continue;
        }
        let Some(p) = properties.get(&name) else {
            let names: Vec<&str> = properties.keys().map(String::as_str).collect();
            return Err(shape_error(
                &name,
                format!(
                    "is not an argument of `{tool}`; its arguments are: {}",
                    names.join(", ")
                ),
            ));
        };
        if !accepts(p, &value) {
            let why = format!("must be {}, not {value}", expected(p));
            return Err(match typed(p, &value) {
                true => value_error(format!("`{name}` {why}")),
                false => shape_error(&name, why),
            });
        }
        // An integer written with a fraction of zero (`5.0`) is stored as the integer it is.
        let value = match (p["type"].as_str(), integer(&value)) {
            (Some("integer"), Some(n)) => Value::from(n),
            _ => value,
        };
        args.insert(name, value);
    }
    let required = schema["required"].as_array().map_or(&[][..], Vec::as_slice);
    if let Some(name) = required
        .iter()
        .filter_map(Value::as_str)
        .find(|r| !args.contains_key(*r))
    {
        let doc = properties[name]["description"].as_str().unwrap_or_default();
        // A missing required field is §8.1's invalid_schema, as HTTP answers it.
        return Err(SchemaError::new(name, format!("is required: {doc}")).into());
    }
    Ok(Args(args))
}

/// A call's arguments, checked against its tool's parameters.
#[derive(Debug, Clone, Default)]
pub struct Args(Map<String, Value>);

impl Args {
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }

    /// The arguments as a JSON object.
    pub fn to_map(&self) -> Map<String, Value> {
        self.0.clone()
    }

    pub fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    pub fn str(&self, name: &str) -> Option<String> {
        self.0.get(name).and_then(Value::as_str).map(str::to_string)
    }

    /// A required string (checked present); empty if it was not.
    pub fn text(&self, name: &str) -> String {
        self.str(name).unwrap_or_default()
    }

    pub fn strs(&self, name: &str) -> Vec<String> {
        match self.0.get(name) {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            _ => Vec::new(),
        }
    }

    pub fn int(&self, name: &str) -> Option<i64> {
        self.0.get(name).and_then(integer)
    }

    pub fn num(&self, name: &str) -> Option<f64> {
        self.0.get(name).and_then(Value::as_f64)
    }

    /// A boolean; absent means false.
    pub fn flag(&self, name: &str) -> bool {
        self.0.get(name).and_then(Value::as_bool).unwrap_or(false)
    }

    pub fn obj(&self, name: &str) -> Option<Map<String, Value>> {
        self.0.get(name).and_then(Value::as_object).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A schema as [`super::super::input`] generates them: a required string, a bounded
    /// integer, an enum, a list of strings and a number from 0 to 1.
    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "title": {"type": "string", "description": "A title"},
                "limit": {"type": "integer", "minimum": 1, "description": "How many"},
                "mode": {"type": "string", "enum": ["a", "b"], "description": "Which"},
                "tags": {"type": "array", "items": {"type": "string"}, "description": "Labels"},
                "confidence": {"type": "number", "minimum": 0.0, "maximum": 1.0, "description": "How sure"},
            },
            "required": ["title"],
            "additionalProperties": false,
        })
    }

    fn run(v: Value) -> Result<Args, String> {
        check("t", &schema(), v.as_object().unwrap().clone()).map_err(|e| e.to_string())
    }

    #[test]
    fn arguments_are_checked_against_the_schema() {
        let ok = run(json!({"title": "x", "limit": 5.0, "mode": null, "tags": ["a"]})).unwrap();
        assert_eq!((ok.int("limit"), ok.has("mode")), (Some(5), false));
        assert_eq!(ok.strs("tags"), ["a"]);
        let err = |v| run(v).unwrap_err();
        assert!(err(json!({})).contains("`title` is required"));
        assert!(err(json!({"title": 1})).contains("`title` must be a string"));
        assert!(err(json!({"title": "x", "limit": 0})).contains("at least 1"));
        assert!(err(json!({"title": "x", "mode": "c"})).contains("one of a, b"));
        assert!(err(json!({"title": "x", "tags": [1]})).contains("array of strings"));
        assert!(err(json!({"title": "x", "confidence": 2})).contains("from 0 to 1"));
        let unknown = err(json!({"title": "x", "colour": "red"}));
        assert!(
            unknown.contains("`colour` is not an argument") && unknown.contains("title, limit"),
            "{unknown}"
        );
    }

    #[test]
    fn a_wrong_shape_is_invalid_schema_and_a_refused_value_invalid_input() {
        use relay_core::request::facts::AssertFactRequest;
        let schema = super::super::input::schema_of::<AssertFactRequest>(&[]);
        let code = |v: Value| {
            check("facts_assert", &schema, v.as_object().unwrap().clone())
                .unwrap_err()
                .code()
        };
        let shape = [
            json!({"subject": "s", "predicate": "p"}),
            json!({"subject": "s", "predicate": "p", "value": true}),
            json!({"subject": "s", "predicate": "p", "value": "v", "origin": 1}),
            json!({"subject": "s", "predicate": "p", "value": "v", "confidence": "high"}),
        ];
        for v in shape {
            assert_eq!(code(v.clone()), "invalid_schema", "{v}");
        }
        let value = json!({"subject": "s", "predicate": "p", "value": "v", "confidence": 1.5});
        assert_eq!(code(value), "invalid_input");
    }

    #[test]
    fn a_generated_schema_checks_types_bounds_and_extension_names() {
        use relay_core::request::facts::AssertFactRequest;
        let schema = super::super::input::schema_of::<AssertFactRequest>(&[]);
        let check = |v: Value| {
            check("facts_assert", &schema, v.as_object().unwrap().clone())
                .map_err(|e| e.to_string())
        };
        let key = json!({"subject": "s", "predicate": "p"});
        let with = |extra: Value| {
            let mut v = key.clone();
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            v
        };
        assert!(check(with(json!({"value": "97.0"}))).is_ok());
        assert!(check(with(json!({"value": 97.5}))).is_ok());
        let e = check(with(json!({"value": true}))).unwrap_err();
        assert!(e.contains("`value` must be a string or a number"), "{e}");
        let e = check(with(json!({"value": "v", "confidence": 1.5}))).unwrap_err();
        assert!(
            e.contains("`confidence` must be a number from 0 to 1"),
            "{e}"
        );
        let kept = check(with(json!({"value": "v", "x-origin": {"any": 1}}))).unwrap();
        assert!(kept.has("x-origin"));
        let e = check(with(json!({"value": "v", "origin": 1}))).unwrap_err();
        assert!(e.contains("`origin` is not an argument"), "{e}");
        assert!(
            check(key.clone())
                .unwrap_err()
                .contains("`value` is required")
        );
    }
}
