//! The store's health: what `relay verify` checks, summed up in one finding (the first
//! problem named, `relay verify` lists them all), with the command that fixes that problem:
//! `relay verify --fix` repairs only torn lines and lines that fail their hash.

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
                "{} in {}; the first: {}: {} [{}]",
                relay_wire::text::count(errors, "problem"),
                store.root().display(),
                p.location(),
                p.message,
                p.kind
            ),
            fix_for(p.kind, &p.file, store),
        ),
        None if notes > 0 => Finding::ok(
            CHECK,
            format!(
                "{} is sound ({}: relay verify shows them)",
                store.root().display(),
                relay_wire::text::count(notes, "note")
            ),
        ),
        None => Finding::ok(CHECK, format!("{} is sound", store.root().display())),
    }
}

/// What fixes a problem of `kind` in the store file `file` (relative to the store).
fn fix_for(kind: &str, file: &str, store: &relay_store::Store) -> String {
    let path = store.root().join(file);
    let top = store.journal_place().map(|p| p.top.clone());
    let shown = match &top {
        Some(top) => path
            .strip_prefix(top)
            .unwrap_or(&path)
            .display()
            .to_string(),
        None => path.display().to_string(),
    };
    match kind {
        "conflict_marker" => format!(
            "relay resolve (during the merge; it writes both sides' lines, each once, and \
             stages them). If the markers were committed: delete the marker lines of {shown} \
             (<<<<<<<, =======, >>>>>>>) by hand, keeping both sides' lines, and commit"
        ),
        "corrupt_line" | "invalid_record" if top.is_some() => format!(
            "relay verify --fix cannot repair this line: remove it from {shown} by hand and \
             commit; to get the record back, git log -p -- {shown} shows the commit that wrote \
             it and the line as it was there"
        ),
        "corrupt_line" | "invalid_record" => format!(
            "relay verify --fix cannot repair this line: restore {shown} from a backup \
             (relay import of a relay export) or remove the line by hand"
        ),
        _ => "relay verify (lists them all), then relay verify --fix (repairs what is safe)".into(),
    }
}
