//! Signatures in plain `relay verify` (and so in the git hooks, which run it after a merge or
//! a rebase): once a store has `allowed_signers`, someone meant its records to be signed, so
//! every record version is judged (`ops::trust::signatures`) and each verdict that fails is an error
//! at the record's line: a bad or revoked signature always; an unsigned record, or one signed
//! by a key not allowed for its actor, when `[sign] require = true` or when that actor's
//! earlier records are signed (a signature stripped, or a tampered record signed again with
//! another key). `verify --signatures` prints every verdict besides.

use super::{Checker, Problem, Severity, relative};
use crate::ops::trust::signatures::{self, Checked, Verdict};
use relay_wire::error::Result;

/// The kinds of problem this check reports.
const KINDS: [&str; 4] = [
    "bad_signature",
    "revoked_signature",
    "signature_not_allowed",
    "unsigned_record",
];

impl Problem {
    /// Whether this is a signature's verdict (which `verify --signatures` prints as such).
    pub fn is_signature(&self) -> bool {
        KINDS.contains(&self.kind)
    }
}

impl Checker<'_> {
    /// The failing verdicts, when the store has `allowed_signers` (one that does not parse is
    /// reported by the layout's check, and judges nothing).
    pub(super) fn signatures(&mut self) -> Result<()> {
        let store = self.store;
        if !store.allowed_signers_file().exists() || store.allowed_signers().is_err() {
            return Ok(());
        }
        let report = signatures::verify(store)?;
        for c in report.records.iter().filter(|c| c.fails) {
            let (file, line) = match &c.place {
                Some((path, line)) => (relative(store, path), *line),
                None => (String::new(), 0),
            };
            self.report.problems.push(problem(file, line, c));
        }
        Ok(())
    }
}

/// The problem a failing verdict is, with what to do about it.
fn problem(file: String, line: u64, c: &Checked) -> Problem {
    let (kind, what) = match c.verdict {
        Verdict::Bad => ("bad_signature", "its signature does not hold"),
        Verdict::Revoked => ("revoked_signature", "it is signed with a revoked key"),
        Verdict::NotAllowed => (
            "signature_not_allowed",
            "it is signed with a key allowed_signers does not allow for its actor",
        ),
        // Only with [sign] require, or with a reason saying why it should be signed.
        Verdict::Unsigned | Verdict::Good => (
            "unsigned_record",
            "it is not signed, and [sign] require = true asks every record to be",
        ),
    };
    Problem {
        file,
        line,
        kind,
        message: format!(
            "{} {} by {}: {}; if it is genuine, restore its signature from git history (`git \
             log -p -- .relay`) or add its author's key to allowed_signers, else retract it \
             (`relay verify --signatures` lists every verdict)",
            c.record.as_str(),
            c.id,
            c.actor,
            c.reason.as_deref().unwrap_or(what),
        ),
        severity: Severity::Error,
    }
}
