//! The typed error shared by every layer below the CLI. Each variant carries the protocol's error
//! code (§8) where the spec names one, and a kind that the CLI maps to a documented exit code.
//! [`Code`] is the one table of error codes and the HTTP statuses (§8, §9.1) they answer with.

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

/// One session as an error names it: enough to tell it from another with the same callsign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRef {
    pub id: String,
    pub actor_id: String,
    pub actor_type: String,
    pub started_at: String,
}

impl SessionRef {
    /// Sessions in one phrase: `a`, `a and b`, `a, b and c`.
    pub fn list(sessions: &[SessionRef]) -> String {
        let each: Vec<String> = sessions.iter().map(ToString::to_string).collect();
        match each.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => each.concat(),
        }
    }
}

impl fmt::Display for SessionRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, {}, started {})",
            self.id, self.actor_id, self.actor_type, self.started_at
        )
    }
}

/// One record a short id could name, as [`Error::AmbiguousId`] lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdCandidate {
    pub id: String,
    /// What tells it apart: a package's title, a fact's subject and predicate, a session's
    /// callsign and actor.
    pub summary: String,
    /// When it was recorded (a session: when it started).
    pub created_at: String,
}

impl IdCandidate {
    /// `{"id", "summary", "created_at"}`, as `--json` errors list candidates.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "summary": self.summary,
            "created_at": self.created_at,
        })
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
    /// A fact names as its source a package its project does not hold: `package_not_found`.
    SourcePackageNotFound {
        fact_id: String,
        package_id: String,
    },
    ProjectNotFound(String),
    /// A package with this id exists with other content: `duplicate_package_id`.
    DuplicatePackageId(String),
    ProjectExists(String),
    ProjectArchived(String),
    /// `facts get` found no fact for the key (at the time asked, named when one was).
    FactNotFound {
        subject: String,
        predicate: String,
        at: Option<String>,
    },
    /// The record exists but reads hide it: it was retracted, or it has expired. `code` is
    /// the not-found code of its kind (`package_not_found`, `fact_not_found`), and `message`
    /// says why and which flag shows it anyway.
    Hidden {
        code: Code,
        message: String,
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
    /// A callsign that more than one open session of a project holds, as merged clones leave
    /// it (each clone checks only its own sessions at start): `callsign_in_use`, since the
    /// store's state makes the name ambiguous. The sessions are oldest first; the caller must
    /// name one by its id.
    AmbiguousCallsign {
        callsign: String,
        project: String,
        sessions: Vec<SessionRef>,
    },
    /// A short id (a prefix of ids, as git takes them) that more than one record's id begins
    /// with: `ambiguous_id`. `kind` names the records (`package`, `fact`, `session`);
    /// `candidates` are the first of them by id, `more` how many others there are.
    AmbiguousId {
        prefix: String,
        kind: &'static str,
        candidates: Vec<IdCandidate>,
        more: usize,
    },
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
    /// Semantic or hybrid search was asked for, and no embedding model is configured or the
    /// configured one does not load: `search_not_supported` (§8.2).
    SearchNotSupported(String),
    /// The store exists but something in it is unusable (e.g. a malformed config).
    Integrity(String),
    /// An HTTP request carried no bearer token where one is needed, or one that is wrong or
    /// revoked (`relay serve`).
    Unauthenticated(String),
    /// The caller's token does not allow this: a project outside its scope, a write with a
    /// read-only token, or a record naming another actor (§8.1 `unauthorized`).
    Unauthorized(String),
    /// A record names an actor other than the one the caller's token writes as (§9.2: a key
    /// maps to one actor): `unauthorized`, and the answer names the token's actor, so that a
    /// client can write as it.
    NotTheTokensActor {
        message: String,
        actor_id: String,
        actor_type: String,
    },
    /// No token with this id (`relay token revoke`).
    TokenNotFound(String),
    LockTimeout {
        path: PathBuf,
        waited_ms: u64,
    },
    Io {
        context: String,
        source: io::Error,
    },
}

/// Defines [`Code`] from one list, so that [`Code::ALL`] and [`Code::as_str`] cannot miss one.
macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// Every error code: the spec's (§8, §10.2) and relay's own where the spec names none.
        /// This is the one table of codes and their HTTP statuses; `--json` errors, MCP tool
        /// errors and an HTTP transport all name failures with [`Code::as_str`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, the spec's first.
            pub const ALL: &[Code] = &[$(Code::$variant,)*];

            /// The code as the protocol and relay's output spell it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }
        }
    };
}

codes! {
    /// A record broke the wire schema, or its JSON did not parse (§8.1).
    InvalidSchema = "invalid_schema",
    /// The package's status does not allow this review action (§8.5).
    InvalidTransition = "invalid_transition",
    PackageNotFound = "package_not_found",
    DuplicatePackageId = "duplicate_package_id",
    ProjectArchived = "project_archived",
    /// Transport auth rejected the actor (§8.1): `relay serve` says it when a token does not
    /// allow the request (a project outside its scope, a write with a read-only token).
    Unauthorized = "unauthorized",
    /// An operation needs a capability the implementation lacks (§10.2). relay never says this.
    NotImplemented = "not_implemented",
    /// The search asked for is not available (§8.2): semantic or hybrid search without a
    /// usable embedding model.
    SearchNotSupported = "search_not_supported",
    /// A value given to relay (a time, a flag) could not be understood.
    InvalidInput = "invalid_input",
    /// A short id that the ids of more than one record begin with.
    AmbiguousId = "ambiguous_id",
    /// The command line was wrong (a CLI's own code; MCP reports it as `invalid_input`).
    Usage = "usage",
    SecretDetected = "secret_detected",
    ProjectNotFound = "project_not_found",
    FactNotFound = "fact_not_found",
    SessionNotFound = "session_not_found",
    StoreNotFound = "store_not_found",
    ProjectExists = "project_exists",
    FactChainConflict = "fact_chain_conflict",
    SessionEnded = "session_ended",
    CallsignInUse = "callsign_in_use",
    IntegrityError = "integrity_error",
    LockTimeout = "lock_timeout",
    IoError = "io_error",
    /// An HTTP request without a valid bearer token where one is needed (`relay serve`).
    Unauthenticated = "unauthenticated",
    TokenNotFound = "token_not_found",
    /// No such route (`relay serve`).
    NotFound = "not_found",
    MethodNotAllowed = "method_not_allowed",
    RequestTimeout = "request_timeout",
    PayloadTooLarge = "payload_too_large",
    UnsupportedMediaType = "unsupported_media_type",
    /// A request whose `Host` is not one of the server's names (`relay serve`).
    MisdirectedRequest = "misdirected_request",
    /// A request that is not valid HTTP, or names its `Host` more than once (`relay serve`).
    BadRequest = "bad_request",
    /// A request target (path and query) over HTTP's limit (`relay serve`).
    UriTooLong = "uri_too_long",
    /// Request header fields over the server's limits (`relay serve`).
    HeaderFieldsTooLarge = "header_fields_too_large",
    /// A caller over its own cap (open event streams; `relay serve`): `Retry-After` says when.
    TooManyRequests = "too_many_requests",
    /// The server as a whole is at a cap (open event streams; `relay serve`): `Retry-After`
    /// says when to try again.
    ServerBusy = "server_busy",
}

impl Code {
    /// The HTTP status of the code: the spec's own for its codes (§8, §9.1, §10.2), and for
    /// relay's the nearest in kind. Bad input is 400 as the spec answers every refused request
    /// body (`secret_detected` too: the body is well formed but refused, as an
    /// `invalid_transition` is, and the code in the body says which); what is not there is 404;
    /// a clash with the store's state is 409; a store that cannot serve is 500, or 503 while
    /// another writer holds the lock (worth retrying). The HTTP server's own refusals have
    /// the statuses HTTP names them by (RFC 9110): no or a bad token 401, no route 404, a
    /// wrong method 405, too slow 408, too large 413, not JSON 415, another server's name 421;
    /// not HTTP (or two `Host`s) 400, a target too long 414, headers too large 431, a caller
    /// over its cap 429, the server at its cap 503.
    pub fn http_status(self) -> u16 {
        match self {
            Code::Unauthenticated => 401,
            Code::MethodNotAllowed => 405,
            Code::RequestTimeout => 408,
            Code::PayloadTooLarge => 413,
            Code::UnsupportedMediaType => 415,
            Code::MisdirectedRequest => 421,
            Code::UriTooLong => 414,
            Code::HeaderFieldsTooLarge => 431,
            Code::TooManyRequests => 429,
            Code::InvalidSchema
            | Code::InvalidTransition
            | Code::InvalidInput
            | Code::AmbiguousId
            | Code::Usage
            | Code::SecretDetected
            | Code::BadRequest => 400,
            Code::ProjectArchived | Code::Unauthorized => 403,
            Code::PackageNotFound
            | Code::ProjectNotFound
            | Code::FactNotFound
            | Code::SessionNotFound
            | Code::StoreNotFound
            | Code::TokenNotFound
            | Code::NotFound => 404,
            Code::DuplicatePackageId
            | Code::ProjectExists
            | Code::FactChainConflict
            | Code::SessionEnded
            | Code::CallsignInUse => 409,
            Code::IntegrityError | Code::IoError => 500,
            Code::NotImplemented | Code::SearchNotSupported => 501,
            Code::LockTimeout | Code::ServerBusy => 503,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The classes of failure that the CLI maps to exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    NotFound,
    Conflict,
    InvalidInput,
    /// A short id that more than one record's id begins with.
    Ambiguous,
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
        self.error_code().as_str()
    }

    /// The error code as a [`Code`].
    pub fn error_code(&self) -> Code {
        match self {
            Error::InvalidSchema(_) | Error::MalformedJson { .. } => Code::InvalidSchema,
            Error::InvalidInput(_) => Code::InvalidInput,
            Error::AmbiguousId { .. } => Code::AmbiguousId,
            Error::SecretDetected { .. } | Error::SecretsFound(_) => Code::SecretDetected,
            Error::PackageNotFound(_) | Error::SourcePackageNotFound { .. } => {
                Code::PackageNotFound
            }
            Error::ProjectNotFound(_) => Code::ProjectNotFound,
            Error::DuplicatePackageId(_) => Code::DuplicatePackageId,
            Error::ProjectExists(_) => Code::ProjectExists,
            Error::ProjectArchived(_) => Code::ProjectArchived,
            Error::FactNotFound { .. } => Code::FactNotFound,
            Error::Hidden { code, .. } => *code,
            Error::FactChainConflict(_) => Code::FactChainConflict,
            Error::SessionNotFound(_) => Code::SessionNotFound,
            Error::InvalidTransition { .. } => Code::InvalidTransition,
            Error::SessionEnded(_) => Code::SessionEnded,
            Error::CallsignInUse(_) | Error::AmbiguousCallsign { .. } => Code::CallsignInUse,
            Error::StoreNotFound { .. } => Code::StoreNotFound,
            Error::Integrity(_) => Code::IntegrityError,
            Error::SearchNotSupported(_) => Code::SearchNotSupported,
            Error::LockTimeout { .. } => Code::LockTimeout,
            Error::Io { .. } => Code::IoError,
            Error::Unauthenticated(_) => Code::Unauthenticated,
            Error::Unauthorized(_) | Error::NotTheTokensActor { .. } => Code::Unauthorized,
            Error::TokenNotFound(_) => Code::TokenNotFound,
        }
    }

    /// The HTTP status an HTTP transport answers this error with (see [`Code::http_status`]).
    pub fn http_status(&self) -> u16 {
        self.error_code().http_status()
    }

    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::PackageNotFound(_)
            | Error::SourcePackageNotFound { .. }
            | Error::ProjectNotFound(_)
            | Error::StoreNotFound { .. }
            | Error::FactNotFound { .. }
            | Error::Hidden { .. }
            | Error::SessionNotFound(_)
            | Error::TokenNotFound(_) => ErrorKind::NotFound,
            Error::DuplicatePackageId(_)
            | Error::ProjectExists(_)
            | Error::ProjectArchived(_)
            | Error::FactChainConflict(_)
            | Error::InvalidTransition { .. }
            | Error::SessionEnded(_)
            | Error::CallsignInUse(_)
            | Error::AmbiguousCallsign { .. } => ErrorKind::Conflict,
            Error::InvalidSchema(_)
            | Error::MalformedJson { .. }
            | Error::InvalidInput(_)
            | Error::SecretDetected { .. }
            | Error::SecretsFound(_)
            | Error::SearchNotSupported(_)
            | Error::Unauthenticated(_)
            | Error::Unauthorized(_)
            | Error::NotTheTokensActor { .. } => ErrorKind::InvalidInput,
            Error::AmbiguousId { .. } => ErrorKind::Ambiguous,
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
            Error::AmbiguousId {
                prefix,
                kind,
                candidates,
                more,
            } => {
                write!(
                    f,
                    "short id `{prefix}` is ambiguous: {} {kind} ids begin with it",
                    candidates.len() + more
                )?;
                for c in candidates {
                    let summary = c.summary.replace(['\n', '\r', '\t'], " ");
                    write!(f, "\n  {}  {}  {summary}", c.id, c.created_at)?;
                }
                if *more > 0 {
                    write!(f, "\n  and {more} more")?;
                }
                write!(f, "\nnothing was done: give more characters of the id")
            }
            Error::SecretsFound(n) => write!(
                f,
                "{} found: rotate, then remove from the store and its history (the secrets themselves are never printed)",
                crate::text::count(*n, "credential")
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
            Error::SourcePackageNotFound {
                fact_id,
                package_id,
            } => write!(
                f,
                "fact `{fact_id}` names `{package_id}` as its source_package_id, but its project \
                 holds no such package"
            ),
            Error::ProjectNotFound(id) => write!(f, "no project `{id}` in this store"),
            Error::DuplicatePackageId(id) => write!(
                f,
                "a package with id `{id}` already exists with different content, and packages are immutable"
            ),
            Error::ProjectExists(id) => write!(f, "project `{id}` already exists"),
            Error::ProjectArchived(id) => write!(f, "project `{id}` is archived"),
            Error::FactNotFound {
                subject,
                predicate,
                at,
            } => {
                write!(
                    f,
                    "no fact for subject `{subject}`, predicate `{predicate}`"
                )?;
                match at {
                    Some(at) => write!(f, " at {at}"),
                    None => Ok(()),
                }
            }
            Error::Hidden { message, .. } => write!(f, "{message}"),
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
            Error::AmbiguousCallsign {
                callsign,
                project,
                sessions,
            } => write!(
                f,
                "callsign `{callsign}` names {} open sessions of project `{project}` (merged \
                 clones each started one): {}; nothing was done: name the session by its id \
                 instead",
                sessions.len(),
                SessionRef::list(sessions)
            ),
            Error::StoreNotFound { searched_from } => write!(
                f,
                "no relay store (.relay/) found in {} or any parent folder",
                searched_from.display()
            ),
            Error::Integrity(m) => write!(f, "{m}"),
            Error::SearchNotSupported(m) => write!(f, "{m}"),
            Error::LockTimeout { path, waited_ms } => write!(
                f,
                "gave up waiting for the lock {} after {waited_ms} ms: another relay process is \
                 writing, or hung",
                path.display()
            ),
            Error::Io { context, source } => write!(f, "{context}: {source}"),
            Error::Unauthenticated(m)
            | Error::Unauthorized(m)
            | Error::NotTheTokensActor { message: m, .. } => write!(f, "{m}"),
            Error::TokenNotFound(id) => write!(f, "no token with id `{id}`"),
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

impl Error {
    /// What an error carries beyond its code and message, as members of its `--json` object:
    /// the candidates of an ambiguous short id (`candidates`, and `more` when some were left
    /// out).
    pub fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut out = serde_json::Map::new();
        if let Error::AmbiguousId {
            candidates, more, ..
        } = self
        {
            let listed = candidates.iter().map(IdCandidate::to_value).collect();
            out.insert("candidates".into(), serde_json::Value::Array(listed));
            out.insert("more".into(), serde_json::Value::from(*more));
        }
        out
    }
}

impl From<SchemaError> for Error {
    fn from(e: SchemaError) -> Self {
        Error::InvalidSchema(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole table, as the spec (§8, §9.1, §10.2) and the book's exit-codes chapter give it. `http_status`
    /// matches every code without a wildcard, so a new code does not compile without a status;
    /// this test then fails until the code is added here, with the status chosen.
    const TABLE: [(&str, u16); 36] = [
        ("invalid_schema", 400),
        ("invalid_transition", 400),
        ("package_not_found", 404),
        ("duplicate_package_id", 409),
        ("project_archived", 403),
        ("unauthorized", 403),
        ("not_implemented", 501),
        ("search_not_supported", 501),
        ("invalid_input", 400),
        ("ambiguous_id", 400),
        ("usage", 400),
        ("secret_detected", 400),
        ("project_not_found", 404),
        ("fact_not_found", 404),
        ("session_not_found", 404),
        ("store_not_found", 404),
        ("project_exists", 409),
        ("fact_chain_conflict", 409),
        ("session_ended", 409),
        ("callsign_in_use", 409),
        ("integrity_error", 500),
        ("lock_timeout", 503),
        ("io_error", 500),
        ("unauthenticated", 401),
        ("token_not_found", 404),
        ("not_found", 404),
        ("method_not_allowed", 405),
        ("request_timeout", 408),
        ("payload_too_large", 413),
        ("unsupported_media_type", 415),
        ("misdirected_request", 421),
        ("bad_request", 400),
        ("uri_too_long", 414),
        ("header_fields_too_large", 431),
        ("too_many_requests", 429),
        ("server_busy", 503),
    ];

    #[test]
    fn every_code_has_its_http_status() {
        let got: Vec<(&str, u16)> = Code::ALL
            .iter()
            .map(|c| (c.as_str(), c.http_status()))
            .collect();
        assert_eq!(got, TABLE);
    }

    #[test]
    fn code_names_are_distinct() {
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Code::ALL.len());
    }

    /// Every error, one of each variant, answers with its code's status.
    #[test]
    fn errors_answer_with_their_codes_status() {
        let io = || io::Error::other("disk");
        let errors = [
            Error::InvalidSchema(SchemaError::new("title", "is required")),
            Error::malformed_json("stdin", &serde_json::from_str::<u8>("x").unwrap_err()),
            Error::InvalidInput("bad time".into()),
            Error::AmbiguousId {
                prefix: "pkg_3466".into(),
                kind: "package",
                candidates: Vec::new(),
                more: 2,
            },
            Error::PackageNotFound("pkg_1".into()),
            Error::SourcePackageNotFound {
                fact_id: "fact_1".into(),
                package_id: "pkg_1".into(),
            },
            Error::ProjectNotFound("p".into()),
            Error::DuplicatePackageId("pkg_1".into()),
            Error::ProjectExists("p".into()),
            Error::ProjectArchived("p".into()),
            Error::FactNotFound {
                subject: "s".into(),
                predicate: "p".into(),
                at: None,
            },
            Error::FactChainConflict("before".into()),
            Error::InvalidTransition {
                package_id: "pkg_1".into(),
                from: "complete".into(),
                action: "flag".into(),
            },
            Error::SessionNotFound("s".into()),
            Error::SessionEnded("s".into()),
            Error::CallsignInUse("coral-heron".into()),
            Error::AmbiguousCallsign {
                callsign: "twin-fox".into(),
                project: "demo".into(),
                sessions: Vec::new(),
            },
            Error::SecretDetected {
                field: "title".into(),
                rule: "aws",
                preview: "AKIA…".into(),
            },
            Error::SecretsFound(2),
            Error::StoreNotFound {
                searched_from: PathBuf::from("/"),
            },
            Error::Integrity("bad config".into()),
            Error::LockTimeout {
                path: PathBuf::from("lock"),
                waited_ms: 1,
            },
            Error::io("read", io()),
            Error::Unauthenticated("no token".into()),
            Error::Unauthorized("read-only".into()),
            Error::TokenNotFound("tok_1".into()),
        ];
        let got: Vec<(&str, u16)> = errors.iter().map(|e| (e.code(), e.http_status())).collect();
        assert_eq!(
            got,
            [
                ("invalid_schema", 400),
                ("invalid_schema", 400),
                ("invalid_input", 400),
                ("ambiguous_id", 400),
                ("package_not_found", 404),
                ("package_not_found", 404),
                ("project_not_found", 404),
                ("duplicate_package_id", 409),
                ("project_exists", 409),
                ("project_archived", 403),
                ("fact_not_found", 404),
                ("fact_chain_conflict", 409),
                ("invalid_transition", 400),
                ("session_not_found", 404),
                ("session_ended", 409),
                ("callsign_in_use", 409),
                ("callsign_in_use", 409),
                ("secret_detected", 400),
                ("secret_detected", 400),
                ("store_not_found", 404),
                ("integrity_error", 500),
                ("lock_timeout", 503),
                ("io_error", 500),
                ("unauthenticated", 401),
                ("unauthorized", 403),
                ("token_not_found", 404),
            ]
        );
    }
}
