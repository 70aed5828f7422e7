//! Signatures git's history holds that the work tree lost: a signature line committed once,
//! of a record the store still holds, gone now. Someone took it away: a signature stripped, or
//! a record changed (given to another actor, say) and its signature taken with it so that
//! nothing points at the change. Each project's `signatures.ndjson` is compared with the
//! versions its last eight commits left and with one every power of two commits further back,
//! so the cost is a few dozen reads of the file whatever the length of the history. A store
//! outside git, or a file never committed, has nothing to compare.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{Problem, Severity, relative};
use crate::ops::git::history::{self, Commit};
use crate::ops::trust::signatures::{ProjectRecords, family};
use relay_store::Store;
use relay_wire::signature::{RecordKind, Signature};

/// How many of the newest commits of the file are all compared.
const NEWEST: usize = 8;

/// The problems of one project's lost signatures.
pub(super) fn removed(store: &Store, records: &ProjectRecords) -> Vec<Problem> {
    let path = store.signatures_log(&records.project);
    let name = relative(store, &path);
    let Some(commits) = history::commits(store.root(), &name) else {
        return Vec::new();
    };
    let sampled: Vec<Commit> = (commits.into_iter().enumerate())
        .filter(|(i, _)| *i < NEWEST || (i + 1).is_power_of_two())
        .map(|(_, c)| c)
        .collect();
    let current: HashSet<&Signature> = records.signatures.iter().map(|(_, s)| s).collect();
    let mut held: HashMap<(RecordKind, &str), (&std::path::Path, u64)> = HashMap::new();
    for (v, (file, line)) in &records.versions {
        held.entry((family(v.kind), v.id.as_str()))
            .or_insert((file, *line));
    }
    let mut lost: Vec<(Signature, Commit)> = Vec::new();
    let _ = history::blobs(store.root(), &name, &sampled, |i, bytes| {
        for line in bytes.as_deref().unwrap_or_default().split(|b| *b == b'\n') {
            let Ok(value) = serde_json::from_slice::<Value>(line) else {
                continue;
            };
            let Ok(s) = Signature::from_line(value) else {
                continue;
            };
            let known = held.contains_key(&(family(s.record), s.id.as_str()));
            if known && !current.contains(&s) && !lost.iter().any(|(l, _)| *l == s) {
                lost.push((s, sampled[i].clone()));
            }
        }
    });
    lost.into_iter()
        .map(|(s, commit)| {
            let (file, line) = held[&(family(s.record), s.id.as_str())];
            let what = if (records.versions.iter()).any(|(v, _)| v.id == s.id && v.hash == s.hash) {
                "its signature was removed"
            } else {
                "the record was changed since, and its signature taken away with it"
            };
            Problem {
                file: relative(store, file),
                line,
                kind: "signature_removed",
                message: format!(
                    "{} {} was signed by {} ({}) as commit {} holds it, and signatures.ndjson no \
                     longer has that signature: {what}; if the record is genuine, restore the \
                     line from git history (`git log -p -- .relay`), else retract the record",
                    s.record.as_str(),
                    s.id,
                    s.actor,
                    s.key,
                    commit.short(),
                ),
                severity: Severity::Error,
            }
        })
        .collect()
}
