//! `exit-codes.md`: the exit codes of the CLI, and every error code with the exit code the CLI
//! ends with and the HTTP status `relay serve` answers with. Each error's exit code is found
//! the way the CLI finds it ([`CliError::describe`]) on one error of each kind, and its
//! message is that error's own.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::markdown::{code, table, text};
use relay::cli::{CliError, exit};
use relay_server::reply::RequestError;
use relay_wire::error::{Code, Error, SchemaError, SessionRef};

/// The exit codes and what each means: the man page's EXIT STATUS and the reference's
/// exit codes.
pub const EXIT_STATUS: [(u8, &str); 9] = [
    (
        exit::OK,
        "Success; also when the reader of a pipe goes away early.",
    ),
    (
        exit::NOT_FOUND,
        "Not found: package_not_found, project_not_found, fact_not_found, session_not_found, store_not_found.",
    ),
    (
        exit::USAGE,
        "Usage: bad flags, or a required value missing with no terminal to prompt on.",
    ),
    (
        exit::CONFLICT,
        "Conflict with the store's state: duplicate_package_id, project_exists, project_archived, invalid_transition, fact_chain_conflict, session_ended, callsign_in_use.",
    ),
    (
        exit::INVALID_INPUT,
        "Invalid input: invalid_schema, invalid_input, secret_detected; for relay conformance --check, a server that refuses the token or has no project to write into.",
    ),
    (
        exit::INTEGRITY,
        "Integrity failure: the store itself is damaged (integrity_error); for relay conformance --check, a server that fails a scenario.",
    ),
    (
        exit::LOCK_TIMEOUT,
        "Lock timeout: another writer held the project lock too long (lock_timeout).",
    ),
    (
        exit::INTERNAL,
        "Internal error: an I/O failure or a bug (io_error); for relay conformance --check, a server that cannot be reached.",
    ),
    (
        exit::AMBIGUOUS,
        "Ambiguous short id: more than one record's id begins with the prefix given (ambiguous_id); the message lists them.",
    ),
];

/// One error of every kind, as the CLI would meet it.
fn samples() -> Vec<CliError> {
    let io = || std::io::Error::other("disk full");
    let relay = [
        Error::InvalidSchema(SchemaError::new("title", "is required")),
        Error::malformed_json(
            "stdin",
            &serde_json::from_str::<serde_json::Value>("{").unwrap_err(),
        ),
        Error::InvalidInput("`--since` is not a time: yesterday-ish".into()),
        Error::AmbiguousId {
            prefix: "pkg_3466".into(),
            kind: "package",
            candidates: vec![relay_wire::error::IdCandidate {
                id: "pkg_3466fa…".into(),
                summary: "Cache the embeddings".into(),
                created_at: "2026-01-01T00:00:00Z".into(),
            }],
            more: 1,
        },
        Error::PackageNotFound("pkg_…".into()),
        Error::SourcePackageNotFound {
            fact_id: "fact_…".into(),
            package_id: "pkg_…".into(),
        },
        Error::ProjectNotFound("demo".into()),
        Error::DuplicatePackageId("pkg_…".into()),
        Error::ProjectExists("demo".into()),
        Error::ProjectArchived("demo".into()),
        Error::FactNotFound {
            subject: "api".into(),
            predicate: "status".into(),
            at: None,
        },
        Error::Hidden {
            code: Code::PackageNotFound,
            message: "package `pkg_…` was retracted; --include-retracted shows it".into(),
        },
        Error::FactChainConflict(
            "the new fact would start before the current one of api/status".into(),
        ),
        Error::InvalidTransition {
            package_id: "pkg_…".into(),
            from: "complete".into(),
            action: "flag".into(),
        },
        Error::SessionNotFound("coral-heron".into()),
        Error::SessionEnded("sess_…".into()),
        Error::CallsignInUse("coral-heron".into()),
        Error::AmbiguousCallsign {
            callsign: "twin-fox".into(),
            project: "demo".into(),
            sessions: vec![SessionRef {
                id: "sess_…".into(),
                actor_id: "ada".into(),
                actor_type: "human".into(),
                started_at: "2026-01-01T00:00:00Z".into(),
            }],
        },
        Error::SecretDetected {
            field: "content_md".into(),
            rule: "aws-access-key",
            preview: "AKIA…".into(),
        },
        Error::SecretsFound(2),
        Error::StoreNotFound {
            searched_from: PathBuf::from("/home/ada/app"),
        },
        Error::SearchNotSupported("semantic search needs an embedding model: pass --model".into()),
        Error::Integrity(".relay/config.toml is not valid: …; fix it by hand".into()),
        Error::Unauthenticated("this server needs a token".into()),
        Error::Unauthorized("the token may not write to `demo`".into()),
        Error::TokenNotFound("tok_…".into()),
        Error::LockTimeout {
            path: PathBuf::from(".relay/local/locks/demo.lock"),
            waited_ms: 30_000,
        },
        Error::io("cannot read .relay/projects.ndjson", io()),
    ];
    for e in &relay {
        covered(e);
    }
    let mut all: Vec<CliError> = relay.into_iter().map(CliError::Relay).collect();
    all.push(CliError::Usage(
        "no project selected: pass --project ID, set RELAY_PROJECT, or set default_project".into(),
    ));
    all
}

/// What only the HTTP server refuses (the CLI never meets these): one of each, as its code and
/// message.
fn http_only() -> Vec<(Code, String)> {
    [
        RequestError::NoRoute {
            method: "GET".into(),
            path: "/v2".into(),
        },
        RequestError::MethodNotAllowed {
            method: "PUT".into(),
            path: "/v1/conformance".into(),
        },
        RequestError::PayloadTooLarge { limit: 4 << 20 },
        RequestError::UnsupportedMediaType("`text/plain`".into()),
        RequestError::RequestTimeout { seconds: 30 },
        RequestError::MisdirectedRequest("evil.example is not this server's name".into()),
        RequestError::BadRequest(
            "the request has more than one Host header; send exactly one".into(),
        ),
        RequestError::UriTooLong { limit: 65_534 },
        RequestError::HeaderFieldsTooLarge {
            fields: 100,
            bytes: 417_792,
        },
        RequestError::TooManyRequests {
            why: "this caller already holds 64 open event streams, its most \
                  (relay serve --max-streams-per-caller); close one first"
                .into(),
            retry_after: 5,
        },
        RequestError::ServerBusy {
            why: "the server holds 1024 open event streams, its most (relay serve --max-streams)"
                .into(),
            retry_after: 5,
        },
    ]
    .iter()
    .map(|e| (e.code(), e.to_string()))
    .collect()
}

/// Does nothing, but does not compile when [`Error`] gains a kind [`samples`] lacks.
fn covered(e: &Error) {
    match e {
        Error::InvalidSchema(_)
        | Error::MalformedJson { .. }
        | Error::InvalidInput(_)
        | Error::AmbiguousId { .. }
        | Error::PackageNotFound(_)
        | Error::SourcePackageNotFound { .. }
        | Error::ProjectNotFound(_)
        | Error::DuplicatePackageId(_)
        | Error::ProjectExists(_)
        | Error::ProjectArchived(_)
        | Error::FactNotFound { .. }
        | Error::Hidden { .. }
        | Error::FactChainConflict(_)
        | Error::InvalidTransition { .. }
        | Error::SessionNotFound(_)
        | Error::SessionEnded(_)
        | Error::CallsignInUse(_)
        | Error::AmbiguousCallsign { .. }
        | Error::SecretDetected { .. }
        | Error::SecretsFound(_)
        | Error::StoreNotFound { .. }
        | Error::SearchNotSupported(_)
        | Error::Integrity(_)
        | Error::Unauthenticated(_)
        | Error::Unauthorized(_)
        | Error::NotTheTokensActor { .. }
        | Error::TokenNotFound(_)
        | Error::LockTimeout { .. }
        | Error::Io { .. } => {}
    }
}

/// Each code: the exit codes its errors end the CLI with, and one message, the first sample's.
fn by_code() -> BTreeMap<&'static str, (BTreeSet<u8>, String)> {
    let mut out: BTreeMap<&'static str, (BTreeSet<u8>, String)> = BTreeMap::new();
    for e in samples() {
        let (code, message, exit) = e.describe();
        let entry = out
            .entry(code)
            .or_insert_with(|| (BTreeSet::new(), message));
        entry.0.insert(exit);
    }
    out
}

/// The error codes the spec defines, and where: every other code is relay's extension
/// (§12.4 lets an implementation extend the protocol), named where the spec names none.
pub const SPEC_CODES: [(Code, &str); 8] = [
    (Code::InvalidSchema, "§8.1"),
    (Code::InvalidTransition, "§8.5"),
    (Code::PackageNotFound, "§8.2, §8.5"),
    (Code::DuplicatePackageId, "§8.1, §11.2"),
    (Code::ProjectArchived, "§8.1"),
    (Code::Unauthorized, "§8.1"),
    (Code::NotImplemented, "§10.2"),
    (Code::SearchNotSupported, "§8.2"),
];

/// A message of several lines (an ambiguous short id's candidates) as one table cell.
fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message.lines().map(str::trim).collect();
    lines.join("; ")
}

/// Where the spec defines `c`, or that it is relay's extension.
fn defined_by(c: Code) -> String {
    match SPEC_CODES.iter().find(|(spec, _)| *spec == c) {
        Some((_, section)) => format!("spec {section}"),
        None => "relay (extension)".into(),
    }
}

pub fn page() -> String {
    let mut out = String::from("# Exit codes and error codes\n\n## Exit codes\n\n");
    out.push_str(&text(
        "What relay exits with. With --json, an error is also printed on stderr as one object, \
         {\"error\": CODE, \"message\": TEXT}, CODE being one of the error codes below.",
    ));
    out.push_str("\n\n");
    let rows: Vec<Vec<String>> = EXIT_STATUS
        .iter()
        .map(|(exit, meaning)| vec![exit.to_string(), text(meaning)])
        .collect();
    out.push_str(&table(&["Exit", "Meaning"], &rows));

    out.push_str("\n## Error codes\n\n");
    out.push_str(&text(
        "Every error code relay names, the spec's (§8, §10.2) first: where it is defined, the \
         exit code the CLI ends with, the HTTP status relay serve answers with (its body is \
         the same {\"error\", \"message\"} object), and an example of the message. MCP tools \
         report the same codes in a tool result marked isError. The spec defines eight codes; \
         the others are relay's extensions (§12.4), used only where none of the spec's fits: \
         a client written for another implementation can go by the HTTP status, which is the \
         one HTTP names the failure by.",
    ));
    out.push_str("\n\n");
    let found = by_code();
    let rows: Vec<Vec<String>> = Code::ALL
        .iter()
        .map(|c| {
            let (exits, message) = match found.get(c.as_str()) {
                Some((exits, m)) => {
                    let e: Vec<String> = exits.iter().map(u8::to_string).collect();
                    (e.join(", "), text(&one_line(m)))
                }
                None => match http_only().into_iter().find(|(code, _)| code == c) {
                    Some((_, message)) => ("— (HTTP only)".to_string(), text(&message)),
                    None => ("—".to_string(), text("relay never reports it")),
                },
            };
            vec![
                code(c.as_str()),
                defined_by(*c),
                exits,
                c.http_status().to_string(),
                message,
            ]
        })
        .collect();
    out.push_str(&table(
        &["Code", "Defined by", "Exit", "HTTP", "Example message"],
        &rows,
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_codes_come_first_and_the_rest_are_extensions() {
        let spec: Vec<Code> = SPEC_CODES.iter().map(|(c, _)| *c).collect();
        assert_eq!(&Code::ALL[..spec.len()], spec.as_slice());
        assert_eq!(defined_by(Code::InvalidSchema), "spec §8.1");
        assert_eq!(defined_by(Code::NotFound), "relay (extension)");
        let page = page();
        assert!(
            page.contains("| `not_implemented` | spec §10.2 |"),
            "{page}"
        );
        assert!(
            page.contains("| `secret_detected` | relay (extension) |"),
            "{page}"
        );
    }

    #[test]
    fn every_code_but_not_implemented_has_an_error_and_one_exit_code() {
        let found = by_code();
        for c in Code::ALL {
            match found.get(c.as_str()) {
                Some((exits, _)) => assert_eq!(exits.len(), 1, "{c}: {exits:?}"),
                None => assert!(
                    *c == Code::NotImplemented || http_only().iter().any(|(code, _)| code == c),
                    "no sample error has code {c}"
                ),
            }
        }
        assert_eq!(found["usage"].0, BTreeSet::from([exit::USAGE]));
        assert_eq!(
            found["lock_timeout"].0,
            BTreeSet::from([exit::LOCK_TIMEOUT])
        );
    }
}
