//! Payments, commerce, finance and other business services: Stripe, Square, Shopify, Plaid,
//! Flutterwave, Duffel, GoCardless, Coinbase, Kraken, KuCoin, Bittrex, Finicity, Finnhub,
//! EasyPost, Shippo, Lob, Etsy, Squarespace, Adobe, Dropbox, Frame.io, Freemius, FreshBooks,
//! Looker, RapidAPI, The New York Times, Flickr.

use super::{Rule, named, named_as, random_token, rule};

pub(super) const RULES: &[Rule] = &[
    rule(
        "stripe-live-key",
        "Stripe live secret and restricted keys (`sk_live_`, `rk_live_`)",
        &["_live_"],
        r"(?-u:\b)(sk|rk)_live_[A-Za-z0-9]{20,}(?-u:\b)",
    ),
    rule(
        "stripe-test-key",
        "Stripe test secret and restricted keys (`sk_test_`, `rk_test_`)",
        &["_test_"],
        r"(?-u:\b)(sk|rk)_test_[A-Za-z0-9]{20,}(?-u:\b)",
    ),
    rule(
        "stripe-webhook-secret",
        "Stripe webhook signing secrets (`whsec_…`)",
        &["whsec_"],
        r"(?-u:\b)whsec_[A-Za-z0-9+/]{32,}",
    ),
    rule(
        "square-token",
        "Square access tokens and OAuth secrets (`sq0atp-`, `sq0csp-`, `EAAA…`)",
        &["sq0atp-", "sq0csp-", "EAAA"],
        r"(?-u:\b)sq0(atp|csp)-[A-Za-z0-9_\-]{22,}|(?-u:\b)EAAA[A-Za-z0-9_\-]{60}(?-u:\b)",
    ),
    rule(
        "shopify-token",
        "Shopify access tokens, custom and private app tokens, shared secrets (`shpat_`, `shpca_`, `shppa_`, `shpss_`)",
        &["shpat_", "shpca_", "shppa_", "shpss_"],
        r"(?-u:\b)shp(at|ca|pa|ss)_[A-Za-z0-9]{32,}(?-u:\b)",
    ),
    rule(
        "plaid-token",
        "Plaid access tokens (`access-sandbox-…`, `access-production-…`)",
        &[
            "access-sandbox-",
            "access-development-",
            "access-production-",
        ],
        concat!(
            r"(?-u:\b)access-(sandbox|development|production)-",
            uuid!(),
            r"(?-u:\b)"
        ),
    ),
    named(
        "plaid-token",
        "Plaid client ids (24 hex digits) and secrets (30) assigned to a `plaid` name",
        &["plaid"],
        r"[a-f0-9]{24}|[a-f0-9]{30}",
    ),
    rule(
        "flutterwave-key",
        "Flutterwave public, secret and encryption keys (`FLWPUBK-`, `FLWSECK-`, `FLWSECK_TEST…`)",
        &["FLWPUBK", "FLWSECK"],
        r"(?-u:\b)FLW(PUBK|SECK)(_TEST)?-[a-f0-9]{32}-X(?-u:\b)|(?-u:\b)FLWSECK(_TEST)?[a-f0-9]{12}(?-u:\b)",
    ),
    rule(
        "duffel-api-token",
        "Duffel access tokens (`duffel_test_`, `duffel_live_`)",
        &["duffel_"],
        r"(?-u:\b)duffel_(test|live)_[A-Za-z0-9_\-=]{43}",
    ),
    named(
        "gocardless-api-token",
        "GoCardless access tokens (`live_…` assigned to a `gocardless` name)",
        &["gocardless"],
        r"live_[A-Za-z0-9_=\-]{40}",
    ),
    named(
        "coinbase-token",
        "Coinbase API keys and secrets assigned to a `coinbase` name",
        &["coinbase"],
        r"[A-Za-z0-9_\-]{64}",
    ),
    named(
        "kraken-token",
        "Kraken API keys and private keys assigned to a `kraken` name",
        &["kraken"],
        r"[A-Za-z0-9/=_+\-]{80,90}",
    ),
    named(
        "kucoin-token",
        "KuCoin API keys (24 hex digits) and secrets (a UUID) assigned to a `kucoin` name",
        &["kucoin"],
        concat!(r"[a-f0-9]{24}|", uuid!()),
    ),
    named(
        "bittrex-token",
        "Bittrex API keys and secrets (32 characters assigned to a `bittrex` name)",
        &["bittrex"],
        r"[A-Za-z0-9]{32}",
    ),
    named(
        "finicity-token",
        "Finicity app keys (32 hex digits) and partner secrets (20 characters) assigned to a `finicity` name",
        &["finicity"],
        r"[a-f0-9]{32}|[A-Za-z0-9]{20}",
    ),
    named(
        "finnhub-api-token",
        "Finnhub API keys (20 characters assigned to a `finnhub` name)",
        &["finnhub"],
        r"[A-Za-z0-9]{20}",
    ),
    rule(
        "easypost-api-key",
        "EasyPost production and test API keys (`EZAK…`, `EZTK…`)",
        &["EZAK", "EZTK"],
        r"(?-u:\b)EZ[AT]K[A-Za-z0-9]{54}(?-u:\b)",
    ),
    rule(
        "shippo-api-token",
        "Shippo live and test API tokens (`shippo_live_`, `shippo_test_`)",
        &["shippo_"],
        r"(?-u:\b)shippo_(live|test)_[a-f0-9]{40}(?-u:\b)",
    ),
    // `lob` as a word of its own: `blob` and `global` are not Lob.
    named_as(
        "lob-api-key",
        "Lob live and test API keys, secret and publishable (`live_…`, `test_pub_…` assigned to a `lob` name)",
        &["lob"],
        r"(?-u:\b)lob",
        r"(live|test)_pub_[a-f0-9]{31}|(live|test)_[a-f0-9]{35}",
    ),
    named(
        "etsy-token",
        "Etsy API keys (24 characters assigned to an `etsy` name)",
        &["etsy"],
        r"[a-z0-9]{24}",
    ),
    named(
        "squarespace-token",
        "Squarespace API keys (a UUID assigned to a `squarespace` name)",
        &["squarespace"],
        uuid!(),
    ),
    rule(
        "adobe-client-secret",
        "Adobe client secrets (`p8e-…`)",
        &["p8e-"],
        r"(?-u:\b)p8e-[A-Za-z0-9_\-]{32}(?-u:\b)",
    ),
    named(
        "adobe-client-secret",
        "Adobe client ids (32 hex digits assigned to an `adobe` name)",
        &["adobe"],
        r"[a-f0-9]{32}",
    ),
    rule(
        "dropbox-token",
        "Dropbox short-lived access tokens (`sl.…`)",
        &["sl."],
        r"(?-u:\b)sl\.(u\.)?[A-Za-z0-9_\-]{130,}",
    ),
    Rule {
        check: random_token,
        ..rule(
            "dropbox-token",
            "Dropbox long-lived access tokens (`…AAAAAAAAAA…`)",
            &["AAAAAAAAAA"],
            concat!(
                b64_start!(),
                r"(?P<s>[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_\-=]{43})",
                b64_end!()
            ),
        )
    },
    named(
        "dropbox-token",
        "Dropbox app keys and secrets (15 characters assigned to a `dropbox` name)",
        &["dropbox"],
        r"[a-z0-9]{15}",
    ),
    rule(
        "frameio-api-token",
        "Frame.io developer tokens (`fio-u-…`)",
        &["fio-u-"],
        r"(?-u:\b)fio-u-[A-Za-z0-9_=\-]{64}",
    ),
    named(
        "freemius-secret-key",
        "Freemius secret keys (`sk_…` assigned to a `freemius` name)",
        &["freemius"],
        r"sk_[A-Za-z0-9<>;:\[\]{}()!@#$%^&*.,~+=?/_\-]{29}",
    ),
    named(
        "freshbooks-token",
        "FreshBooks access tokens (64 characters assigned to a `freshbooks` name)",
        &["freshbooks"],
        r"[A-Za-z0-9]{64}",
    ),
    named(
        "looker-client-secret",
        "Looker client ids (20 characters) and secrets (24) assigned to a `looker` name",
        &["looker"],
        r"[A-Za-z0-9]{24}|[A-Za-z0-9]{20}",
    ),
    named(
        "rapidapi-token",
        "RapidAPI keys (50 characters assigned to a `rapidapi` name)",
        &["rapidapi", "rapid_api", "rapid-api"],
        r"[A-Za-z0-9_\-]{50}",
    ),
    named(
        "nytimes-token",
        "The New York Times API keys (32 characters assigned to an `nytimes` name)",
        &[
            "nytimes",
            "new_york_times",
            "new-york-times",
            "newyorktimes",
        ],
        r"[A-Za-z0-9=_\-]{32}",
    ),
    named(
        "flickr-token",
        "Flickr API keys and secrets (32 characters assigned to a `flickr` name)",
        &["flickr"],
        r"[A-Za-z0-9]{32}",
    ),
];
