//! Carrying a backup's signatures into the store: read (and checked against the manifest)
//! before anything is written, then, once the records are in, each signature whose record
//! version the store now holds is appended to its project's `signatures.ndjson`, unless that
//! exact line is there already. Nothing is signed anew.

use std::collections::HashSet;

use sha2::{Digest, Sha256};

use super::SourceFile;
use relay_store::Store;
use relay_wire::error::{Error, Result};
use relay_wire::signature::{RecordKind, Signature};

/// The signatures of a backup folder; a line that is not one stops the import, naming it.
pub(super) fn read(file: Option<&SourceFile>) -> Result<Vec<Signature>> {
    let Some(file) = file else {
        return Ok(Vec::new());
    };
    let bytes = std::fs::read(&file.path)
        .map_err(|e| Error::io(format!("cannot read {}", file.label), e))?;
    if let Some(expected) = &file.expected {
        let digest: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if format!("sha256:{digest}") != *expected {
            return Err(Error::Integrity(format!(
                "{} does not match the hash its manifest lists; the backup is damaged",
                file.label
            )));
        }
    }
    let mut out = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed = relay_wire::strict::from_slice(line)
            .map_err(|e| e.to_string())
            .and_then(Signature::from_line);
        match parsed {
            Ok(s) => out.push(s),
            Err(m) => {
                return Err(Error::InvalidInput(format!(
                    "{}:{}: {m}",
                    file.label,
                    i + 1
                )));
            }
        }
    }
    Ok(out)
}

/// Appends to each of `projects` the signatures of record versions it holds and lacks the
/// signature of. Takes each project's lock. Returns how many were added.
pub(super) fn carry(store: &Store, projects: &[String], signatures: &[Signature]) -> Result<usize> {
    if signatures.is_empty() {
        return Ok(0);
    }
    let mut added = 0;
    for project in projects {
        let _lock = store.lock_project(project)?;
        let versions = crate::ops::trust::signatures::record_versions(store, project)?;
        let held: HashSet<(RecordKind, &str, &str)> = (versions.iter())
            .map(|v| (v.kind, v.id.as_str(), v.hash.as_str()))
            .collect();
        let mut present: HashSet<Signature> = store
            .signatures(project)?
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        let new: Vec<Signature> = (signatures.iter())
            .filter(|s| held.contains(&(s.record, s.id.as_str(), s.hash.as_str())))
            .filter(|s| present.insert((*s).clone()))
            .cloned()
            .collect();
        added += new.len();
        store.append_signatures(project, &new)?;
    }
    Ok(added)
}
