//! The store's health: what `relay verify` checks, summed up in one finding (the first
//! problem named, `relay verify` lists them all).

use super::{Finding, Setup};
use crate::ops::verify;

const CHECK: &str = "store";

pub fn check(setup: &Setup<'_>) -> Finding {
    let store = match &setup.store {
        Ok(store) => store,
        Err(why) => {
            return Finding::fail(
                CHECK,
                why.clone(),
                "relay init (or point at the store with --store DIR or RELAY_DIR)",
            );
        }
    };
    let report = match verify::verify(store) {
        Ok((report, _)) => report,
        Err(e) => {
            return Finding::fail(CHECK, format!("cannot be checked: {e}"), "relay verify");
        }
    };
    let errors = report.errors();
    let notes = report.problems.len() - errors;
    let first = report.problems.iter().find(|p| p.is_error());
    match first {
        Some(p) => Finding::fail(
            CHECK,
            format!(
                "{errors} problem(s) in {}; the first: {}: {} [{}]",
                store.root().display(),
                p.location(),
                p.message,
                p.kind
            ),
            "relay verify (lists them all), then relay verify --fix (repairs what is safe)",
        ),
        None if notes > 0 => Finding::ok(
            CHECK,
            format!(
                "{} is sound ({notes} note(s): relay verify shows them)",
                store.root().display()
            ),
        ),
        None => Finding::ok(CHECK, format!("{} is sound", store.root().display())),
    }
}
