//! Paraphrase queries: the labelled set semantic search is measured on.
//!
//! `tests/data/search_paraphrases.json` holds queries written the way someone asks who does not
//! remember the author's words, each labelled with its corpus package. After relay's own
//! tokenising, stopword removal and stemming, a query shares no stem with its package's searched
//! fields, so keyword search cannot find it by a shared word: the first test holds every entry
//! to that rule. The second runs keyword search over the set in the store `search_quality`
//! builds and prints its figures, as the baseline semantic search is compared with; keyword
//! search is expected to do poorly here, so no floor is asserted.

use std::collections::{BTreeMap, BTreeSet};

use relay::search::query::{MAX_TERMS, content_stems, stems, words};
use relay::store::index::FIELDS;
use relay::store::index::LitePackage;

use crate::search_quality::{corpus, labelled, labelled_store, measure};

const PARAPHRASES: &str = include_str!("../data/search_paraphrases.json");

/// Every corpus package's stems, by id: its searched fields read as the package index reads
/// them.
fn corpus_stems() -> BTreeMap<String, BTreeSet<String>> {
    corpus()
        .map(|line| {
            let p: LitePackage = serde_json::from_str(line).expect("corpus line is a package");
            let stems = FIELDS
                .iter()
                .flat_map(|&(field, _)| stems(&p.text(field)))
                .collect();
            (p.package_id.to_string(), stems)
        })
        .collect()
}

#[test]
fn paraphrases_share_no_stem_with_their_package() {
    let queries = labelled(PARAPHRASES);
    assert!(queries.len() >= 50, "{} paraphrases", queries.len());
    let targets: BTreeSet<&str> = queries.iter().map(|q| q.expect.as_str()).collect();
    assert!(targets.len() >= 40, "{} distinct targets", targets.len());
    let packages = corpus_stems();
    let mut broken = Vec::new();
    for q in &queries {
        assert_eq!(q.kind, "paraphrase", "{:?}", q.query);
        let Some(package) = packages.get(&q.expect) else {
            broken.push(format!(
                "{:?} expects {}, which is not in the corpus",
                q.query, q.expect
            ));
            continue;
        };
        let n = words(&q.query).count();
        if !(3..=10).contains(&n) {
            broken.push(format!("{:?} has {n} words, not 3 to 10", q.query));
        }
        let terms = content_stems(&q.query);
        if terms.len() > MAX_TERMS {
            broken.push(format!(
                "{:?} has {} terms; search reads only the first {MAX_TERMS}",
                q.query,
                terms.len()
            ));
        }
        let shared: Vec<&String> = terms.iter().filter(|s| package.contains(*s)).collect();
        if !shared.is_empty() {
            broken.push(format!("{:?} shares {shared:?} with {}", q.query, q.expect));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn keyword_search_on_paraphrases() {
    let env = labelled_store();
    measure(&env, &labelled(PARAPHRASES)).print("paraphrases");
}
