//! Fitting a briefing in a character budget, record by record: what is shown is shown whole,
//! and a closing account of what was left out (its length given by the caller) always fits.
//! The views (orient's Markdown and its JSON bundle) hand over their records in priority
//! order; this module only adds up characters, so both views fill the same way.

/// A budget being filled: the characters used so far, the headings already paid for, and how
/// many records of each kind are still left out.
pub struct Fill<'a> {
    max: usize,
    used: usize,
    heading_cost: Vec<usize>,
    heading_paid: Vec<bool>,
    left: Vec<usize>,
    /// How long the closing account of what was left out is, for these counts. It must not
    /// grow as counts fall, so that a fill that fitted keeps fitting.
    account: &'a dyn Fn(&[usize]) -> usize,
}

impl<'a> Fill<'a> {
    /// A fill of `max` characters that starts with `fixed` characters and the headings
    /// `heading_cost` (each paid by the first record under it), with `left` records of each
    /// kind left out. `None` when not even `fixed` and the account fit.
    pub fn new(
        max: usize,
        fixed: usize,
        heading_cost: Vec<usize>,
        left: Vec<usize>,
        account: &'a dyn Fn(&[usize]) -> usize,
    ) -> Option<Fill<'a>> {
        let fill = Fill {
            max,
            used: fixed,
            heading_paid: vec![false; heading_cost.len()],
            heading_cost,
            left,
            account,
        };
        (fill.total() <= max).then_some(fill)
    }

    /// Characters in all: what is shown and the account of what is not.
    pub fn total(&self) -> usize {
        self.used + (self.account)(&self.left)
    }

    /// The records of each kind still left out.
    pub fn left(&self) -> &[usize] {
        &self.left
    }

    /// Shows a record of `cost` characters under `headings`, counted off `kind`'s left-out
    /// records, if it fits with everything shown so far; says whether it did.
    pub fn take(&mut self, cost: usize, headings: &[usize], kind: Option<usize>) -> bool {
        let heads: usize = headings
            .iter()
            .filter(|&&h| !self.heading_paid[h])
            .map(|&h| self.heading_cost[h])
            .sum();
        let mut left = self.left.clone();
        if let Some(k) = kind {
            left[k] = left[k].saturating_sub(1);
        }
        let total = self.used + heads + cost + (self.account)(&left);
        if total > self.max {
            return false;
        }
        self.used += heads + cost;
        for &h in headings {
            self.heading_paid[h] = true;
        }
        self.left = left;
        true
    }

    /// Shows records from the front of `costs` while they fit; how many were shown. A record
    /// that does not fit ends the run, so a list is never shown with a hole in it.
    pub fn take_run(
        &mut self,
        costs: impl IntoIterator<Item = usize>,
        headings: &[usize],
        kind: Option<usize>,
    ) -> usize {
        let mut n = 0;
        for cost in costs {
            if !self.take(cost, headings, kind) {
                break;
            }
            n += 1;
        }
        n
    }
}

/// `n` and a noun, singular for one: "1 fact", "3 facts".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(left: &[usize]) -> usize {
        left.iter().filter(|&&n| n > 0).count() * 10
    }

    #[test]
    fn records_are_taken_whole_with_room_for_the_account() {
        let acc = &account;
        assert!(Fill::new(19, 10, vec![5], vec![2], acc).is_none());
        let mut f = Fill::new(40, 10, vec![5], vec![3], acc).unwrap();
        assert_eq!(f.total(), 20);
        // 10 + heading 5 + 8, with the account of the 2 left: 33.
        assert!(f.take(8, &[0], Some(0)));
        assert_eq!((f.total(), f.left()), (33, &[2][..]));
        // The heading is paid once, and with nothing left out the account is gone.
        assert_eq!(f.take_run([7, 2, 9], &[0], Some(0)), 2);
        assert_eq!((f.total(), f.left()), (32, &[0][..]));
        assert!(!f.take(9, &[], None));
        assert!(f.take(8, &[], None));
        assert_eq!(f.total(), 40);
    }

    #[test]
    fn a_record_that_does_not_fit_ends_its_run() {
        let acc = &account;
        let mut f = Fill::new(30, 0, vec![0], vec![3], acc).unwrap();
        assert_eq!(f.take_run([5, 50, 1], &[0], Some(0)), 1);
        assert_eq!(f.left(), &[2]);
        assert_eq!(count(1, "fact", "facts"), "1 fact");
        assert_eq!(count(0, "fact", "facts"), "0 facts");
    }
}
