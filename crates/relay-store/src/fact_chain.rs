//! The effective timeline of one (subject, predicate): the rule every read of facts follows,
//! so that clones merged by git's union driver answer alike whatever order their lines are in.
//!
//! Two clones that assert the same key each close the fact they saw as current and add their
//! own, so after a merge the stored intervals can overlap and several facts can be open. The
//! chain puts a key's facts (each at its current version) in order by (`valid_from`,
//! `created_at`, `fact_id`). A fact then ends at the earlier of its own stored `valid_to` and
//! the next fact's `valid_from`; the last one is current unless it was closed. So at most one
//! fact holds at any instant, the only gaps are where a fact was closed before the next began
//! (an invalidation), and nothing depends on line order. Appending a version that closes a
//! fact at its effective end never changes the chain: `verify --fix` uses that to make the
//! stored chain equal the effective one.

use serde_json::Value;

use relay_wire::Fact;
use relay_wire::error::Result;
use relay_wire::time::Timestamp;

/// How a fact of a chain ends, given what is stored and the fact after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainEnd {
    /// Still current: the last of its chain, and not closed.
    Open,
    /// At its own stored `valid_to`.
    Stored,
    /// At the next fact's `valid_from`: earlier than what is stored (or stored as open).
    AtNext,
}

/// The ends of a chain already in chain order, from each item's start and stored end.
pub fn chain_ends<T>(
    chain: &[T],
    start: impl Fn(&T) -> Timestamp,
    stored_end: impl Fn(&T) -> Option<Timestamp>,
) -> Vec<ChainEnd> {
    (0..chain.len())
        .map(|i| {
            let next = chain.get(i + 1).map(&start);
            match (stored_end(&chain[i]), next) {
                (None, None) => ChainEnd::Open,
                (None, Some(_)) => ChainEnd::AtNext,
                (Some(end), Some(next)) if next < end => ChainEnd::AtNext,
                (Some(_), _) => ChainEnd::Stored,
            }
        })
        .collect()
}

/// The order of a chain.
pub fn chain_rank(f: &Fact) -> (Timestamp, Timestamp, &str) {
    (f.valid_from(), f.created_at(), f.id())
}

/// Puts `items` in chain order ([`chain_rank`]), each item's fact given by `fact`.
pub fn sort_in_chain_order<T>(items: &mut [T], fact: impl Fn(&T) -> &Fact) {
    items.sort_by_cached_key(|item| {
        let (from, created, id) = chain_rank(fact(item));
        (from, created, id.to_string())
    });
}

/// One fact of a chain as reads show it.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The fact with its effective `valid_to`.
    pub fact: Fact,
    /// What its current version stores as `valid_to` (`None`: open), when that differs from
    /// the effective end.
    pub stored_valid_to: Option<Option<String>>,
}

impl Link {
    /// Whether the effective end differs from the stored one.
    pub fn differs(&self) -> bool {
        self.stored_valid_to.is_some()
    }
}

/// A copy of `fact` with `valid_to` set to `to`, verbatim.
pub fn with_valid_to(fact: &Fact, to: &str) -> Result<Fact> {
    let mut map = fact.as_map().clone();
    map.insert("valid_to".into(), Value::String(to.to_string()));
    Ok(Fact::from_map(map)?)
}

/// The text of the `valid_to` that ends `fact` where `next` begins: `next`'s `valid_from` as
/// stored, or `fact`'s own when the two are the same instant (a fact closed at its own start
/// keeps its own precision).
pub fn closing_text<'a>(fact: &'a Fact, next: &'a Fact) -> &'a str {
    let of = if next.valid_from() == fact.valid_from() {
        fact
    } else {
        next
    };
    of.str_field("valid_from").unwrap_or_default()
}

/// The effective chain of one key's facts, each given at its current version (any order; all
/// must share subject and predicate). The effective end, where it comes from the next fact,
/// is that fact's `valid_from` text as stored.
pub fn effective_chain(mut facts: Vec<Fact>) -> Result<Vec<Link>> {
    sort_in_chain_order(&mut facts, |f| f);
    effective_chain_in_order(facts)
}

/// [`effective_chain`] of facts already in chain order.
pub fn effective_chain_in_order(facts: Vec<Fact>) -> Result<Vec<Link>> {
    effective_links(facts.into_iter().map(Ok)).collect()
}

/// [`effective_chain_in_order`] one link at a time: a fact's end is known once the next one
/// is read, so a long chain is never held whole. An error from `facts` is passed on.
pub fn effective_links<I: Iterator<Item = Result<Fact>>>(facts: I) -> EffectiveLinks<I> {
    EffectiveLinks {
        facts: facts.peekable(),
    }
}

/// The iterator of [`effective_links`].
pub struct EffectiveLinks<I: Iterator<Item = Result<Fact>>> {
    facts: std::iter::Peekable<I>,
}

impl<I: Iterator<Item = Result<Fact>>> Iterator for EffectiveLinks<I> {
    type Item = Result<Link>;

    fn next(&mut self) -> Option<Result<Link>> {
        let fact = match self.facts.next()? {
            Ok(f) => f,
            Err(e) => return Some(Err(e)),
        };
        if let Some(Err(_)) = self.facts.peek()
            && let Some(Err(e)) = self.facts.next()
        {
            return Some(Err(e));
        }
        let next = self.facts.peek().and_then(|n| n.as_ref().ok());
        let pair: Vec<&Fact> = std::iter::once(&fact).chain(next).collect();
        let end = chain_ends(&pair, |f| f.valid_from(), |f| f.valid_to())[0];
        // Where the end comes from the next fact, it is that fact's start as stored.
        let closing = (end == ChainEnd::AtNext).then(|| closing_text(pair[0], pair[1]).to_string());
        Some(Ok(match closing {
            None => Link {
                fact,
                stored_valid_to: None,
            },
            Some(to) => match with_valid_to(&fact, &to) {
                Ok(closed) => Link {
                    stored_valid_to: Some(fact.str_field("valid_to").map(str::to_string)),
                    fact: closed,
                },
                Err(e) => return Some(Err(e)),
            },
        }))
    }
}

/// The current fact of a chain: its last, unless that one ended.
pub fn current(chain: &[Link]) -> Option<&Fact> {
    chain.last().map(|l| &l.fact).filter(|f| f.is_current())
}

/// The fact of a chain that held at `t`.
pub fn at(chain: &[Link], t: Timestamp) -> Option<&Fact> {
    chain.iter().map(|l| &l.fact).find(|f| f.valid_at(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use relay_wire::time;
    use serde_json::json;

    fn fact(id: &str, from: &str, to: Option<&str>, created: &str) -> Fact {
        Fact::from_value(json!({"fact_id": id, "project_id": "p", "subject": "s",
            "predicate": "p", "value": id, "valid_from": from, "valid_to": to,
            "created_at": created}))
        .unwrap()
    }

    fn t(h: u32) -> String {
        format!("2026-01-01T{h:02}:00:00Z")
    }

    fn ends(chain: &[Link]) -> Vec<(String, Option<String>)> {
        chain
            .iter()
            .map(|l| {
                (
                    l.fact.id().to_string(),
                    l.fact.str_field("valid_to").map(str::to_string),
                )
            })
            .collect()
    }

    #[test]
    fn two_clones_that_superseded_one_fact_interleave_into_one_chain() {
        // The base fact, closed by both clones at their first asserts; each clone's chain.
        let chain = effective_chain(vec![
            fact("fact_v0", &t(0), Some(&t(2)), &t(0)),
            fact("fact_a1", &t(1), Some(&t(3)), &t(1)),
            fact("fact_b1", &t(2), Some(&t(4)), &t(2)),
            fact("fact_a2", &t(3), None, &t(3)),
            fact("fact_b2", &t(4), None, &t(4)),
        ])
        .unwrap();
        // v0's stored end is 02:00 (the later of the clones' closes lost to the earlier one).
        assert_eq!(
            ends(&chain),
            vec![
                ("fact_v0".into(), Some(t(1))),
                ("fact_a1".into(), Some(t(2))),
                ("fact_b1".into(), Some(t(3))),
                ("fact_a2".into(), Some(t(4))),
                ("fact_b2".into(), None),
            ]
        );
        assert_eq!(current(&chain).unwrap().id(), "fact_b2");
        assert_eq!(chain[0].stored_valid_to, Some(Some(t(2))));
        assert_eq!(chain[3].stored_valid_to, Some(None));
        assert!(!chain[4].differs());
        let at = |h| at(&chain, time::parse(&t(h)).unwrap()).map(|f| f.id().to_string());
        assert_eq!(at(0).as_deref(), Some("fact_v0"));
        assert_eq!(at(3).as_deref(), Some("fact_a2"));
    }

    #[test]
    fn an_invalidation_leaves_a_gap_and_a_closed_last_fact_is_not_current() {
        let chain = effective_chain(vec![
            fact("fact_1", &t(0), Some(&t(1)), &t(0)),
            fact("fact_2", &t(2), Some(&t(3)), &t(2)),
        ])
        .unwrap();
        assert!(chain.iter().all(|l| !l.differs()));
        assert_eq!(current(&chain), None);
        assert_eq!(at(&chain, time::parse(&t(1)).unwrap()), None);
    }

    #[test]
    fn an_open_fact_before_a_closed_one_is_ended_by_it() {
        // One clone superseded and then invalidated; the other added a fact in between.
        let chain = effective_chain(vec![
            fact("fact_b", &t(1), None, &t(1)),
            fact("fact_a", &t(2), Some(&t(5)), &t(2)),
        ])
        .unwrap();
        assert_eq!(current(&chain), None);
        assert_eq!(chain[0].fact.str_field("valid_to"), Some(t(2).as_str()));
    }

    /// A random history of `clones` writers on one key from a common base: each step a clone
    /// asserts a new value or invalidates what it sees as current, at its own times.
    fn histories() -> impl Strategy<Value = Vec<Vec<(bool, u8)>>> {
        prop::collection::vec(prop::collection::vec((any::<bool>(), 1u8..40), 0..6), 1..4)
    }

    /// The lines each clone appends, as the assert and invalidate of `ops::facts` write them:
    /// closing versions of what the clone sees open, and the new fact.
    fn lines_of(clones: &[Vec<(bool, u8)>]) -> Vec<Fact> {
        let base = fact("fact_base", &t(0), None, &t(0));
        let mut all = vec![base.clone()];
        for (c, steps) in clones.iter().enumerate() {
            let mut open: Option<Fact> = Some(base.clone());
            let mut clock = 0u32;
            for (n, &(invalidate, gap)) in steps.iter().enumerate() {
                clock += u32::from(gap);
                let at = format!("2026-01-01T{:02}:{:02}:00Z", 1 + clock / 60, clock % 60);
                if let Some(cur) = open.take() {
                    all.push(with_valid_to(&cur, &at).unwrap());
                }
                if !invalidate {
                    let new = fact(&format!("fact_{c}_{n}"), &at, None, &at);
                    all.push(new.clone());
                    open = Some(new);
                }
            }
        }
        all
    }

    /// The current version of each id (`records::Versioned` for facts), any line order.
    fn current_versions(lines: &[Fact]) -> Vec<Fact> {
        use crate::records::Versioned;
        let mut by_id: std::collections::BTreeMap<String, Fact> = Default::default();
        for f in lines {
            match by_id.get(f.id()) {
                Some(cur) if f.version_order(cur) != std::cmp::Ordering::Greater => {}
                _ => {
                    by_id.insert(f.id().to_string(), f.clone());
                }
            }
        }
        by_id.into_values().collect()
    }

    proptest! {
        #[test]
        fn any_merge_order_gives_one_chain_that_keeps_the_invariants(
            clones in histories(),
            seed in any::<u64>(),
        ) {
            let lines = lines_of(&clones);
            let mut shuffled = lines.clone();
            // A union merge keeps every line once, in some order.
            let mut s = seed;
            for i in (1..shuffled.len()).rev() {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                shuffled.swap(i, (s >> 33) as usize % (i + 1));
            }
            let chain = effective_chain(current_versions(&lines)).unwrap();
            let again = effective_chain(current_versions(&shuffled)).unwrap();
            prop_assert_eq!(&chain, &again);
            // At most one fact at any instant, in order, and a gap only after a stored close.
            for pair in chain.windows(2) {
                let (a, b) = (&pair[0].fact, &pair[1].fact);
                let end = a.valid_to().expect("only the last can be open");
                prop_assert!(end <= b.valid_from());
                if end < b.valid_from() {
                    prop_assert!(!pair[0].differs(), "a gap must be an invalidation");
                }
            }
            // Closing every fact at its effective end changes nothing.
            let mut fixed = lines.clone();
            for l in chain.iter().filter(|l| l.differs()) {
                fixed.push(l.fact.clone());
            }
            let after = effective_chain(current_versions(&fixed)).unwrap();
            prop_assert!(after.iter().all(|l| !l.differs()));
            prop_assert_eq!(ends(&after), ends(&chain));
        }
    }
}
