//! Private keys, and the keys of cloud and hosting platforms: AWS, Google Cloud, Azure,
//! Alibaba, DigitalOcean, Yandex, Cloudflare, Fastly, Heroku, Netlify, Fly.io, Scalingo,
//! OpenShift, Adafruit IO.

use super::{Rule, mixed_case, named, rule};

pub(super) const RULES: &[Rule] = &[
    rule(
        "private-key",
        "PEM private keys (RSA, EC, DSA, OpenSSH, PGP, encrypted), PuTTY key files",
        &["PRIVATE KEY", "PuTTY-User-Key-File-"],
        r"-----BEGIN ((RSA|EC|DSA|OPENSSH|PGP|ENCRYPTED|SSH2 ENCRYPTED) )?PRIVATE KEY( BLOCK)?-----|PuTTY-User-Key-File-[23]: ?[a-z0-9\-]+",
    ),
    rule(
        "age-secret-key",
        "age encryption identities (`AGE-SECRET-KEY-1…`)",
        &["AGE-SECRET-KEY-1"],
        r"AGE-SECRET-KEY-1[0-9A-Z]{58}",
    ),
    rule(
        "aws-access-key-id",
        "AWS access key ids (`AKIA`, `ASIA`, `ABIA`, `ACCA` and the other IAM prefixes)",
        &[
            "AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA",
        ],
        r"(?-u:\b)(AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}(?-u:\b)",
    ),
    Rule {
        fold: true,
        ..rule(
            "aws-secret-access-key",
            "AWS secret access keys assigned to `aws_secret_access_key`",
            &["aws"],
            r#"(?i)aws_?secret(_access)?_?key\W{0,5}[=:]\W{0,3}(?P<s>[A-Za-z0-9/+]{40})(?-u:\b)"#,
        )
    },
    rule(
        "aws-bedrock-api-key",
        "Amazon Bedrock API keys, long-term (`ABSK…`) and short-term (`bedrock-api-key-…`)",
        &["ABSK", "bedrock-api-key-"],
        concat!(
            b64_start!(),
            r"(?P<s>ABSK[A-Za-z0-9+/]{40,}={0,2}|bedrock-api-key-[A-Za-z0-9+/]{40,}={0,2})",
            b64_end!()
        ),
    ),
    // A key may end in `-`: no word boundary after it.
    rule(
        "google-api-key",
        "Google Cloud and Firebase API keys (`AIza…`)",
        &["AIza"],
        r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}",
    ),
    rule(
        "google-oauth-client-secret",
        "Google OAuth client secrets (`GOCSPX-…`)",
        &["GOCSPX-"],
        r"(?-u:\b)GOCSPX-[A-Za-z0-9_\-]{28}",
    ),
    rule(
        "google-oauth-token",
        "Google OAuth access tokens (`ya29.…`)",
        &["ya29."],
        r"(?-u:\b)ya29\.[0-9A-Za-z_\-]{30,}",
    ),
    rule(
        "azure-storage-key",
        "Azure storage and Service Bus keys in connection strings (`AccountKey=`, `SharedAccessKey=`)",
        &["AccountKey=", "SharedAccessKey="],
        r"(?-u:\b)(AccountKey|SharedAccessKey)=(?P<s>[A-Za-z0-9+/]{40,}={0,2})",
    ),
    rule(
        "azure-client-secret",
        "Microsoft Entra ID (Azure AD) client secrets (`…Q~…`)",
        &["Q~"],
        r"(^|[^A-Za-z0-9_~.\-])(?P<s>[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34})",
    ),
    rule(
        "alibaba-access-key-id",
        "Alibaba Cloud access key ids (`LTAI…`)",
        &["LTAI"],
        r"(?-u:\b)LTAI[A-Za-z0-9]{12,20}(?-u:\b)",
    ),
    named(
        "alibaba-secret-key",
        "Alibaba Cloud access key secrets (30 characters assigned to an `alibaba` or `aliyun` name)",
        &["alibaba", "aliyun"],
        r"[A-Za-z0-9]{30}",
    ),
    rule(
        "digitalocean-token",
        "DigitalOcean personal, OAuth and refresh tokens (`dop_v1_`, `doo_v1_`, `dor_v1_`)",
        &["dop_v1_", "doo_v1_", "dor_v1_"],
        r"(?-u:\b)do[opr]_v1_[A-Za-z0-9]{40,}(?-u:\b)",
    ),
    rule(
        "yandex-cloud-token",
        "Yandex Cloud API keys (`AQVN…`) and IAM tokens (`t1.…`)",
        &["AQVN", "t1."],
        r"(?-u:\b)AQVN[A-Za-z0-9_\-]{35,38}(?-u:\b)|(?-u:\b)t1\.[A-Za-z0-9_\-]+={0,2}\.[A-Za-z0-9_\-]{86}={0,2}",
    ),
    named(
        "yandex-cloud-token",
        "Yandex Cloud static access keys (`YC…` assigned to a `yandex` name)",
        &["yandex"],
        r"YC[A-Za-z0-9_\-]{38}",
    ),
    named(
        "cloudflare-api-key",
        "Cloudflare API tokens (40 characters) and global API keys (37 hex digits) assigned to a `cloudflare` name",
        &["cloudflare"],
        r"[A-Za-z0-9_\-]{40}|[a-f0-9]{37}",
    ),
    rule(
        "cloudflare-origin-ca-key",
        "Cloudflare Origin CA keys (`v1.0-…`)",
        &["v1.0-"],
        r"(?-u:\b)v1\.0-[a-f0-9]{24}-[a-f0-9]{146}(?-u:\b)",
    ),
    named(
        "fastly-api-token",
        "Fastly API tokens assigned to a `fastly` name",
        &["fastly"],
        r"[A-Za-z0-9_\-]{32}",
    ),
    rule(
        "heroku-api-key",
        "Heroku API keys (`HRKU-…`)",
        &["HRKU-"],
        r"(?-u:\b)HRKU-[A-Za-z0-9_\-]{40,70}(?-u:\b)",
    ),
    named(
        "heroku-api-key",
        "Heroku API keys of the older form (a UUID assigned to a `heroku` name)",
        &["heroku"],
        uuid!(),
    ),
    rule(
        "netlify-token",
        "Netlify personal access tokens (`nfp_…`)",
        &["nfp_"],
        r"(?-u:\b)nfp_[A-Za-z0-9]{36}(?-u:\b)",
    ),
    named(
        "netlify-token",
        "Netlify access tokens assigned to a `netlify` name",
        &["netlify"],
        r"[A-Za-z0-9_\-=]{40,46}",
    ),
    rule(
        "flyio-token",
        "Fly.io tokens (`fo1_…`, and macaroons `fm1r_`, `fm1a_`, `fm2_`)",
        &["fo1_", "fm1", "fm2_"],
        r"(?-u:\b)fo1_[A-Za-z0-9_\-]{43}|(?-u:\b)fm(1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3}",
    ),
    rule(
        "scalingo-api-token",
        "Scalingo API tokens (`tk-us-…`)",
        &["tk-us-"],
        r"(?-u:\b)tk-us-[A-Za-z0-9_\-]{48}(?-u:\b)",
    ),
    Rule {
        check: mixed_case,
        ..rule(
            "openshift-user-token",
            "OpenShift user tokens (`sha256~…`)",
            &["sha256~"],
            r"(?-u:\b)sha256~[A-Za-z0-9_\-]{43}(?-u:\b)",
        )
    },
    rule(
        "adafruit-api-key",
        "Adafruit IO keys (`aio_…`)",
        &["aio_"],
        r"(?-u:\b)aio_[A-Za-z0-9]{28}(?-u:\b)",
    ),
    named(
        "adafruit-api-key",
        "Adafruit IO keys assigned to an `adafruit` name",
        &["adafruit"],
        r"[A-Za-z0-9_\-]{32}",
    ),
];
