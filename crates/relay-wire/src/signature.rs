//! Signed records: what relay signs for each kind of record, the line of a project's
//! `signatures.ndjson`, and making and checking one OpenSSH signature (SSHSIG, namespace
//! `relay`, SHA-512). What is signed is always a `sha256:<hex>` content hash as bytes, so a
//! signature never changes a record or its hash and survives any re-layout of the lines.
//! Pure: keys arrive loaded.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use ssh_key::{HashAlg, LineEnding, PrivateKey, PublicKey, SshSig};

use super::canonical;

/// The SSHSIG namespace of every relay signature (`ssh-keygen -Y verify -n relay`).
pub const NAMESPACE: &str = "relay";

/// The kind of record a signature covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordKind {
    /// A package's first version: its package hash.
    Package,
    /// A later version of a package (a review transition): [`transition_hash`].
    Transition,
    /// One version (line) of a fact.
    Fact,
    /// One version (line) of a session.
    Session,
    /// A retraction line (`retractions.ndjson`): the content hash of its `retraction`
    /// object; the id is the retracted record's.
    Retraction,
}

impl RecordKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Package => "package",
            RecordKind::Transition => "transition",
            RecordKind::Fact => "fact",
            RecordKind::Session => "session",
            RecordKind::Retraction => "retraction",
        }
    }
}

/// One signature: which record version (kind, id, hash) it covers, who signed as which actor,
/// with which key, and the armored SSHSIG itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Signature {
    pub record: RecordKind,
    /// The package, fact or session id.
    pub id: String,
    /// The signed hash: `sha256:` and 64 lowercase hex digits.
    pub hash: String,
    /// The actor the signer signed as.
    pub actor: String,
    /// The signing key's fingerprint, `SHA256:…` as `ssh-keygen -l` prints it.
    pub key: String,
    /// `-----BEGIN SSH SIGNATURE-----` … `-----END SSH SIGNATURE-----`.
    pub sshsig: String,
}

/// A line of `signatures.ndjson`: `{"signature": {…}}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SignatureLine {
    pub signature: Signature,
}

impl Signature {
    /// Reads a line's object; the error says what is wrong with its shape.
    pub fn from_line(value: Value) -> Result<Signature, String> {
        let line: SignatureLine =
            serde_json::from_value(value).map_err(|e| format!("not a signature line ({e})"))?;
        let s = line.signature;
        if !is_content_hash(&s.hash) {
            return Err(format!(
                "`hash` {:?} is not sha256: and 64 hex digits",
                s.hash
            ));
        }
        if s.id.is_empty() {
            return Err("`id` is empty".into());
        }
        Ok(s)
    }
}

/// Whether `s` is `sha256:` followed by 64 lowercase hex digits.
pub fn is_content_hash(s: &str) -> bool {
    s.strip_prefix("sha256:").is_some_and(|h| {
        h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// What a transition (a package version after the first) is signed as: the content hash of
/// the canonical JSON of `{"hash": <that version's package hash>, "version": N, "transition":
/// <the transition's metadata>}`, so a signature binds the reviewer's action, time and note
/// to the package state it produced, not only the package.
pub fn transition_hash(package_hash: &str, version: u64, transition: &Value) -> String {
    canonical::content_hash(&json!({
        "hash": package_hash,
        "version": version,
        "transition": transition,
    }))
}

/// A key's fingerprint as OpenSSH prints it: `SHA256:` and unpadded base64.
pub fn fingerprint(key: &PublicKey) -> String {
    key.fingerprint(HashAlg::Sha256).to_string()
}

/// Signs `hash` with `key`: the armored SSHSIG.
pub fn sign(key: &PrivateKey, hash: &str) -> Result<String, String> {
    key.sign(NAMESPACE, HashAlg::Sha512, hash.as_bytes())
        .and_then(|s| s.to_pem(LineEnding::LF))
        .map_err(|e| format!("cannot sign: {e}"))
}

/// Checks that `sig.sshsig` is a valid relay signature of `sig.hash` made by the key the line
/// names. Returns the key that made it; the error says why it does not verify.
pub fn check(sig: &Signature) -> Result<PublicKey, String> {
    let parsed =
        SshSig::from_pem(&sig.sshsig).map_err(|e| format!("the signature does not parse ({e})"))?;
    if parsed.namespace() != NAMESPACE {
        return Err(format!(
            "the signature is for namespace `{}`, not `{NAMESPACE}`",
            parsed.namespace()
        ));
    }
    let key = PublicKey::from(parsed.public_key().clone());
    key.verify(NAMESPACE, sig.hash.as_bytes(), &parsed)
        .map_err(|_| format!("the signature does not verify against {}", sig.hash))?;
    let made_by = fingerprint(&key);
    if made_by != sig.key {
        return Err(format!(
            "the line names key {} but the signature was made by {made_by}",
            sig.key
        ));
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssh_key::Algorithm;
    use ssh_key::rand_core::OsRng;

    pub(crate) fn key() -> PrivateKey {
        PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap()
    }

    fn signed(key: &PrivateKey, hash: &str) -> Signature {
        Signature {
            record: RecordKind::Fact,
            id: "fact_1".into(),
            hash: hash.into(),
            actor: "jo".into(),
            key: fingerprint(key.public_key()),
            sshsig: sign(key, hash).unwrap(),
        }
    }

    const H1: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";
    const H2: &str = "sha256:2222222222222222222222222222222222222222222222222222222222222222";

    #[test]
    fn a_signature_verifies_only_for_its_hash_and_key() {
        let k = key();
        let s = signed(&k, H1);
        assert!(s.sshsig.starts_with("-----BEGIN SSH SIGNATURE-----\n"));
        assert_eq!(fingerprint(&check(&s).unwrap()), s.key);
        let moved = Signature {
            hash: H2.into(),
            ..s.clone()
        };
        assert!(check(&moved).unwrap_err().contains("does not verify"));
        let other = Signature {
            key: fingerprint(key().public_key()),
            ..s.clone()
        };
        assert!(check(&other).unwrap_err().contains("names key"));
        let garbage = Signature {
            sshsig: "x".into(),
            ..s
        };
        assert!(check(&garbage).unwrap_err().contains("does not parse"));
    }

    #[test]
    fn lines_round_trip_and_bad_shapes_are_named() {
        let s = signed(&key(), H1);
        let line = serde_json::to_value(SignatureLine {
            signature: s.clone(),
        })
        .unwrap();
        assert_eq!(line["signature"]["record"], "fact");
        assert_eq!(Signature::from_line(line.clone()).unwrap(), s);
        let mut bad = line.clone();
        bad["signature"]["hash"] = json!("sha256:XY");
        assert!(Signature::from_line(bad).unwrap_err().contains("`hash`"));
        let mut bad = line;
        bad["signature"]["record"] = json!("project");
        assert!(
            Signature::from_line(bad)
                .unwrap_err()
                .contains("not a signature line")
        );
    }

    #[test]
    fn a_transition_hash_covers_the_version_and_its_metadata() {
        let t = json!({"action": "approve", "by": {"id": "jo"}});
        let a = transition_hash(H1, 2, &t);
        assert!(is_content_hash(&a));
        assert_ne!(a, transition_hash(H1, 3, &t));
        assert_ne!(a, transition_hash(H2, 2, &t));
        assert_ne!(a, transition_hash(H1, 2, &json!({"action": "approve"})));
    }
}
