//! verify's check of a month's package index against its log ([`super::check()`]) without a
//! second index in memory. Comparing the file with a fresh index built in full held every
//! posting of the month: tens of MB a thread for a month of 500-word
//! descriptions at 1M packages. Here the fresh build keeps each stem's count and folds its
//! postings into a [`PostingDigest`], and the file is read once, front to back:
//! - the tables in document order (counts, documents, ids, ranks, id table) must be, byte for
//!   byte, what writing the fresh index gives;
//! - the stem dictionary and the stems must be the fresh stems, sorted, with running offsets
//!   and each stem's count of postings;
//! - each stem's postings must name its documents ascending, and all of them must fold to the
//!   fresh digest.
//!
//! The digest is the wrapping sum of a mix of each posting (stem, document, weighted count,
//! places) under keys drawn at random by each process: postings that differ in any way fold
//! to the same sum with odds of about one in 2^64.

use std::collections::hash_map::RandomState;
use std::fs::File;
use std::hash::BuildHasher;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::file::{
    Blocks, Counts, DICT_BYTES, DictEntry, POSTING_BYTES, each_posting, put_counts, put_docs,
    put_ids, put_ranks_and_id_table,
};
use super::{MonthIndex, Posting};

/// What a fresh build for verify keeps of the postings instead of the postings: per stem
/// slot, its stem's hash and how many documents hold it, and the sum of every posting's mix.
#[derive(Debug)]
pub(super) struct PostingDigest {
    keys: RandomState,
    /// Mixed into every posting, drawn with `keys`.
    posting_key: u64,
    stems: Vec<StemTally>,
    sum: u64,
}

#[derive(Debug, Clone, Copy)]
struct StemTally {
    hash: u64,
    postings: u32,
}

impl Default for PostingDigest {
    fn default() -> PostingDigest {
        let keys = RandomState::new();
        PostingDigest {
            posting_key: keys.hash_one(u64::MAX),
            keys,
            stems: Vec::new(),
            sum: 0,
        }
    }
}

impl PostingDigest {
    /// Makes the next slot, for `stem`.
    pub(super) fn add_stem(&mut self, stem: &str) {
        self.stems.push(StemTally {
            hash: self.keys.hash_one(stem),
            postings: 0,
        });
    }

    /// Folds in a posting of the stem in `slot`.
    pub(super) fn add(&mut self, slot: usize, posting: Posting) {
        let tally = &mut self.stems[slot];
        tally.postings += 1;
        self.sum = self
            .sum
            .wrapping_add(mix(tally.hash, posting, self.posting_key));
    }
}

/// One posting's share of the digest: the stem's hash and the packed posting, each through
/// MurmurHash3's 64-bit finalizer (a bijection that moves every output bit with each input
/// bit), so that no two postings of a month mix alike but by chance.
fn mix(stem_hash: u64, p: Posting, key: u64) -> u64 {
    let packed = (u64::from(p.doc) << 32) | (u64::from(p.tf) << 16) | u64::from(p.places);
    fmix64(stem_hash ^ fmix64(packed ^ key))
}

fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Whether the index file at `path`, its header line aside, holds what writing `fresh` would
/// give, as far as `digest` (`fresh`'s postings) tells.
pub(super) fn body_is(
    path: &Path,
    fresh: &MonthIndex,
    digest: &PostingDigest,
) -> std::io::Result<bool> {
    let mut file = BufReader::with_capacity(1 << 16, File::open(path)?);
    let mut header = Vec::new();
    file.read_until(b'\n', &mut header)?;
    let held = |slot: u32| digest.stems.get(slot as usize).map_or(0, |t| t.postings);
    let counts = Counts {
        docs: fresh.docs.len() as u32,
        stems: digest.stems.iter().filter(|t| t.postings > 0).count() as u32,
        postings: digest.stems.iter().map(|t| u64::from(t.postings)).sum(),
        ids_len: fresh.docs.iter().map(|d| d.id.len() as u64).sum(),
        stems_len: (fresh.terms.iter())
            .filter(|&(_, slot)| held(slot) > 0)
            .map(|(stem, _)| stem.len() as u64)
            .sum(),
    };
    let docs = &fresh.docs;
    if !same(&mut file, |out| {
        put_counts(out, counts)?;
        put_docs(out, docs)
    })? {
        return Ok(false);
    }
    let Some(dict) = read_dict(&mut file, counts)? else {
        return Ok(false);
    };
    if !same(&mut file, |out| put_ids(out, docs))? {
        return Ok(false);
    }
    let mut stems = vec![0u8; counts.stems_len as usize];
    if !read_all(&mut file, &mut stems)? {
        return Ok(false);
    }
    let Some(hashes) = stem_hashes(&dict, &stems, fresh, digest) else {
        return Ok(false);
    };
    drop(stems);
    if !postings_fold_to(&mut file, &dict, &hashes, counts.docs, digest)? {
        return Ok(false);
    }
    if !same(&mut file, |out| put_ranks_and_id_table(out, docs))? {
        return Ok(false);
    }
    Ok(file.fill_buf()?.is_empty())
}

/// Whether the next bytes of `file` are those `put` writes.
fn same(
    file: &mut BufReader<File>,
    put: impl FnOnce(&mut Blocks<'_>) -> std::io::Result<()>,
) -> std::io::Result<bool> {
    let mut compare = SameBytes {
        file,
        equal: true,
        scratch: Vec::new(),
    };
    let mut out = Blocks::new(&mut compare);
    put(&mut out)?;
    out.finish()?;
    Ok(compare.equal)
}

/// A writer that compares what it is given with the next bytes of a file.
struct SameBytes<'a> {
    file: &'a mut BufReader<File>,
    equal: bool,
    scratch: Vec<u8>,
}

impl std::io::Write for SameBytes<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.equal {
            self.scratch.resize(buf.len(), 0);
            self.equal = read_all(self.file, &mut self.scratch)? && self.scratch == buf;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Fills `buf` from `file`; false when the file ends first.
fn read_all(file: &mut BufReader<File>, buf: &mut [u8]) -> std::io::Result<bool> {
    match file.read_exact(buf) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(e),
    }
}

/// The stem dictionary, when it is what writing gives for `counts`: each entry's stem and
/// postings start where the one before ends, its padding is zero and it has postings.
fn read_dict(
    file: &mut BufReader<File>,
    counts: Counts,
) -> std::io::Result<Option<Vec<DictEntry>>> {
    let mut dict = Vec::with_capacity(counts.stems as usize);
    let (mut stem_at, mut posting_at) = (0u64, 0u64);
    let mut raw = [0u8; DICT_BYTES];
    for _ in 0..counts.stems {
        if !read_all(file, &mut raw)? {
            return Ok(None);
        }
        let Some(entry) = DictEntry::decode(&raw) else {
            return Ok(None);
        };
        let runs_on = u64::from(entry.stem_off) == stem_at && entry.post_off == posting_at;
        if !runs_on || entry.pad != 0 || entry.postings == 0 {
            return Ok(None);
        }
        stem_at += u64::from(entry.stem_len);
        posting_at += u64::from(entry.postings);
        dict.push(entry);
    }
    let whole = stem_at == counts.stems_len && posting_at == counts.postings;
    Ok(whole.then_some(dict))
}

/// The hash of each stem of the dictionary, when the stems are the fresh ones in order: each
/// after the one before, held by the fresh index with as many postings. With as many stems as
/// the fresh index holds, they are then all of its stems.
fn stem_hashes(
    dict: &[DictEntry],
    stems: &[u8],
    fresh: &MonthIndex,
    digest: &PostingDigest,
) -> Option<Vec<u64>> {
    let mut hashes = Vec::with_capacity(dict.len());
    let (mut at, mut before) = (0usize, None::<&str>);
    for entry in dict {
        let len = usize::from(entry.stem_len);
        let stem = std::str::from_utf8(stems.get(at..at + len)?).ok()?;
        at += len;
        if before.is_some_and(|b| b >= stem) {
            return None;
        }
        before = Some(stem);
        let tally = digest.stems.get(fresh.terms.get(stem)? as usize)?;
        if tally.postings != entry.postings {
            return None;
        }
        hashes.push(tally.hash);
    }
    Some(hashes)
}

/// Whether the postings table, read from `file`, names for each stem of `dict` its documents
/// ascending, each below `docs`, and folds to the digest's sum.
fn postings_fold_to(
    file: &mut BufReader<File>,
    dict: &[DictEntry],
    hashes: &[u64],
    docs: u32,
    digest: &PostingDigest,
) -> std::io::Result<bool> {
    let mut sum = 0u64;
    let mut raw = Vec::new();
    for (entry, &stem_hash) in dict.iter().zip(hashes) {
        raw.resize(entry.postings as usize * POSTING_BYTES, 0);
        if !read_all(file, &mut raw)? {
            return Ok(false);
        }
        let (mut next_doc, mut ascending) = (0u32, true);
        let named = each_posting(&raw, docs as usize, |posting| {
            ascending &= posting.doc >= next_doc;
            next_doc = posting.doc + 1;
            sum = sum.wrapping_add(mix(stem_hash, posting, digest.posting_key));
        });
        if named.is_none() || !ascending {
            return Ok(false);
        }
    }
    Ok(sum == digest.sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posting_that_differs_in_any_field_or_stem_mixes_apart() {
        let digest = PostingDigest::default();
        let p = Posting {
            doc: 7,
            tf: 3,
            places: 0x0102,
        };
        let (stem, other_stem) = (digest.keys.hash_one("leak"), digest.keys.hash_one("pool"));
        let base = mix(stem, p, digest.posting_key);
        for changed in [
            mix(other_stem, p, digest.posting_key),
            mix(stem, Posting { doc: 8, ..p }, digest.posting_key),
            mix(stem, Posting { tf: 4, ..p }, digest.posting_key),
            mix(
                stem,
                Posting {
                    places: 0x0103,
                    ..p
                },
                digest.posting_key,
            ),
        ] {
            assert_ne!(changed, base);
        }
        // Drawn afresh by each digest: a file cannot be made to fold to a known sum.
        assert_ne!(PostingDigest::default().posting_key, digest.posting_key);
    }
}
