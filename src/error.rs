//! The typed error shared by every layer below the CLI. Each variant carries the protocol's error
//! code (§8) where the spec names one, and a kind that the CLI maps to a documented exit code.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// A schema violation: which field, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// A path such as `title`, `created_by.type` or `deliverables[2].path`.
    pub field: String,
    /// What is wrong, in a plain sentence fragment ("is required", "must be …").
    pub problem: String,
}

impl SchemaError {
    pub fn new(field: impl Into<String>, problem: impl Into<String>) -> Self {
        SchemaError {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "`{}` {}", self.field, self.problem)
        }
    }
}

/// Every failure an operation can report.
#[derive(Debug)]
pub enum Error {
    /// A record broke the wire schema (§6, §7): `invalid_schema`.
    InvalidSchema(SchemaError),
    /// Input JSON did not parse: `invalid_schema`, with where it broke.
    MalformedJson {
        source: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// A value given to relay (a time, a flag) could not be understood: `invalid_input`.
    InvalidInput(String),
    PackageNotFound(String),
    ProjectNotFound(String),
    /// A package with this id exists with other content: `duplicate_package_id`.
    DuplicatePackageId(String),
    ProjectExists(String),
    ProjectArchived(String),
    /// `facts get` found no fact for the key (at the time asked).
    FactNotFound {
        subject: String,
        predicate: String,
    },
    /// A new fact would start before the current one and break the chain (§7.3).
    FactChainConflict(String),
    /// The package's status does not allow this review action (§5.3).
    InvalidTransition {
        package_id: String,
        from: String,
        action: String,
    },
    /// No session with this id or callsign.
    SessionNotFound(String),
    /// The session has ended; it takes no more packages.
    SessionEnded(String),
    /// An open session of the project already uses this callsign.
    CallsignInUse(String),
    /// A credential was found in something to be written, and the policy is to refuse.
    SecretDetected {
        field: String,
        rule: &'static str,
        preview: String,
    },
    /// `relay scan` found credentials (how many) in the store or in staged lines.
    SecretsFound(usize),
    /// No `.relay/` folder was found.
    StoreNotFound {
        searched_from: PathBuf,
    },
    /// The store exists but something in it is unusable (e.g. a malformed config).
    Integrity(String),
    LockTimeout {
        path: PathBuf,
        waited_ms: u64,
    },
    Io {
        context: String,
        source: io::Error,
    },
}

/// The classes of failure that the CLI maps to exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    NotFound,
    Conflict,
    InvalidInput,
    Integrity,
    LockTimeout,
    Internal,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn io(context: impl Into<String>, source: io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    /// The protocol error code (or relay's own code where the spec names none).
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidSchema(_) | Error::MalformedJson { .. } => "invalid_schema",
            Error::InvalidInput(_) => "invalid_input",
            Error::SecretDetected { .. } | Error::SecretsFound(_) => "secret_detected",
            Error::PackageNotFound(_) => "package_not_found",
            Error::ProjectNotFound(_) => "project_not_found",
            Error::DuplicatePackageId(_) => "duplicate_package_id",
            Error::ProjectExists(_) => "project_exists",
            Error::ProjectArchived(_) => "project_archived",
            Error::FactNotFound { .. } => "fact_not_found",
            Error::FactChainConflict(_) => "fact_chain_conflict",
            Error::SessionNotFound(_) => "session_not_found",
            Error::InvalidTransition { .. } => "invalid_transition",
            Error::SessionEnded(_) => "session_ended",
            Error::CallsignInUse(_) => "callsign_in_use",
            Error::StoreNotFound { .. } => "store_not_found",
            Error::Integrity(_) => "integrity_error",
            Error::LockTimeout { .. } => "lock_timeout",
            Error::Io { .. } => "io_error",
        }
    }

    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::PackageNotFound(_)
            | Error::ProjectNotFound(_)
            | Error::StoreNotFound { .. }
            | Error::FactNotFound { .. }
            | Error::SessionNotFound(_) => ErrorKind::NotFound,
            Error::DuplicatePackageId(_)
            | Error::ProjectExists(_)
            | Error::ProjectArchived(_)
            | Error::FactChainConflict(_)
            | Error::InvalidTransition { .. }
            | Error::SessionEnded(_)
            | Error::CallsignInUse(_) => ErrorKind::Conflict,
            Error::InvalidSchema(_)
            | Error::MalformedJson { .. }
            | Error::InvalidInput(_)
            | Error::SecretDetected { .. }
            | Error::SecretsFound(_) => ErrorKind::InvalidInput,
            Error::Integrity(_) => ErrorKind::Integrity,
            Error::LockTimeout { .. } => ErrorKind::LockTimeout,
            Error::Io { .. } => ErrorKind::Internal,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidSchema(e) => write!(f, "invalid record: {e}"),
            Error::MalformedJson {
                source,
                line,
                column,
                message,
            } => {
                write!(
                    f,
                    "{source} is not valid JSON at line {line}, column {column}: {message}"
                )
            }
            Error::InvalidInput(m) => write!(f, "{m}"),
            Error::SecretsFound(n) => write!(
                f,
                "{n} credential(s) found; rotate them and remove them from the store and its history (the secrets themselves are never printed)"
            ),
            Error::SecretDetected {
                field,
                rule,
                preview,
            } => write!(
                f,
                "`{field}` holds what looks like a credential (rule {rule}: {preview}); nothing was written"
            ),
            Error::PackageNotFound(id) => write!(f, "no package with id `{id}` in this store"),
            Error::ProjectNotFound(id) => write!(f, "no project `{id}` in this store"),
            Error::DuplicatePackageId(id) => write!(
                f,
                "a package with id `{id}` already exists with different content, and packages are immutable"
            ),
            Error::ProjectExists(id) => write!(f, "project `{id}` already exists"),
            Error::ProjectArchived(id) => write!(f, "project `{id}` is archived"),
            Error::FactNotFound { subject, predicate } => {
                write!(
                    f,
                    "no fact for subject `{subject}`, predicate `{predicate}`"
                )
            }
            Error::FactChainConflict(m) => write!(f, "{m}"),
            Error::SessionNotFound(s) => write!(f, "no session with id or callsign `{s}`"),
            Error::InvalidTransition {
                package_id,
                from,
                action,
            } => write!(
                f,
                "cannot {action} package `{package_id}`: it is `{from}`{}",
                if from == "complete" {
                    ", and complete is terminal"
                } else {
                    ""
                }
            ),
            Error::SessionEnded(s) => write!(f, "session `{s}` has ended"),
            Error::CallsignInUse(c) => {
                write!(
                    f,
                    "callsign `{c}` is already used by an open session of this project"
                )
            }
            Error::StoreNotFound { searched_from } => write!(
                f,
                "no relay store (.relay/) found in {} or any parent folder",
                searched_from.display()
            ),
            Error::Integrity(m) => write!(f, "{m}"),
            Error::LockTimeout { path, waited_ms } => write!(
                f,
                "gave up waiting for the lock {} after {waited_ms} ms: another relay process is \
                 writing, or hung",
                path.display()
            ),
            Error::Io { context, source } => write!(f, "{context}: {source}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl std::error::Error for SchemaError {}

impl Error {
    /// Malformed JSON read from `source`, with where serde_json says it broke.
    pub fn malformed_json(source: impl Into<String>, e: &serde_json::Error) -> Error {
        Error::MalformedJson {
            source: source.into(),
            line: e.line(),
            column: e.column(),
            message: e
                .to_string()
                .split(" at line")
                .next()
                .unwrap_or_default()
                .to_string(),
        }
    }
}

impl From<SchemaError> for Error {
    fn from(e: SchemaError) -> Self {
        Error::InvalidSchema(e)
    }
}
