//! Signatures in plain `relay verify` (and so in the git hooks, which run it after a merge or
//! a rebase), once a store signs: `allowed_signers` exists, or git's history shows it did.
//! Every record version is judged (`ops::trust::signatures`, against the file as
//! `ops::trust::signers` reads it with its history) and each verdict that fails is an error at
//! the record's line: a bad or revoked signature; a key the file lists used outside what its
//! line allows; an unsigned record, or one signed by a key not allowed for its actor, when the
//! file says that actor must sign then (or `[sign] require = true`). Besides: a key added for
//! an actor who already had one without a rotation record, `allowed_signers` gone or emptied,
//! a committed signature gone from a record the store still holds, and a retraction by someone
//! who may not retract the record. `verify --signatures` prints every verdict besides.

use std::collections::HashMap;

use super::{Checker, Problem, Severity, relative, stripped};
use crate::ops::trust::authority;
use crate::ops::trust::signatures::{self, Checked, ProjectRecords, Verdict, family};
use crate::ops::trust::signers::Signers;
use relay_wire::error::Result;
use relay_wire::signature::RecordKind;

/// The kinds of problem that are one record version's verdict.
const KINDS: [&str; 4] = [
    "bad_signature",
    "revoked_signature",
    "signature_not_allowed",
    "unsigned_record",
];

/// The other kinds this check reports: what the signatures rest on.
const SIGNING: [&str; 4] = [
    "allowed_signers_removed",
    "unverified_key_change",
    "signature_removed",
    "retraction_not_allowed",
];

impl Problem {
    /// Whether this is a signature's verdict (which `verify --signatures` prints as such).
    pub fn is_signature(&self) -> bool {
        KINDS.contains(&self.kind)
    }

    /// Whether this is about signing at all (a verdict, or what verdicts rest on), which
    /// `--fix` cannot repair.
    pub fn is_signing(&self) -> bool {
        self.is_signature() || SIGNING.contains(&self.kind)
    }
}

impl Checker<'_> {
    /// The failing verdicts and the checks of who signs, when the store signs (a file that
    /// does not parse is reported by the layout's check, and judges nothing).
    pub(super) fn signatures(&mut self) -> Result<()> {
        let store = self.store;
        let Ok(signers) = Signers::load(store, true) else {
            return Ok(());
        };
        if !store.allowed_signers_file().exists() && signers.removed.is_none() {
            return Ok(());
        }
        let file = store.allowed_signers_file();
        if let Some(r) = &signers.removed {
            let (gone, fix) = match r.deleted {
                true => ("is gone", "restore it"),
                false => ("holds no key", "restore its lines"),
            };
            self.problem(
                &file,
                0,
                "allowed_signers_removed",
                format!(
                    "allowed_signers {gone}, but commit {} holds it with {}: signatures \
                     are judged against that version; {fix} (`git checkout {} -- \
                     .relay/allowed_signers`), or, to stop signing, keep the lines and end each \
                     key with valid-before=\"YYYYMMDD\"",
                    r.last.short(),
                    relay_wire::text::count(r.keys, "key"),
                    r.last.short()
                ),
            );
        }
        for c in &signers.changes {
            self.problem(
                &file,
                c.line,
                "unverified_key_change",
                format!(
                    "{}: records it signs as {} fail; if {} added it, sign a key rotation record \
                     with the earlier key (`relay keys rotate --new KEY --sign-with EARLIER`), \
                     else remove the line",
                    c.describe(),
                    c.actor,
                    c.actor
                ),
            );
        }
        let reviewers = store.config().review.reviewers.clone().unwrap_or_default();
        let mut found = Vec::new();
        let report = signatures::verify_with(store, &signers, |records| {
            found.extend(stripped::removed(store, records));
            found.extend(retractions(store, records, &reviewers));
            Ok(())
        })?;
        let mut failing = Vec::new();
        for c in report.records.iter().filter(|c| c.fails) {
            let (file, line) = match &c.place {
                Some((path, line)) => (relative(store, path), *line),
                None => (String::new(), 0),
            };
            failing.push((file.clone(), line));
            self.report.problems.push(problem(file, line, c));
        }
        // A record whose verdict fails says already that its signature may be gone.
        found.retain(|p| {
            p.kind != "signature_removed" || !failing.contains(&(p.file.clone(), p.line))
        });
        self.report.problems.extend(found);
        Ok(())
    }
}

/// The retractions of a project by someone who may not retract the record: neither its
/// author nor a reviewer of it, nor one of the store's `[review] reviewers`.
fn retractions(
    store: &relay_store::Store,
    records: &ProjectRecords,
    reviewers: &[String],
) -> Vec<Problem> {
    let mut authors: HashMap<&str, Vec<String>> = HashMap::new();
    for (v, _) in &records.versions {
        if family(v.kind) == RecordKind::Retraction {
            continue;
        }
        let by = v.actor.as_ref().or(v.owner.as_ref());
        let list = authors.entry(v.id.as_str()).or_default();
        if let Some(by) = by.filter(|b| !list.contains(b)) {
            list.push(by.clone());
        }
    }
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for (v, (file, line)) in &records.versions {
        // A line a merge left twice is one retraction.
        if v.kind != RecordKind::Retraction || seen.contains(&&v.hash) {
            continue;
        }
        seen.push(&v.hash);
        let (Some(list), Some(by)) = (authors.get(v.id.as_str()), v.actor.as_deref()) else {
            continue;
        };
        if authority::may_retract(by, list, reviewers) {
            continue;
        }
        let record = if v.id.starts_with("fact_") {
            "fact"
        } else {
            "package"
        };
        out.push(Problem {
            file: relative(store, file),
            line: *line,
            kind: "retraction_not_allowed",
            message: authority::why_not(by, record, &v.id),
            severity: Severity::Error,
        });
    }
    out
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
