//! The fact index's tests: which version of a fact the index keeps as current.

use super::*;

fn fact(id: &str, value: &str, from: &str, to: Option<&str>) -> String {
    let mut f = serde_json::json!({
        "fact_id": id, "project_id": "demo", "subject": "api", "predicate": "uses",
        "value": value, "valid_from": from, "confidence": 1.0,
        "asserted_by": {"id": "ana", "type": "human"}, "created_at": from,
    });
    if let Some(to) = to {
        f["valid_to"] = serde_json::json!(to);
    }
    f.to_string() + "\n"
}

#[test]
fn the_index_keeps_each_fact_s_current_version_by_the_version_order_ties_included() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(".relay");
    Store::create(&root, "demo").unwrap();
    let store = Store::open(root).unwrap();
    let log = store.layout().facts_file("demo");
    let (t1, t2, t3) = (
        "2026-01-01T00:00:00Z",
        "2026-01-02T00:00:00Z",
        "2026-01-03T00:00:00Z",
    );
    let lines = [
        // fact_a: open, then closed by a later version: the closed one is current.
        fact("fact_a", "rest", t1, None),
        fact("fact_b", "grpc", t2, None),
        fact("fact_a", "rest", t1, Some(t2)),
        // fact_c: two open versions (a merge of two clones): the version order's tie-break
        // decides, read back from both lines, whichever comes first in the log.
        fact("fact_c", "zzz", t3, None),
        fact("fact_c", "aaa", t3, None),
    ];
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    let swapped = [&lines[..3], &[lines[4].clone(), lines[3].clone()]].concat();
    let expected = |lines: &[String]| -> Vec<String> {
        // Without the index: every version parsed, the version order applied.
        let mut best: BTreeMap<String, Fact> = BTreeMap::new();
        for l in lines {
            keep(&mut best, parse_fact(l.trim_end().as_bytes()).unwrap());
        }
        let mut facts: Vec<&Fact> = best.values().collect();
        sort_in_chain_order(&mut facts, |f| f);
        // The key's chain ends in its current fact, unless that one ended.
        (facts.last().filter(|f| f.is_current()).iter())
            .map(|f| f.value().to_string())
            .collect()
    };
    for lines in [lines.to_vec(), swapped] {
        std::fs::write(&log, lines.concat()).unwrap();
        let _ = std::fs::remove_dir_all(store.layout().cache_dir());
        let current: Vec<String> = (store.current_facts("demo", None).unwrap().unwrap())
            .iter()
            .map(|f| f.value().to_string())
            .collect();
        assert_eq!(current, expected(&lines));
        assert_eq!(current.len(), 1, "{current:?}");
        assert!(matches!(
            store.check_fact_index("demo").unwrap(),
            super::super::Check::Sound
        ));
    }
}
