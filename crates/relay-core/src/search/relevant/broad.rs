//! A broad keyword query (a word in most packages) ranked straight from the month indexes,
//! with nothing kept per candidate. A first pass over each month's rank table (16 bytes a
//! line: id key, length, significance, status) counts the statistics and marks the buckets of
//! the id keys it meets; a second keeps the few lines whose bucket is shared, and of those
//! reads and settles only the keys really met twice (a package's versions); each page of the
//! ranking is then a pass that scores as it goes, reading a line's record only when it may
//! enter the page. Both cores share the months. Keeping a record per candidate, as a narrower
//! query does, cost a common word's million candidates more in page faults and passes over
//! them than reading the rank tables again does.

use std::collections::{HashMap, HashSet};

use relay_store::index::KeyHashing;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

use relay_store::index::{DocRank, QueryView};
use relay_wire::Status;

use std::sync::Arc;

use super::candidates::{Candidate, FindShared, Part, SharedBuckets, Stats, settle_duplicates};
use super::{Front, best_first_of, scan_threads};
use crate::search::Query;
use crate::search::filter::Filter;

/// At least this many postings (summed over the query's terms and the logs) make a query
/// broad. Below it, keeping a record per candidate costs little, and the ranking reads no
/// document record twice.
pub(super) const BROAD_FROM: usize = 1 << 17;

/// Every log's index, scanned for a broad query: the statistics, and which lines are
/// superseded.
pub(super) struct Broad<'f> {
    logs: Logs<'f>,
    /// The buckets of id keys met more than once: only a candidate in one may be superseded.
    /// Found by this query's passes, or kept by the process between its searches.
    shared: Arc<SharedBuckets>,
    /// The lines (log, offset) of the versions settled as superseded.
    superseded: HashSet<(u32, u64)>,
    pub(super) stats: Stats,
}

/// The logs of a broad query as its passes read them.
struct Logs<'f> {
    views: Vec<QueryView>,
    filter: &'f Filter,
    terms: usize,
    since: Option<i64>,
    until: Option<i64>,
}

impl<'f> Broad<'f> {
    /// Whether the views can be scanned this way: each term's postings in ascending document
    /// order, as indexes write them (the merge of the terms' lists relies on it).
    pub(super) fn fits(views: &[QueryView]) -> bool {
        (views.iter().flat_map(|v| &v.postings)).all(|list| list.is_sorted_by_key(|p| p.0))
    }

    /// Scans `views` (those of the search's logs, in order): the statistics of each package's
    /// current version of the status asked for, and which lines are superseded. `postings` is
    /// how many postings the views hold; `kept`, the buckets of the keys met more than once in
    /// these logs, when the process keeps them ([`super::kept_ids`]: a pass fewer).
    pub(super) fn scan(
        views: Vec<QueryView>,
        q: &Query,
        filter: &'f Filter,
        postings: usize,
        kept: Option<Arc<SharedBuckets>>,
    ) -> Broad<'f> {
        let logs = Logs {
            views,
            filter,
            terms: q.terms.len(),
            since: filter.since.map(|s| s.timestamp_micros()),
            until: filter.until.map(|u| u.timestamp_micros()),
        };
        let (mut stats, shared, sharing) = match kept {
            Some(kept) => logs.count_and_share(kept),
            None => logs.count_then_share(postings),
        };
        // Of the lines whose key shares its bucket with another line's (a few in a hundred),
        // by their keys alone first: only a key met twice is of a package's versions (or of
        // one id in two logs), and only those lines are read, to settle as every scan's do.
        let mut met: HashMap<u64, u32, KeyHashing> = HashMap::default();
        for &(_, _, key) in sharing.iter().flat_map(|s| &s.lines) {
            *met.entry(key).or_default() += 1;
        }
        let mut twice: Vec<(u32, u32, &[f32])> = (sharing.iter())
            .flat_map(|s| s.lines.iter().zip(s.tf.chunks_exact(logs.terms.max(1))))
            .filter(|((_, _, key), _)| met.get(key).is_some_and(|&n| n > 1))
            .map(|(&(file, doc, _), tf)| (file, doc, tf))
            .collect();
        // In log order, line order: the order settling breaks ties by.
        twice.sort_unstable_by_key(|&(file, doc, _)| (file, doc));
        let mut part = Part::counting(filter.status);
        for (file, doc, tf) in twice {
            if let Some(r) = logs.views[file as usize].record(doc) {
                part.keep(Candidate::of_record(file, r, filter), tf);
            }
        }
        let mut parts = [part];
        stats.subtract(&parts[0].stats);
        settle_duplicates(&mut parts, logs.terms);
        let [part] = parts;
        stats.merge(&part.stats);
        let superseded = (part.candidates.iter())
            .filter(|c| c.superseded)
            .map(|c| (c.file, c.offset))
            .collect();
        Broad {
            logs,
            shared,
            superseded,
            stats,
        }
    }

    /// Documents in the indexed logs.
    pub(super) fn indexed_docs(&self) -> u64 {
        self.logs.views.iter().map(|v| v.doc_count() as u64).sum()
    }

    /// The first `n` of the ranking after `after` ([`Front`]): each package's current version
    /// of the status asked for (the candidates the statistics count), its base score given by
    /// `base` from its term weights, length and significance, and finished by `finish`. A
    /// candidate is made only of a line that a thread's front may take.
    pub(super) fn front(
        &self,
        n: usize,
        base: &(dyn Fn(&[f32], f32, i8) -> f32 + Sync),
        finish: &(dyn Fn(f32, &Candidate) -> f64 + Sync),
        after: Option<(f64, Candidate)>,
    ) -> Vec<(f64, Candidate)> {
        let logs = &self.logs;
        let fronts = logs.on_threads(
            || Front::new(n, finish, after),
            |front, file, view| {
                logs.each_line_of(view, |doc, rank, tf| {
                    if !logs.counts(rank.status()) {
                        return;
                    }
                    let b = base(tf, rank.len(), rank.significance());
                    if !front.may_take(b) {
                        return;
                    }
                    let Some(r) = view.record(doc) else { return };
                    if self.shared.holds(rank.key())
                        && self.superseded.contains(&(file, r.offset()))
                    {
                        return;
                    }
                    front.offer(b, Candidate::of_record(file, r, logs.filter));
                });
            },
        );
        // Each thread's front holds the best `n` of its logs, so the best `n` of all are
        // among them.
        let mut all: Vec<(f64, Candidate)> = fronts.into_iter().flat_map(Front::sorted).collect();
        all.sort_by(best_first_of);
        all.truncate(n);
        all
    }
}

impl Logs<'_> {
    /// The statistics, in a first pass that also marks the buckets of the id keys met; then,
    /// in a second, the lines whose key's bucket holds another key.
    fn count_then_share(&self, postings: usize) -> (Stats, Arc<SharedBuckets>, Vec<Sharing>) {
        let counted = self.on_threads(
            || (Stats::default(), FindShared::for_keys(postings)),
            |(counted, finding), _, view| {
                let (mut keys, mut held) = ([0u64; BATCH], 0);
                self.each_line_of(view, |_, r, tf| {
                    (keys[held], held) = (r.key(), held + 1);
                    if held == BATCH {
                        keys.iter().for_each(|&key| finding.add(key));
                        held = 0;
                    }
                    if self.counts(r.status()) {
                        counted.add(r.len(), tf, 1);
                    }
                });
                keys[..held].iter().for_each(|&key| finding.add(key));
            },
        );
        let (mut stats, mut finding) = (Stats::default(), None::<FindShared>);
        for (counted, found) in counted {
            stats.merge(&counted);
            match &mut finding {
                None => finding = Some(found),
                Some(all) => all.merge(&found),
            }
        }
        let shared = finding.unwrap_or_else(|| FindShared::for_keys(0)).found();
        let sharing = self.on_threads(Sharing::default, |sharing, file, view| {
            let mut batch = Batch::new(self.terms);
            self.each_line_of(view, |doc, r, tf| {
                if batch.add(doc, r, tf) {
                    batch.drain_shared(&shared, file, sharing);
                }
            });
            batch.drain_shared(&shared, file, sharing);
        });
        (stats, Arc::new(shared), sharing)
    }

    /// The statistics and the lines whose key's bucket holds another key, in one pass, from
    /// the buckets of the keys met more than once in the logs, kept by the process
    /// ([`super::kept_ids`]).
    fn count_and_share(
        &self,
        kept: Arc<SharedBuckets>,
    ) -> (Stats, Arc<SharedBuckets>, Vec<Sharing>) {
        let found = self.on_threads(
            || (Stats::default(), Sharing::default()),
            |(counted, sharing), file, view| {
                let mut batch = Batch::new(self.terms);
                self.each_line_of(view, |doc, r, tf| {
                    if self.counts(r.status()) {
                        counted.add(r.len(), tf, 1);
                    }
                    if batch.add(doc, r, tf) {
                        batch.drain_shared(&kept, file, sharing);
                    }
                });
                batch.drain_shared(&kept, file, sharing);
            },
        );
        let mut stats = Stats::default();
        let mut all_sharing = Vec::with_capacity(found.len());
        for (counted, sharing) in found {
            stats.merge(&counted);
            all_sharing.push(sharing);
        }
        (stats, kept, all_sharing)
    }

    /// Whether a line of `status` counts (is of the status asked for).
    fn counts(&self, status: Status) -> bool {
        self.filter.status.is_none_or(|s| s == status)
    }

    /// Runs `work` on each log's view, on as many threads as [`scan_threads`] allows (at most
    /// one a log), each with a state of its own from `start`, the logs taken in turn; returns
    /// the states. A thread's panic is the caller's.
    fn on_threads<T: Send>(
        &self,
        start: impl Fn() -> T + Sync,
        work: impl Fn(&mut T, u32, &QueryView) + Sync,
    ) -> Vec<T> {
        let threads = scan_threads().min(self.views.len()).max(1);
        let next = AtomicUsize::new(0);
        let run = || {
            let mut state = start();
            loop {
                let file = next.fetch_add(1, Relaxed);
                let Some(view) = self.views.get(file) else {
                    return state;
                };
                work(&mut state, file as u32, view);
            }
        };
        if threads == 1 {
            return vec![run()];
        }
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads).map(|_| s.spawn(run)).collect();
            let mut states = vec![run()];
            for h in helpers {
                states.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
            states
        })
    }

    /// Calls `f` with each line of a log (its `view`) holding a query term that the date
    /// filters let through: its document, its rank table entry (all a pass over every line
    /// reads of most) and its term weights, line by line.
    fn each_line_of<'v>(&self, view: &'v QueryView, mut f: impl FnMut(u32, DocRank<'v>, &[f32])) {
        let dated = self.since.is_some() || self.until.is_some();
        each_doc(&view.postings, |doc, tf| {
            let Some(rank) = view.rank(doc) else { return };
            if dated {
                let Some(created) = view.doc_created(doc) else {
                    return;
                };
                if self.since.is_some_and(|s| created < s)
                    || self.until.is_some_and(|u| created >= u)
                {
                    return;
                }
            }
            f(doc, rank, tf);
        });
    }
}

/// Lines gathered a few at a time before the buckets of their keys are looked at: the
/// bitmaps are megabytes, so each look is a miss of the cache, and a run of them overlaps
/// where one at a time between the reads of each line would wait in turn.
const BATCH: usize = 32;

/// The lines of one thread's logs whose key shares its bucket: (log, document, key), with
/// their term weights.
#[derive(Default)]
struct Sharing {
    lines: Vec<(u32, u32, u64)>,
    tf: Vec<f32>,
}

/// A [`BATCH`] of lines of one log, with their term weights.
struct Batch {
    lines: Vec<(u32, u64)>,
    tf: Vec<f32>,
    terms: usize,
}

impl Batch {
    fn new(terms: usize) -> Self {
        Batch {
            lines: Vec::with_capacity(BATCH),
            tf: Vec::with_capacity(BATCH * terms),
            terms,
        }
    }

    /// Adds document `doc`'s line; whether the batch is full.
    fn add(&mut self, doc: u32, rank: DocRank<'_>, tf: &[f32]) -> bool {
        self.lines.push((doc, rank.key()));
        self.tf.extend_from_slice(tf);
        self.lines.len() == BATCH
    }

    /// Moves to `sharing` the lines whose key's bucket `shared` holds, as lines of log
    /// `file`, and empties the batch.
    fn drain_shared(&mut self, shared: &SharedBuckets, file: u32, sharing: &mut Sharing) {
        let mut held = 0u64;
        for (i, &(_, key)) in self.lines.iter().enumerate() {
            held |= u64::from(shared.holds(key)) << i;
        }
        while held != 0 {
            let i = held.trailing_zeros() as usize;
            held &= held - 1;
            let (doc, key) = self.lines[i];
            sharing.lines.push((file, doc, key));
            (sharing.tf).extend_from_slice(&self.tf[i * self.terms..(i + 1) * self.terms]);
        }
        self.lines.clear();
        self.tf.clear();
    }
}

/// Calls `f(doc, weights)` for each document in some of `postings` (one list per query term,
/// each in ascending document order), in ascending order, with its weight of each term (0
/// for a term it lacks). A document listed twice in one list takes the later weight, as
/// [`super::from_index`] does.
pub(super) fn each_doc(postings: &[Vec<(u32, f32)>], mut f: impl FnMut(u32, &[f32])) {
    if let [list] = postings {
        let mut i = 0;
        while let Some(&(doc, mut tf)) = list.get(i) {
            i += 1;
            while let Some(&(_, later)) = list.get(i).filter(|p| p.0 == doc) {
                (tf, i) = (later, i + 1);
            }
            f(doc, &[tf]);
        }
        return;
    }
    let mut at = vec![0usize; postings.len()];
    let mut row = vec![0.0f32; postings.len()];
    while let Some(doc) = (postings.iter().zip(&at))
        .filter_map(|(list, &i)| list.get(i).map(|p| p.0))
        .min()
    {
        for ((list, i), weight) in postings.iter().zip(&mut at).zip(&mut row) {
            *weight = 0.0;
            while let Some(&(_, tf)) = list.get(*i).filter(|p| p.0 == doc) {
                (*weight, *i) = (tf, *i + 1);
            }
        }
        f(doc, &row);
    }
}
