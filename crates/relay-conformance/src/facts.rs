//! The L2 scenarios (§11.3): assert_fact, atomic supersession (exactly one current fact; the
//! previous one ends where the new one begins, §7.3), point-in-time reads, and
//! invalidate_fact (§7.4, §8.7); orient's active facts between a supersession and the
//! invalidation (§8.3); a numeric-looking value kept as text (§7.1) and an `x-*` member kept
//! (§12.1), on a second key. The keys are ones no other fact holds. §9.1 maps only assert and
//! invalidate; the reads use relay's `GET /v1/projects/{p}/facts?subject=&predicate=&at=` and
//! `…/facts/history`. A server without the first fails L2 (§11.3 requires temporal queries);
//! one without the history is checked by a point-in-time read instead.

use chrono::TimeDelta;
use serde_json::{Value, json};

use super::client::Answer;
use super::shape;
use super::{Check, Kind, Suite, expect, expect_list, fail, needs, required};
use relay_wire::canonical;
use relay_wire::time::{self, Timestamp};

/// How long before now the first fact is said to have become true.
const FIRST_AGE: TimeDelta = TimeDelta::minutes(10);

/// The query naming a fact's key (§9.1: `?subject=…&predicate=…`).
pub(super) fn key_query<'a>(subject: &'a str, predicate: &'a str) -> [(&'static str, &'a str); 2] {
    [("subject", subject), ("predicate", predicate)]
}

impl Suite {
    fn key(&self) -> (String, String) {
        (format!("conformance-{}", self.word), "state".to_string())
    }

    /// The key of `fact_numeric_string` and `fact_extension_members`, another no other fact
    /// holds.
    fn value_key(&self) -> (String, String) {
        (format!("conformance-{}", self.word), "score".to_string())
    }

    /// assert_fact (§8.6) of `body`: the answer and the fact in it. Its key is invalidated by
    /// the clean-up, whatever the checks find.
    fn post_fact(&mut self, body: &Value) -> Check<(Answer, Value)> {
        let a = self.client.post(&self.project_path(&["facts"]), body);
        let key = (
            shape::text(body, "subject").to_string(),
            shape::text(body, "predicate").to_string(),
        );
        if a.success() && !self.fact_keys.contains(&key) {
            self.fact_keys.push(key);
        }
        let reply = expect(&a, &[200, 201], "success and the fact (§8.6)")?;
        match shape::fact_of(reply).cloned() {
            Some(fact) => Ok((a, fact)),
            None => fail(format!(
                "{}; expected the fact asserted (§8.6)",
                a.answered()
            )),
        }
    }

    /// assert_fact (§8.6) of `value` for the suite's key.
    fn assert_value(&mut self, value: &str, valid_from: Option<Timestamp>) -> Check<Value> {
        let (subject, predicate) = self.key();
        let mut body = json!({"subject": subject, "predicate": predicate, "value": value});
        if let Some(t) = valid_from {
            body["valid_from"] = json!(time::format(t));
        }
        let (a, fact) = self.post_fact(&body)?;
        self.saw(Kind::Fact, &a, &[&fact]);
        let asked = [
            ("subject", &subject),
            ("predicate", &predicate),
            ("value", &value.to_string()),
        ];
        for (name, want) in asked {
            if shape::text(&fact, name) != want {
                return fail(format!(
                    "{} answered a fact whose {name} is {}, not {want:?}: {fact}",
                    a.request, fact[name]
                ));
            }
        }
        if !shape::is_current(&fact) {
            return fail(format!(
                "{} answered a fact that is not current (valid_to {}; §7.3: the new fact has \
                 valid_to null)",
                a.request, fact["valid_to"]
            ));
        }
        if let Some(t) = valid_from
            && shape::time_of(&fact, "valid_from") != Some(t)
        {
            return fail(format!(
                "{} answered valid_from {}; the assert asked for {} (§8.6)",
                a.request,
                fact["valid_from"],
                time::format(t)
            ));
        }
        Ok(fact)
    }

    /// The facts of the suite's key a read answers (`at`: at that time; else current), every
    /// fact listed recorded for `wire_format`.
    fn read_facts(&mut self, at: Option<Timestamp>) -> Check<(Answer, Vec<Value>)> {
        let (a, list, mine) = self.facts_of(&self.key(), at)?;
        self.saw(Kind::Fact, &a, &list.iter().collect::<Vec<_>>());
        Ok((a, mine))
    }

    /// A read of the facts of `key` (`at`: at that time; else current): the answer, every
    /// fact it lists, and those of the key.
    fn facts_of(
        &self,
        (subject, predicate): &(String, String),
        at: Option<Timestamp>,
    ) -> Check<(Answer, Vec<Value>, Vec<Value>)> {
        let at = at.map(time::format);
        let mut query = key_query(subject, predicate).to_vec();
        if let Some(t) = &at {
            query.push(("at", t));
        }
        let a = self.client.get(&self.project_path(&["facts"]), &query);
        let a = required(
            &a,
            "fact query (§9.1 maps none; relay's is GET /v1/projects/{p}/facts?subject=&predicate=&at=)",
            "§11.3 (temporal fact queries: current, point-in-time)",
        )?
        .clone();
        let list = expect_list(&a, "facts", "200 and the facts (§11.3: temporal queries)")?;
        let mine: Vec<Value> = (list.iter())
            .filter(|f| {
                shape::text(f, "subject") == subject && shape::text(f, "predicate") == predicate
            })
            .cloned()
            .collect();
        let list = list.to_vec();
        Ok((a, list, mine))
    }
}

/// assert_fact (§8.6): the fact back, as asked, current, from the `valid_from` given.
pub fn assert(s: &mut Suite) -> Check {
    let from = time::now() - FIRST_AGE;
    let fact = s.assert_value("one", Some(from))?;
    s.first_fact = Some(fact);
    Ok(())
}

/// The fact `assert_fact` wrote, or a failure.
fn first(s: &Suite) -> Check<Value> {
    needs(&s.first_fact, "the fact of `assert_fact`")
}

/// Re-assert (§7.3): exactly one current fact, the new one; the previous one's `valid_to` is
/// the new one's `valid_from`.
pub fn supersession(s: &mut Suite) -> Check {
    let old = first(s)?;
    let new = s.assert_value("two", None)?;
    s.second_fact = Some(new.clone());
    let (a, current) = s.read_facts(None)?;
    let open: Vec<&Value> = current.iter().filter(|f| shape::is_current(f)).collect();
    if open.len() != 1 || open[0]["fact_id"] != new["fact_id"] {
        return fail(format!(
            "{} answered {} current facts for the key: {}; expected exactly the new one, {} \
             (§7.3)",
            a.request,
            open.len(),
            Value::from(current.clone()),
            new["fact_id"]
        ));
    }
    let (subject, predicate) = s.key();
    let query = key_query(&subject, &predicate);
    let h = s.client.get(&s.project_path(&["facts", "history"]), &query);
    let closed = if h.no_route() {
        // Without a history, the fact valid when the first began shows how it ended.
        let at = shape::time_of(&old, "valid_from");
        let (_, then) = s.read_facts(at)?;
        then.into_iter().find(|f| f["fact_id"] == old["fact_id"])
    } else {
        let body = expect(&h, &[200], "200 and the key's facts")?;
        let list = shape::list_of(body, "facts").unwrap_or_default().to_vec();
        s.saw(Kind::Fact, &h, &list.iter().collect::<Vec<_>>());
        let open = list.iter().filter(|f| shape::is_current(f)).count();
        if open != 1 {
            return fail(format!(
                "{} answered {open} current facts in the key's history; expected one (§7.3)",
                h.request
            ));
        }
        list.into_iter().find(|f| f["fact_id"] == old["fact_id"])
    };
    let Some(closed) = closed else {
        return fail(format!(
            "the superseded fact {} is gone from {} (§5.1: the history is retained)",
            old["fact_id"], h.request
        ));
    };
    let (ended, began) = (
        shape::time_of(&closed, "valid_to"),
        shape::time_of(&new, "valid_from"),
    );
    if ended.is_none() || ended != began {
        return fail(format!(
            "the superseded fact {} has valid_to {}; expected the new fact's valid_from {} (§7.3)",
            old["fact_id"], closed["valid_to"], new["valid_from"]
        ));
    }
    Ok(())
}

/// Point-in-time reads (§7.3: the fact with valid_from <= t < valid_to): before the first
/// fact none; from its valid_from, and halfway to the second's, the old value; from the
/// second's valid_from the new one.
pub fn point_in_time(s: &mut Suite) -> Check {
    let old = first(s)?;
    let new = needs(&s.second_fact, "the facts of `fact_supersession`")?;
    let (Some(from), Some(to)) = (
        shape::time_of(&old, "valid_from"),
        shape::time_of(&new, "valid_from"),
    ) else {
        return fail("the facts asserted have no RFC 3339 valid_from (§7.1)");
    };
    if to <= from {
        return fail(format!(
            "the second fact began at {} and the first at {}: no time lies between (§7.3)",
            new["valid_from"], old["valid_from"]
        ));
    }
    let times = [
        (
            from - TimeDelta::seconds(1),
            &[][..],
            "before the first fact began",
        ),
        (from, &["one"][..], "at the first fact's valid_from"),
        (
            from + (to - from) / 2,
            &["one"][..],
            "between the two facts",
        ),
        (
            to,
            &["two"][..],
            "at the second fact's valid_from, where the first ends",
        ),
    ];
    for (at, want, when) in times {
        s.value_at(at, want, when)?;
    }
    Ok(())
}

impl Suite {
    /// Checks that a read at `at` answers exactly the values `want` for the suite's key.
    fn value_at(&mut self, at: Timestamp, want: &[&str], when: &str) -> Check {
        let (a, then) = self.read_facts(Some(at))?;
        let values: Vec<&str> = then.iter().map(|f| shape::text(f, "value")).collect();
        if values != want {
            return fail(format!(
                "{} answered the values {values:?} for the key {when}; expected {want:?} (§7.3: \
                 the fact with valid_from <= t < valid_to)",
                a.request
            ));
        }
        Ok(())
    }
}

/// invalidate_fact (§8.7): a count of 1, then no current fact of the key, while the value
/// it had stays readable at a time before (§7.4: it used to be true); a second invalidation
/// finds nothing current (a count of 0).
pub fn invalidate(s: &mut Suite) -> Check {
    first(s)?;
    let new = needs(&s.second_fact, "the facts of `fact_supersession`")?;
    let (subject, predicate) = s.key();
    let query = key_query(&subject, &predicate);
    for count in [1, 0] {
        let a = s.client.delete(&s.project_path(&["facts"]), &query);
        let body = expect(&a, &[200], "200 and the count of facts invalidated (§8.7)")?;
        if shape::count_of(body, "invalidated") != Some(count) {
            return fail(format!(
                "{}; expected a count of {count}, the current facts of the key (§8.7; relay \
                 answers {{\"invalidated\": N}})",
                a.answered()
            ));
        }
        let (b, current) = s.read_facts(None)?;
        if !current.is_empty() {
            return fail(format!(
                "{} still answers {} for the key after invalidate_fact; expected none (§7.4)",
                b.request,
                Value::from(current)
            ));
        }
    }
    match shape::time_of(&new, "valid_from") {
        Some(t) => s.value_at(
            t,
            &["two"],
            "before it was invalidated (§7.4: it used to be true)",
        ),
        None => fail("the second fact has no RFC 3339 valid_from (§7.1)"),
    }
}

/// orient (§8.3) while the suite's key has an ended fact and a current one: `active_facts`
/// holds the current fact and not the one it superseded (§8.3: facts where valid_to IS NULL;
/// §7.3). Nothing it lists is recorded for `wire_format`: the packages of the project may by
/// then include ones a broken server wrongly accepted, which their own scenarios judge.
pub fn orient_active_facts(s: &mut Suite) -> Check {
    let old = first(s)?;
    let new = needs(&s.second_fact, "the facts of `fact_supersession`")?;
    let (a, body) = s.orient_bundle(14)?;
    let listed: Vec<&Value> = (body["active_facts"].as_array().into_iter().flatten())
        .filter_map(shape::fact_of)
        .map(|f| &f["fact_id"])
        .collect();
    if listed.contains(&&old["fact_id"]) {
        return fail(format!(
            "{}: `active_facts` holds {}, which {} superseded (§8.3: facts where valid_to IS \
             NULL; §7.3)",
            a.request, old["fact_id"], new["fact_id"]
        ));
    }
    if !listed.contains(&&new["fact_id"]) {
        return fail(format!(
            "{}: `active_facts` lacks {}, the current fact of ({}, {}) (§8.3)",
            a.request,
            new["fact_id"],
            shape::text(&new, "subject"),
            shape::text(&new, "predicate")
        ));
    }
    Ok(())
}

/// The value `fact_numeric_string` asserts: the §7.5 example's.
const NUMERIC: &str = "97.0";

/// A value that looks like a number stays text (§7.1: numeric values MUST be serialized as
/// strings): `"97.0"` comes back as the JSON string `"97.0"`, from the assert and from a read
/// of the key. Its facts are not recorded for `wire_format`, which would fail a number at
/// L0: this scenario says what is wrong, at the level that writes facts.
pub fn numeric_string(s: &mut Suite) -> Check {
    let key = s.value_key();
    let body = json!({"subject": key.0, "predicate": key.1, "value": NUMERIC});
    let (a, fact) = s.post_fact(&body)?;
    numeric_kept(&a.request, &fact)?;
    let (b, _, mine) = s.facts_of(&key, None)?;
    match mine.iter().find(|f| f["fact_id"] == fact["fact_id"]) {
        Some(f) => numeric_kept(&b.request, f),
        None => fail(format!(
            "{} does not answer {}, the fact just asserted (§11.3)",
            b.answered(),
            fact["fact_id"]
        )),
    }
}

/// Whether a fact's value is the string [`NUMERIC`].
fn numeric_kept(request: &str, fact: &Value) -> Check {
    if fact.get("value") == Some(&json!(NUMERIC)) {
        return Ok(());
    }
    fail(format!(
        "{request} answered the value {}; asserted as the string \"{NUMERIC}\" (§7.1: numeric \
         values MUST be serialized as strings)",
        fact.get("value").map_or("absent".into(), Value::to_string)
    ))
}

/// An `x-*` member of an asserted fact is kept (§12.1: unknown x-* fields MUST be preserved
/// and round-tripped): in the fact the assert answers and in a read of the key, unchanged.
pub fn extension_members(s: &mut Suite) -> Check {
    let key = s.value_key();
    let extension = json!({"run": s.word, "ratio": 0.25, "count": 3});
    let body = json!({"subject": key.0, "predicate": key.1, "value": "kept",
        "x-conformance": extension});
    let (a, fact) = s.post_fact(&body)?;
    s.saw(Kind::Fact, &a, &[&fact]);
    extension_kept(&a.request, &fact, &extension)?;
    let (b, _, mine) = s.facts_of(&key, None)?;
    match mine.iter().find(|f| f["fact_id"] == fact["fact_id"]) {
        Some(f) => {
            s.saw(Kind::Fact, &b, &[f]);
            extension_kept(&b.request, f, &extension)
        }
        None => fail(format!(
            "{} does not answer {}, the fact just asserted (§11.3)",
            b.answered(),
            fact["fact_id"]
        )),
    }
}

/// Whether a fact holds `x-conformance` as sent (compared by canonical JSON, Appendix A).
fn extension_kept(request: &str, fact: &Value, sent: &Value) -> Check {
    let kept = fact.get("x-conformance");
    if kept.map(canonical::to_canonical_string) == Some(canonical::to_canonical_string(sent)) {
        return Ok(());
    }
    fail(format!(
        "{request} answered `x-conformance` {}; asserted as {sent} (§12.1: unknown x-* members \
         MUST be preserved and round-tripped)",
        kept.map_or("absent".into(), Value::to_string)
    ))
}
