//! The write-time checks of stored text (redaction happens before hashing, so what is stored
//! is what is hashed and what is read): every write path passes what it is about to store
//! through [`guard`], which refuses a NUL character whatever the policy and applies the
//! store's secrets policy; names that say where a record goes (project ids) go through
//! [`guard_name`], which refuses a credential rather than redact it.

use serde_json::{Map, Value};

use relay_store::Store;
use relay_store::config::SecretPolicy;
use relay_wire::error::{Error, Result};
use relay_wire::secrets;

/// Applies the store's secrets policy to a record about to be written: refuses it (naming the
/// field and the rule, with only a masked preview), redacts it in place, or lets it be. A NUL
/// character in any key or string is refused under every policy.
pub fn guard(store: &Store, record: &mut Map<String, Value>) -> Result<()> {
    refuse_nul(record)?;
    match store.secret_policy() {
        SecretPolicy::Off => Ok(()),
        SecretPolicy::Redact => {
            secrets::redact_record(record);
            Ok(())
        }
        SecretPolicy::Reject => match secrets::scan_record(record).into_iter().next() {
            Some(found) => Err(Error::SecretDetected {
                field: found.field,
                rule: found.rule,
                preview: found.preview,
            }),
            None => Ok(()),
        },
    }
}

/// Refuses a record with a NUL character (U+0000) in a key or a string, naming the field: C
/// strings, shells and terminals end a text there, so what one reader shows would not be what
/// another does.
fn refuse_nul(record: &Map<String, Value>) -> Result<()> {
    fn nul_in(v: &Value, path: String) -> Option<String> {
        match v {
            Value::String(s) => s.contains('\0').then_some(path),
            Value::Array(items) => (items.iter().enumerate())
                .find_map(|(i, item)| nul_in(item, format!("{path}[{i}]"))),
            Value::Object(m) => in_map(m, &format!("{path}.")),
            _ => None,
        }
    }
    fn in_map(m: &Map<String, Value>, prefix: &str) -> Option<String> {
        m.iter().find_map(|(k, v)| {
            let path = format!("{prefix}{}", k.replace('\0', "\\u0000"));
            if k.contains('\0') {
                Some(path)
            } else {
                nul_in(v, path)
            }
        })
    }
    // Nearly every record holds none: looked for without building a path.
    fn any(v: &Value) -> bool {
        match v {
            Value::String(s) => s.contains('\0'),
            Value::Array(items) => items.iter().any(any),
            Value::Object(m) => m.iter().any(|(k, v)| k.contains('\0') || any(v)),
            _ => false,
        }
    }
    if !record.iter().any(|(k, v)| k.contains('\0') || any(v)) {
        return Ok(());
    }
    let field = in_map(record, "").unwrap_or_default();
    Err(Error::InvalidInput(format!(
        "`{field}` holds a NUL character (U+0000), which relay never stores; remove it and try again"
    )))
}

/// A name that says where a record goes or what it is called (a project's id): a credential in
/// it is refused unless the policy is `off`, since a redacted name would be another name. A
/// NUL is refused always.
pub fn guard_name(store: &Store, field: &str, name: &str) -> Result<()> {
    let mut map = Map::new();
    map.insert(field.to_string(), Value::String(name.to_string()));
    refuse_nul(&map)?;
    if store.secret_policy() == SecretPolicy::Off {
        return Ok(());
    }
    match secrets::scan_record(&map).into_iter().next() {
        Some(found) => Err(Error::SecretDetected {
            field: found.field,
            rule: found.rule,
            preview: found.preview,
        }),
        None => Ok(()),
    }
}

/// [`guard`] for loose text fields: returns them, redacted when the policy says so.
pub fn guard_fields(store: &Store, fields: &[(&str, &str)]) -> Result<Vec<String>> {
    let mut map = Map::new();
    for (name, text) in fields {
        map.insert((*name).to_string(), Value::String((*text).to_string()));
    }
    guard(store, &mut map)?;
    Ok(fields
        .iter()
        .map(|(name, _)| {
            map.get(*name)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        })
        .collect())
}

/// A credential found in the store (or in lines about to be committed to it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Found {
    pub file: String,
    pub line: u64,
    pub rule: &'static str,
    /// The field path inside the record, when the line is a JSON record.
    pub field: String,
}

/// The credentials in one line of text: record fields when it is JSON, else the raw text.
pub fn scan_line(file: &str, line: u64, text: &str) -> Vec<Found> {
    let hits: Vec<(String, &'static str)> = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => secrets::scan_record(&m)
            .into_iter()
            .map(|l| (l.field, l.rule))
            .collect(),
        _ => secrets::find(text)
            .into_iter()
            .map(|f| (String::new(), f.rule))
            .collect(),
    };
    hits.into_iter()
        .map(|(field, rule)| Found {
            file: file.to_string(),
            line,
            rule,
            field,
        })
        .collect()
}

/// Every credential in every line of every log of the store, every version included.
pub fn scan_store(store: &Store) -> Result<Vec<Found>> {
    let root = store.root();
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_map(|e| e.ok())
    {
        let path = entry.path();
        let rel = path.strip_prefix(root).unwrap_or(path);
        let skip = relay_store::format::is_per_clone(rel);
        if skip || !entry.file_type().is_file() || path.extension().is_none_or(|e| e != "ndjson") {
            continue;
        }
        let text = std::fs::read(path)
            .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
        for (i, line) in text.split(|&b| b == b'\n').enumerate() {
            out.extend(scan_line(
                &rel.display().to_string(),
                i as u64 + 1,
                &String::from_utf8_lossy(line),
            ));
        }
    }
    Ok(out)
}
