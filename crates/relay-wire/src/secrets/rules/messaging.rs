//! Chat, mail and social platforms: Slack, Discord, Telegram, Microsoft Teams, Twilio,
//! SendGrid, Mailgun, Mailchimp, Brevo (Sendinblue), MessageBird, Sendbird, Mattermost,
//! Gitter, Intercom, Twitch, Twitter (X), Facebook, LinkedIn, Zendesk, HubSpot, Asana,
//! Typeform, Beamer.

use super::{Rule, has_digit, named, named_as, random_token, rule};

pub(super) const RULES: &[Rule] = &[
    rule(
        "slack-token",
        "Slack bot, user, workspace, app-level and configuration tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxe-`, `xapp-` …) and webhooks (`hooks.slack.com`)",
        &["xox", "xapp-", "hooks.slack.com"],
        r"(?-u:\b)(xoxe\.)?xox[abposre]-[A-Za-z0-9\-]{10,}|(?-u:\b)xapp-[0-9]-[A-Za-z0-9\-]{20,}|https://hooks\.slack\.com/(services|workflows|triggers)/T[A-Za-z0-9]+/[AB0-9][A-Za-z0-9]+/[A-Za-z0-9]+",
    ),
    rule(
        "discord-webhook",
        "Discord webhook URLs",
        &["/webhooks/"],
        r"https://(ptb\.|canary\.)?discord(app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_\-]{30,}",
    ),
    named(
        "discord-token",
        "Discord bot tokens and client secrets assigned to a `discord` name",
        &["discord"],
        r"[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}|[A-Za-z0-9_\-]{32}|[a-f0-9]{64}",
    ),
    named_as(
        "discord-token",
        "Discord client ids (a snowflake assigned to a `discord` client or application id name)",
        &["discord"],
        r"discord[A-Za-z0-9_.\-]{0,12}?(client|app|application)[_.\-]?id",
        r"[0-9]{17,20}",
    ),
    rule(
        "telegram-bot-token",
        "Telegram bot tokens (`123456789:AA…`)",
        &[":AA"],
        r"(?-u:\b)[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}",
    ),
    rule(
        "microsoft-teams-webhook",
        "Microsoft Teams incoming webhook URLs (`….webhook.office.com/webhookb2/…`)",
        &[".webhook.office.com/"],
        r"https://[A-Za-z0-9\-]+\.webhook\.office\.com/webhookb2/[a-fA-F0-9\-]{36}@[a-fA-F0-9\-]{36}/IncomingWebhook/[A-Za-z0-9]{32}/[a-fA-F0-9\-]{36}",
    ),
    rule(
        "twilio-api-key",
        "Twilio API key SIDs (`SK…`)",
        &["SK"],
        r"(?-u:\b)SK[0-9a-fA-F]{32}(?-u:\b)",
    ),
    named(
        "twilio-api-key",
        "Twilio auth tokens and API secrets (32 characters assigned to a `twilio` name)",
        &["twilio"],
        r"[a-f0-9]{32}|[A-Za-z0-9]{32}",
    ),
    rule(
        "sendgrid-api-key",
        "SendGrid API keys (`SG.….…`)",
        &["SG."],
        r"(?-u:\b)SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}",
    ),
    Rule {
        check: has_digit,
        ..rule(
            "mailgun-api-key",
            "Mailgun private API keys (`key-…`) and public validation keys (`pubkey-…`)",
            &["key-"],
            r"(?-u:\b)(pub)?key-[0-9A-Za-z]{32}(?-u:\b)",
        )
    },
    named(
        "mailgun-api-key",
        "Mailgun webhook signing keys and private API keys assigned to a `mailgun` name",
        &["mailgun"],
        r"[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}|[a-f0-9]{32}",
    ),
    rule(
        "mailchimp-api-key",
        "Mailchimp API keys (`…-us12`)",
        &["-us"],
        r"(?-u:\b)[0-9a-f]{32}-us[0-9]{1,2}(?-u:\b)",
    ),
    rule(
        "brevo-api-key",
        "Brevo (Sendinblue) API and SMTP keys (`xkeysib-`, `xsmtpsib-`)",
        &["xkeysib-", "xsmtpsib-"],
        r"(?-u:\b)x(keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}(?-u:\b)",
    ),
    named(
        "messagebird-token",
        "MessageBird (Bird) access keys and client ids assigned to a `messagebird` name",
        &["messagebird", "message_bird", "message-bird"],
        concat!(r"[A-Za-z0-9]{25}|", uuid!()),
    ),
    named(
        "sendbird-token",
        "Sendbird API tokens (40 hex digits) and application ids (a UUID) assigned to a `sendbird` name",
        &["sendbird"],
        concat!(r"[a-f0-9]{40}|", uuid!()),
    ),
    named(
        "mattermost-token",
        "Mattermost access tokens (26 characters assigned to a `mattermost` name)",
        &["mattermost"],
        r"[a-z0-9]{26}",
    ),
    named(
        "gitter-token",
        "Gitter access tokens (40 characters assigned to a `gitter` name)",
        &["gitter"],
        r"[A-Za-z0-9_\-]{40}",
    ),
    named(
        "intercom-token",
        "Intercom access tokens (60 characters assigned to an `intercom` name)",
        &["intercom"],
        r"[A-Za-z0-9=_\-]{60}",
    ),
    named(
        "twitch-token",
        "Twitch API tokens and client secrets (30 characters assigned to a `twitch` name)",
        &["twitch"],
        r"[a-z0-9]{30}",
    ),
    Rule {
        check: random_token,
        ..rule(
            "twitter-token",
            "Twitter (X) app bearer tokens (`AAAAAAAAAAAAAAAAAAAAA…`)",
            &["AAAAAAAAAAAAAAAAAAAA"],
            concat!(
                b64_start!(),
                r"(?P<s>A{20,24}[A-Za-z0-9%]{60,120})",
                b64_end!()
            ),
        )
    },
    named(
        "twitter-token",
        "Twitter (X) API keys and secrets, access tokens and secrets assigned to a `twitter` name",
        &["twitter"],
        r"[0-9]{15,25}-[A-Za-z0-9]{20,40}|[A-Za-z0-9]{50}|[A-Za-z0-9]{45}|[A-Za-z0-9]{25}",
    ),
    Rule {
        check: random_token,
        ..rule(
            "facebook-token",
            "Facebook (Meta) user and page access tokens (`EAA…`)",
            &["EAA"],
            concat!(b64_start!(), r"(?P<s>EAA[A-Za-z0-9]{100,})", b64_end!()),
        )
    },
    named(
        "facebook-token",
        "Facebook (Meta) app secrets and access tokens assigned to a `facebook` name",
        &["facebook"],
        r"[a-f0-9]{32}|[0-9]{15,16}\|[A-Za-z0-9_\-]{27}",
    ),
    named(
        "linkedin-client-secret",
        "LinkedIn client ids (14 characters) and secrets (16) assigned to a `linkedin` name",
        &["linkedin", "linked_in", "linked-in"],
        r"[A-Za-z0-9]{16}|[A-Za-z0-9]{14}",
    ),
    named(
        "zendesk-secret-key",
        "Zendesk API tokens and secrets (40 characters assigned to a `zendesk` name)",
        &["zendesk"],
        r"[A-Za-z0-9]{40}",
    ),
    rule(
        "hubspot-token",
        "HubSpot private app tokens (`pat-na1-…`, `pat-eu1-…`)",
        &["pat-"],
        r"(?-u:\b)pat-(na|eu|ap)[0-9]-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}(?-u:\b)",
    ),
    named(
        "hubspot-token",
        "HubSpot API keys of the older form (a UUID assigned to a `hubspot` name)",
        &["hubspot"],
        uuid!(),
    ),
    rule(
        "asana-token",
        "Asana personal access tokens (`1/…:…`, `2/…/…:…`)",
        &["1/", "2/"],
        r"(?-u:\b)[12]/[0-9]{10,20}(/[0-9]{10,20})?:[a-f0-9]{32}(?-u:\b)",
    ),
    named(
        "asana-token",
        "Asana client ids (16 digits) and secrets (32 characters) assigned to an `asana` name",
        &["asana"],
        r"[0-9]{16}|[A-Za-z0-9]{32}",
    ),
    rule(
        "typeform-api-token",
        "Typeform personal access tokens (`tfp_…`)",
        &["tfp_"],
        r"(?-u:\b)tfp_[A-Za-z0-9_.=\-]{59}",
    ),
    named(
        "beamer-api-token",
        "Beamer API keys (`b_…` assigned to a `beamer` name)",
        &["beamer"],
        r"b_[A-Za-z0-9=_\-]{44}",
    ),
];
