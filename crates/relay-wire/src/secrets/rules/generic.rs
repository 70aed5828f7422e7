//! Rules for what any service's credential may look like where it is used: JSON Web Tokens,
//! passwords in URLs, Authorization headers, `curl -u`, Kubernetes secrets, NuGet and Sidekiq
//! configuration, and last, any secret-looking value assigned to a password, secret, token or
//! key name.

use super::{Rule, base64_jwt, command_password, not_placeholder, rule, secret_like, url_password};

pub(super) const RULES: &[Rule] = &[
    rule(
        "jwt",
        "JSON Web Tokens (`eyJ….eyJ….…`)",
        &["eyJ"],
        r"(?-u:\b)eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}",
    ),
    Rule {
        check: base64_jwt,
        ..rule(
            "jwt",
            "JSON Web Tokens encoded again in base64 (`ZXlK…`)",
            &["ZXlK"],
            concat!(
                b64_start!(),
                r"(?P<s>ZXlK[A-Za-z0-9+/]{40,}={0,2})",
                b64_end!()
            ),
        )
    },
    Rule {
        check: not_placeholder,
        ..rule(
            "database-url",
            "passwords in database URLs (postgres, mysql, mariadb, mongodb, redis, amqp, mssql, couchdb, clickhouse)",
            &["://"],
            r#"(?-u:\b)(postgres(ql)?|mysql|mariadb|mongodb(\+srv)?|rediss?|amqps?|mssql|sqlserver|couchdb|clickhouse)://[^\s:/?#@"'<>]*:(?P<s>[^\s/?#@"'<>]+)@"#,
        )
    },
    Rule {
        check: url_password,
        ..rule(
            "url-credentials",
            "passwords in any URL (`scheme://user:password@host`)",
            &["://"],
            r#"(?-u:\b)[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/?#@"'<>]+:(?P<s>[^\s/?#@"'<>]+)@[A-Za-z0-9\[]"#,
        )
    },
    Rule {
        fold: true,
        check: not_placeholder,
        ..rule(
            "authorization-header",
            "Authorization headers with a Bearer, Basic, token or Bot credential (as `curl -H` sends them, too)",
            &["authorization"],
            r"(?i)(?-u:\b)authorization\W{0,3}\s*(bearer|basic|token|bot)\s+(?P<s>[A-Za-z0-9._~+/\-]{12,}=*)",
        )
    },
    Rule {
        check: command_password,
        ..rule(
            "curl-user-password",
            "passwords given to curl (`curl -u user:password`, `--user`)",
            &["curl"],
            r#"(?-u:\b)curl[ \t](?:[^\n|;&]*?[ \t])?(?:-u|--user)(?:[ \t]+|=)?["']?[^\s:"'$]+:(?P<s>[^\s"']{3,})"#,
        )
    },
    Rule {
        check: not_placeholder,
        ..rule(
            "kubernetes-secret",
            "the data of Kubernetes Secret manifests (`kind: Secret` with `data:`)",
            &["Secret"],
            r#"kind:[ \t]*["']?Secret["']?[ \t]*\r?\n(?:[^\n]*\n){0,30}?[ \t]*data:[ \t]*\r?\n(?:[ \t]*#[^\n]*\n)*[ \t]+[A-Za-z0-9_.\-]+:[ \t]*["']?(?P<s>[A-Za-z0-9+/]{6,}={0,2})["']?[ \t]*(?:\r?\n|$)"#,
        )
    },
    Rule {
        check: not_placeholder,
        ..rule(
            "kubernetes-secret",
            "",
            &["Secret"],
            r#"(?:^|\n)[ \t]*data:[ \t]*\r?\n(?:[ \t]*#[^\n]*\n)*[ \t]+[A-Za-z0-9_.\-]+:[ \t]*["']?(?P<s>[A-Za-z0-9+/]{6,}={0,2})["']?[ \t]*\r?\n(?:[^\n]*\n){0,30}?[ \t]*kind:[ \t]*["']?Secret["']?(?:\s|$)"#,
        )
    },
    Rule {
        fold: true,
        check: not_placeholder,
        ..rule(
            "nuget-config-password",
            "clear-text passwords in NuGet.Config (`ClearTextPassword`)",
            &["cleartextpassword"],
            r#"(?i)<add\s+key\s*=\s*["']ClearTextPassword["']\s+value\s*=\s*["'](?P<s>[^"']+)["']"#,
        )
    },
    Rule {
        fold: true,
        ..rule(
            "sidekiq-secret",
            "Sidekiq Pro and Enterprise credentials (`BUNDLE_GEMS__CONTRIBSYS__COM`, `BUNDLE_ENTERPRISE__CONTRIBSYS__COM`)",
            &["contribsys"],
            r#"(?i)bundle_(enterprise|gems)__contribsys__com["']?[ \t]*[=:][ \t]*["']?(?P<s>[a-f0-9]{8}:[a-f0-9]{8})(?-u:\b)"#,
        )
    },
    // Last: any of the rules above names a credential better.
    Rule {
        fold: true,
        check: secret_like,
        ..rule(
            "generic-secret",
            "a high-entropy value (or 24 hex digits or more) assigned to a password, secret, token, API key or access key name (`password=`, `client_secret:`, `api_key = \"…\"`)",
            &[
                "password",
                "passwd",
                "pwd",
                "secret",
                "token",
                "api_key",
                "api-key",
                "apikey",
                "access_key",
                "access-key",
                "accesskey",
            ],
            r#"(?i)(password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key)(?-u:\b)["']?\s*[=:]\s*["']?(?P<s>[^\s"',;]{8,})"#,
        )
    },
];
