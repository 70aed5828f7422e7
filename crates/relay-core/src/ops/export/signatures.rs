//! The signatures a backup folder carries: `signatures.ndjson`, the signature lines of exactly
//! the record versions exported, matched by content hash (a package a share profile changed
//! has a new hash, so its old signature stays behind). The NDJSON stream form carries none:
//! an older import would stop at a line that is not a record.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::Kind;
use relay_store::{Store, ndjson};
use relay_wire::canonical;
use relay_wire::error::{Error, Result};
use relay_wire::signature::{RecordKind, Signature, SignatureLine};

/// The file a backup folder keeps signatures in.
pub const FILE: &str = "signatures.ndjson";

/// Collects, as records stream out, the signatures that cover them.
pub struct Carrier {
    by_hash: HashMap<String, Vec<Signature>>,
    out: Vec<Signature>,
    seen: HashSet<Signature>,
}

impl Carrier {
    /// The signatures of `projects`; `None` when they have none (nothing to look for).
    pub fn load(store: &Store, projects: &[String]) -> Result<Option<Carrier>> {
        let mut by_hash: HashMap<String, Vec<Signature>> = HashMap::new();
        for p in projects {
            for (_, s) in store.signatures(p)? {
                by_hash.entry(s.hash.clone()).or_default().push(s);
            }
        }
        Ok((!by_hash.is_empty()).then(|| Carrier {
            by_hash,
            out: Vec::new(),
            seen: HashSet::new(),
        }))
    }

    /// Keeps the signatures of the records on `lines` (whole lines of `kind`).
    pub fn records(&mut self, kind: Kind, lines: &[u8]) {
        let (record, id_field) = match kind {
            Kind::Packages => (RecordKind::Package, "package_id"),
            Kind::Facts => (RecordKind::Fact, "fact_id"),
            Kind::Sessions => (RecordKind::Session, "session_id"),
            Kind::Projects => return,
        };
        for line in lines.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let Ok(value) = serde_json::from_slice::<Value>(line) else {
                continue;
            };
            let Some(found) = self.by_hash.get(&canonical::content_hash(&value)) else {
                continue;
            };
            let id = value.get(id_field).and_then(Value::as_str);
            for s in found {
                if s.record == record && Some(s.id.as_str()) == id && self.seen.insert(s.clone()) {
                    self.out.push(s.clone());
                }
            }
        }
    }

    /// Writes the kept signatures to `dir`; returns the file's name and hash for the
    /// manifest, or `None` when there were none.
    pub fn write(self, dir: &Path) -> Result<Option<(String, String)>> {
        if self.out.is_empty() {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        for s in self.out {
            bytes.extend(ndjson::to_line(&SignatureLine { signature: s })?);
        }
        let path = dir.join(FILE);
        ndjson::write_atomic(&path, &bytes)
            .map_err(|e| Error::Integrity(format!("cannot write {}: {e}", path.display())))?;
        let digest: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Ok(Some((FILE.to_string(), format!("sha256:{digest}"))))
    }
}
