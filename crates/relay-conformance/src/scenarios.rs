//! The table of every scenario the suite runs, in order, with its level and the spec sections
//! it checks: the one list the runner, the report and the guide's table follow. The checks
//! themselves live in the module of their subject.

use super::Level::{L0, L1, L2, L3};
use super::{Check, Level, Suite};
use super::{deposit, facts, hash, read, realtime, review, search};

/// One scenario: its name, its level, and its check.
pub struct Scenario {
    pub name: &'static str,
    pub level: Level,
    /// The sections of the spec it checks.
    pub sections: &'static str,
    pub(crate) check: fn(&mut Suite) -> Check,
}

const fn row(
    name: &'static str,
    level: Level,
    sections: &'static str,
    check: fn(&mut Suite) -> Check,
) -> Scenario {
    Scenario {
        name,
        level,
        sections,
        check,
    }
}

/// Every scenario, in the order they run: the reads first (over the packages the suite
/// seeded), then deposits, facts and reviews; the check of every record seen comes last.
/// `orient_active_facts` sits between supersession and invalidation, when the key has one
/// ended fact and one current; `flag_unknown_review_type` runs after every listing of
/// reviews, so that a package a server wrongly flagged is judged by that scenario alone.
pub const SCENARIOS: &[Scenario] = &[
    row("descriptor", L0, "§11.5, §10.2", read::descriptor),
    row("pull_latest", L0, "§8.2, §9.1", read::pull_latest),
    row("pull_specific", L0, "§8.2, §9.1", read::pull_specific),
    row(
        "pull_specific_unknown",
        L0,
        "§8.2",
        read::pull_specific_unknown,
    ),
    row("pull_relevant", L0, "§8.2, §11.1", search::pull_relevant),
    row(
        "pull_relevant_order",
        L0,
        "§8.2",
        search::pull_relevant_order,
    ),
    row(
        "pull_by_meaning",
        L0,
        "§10.2, §8.2",
        search::pull_by_meaning,
    ),
    row("orient", L0, "§8.3, §11.1", read::orient),
    row("orient_window", L0, "§8.3", read::orient_window),
    row(
        "orchestrate",
        L0,
        "§8.4 (optional at every level, §11.1)",
        read::orchestrate,
    ),
    row(
        "missing_capabilities",
        L0,
        "§10.2",
        read::missing_capabilities,
    ),
    row(
        "realtime",
        L0,
        "§10.2 (relay's event stream; §9.1 maps none)",
        realtime::realtime,
    ),
    row("deposit", L1, "§8.1, §6.6, §6.7, §12.1", deposit::deposit),
    row(
        "content_hash",
        L1,
        "§6.6, §6.7, Appendix A",
        hash::content_hash,
    ),
    row("deposit_idempotent", L1, "§11.2", deposit::idempotent),
    row(
        "deposit_conflict",
        L1,
        "§11.2, §8.1, §6.6",
        deposit::conflict,
    ),
    row(
        "deposit_missing_field",
        L1,
        "§8.1, §6.1",
        deposit::missing_field,
    ),
    row(
        "deposit_invalid",
        L1,
        "§8.1, §6.1, §6.2, §6.3, §6.4",
        deposit::invalid,
    ),
    row(
        "deposit_project_mismatch",
        L1,
        "§8.1, §6.1, §9.1",
        deposit::project_mismatch,
    ),
    row(
        "deposit_extension_type",
        L1,
        "§6.3, §12.2",
        deposit::extension_type,
    ),
    row("assert_fact", L2, "§8.6, §7", facts::assert),
    row(
        "fact_supersession",
        L2,
        "§7.3, §8.6, §11.3",
        facts::supersession,
    ),
    row(
        "fact_point_in_time",
        L2,
        "§7.3, §11.3",
        facts::point_in_time,
    ),
    row(
        "orient_active_facts",
        L2,
        "§8.3, §7.3",
        facts::orient_active_facts,
    ),
    row("invalidate_fact", L2, "§8.7, §7.4", facts::invalidate),
    row(
        "fact_numeric_string",
        L2,
        "§7.1, §8.6",
        facts::numeric_string,
    ),
    row(
        "fact_extension_members",
        L2,
        "§12.1, §7",
        facts::extension_members,
    ),
    row(
        "flag_complete_refused",
        L3,
        "§5.3, §8.5",
        review::flag_complete_refused,
    ),
    row("flag_unknown", L3, "§8.5", review::flag_unknown),
    row("flag_for_review", L3, "§8.5, §5.3", review::flag),
    row("reviews_listed", L3, "§11.4", review::listed),
    row(
        "flag_awaiting_refused",
        L3,
        "§5.3, §8.5",
        review::flag_awaiting_refused,
    ),
    row("approve", L3, "§11.4, §5.3", review::approve),
    row(
        "request_changes",
        L3,
        "§11.4, §5.3",
        review::request_changes,
    ),
    row("illegal_transitions", L3, "§5.3", review::illegal),
    row(
        "flag_unknown_review_type",
        L3,
        "§8.5, §6.1",
        review::flag_unknown_review_type,
    ),
    row("wire_format", L0, "§6, §7, §11.1", read::wire_format),
];
