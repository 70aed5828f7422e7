//! The postings of a month index by stem slot, in a few large arrays. Building an index on a
//! large vocabulary kept a vector per stem: a month has a hundred thousand stems or more, most
//! met a few times, and each push loaded its stem's vector from a table larger than a core's
//! cache, grew it by copying, and freed it whole at the end (a fifth of a cold build's time on
//! vocab300k). Postings are now appended as lines are read, each tagged with its slot, and a
//! run of them is put in slot order at once, by a counting sort, into a segment: a stem's
//! postings are its run in each segment, in turn. A segment is sealed every few hundred
//! thousand postings, so that what waits to be sorted stays small and a cold build holds
//! little more than the postings themselves.

use super::Posting;
use crate::cache::terms;

/// Postings gathered before they are sealed into a segment: at least this many, and at least
/// [`PENDING_PER_SLOT`] per slot, so that a segment's table of starts (four bytes a slot) is
/// at most a quarter of the size of its postings (eight bytes each). Eight a slot was no
/// faster on vocab300k, and held 12-20 MB more at once.
const PENDING_MIN: usize = 1 << 18;
const PENDING_PER_SLOT: usize = 2;

#[derive(Debug, Default)]
pub(super) struct SlotPostings {
    /// Sealed postings, a segment for each run of lines, in line order.
    segments: Vec<Segment>,
    /// Postings added since the last seal, in the order of their lines, without their
    /// documents (eight bytes each, as a sealed posting).
    pending: Vec<Pending>,
    /// Each document of `pending`, and where its postings start there.
    pending_docs: Vec<(u32, u32)>,
    /// One past the highest slot added, and one past the highest in `pending`.
    slots: usize,
    pending_slots: usize,
}

/// The postings of a run of lines in slot order, documents ascending within a slot.
#[derive(Debug, Default)]
struct Segment {
    postings: Vec<Posting>,
    /// Where each slot's postings start in `postings`, and one past the last: `starts[slot]`
    /// to `starts[slot + 1]`. Slots past its end hold none here.
    starts: Vec<u32>,
}

impl Segment {
    fn of(&self, slot: u32) -> &[Posting] {
        let slot = slot as usize;
        match (self.starts.get(slot), self.starts.get(slot + 1)) {
            (Some(&from), Some(&to)) => &self.postings[from as usize..to as usize],
            _ => &[],
        }
    }
}

/// A posting added and not sealed yet: its slot and what it keeps beside its document.
#[derive(Debug, Clone, Copy)]
struct Pending {
    slot: u32,
    tf: u16,
    places: terms::Places,
}

impl SlotPostings {
    /// Adds a posting of `slot`. Its document comes after every document added before for
    /// that slot (lines are added in order).
    pub(super) fn add(&mut self, slot: u32, posting: Posting) {
        if self
            .pending_docs
            .last()
            .is_none_or(|&(doc, _)| doc != posting.doc)
        {
            self.pending_docs
                .push((posting.doc, self.pending.len() as u32));
        }
        self.pending.push(Pending {
            slot,
            tf: posting.tf,
            places: posting.places,
        });
        self.slots = self.slots.max(slot as usize + 1);
        self.pending_slots = self.pending_slots.max(slot as usize + 1);
        if self.pending.len() >= PENDING_MIN.max(PENDING_PER_SLOT * self.slots) {
            self.seal();
        }
    }

    /// Makes room for `postings` postings of `slots` slots, read from an index file into the
    /// first segment ([`SlotPostings::push_sealed_slot`]).
    pub(super) fn reserve_sealed(&mut self, postings: usize, slots: usize) {
        if self.segments.is_empty() {
            self.segments.push(Segment {
                postings: Vec::with_capacity(postings),
                starts: Vec::with_capacity(slots + 1),
            });
        }
    }

    /// Appends the postings of the next slot, `slot`, which `fill` pushes, to the first
    /// segment: how an index read from its file, in slot order, is put back. `None` when
    /// `slot` is not the next one or postings were added, or when `fill` fails.
    pub(super) fn push_sealed_slot(
        &mut self,
        slot: u32,
        fill: impl FnOnce(&mut Vec<Posting>) -> Option<()>,
    ) -> Option<()> {
        if slot as usize != self.slots || !self.pending.is_empty() || self.segments.len() > 1 {
            return None;
        }
        self.reserve_sealed(0, 0);
        let segment = self.segments.first_mut()?;
        if segment.starts.is_empty() {
            segment.starts.push(0);
        }
        fill(&mut segment.postings)?;
        segment
            .starts
            .push(u32::try_from(segment.postings.len()).ok()?);
        self.slots += 1;
        Some(())
    }

    /// Seals the pending postings into a segment, in slot order.
    fn seal(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        // Each slot's count, then, summed, where its postings start (for the slots up to the
        // highest pending one: those after it have none here).
        let mut next = vec![0u32; self.pending_slots + 1];
        for pending in &self.pending {
            next[pending.slot as usize] += 1;
        }
        let mut total = 0u32;
        for slot in next.iter_mut() {
            let count = *slot;
            *slot = total;
            total += count;
        }
        let starts = next.clone();
        let mut postings = vec![Posting::EMPTY; total as usize];
        let ends = (self.pending_docs.iter().skip(1).map(|&(_, start)| start))
            .chain([self.pending.len() as u32]);
        for (&(doc, start), end) in self.pending_docs.iter().zip(ends) {
            for p in &self.pending[start as usize..end as usize] {
                let at = &mut next[p.slot as usize];
                postings[*at as usize] = Posting {
                    doc,
                    tf: p.tf,
                    places: p.places,
                };
                *at += 1;
            }
        }
        self.segments.push(Segment { postings, starts });
        self.pending.clear();
        self.pending_docs.clear();
        self.pending_slots = 0;
    }

    /// Seals what is pending and lets go of the pending buffers (megabytes on a large
    /// vocabulary): the lines are in.
    pub(super) fn finish(&mut self) {
        self.seal();
        self.pending = Vec::new();
        self.pending_docs = Vec::new();
    }

    /// The sealed postings of `slot`, documents ascending: its run in each segment.
    pub(super) fn of(&self, slot: u32) -> impl Iterator<Item = &Posting> + Clone {
        debug_assert!(self.pending.is_empty(), "postings are read sealed");
        self.segments.iter().flat_map(move |s| s.of(slot))
    }

    /// How many postings `slot` has.
    pub(super) fn count(&self, slot: u32) -> usize {
        self.segments.iter().map(|s| s.of(slot).len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting(doc: u32) -> Posting {
        Posting {
            doc,
            tf: (doc % 1000) as u16 + 1,
            places: (doc % 7) as u16 * 3,
        }
    }

    fn docs(postings: &SlotPostings, slot: u32) -> Vec<u32> {
        postings.of(slot).map(|p| p.doc).collect()
    }

    #[test]
    fn postings_added_line_by_line_are_read_by_slot_with_documents_ascending() {
        let mut postings = SlotPostings::default();
        for (doc, slots) in [
            (0, vec![2, 0]),
            (1, vec![0]),
            (2, vec![1, 2, 0]),
            (3, vec![2]),
        ] {
            for slot in slots {
                postings.add(slot, posting(doc));
            }
        }
        postings.add(4, posting(4));
        postings.seal();
        assert_eq!(docs(&postings, 0), [0, 1, 2]);
        assert_eq!(docs(&postings, 1), [2]);
        assert_eq!(docs(&postings, 2), [0, 2, 3]);
        assert_eq!(
            docs(&postings, 3),
            Vec::<u32>::new(),
            "a slot without postings"
        );
        assert_eq!(docs(&postings, 9), Vec::<u32>::new(), "a slot past the end");
        assert_eq!(postings.count(2), 3);
        assert_eq!(
            postings.of(2).nth(1),
            Some(&posting(2)),
            "the whole posting is kept"
        );
    }

    #[test]
    fn lines_added_after_a_seal_follow_the_sealed_postings_of_their_slots() {
        let mut postings = SlotPostings::default();
        let list = |docs: &'static [u32]| {
            move |out: &mut Vec<Posting>| {
                out.extend(docs.iter().map(|&d| posting(d)));
                Some(())
            }
        };
        assert_eq!(postings.push_sealed_slot(0, list(&[0, 2])), Some(()));
        assert_eq!(postings.push_sealed_slot(1, list(&[1])), Some(()));
        assert_eq!(
            postings.push_sealed_slot(3, list(&[])),
            None,
            "not the next slot"
        );
        assert_eq!(postings.push_sealed_slot(2, list(&[])), Some(()));
        for (doc, slots) in [(3, vec![1, 3]), (4, vec![0, 1, 2])] {
            for slot in slots {
                postings.add(slot, posting(doc));
            }
        }
        assert_eq!(postings.push_sealed_slot(3, list(&[])), None, "after lines");
        postings.finish();
        assert_eq!(docs(&postings, 0), [0, 2, 4]);
        assert_eq!(docs(&postings, 1), [1, 3, 4]);
        assert_eq!(docs(&postings, 2), [4]);
        assert_eq!(docs(&postings, 3), [3], "a slot made after the seal");
        postings.seal();
        assert_eq!(
            docs(&postings, 1),
            [1, 3, 4],
            "sealing twice changes nothing"
        );
    }

    #[test]
    fn many_postings_are_sealed_in_segments_and_read_back_whole() {
        let mut postings = SlotPostings::default();
        let lines = 3 * PENDING_MIN as u32 / 4;
        for doc in 0..lines {
            // Three postings a line (so that a seal falls inside one): a common slot, one of
            // five, and a rare one.
            postings.add(0, posting(doc));
            postings.add(1 + doc % 5, posting(doc));
            postings.add(10 + doc / 1000, posting(doc));
        }
        postings.finish();
        assert_eq!(postings.segments.len(), 3);
        let last_of_first = postings.segments[0].postings.iter().map(|p| p.doc).max();
        let first_of_second = postings.segments[1].postings.iter().map(|p| p.doc).min();
        assert_eq!(
            last_of_first, first_of_second,
            "a line split between segments"
        );
        assert!(docs(&postings, 0).into_iter().eq(0..lines));
        assert!(docs(&postings, 3).into_iter().eq((2..lines).step_by(5)));
        assert!(docs(&postings, 10 + 87).into_iter().eq(87_000..88_000));
        assert_eq!(postings.count(0), lines as usize);
        assert_eq!(postings.of(0).nth(150_000), Some(&posting(150_000)));
    }

    #[test]
    fn a_vocabulary_of_many_slots_waits_for_two_postings_a_slot_before_a_seal() {
        let mut postings = SlotPostings::default();
        // Every line a slot of its own: as many slots as postings.
        let lines = PENDING_MIN as u32 + 10;
        for doc in 0..lines {
            postings.add(doc, posting(doc));
        }
        assert!(
            postings.segments.is_empty(),
            "a table of starts as large as its postings"
        );
        postings.finish();
        assert_eq!(postings.segments.len(), 1);
        assert_eq!(docs(&postings, lines - 1), [lines - 1]);
    }
}
