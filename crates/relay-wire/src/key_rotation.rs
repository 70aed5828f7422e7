//! The key rotation record: a package of type `x-key-rotation` (a custom type, §12.2) in which
//! an actor states that a new key signs for it, deposited as that actor and signed with the
//! key it had. `allowed_signers` then gains the new key's line, and verify, reading the file's
//! git history, accepts a key added for an actor who already had one only when such a
//! statement, signed by that earlier key, names it. Members: `x-old-key` and `x-new-key` (the
//! keys' fingerprints, `SHA256:…`) and `x-new-public-key` (the new key, `ssh-ed25519 AAAA…`).
//! Pure: finding the packages and checking their signatures is the caller's.

use serde_json::{Map, Value, json};
use ssh_key::PublicKey;

use super::Package;
use super::signature::fingerprint;

/// The package type.
pub const TYPE: &str = "x-key-rotation";
/// The fingerprint of the key that signs the statement, the one the actor had.
pub const OLD_KEY: &str = "x-old-key";
/// The fingerprint of the key the actor signs with from now on.
pub const NEW_KEY: &str = "x-new-key";
/// The new key itself, as its `allowed_signers` line holds it.
pub const NEW_PUBLIC_KEY: &str = "x-new-public-key";

/// What a rotation package states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rotation {
    /// Whose keys: the package's `created_by.id`.
    pub actor: String,
    pub old_key: String,
    pub new_key: String,
}

/// What `package` states, when it is a rotation whose members are whole: both fingerprints,
/// and a new public key whose fingerprint is the one it names.
pub fn read(package: &Package) -> Option<Rotation> {
    if package.package_type() != TYPE {
        return None;
    }
    let map = package.as_map();
    let text = |k: &str| map.get(k).and_then(Value::as_str);
    let (old_key, new_key) = (text(OLD_KEY)?, text(NEW_KEY)?);
    let public = PublicKey::from_openssh(text(NEW_PUBLIC_KEY)?).ok()?;
    (fingerprint(&public) == new_key && old_key != new_key).then(|| Rotation {
        actor: package.created_by().id.to_string(),
        old_key: old_key.to_string(),
        new_key: new_key.to_string(),
    })
}

/// The members of the statement that `actor` (of `actor_type`) moves from the key whose
/// fingerprint is `old_key` to `new_key`; the deposit fills in the rest.
pub fn input(
    actor: &str,
    actor_type: &str,
    old_key: &str,
    new_key: &PublicKey,
) -> Result<Map<String, Value>, String> {
    let public = new_key
        .to_openssh()
        .map_err(|e| format!("cannot encode the new key: {e}"))?;
    let new = fingerprint(new_key);
    let Value::Object(map) = json!({
        "title": format!("{actor} signs with a new key, {new}"),
        "description": format!(
            "A key rotation: from now on {actor} signs with {new}, which replaces {old_key}. \
             This statement is signed with {old_key}, so verify accepts the new key's line in \
             allowed_signers."
        ),
        "package_type": TYPE,
        "created_by": {"id": actor, "type": actor_type},
        OLD_KEY: old_key,
        NEW_KEY: new,
        NEW_PUBLIC_KEY: public,
    }) else {
        unreachable!("a JSON object literal")
    };
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssh_key::rand_core::OsRng;
    use ssh_key::{Algorithm, PrivateKey};

    fn key() -> PublicKey {
        PrivateKey::random(&mut OsRng, Algorithm::Ed25519)
            .unwrap()
            .public_key()
            .clone()
    }

    fn package(map: Map<String, Value>) -> Package {
        let mut map = map;
        for (k, v) in [
            ("package_id", json!("pkg_00000000000000000000000000000001")),
            ("project_id", json!("demo")),
            ("relay_version", json!("0.1")),
            ("created_at", json!("2026-06-01T00:00:00Z")),
            ("status", json!("complete")),
            ("review_type", json!("none")),
        ] {
            map.insert(k.into(), v);
        }
        Package::from_map(map).unwrap()
    }

    #[test]
    fn a_statement_reads_back_and_a_broken_one_is_none() {
        let (old, new) = (key(), key());
        let made = input("jo", "human", &fingerprint(&old), &new).unwrap();
        assert_eq!(made["package_type"], TYPE);
        let read_back = read(&package(made.clone())).unwrap();
        assert_eq!(
            read_back,
            Rotation {
                actor: "jo".into(),
                old_key: fingerprint(&old),
                new_key: fingerprint(&new),
            }
        );
        // The new key's fingerprint must be that of the key it carries.
        let mut lying = made.clone();
        lying.insert(NEW_KEY.into(), json!(fingerprint(&key())));
        assert_eq!(read(&package(lying)), None);
        let mut plain = made;
        plain.insert("package_type".into(), json!("standard"));
        assert_eq!(read(&package(plain)), None);
    }
}
