//! What a relevant pull's scan keeps of each candidate line, and how the versions of one
//! package among them settle to its current one: kept apart from the scan and the ranking,
//! which only push candidates in and read the survivors and their statistics out.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use relay_store::index::DocRecord;
use relay_store::index::KeyHashing;

use crate::search::filter::Filter;
use relay_store::index::Places;
use relay_store::packages::VersionKey;
use relay_wire::Status;

/// What is kept of a candidate line until the scores are known: 56 bytes, plus its term
/// weights in its [`Part`]'s `tf`. Memory follows the matches (hundreds of thousands for a
/// broad query at a million packages), so the record is kept small.
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    /// The key of its package id ([`relay_store::index::id_key`]), which candidates are
    /// deduplicated by: two ids of one store sharing one is about as likely as 1 in 10^7 at
    /// a million packages, and the winners' ids are read back from their lines.
    pub(super) id: u64,
    pub(super) offset: u64,
    /// With `status`, the version order of `store::packages::version_order` (see
    /// [`Candidate::order`]).
    pub(super) version: u64,
    pub(super) hash_prefix: u64,
    /// When it was made, in microseconds since the epoch (as the index holds it).
    pub(super) created_micros: i64,
    pub(super) len: f32,
    pub(super) file: u32,
    pub(super) status: Status,
    /// A draft that only its creator may see, when the viewer may not be anyone: whether it
    /// is shown is asked (of its line, and of the viewer's identity, which may cost a git
    /// process) only if it reaches the results.
    pub(super) ask_viewer: bool,
    pub(super) significance: i8,
    /// Whether a newer version of its package was found.
    pub(super) superseded: bool,
    /// Whether it is of the status asked for, and so counts in the statistics while it is not
    /// superseded.
    pub(super) counted: bool,
}

impl Candidate {
    /// Line `r` of log `file`, from its index record, not yet settled: counted if `filter`
    /// asks for its status.
    pub(super) fn of_record(file: u32, r: DocRecord<'_>, filter: &Filter) -> Candidate {
        let status = r.status();
        Candidate {
            id: r.key(),
            offset: r.offset(),
            version: u64::from(r.version()),
            hash_prefix: r.hash_prefix(),
            created_micros: r.created_micros(),
            len: r.len(),
            file,
            status,
            ask_viewer: filter.may_hide(status),
            significance: r.significance(),
            superseded: false,
            counted: filter.status.is_none_or(|s| s == status),
        }
    }

    /// The store's version order as the candidate knows it (a tie is as unlikely as a
    /// SHA-256 prefix collision).
    pub(super) fn order(&self) -> VersionKey {
        VersionKey::new(self.status, self.version, self.hash_prefix)
    }
}

/// The totals the scan gathers besides candidates.
#[derive(Default)]
pub(super) struct Totals {
    /// Documents in the indexed logs (counted exactly).
    pub(super) indexed_docs: u64,
    /// Bytes of the logs scanned without an index.
    pub(super) bytes_scanned: u64,
    pub(super) candidate_bytes: u64,
    pub(super) candidate_lines: u64,
}

/// The statistics BM25 needs, over the candidates counted (each package's current version of
/// the status asked for), kept as the candidates are: no pass over them is needed for these.
#[derive(Default, Clone)]
pub(super) struct Stats {
    pub(super) count: usize,
    /// Summed in f64, which is exact while the field weights are whole numbers: the average
    /// (and so every score) does not depend on the order the candidates come in, or go.
    pub(super) total_len: f64,
    /// Per query term, the candidates holding it.
    pub(super) df: Vec<f32>,
}

impl Stats {
    pub(super) fn add(&mut self, len: f32, tf: &[f32], sign: i8) {
        if self.df.len() < tf.len() {
            self.df.resize(tf.len(), 0.0);
        }
        self.count = self.count.wrapping_add_signed(isize::from(sign));
        self.total_len += f64::from(sign) * f64::from(len);
        for (d, &t) in self.df.iter_mut().zip(tf) {
            if t > 0.0 {
                *d += f32::from(sign);
            }
        }
    }

    pub(super) fn merge(&mut self, other: &Stats) {
        self.merge_signed(other, 1);
    }

    /// Takes `other`, a part of these, back out of them.
    pub(super) fn subtract(&mut self, other: &Stats) {
        self.merge_signed(other, -1);
    }

    fn merge_signed(&mut self, other: &Stats, sign: i8) {
        if self.df.len() < other.df.len() {
            self.df.resize(other.df.len(), 0.0);
        }
        // A part's count may have wrapped below zero while its candidates were settled.
        self.count = match sign {
            1 => self.count.wrapping_add(other.count),
            _ => self.count.wrapping_sub(other.count),
        };
        self.total_len += f64::from(sign) * other.total_len;
        for (d, o) in self.df.iter_mut().zip(&other.df) {
            *d += f32::from(sign) * o;
        }
    }
}

/// What one scan thread keeps: every candidate line, versions of one package included;
/// [`settle_duplicates`] then marks all but each package's current version superseded (a
/// common word's million candidates are nearly all of packages with one version, so finding
/// the few shared ids at the end costs less than a map of ids per log along the way).
#[derive(Default)]
pub(super) struct Part {
    pub(super) candidates: Vec<Candidate>,
    /// The query's term weights of each candidate, in candidate order, `terms` apiece.
    pub(super) tf: Vec<f32>,
    pub(super) totals: Totals,
    /// The status asked for (`None`: any), and the statistics of the candidates of it.
    pub(super) status: Option<Status>,
    pub(super) stats: Stats,
    /// Scratch of [`super::from_index`], reused from log to log rather than allocated afresh (which
    /// costs page faults): each document's term weights, and the documents with a term.
    pub(super) doc_tf: Vec<f32>,
    pub(super) touched: Vec<u32>,
    /// Each document's places of the query's terms, when the query has a phrase.
    pub(super) doc_places: Vec<Places>,
}

impl Part {
    /// A part counting the candidates of `status` (`None`: of any).
    pub(super) fn counting(status: Option<Status>) -> Part {
        Part {
            status,
            ..Part::default()
        }
    }

    /// The part with its scratch freed, before the scoring.
    pub(super) fn finished(mut self) -> Part {
        (self.doc_tf, self.touched, self.doc_places) = Default::default();
        self
    }

    /// Keeps `c` with its term weights, counting it if it is of the status asked for.
    pub(super) fn keep(&mut self, mut c: Candidate, tf: &[f32]) {
        c.counted = self.status.is_none_or(|s| s == c.status);
        if c.counted {
            self.stats.add(c.len, tf, 1);
        }
        self.candidates.push(c);
        self.tf.extend_from_slice(tf);
    }
}

/// Below this many candidates, every one is looked up in the map of keys.
pub(super) const MAP_ALL_BELOW: usize = 1 << 14;

/// Which buckets of id keys (by their high bits) hold more than one key: a bit per bucket
/// finds them in one pass, so that of a common word's million candidates only the few in
/// these are looked up in a map. The buckets are 16 times as many as the keys (rounded up to
/// a power of two, between 2^14 and 2^24), so few keys share one, and a mid word's tens of
/// thousands do not pay for a million's bitmaps (4 MiB zeroed and faulted in).
pub(super) struct SharedBuckets {
    bits: u32,
    /// Per 64 buckets, those met once or more and those met twice or more: side by side, so
    /// that a key costs one miss of the cache, not two.
    words: Vec<[u64; 2]>,
}

impl SharedBuckets {
    /// The shared buckets of `keys`, of which there are `count`.
    pub(super) fn of(keys: impl Iterator<Item = u64>, count: usize) -> SharedBuckets {
        let mut finding = FindShared::for_keys(count);
        keys.for_each(|key| finding.add(key));
        finding.found()
    }

    /// The word and bit of `key`'s bucket: the high bits of the key multiplied by 2^64 / φ,
    /// which spreads keys whose own high bits differ little (FNV's, of ids that differ in their
    /// last characters) over every bucket.
    fn place(&self, key: u64) -> (usize, u64) {
        let bucket = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        (bucket / 64, 1u64 << (bucket % 64))
    }

    /// Whether `key`'s bucket holds another key too (or `key` twice).
    pub(super) fn holds(&self, key: u64) -> bool {
        let (word, bit) = self.place(key);
        self.words[word][1] & bit != 0
    }
}

/// [`SharedBuckets`] being found, a key at a time.
pub(super) struct FindShared {
    shared: SharedBuckets,
}

impl FindShared {
    /// For at most `count` keys (the buckets are sized to it).
    pub(super) fn for_keys(count: usize) -> FindShared {
        let bits = (count
            .max(1)
            .saturating_mul(16)
            .next_power_of_two()
            .trailing_zeros())
        .clamp(MIN_BUCKET_BITS, MAX_BUCKET_BITS);
        FindShared {
            shared: SharedBuckets {
                bits,
                words: written_zeros(1 << (bits - 6)),
            },
        }
    }

    pub(super) fn add(&mut self, key: u64) {
        let (word, bit) = self.shared.place(key);
        let [seen, twice] = &mut self.shared.words[word];
        *twice |= *seen & bit;
        *seen |= bit;
    }

    /// Adds the keys `other` met (sized for as many keys as this).
    pub(super) fn merge(&mut self, other: &FindShared) {
        debug_assert_eq!(self.shared.bits, other.shared.bits);
        for (mine, theirs) in self.shared.words.iter_mut().zip(&other.shared.words) {
            mine[1] |= theirs[1] | (mine[0] & theirs[0]);
            mine[0] |= theirs[0];
        }
    }

    pub(super) fn found(self) -> SharedBuckets {
        self.shared
    }
}

/// `n` zeroed words, written rather than allocated zeroed: fresh zeroed pages map the
/// shared zero page on their first read, and the write after it then costs a copy and a
/// flush of every core's TLB (a tenth of a common word's search on two threads).
fn written_zeros(n: usize) -> Vec<[u64; 2]> {
    let mut words = Vec::with_capacity(n);
    words.resize(n, [0; 2]);
    words
}

/// The bounds of the bits of an id key that pick its bucket when duplicates are looked for:
/// from 2^14 buckets (two bitmaps of 2 KiB) to 2^24 (two of 2 MiB, for a million candidates).
const MIN_BUCKET_BITS: u32 = 14;
const MAX_BUCKET_BITS: u32 = 24;

/// Marks superseded, of candidates whose id key turns up more than once (versions of one
/// package, one id in two projects, or a key collision), all but the current version: the
/// higher version order wins, a tie going to the earlier log, then to the earlier line.
pub(super) fn settle_duplicates(parts: &mut [Part], terms: usize) {
    let all = || parts.iter().flat_map(|p| &p.candidates).map(|c| c.id);
    // Past a few thousand, only the candidates whose bucket holds another key are looked up.
    let buckets = match parts.iter().map(|p| p.candidates.len()).sum::<usize>() {
        n if n < MAP_ALL_BELOW => None,
        n => Some(SharedBuckets::of(all(), n)),
    };
    let rank = |c: &Candidate| (c.order(), std::cmp::Reverse(c.file));
    // Per key looked up, where its best candidate so far is: (part, index).
    let mut best: HashMap<u64, (usize, usize), KeyHashing> = HashMap::default();
    for p in 0..parts.len() {
        for i in 0..parts[p].candidates.len() {
            let c = &parts[p].candidates[i];
            if buckets.as_ref().is_some_and(|b| !b.holds(c.id)) {
                continue;
            }
            let (this, id) = (rank(c), c.id);
            let loser = match best.entry(id) {
                Entry::Vacant(e) => {
                    e.insert((p, i));
                    continue;
                }
                Entry::Occupied(mut e) => {
                    let (bp, bi) = *e.get();
                    if this > rank(&parts[bp].candidates[bi]) {
                        e.insert((p, i));
                        (bp, bi)
                    } else {
                        (p, i)
                    }
                }
            };
            let Part {
                candidates,
                tf,
                stats,
                ..
            } = &mut parts[loser.0];
            let lost = &mut candidates[loser.1];
            lost.superseded = true;
            if lost.counted {
                stats.add(lost.len, &tf[loser.1 * terms..(loser.1 + 1) * terms], -1);
            }
        }
    }
}
