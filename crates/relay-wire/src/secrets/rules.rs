//! The credential rules: for each kind of credential relay refuses to store, a stable id, the
//! keywords one of which a text must hold before its pattern is tried, the pattern, and the
//! check the secret itself must pass (a placeholder, a digest or an id is not a secret).
//! Specific rules come first: where two match the same text, the first one names it.
//!
//! Word boundaries are ASCII ones, `(?-u:\b)`: credentials are ASCII, and a Unicode boundary
//! sends the regex engine to a slower path on any text that is not.

/// A rule: its id, the cheap keywords one of which must occur (case-sensitive unless `fold`),
/// its pattern (the secret is the group named `s` when it has one, else the whole match), and
/// what the secret must pass.
pub(super) struct Rule {
    pub id: &'static str,
    pub keywords: &'static [&'static str],
    pub fold: bool,
    pub pattern: &'static str,
    pub check: fn(&str) -> bool,
}

const fn rule(id: &'static str, keywords: &'static [&'static str], pattern: &'static str) -> Rule {
    Rule {
        id,
        keywords,
        fold: false,
        pattern,
        check: any,
    }
}

pub(super) const RULES: &[Rule] = &[
    rule(
        "private-key",
        &["PRIVATE KEY", "PuTTY-User-Key-File-"],
        r"-----BEGIN ((RSA|EC|DSA|OPENSSH|PGP|ENCRYPTED|SSH2 ENCRYPTED) )?PRIVATE KEY( BLOCK)?-----|PuTTY-User-Key-File-[23]: ?[a-z0-9\-]+",
    ),
    rule(
        "age-secret-key",
        &["AGE-SECRET-KEY-1"],
        r"AGE-SECRET-KEY-1[0-9A-Z]{58}",
    ),
    rule(
        "aws-access-key-id",
        &[
            "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA",
        ],
        r"(?-u:\b)(AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}(?-u:\b)",
    ),
    Rule {
        fold: true,
        ..rule(
            "aws-secret-access-key",
            &["aws"],
            r#"(?i)aws_?secret(_access)?_?key\W{0,5}[=:]\W{0,3}(?P<s>[A-Za-z0-9/+]{40})(?-u:\b)"#,
        )
    },
    rule(
        "github-token",
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        r"(?-u:\b)((ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?-u:\b)",
    ),
    rule(
        "gitlab-token",
        // One short keyword rather than each prefix: a search that finds nothing reads the
        // whole text, and the pattern's own literals find these as fast.
        &["gl", "GR1348941"],
        r"(?-u:\b)(glpat|glptt|gldt|glrt|glcbt|glft|glsoat|glimt)-[A-Za-z0-9_\-]{20,}|(?-u:\b)GR1348941[A-Za-z0-9_\-]{20,}",
    ),
    rule(
        "slack-token",
        &["xox", "xapp-", "hooks.slack.com"],
        r"(?-u:\b)xox[abposre]-[A-Za-z0-9\-]{10,}|(?-u:\b)xapp-[0-9]-[A-Za-z0-9\-]{20,}|https://hooks\.slack\.com/(services|workflows)/T[A-Za-z0-9]+/[AB][A-Za-z0-9]+/[A-Za-z0-9]+",
    ),
    rule(
        "stripe-live-key",
        &["_live_"],
        r"(?-u:\b)(sk|rk)_live_[A-Za-z0-9]{20,}(?-u:\b)",
    ),
    rule(
        "stripe-webhook-secret",
        &["whsec_"],
        r"(?-u:\b)whsec_[A-Za-z0-9+/]{32,}",
    ),
    rule(
        "anthropic-api-key",
        &["sk-ant-"],
        r"(?-u:\b)sk-ant-[A-Za-z0-9_\-]{20,}",
    ),
    rule(
        "openai-api-key",
        &["sk-"],
        r"(?-u:\b)sk-(proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
    ),
    // A key may end in `-`: no word boundary after it.
    rule(
        "google-api-key",
        &["AIza"],
        r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}",
    ),
    rule(
        "google-oauth-client-secret",
        &["GOCSPX-"],
        r"(?-u:\b)GOCSPX-[A-Za-z0-9_\-]{28}",
    ),
    rule(
        "google-oauth-token",
        &["ya29."],
        r"(?-u:\b)ya29\.[0-9A-Za-z_\-]{30,}",
    ),
    rule(
        "jwt",
        &["eyJ"],
        r"(?-u:\b)eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}",
    ),
    Rule {
        check: not_placeholder,
        ..rule(
            "database-url",
            &["://"],
            r#"(?-u:\b)(postgres(ql)?|mysql|mariadb|mongodb(\+srv)?|rediss?|amqps?|mssql|sqlserver|couchdb|clickhouse)://[^\s:/?#@"'<>]*:(?P<s>[^\s/?#@"'<>]+)@"#,
        )
    },
    Rule {
        check: url_password,
        ..rule(
            "url-credentials",
            &["://"],
            r#"(?-u:\b)[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/?#@"'<>]+:(?P<s>[^\s/?#@"'<>]+)@[A-Za-z0-9\[]"#,
        )
    },
    rule(
        "azure-storage-key",
        &["AccountKey=", "SharedAccessKey="],
        r"(?-u:\b)(AccountKey|SharedAccessKey)=(?P<s>[A-Za-z0-9+/]{40,}={0,2})",
    ),
    rule(
        "azure-client-secret",
        &["Q~"],
        r"(^|[^A-Za-z0-9_~.\-])(?P<s>[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34})",
    ),
    rule(
        "npm-token",
        &["npm_"],
        r"(?-u:\b)npm_[A-Za-z0-9]{36}(?-u:\b)",
    ),
    rule(
        "pypi-token",
        &["pypi-"],
        r"(?-u:\b)pypi-[A-Za-z0-9_\-]{32,}",
    ),
    rule(
        "sendgrid-api-key",
        &["SG."],
        r"(?-u:\b)SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}",
    ),
    Rule {
        check: has_digit,
        ..rule(
            "mailgun-api-key",
            &["key-"],
            r"(?-u:\b)key-[0-9A-Za-z]{32}(?-u:\b)",
        )
    },
    rule(
        "shopify-token",
        &["shpat_", "shpca_", "shppa_", "shpss_"],
        r"(?-u:\b)shp(at|ca|pa|ss)_[A-Za-z0-9]{32,}(?-u:\b)",
    ),
    rule(
        "digitalocean-token",
        &["_v1_"],
        r"(?-u:\b)do[opr]_v1_[A-Za-z0-9]{40,}(?-u:\b)",
    ),
    rule(
        "vault-token",
        &["hv"],
        r"(?-u:\b)hv[sbr]\.[A-Za-z0-9_\-]{24,}",
    ),
    rule(
        "telegram-bot-token",
        &[":AA"],
        r"(?-u:\b)[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}",
    ),
    Rule {
        fold: true,
        check: not_placeholder,
        ..rule(
            "authorization-header",
            &["authorization"],
            r"(?i)(?-u:\b)authorization\W{0,3}\s*(bearer|basic|token|bot)\s+(?P<s>[A-Za-z0-9._~+/\-]{12,}=*)",
        )
    },
    rule(
        "huggingface-token",
        &["hf_"],
        r"(?-u:\b)hf_[A-Za-z0-9]{30,}(?-u:\b)",
    ),
    rule(
        "twilio-api-key",
        &["SK"],
        r"(?-u:\b)SK[0-9a-fA-F]{32}(?-u:\b)",
    ),
    rule(
        "docker-hub-token",
        &["dckr_"],
        r"(?-u:\b)dckr_(pat|oat)_[A-Za-z0-9_\-]{27,}",
    ),
    rule(
        "databricks-token",
        &["dapi"],
        r"(?-u:\b)dapi[a-f0-9]{32}(-[0-9])?(?-u:\b)",
    ),
    rule(
        "postman-api-key",
        &["PMAK-"],
        r"(?-u:\b)PMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}(?-u:\b)",
    ),
    rule(
        "rubygems-api-key",
        &["rubygems_"],
        r"(?-u:\b)rubygems_[a-f0-9]{48}(?-u:\b)",
    ),
    rule(
        "pulumi-token",
        &["pul-"],
        r"(?-u:\b)pul-[a-f0-9]{40}(?-u:\b)",
    ),
    rule(
        "new-relic-key",
        &["NRAK-", "NRJS-", "NRII-"],
        r"(?-u:\b)NR(AK|JS|II)-[A-Z0-9]{19,32}(?-u:\b)",
    ),
    rule(
        "grafana-token",
        &["glsa_", "glc_"],
        r"(?-u:\b)glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?-u:\b)|(?-u:\b)glc_[A-Za-z0-9+/]{32,}={0,2}",
    ),
    rule(
        "alibaba-access-key-id",
        &["LTAI"],
        r"(?-u:\b)LTAI[A-Za-z0-9]{12,20}(?-u:\b)",
    ),
    rule(
        "square-token",
        &["sq0atp-", "sq0csp-"],
        r"(?-u:\b)sq0(atp|csp)-[A-Za-z0-9_\-]{22,}",
    ),
    rule(
        "discord-webhook",
        &["/webhooks/"],
        r"https://(ptb\.|canary\.)?discord(app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_\-]{30,}",
    ),
    rule(
        "linear-api-key",
        &["lin_api_"],
        r"(?-u:\b)lin_api_[A-Za-z0-9]{40}(?-u:\b)",
    ),
    rule(
        "mailchimp-api-key",
        &["-us"],
        r"(?-u:\b)[0-9a-f]{32}-us[0-9]{1,2}(?-u:\b)",
    ),
    rule(
        "groq-api-key",
        &["gsk_"],
        r"(?-u:\b)gsk_[A-Za-z0-9]{48,}(?-u:\b)",
    ),
    rule(
        "replicate-api-token",
        &["r8_"],
        r"(?-u:\b)r8_[A-Za-z0-9]{37}(?-u:\b)",
    ),
    rule(
        "perplexity-api-key",
        &["pplx-"],
        r"(?-u:\b)pplx-[A-Za-z0-9]{48}(?-u:\b)",
    ),
    rule(
        "xai-api-key",
        &["xai-"],
        r"(?-u:\b)xai-[A-Za-z0-9]{80}(?-u:\b)",
    ),
    rule(
        "planetscale-token",
        &["pscale_"],
        r"(?-u:\b)pscale_(tkn|pw|oauth)_[A-Za-z0-9_.\-]{32,}",
    ),
    rule(
        "supabase-token",
        &["sbp_"],
        r"(?-u:\b)sbp_[a-f0-9]{40}(?-u:\b)",
    ),
    rule(
        "doppler-token",
        &["dp."],
        r"(?-u:\b)dp\.(pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}(?-u:\b)",
    ),
    rule(
        "terraform-cloud-token",
        &[".atlasv1."],
        r"(?-u:\b)[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,70}",
    ),
    // Last: any of the rules above names a credential better.
    Rule {
        fold: true,
        check: secret_like,
        ..rule(
            "generic-secret",
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

fn any(_: &str) -> bool {
    true
}

fn has_digit(secret: &str) -> bool {
    secret.bytes().any(|b| b.is_ascii_digit())
}

/// Shannon entropy in bits per character.
fn entropy(s: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let n = s.chars().count() as f64;
    for c in s.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    counts
        .values()
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// Whether a value stands in for a secret rather than being one: `changeme`, `<token>`,
/// `${VAR}`, `****`, `your_key` …
fn placeholder(lower: &str) -> bool {
    [
        "changeme",
        "example",
        "redacted",
        "xxxx",
        "****",
        "your_",
        "your-",
        "<",
        "${",
        "{{",
        "%(",
        "env:",
        "null",
        "none",
        "undefined",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

fn not_placeholder(secret: &str) -> bool {
    !placeholder(&secret.to_ascii_lowercase())
}

/// A URL's password, unless it is a placeholder or a port-like number.
fn url_password(secret: &str) -> bool {
    not_placeholder(secret) && !secret.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a lowercase value is a digest or an id rather than a secret: a git object id or a
/// SHA-256 digest (40 or 64 hex digits, or `sha256:` and hex), a UUID, a relay id.
fn digest_or_id(lower: &str) -> bool {
    let hex = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit());
    let uuid = {
        let parts: Vec<&str> = lower.split('-').collect();
        parts.len() == 5
            && parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
            && parts.iter().all(|p| hex(p))
    };
    lower.strip_prefix("sha256:").is_some_and(hex)
        || (hex(lower) && matches!(lower.len(), 40 | 64))
        || uuid
        || ["pkg_", "fact_", "sess_"]
            .iter()
            .any(|p| lower.strip_prefix(p).is_some_and(hex))
}

/// Whether a value after `password=` looks like a real secret: long, varied, and not a
/// digest, an id, a placeholder or a reference. Hex digits are a key (many services issue
/// 32 of them) unless they are a digest's length, or fewer than 24.
fn secret_like(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    if placeholder(&lower) || digest_or_id(&lower) {
        return false;
    }
    if lower.bytes().all(|b| b.is_ascii_hexdigit()) {
        return lower.len() >= 24 && entropy(value) >= 3.0;
    }
    value.chars().count() >= 8
        && entropy(value) >= 3.0
        // Prose: a word is rarely a credential unless it mixes in digits or symbols.
        && value
            .chars()
            .any(|c| c.is_ascii_digit() || !c.is_alphanumeric())
}
