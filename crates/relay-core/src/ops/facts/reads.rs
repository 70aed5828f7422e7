//! Fact reads (§8.6): the current value of a key or the one valid at a past time, the
//! current facts filtered, a key's whole history, and the facts a package is the source of.
//! Every read follows the key's effective chain, as the writes in [`super`] leave it.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{ListQuery, chain_of, key_facts};
use crate::search::filter::{Hidden, Reveal};
use relay_store::fact_chain::{self, Link};
use relay_store::index::{EachKey, Facts};
use relay_store::{Store, View};
use relay_wire::error::{Error, Result};
use relay_wire::{Fact, time::Timestamp};

/// The current fact of a key, or the one valid at `at`. A retracted or expired one is
/// `fact_not_found`, saying why, unless `reveal` shows it: the key then has no fact, since
/// the one before it stays ended.
pub fn get(
    store: &Store,
    project_id: &str,
    subject: &str,
    predicate: &str,
    at: Option<Timestamp>,
    reveal: Reveal,
) -> Result<Fact> {
    let not_found = || Error::FactNotFound {
        subject: subject.into(),
        predicate: predicate.into(),
        at: at.map(relay_wire::time::format),
    };
    let shown = |f: Fact| -> Result<Fact> {
        let hidden = Hidden::load(store.view(), &[project_id.to_string()], reveal)?;
        match hidden.fact(&f) {
            Some(why) => Err(Error::Hidden {
                code: relay_wire::error::Code::FactNotFound,
                message: why.explain(&format!(
                    "the fact for subject `{subject}`, predicate `{predicate}` ({})",
                    f.id()
                )),
            }),
            None => Ok(f),
        }
    };
    if at.is_none()
        && let Some(current) = store.current_fact_of_key(project_id, subject, predicate)?
    {
        return shown(current.ok_or_else(not_found)?);
    }
    let facts = key_facts(store, project_id, subject, predicate)?;
    let chain = chain_of(&facts, subject, predicate)?;
    let found = match at {
        Some(t) => fact_chain::at(&chain, t),
        None => fact_chain::current(&chain),
    };
    shown(found.cloned().ok_or_else(not_found)?)
}

/// Facts matching `q`, by subject and predicate: one per key (current, or valid at `q.at`),
/// or every fact with `include_ended`; each with its effective `valid_to`. Transports that
/// answer with one body use it; a listing that streams uses [`list_rendered`].
pub fn list(store: &Store, project_id: &str, q: &ListQuery) -> Result<Vec<Fact>> {
    let mut out = Vec::new();
    list_each(store, project_id, q, &mut |f| {
        out.push(f);
        Ok(())
    })?;
    Ok(out)
}

/// [`list`], each fact handed to `each` in order as soon as its key's chain is known: through
/// the fact index, memory holds one key's chain rather than every fact (`--include-ended` on
/// a long history). An error from `each` stops the walk and is returned.
fn list_each(
    store: &Store,
    project_id: &str,
    q: &ListQuery,
    each: &mut dyn FnMut(Fact) -> Result<()>,
) -> Result<()> {
    let listing = Listing::new(store, project_id, q)?;
    if let Some(current) = listing.current(store, project_id)? {
        return current.into_iter().try_for_each(each);
    }
    let (subject, predicate) = (listing.q.subject.as_deref(), listing.q.predicate.as_deref());
    let mut one_key = |facts: &mut dyn Iterator<Item = Result<Fact>>| listing.key(facts, each);
    if store.each_key_facts(project_id, subject, predicate, &mut one_key)? {
        return Ok(());
    }
    listing.scan_log(store, project_id, &mut one_key)
}

/// Keys to a batch of [`list_rendered`]: enough work per batch that handing it on costs
/// nothing, few enough facts that two batches per thread stay small.
const RENDER_BATCH_KEYS: usize = 64;

/// [`list`] streamed: each fact turned into bytes by `render`, on two threads where the fact
/// index walks the keys (a listing of every fact spends its time parsing and writing facts),
/// and `sink` handed the bytes in order on this thread. An error from `render` or `sink`
/// stops the walk and is returned.
pub fn list_rendered(
    store: &Store,
    project_id: &str,
    q: &ListQuery,
    render: &(dyn Fn(&Fact, &mut Vec<u8>) -> Result<()> + Sync),
    sink: &mut dyn FnMut(&[u8]) -> Result<()>,
) -> Result<()> {
    list_rendered_in(store, project_id, q, RENDER_BATCH_KEYS, render, sink)
}

/// [`list_rendered`], `batch_keys` keys to a batch.
fn list_rendered_in(
    store: &Store,
    project_id: &str,
    q: &ListQuery,
    batch_keys: usize,
    render: &(dyn Fn(&Fact, &mut Vec<u8>) -> Result<()> + Sync),
    sink: &mut dyn FnMut(&[u8]) -> Result<()>,
) -> Result<()> {
    let listing = Listing::new(store, project_id, q)?;
    let mut out = Vec::new();
    let mut one_by_one = |f: Fact, sink: &mut dyn FnMut(&[u8]) -> Result<()>| -> Result<()> {
        out.clear();
        render(&f, &mut out)?;
        sink(&out)
    };
    if let Some(current) = listing.current(store, project_id)? {
        return (current.into_iter()).try_for_each(|f| one_by_one(f, sink));
    }
    let (subject, predicate) = (listing.q.subject.as_deref(), listing.q.predicate.as_deref());
    // Each fact rendered into a buffer of the worker's, then written whole: the batch's
    // writer sees one write per fact.
    let key = |facts: &mut dyn Iterator<Item = Result<Fact>>, out: &mut dyn std::io::Write| {
        let mut one = Vec::new();
        listing.key(facts, &mut |f| {
            one.clear();
            render(&f, &mut one)?;
            (out.write_all(&one)).map_err(|e| Error::io("cannot list the facts", e))
        })
    };
    if store.render_key_facts(project_id, subject, predicate, batch_keys, &key, sink)? {
        return Ok(());
    }
    let mut one_key = |facts: &mut dyn Iterator<Item = Result<Fact>>| {
        listing.key(facts, &mut |f| one_by_one(f, sink))
    };
    listing.scan_log(store, project_id, &mut one_key)
}

/// What a listing shows of each key: the query (with `at` defaulting to `as_of`) and the
/// records it hides.
struct Listing {
    q: ListQuery,
    hidden: Hidden,
}

impl Listing {
    fn new(store: &Store, project_id: &str, q: &ListQuery) -> Result<Listing> {
        // A project that is not there is refused, not listed as empty, on every door.
        crate::ops::projects::get(store, project_id)?;
        let hidden = Hidden::load(
            View::of(store, q.as_of),
            &[project_id.to_string()],
            q.reveal,
        )?;
        let q = ListQuery {
            at: q.at.or(q.as_of),
            ..q.clone()
        };
        Ok(Listing { q, hidden })
    }

    fn matches(&self, f: &Fact) -> bool {
        self.q.subject.as_deref().is_none_or(|s| s == f.subject())
            && self
                .q
                .predicate
                .as_deref()
                .is_none_or(|p| p == f.predicate())
    }

    /// Hidden facts are left out of what is shown; they still end the facts before them.
    fn tagged(&self, f: &Fact) -> bool {
        self.q
            .tag
            .as_deref()
            .is_none_or(|t| f.list("tags").contains(&t))
            && self.hidden.fact(f).is_none()
    }

    /// The current facts, from the index, already one per key and in order; `None` where
    /// other views need every fact.
    fn current(&self, store: &Store, project_id: &str) -> Result<Option<Vec<Fact>>> {
        if self.q.at.is_some() || self.q.include_ended {
            return Ok(None);
        }
        let Some(current) = store.current_facts(project_id, self.q.subject.as_deref())? else {
            return Ok(None);
        };
        Ok(Some(
            (current.into_iter())
                .filter(|f| self.matches(f) && self.tagged(f))
                .collect(),
        ))
    }

    /// What one key shows of its facts, in chain order, each handed to `each` as soon as
    /// the next one gives its end.
    fn key(
        &self,
        facts: &mut dyn Iterator<Item = Result<Fact>>,
        each: &mut dyn FnMut(Fact) -> Result<()>,
    ) -> Result<()> {
        match self.q.as_of {
            // Whether a fact was still open then depends on the key's facts recorded since.
            Some(t) => {
                let facts = as_recorded_at(facts.collect::<Result<_>>()?, t)?;
                self.shown(&mut facts.into_iter().map(Ok), each)
            }
            None => self.shown(facts, each),
        }
    }

    /// The tag filter applies to what the chain shows, since a fact without the tag still
    /// ends the one before it.
    fn shown(
        &self,
        facts: &mut dyn Iterator<Item = Result<Fact>>,
        each: &mut dyn FnMut(Fact) -> Result<()>,
    ) -> Result<()> {
        let mut links = fact_chain::effective_links(facts).map(|l| l.map(|l| l.fact));
        if self.q.include_ended {
            for f in links {
                let f = f?;
                if self.tagged(&f) {
                    each(f)?;
                }
            }
            return Ok(());
        }
        // The fact that held at `at`, or the current one: the last, unless it ended.
        let live = match self.q.at {
            Some(t) => (links.find(|f| f.as_ref().map_or(true, |f| f.valid_at(t)))).transpose()?,
            None => links.try_fold(None, |_, f| f.map(Some))?,
        };
        match live {
            Some(f) if (self.q.at.is_some() || f.is_current()) && self.tagged(&f) => each(f),
            _ => Ok(()),
        }
    }

    /// Without a usable index: every fact read, then put in order by key.
    fn scan_log(&self, store: &Store, project_id: &str, one_key: &mut EachKey<'_>) -> Result<()> {
        let facts: Vec<Fact> = (store.facts(project_id)?.into_values())
            .filter(|f| self.matches(f))
            .collect();
        let mut rest = sorted_by_key_then_rank(facts).into_iter().peekable();
        while let Some(first) = rest.next() {
            let mut chain = vec![first];
            while let Some(f) = rest.next_if(|f| {
                f.subject() == chain[0].subject() && f.predicate() == chain[0].predicate()
            }) {
                chain.push(f);
            }
            one_key(&mut chain.into_iter().map(Ok))?;
        }
        Ok(())
    }
}

/// The facts (of one key, or more) as the store held them at `t`: those recorded by then, each
/// at the version it had then, in the order given. A fact closed later (its `valid_to` after `t`, or a successor recorded after `t`,
/// even one backdated to start before it) was still open then.
fn as_recorded_at(facts: Vec<Fact>, t: Timestamp) -> Result<Vec<Fact>> {
    let later: std::collections::HashSet<(String, String, Timestamp)> = (facts.iter())
        .filter(|f| f.created_at() > t)
        .map(|f| {
            (
                f.subject().to_string(),
                f.predicate().to_string(),
                f.valid_from(),
            )
        })
        .collect();
    let mut out = Vec::with_capacity(facts.len());
    for f in facts.into_iter().filter(|f| f.created_at() <= t) {
        let closed_since = f.valid_to().is_some_and(|end| {
            end > t || later.contains(&(f.subject().to_string(), f.predicate().to_string(), end))
        });
        if !closed_since {
            out.push(f);
            continue;
        }
        let mut open = f.into_map();
        open.insert("valid_to".into(), Value::Null);
        out.push(Fact::from_map(open)?);
    }
    Ok(out)
}

/// `facts` by subject, predicate and chain order, each sort key worked out once (a rank
/// parses timestamps: comparing with it directly costs a list of thousands dearly).
fn sorted_by_key_then_rank(facts: Vec<Fact>) -> Vec<Fact> {
    let mut order: Vec<_> = facts
        .iter()
        .enumerate()
        .map(|(i, f)| (f.subject(), f.predicate(), fact_chain::chain_rank(f), i))
        .collect();
    order.sort_unstable();
    let order: Vec<usize> = order.into_iter().map(|(.., i)| i).collect();
    let mut slots: Vec<Option<Fact>> = facts.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// Every fact of a key, oldest first, each with its effective `valid_to` and, where that
/// differs, what its current version stores.
pub fn history(
    store: &Store,
    project_id: &str,
    subject: &str,
    predicate: &str,
) -> Result<Vec<Link>> {
    let facts = key_facts(store, project_id, subject, predicate)?;
    chain_of(&facts, subject, predicate)
}

/// The facts whose source is package `package_id` (§7.2 `source_package_id`), current and
/// ended, each with its effective `valid_to`: by subject and predicate, then in chain order.
/// The log is searched for the id's bytes; only the keys found there are read whole (through
/// the fact index), since a fact's effective end depends on the other facts of its key.
pub fn sourced_by(store: &Store, project_id: &str, package_id: &str) -> Result<Vec<Fact>> {
    let from_it = |f: &Fact| f.str_field("source_package_id") == Some(package_id);
    let keys: std::collections::BTreeSet<(String, String)> = (store
        .facts_mentioning(project_id, package_id)?
        .into_values())
    .filter(from_it)
    .map(|f| (f.subject().to_string(), f.predicate().to_string()))
    .collect();
    // Without a usable index every key would read the whole log: read it once instead.
    let mut whole: Option<BTreeMap<String, Fact>> = None;
    let mut out = Vec::new();
    for (subject, predicate) in &keys {
        let one;
        let facts = match store.facts_of_key(project_id, subject, predicate)? {
            Facts::Some(facts) => {
                one = facts;
                &one
            }
            Facts::Unindexed => match &mut whole {
                Some(all) => all,
                None => whole.insert(store.facts(project_id)?),
            },
        };
        let chain = chain_of(facts, subject, predicate)?;
        out.extend(chain.into_iter().map(|l| l.fact).filter(from_it));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::test_support::store_with;
    use serde_json::json;

    const JAN: &str = "2026-01-01T00:00:00Z";
    const FEB: &str = "2026-02-01T00:00:00Z";
    const MAR: &str = "2026-03-01T00:00:00Z";

    /// A fact of project `demo`, stored open unless `to` is given, with `extra` members.
    fn fact(id: &str, key: (&str, &str), from: &str, to: Option<&str>, extra: Value) -> Fact {
        let mut v = json!({"fact_id": id, "project_id": "demo", "subject": key.0,
            "predicate": key.1, "value": id, "valid_from": from, "valid_to": to,
            "created_at": from});
        if let (Value::Object(map), Value::Object(more)) = (&mut v, extra) {
            map.extend(more);
        }
        Fact::from_value(v).unwrap()
    }

    fn append(store: &Store, facts: &[Fact]) {
        let log = store.facts_log("demo");
        store
            .append_records(&log, &facts.iter().collect::<Vec<_>>())
            .unwrap();
    }

    /// (id, effective valid_to) of each fact `q` lists.
    fn listed(store: &Store, q: &ListQuery) -> Vec<(String, Option<String>)> {
        let shown = list(store, "demo", q).unwrap();
        (shown.iter())
            .map(|f| (f.id().into(), f.str_field("valid_to").map(Into::into)))
            .collect()
    }

    /// Queries whose answers must not depend on the index.
    fn queries() -> Vec<ListQuery> {
        let every = ListQuery {
            include_ended: true,
            ..ListQuery::default()
        };
        vec![
            every.clone(),
            ListQuery::default(),
            ListQuery {
                tag: Some("t".into()),
                ..every.clone()
            },
            ListQuery {
                subject: Some("b".into()),
                ..every.clone()
            },
            ListQuery {
                at: Some(relay_wire::time::parse("2026-02-15T00:00:00Z").unwrap()),
                ..ListQuery::default()
            },
            ListQuery {
                as_of: Some(relay_wire::time::parse("2026-02-15T00:00:00Z").unwrap()),
                ..ListQuery::default()
            },
        ]
    }

    #[test]
    fn every_fact_comes_by_key_then_chain_with_its_effective_end_with_or_without_the_index() {
        let (_dir, store) = store_with(&["demo"]);
        let tag = json!({"tags": ["t"]});
        append(
            &store,
            &[
                // Key (b, p): a merge left fact_2 open; fact_3 ends it.
                fact("fact_2", ("b", "p"), JAN, None, tag.clone()),
                fact("fact_1", ("a", "p"), FEB, None, json!({})),
                fact("fact_3", ("b", "p"), FEB, Some(MAR), json!({})),
                // Hidden (expired): left out, yet it still ends the fact before it.
                fact("fact_4", ("c", "p"), JAN, None, tag.clone()),
                fact(
                    "fact_5",
                    ("c", "p"),
                    FEB,
                    None,
                    json!({"x-expires-at": "2026-02-02T00:00:00Z"}),
                ),
            ],
        );
        let every = ListQuery {
            include_ended: true,
            ..ListQuery::default()
        };
        let expected = vec![
            ("fact_1".to_string(), None),
            ("fact_2".to_string(), Some(FEB.to_string())),
            ("fact_3".to_string(), Some(MAR.to_string())),
            ("fact_4".to_string(), Some(FEB.to_string())),
        ];
        assert_eq!(listed(&store, &every), expected);
        // The index is written by now; later lines are its tail: a new key between the others,
        // and a new version of an indexed fact (fact_1 closed).
        append(
            &store,
            &[
                fact("fact_6", ("b", "a"), MAR, None, tag.clone()),
                fact("fact_1", ("a", "p"), FEB, Some(MAR), json!({})),
            ],
        );
        let tagged = ListQuery {
            tag: Some("t".into()),
            ..every.clone()
        };
        let indexed: Vec<_> = queries().iter().map(|q| listed(&store, q)).collect();
        assert_eq!(
            indexed[0],
            [
                ("fact_1".to_string(), Some(MAR.to_string())),
                ("fact_6".to_string(), None),
                ("fact_2".to_string(), Some(FEB.to_string())),
                ("fact_3".to_string(), Some(MAR.to_string())),
                ("fact_4".to_string(), Some(FEB.to_string())),
            ]
        );
        assert_eq!(
            listed(&store, &tagged),
            [
                ("fact_6".to_string(), None),
                ("fact_2".to_string(), Some(FEB.to_string())),
                ("fact_4".to_string(), Some(FEB.to_string())),
            ],
            "an untagged fact still ends the tagged one before it"
        );
        let plain = crate::ops::packages::deposit::test_support::unindexed(&store);
        let scanned: Vec<_> = queries().iter().map(|q| listed(&plain, q)).collect();
        assert_eq!(indexed, scanned);
    }

    /// What `list_each` gives `q`, one JSON line per fact.
    fn lines_one_by_one(store: &Store, q: &ListQuery) -> String {
        let mut out = Vec::new();
        list_each(store, "demo", q, &mut |f| {
            serde_json::to_writer(&mut out, &f).unwrap();
            out.push(b'\n');
            Ok(())
        })
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    /// What `list_rendered_in` gives `q` in batches of `batch_keys` keys.
    fn lines_rendered(store: &Store, q: &ListQuery, batch_keys: usize) -> String {
        let render = |f: &Fact, out: &mut Vec<u8>| -> Result<()> {
            serde_json::to_writer(&mut *out, f).unwrap();
            out.push(b'\n');
            Ok(())
        };
        let mut all = Vec::new();
        list_rendered_in(store, "demo", q, batch_keys, &render, &mut |b| {
            all.extend_from_slice(b);
            Ok(())
        })
        .unwrap();
        String::from_utf8(all).unwrap()
    }

    #[test]
    fn a_listing_rendered_on_two_threads_gives_the_lines_of_one_in_the_same_order() {
        let (_dir, store) = store_with(&["demo"]);
        let tag = json!({"tags": ["t"]});
        // 40 keys of up to three facts each, some tagged, some expired.
        let mut facts = Vec::new();
        for k in 0..40 {
            let key = (format!("s{:02}", (k * 17) % 40), format!("p{}", k % 3));
            let key = (key.0.as_str(), key.1.as_str());
            let extra = |i: usize| match (k + i) % 5 {
                0 => tag.clone(),
                1 => json!({"x-expires-at": "2026-02-02T00:00:00Z"}),
                _ => json!({}),
            };
            facts.push(fact(&format!("fact_{k}_a"), key, JAN, None, extra(0)));
            if k % 2 == 0 {
                facts.push(fact(&format!("fact_{k}_b"), key, FEB, None, extra(1)));
            }
            if k % 3 == 0 {
                facts.push(fact(&format!("fact_{k}_c"), key, MAR, None, extra(2)));
            }
        }
        append(&store, &facts);
        let every = ListQuery {
            include_ended: true,
            ..ListQuery::default()
        };
        let whole = lines_one_by_one(&store, &every);
        let shown = (facts.iter()).filter(|f| f.str_field("x-expires-at").is_none());
        assert_eq!(whole.lines().count(), shown.count(), "the expired left out");
        // The index is written; these lines are its tail: keys before, between and after
        // the indexed ones, and a new version of an indexed fact.
        append(
            &store,
            &[
                fact("fact_t1", ("a", "p"), FEB, None, tag.clone()),
                fact("fact_t2", ("s07", "p00"), FEB, None, json!({})),
                fact("fact_t3", ("s20", "p1"), MAR, None, json!({})),
                fact("fact_t4", ("zz", "p"), JAN, None, json!({})),
                fact("fact_0_a", ("s00", "p0"), JAN, Some(FEB), json!({})),
            ],
        );
        let plain = crate::ops::packages::deposit::test_support::unindexed(&store);
        for q in queries() {
            let want = lines_one_by_one(&store, &q);
            assert_eq!(want, lines_one_by_one(&plain, &q), "{q:?}");
            for batch_keys in [1, 2, 3, 7, 1000] {
                assert_eq!(
                    lines_rendered(&store, &q, batch_keys),
                    want,
                    "{q:?} {batch_keys}"
                );
            }
            assert_eq!(
                lines_rendered(&plain, &q, 2),
                want,
                "{q:?} without the index"
            );
        }
        assert!(lines_one_by_one(&store, &every).contains("fact_t3"));
    }

    #[test]
    fn a_chain_table_pointing_outside_the_log_is_not_used() {
        let (_dir, store) = store_with(&["demo"]);
        append(
            &store,
            &[
                fact("fact_1", ("a", "p"), JAN, None, json!({})),
                fact("fact_2", ("a", "p"), FEB, None, json!({})),
            ],
        );
        let every = ListQuery {
            include_ended: true,
            ..ListQuery::default()
        };
        let expected = listed(&store, &every);
        assert_eq!(expected.len(), 2);
        // The first chain entry (after the header line, the key and current tables) now
        // points 4 GiB long past the log's end: the index file keeps its length.
        let path = store.indexes().dir().join("facts-v5/demo.idx");
        let mut bytes = std::fs::read(&path).unwrap();
        let header_end = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        let header: Value = serde_json::from_slice(&bytes[..header_end]).unwrap();
        let tables = header["keys"].as_u64().unwrap() + header["current"].as_u64().unwrap();
        let entry = header_end + tables as usize * 16;
        bytes[entry..entry + 16].copy_from_slice(&[0xfe; 16]);
        std::fs::write(&path, bytes).unwrap();
        assert_eq!(
            listed(&store, &every),
            expected,
            "read from the log instead"
        );
    }
}
