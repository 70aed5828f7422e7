//! The term table of a month index: stem → slot. Building an index looks a stem up for every
//! word of every line, which on prose-heavy corpora was a fifth of the build (a string hash
//! and a `memcmp` per word), and then mostly a wait on memory: a map of 30,000 stems with
//! 32-byte entries did not fit in a core's cache. A stem of up to 15 bytes (nearly all) is
//! packed with its length into one `u128`, hashed by one folded multiply and compared as an
//! integer. Its bucket is a 4-byte slot number in an open-addressed array kept at most half
//! full (256 KiB for 30,000 stems), and the keys sit by slot: in the order stems were first
//! seen when an index is built, so a common word's key is in the few hot lines at the front.
//! Longer stems keep a string key. The stems are also kept by slot, for listing them, end to
//! end in one string: a month of a large vocabulary has a hundred thousand stems or more, and
//! a string each cost 40 bytes and an allocation beside their text.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::super::Fnv;

#[derive(Debug, Default)]
pub(super) struct StemTable {
    /// Open addressing, linear probing: each bucket holds a short stem's slot + 1, or 0.
    buckets: Vec<u32>,
    /// Each slot's packed key ([`pack`]), or 0 for a long stem (no packed key is 0).
    keys: Vec<u128>,
    long: HashMap<String, u32, BuildHasherDefault<Fnv>>,
    /// Every slot's stem, end to end, and where each one ends in it.
    text: String,
    ends: Vec<usize>,
    /// How many short stems the buckets hold.
    short: usize,
}

impl StemTable {
    /// The slot of `stem`, if it has one.
    pub(super) fn get(&self, stem: &str) -> Option<u32> {
        match pack(stem) {
            Some(key) => self.find(key).ok(),
            None => self.long.get(stem).copied(),
        }
    }

    /// The slot of `stem`, and whether it was made now (the next slot in order).
    pub(super) fn slot(&mut self, stem: &str) -> (u32, bool) {
        let next = self.ends.len() as u32;
        match pack(stem) {
            Some(key) => {
                if (self.short + 1) * 2 > self.buckets.len() {
                    self.grow();
                }
                match self.find(key) {
                    Ok(slot) => return (slot, false),
                    Err(bucket) => {
                        self.buckets[bucket] = next + 1;
                        self.short += 1;
                        self.keys.push(key);
                    }
                }
            }
            None => match self.long.get(stem) {
                Some(&slot) => return (slot, false),
                None => {
                    self.long.insert(stem.to_string(), next);
                    self.keys.push(0);
                }
            },
        }
        self.text.push_str(stem);
        self.ends.push(self.text.len());
        (next, true)
    }

    /// The slot of a packed key, or the empty bucket where it would go.
    fn find(&self, key: u128) -> Result<u32, usize> {
        if self.buckets.is_empty() {
            return Err(0);
        }
        let mask = self.buckets.len() - 1;
        let mut bucket = (hash(key) as usize) & mask;
        loop {
            match self.buckets[bucket] {
                0 => return Err(bucket),
                taken if self.keys[taken as usize - 1] == key => return Ok(taken - 1),
                _ => bucket = (bucket + 1) & mask,
            }
        }
    }

    /// Doubles the buckets (at least 1,024) and puts every short stem back.
    fn grow(&mut self) {
        let size = (self.buckets.len() * 2).max(1 << 10);
        self.buckets = vec![0; size];
        let mask = size - 1;
        for (slot, &key) in self.keys.iter().enumerate() {
            if key == 0 {
                continue;
            }
            let mut bucket = (hash(key) as usize) & mask;
            while self.buckets[bucket] != 0 {
                bucket = (bucket + 1) & mask;
            }
            self.buckets[bucket] = slot as u32 + 1;
        }
    }

    /// Every stem with its slot.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        (starts.zip(&self.ends).enumerate())
            .map(|(slot, (start, &end))| (&self.text[start..end], slot as u32))
    }
}

/// The bytes of a stem of 1 to 15 bytes with its length in the last byte: equal keys are
/// equal stems, and the first byte is never 0 (a stem holds no NUL from a word's alphanumeric
/// run). Other stems, the empty one included, keep a string key.
fn pack(stem: &str) -> Option<u128> {
    let bytes = stem.as_bytes();
    // An empty stem (only from a damaged index file) would pack to 0, the long stems' mark.
    if bytes.is_empty() || bytes.len() > 15 {
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
fn hash(key: u128) -> u64 {
    const LOW: u64 = 0x243f_6a88_85a3_08d3 & !0xff;
    const HIGH: u64 = 0x1319_8a2e_0370_7344 | (0xf0 << 56);
    let (low, high) = (key as u64 ^ LOW, (key >> 64) as u64 ^ HIGH);
    let product = u128::from(low) * u128::from(high);
    product as u64 ^ (product >> 64) as u64
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
        assert_eq!(table.get(""), None);
        assert_eq!(table.slot(""), (7, true));
        assert_eq!(table.get(""), Some(7));
        assert_eq!(table.get("sixteen16bytess"), None);
        let listed: Vec<(&str, u32)> = table.iter().collect();
        assert_eq!(listed[3], ("sixteen16bytesss", 3));
        assert_eq!(listed.len(), 8);
    }

    #[test]
    fn a_table_that_grows_keeps_every_slot() {
        let mut table = StemTable::default();
        let stems: Vec<String> = (0..50_000).map(|i| format!("s{i}")).collect();
        for (i, stem) in stems.iter().enumerate() {
            assert_eq!(table.slot(stem), (i as u32, true));
        }
        let long = "a-stem-longer-than-fifteen-bytes";
        assert_eq!(table.slot(long), (50_000, true));
        for (i, stem) in stems.iter().enumerate() {
            assert_eq!(table.slot(stem), (i as u32, false));
            assert_eq!(table.get(stem), Some(i as u32));
        }
        assert_eq!(table.get(long), Some(50_000));
        assert_eq!(table.get("s50000"), None);
        assert!(table.buckets.len() >= 2 * 50_000);
    }

    #[test]
    fn keys_differ_by_length_as_well_as_bytes() {
        assert_ne!(pack("ab"), pack("ab\0"));
        assert_eq!(pack("0123456789abcdef"), None);
        let hashes: std::collections::BTreeSet<u64> = (0..10_000)
            .map(|i| hash(pack(&format!("w{i}")).unwrap()))
            .collect();
        assert_eq!(hashes.len(), 10_000);
    }
}
