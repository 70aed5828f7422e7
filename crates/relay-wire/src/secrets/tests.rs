//! The scanner's tests: every kind of credential of `tests/data/secret_kinds.tsv` is found by
//! its rule, ordinary technical text is not, and member names are scanned like values.

use super::*;
use crate::tree::Json;

fn rules(text: &str) -> Vec<&'static str> {
    find(text).iter().map(|f| f.rule).collect()
}

include!("../../../../tests/data/secret_kinds.rs");

#[test]
fn each_kind_is_found_by_its_rule_alone_in_any_surroundings() {
    let kinds = kinds();
    assert!(kinds.len() >= 200, "{} kinds", kinds.len());
    for (kind, rule, sample) in &kinds {
        keywords::assert_both_ways_agree(sample);
        for text in [
            sample.to_string(),
            format!("deploy with {sample} please"),
            format!("{{\"note\": \"{sample}\"}}"),
            format!("line one\n{sample}\nline three"),
        ] {
            assert_eq!(rules(&text), [*rule], "{kind}: {text}");
        }
    }
    // Every rule id is shown to catch a kind, and every rule (an id may have several) is
    // the one that finds some sample.
    for id in rule_ids() {
        assert!(kinds.iter().any(|k| k.1 == id), "no kind for rule {id}");
    }
    for (i, rule) in RULES.iter().enumerate() {
        let m = matcher(i).expect("compiles");
        assert!(
            kinds
                .iter()
                .any(|(_, id, sample)| *id == rule.id
                    && m.is_match(sample.as_bytes()).unwrap_or(false)),
            "no sample of {} matches its rule #{i}: {}",
            rule.id,
            rule.regex()
        );
    }
}

#[test]
fn a_member_name_is_scanned_and_its_value_read_with_it() {
    let (token, rest) = ("ghp_", "Fake0Test1Tok2Not3Real4Abc5Xyz6Qrs7Uvw8");
    let key = format!("{token}{rest}");
    let mut m = serde_json::json!({"title": "t", "x-env": {key.clone(): "on", "other": 1}});
    let map = m.as_object_mut().unwrap();
    let located = scan_record(map);
    assert_eq!(located.len(), 1);
    assert_eq!(located[0].rule, "github-token");
    // The path shows the name redacted, never the credential.
    assert_eq!(located[0].field, "x-env.<REDACTED:github-token>");
    assert!(!located[0].preview.contains(rest));
    redact_record(map);
    assert_eq!(
        serde_json::Value::Object(map.clone()).to_string(),
        r#"{"title":"t","x-env":{"<REDACTED:github-token>":"on","other":1}}"#
    );
    // A top-level name too; two names that redact alike stay two members.
    let mut m = serde_json::json!({key.clone(): 1, format!("{key}9"): 2});
    let map = m.as_object_mut().unwrap();
    assert_eq!(scan_record(map).len(), 2);
    redact_record(map);
    let names: Vec<&String> = map.keys().collect();
    assert_eq!(
        names,
        ["<REDACTED:github-token>", "<REDACTED:github-token> (2)"]
    );

    // A value is read with its name: a key with no prefix of its own is found under a name
    // that says whose it is, and only there.
    let value = "Fake0Test1Tok2Not3Real4Abc5Xyz6Qrs7Uvw8J";
    let m = serde_json::json!({"x-ci": {"CLOUDFLARE_API_TOKEN": value, "build": value}});
    let located = scan_record(m.as_object().unwrap());
    assert_eq!(located.len(), 1);
    assert_eq!(
        (located[0].field.as_str(), located[0].rule),
        ("x-ci.CLOUDFLARE_API_TOKEN", "cloudflare-api-key")
    );
    let found = find_in_member("password", "Zx9#qL2!vR7p");
    assert_eq!(
        (found[0].rule, found[0].start, found[0].end),
        ("generic-secret", 0, 12)
    );
    assert!(find_in_member("title", "Zx9#qL2!vR7p").is_empty());
    assert!(find_in_member("token_count", "123456789012").is_empty());

    // Both trees say the same.
    for (text, expected) in [
        (format!(r#"{{"a": {{"{key}": 1}}}}"#), true),
        (format!(r#"{{"a": [{{"b": "{key}"}}]}}"#), true),
        (r#"{"password": "Zx9#qL2!vR7p"}"#.to_string(), true),
        (
            r#"{"a": {"b": "c"}, "token_ttl": "3600"}"#.to_string(),
            false,
        ),
    ] {
        let tree = Json::parse(&text).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(any_in(&tree), expected, "{text}");
        assert_eq!(any_in(&value), expected, "{text}");
        let Value::Object(map) = value else { panic!() };
        assert_eq!(!scan_record(&map).is_empty(), expected, "{text}");
    }
}

#[test]
fn each_rule_finds_its_kind() {
    let cases = [
        ("key AKIAIOSFODNN7EXAMPLE here", "aws-access-key-id"),
        (
            "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "aws-secret-access-key",
        ),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
            "github-token",
        ),
        ("glpat-abcdefghij0123456789", "gitlab-token"),
        ("xoxb-123456789012-abcdefghijkl", "slack-token"),
        ("sk-proj-abcdefghijklmnopqrstuvwxyz012345", "openai-api-key"),
        ("AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "google-api-key"),
        ("AIzaSyA-abcdefghijklmnopqrstuvwxyz0123-", "google-api-key"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----\nabc", "private-key"),
        ("-----BEGIN PRIVATE KEY-----\nabc", "private-key"),
        ("Api_Key: 'f8Kq2#Lm9!xZ'", "generic-secret"),
        ("token: 'f8Kq2#Lm9!xZ'", "generic-secret"),
        ("API-KEY=8f14e45fceea167a5a36dedd4bea2543", "generic-secret"),
        ("postgresql://u:p4ssw0rd@h/db", "database-url"),
        ("rediss://default:Zx9qL2vR7p@cache:6380", "database-url"),
        (
            "git clone https://bob:Tr0ub4dor@git.internal/r.git",
            "url-credentials",
        ),
        (
            "authorization=\"bearer abcdef123456789\"",
            "authorization-header",
        ),
    ];
    for (text, rule) in cases {
        assert_eq!(rules(text), [rule], "{text}");
    }
}

#[test]
fn only_the_secret_of_an_assignment_a_url_or_a_header_is_redacted() {
    for (text, redacted) in [
        (
            "postgres://app:S3cretPass@db:5432/app",
            "postgres://app:<REDACTED:database-url>@db:5432/app",
        ),
        (
            "see https://user:pass@host/x",
            "see https://user:<REDACTED:url-credentials>@host/x",
        ),
        (
            "-H 'Authorization: Bearer 4f9Kq2LmZx8Rt7Vb3NcY1pWs'",
            "-H 'Authorization: Bearer <REDACTED:authorization-header>'",
        ),
        (
            "AccountName=a;AccountKey=dGhpcyBpcyBub3QgYSByZWFsIGtleSBidXQgaXQgaXMgbG9uZw==;x=y",
            "AccountName=a;AccountKey=<REDACTED:azure-storage-key>;x=y",
        ),
        (
            "api_key = \"8f14e45fceea167a5a36dedd4bea2543\"",
            "api_key = \"<REDACTED:generic-secret>\"",
        ),
        (
            "FASTLY_API_TOKEN=\"Fake0Test1Tok2Not3Real4Abc5Xyz67\" # ci",
            "FASTLY_API_TOKEN=\"<REDACTED:fastly-api-token>\" # ci",
        ),
        (
            "curl -u admin:Fake0Pass1Word https://h",
            "curl -u admin:<REDACTED:curl-user-password> https://h",
        ),
    ] {
        assert_eq!(redact(text, &find(text)), redacted, "{text}");
    }
}

#[test]
fn every_rule_compiles_and_fits_the_rule_set() {
    assert!(rule_ids().len() >= 140, "{} ids", rule_ids().len());
    assert!(
        RULES.len() <= keywords::RuleSet::CAPACITY,
        "{} rules",
        RULES.len()
    );
    for (i, rule) in RULES.iter().enumerate() {
        assert!(matcher(i).is_some(), "{}: {}", rule.id, rule.regex());
        assert!(!rule.keywords.is_empty(), "{} has keywords", rule.id);
    }
}

/// A deterministic stream of bytes (xorshift), for binary-looking fixtures.
fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let n =
            chunk.iter().fold(0u32, |acc, b| acc << 8 | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
        out.push_str(&"=".repeat(3 - chunk.len()));
    }
    out
}

#[test]
fn ordinary_text_is_not_a_secret() {
    let cases = [
        "sha256:0efe5d06aaaaf2dc735b3f9ce7cfc1a0f7cd715491ab61d991f57be1d4c0db33",
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
        "token=9fceb02d0ae598e95dc970b74767f19372d61af8",
        "id 123e4567-e89b-12d3-a456-426614174000",
        "secret=123e4567-e89b-12d3-a456-426614174000",
        "pkg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d and token=pkg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
        "VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==",
        "The password reset flow now rotates the session token after login.",
        "Users must set a password: at least twelve characters.",
        "password=changeme123 is the documented default for the example",
        "api_key: ${OPENAI_API_KEY}",
        "Ask the skeptic; task-list items; desk-top",
        // URLs without a password, with a placeholder, or a port.
        "https://github.com/org/repo and ssh://git@github.com:22/org/repo.git",
        "postgres://app@db:5432/app, postgres://app:${DB_PASSWORD}@db/app",
        "mysql://root:<password>@localhost/shop; https://user:****@host",
        "http://localhost:8080/path and http://proxy:3128@upstream",
        // Headers that name a variable or a placeholder.
        "curl -H \"Authorization: Bearer $TOKEN\" -H 'Authorization: Bearer <token>'",
        "Authorization: Bearer YOUR_API_KEY_HERE",
        "curl -u $USER:$PASS https://h; curl -u USER:PASSWORD https://h; curl --user me:password x",
        // Short hex, a digest's length, and ordinary words near a keyword.
        "token=9fceb02d0ae598e9 and api_key=0efe5d06aaaaf2dc735b3f9ce7cfc1a0f7cd715491ab61d991f57be1d4c0db33",
        "key-value store; the hf_ prefix; npm_config_cache; SKU 12; dp.pt. notes",
        "a monkey-patched keyboard-shortcut-customisation-for-everyone-today",
        "ratio 12345678:AA is odd; times 10:30 and 20260101:120000",
        // Provider names next to values that are not their keys.
        "sonar.scm.revision=9fceb02d0ae598e95dc970b74767f19372d61af8",
        "discord_channel: general; slack_channel: #ops; stripe_mode: test_mode_enabled",
        "dropbox_folder: sharedprojects; linkedin_handle: janedoe; jira_project: PLATFORM",
        "linear_layer_md5 = 9e107d9d372bb6826bd81d3542a419d6",
        "datadog_service: checkout-api; heroku_app: my-app-staging; okta_domain: dev-123.okta.com",
        // Versions, paths, code and logs.
        "relay 0.1.0, serde 1.0.219, v2.3.4-rc.1+build.5, Node 20.11.1; go1.22.3 linux/amd64",
        "fn main() { let token = parse(&args)?; let password_hash = hash(&input); }",
        "const apiKey = process.env.API_KEY; const secret = await vault.read('db/creds');",
        "if (token.length > 0 && password !== confirm) { throw new Error('mismatch'); }",
        "let line = format!(\"token={}\", t); let token = [`PREFIX`]; Token(token::TokenArgs)",
        "for token in (store.tokens()?.into_iter()) { secret = config.secret_key; }",
        "fn logon(token: LSA_UNICODE_STRING, password: PCWSTR) -> Result<char>>(input: &str)",
        "let secret: windows_sys::core::PCWSTR)>; token: paren_token; [self.token: persistence:))]",
        "2026-01-04T10:31:07Z INFO worker[3] retry=2 backoff_ms=250 queue=billing latency_ms=41",
        "E0104 10:31:07.123456  1 reflector.go:138] failed to list *v1.Secret: forbidden",
        "kind: Secret\nmetadata:\n  name: db\ntype: Opaque\nstringData:\n  host: db.internal\n",
        "kind: ConfigMap\ndata:\n  LOG_LEVEL: aW5mbw==\n",
        "/usr/local/lib/python3.12/site-packages/requests/adapters.py:589 in send",
        "docker pull ghcr.io/org/app@sha256:0efe5d06aaaaf2dc735b3f9ce7cfc1a0f7cd715491ab61d991f57be1d4c0db33",
        "t1.micro and t1.small instances; API-Gateway; pat.tern; ops_eyJ; 4b1d is a hex prefix",
        "The access token endpoint returns an access_token and a refresh_token; see RFC 6749.",
        "key types: sk-ssh-ed25519-cert-v01@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com",
        "password = _splitpasswd(user); token: self.implicit_grant} secret=request.owner_key):",
        "token_file = /var/run/secrets/kubernetes.io/serviceaccount/token; secret: ~/.config/app",
        "zeros: AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ];
    for text in cases {
        assert!(find(text).is_empty(), "{text}: {:?}", find(text));
        keywords::assert_both_ways_agree(text);
    }
    // Digests, ids and encoded binaries in bulk: SHA-1 and SHA-256 hex, UUIDs, and base64
    // images of several sizes.
    for seed in 1..=8u64 {
        let data = bytes(seed, 4096 * seed as usize);
        let hex: String = data.iter().map(|b| format!("{b:02x}")).collect();
        let digests: String = hex
            .as_bytes()
            .chunks(64)
            .map(|c| {
                format!(
                    "sha256:{} {} ",
                    String::from_utf8_lossy(c),
                    String::from_utf8_lossy(&c[..40])
                )
            })
            .collect();
        let uuids: String = hex
            .as_bytes()
            .chunks(32)
            .filter(|c| c.len() == 32)
            .map(|c| {
                let c = String::from_utf8_lossy(c);
                format!(
                    "{}-{}-{}-{}-{}\n",
                    &c[..8],
                    &c[8..12],
                    &c[12..16],
                    &c[16..20],
                    &c[20..]
                )
            })
            .collect();
        let image = format!("<img src=\"data:image/png;base64,{}\">", base64(&data));
        for text in [&digests, &uuids, &image] {
            assert!(find(text).is_empty(), "seed {seed}: {:?}", find(text));
        }
    }
}

#[test]
fn redaction_and_previews_never_show_the_secret() {
    let text = "use AKIAIOSFODNN7EXAMPLE then password=Zx9#qL2!vR7p.";
    let found = find(text);
    assert_eq!(
        redact(text, &found),
        "use <REDACTED:aws-access-key-id> then password=<REDACTED:generic-secret>"
    );
    assert_eq!(preview("AKIAIOSFODNN7EXAMPLE"), "AKIA… (20 characters)");
    let mut m =
        serde_json::json!({"title": "t", "decisions_made": ["ok", "key AKIAIOSFODNN7EXAMPLE"]});
    let map = m.as_object_mut().unwrap();
    let located = scan_record(map);
    assert_eq!(located[0].field, "decisions_made[1]");
    redact_record(map);
    assert_eq!(map["decisions_made"][1], "key <REDACTED:aws-access-key-id>");
}
