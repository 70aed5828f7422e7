//! The term table of a month index: stem → slot. Building an index looks a stem up for every
//! word of every line, which on prose-heavy corpora was a fifth of the build (a string hash
//! and a `memcmp` per word). A stem of up to 15 bytes (nearly all) is packed with its length
//! into one `u128` that is hashed by one folded multiply and compared as an integer; longer
//! ones keep a string key. The stems are also kept by slot, for listing them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::super::Fnv;

#[derive(Debug, Default)]
pub(super) struct StemTable {
    short: HashMap<u128, u32, BuildHasherDefault<Folded>>,
    long: HashMap<String, u32, BuildHasherDefault<Fnv>>,
    /// Each slot's stem.
    stems: Vec<String>,
}

impl StemTable {
    /// The slot of `stem`, if it has one.
    pub(super) fn get(&self, stem: &str) -> Option<u32> {
        match pack(stem) {
            Some(key) => self.short.get(&key).copied(),
            None => self.long.get(stem).copied(),
        }
    }

    /// The slot of `stem`, and whether it was made now (the next slot in order).
    pub(super) fn slot(&mut self, stem: &str) -> (u32, bool) {
        let next = self.stems.len() as u32;
        let slot = match pack(stem) {
            Some(key) => *self.short.entry(key).or_insert(next),
            None => match self.long.get(stem) {
                Some(&slot) => slot,
                None => *self.long.entry(stem.to_string()).or_insert(next),
            },
        };
        let made = slot == next;
        if made {
            self.stems.push(stem.to_string());
        }
        (slot, made)
    }

    /// Every stem with its slot.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        (self.stems.iter().enumerate()).map(|(slot, stem)| (stem.as_str(), slot as u32))
    }
}

/// The bytes of a stem of up to 15 bytes with its length in the last byte: equal keys are
/// equal stems, and the first byte is never 0 (a stem is not empty and holds no NUL from a
/// word's alphanumeric run).
fn pack(stem: &str) -> Option<u128> {
    let bytes = stem.as_bytes();
    if bytes.len() > 15 {
        return None;
    }
    // Put together in registers: bytes written to memory and read back as one integer stall
    // the load that follows them.
    let low = |part: &[u8]| -> u64 {
        (part.iter().enumerate()).fold(0, |key, (i, &b)| key | u64::from(b) << (8 * i))
    };
    let (first, rest) = bytes.split_at(bytes.len().min(8));
    let high = low(rest) | (bytes.len() as u64) << 56;
    Some(u128::from(low(first)) | u128::from(high) << 64)
}

/// The hash of a packed stem: its halves multiplied, full width, and the product's halves
/// folded together. Each half is first offset by a constant it can never equal (the low
/// half's first byte is not 0; the high half's last byte is a length under 16), so neither
/// factor is ever 0. Not for keys an adversary chooses to collide: the stems come from the
/// store being indexed, as for [`Fnv`].
#[derive(Default)]
pub(super) struct Folded(u64);

impl Hasher for Folded {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u128` keys are hashed here; anything else gets FNV.
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u128(&mut self, key: u128) {
        const LOW: u64 = 0x243f_6a88_85a3_08d3 & !0xff;
        const HIGH: u64 = 0x1319_8a2e_0370_7344 | (0xf0 << 56);
        let (low, high) = (key as u64 ^ LOW ^ self.0, (key >> 64) as u64 ^ HIGH);
        let product = u128::from(low) * u128::from(high);
        self.0 = product as u64 ^ (product >> 64) as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_stems_keep_their_slots() {
        let mut table = StemTable::default();
        let stems = [
            "leak",
            "a",
            "exactly15bytess",
            "sixteen16bytesss",
            "internationalizat",
            "café",
            "東京",
            "leak",
        ];
        let slots: Vec<(u32, bool)> = stems.iter().map(|s| table.slot(s)).collect();
        assert_eq!(
            slots,
            [
                (0, true),
                (1, true),
                (2, true),
                (3, true),
                (4, true),
                (5, true),
                (6, true),
                (0, false)
            ]
        );
        for (i, stem) in stems[..7].iter().enumerate() {
            assert_eq!(table.get(stem), Some(i as u32), "{stem}");
        }
        assert_eq!(table.get("leaks"), None);
        assert_eq!(table.get("exactly15bytes"), None);
        let listed: Vec<(&str, u32)> = table.iter().collect();
        assert_eq!(listed[3], ("sixteen16bytesss", 3));
        assert_eq!(listed.len(), 7);
    }

    #[test]
    fn keys_differ_by_length_as_well_as_bytes() {
        assert_ne!(pack("ab"), pack("ab\0"));
        assert_eq!(pack("0123456789abcdef"), None);
        let hash = |s: &str| {
            let mut h = Folded::default();
            h.write_u128(pack(s).unwrap());
            h.finish()
        };
        let hashes: std::collections::BTreeSet<u64> =
            (0..10_000).map(|i| hash(&format!("w{i}"))).collect();
        assert_eq!(hashes.len(), 10_000);
    }
}
