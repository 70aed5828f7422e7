//! New record ids: a kind prefix and 32 lowercase hex digits from the operating system's CSPRNG.

/// A fresh id such as `pkg_1a2b…` (prefix `pkg`, `fact` or `sess`).
pub fn new_id(prefix: &str) -> String {
    let mut bytes = [0u8; 16];
    // The OS generator only fails on a broken platform; fall back to time and process id mixed
    // through SHA-256 rather than failing a deposit.
    if getrandom::fill(&mut bytes).is_err() {
        use sha2::{Digest, Sha256};
        let seed = format!("{:?}{}", std::time::SystemTime::now(), std::process::id());
        bytes.copy_from_slice(&Sha256::digest(seed.as_bytes())[..16]);
    }
    let mut id = String::with_capacity(prefix.len() + 33);
    id.push_str(prefix);
    id.push('_');
    for b in bytes {
        id.push_str(&format!("{b:02x}"));
    }
    id
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_have_prefix_and_32_hex_digits_and_differ() {
        let a = super::new_id("pkg");
        let b = super::new_id("pkg");
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert!(a.starts_with("pkg_"));
        assert!(
            a[4..]
                .chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
    }
}
