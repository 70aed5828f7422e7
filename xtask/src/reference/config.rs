//! `config.md`: every key `.relay/config.toml` accepts, its type, default and meaning. The
//! defaults are read from `Config::default()` through the accessors relay itself uses, and a
//! unit test asks serde for the keys the config types take, so a key added there and not
//! here fails.

use super::markdown::{code, table, text};
use relay_core::ops::trust::signatures::DEFAULT_KEY;
use relay_store::config::{Config, SHARE_KEYS, SecretPolicy};
use relay_store::format::{CONFIG_FILE, STORE_DIR};

/// One key: its table (`None` for the top level), name, type, default and meaning.
struct Key {
    table: Option<&'static str>,
    name: &'static str,
    kind: &'static str,
    default: fn(&Config) -> String,
    meaning: &'static str,
}

const fn key(
    table: Option<&'static str>,
    name: &'static str,
    kind: &'static str,
    default: fn(&Config) -> String,
    meaning: &'static str,
) -> Key {
    Key {
        table,
        name,
        kind,
        default,
        meaning,
    }
}

fn none(_: &Config) -> String {
    "none".into()
}

const KEYS: &[Key] = &[
    key(
        None,
        "default_project",
        "string",
        none,
        "The project used when neither --project nor RELAY_PROJECT names one. relay init sets it.",
    ),
    key(
        None,
        "local",
        "boolean",
        |c| c.local().to_string(),
        "A private store (relay init --local): listed in .git/info/exclude, never committed.",
    ),
    key(
        None,
        "fsync",
        "boolean",
        |c| c.fsync().to_string(),
        "Sync appended data to disk before reporting success.",
    ),
    key(
        None,
        "lock_timeout_ms",
        "integer",
        |c| c.lock_timeout_ms().to_string(),
        "How long a writer waits for a project lock, in milliseconds, before lock_timeout.",
    ),
    key(
        None,
        "search_index",
        "boolean",
        |c| c.search_index().to_string(),
        "Keep a search index under cache/; false makes every search scan the logs.",
    ),
    key(
        None,
        "secrets",
        "\"reject\", \"redact\" or \"off\"",
        |c| match c.secrets() {
            Ok(SecretPolicy::Reject) => "\"reject\"".into(),
            Ok(SecretPolicy::Redact) => "\"redact\"".into(),
            Ok(SecretPolicy::Off) => "\"off\"".into(),
            Err(m) => m,
        },
        "What to do with a credential in what is written: refuse the write, store it as <REDACTED:rule-id>, or store it as given.",
    ),
    key(
        None,
        "max_package_bytes",
        "integer",
        |c| c.limits().package_bytes.to_string(),
        "Largest package, in bytes of compact JSON.",
    ),
    key(
        None,
        "max_line_bytes",
        "integer",
        |c| c.limits().line_bytes.to_string(),
        "Longest input line (a --from document, an import stream line, an MCP message), in bytes.",
    ),
    key(
        None,
        "max_depth",
        "integer",
        |c| c.limits().depth.to_string(),
        "Deepest nesting of arrays and objects in a record.",
    ),
    key(
        None,
        "max_array_len",
        "integer",
        |c| c.limits().array_len.to_string(),
        "Most elements of one array in a record.",
    ),
    key(
        Some("actor"),
        "id",
        "string",
        |_| "none: git config user.email, then USER".into(),
        "Who acts when --actor and RELAY_ACTOR say nothing.",
    ),
    key(
        Some("actor"),
        "type",
        "\"human\", \"agent\" or \"script\"",
        |_| "\"human\"".into(),
        "What kind of actor that is.",
    ),
    key(
        Some("search"),
        "model",
        "string (a folder)",
        none,
        "The folder of a static (Model2Vec) embedding model for semantic and hybrid search: absolute, or relative to the folder that holds .relay/. --model and RELAY_MODEL override it.",
    ),
    key(
        Some("search"),
        "query_encoder",
        "\"transformer\" or \"static\"",
        |c| {
            let encoder = c.search.query_encoder().unwrap_or_default();
            format!("\"{}\"", encoder.as_str())
        },
        "What embeds a search's query. transformer: the transformer the model folder holds in query/ (the one its table was fitted to), loaded once per process on the first query; a model without query/ embeds queries with its table, and one whose query/ does not load says so once and does the same. static: the table, as documents are, with nothing more to load.",
    ),
    key(
        Some("sign"),
        "key",
        "string (a file)",
        none,
        "The OpenSSH Ed25519 private key every write of this clone is signed with (~ is the home folder; a relative path is relative to the folder that holds .relay/). --sign-with and RELAY_SIGNING_KEY override it.",
    ),
    key(
        Some("sign"),
        "require",
        "boolean",
        |_| "false".into(),
        "Make relay verify --signatures fail on every unsigned record and key not allowed (without it, only those of an actor allowed_signers says must sign fail).",
    ),
    key(
        Some("review"),
        "reviewers",
        "list of strings",
        |_| "none".into(),
        "Actors (ids, or patterns with * and ? as in allowed_signers) who may retract any package or fact. Anyone else may retract what they wrote or reviewed; in a store that signs, relay verify reports the rest.",
    ),
    key(
        Some("orient"),
        "max_chars",
        "integer",
        |_| "none (no budget)".into(),
        "The budget of relay orient (Markdown and --json) and of the MCP orient tool, in characters, when the call gives none.",
    ),
];

/// What each key of a `[share.NAME]` profile selects; the keys are [`SHARE_KEYS`].
fn share_meaning(key: &str) -> &'static str {
    match key {
        "projects" => "Only these projects. Default: all.",
        "package_types" => "Only packages of these types. Default: all.",
        "statuses" => "Only packages with these statuses. Default: every status but draft.",
        "tags" => {
            "Only packages and facts with one of these tags. Default: all (never_share is always withheld)."
        }
        "drop_fields" => {
            "Package members to leave out, as dotted paths (deliverables.path); a required one stays as <REDACTED:share>."
        }
        "redact" => "Regular expressions whose matches in the shared text become <REDACTED:share>.",
        _ => "",
    }
}

fn name(k: &Key) -> String {
    match k.table {
        Some(t) => format!("[{t}] {}", k.name),
        None => k.name.to_string(),
    }
}

pub fn page() -> String {
    let defaults = Config::default();
    let mut out = String::from("# Configuration\n\n");
    out.push_str(&text(&format!(
        "{STORE_DIR}/{CONFIG_FILE} holds the store's settings and is committed with it. Every \
         key is optional. A key relay does not know is ignored, so that newer relays can add \
         settings without breaking older ones; inside a [share.NAME] profile an unknown key is \
         an error, reported when the profile is used. A malformed file is an integrity_error \
         (exit 5) naming what is wrong."
    )));
    out.push_str("\n\n## Keys\n\n");
    let rows: Vec<Vec<String>> = KEYS
        .iter()
        .map(|k| {
            vec![
                code(&name(k)),
                text(k.kind),
                text(&(k.default)(&defaults)),
                text(k.meaning),
            ]
        })
        .collect();
    out.push_str(&table(&["Key", "Type", "Default", "Meaning"], &rows));
    out.push_str(&format!(
        "\nrelay init also writes `format = 1`, the store's format version; relay does not \
         read it. `relay --sign` without a configured key signs with {}.\n",
        code(DEFAULT_KEY)
    ));

    out.push_str("\n## Share profiles: `[share.NAME]`\n\n");
    out.push_str(&text(
        "relay export --share NAME exports only what the profile [share.NAME] lets leave the \
         store. Each key is a list of strings; a key left out selects everything, and an empty \
         list is an error.",
    ));
    out.push_str("\n\n");
    let rows: Vec<Vec<String>> = SHARE_KEYS
        .iter()
        .map(|k| vec![code(k), text("list of strings"), text(share_meaning(k))])
        .collect();
    out.push_str(&table(&["Key", "Type", "Meaning"], &rows));

    out.push_str("\n## What relay init writes\n\n");
    out.push_str(&block_for_init());
    out
}

fn block_for_init() -> String {
    super::markdown::block("toml", &Config::initial_text("my-project"))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde::de::{self, Deserialize, Deserializer, Visitor};

    use super::*;
    use relay_store::config::{ActorConfig, OrientConfig, ReviewConfig, SearchConfig, SignConfig};

    /// A deserializer that only records the field names a struct asks for.
    struct Fields<'a>(&'a mut &'static [&'static str]);

    impl<'de> Deserializer<'de> for Fields<'_> {
        type Error = de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("only a struct's field names are read"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(de::Error::custom("done"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }

    fn fields<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
        let mut names: &'static [&'static str] = &[];
        let _ = T::deserialize(Fields(&mut names));
        names
    }

    #[test]
    fn every_key_the_config_takes_is_documented() {
        let mut taken = BTreeSet::new();
        for f in fields::<Config>() {
            match *f {
                // Tables: their own keys below.
                "actor" | "search" | "sign" | "orient" | "review" | "share" => {}
                f => {
                    taken.insert(f.to_string());
                }
            }
        }
        for (table, keys) in [
            ("actor", fields::<ActorConfig>()),
            ("search", fields::<SearchConfig>()),
            ("sign", fields::<SignConfig>()),
            ("orient", fields::<OrientConfig>()),
            ("review", fields::<ReviewConfig>()),
        ] {
            assert!(!keys.is_empty(), "[{table}] has keys");
            taken.extend(keys.iter().map(|k| format!("[{table}] {k}")));
        }
        assert!(taken.contains("default_project") && taken.contains("[actor] type"));
        let documented: BTreeSet<String> = KEYS.iter().map(name).collect();
        assert_eq!(
            taken, documented,
            "config.toml's keys (left) and KEYS in xtask/src/reference/config.rs (right) differ"
        );
        assert!(SHARE_KEYS.iter().all(|k| !share_meaning(k).is_empty()));
    }

    #[test]
    fn defaults_come_from_the_config() {
        let page = page();
        assert!(
            page.contains("| `lock_timeout_ms` | integer | 30000 |"),
            "{page}"
        );
        assert!(page.contains("| `secrets` |"), "{page}");
    }
}
