//! Signed records in the store: the signing key a transport hands over (loaded once, on the
//! first signed write), the record versions a signature can cover ([`RecordVersion`]: package
//! versions, transitions, fact and session lines, retraction lines), the
//! append that writes a record and its signatures under the writer's lock, and reading each
//! project's `signatures.ndjson` and the store's `allowed_signers`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;
use ssh_key::{Algorithm, PrivateKey};

use super::packages::StoredPackage;
use super::{Store, WarningKind, log};
use relay_wire::allowed_signers::AllowedSigners;
use relay_wire::error::{Error, Result};
use relay_wire::signature::{self, RecordKind, Signature, SignatureLine};
use relay_wire::{Fact, Package, Session, canonical, time};

/// A loaded signing key.
#[derive(Debug)]
pub struct Signer {
    key: PrivateKey,
    /// `SHA256:…`.
    pub fingerprint: String,
    pub path: PathBuf,
}

impl Signer {
    /// The key's public half.
    pub fn public_key(&self) -> ssh_key::PublicKey {
        self.key.public_key().clone()
    }
}

/// The signing state a store carries: the key's path (set by the transport), and the key
/// once loaded (or why it cannot be).
#[derive(Debug, Default)]
pub(super) struct Signing {
    path: Option<PathBuf>,
    loaded: OnceLock<std::result::Result<Signer, String>>,
}

/// Loads an OpenSSH Ed25519 private key for signing. Relay never prompts, so an encrypted key
/// is refused with what to do instead. Returns the signer and, when others may read the file,
/// a warning for the caller to show.
pub fn load_key(path: &Path) -> std::result::Result<(Signer, Option<String>), String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the signing key {shown}: {e}"))?;
    let key = PrivateKey::from_openssh(text.trim()).map_err(|e| {
        let hint = if text.starts_with("ssh-") {
            " (this looks like a public key: name the private key file, without .pub)"
        } else {
            ""
        };
        format!("the signing key {shown} is not an OpenSSH private key ({e}){hint}")
    })?;
    if key.is_encrypted() {
        return Err(format!(
            "the signing key {shown} is encrypted with a passphrase, and relay never prompts for \
             one (it signs from hooks and agents); make a dedicated key with `relay keys \
             generate`, or decrypt a copy of this one with `ssh-keygen -p -f COPY` and sign with \
             the copy"
        ));
    }
    if key.algorithm() != Algorithm::Ed25519 {
        return Err(format!(
            "the signing key {shown} is of type {}; relay signs with ed25519 keys only (make one \
             with `relay keys generate` or `ssh-keygen -t ed25519`)",
            key.algorithm()
        ));
    }
    let warning = open_permissions(path).map(|mode| {
        format!("this signing key can be read by others (mode {mode:03o}); run `chmod 600 {shown}`")
    });
    let fingerprint = signature::fingerprint(key.public_key());
    Ok((
        Signer {
            key,
            fingerprint,
            path: path.to_path_buf(),
        },
        warning,
    ))
}

/// The file's mode when its group or others may access it (Unix only).
fn open_permissions(path: &Path) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).ok()?.permissions().mode() & 0o777;
        (mode & 0o077 != 0).then_some(mode)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// One version of a record, as a signature covers it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordVersion {
    pub kind: RecordKind,
    pub id: String,
    /// What is signed: the package hash, [`signature::transition_hash`], or the content hash
    /// of the fact or session line.
    pub hash: String,
    /// Who the record says made this version: the package's `created_by`, the transition's
    /// `by`, an open fact's `asserted_by`, an open session's `actor_id`. `None` for a closing
    /// version of a fact or session (the log does not record who closed it): then the actor
    /// the signer signed as is taken.
    pub actor: Option<String>,
    /// The record's owner (`asserted_by`, `actor_id`), whoever made this version.
    pub owner: Option<String>,
    /// When the version was made, for the key's validity: `created_at`, the transition's
    /// `at`, `valid_to` or `ended_at` of a closing version, else `created_at`/`started_at`.
    pub at: time::Timestamp,
}

fn parse_time(v: Option<&str>) -> Option<time::Timestamp> {
    v.and_then(|t| time::parse(t).ok())
}

impl RecordVersion {
    /// A stored package version: version 1 is the package, later ones transitions.
    pub fn package(p: &StoredPackage) -> RecordVersion {
        let id = p.package.id().to_string();
        match (&p.transition, p.version) {
            (Some(t), v) if v > 1 => RecordVersion {
                kind: RecordKind::Transition,
                id,
                hash: signature::transition_hash(&p.hash, v, t),
                actor: t
                    .pointer("/by/id")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                owner: None,
                at: parse_time(t.get("at").and_then(Value::as_str))
                    .unwrap_or_else(|| p.package.created_at()),
            },
            _ => RecordVersion::first(&p.package, &p.hash),
        }
    }

    /// A package's first version (a deposit).
    pub fn first(package: &Package, hash: &str) -> RecordVersion {
        RecordVersion {
            kind: RecordKind::Package,
            id: package.id().to_string(),
            hash: hash.to_string(),
            actor: Some(package.created_by().id.to_string()),
            owner: None,
            at: package.created_at(),
        }
    }

    pub fn fact(f: &Fact) -> RecordVersion {
        let owner = (f.as_map().get("asserted_by"))
            .and_then(|b| b.get("id"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let closed = f.valid_to();
        RecordVersion {
            kind: RecordKind::Fact,
            id: f.id().to_string(),
            hash: canonical::content_hash_of_map(f.as_map()),
            actor: if closed.is_some() {
                None
            } else {
                owner.clone()
            },
            owner,
            at: closed.unwrap_or_else(|| f.created_at()),
        }
    }

    pub fn session(s: &Session) -> RecordVersion {
        let owner = s.str_field("actor_id").map(str::to_string);
        let ended = parse_time(s.str_field("ended_at"));
        RecordVersion {
            kind: RecordKind::Session,
            id: s.id().to_string(),
            hash: canonical::content_hash_of_map(s.as_map()),
            actor: if ended.is_some() { None } else { owner.clone() },
            owner,
            at: ended
                .or_else(|| parse_time(s.str_field("started_at")))
                .unwrap_or_default(),
        }
    }

    /// The actor a writer signs this version as: the one the record names, else the writer
    /// (who closes a fact), else the record's owner.
    pub fn signing_actor(&self, writer: Option<&str>) -> String {
        (self.actor.as_deref())
            .or(writer)
            .or(self.owner.as_deref())
            .unwrap_or_default()
            .to_string()
    }
}

impl Store {
    /// Signs every later write of this store with the key at `path` (`None`: unsigned). The
    /// key is loaded on the first signed write, which fails, writing nothing, if it cannot be.
    pub fn set_signing_key(&mut self, path: Option<PathBuf>) {
        self.signing = Signing {
            path,
            loaded: OnceLock::new(),
        };
    }

    /// The key this store signs with, if any.
    pub fn signing_key_path(&self) -> Option<&Path> {
        self.signing.path.as_deref()
    }

    /// The loaded signer, when signing is on; an error when its key cannot be used. A key
    /// others can read is reported once as a warning, and still used.
    pub fn signer(&self) -> Result<Option<&Signer>> {
        let Some(path) = &self.signing.path else {
            return Ok(None);
        };
        let loaded = self.signing.loaded.get_or_init(|| {
            load_key(path).map(|(signer, warning)| {
                if let Some(w) = warning {
                    self.diagnostics
                        .warn(path, 0, WarningKind::KeyPermissions, w);
                }
                signer
            })
        });
        match loaded {
            Ok(s) => Ok(Some(s)),
            Err(m) => Err(Error::Integrity(m.clone())),
        }
    }

    /// The signature lines for `versions`, signed as `writer` where a version does not name
    /// its actor; empty when signing is off.
    fn signature_lines(&self, versions: &[RecordVersion], writer: Option<&str>) -> Result<Vec<u8>> {
        let Some(signer) = self.signer()? else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for v in versions {
            let sshsig = signature::sign(&signer.key, &v.hash).map_err(Error::Integrity)?;
            out.extend(log::to_line(&SignatureLine {
                signature: Signature {
                    record: v.kind,
                    id: v.id.clone(),
                    hash: v.hash.clone(),
                    actor: v.signing_actor(writer),
                    key: signer.fingerprint.clone(),
                    sshsig,
                },
            })?);
        }
        Ok(out)
    }

    /// Appends a record's lines to `path` and, when signing is on, a signature of each of
    /// `versions` to the project's `signatures.ndjson` right after. The signatures are made
    /// first, so a key that cannot be used fails the write before anything is written. Hold
    /// the project's lock.
    pub fn append_signed(
        &self,
        path: &Path,
        bytes: &[u8],
        project_id: &str,
        versions: &[RecordVersion],
        writer: Option<&str>,
    ) -> Result<()> {
        let signatures = self.signature_lines(versions, writer)?;
        self.append(path, bytes)?;
        if !signatures.is_empty() {
            self.append(&self.layout.signatures_file(project_id), &signatures)?;
        }
        Ok(())
    }

    /// Appends fact versions in one write to the project's fact log, signed (closing
    /// versions as `writer`) when signing is on. Hold the lock.
    pub fn append_facts(
        &self,
        project_id: &str,
        facts: &[&Fact],
        writer: Option<&str>,
    ) -> Result<()> {
        let versions: Vec<RecordVersion> = facts.iter().map(|f| RecordVersion::fact(f)).collect();
        let mut bytes = Vec::new();
        for f in facts {
            bytes.extend(log::to_line(f)?);
        }
        let path = self.layout.facts_file(project_id);
        self.append_signed(&path, &bytes, project_id, &versions, writer)
    }

    /// Appends a session version to the project's session log, signed when signing is on.
    /// Hold the lock.
    pub fn append_session(&self, project_id: &str, session: &Session) -> Result<()> {
        let path = self.layout.sessions_file(project_id);
        let versions = [RecordVersion::session(session)];
        self.append_signed(&path, &log::to_line(session)?, project_id, &versions, None)
    }

    /// Appends signature lines made elsewhere (an import carrying a backup's). Hold the lock.
    pub fn append_signatures(&self, project_id: &str, signatures: &[Signature]) -> Result<()> {
        let mut bytes = Vec::new();
        for s in signatures {
            bytes.extend(log::to_line(&SignatureLine {
                signature: s.clone(),
            })?);
        }
        if bytes.is_empty() {
            return Ok(());
        }
        self.append(&self.layout.signatures_file(project_id), &bytes)
    }

    /// Every signature of a project with its line number; lines that are not signatures are
    /// reported as warnings and skipped.
    pub fn signatures(&self, project_id: &str) -> Result<Vec<(u64, Signature)>> {
        self.signatures_filtered(project_id, None)
    }

    /// The signatures of one record (by id): only lines that mention it are parsed.
    pub fn signatures_of(&self, project_id: &str, id: &str) -> Result<Vec<Signature>> {
        let fragment = super::packages::json_fragment(id);
        let found = self.signatures_filtered(project_id, Some(fragment.as_bytes()))?;
        Ok(found
            .into_iter()
            .map(|(_, s)| s)
            .filter(|s| s.id == id)
            .collect())
    }

    fn signatures_filtered(
        &self,
        project_id: &str,
        prefilter: Option<&[u8]>,
    ) -> Result<Vec<(u64, Signature)>> {
        let mut out = Vec::new();
        // The signatures of records waiting in the clone's queue wait beside them.
        let queued = self.queued_signatures_file(project_id);
        let paths = std::iter::once(self.layout.signatures_file(project_id)).chain(queued);
        for path in paths {
            log::read_objects_filtered(&path, &self.diagnostics, prefilter, |line, map| {
                match Signature::from_line(Value::Object(map)) {
                    Ok(s) => out.push((line, s)),
                    Err(m) => self.diagnostics.warn(
                        &path,
                        line,
                        WarningKind::InvalidRecord,
                        format!("{m}; skipped"),
                    ),
                }
                Ok(())
            })?;
        }
        Ok(out)
    }

    /// The store's `allowed_signers` (none when the file is absent); a line that does not
    /// parse is an error naming the file and the line.
    pub fn allowed_signers(&self) -> Result<AllowedSigners> {
        let path = self.layout.allowed_signers();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(AllowedSigners::default());
            }
            Err(e) => return Err(Error::io(format!("cannot read {}", path.display()), e)),
        };
        AllowedSigners::parse(&text).map_err(|(line, m)| {
            Error::Integrity(format!(
                "{}:{line}: {m}; fix or remove that line",
                path.display()
            ))
        })
    }

    /// Whether `[sign] require = true`: unsigned records and keys not allowed fail verify.
    pub fn signatures_required(&self) -> bool {
        self.config.sign.require.unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_key(dir: &Path, mode: u32) -> PathBuf {
        let key = PrivateKey::random(&mut ssh_key::rand_core::OsRng, Algorithm::Ed25519).unwrap();
        let path = dir.join("key");
        std::fs::write(
            &path,
            key.to_openssh(ssh_key::LineEnding::LF).unwrap().as_bytes(),
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let _ = mode;
        path
    }

    #[test]
    fn keys_load_and_bad_ones_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_key(dir.path(), 0o600);
        let (signer, warning) = load_key(&path).unwrap();
        assert!(signer.fingerprint.starts_with("SHA256:"));
        assert_eq!(warning, None);
        #[cfg(unix)]
        {
            let open = write_key(dir.path(), 0o644);
            let warning = load_key(&open).unwrap().1.unwrap();
            assert!(warning.contains("mode 644"), "{warning}");
        }
        let missing = load_key(&dir.path().join("nope")).unwrap_err();
        assert!(missing.contains("cannot read the signing key") && missing.contains("nope"));
        std::fs::write(dir.path().join("pub"), "ssh-ed25519 AAAA x").unwrap();
        let public = load_key(&dir.path().join("pub")).unwrap_err();
        assert!(public.contains("public key"), "{public}");
    }

    #[test]
    fn a_closing_version_names_no_actor_and_is_signed_as_the_writer() {
        let f = Fact::from_value(serde_json::json!({"fact_id": "fact_1", "project_id": "p",
            "subject": "s", "predicate": "p", "value": "v", "valid_from": "2026-01-01T00:00:00Z",
            "created_at": "2026-01-01T00:00:00Z", "asserted_by": {"id": "ann", "type": "human"}}))
        .unwrap();
        let open = RecordVersion::fact(&f);
        assert_eq!(open.actor.as_deref(), Some("ann"));
        assert_eq!(open.signing_actor(Some("bo")), "ann");
        assert_eq!(open.hash, canonical::content_hash(&f.to_value()));
        let closed = crate::fact_chain::with_valid_to(&f, "2026-02-01T00:00:00Z").unwrap();
        let closing = RecordVersion::fact(&closed);
        assert_eq!(closing.actor, None);
        assert_eq!(closing.signing_actor(Some("bo")), "bo");
        assert_eq!(closing.signing_actor(None), "ann");
        assert_eq!(Some(closing.at), closed.valid_to());
    }
}
