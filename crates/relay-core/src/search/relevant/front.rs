//! The front of a ranking: the best `n` candidates after a cursor, kept in memory that follows
//! `n` and not the matches, with the total order every page of a relevant pull agrees on.

use std::borrow::Borrow;

use super::candidates::Candidate;
use crate::search::rank;

/// Best first: score, then the newer package, then a fixed order of ids (unique by now, so the
/// order is total).
pub(super) fn best_first(a: &(f64, &Candidate), b: &(f64, &Candidate)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0)
        .then_with(|| b.1.created_micros.cmp(&a.1.created_micros))
        .then_with(|| a.1.id.cmp(&b.1.id))
}

/// [`best_first`] for a candidate held any way.
pub(super) fn best_first_of<C: Borrow<Candidate>>(
    a: &(f64, C),
    b: &(f64, C),
) -> std::cmp::Ordering {
    best_first(&(a.0, a.1.borrow()), &(b.0, b.1.borrow()))
}

/// The first `n` of the candidates offered, in [`best_first`] order, that come after `after`,
/// each scored by `finish` from its base score (see `keyword_list`). Memory stays at `2n`: the
/// best `n` of the whole are the best `n` of those kept so far and the rest; and once `n` are
/// kept, a candidate that cannot pass the `n`th best even with recency's most is passed over
/// unfinished.
pub(super) struct Front<'a, C> {
    n: usize,
    finish: &'a (dyn Fn(f32, &Candidate) -> f64 + Sync),
    after: Option<(f64, Candidate)>,
    kept: Vec<(f64, C)>,
    /// The `n`th best kept so far, once `n` are.
    nth: Option<(f64, C)>,
}

impl<'a, C: Borrow<Candidate> + Copy> Front<'a, C> {
    pub(super) fn new(
        n: usize,
        finish: &'a (dyn Fn(f32, &Candidate) -> f64 + Sync),
        after: Option<(f64, Candidate)>,
    ) -> Self {
        Front {
            n,
            finish,
            after,
            kept: Vec::with_capacity(2 * n.min(1 << 16)),
            nth: None,
        }
    }

    /// Whether a candidate of score `base` before recency may be taken: not once `n` are
    /// kept and even recency's most would not lift it past the `n`th best.
    pub(super) fn may_take(&self, base: f32) -> bool {
        // The bound is widened by a millionth against the rounding of the f32 product.
        self.n > 0
            && (self.nth)
                .is_none_or(|t| f64::from(base * rank::MAX_RECENCY_FACTOR) * 1.000_001 >= t.0)
    }

    pub(super) fn offer(&mut self, base: f32, c: C) {
        if !self.may_take(base) {
            return;
        }
        let s = ((self.finish)(base, c.borrow()), c);
        let scored = (s.0, s.1.borrow());
        if (self.after.as_ref()).is_some_and(|a| best_first(&scored, &(a.0, &a.1)).is_le())
            || (self.nth).is_some_and(|t| best_first_of(&s, &t).is_ge())
        {
            return;
        }
        self.kept.push(s);
        if self.kept.len() >= 2 * self.n {
            self.kept.select_nth_unstable_by(self.n - 1, best_first_of);
            self.kept.truncate(self.n);
            self.nth = self.kept.last().copied();
        }
    }

    /// The front, sorted.
    pub(super) fn sorted(mut self) -> Vec<(f64, C)> {
        if self.n < self.kept.len() {
            self.kept.select_nth_unstable_by(self.n - 1, best_first_of);
            self.kept.truncate(self.n);
        }
        self.kept.sort_by(best_first_of);
        self.kept
    }
}

/// The [`Front`] of `based`: (base score, candidate) pairs.
pub(super) fn best_after<C: Borrow<Candidate> + Copy>(
    based: impl Iterator<Item = (f32, C)>,
    finish: &(dyn Fn(f32, &Candidate) -> f64 + Sync),
    n: usize,
    after: Option<(f64, Candidate)>,
) -> Vec<(f64, C)> {
    let mut front = Front::new(n, finish, after);
    based.for_each(|(base, c)| front.offer(base, c));
    front.sorted()
}
