//! The held-out paraphrase set: data checks only, no model and no store.
//!
//! `tests/data/search_heldout.json` holds two queries per labelled corpus package, written
//! blind (before any semantic or hybrid result was seen) the way someone asks who does not
//! know the package's words: a symptom, a goal, a question from support or a manager. The
//! retrieval benchmark scores semantic and hybrid search on it, so its one promise must hold
//! by construction: after relay's own tokenising, stopword removal and stemming
//! (`search::query`), no query term is a stem of any text its package carries, the searched
//! fields included, so keyword search cannot reach the target through a shared word. This
//! test holds every entry to that rule and to the set's shape: 224 entries, two per package,
//! 3 to 14 words, none a copy of an existing paraphrase.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use relay::search::query::{content_stems, stems, words};

use crate::search_quality::{Labelled, corpus, labelled};

const HELDOUT: &str = include_str!("../data/search_heldout.json");
const PARAPHRASES: &str = include_str!("../data/search_paraphrases.json");

/// Queries per labelled package.
const PER_PACKAGE: usize = 2;
/// The shortest and longest query, in words.
const WORDS: std::ops::RangeInclusive<usize> = 3..=14;

/// Every string a JSON value holds, nested lists and objects included.
fn strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// Every corpus package's stems, by id: the stems of every text it carries (title,
/// description, decisions, questions, handoff note, tags and any other field), so that the
/// searched fields are covered whatever they are.
fn package_stems() -> BTreeMap<String, BTreeSet<String>> {
    corpus()
        .map(|line| {
            let package: Value = serde_json::from_str(line).expect("corpus line is JSON");
            let mut texts = Vec::new();
            strings(&package, &mut texts);
            let id = package["package_id"].as_str().expect("package_id");
            (
                id.to_string(),
                texts.iter().flat_map(|t| stems(t)).collect(),
            )
        })
        .collect()
}

/// Lowercased, with runs of spaces made one, for comparing queries.
fn normal(query: &str) -> String {
    query
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// One line per way `set` breaks the held-out rules against `packages` (stems by id) and
/// the existing `paraphrases`; empty when it keeps them all.
fn broken(
    set: &[Labelled],
    packages: &BTreeMap<String, BTreeSet<String>>,
    paraphrases: &[Labelled],
) -> Vec<String> {
    let mut broken = Vec::new();
    let expected = PER_PACKAGE * packages.len();
    if set.len() != expected {
        broken.push(format!(
            "{} entries, not {expected} ({PER_PACKAGE} for each of {} packages)",
            set.len(),
            packages.len()
        ));
    }
    let copied: BTreeSet<String> = paraphrases.iter().map(|q| normal(&q.query)).collect();
    let mut seen = BTreeSet::new();
    let mut per_package: BTreeMap<&str, usize> =
        packages.keys().map(|id| (id.as_str(), 0)).collect();
    for q in set {
        if q.kind != "heldout" {
            broken.push(format!(
                "{:?} has kind {:?}, not \"heldout\"",
                q.query, q.kind
            ));
        }
        if copied.contains(&normal(&q.query)) {
            broken.push(format!("{:?} is an existing paraphrase", q.query));
        }
        if !seen.insert(normal(&q.query)) {
            broken.push(format!("{:?} appears twice", q.query));
        }
        let n = words(&q.query).count();
        if !WORDS.contains(&n) {
            broken.push(format!(
                "{:?} has {n} words, not {} to {}",
                q.query,
                WORDS.start(),
                WORDS.end()
            ));
        }
        let Some(package) = packages.get(&q.expect) else {
            broken.push(format!(
                "{:?} expects {}, which is not in the corpus",
                q.query, q.expect
            ));
            continue;
        };
        *per_package.get_mut(q.expect.as_str()).unwrap() += 1;
        let shared: Vec<String> = content_stems(&q.query)
            .into_iter()
            .filter(|s| package.contains(s))
            .collect();
        if !shared.is_empty() {
            broken.push(format!("{:?} shares {shared:?} with {}", q.query, q.expect));
        }
    }
    for (id, n) in per_package {
        if n != PER_PACKAGE {
            broken.push(format!("{id} has {n} queries, not {PER_PACKAGE}"));
        }
    }
    broken
}

#[test]
fn heldout_queries_share_no_stem_with_their_package() {
    let packages = package_stems();
    assert_eq!(packages.len(), 112, "labelled corpus packages");
    let set = labelled(HELDOUT);
    let problems = broken(&set, &packages, &labelled(PARAPHRASES));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_bad_heldout_entry_is_caught() {
    let packages = package_stems();
    let paraphrases = labelled(PARAPHRASES);
    let mut set = labelled(HELDOUT);
    let entry = |query: &str, expect: &str| Labelled {
        query: query.to_string(),
        expect: expect.to_string(),
        kind: "heldout".to_string(),
    };
    // "passkeys" stems to a word of pkg_q001's title, so does "signing" and "web"; pkg_q002's
    // paraphrase is copied (case aside), which leaves pkg_q001 one query and pkg_q002 three;
    // the last entry expects a package that does not exist.
    set[0] = entry("signing in with passkeys on the web", "pkg_q001");
    set[1] = entry(&paraphrases[1].query.to_uppercase(), &paraphrases[1].expect);
    set.push(entry("who swaps the cryptographic material", "pkg_q999"));
    let problems = broken(&set, &packages, &paraphrases);
    for needle in [
        "225 entries, not 224",
        r#"shares ["sign", "passkey", "web"] with pkg_q001"#,
        "is an existing paraphrase",
        "pkg_q001 has 1 queries, not 2",
        "pkg_q002 has 3 queries, not 2",
        "expects pkg_q999, which is not in the corpus",
    ] {
        assert!(
            problems.iter().any(|p| p.contains(needle)),
            "{needle:?} is not among\n{}",
            problems.join("\n")
        );
    }
}
