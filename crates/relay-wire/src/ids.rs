//! New record ids: a kind prefix and 32 lowercase hex digits from the operating system's CSPRNG.

/// 16 random bytes from the OS generator (a hash of time and pid should it ever fail).
pub fn random_bytes() -> [u8; 16] {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        use sha2::{Digest, Sha256};
        let seed = format!("{:?}{}", std::time::SystemTime::now(), std::process::id());
        bytes.copy_from_slice(&Sha256::digest(seed.as_bytes())[..16]);
    }
    bytes
}

/// A random number below `n` (n > 0).
pub fn random_below(n: usize) -> usize {
    let b = random_bytes();
    let x = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    (x % n.max(1) as u64) as usize
}

/// A fresh id such as `pkg_1a2b…` (prefix `pkg`, `fact` or `sess`).
pub fn new_id(prefix: &str) -> String {
    let bytes = random_bytes();
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
