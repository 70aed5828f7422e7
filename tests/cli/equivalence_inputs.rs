//! The bad inputs of the transport-equivalence test (issue 57): for the operations every
//! door offers, a required member missing, a member of the wrong type, an unknown member, a
//! project that is not there or not the one selected, limits of 0 and over the maximum, and
//! numbers spelt `1e2`, `1E2`, `100` and `100.0`. Each is sent through every door and must
//! be answered alike, refusal code included. A case named `json:…` holds what only a JSON
//! door can say (a number where text is due, `true` for a value): the CLI, whose arguments
//! are all text, sits it out.

use serde_json::{Value, json};

use crate::equivalence::{Case, case};
use crate::transports::Op;

/// A JSON number spelt `text` exactly ([`crate::transports::raw_text`]).
fn n(text: &str) -> Value {
    json!(format!("#n:{text}"))
}

pub(crate) fn bad_inputs() -> Vec<Case> {
    use Op::*;
    let mut all = vec![
        // A required member missing.
        case("search_without_query", Search, json!({})),
        case(
            "json:facts_assert_without_predicate",
            FactsAssert,
            json!({"subject": "api", "value": "x"}),
        ),
        case(
            "json:facts_invalidate_without_predicate",
            FactsInvalidate,
            json!({"subject": "api"}),
        ),
        case(
            "review_flag_without_review_type",
            ReviewFlag,
            json!({"package_id": "{P2}"}),
        ),
        case("amp_search_without_query", AmpSearch, json!({})),
        // A member of the wrong type.
        case("deposit_title_number", Deposit, json!({"title": 5})),
        case(
            "deposit_tags_text",
            Deposit,
            json!({"title": "Tags", "tags": "db"}),
        ),
        case(
            "json:facts_assert_value_true",
            FactsAssert,
            json!({"subject": "api", "predicate": "owner", "value": true}),
        ),
        case(
            "facts_assert_confidence_text",
            FactsAssert,
            json!({"subject": "api", "predicate": "owner", "value": "ops", "confidence": "high"}),
        ),
        case(
            "json:review_flag_note_number",
            ReviewFlag,
            json!({"package_id": "{P2}", "review_type": "agent", "note": 5}),
        ),
        case(
            "json:amp_store_record_text",
            AmpStore,
            json!({"record": "a lesson"}),
        ),
        // A member no operation has.
        case(
            "deposit_unknown_member",
            Deposit,
            json!({"title": "Odd", "bogus": 1}),
        ),
        case(
            "json:facts_assert_unknown_member",
            FactsAssert,
            json!({"subject": "api", "predicate": "owner", "value": "ops", "bogus": 1}),
        ),
        case(
            "json:pull_latest_unknown_member",
            PullLatest,
            json!({"bogus": 1}),
        ),
        // A project that is not there, or is not the one selected.
        // HTTP's path always selects a project, so each door selects `demo` here.
        case(
            "deposit_missing_project_in_body",
            Deposit,
            json!({"project": "demo", "title": "Lost", "project_id": "nope"}),
        ),
        case(
            "deposit_other_project_in_body",
            Deposit,
            json!({"project": "demo", "title": "Elsewhere", "project_id": "web"}),
        ),
        case(
            "deposit_selected_project_in_body",
            Deposit,
            json!({"project": "web", "title": "Elsewhere", "project_id": "web"}),
        ),
        case(
            "deposit_missing_project_selected",
            Deposit,
            json!({"project": "nope", "title": "Lost"}),
        ),
        case(
            "pull_latest_missing_project",
            PullLatest,
            json!({"project": "nope"}),
        ),
        case("orient_missing_project", Orient, json!({"project": "nope"})),
        case(
            "facts_assert_missing_project",
            FactsAssert,
            json!({"project": "nope", "subject": "api", "predicate": "owner", "value": "ops"}),
        ),
        case(
            "facts_list_missing_project",
            FactsList,
            json!({"project": "nope"}),
        ),
        // Limits.
        case("pull_latest_limit_0", PullLatest, json!({"limit": 0})),
        case(
            "pull_latest_limit_over",
            PullLatest,
            json!({"limit": 100_000_000}),
        ),
        case(
            "pull_relevant_limit_0",
            PullRelevant,
            json!({"query": "pool", "limit": 0, "search": "keyword"}),
        ),
        case(
            "search_limit_0",
            Search,
            json!({"query": "pool", "limit": 0}),
        ),
        case("orient_limit_0", Orient, json!({"limit": 0})),
        case(
            "orient_window_days_over",
            Orient,
            json!({"window_days": 100_000}),
        ),
        case(
            "orchestrate_snippets_over",
            Orchestrate,
            json!({"project": "demo", "snippets": 100_000_000}),
        ),
        case("amp_list_limit_0", AmpList, json!({"limit": 0})),
        // A negative whole number: the right type, a refused value.
        case(
            "pull_latest_limit_negative",
            PullLatest,
            json!({"limit": n("-1")}),
        ),
        case(
            "orient_window_days_negative",
            Orient,
            json!({"window_days": n("-1e2")}),
        ),
        case(
            "amp_search_limit_0",
            AmpSearch,
            json!({"query": "lock", "limit": 0}),
        ),
        // A fact's value as text, which every door stores as it is.
        case(
            "facts_assert_value_exponent_text",
            FactsAssert,
            json!({"subject": "api", "predicate": "p99_ms", "value": "1e2"}),
        ),
    ];
    // Numbers in each spelling: a limit, and a fact's value (a JSON number only JSON says).
    for (name, text) in [
        ("1e2", "1e2"),
        ("1E2", "1E2"),
        ("100", "100"),
        ("100_0", "100.0"),
    ] {
        all.push(case(
            &format!("pull_latest_limit_{name}"),
            PullLatest,
            json!({"limit": n(text)}),
        ));
        all.push(case(
            &format!("orient_window_days_{name}"),
            Orient,
            json!({"window_days": n(text)}),
        ));
        all.push(case(
            &format!("json:facts_assert_value_{name}"),
            FactsAssert,
            json!({"subject": "api", "predicate": "p99_ms", "value": n(text)}),
        ));
    }
    all
}
