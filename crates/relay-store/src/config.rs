//! `config.toml`: the store's committed settings. Unknown keys are ignored so that newer relays
//! can add settings without breaking older ones, except inside a share profile
//! (`[share.NAME]`): there a misspelt key would share what it meant to hold back, so it is an
//! error, reported when the profile is used.

use std::path::Path;

use serde::Deserialize;

use relay_wire::error::{Error, Result};

pub const DEFAULT_LOCK_TIMEOUT_MS: u64 = 30_000;

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Config {
    /// The project used when neither `--project` nor `RELAY_PROJECT` names one.
    pub default_project: Option<String>,
    /// A private store (`relay init --local`): listed in `.git/info/exclude`, never committed.
    pub local: Option<bool>,
    /// Sync appended data to disk before reporting success (default true).
    pub fsync: Option<bool>,
    /// How long a writer waits for a project lock, in milliseconds.
    pub lock_timeout_ms: Option<u64>,
    /// Whether relevant pull keeps an index under `cache/` (default true); without it every
    /// search scans the logs with grep-searcher.
    pub search_index: Option<bool>,
    /// What to do with credentials in what is written: "reject" (default), "redact", "off".
    pub secrets: Option<String>,
    /// Largest package, in bytes of compact JSON (default 1 MiB).
    pub max_package_bytes: Option<u64>,
    /// Longest input line (a `--from` document, an import stream line), in bytes (default 2 MiB).
    pub max_line_bytes: Option<u64>,
    /// Deepest nesting of arrays and objects in a record (default 32).
    pub max_depth: Option<u64>,
    /// Most elements of one array in a record (default 10,000).
    pub max_array_len: Option<u64>,
    #[serde(default)]
    pub actor: ActorConfig,
    #[serde(default)]
    pub search: SearchConfig,
    #[serde(default)]
    pub sign: SignConfig,
    #[serde(default)]
    pub orient: OrientConfig,
    #[serde(default)]
    pub review: ReviewConfig,
    /// `[share.NAME]` tables, read as written: a profile is checked when it is used
    /// ([`Config::share_profile`]), so a broken one fails its export and nothing else.
    #[serde(default)]
    pub share: Option<toml::Value>,
}

/// The keys of a `[share.NAME]` profile, each a list of strings.
pub const SHARE_KEYS: [&str; 6] = [
    "projects",
    "package_types",
    "statuses",
    "tags",
    "drop_fields",
    "redact",
];

/// One `[share.NAME]` profile as written: each key's list, `None` when the key is absent.
/// What the values mean (and whether they are valid) is `ops::export::share`'s business.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShareConfig {
    pub projects: Option<Vec<String>>,
    pub package_types: Option<Vec<String>>,
    pub statuses: Option<Vec<String>>,
    pub tags: Option<Vec<String>>,
    pub drop_fields: Option<Vec<String>>,
    pub redact: Option<Vec<String>>,
}

impl ShareConfig {
    /// The profile from its TOML table; the error names the key and what is wrong with it.
    fn from_toml(value: &toml::Value) -> std::result::Result<ShareConfig, String> {
        let toml::Value::Table(table) = value else {
            return Err("must be a table of settings".into());
        };
        let mut profile = ShareConfig::default();
        for (key, value) in table {
            let slot = match key.as_str() {
                "projects" => &mut profile.projects,
                "package_types" => &mut profile.package_types,
                "statuses" => &mut profile.statuses,
                "tags" => &mut profile.tags,
                "drop_fields" => &mut profile.drop_fields,
                "redact" => &mut profile.redact,
                _ => {
                    return Err(format!(
                        "unknown key `{key}` (a profile takes {})",
                        SHARE_KEYS.join(", ")
                    ));
                }
            };
            let list = match value {
                toml::Value::Array(items) => items
                    .iter()
                    .map(|v| v.as_str().map(str::to_string))
                    .collect::<Option<Vec<String>>>(),
                _ => None,
            };
            *slot = Some(list.ok_or_else(|| {
                format!("`{key}` must be a list of strings, such as {key} = [\"…\"]")
            })?);
        }
        Ok(profile)
    }
}

/// `[search]`: how relay searches.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SearchConfig {
    /// The folder of a static (Model2Vec) embedding model, for semantic and hybrid search:
    /// absolute, or relative to the folder that holds `.relay/`.
    pub model: Option<String>,
    /// How a query is embedded: "transformer" (the model's `query/` transformer when it has
    /// one; the default) or "static" (the table documents are embedded with).
    pub query_encoder: Option<String>,
}

/// What embeds a search's query (`[search] query_encoder`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QueryEncoder {
    /// The transformer the model folder ships in `query/`, when it has one and it loads: a
    /// query is read in context, at the cost of loading it (a fraction of a second) once per
    /// process and milliseconds a query.
    #[default]
    Transformer,
    /// The static table, as documents are: nothing more to load.
    Static,
}

impl QueryEncoder {
    /// The values `[search] query_encoder` takes.
    pub const NAMES: [&str; 2] = ["transformer", "static"];

    pub fn as_str(self) -> &'static str {
        match self {
            QueryEncoder::Transformer => Self::NAMES[0],
            QueryEncoder::Static => Self::NAMES[1],
        }
    }
}

impl SearchConfig {
    /// The query encoder asked for; an unknown value is an error that names the choices.
    pub fn query_encoder(&self) -> std::result::Result<QueryEncoder, String> {
        match self.query_encoder.as_deref() {
            None => Ok(QueryEncoder::default()),
            Some(v) if v == QueryEncoder::Transformer.as_str() => Ok(QueryEncoder::Transformer),
            Some(v) if v == QueryEncoder::Static.as_str() => Ok(QueryEncoder::Static),
            Some(other) => Err(format!(
                "[search] query_encoder = \"{other}\" is not one of \"{}\"",
                QueryEncoder::NAMES.join("\", \"")
            )),
        }
    }
}

/// `[orient]`: the briefing a session starts from.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct OrientConfig {
    /// The budget of `relay orient` (Markdown and --json) and of the MCP `orient` tool, in
    /// characters, when none is given with the call.
    pub max_chars: Option<usize>,
}

/// `[review]`: who reviews.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReviewConfig {
    /// Actors (ids, or patterns as in `allowed_signers`) who may retract any package or fact;
    /// anyone else may retract what they wrote or reviewed, and verify reports the rest.
    pub reviewers: Option<Vec<String>>,
}

/// `[sign]`: signed records.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SignConfig {
    /// The OpenSSH Ed25519 private key every write of this clone is signed with (`~` is the
    /// home folder; a relative path is relative to the folder that holds `.relay/`).
    pub key: Option<String>,
    /// Whether `relay verify --signatures` fails on unsigned records and keys not allowed.
    pub require: Option<bool>,
}

/// What relay does with a credential in something it is asked to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SecretPolicy {
    /// Refuse the write, naming the field and the rule (the default).
    #[default]
    Reject,
    /// Replace each credential with `<REDACTED:rule-id>` before hashing and writing.
    Redact,
    /// Store it as given.
    Off,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ActorConfig {
    pub id: Option<String>,
    #[serde(rename = "type")]
    pub actor_type: Option<String>,
}

impl Config {
    /// The config of the store at `dir`, without opening the store.
    pub fn of_store(dir: &Path) -> Result<Config> {
        Config::load(&dir.join(crate::layout::CONFIG_FILE))
    }

    pub fn load(path: &Path) -> Result<Config> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
            Err(e) => return Err(Error::io(format!("cannot read {}", path.display()), e)),
        };
        Self::parse(&text).map_err(|m| {
            Error::Integrity(format!(
                "{} is not valid: {m}; fix it by hand",
                path.display()
            ))
        })
    }

    pub fn parse(text: &str) -> std::result::Result<Config, String> {
        toml::from_str(text).map_err(|e| e.message().to_string())
    }

    pub fn fsync(&self) -> bool {
        self.fsync.unwrap_or(true)
    }

    /// Whether the store is private to this clone (`local = true`; default false).
    pub fn local(&self) -> bool {
        self.local.unwrap_or(false)
    }

    /// The secrets policy; an unknown value is an error, never a silent "off".
    pub fn secrets(&self) -> std::result::Result<SecretPolicy, String> {
        match self.secrets.as_deref() {
            None | Some("reject") => Ok(SecretPolicy::Reject),
            Some("redact") => Ok(SecretPolicy::Redact),
            Some("off") => Ok(SecretPolicy::Off),
            Some(other) => Err(format!(
                "secrets = \"{other}\" is not one of \"reject\", \"redact\", \"off\""
            )),
        }
    }

    /// The input limits in force.
    pub fn limits(&self) -> relay_wire::limits::Limits {
        let d = relay_wire::limits::Limits::default();
        relay_wire::limits::Limits {
            package_bytes: self.max_package_bytes.unwrap_or(d.package_bytes),
            line_bytes: self.max_line_bytes.unwrap_or(d.line_bytes),
            depth: self.max_depth.unwrap_or(d.depth),
            array_len: self.max_array_len.unwrap_or(d.array_len),
        }
    }

    /// The names of the `[share.NAME]` profiles, sorted.
    pub fn share_profiles(&self) -> Vec<&str> {
        match &self.share {
            Some(toml::Value::Table(t)) => t.keys().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }

    /// The profile `[share.NAME]`: `None` when there is none by that name, else the profile
    /// or what is wrong with it (naming the profile and the key).
    pub fn share_profile(&self, name: &str) -> Option<std::result::Result<ShareConfig, String>> {
        let profile = match &self.share {
            Some(toml::Value::Table(t)) => t.get(name)?,
            Some(_) => {
                return Some(Err(
                    "`share` must be a table of [share.NAME] profiles".into()
                ));
            }
            None => return None,
        };
        Some(ShareConfig::from_toml(profile).map_err(|m| format!("{}: {m}", share_label(name))))
    }

    /// The text `relay init --local` writes: [`Config::initial_text`]'s settings under a header
    /// that says the store is never committed, and `local = true`.
    pub fn initial_local_text(default_project: &str) -> String {
        let text = Self::initial_text(default_project);
        let settings = text.split_once('\n').map_or("", |(_, rest)| rest);
        format!(
            "# relay store settings (format v1). A local store: listed in .git/info/exclude, so\n\
             # git never sees it. Not backed up by git: back it up with `relay export`.\n\
             local = true\n{settings}"
        )
    }

    pub fn search_index(&self) -> bool {
        self.search_index.unwrap_or(true)
    }

    pub fn lock_timeout_ms(&self) -> u64 {
        self.lock_timeout_ms.unwrap_or(DEFAULT_LOCK_TIMEOUT_MS)
    }

    /// The text `relay init` writes for a new store.
    pub fn initial_text(default_project: &str) -> String {
        let quoted = toml::Value::String(default_project.to_string()).to_string();
        format!(
            "# relay store settings (format v1). Committed with the store.\n\
             format = 1\n\
             # Used when neither --project nor RELAY_PROJECT names a project.\n\
             default_project = {quoted}\n\
             # Sync each append to disk before reporting success.\n\
             fsync = true\n\
             # How long a writer waits for another writer's lock, in milliseconds.\n\
             lock_timeout_ms = {DEFAULT_LOCK_TIMEOUT_MS}\n\
             # Keep a search index under cache/ (false: every search scans the logs).\n\
             search_index = true\n\
             # Credentials in what is written: \"reject\" (refuse), \"redact\" (store <REDACTED:rule>), \"off\".\n\
             secrets = \"reject\"\n\
             # Input limits: bytes per package and per input line, nesting depth, array length.\n\
             max_package_bytes = 1048576\n\
             max_line_bytes = 2097152\n\
             max_depth = 32\n\
             max_array_len = 10000\n\
             \n\
             [sign]\n\
             # Sign every write with this OpenSSH Ed25519 key (see `relay keys generate`).\n\
             # key = \"~/.ssh/id_ed25519\"\n\
             # Make `relay verify --signatures` fail on unsigned records and keys not allowed.\n\
             # require = true\n\
             \n\
             [actor]\n\
             # Who deposits when --actor / RELAY_ACTOR is not given (else git user.email, then $USER).\n\
             # id = \"you@example.com\"\n\
             # type = \"human\"\n"
        )
    }
}

/// How a profile's table is written: `[share.public]`, `[share."my team"]`.
pub fn share_label(name: &str) -> String {
    let bare = !name.is_empty()
        && (name.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if bare {
        format!("[share.{name}]")
    } else {
        format!("[share.{}]", toml::Value::String(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_text_round_trips_any_project_name() {
        for name in ["relay", "a \"quoted\" \\ name", "ünï"] {
            let c = Config::parse(&Config::initial_text(name)).unwrap();
            assert_eq!(c.default_project.as_deref(), Some(name));
            assert!(c.fsync());
            assert_eq!(c.lock_timeout_ms(), DEFAULT_LOCK_TIMEOUT_MS);
            assert!(!c.local());
            let local = Config::parse(&Config::initial_local_text(name)).unwrap();
            assert!(local.local());
            assert_eq!(local.default_project.as_deref(), Some(name));
        }
    }

    #[test]
    fn bad_config_is_an_error_with_a_message() {
        assert!(Config::parse("fsync = maybe").is_err());
        assert!(Config::parse("future_key = 1\n[actor]\nid = \"a\"").is_ok());
        let c = Config::parse("[orient]\nmax_chars = 9000").unwrap();
        assert_eq!(c.orient.max_chars, Some(9000));
        assert!(Config::parse("[orient]\nmax_chars = -1").is_err());
    }

    #[test]
    fn the_query_encoder_is_the_transformer_unless_set() {
        let encoder = |text: &str| Config::parse(text).unwrap().search.query_encoder();
        assert_eq!(encoder(""), Ok(QueryEncoder::Transformer));
        assert_eq!(
            encoder("[search]\nquery_encoder = \"static\""),
            Ok(QueryEncoder::Static)
        );
        assert_eq!(
            encoder("[search]\nquery_encoder = \"transformer\""),
            Ok(QueryEncoder::Transformer)
        );
        assert_eq!(
            encoder("[search]\nquery_encoder = \"onnx\""),
            Err(
                "[search] query_encoder = \"onnx\" is not one of \"transformer\", \"static\""
                    .into()
            )
        );
    }

    #[test]
    fn share_profiles_are_read_when_used_and_name_the_bad_key() {
        let c = Config::parse(
            "[share.public]\nstatuses = [\"complete\"]\ndrop_fields = [\"content_md\"]\n\
             [share.typo]\ndrop_feilds = [\"content_md\"]\n\
             [share.\"my team\"]\ntags = \"x\"\n",
        )
        .unwrap();
        assert_eq!(c.share_profiles(), ["my team", "public", "typo"]);
        let public = c.share_profile("public").unwrap().unwrap();
        assert_eq!(public.statuses, Some(vec!["complete".to_string()]));
        assert_eq!(public.drop_fields, Some(vec!["content_md".to_string()]));
        assert_eq!(public.projects, None);
        let typo = c.share_profile("typo").unwrap().unwrap_err();
        assert!(
            typo.starts_with("[share.typo]: unknown key `drop_feilds`")
                && typo.contains("drop_fields"),
            "{typo}"
        );
        let team = c.share_profile("my team").unwrap().unwrap_err();
        assert_eq!(
            team,
            "[share.\"my team\"]: `tags` must be a list of strings, such as tags = [\"…\"]"
        );
        assert!(c.share_profile("none").is_none());
        assert!(Config::default().share_profiles().is_empty());
        let flat = Config::parse("share = 1").unwrap();
        assert!(flat.share_profile("x").unwrap().is_err());
    }
}
