//! A tool's `inputSchema`, generated with schemars from the core's request type (its field
//! names, doc comments, serde defaults, bounds and enums) and the caller parts it takes
//! (project, actor, session: [`relay_core::request::caller`]), then made plain for MCP
//! clients: one flat object with `properties` and `required`, every subschema inlined (no
//! `$ref`, no `$defs`, no `$schema`), and no argument the schema does not name.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use relay_core::request::caller::{ActorPart, ProjectPart, SessionPart};

/// A caller part a tool takes after its own arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Project,
    Actor,
    Session,
}

/// The parts every writing tool takes: the project, who acts, and the session recorded.
pub const WRITER: &[Part] = &[Part::Project, Part::Actor, Part::Session];

/// The `inputSchema` of a tool whose arguments are the request `R`, then `parts`.
pub fn schema_of<R: JsonSchema>(parts: &[Part]) -> Value {
    with_parts(generate::<R>(), parts)
}

/// The `inputSchema` of a tool that takes no arguments.
pub fn no_arguments() -> Value {
    with_parts(json!({}), &[])
}

/// `schema` (an object schema, generated or written by hand) with the caller `parts`' properties
/// after its own, closed to any other argument.
pub fn with_parts(schema: Value, parts: &[Part]) -> Value {
    let mut properties = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let mut required: Vec<Value> = schema["required"].as_array().cloned().unwrap_or_default();
    for part in parts {
        let generated = match part {
            Part::Project => generate::<ProjectPart>(),
            Part::Actor => generate::<ActorPart>(),
            Part::Session => generate::<SessionPart>(),
        };
        for (name, p) in generated["properties"].as_object().into_iter().flatten() {
            let before = properties.insert(name.clone(), p.clone());
            debug_assert!(
                before.is_none(),
                "`{name}` is the tool's and a caller part's"
            );
        }
        required.extend(
            generated["required"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
        );
    }
    let mut closed = json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    });
    // Members admitted by name (`x-*` extensions, §12.1) stay admitted.
    if let Some(patterns) = schema.get("patternProperties") {
        closed["patternProperties"] = patterns.clone();
    }
    closed
}

/// `schema` with `older`, a name a request type still accepts for its `field` (a serde
/// alias, which schemars does not list), published beside it with the same schema.
pub fn with_alias(mut schema: Value, older: &str, field: &str) -> Value {
    let Some(properties) = schema["properties"].as_object() else {
        return schema;
    };
    let mut listed = Map::new();
    for (name, property) in properties {
        listed.insert(name.clone(), property.clone());
        if name == field {
            let mut alias = property.clone();
            let doc = format!("The same as {field}, under its older name");
            alias["description"] = Value::String(doc);
            listed.insert(older.to_string(), alias);
        }
    }
    schema["properties"] = Value::Object(listed);
    schema
}

/// The schema of `R`, every subschema inlined, each property made plain.
fn generate<R: JsonSchema>() -> Value {
    let settings = SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let root = settings.into_generator().into_root_schema_for::<R>();
    let mut schema = root.to_value();
    let mut properties = Map::new();
    for (name, mut property) in schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default()
    {
        plain(&mut property);
        properties.insert(name, property);
    }
    schema["properties"] = Value::Object(properties);
    schema
}

/// One property as a client reads it: a single `type` (an optional argument is left out, or
/// sent as null, rather than typed as null), no `format` or `title`, and a description on
/// one line that says the default when it is a number and the doc comment does not (as
/// `relay mcp` always has).
fn plain(property: &mut Value) {
    let Some(p) = property.as_object_mut() else {
        return;
    };
    p.remove("format");
    p.remove("title");
    // Any JSON object (a package's members) is what `type: object` says already.
    if p.get("additionalProperties") == Some(&Value::Bool(true)) {
        p.remove("additionalProperties");
    }
    if p.get("default") == Some(&Value::Null) {
        p.remove("default");
    }
    // An enum whose values are documented comes as `oneOf` one `const` each (an optional
    // one inside `anyOf` with null): a client reads it best as a plain `enum`.
    if let Some(Value::Array(any)) = p.remove("anyOf") {
        for variant in any.into_iter().filter(|v| v["type"] != "null") {
            for (k, v) in variant.as_object().into_iter().flatten() {
                p.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    if let Some(Value::Array(variants)) = p.get("oneOf") {
        let values: Option<Vec<Value>> = variants.iter().map(|v| v.get("const").cloned()).collect();
        if let Some(values) = values {
            p.remove("oneOf");
            p.insert("type".into(), json!("string"));
            p.insert("enum".into(), Value::Array(values));
        }
    }
    if let Some(Value::Array(types)) = p.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let kept = match &kept[..] {
            [one] => one.clone(),
            _ => Value::Array(kept),
        };
        p.insert("type".into(), kept);
    }
    if let Some(Value::Array(values)) = p.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if let Some(items) = p.get_mut("items") {
        plain(items);
    }
    if let Some(Value::String(doc)) = p.get("description") {
        let mut doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
        // Said once: a doc comment that names its default already keeps its own words.
        if let Some(n @ Value::Number(_)) = p.get("default")
            && !doc.contains("(default")
        {
            doc = format!("{doc} (default {n})");
        }
        p.insert("description".into(), Value::String(doc));
    }
    // The keywords in one order, the type first and the prose last, as a reader scans them.
    let order = [
        "type",
        "enum",
        "minimum",
        "maximum",
        "items",
        "default",
        "description",
    ];
    let rank = |k: &str| order.iter().position(|o| *o == k).unwrap_or(order.len());
    let mut keywords: Vec<(String, Value)> = std::mem::take(p).into_iter().collect();
    keywords.sort_by_key(|(k, _)| rank(k));
    p.extend(keywords);
}

#[cfg(test)]
mod tests {
    use super::*;
    use relay_core::request::OrientRequest;

    #[test]
    fn a_request_type_becomes_a_plain_closed_object_schema() {
        let s = schema_of::<OrientRequest>(&[Part::Project]);
        assert_eq!(s["type"], "object");
        assert_eq!(s["additionalProperties"], false);
        assert_eq!(s["required"], json!([]));
        let text = s.to_string();
        assert!(!text.contains("$ref") && !text.contains("$defs") && !text.contains("$schema"));
        let window = &s["properties"]["window_days"];
        assert_eq!(window["type"], "integer");
        assert_eq!(window["default"], 14);
        assert_eq!(
            (window["minimum"].as_u64(), window["maximum"].as_u64()),
            (Some(0), Some(36_500))
        );
        assert_eq!(
            window["description"],
            "How many days back to look (default 14)"
        );
        assert_eq!(s["properties"]["as_of"]["type"], "string");
        let names: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
        assert_eq!(names.last().unwrap().as_str(), "project");
    }
}
