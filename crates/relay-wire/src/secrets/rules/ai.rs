//! AI services and data platforms: Anthropic, OpenAI, Hugging Face, Groq, Replicate,
//! Perplexity, xAI, Cohere, Private AI, ClickHouse Cloud, PlanetScale, Supabase, Algolia,
//! MaxMind, Mapbox, Airtable, Notion, Contentful, Linear.

use super::{Rule, mixed_case, named, named_as, rule};

/// Not the name of an SSH security-key algorithm (`sk-ssh-ed25519@openssh.com`).
fn not_ssh_algorithm(secret: &str) -> bool {
    !secret.starts_with("sk-ssh-") && !secret.starts_with("sk-ecdsa-")
}

pub(super) const RULES: &[Rule] = &[
    rule(
        "anthropic-api-key",
        "Anthropic API and admin keys (`sk-ant-…`)",
        &["sk-ant-"],
        r"(?-u:\b)sk-ant-[A-Za-z0-9_\-]{20,}",
    ),
    Rule {
        check: not_ssh_algorithm,
        ..rule(
            "openai-api-key",
            "OpenAI API keys (`sk-…`, `sk-proj-…`, `sk-svcacct-…`, `sk-admin-…`)",
            &["sk-"],
            r"(?-u:\b)sk-(proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
        )
    },
    rule(
        "huggingface-token",
        "Hugging Face access tokens (`hf_…`) and organization API tokens (`api_org_…`)",
        &["hf_", "api_org_"],
        r"(?-u:\b)hf_[A-Za-z0-9]{30,}(?-u:\b)|(?-u:\b)api_org_[A-Za-z0-9]{34}(?-u:\b)",
    ),
    rule(
        "groq-api-key",
        "Groq API keys (`gsk_…`)",
        &["gsk_"],
        r"(?-u:\b)gsk_[A-Za-z0-9]{48,}(?-u:\b)",
    ),
    rule(
        "replicate-api-token",
        "Replicate API tokens (`r8_…`)",
        &["r8_"],
        r"(?-u:\b)r8_[A-Za-z0-9]{37}(?-u:\b)",
    ),
    rule(
        "perplexity-api-key",
        "Perplexity API keys (`pplx-…`)",
        &["pplx-"],
        r"(?-u:\b)pplx-[A-Za-z0-9]{48}(?-u:\b)",
    ),
    rule(
        "xai-api-key",
        "xAI API keys (`xai-…`)",
        &["xai-"],
        r"(?-u:\b)xai-[A-Za-z0-9]{80}(?-u:\b)",
    ),
    named(
        "cohere-api-key",
        "Cohere API keys (40 characters assigned to a `cohere` or `co_api_key` name)",
        &["cohere", "co_api_key"],
        r"[A-Za-z0-9]{40}",
    ),
    named(
        "privateai-api-key",
        "Private AI API keys (32 characters assigned to a `private_ai` name)",
        &["private_ai", "private-ai", "privateai"],
        r"[A-Za-z0-9]{32}",
    ),
    Rule {
        check: mixed_case,
        ..rule(
            "clickhouse-cloud-api-secret",
            "ClickHouse Cloud API key secrets (`4b1d…`)",
            &["4b1d"],
            concat!(b64_start!(), r"(?P<s>4b1d[A-Za-z0-9]{38})", b64_end!()),
        )
    },
    rule(
        "planetscale-token",
        "PlanetScale service tokens, passwords and OAuth tokens (`pscale_tkn_`, `pscale_pw_`, `pscale_oauth_`)",
        &["pscale_"],
        r"(?-u:\b)pscale_(tkn|pw|oauth)_[A-Za-z0-9_.\-]{32,}",
    ),
    rule(
        "supabase-token",
        "Supabase access tokens (`sbp_…`)",
        &["sbp_"],
        r"(?-u:\b)sbp_[a-f0-9]{40}(?-u:\b)",
    ),
    named(
        "algolia-api-key",
        "Algolia API keys (32 hex digits assigned to an `algolia` name)",
        &["algolia"],
        r"[a-f0-9]{32}",
    ),
    rule(
        "maxmind-license-key",
        "MaxMind license keys (`…_mmk`)",
        &["_mmk"],
        r"(?-u:\b)[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk(?-u:\b)",
    ),
    rule(
        "mapbox-token",
        "Mapbox access tokens (`pk.eyJ1…`, `sk.eyJ1…`, `tk.eyJ1…`)",
        &[".eyJ1"],
        r"(?-u:\b)[pst]k\.eyJ1[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}",
    ),
    rule(
        "airtable-token",
        "Airtable personal access tokens (`pat….…`)",
        &["pat"],
        r"(?-u:\b)pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?-u:\b)",
    ),
    named(
        "airtable-token",
        "Airtable API keys of the older form (`key…` assigned to an `airtable` name)",
        &["airtable"],
        r"key[A-Za-z0-9]{14}",
    ),
    rule(
        "notion-token",
        "Notion integration tokens (`ntn_…`, and `secret_…` of the older form)",
        &["ntn_", "secret_"],
        r"(?-u:\b)ntn_[0-9]{11}[A-Za-z0-9]{35}(?-u:\b)|(?-u:\b)secret_[A-Za-z0-9]{43}(?-u:\b)",
    ),
    rule(
        "contentful-token",
        "Contentful personal access tokens (`CFPAT-…`)",
        &["CFPAT-"],
        r"(?-u:\b)CFPAT-[A-Za-z0-9_\-]{43}",
    ),
    named(
        "contentful-token",
        "Contentful delivery and preview API tokens assigned to a `contentful` name",
        &["contentful"],
        r"[A-Za-z0-9=_\-]{43}",
    ),
    rule(
        "linear-api-key",
        "Linear API keys (`lin_api_…`)",
        &["lin_api_"],
        r"(?-u:\b)lin_api_[A-Za-z0-9]{40}(?-u:\b)",
    ),
    // Not any `linear` name: a linear layer's MD5 digest is 32 hex digits too.
    named_as(
        "linear-client-secret",
        "Linear OAuth client secrets (32 hex digits assigned to a `linear` secret or key name)",
        &["linear"],
        r"linear[A-Za-z0-9_.\-]{0,20}?(secret|key|token)",
        r"[a-f0-9]{32}",
    ),
];
