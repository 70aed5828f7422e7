//! The tests of relevant pull's scan, settling and ranking.

use super::*;

fn cand(id: u64, file: u32, offset: u64, version: u64, status: Status) -> Candidate {
    Candidate {
        id,
        offset,
        version,
        hash_prefix: 0,
        created_micros: 0,
        len: 1.0,
        file,
        status,
        ask_viewer: false,
        significance: 5,
        superseded: false,
        counted: false,
    }
}

/// The survivors as (file, offset), with their first term weight.
fn survivors(parts: &[Part]) -> Vec<(u32, u64, f32)> {
    let mut out: Vec<_> = parts
        .iter()
        .flat_map(|p| p.candidates.iter().zip(p.tf.chunks_exact(2)))
        .filter(|(c, _)| !c.superseded)
        .map(|(c, tf)| (c.file, c.offset, tf[0]))
        .collect();
    out.sort_by(|a, b| a.partial_cmp(b).unwrap());
    out
}

#[test]
fn one_candidate_per_package_its_current_version_across_logs_and_threads() {
    let mut a = Part::default();
    a.keep(cand(1, 0, 0, 1, Status::Complete), &[1.0, 0.0]);
    a.keep(cand(1, 0, 10, 2, Status::Complete), &[2.0, 0.0]);
    // A later version that is not complete does not replace a complete one.
    a.keep(cand(1, 0, 20, 3, Status::Draft), &[3.0, 0.0]);
    a.keep(cand(2, 0, 30, 1, Status::Complete), &[4.0, 0.0]);
    // Key 2 again in another log, equal in order: the earlier log wins.
    a.keep(cand(2, 2, 0, 1, Status::Complete), &[5.0, 0.0]);
    let mut b = Part::default();
    // Key 1 in another thread's log, newer: it wins over both of thread a's.
    b.keep(cand(1, 1, 0, 4, Status::Complete), &[6.0, 0.0]);
    b.keep(cand(3, 1, 10, 1, Status::Complete), &[7.0, 0.0]);
    assert_eq!(a.candidates.len(), 5, "every line kept until settled");
    assert_eq!(std::mem::size_of::<Candidate>(), 56);
    let mut parts = vec![a, b];
    settle_duplicates(&mut parts, 2);
    assert_eq!(
        survivors(&parts),
        vec![(0, 30, 4.0), (1, 0, 6.0), (1, 10, 7.0)]
    );
}

#[test]
fn many_candidates_settle_as_few_do() {
    // Past the size where every key is looked up, the duplicates are still every one found:
    // across parts, and within one (a package's versions in its month).
    let mut parts = vec![Part::default(), Part::default()];
    let n = MAP_ALL_BELOW as u64 + 1000;
    for (p, part) in parts.iter_mut().enumerate() {
        for i in 0..n {
            // Ids 0-99 in both parts, part 1's newer; the rest in one part only.
            let key = id_key(&format!(
                "pkg_{}",
                if i < 100 { i } else { i + p as u64 * n }
            ));
            let version = p as u64 + 1;
            part.keep(
                Candidate {
                    id: key,
                    ..cand(0, p as u32, i * 10, version, Status::Complete)
                },
                &[1.0, 0.0],
            );
        }
    }
    // Ids 100-199 of part 1 again in part 1, newer (offsets 1,000,000 on).
    for i in 100..200u64 {
        let key = id_key(&format!("pkg_{}", i + n));
        parts[1].keep(
            Candidate {
                id: key,
                ..cand(0, 1, 100_000 * 10 + i * 10, 3, Status::Complete)
            },
            &[1.0, 0.0],
        );
    }
    settle_duplicates(&mut parts, 2);
    let superseded: Vec<(usize, u64)> = (parts.iter().enumerate())
        .flat_map(|(p, part)| part.candidates.iter().map(move |c| (p, c)))
        .filter(|(_, c)| c.superseded)
        .map(|(p, c)| (p, c.offset / 10))
        .collect();
    let older_in_part_1 = (100..200).map(|i| (1, i));
    assert_eq!(
        superseded,
        (0..100)
            .map(|i| (0, i))
            .chain(older_in_part_1)
            .collect::<Vec<_>>()
    );
    // Whatever the bitmaps' size, a key met twice is found, and keys apart in their high
    // bits are not.
    for count in [4, 100_000, 1 << 30] {
        let keys = [7u64, 1 << 63, 7, 3 << 62];
        let buckets = SharedBuckets::of(keys.into_iter(), count);
        let shared: Vec<u64> = keys.into_iter().filter(|&k| buckets.holds(k)).collect();
        assert_eq!(shared, [7, 7], "{count}");
    }
}

#[test]
fn helpers_that_join_a_scan_find_what_one_thread_finds() {
    // Eight months, a package's versions in each of its month and a few ids in two
    // months: a scan that helpers join at once gives, over its parts, the candidates of a
    // scan on one thread, each once, with the same weights and the same superseded.
    let dir = tempfile::tempdir().unwrap();
    let words = ["memory", "leak", "pool", "cache"];
    let mut next = crate::search::phrase_filter::tests::draws(9);
    let files: Vec<PathBuf> = (1..=8)
        .map(|m| {
            let log = dir
                .path()
                .join(format!("projects/p/packages/2026-{m:02}.ndjson"));
            std::fs::create_dir_all(log.parent().unwrap()).unwrap();
            let mut lines = String::new();
            for i in 0..60 {
                let title: Vec<&str> = (0..3).map(|_| words[next(words.len())]).collect();
                // Ids 0-4 are in every month: one current version among the logs.
                let id = if i < 5 {
                    format!("pkg_{i}")
                } else {
                    format!("pkg_{m}_{i}")
                };
                let package = serde_json::json!({
                    "package_id": id,
                    "created_at": format!("2026-{m:02}-02T00:00:00Z"),
                    "status": "complete",
                    "title": title.join(" "),
                });
                lines +=
                    &serde_json::json!({ "package": package, "version": 1 + i % 2 }).to_string();
                lines.push('\n');
            }
            std::fs::write(&log, &lines).unwrap();
            log
        })
        .collect();
    let cache = relay_store::index::Indexes::at(dir.path().join("cache"));
    let filter = Filter::default();
    let every = |parts: &[Part], terms: usize| {
        let mut all: Vec<(u32, u64, bool, Vec<f32>)> = (parts.iter())
            .flat_map(|p| {
                (p.candidates.iter().zip(p.tf.chunks_exact(terms)))
                    .map(|(c, tf)| (c.file, c.offset, c.superseded, tf.to_vec()))
            })
            .collect();
        all.sort_by_key(|c| (c.0, c.1));
        all
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // A cold cache is built on every thread from the first file on, however short the scan
    // looks, and finds what the warm one does.
    let cold_query = parse("memory leak");
    let cold = scan_all(
        &files,
        Some(&cache),
        &cold_query,
        &filter,
        std::time::Duration::MAX,
        None,
    )
    .unwrap();
    assert_eq!(
        cold.len(),
        cores.min(files.len()),
        "helpers built the cache"
    );
    let cold_found = every(&cold, cold_query.terms.len());
    for query in ["memory leak", r#""memory leak""#, "cache"] {
        let q = parse(query);
        let alone = scan_all(
            &files,
            Some(&cache),
            &q,
            &filter,
            std::time::Duration::MAX,
            None,
        )
        .unwrap();
        assert_eq!(
            alone.len(),
            1,
            "no helper joins a scan that never looks long"
        );
        let helped = scan_all(
            &files,
            Some(&cache),
            &q,
            &filter,
            std::time::Duration::ZERO,
            None,
        )
        .unwrap();
        assert_eq!(helped.len(), cores.min(files.len()), "helpers joined");
        let terms = q.terms.len();
        let one = every(&alone, terms);
        assert!(one.len() > 20, "{query}: {} candidates", one.len());
        assert!(
            one.iter().any(|c| c.2),
            "{query}: some superseded across logs"
        );
        assert_eq!(every(&helped, terms), one, "{query}");
        if query == "memory leak" {
            assert_eq!(cold_found, one, "the cold scan found the same");
        }
    }
}

#[test]
fn a_log_scanned_after_another_with_the_same_scratch_gives_what_it_gives_alone() {
    // The scratch rows one log wrote are undone before the next: a second, smaller log
    // scanned after a bigger one yields the candidates and weights it yields on its own.
    let dir = tempfile::tempdir().unwrap();
    let words = ["memory", "leak", "pool", "cache", "retry"];
    let mut next = crate::search::phrase_filter::tests::draws(5);
    let mut write_log = |name: &str, n: usize| -> std::path::PathBuf {
        let log = dir
            .path()
            .join(format!("projects/p/packages/{name}.ndjson"));
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        let mut lines = String::new();
        for i in 0..n {
            let title: Vec<&str> = (0..4).map(|_| words[next(words.len())]).collect();
            let package = serde_json::json!({
                "package_id": format!("pkg_{name}_{i:04}"),
                "created_at": "2026-01-02T00:00:00Z",
                "status": "complete",
                "title": title.join(" "),
            });
            lines += &serde_json::json!({ "package": package }).to_string();
            lines.push('\n');
        }
        std::fs::write(&log, &lines).unwrap();
        log
    };
    let (big, small) = (write_log("2026-01", 300), write_log("2026-02", 40));
    let cache = relay_store::index::Indexes::at(dir.path().join("cache"));
    let filter = Filter::default();
    for query in ["memory leak", r#""memory leak" pool"#, "cache"] {
        let q = parse(query);
        let phrases = PhraseFilter::of(&q);
        let scan = |part: &mut Part, log: &Path, file: u32| {
            let mut view = cache.query(log, &q.terms).unwrap();
            from_index(&mut view, log, file, &q, &filter, phrases.as_ref(), part).unwrap();
        };
        let (mut both, mut alone) = (Part::default(), Part::default());
        scan(&mut both, &big, 0);
        let first = both.candidates.len();
        scan(&mut both, &small, 1);
        scan(&mut alone, &small, 1);
        let terms = q.terms.len();
        let after: Vec<(u64, &[f32])> = (both.candidates[first..].iter())
            .zip(both.tf[first * terms..].chunks_exact(terms))
            .map(|(c, tf)| (c.offset, tf))
            .collect();
        let own: Vec<(u64, &[f32])> = (alone.candidates.iter())
            .zip(alone.tf.chunks_exact(terms))
            .map(|(c, tf)| (c.offset, tf))
            .collect();
        assert!(!own.is_empty(), "{query}");
        assert_eq!(after, own, "{query}");
    }
}

#[test]
fn the_place_filter_never_turns_away_a_package_holding_the_phrase() {
    // Packages of words drawn at random over several fields, lists among them: the index's
    // places turn documents away unread, and the candidates must still be exactly the
    // packages whose lines hold the phrase.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("projects/p/packages/2026-01.ndjson");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    let words = ["memory", "leaks", "leak", "of", "the", "pool", "a"];
    let mut next = crate::search::phrase_filter::tests::draws(11);
    let mut text = |n: usize| -> String {
        (0..n)
            .map(|_| words[next(words.len())])
            .collect::<Vec<_>>()
            .join(if next(3) == 0 { ", " } else { " " })
    };
    let mut lines = String::new();
    for i in 0..600 {
        let package = serde_json::json!({
            "package_id": format!("pkg_{i:04}"),
            "created_at": "2026-01-02T00:00:00Z",
            "status": "complete",
            "title": text(3),
            "decisions_made": [text(2), text(2)],
            "tags": [text(1), text(1)],
            "description": text(12),
            "content_md": text(30),
        });
        lines += &serde_json::json!({ "package": package }).to_string();
        lines.push('\n');
    }
    std::fs::write(&log, &lines).unwrap();
    let cache = relay_store::index::Indexes::at(dir.path().join("cache"));
    for query in [
        r#""memory leak""#,
        r#""leak memory" pool"#,
        r#""memory of the pool""#,
    ] {
        let q = parse(query);
        let expected: Vec<u64> = (lines.lines())
            .scan(0u64, |at, line| {
                let offset = *at;
                *at += line.len() as u64 + 1;
                Some((offset, line))
            })
            .filter(|(_, line)| {
                let p: LiteLine = serde_json::from_str(line).unwrap();
                let texts: Vec<_> = rank::FIELDS
                    .iter()
                    .map(|(f, _)| p.package.text(f))
                    .collect();
                let fields =
                    (rank::FIELDS.iter().zip(&texts)).map(|(&(f, w), t)| (f, w, t.as_ref()));
                let stats = rank::analyze_texts(fields, &q);
                stats.phrases_ok && stats.tf.iter().any(|&t| t > 0.0)
            })
            .map(|(offset, _)| offset)
            .collect();
        assert!(
            expected.len() >= 10,
            "{query}: only {} hold it",
            expected.len()
        );
        let mut view = cache.query(&log, &q.terms).unwrap();
        let mut part = Part::default();
        let filter = Filter::default();
        let phrases = PhraseFilter::of(&q);
        from_index(&mut view, &log, 0, &q, &filter, phrases.as_ref(), &mut part).unwrap();
        let mut found: Vec<u64> = part.candidates.iter().map(|c| c.offset).collect();
        found.sort_unstable();
        assert_eq!(found, expected, "{query}");
    }
}

#[test]
fn a_draft_is_judged_only_if_it_reaches_the_results_and_scores_do_not_depend_on_the_viewer() {
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with, unindexed};
    use crate::search::filter::Viewer;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (_dir, store) = store_with(&["demo"]);
    // Forty of ana's drafts outrank jo's five packages: more than the first front of a
    // search for three (2 × 3 + 16), so the front must grow to find jo's.
    let put = |id: String, title: &str, who: &str, status: &str| {
        let input = serde_json::json!({"package_id": id, "title": title, "status": status,
            "created_by": {"id": who, "type": "human"}});
        deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
    };
    for i in 0..40 {
        put(format!("pkg_d{i:02}"), "leak leak leak", "ana", "draft");
    }
    for i in 0..5 {
        put(format!("pkg_c{i}"), "a leak in the pool", "jo", "complete");
    }
    let projects = ["demo".to_string()];
    for store in [
        Store::open(store.root().to_path_buf()).unwrap(),
        unindexed(&store),
    ] {
        let asked = std::sync::Arc::new(AtomicUsize::new(0));
        let search = |who: &'static str, query: &str, limit: usize| {
            let asked = asked.clone();
            let filter = Filter {
                viewer: Viewer::deferred(move || {
                    asked.fetch_add(1, Ordering::SeqCst);
                    Some(who.to_string())
                }),
                ..Default::default()
            };
            let found = relevant(&store, &projects, query, &filter, limit).unwrap();
            (found.iter())
                .map(|r| (r.stored.package.id().to_string(), r.score))
                .collect::<Vec<_>>()
        };
        // No draft among the matches: nobody is asked who is looking.
        assert_eq!(search("jo", "pool", 3).len(), 3);
        assert_eq!(asked.load(Ordering::SeqCst), 0, "no draft met");
        let jo = search("jo", "leak", 3);
        assert_eq!(
            asked.load(Ordering::SeqCst),
            1,
            "asked once, when a draft led"
        );
        assert!(jo.iter().all(|(id, _)| id.starts_with("pkg_c")), "{jo:?}");
        assert_eq!(jo.len(), 3);
        let ana = search("ana", "leak", 45);
        assert_eq!(ana.len(), 45);
        assert!(
            ana[..40].iter().all(|(id, _)| id.starts_with("pkg_d")),
            "{ana:?}"
        );
        // The same statistics whoever looks: jo's packages score alike for ana.
        assert_eq!(ana[40..], search("jo", "leak", 5)[..]);
    }
}

#[test]
fn the_pruned_front_is_the_front_of_the_whole_ranking_page_by_page() {
    // Bases, significances and ages drawn at random, with ties: each front `best_after`
    // gives, from the start and after the last of the one before, is that slice of the
    // candidates fully scored and sorted, whatever it passed over unfinished.
    let mut next = crate::search::phrase_filter::tests::draws(41);
    let day = 86_400_000_000i64;
    let candidates: Vec<Candidate> = (0..5000u64)
        .map(|i| Candidate {
            created_micros: 1_800_000_000_000_000 - next(400) as i64 * day,
            significance: 1 + next(10) as i8,
            ..cand(id_key(&format!("pkg_{i}")), 0, i, 1, Status::Complete)
        })
        .collect();
    let bases: Vec<f32> = (0..candidates.len())
        .map(|_| next(300) as f32 / 7.0)
        .collect();
    let now = 1_800_000_000_000_000i64;
    let finish = |base: f32, c: &Candidate| {
        let age = ((now - c.created_micros) / 1_000_000) as f32 / 86_400.0;
        f64::from(base * rank::recency_factor(age))
    };
    let based = || bases.iter().copied().zip(&candidates);
    let mut whole: Vec<(f64, &Candidate)> = based().map(|(b, c)| (finish(b, c), c)).collect();
    whole.sort_by(best_first);
    let key = |v: &[(f64, &Candidate)]| v.iter().map(|(s, c)| (*s, c.id)).collect::<Vec<_>>();
    for n in [1, 7, 22, 300] {
        let (mut after, mut at) = (None, 0);
        while at < whole.len() {
            let front = best_after(based(), &finish, n, after);
            let end = (at + n).min(whole.len());
            assert_eq!(key(&front), key(&whole[at..end]), "n {n} at {at}");
            (after, at) = (front.last().map(|&(s, c)| (s, *c)), end);
            if n == 300 && at > 1500 {
                break;
            }
        }
    }
    assert!(best_after(based(), &finish, 0, None).is_empty());
}

#[test]
fn the_statistics_count_each_package_s_current_version_of_the_status_asked_for() {
    // Kept as the candidates come, and taken back for those settled as superseded: the
    // same as a pass over the survivors of the status asked for would count.
    let mut a = Part::counting(Some(Status::Complete));
    a.keep(cand(1, 0, 0, 1, Status::Complete), &[1.0, 0.0]);
    a.keep(cand(1, 0, 10, 2, Status::Complete), &[2.0, 1.0]);
    a.keep(cand(2, 0, 20, 1, Status::Complete), &[0.0, 3.0]);
    a.keep(cand(4, 0, 30, 1, Status::Draft), &[1.0, 1.0]);
    let mut b = Part::counting(Some(Status::Complete));
    b.keep(cand(2, 1, 0, 2, Status::Complete), &[4.0, 0.0]);
    b.keep(cand(3, 1, 10, 1, Status::Complete), &[5.0, 5.0]);
    let mut parts = vec![a, b];
    settle_duplicates(&mut parts, 2);
    let mut got = Stats::default();
    let mut want = Stats::default();
    for p in &parts {
        got.merge(&p.stats);
        for (c, tf) in p.candidates.iter().zip(p.tf.chunks_exact(2)) {
            if c.counted && !c.superseded {
                want.add(c.len, tf, 1);
            }
        }
    }
    assert_eq!(
        (got.count, got.total_len, &got.df),
        (3, 3.0, &vec![3.0, 2.0])
    );
    assert_eq!(
        (got.count, got.total_len, got.df),
        (want.count, want.total_len, want.df)
    );
}

/// Three months of packages drawn from a few words, with other people's drafts, packages
/// awaiting review, significances, and versions: approvals now (in this month's log) of
/// packages deposited in earlier months, and one package deposited in two months.
fn store_of_versions() -> (tempfile::TempDir, Store) {
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{approve, context, store_with};
    let (_dir, store) = store_with(&["demo"]);
    let words = [
        "memory", "leak", "pool", "timeout", "billing", "cache", "retry",
    ];
    let mut next = crate::search::phrase_filter::tests::draws(7);
    let mut text = |n: usize| -> String {
        (0..n)
            .map(|_| words[next(words.len())])
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut draws = crate::search::phrase_filter::tests::draws(8);
    let mut to_approve = Vec::new();
    for (month, day) in [("01", 5), ("02", 9), ("03", 20)] {
        for i in 0..70 {
            let id = format!("pkg_{month}_{i:02}");
            let (status, who) = match draws(6) {
                0 => ("draft", "ana"),
                1 => ("awaiting_review", "jo"),
                2 => ("draft", "jo"),
                _ => ("complete", "jo"),
            };
            let input = serde_json::json!({"package_id": id, "title": text(3),
                "description": text(8), "decisions_made": [text(2)], "status": status,
                "significance": 1 + draws(10),
                "created_at": format!("2026-{month}-{day:02}T{:02}:00:00Z", i % 24),
                "created_by": {"id": who, "type": "human"}});
            deposit(&store, input.as_object().unwrap().clone(), &context("demo")).unwrap();
            if status == "awaiting_review" && draws(2) == 0 {
                to_approve.push(id);
            }
        }
    }
    assert!(to_approve.len() >= 5, "{to_approve:?}");
    assert_eq!(
        store.package_logs("demo").unwrap().len(),
        3,
        "a log a month"
    );
    for id in &to_approve {
        approve(&store, id);
    }
    // One id in two months' logs (as a merge of two clones may leave it).
    let first = store.package_logs("demo").unwrap()[0].clone();
    let line = std::fs::read_to_string(&first)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let last = store.package_logs("demo").unwrap().last().unwrap().clone();
    let mut tail = std::fs::read_to_string(&last).unwrap();
    tail.push_str(&line);
    tail.push('\n');
    std::fs::write(&last, tail).unwrap();

    (_dir, store)
}

/// The filters the broad and narrow scans are compared under.
fn filters_to_compare() -> Vec<Filter> {
    use crate::search::filter::Viewer;
    let at = |s: &str| Some(time::parse(s).unwrap());
    vec![
        Filter::default(),
        Filter {
            status: Some(Status::Complete),
            ..Default::default()
        },
        Filter {
            status: Some(Status::Draft),
            viewer: Viewer::deferred(|| Some("jo".to_string())),
            ..Default::default()
        },
        Filter {
            since: at("2026-02-01T00:00:00Z"),
            until: at("2026-03-01T00:00:00Z"),
            ..Default::default()
        },
    ]
}

#[test]
fn a_broad_query_ranks_as_a_scan_that_keeps_every_candidate() {
    // Every query, under every filter, ranks alike whether it is scanned broad (from the
    // indexes, nothing kept per candidate) or narrow (every candidate kept), page after page.
    let (_dir, store) = store_of_versions();
    let projects = ["demo".to_string()];
    let filters = filters_to_compare();
    let ranked = |query: &str, filter: &Filter, limit: usize, broad_from: usize| {
        let found = keyword_list_from(&store, &projects, query, filter, limit, broad_from, None)
            .unwrap()
            .0;
        (found.iter())
            .map(|r| (r.stored.package.id().to_string(), r.stored.version, r.score))
            .collect::<Vec<_>>()
    };
    // With `cache/` deleted, a first search builds the indexes as a scan does (a month on
    // each thread, none held); from then on they are mapped, and broad queries are broad.
    std::fs::remove_dir_all(store.indexes().dir()).unwrap();
    let cold = ranked("leak", &Filter::default(), 40, 0);
    assert_eq!(cold, ranked("leak", &Filter::default(), 40, usize::MAX));
    for query in [
        "leak",
        "memory leak",
        "pool timeout billing",
        "retr*",
        "cache",
    ] {
        let q = parse(query);
        for filter in &filters {
            let prepared = filter.prepare(&store, &projects).unwrap();
            let files = store.package_logs("demo").unwrap();
            let cache = store.search_indexes();
            assert!(
                matches!(
                    scan(&files, cache.as_ref(), &q, &prepared, 0, None).unwrap(),
                    Scanned::Broad(_)
                ),
                "{query}: broad"
            );
            for limit in [1, 5, 40, 1000] {
                let narrow = ranked(query, filter, limit, usize::MAX);
                assert_eq!(
                    ranked(query, filter, limit, 0),
                    narrow,
                    "{query} {filter:?} {limit}"
                );
                if limit == 1000 {
                    assert!(narrow.len() >= 10, "{query} {filter:?}: {}", narrow.len());
                }
            }
        }
    }
}

#[test]
fn buckets_kept_between_searches_rank_as_a_scan_that_keeps_every_candidate() {
    // A process that keeps the buckets of ids between its searches ranks as a narrow scan
    // does: at its first search, after its logs grew (by lines of packages met before), and
    // after one was replaced (a checkout), when the buckets start afresh.
    let (_dir, store) = store_of_versions();
    let projects = ["demo".to_string()];
    let filters = filters_to_compare();
    let keeper = Keeper::new();
    let ranked = |query: &str, filter: &Filter, keeper: Option<&Keeper>, broad_from: usize| {
        let found = keyword_list_from(&store, &projects, query, filter, 40, broad_from, keeper)
            .unwrap()
            .0;
        (found.iter())
            .map(|r| (r.stored.package.id().to_string(), r.stored.version, r.score))
            .collect::<Vec<_>>()
    };
    let all_alike = |when: &str| {
        for query in ["leak", "memory leak", "retr*"] {
            for filter in &filters {
                assert_eq!(
                    ranked(query, filter, Some(&keeper), 0),
                    ranked(query, filter, None, usize::MAX),
                    "{when}: {query} {filter:?}"
                );
            }
        }
    };
    let kept = || keeper.kept().unwrap();
    ranked("leak", &Filter::default(), None, 0);
    all_alike("first");
    let (keys, twice) = kept();
    all_alike("again");
    assert_eq!(kept(), (keys, twice), "nothing new, nothing added");

    // Packages of the first month's log appended to the last month's, in place (as a merge
    // of two clones may leave them).
    let logs = store.package_logs("demo").unwrap();
    let read = |log: &PathBuf| std::fs::read_to_string(log).unwrap();
    let copies: String = (read(&logs[0]).lines().skip(1).take(5))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut last = std::fs::OpenOptions::new()
        .append(true)
        .open(logs.last().unwrap())
        .unwrap();
    std::io::Write::write_all(&mut last, copies.as_bytes()).unwrap();
    all_alike("grown");
    let (grown_keys, grown_twice) = kept();
    assert_eq!(grown_keys, keys, "ids met before");
    assert!(
        grown_twice > twice && grown_twice <= twice + 5,
        "{twice} then {grown_twice}"
    );

    // The first month's log replaced, as a checkout may, by one of as many lines whose first
    // is a package of the second month's that holds `leak`: kept as it was, the ids would miss
    // that package's second line.
    let second = read(&logs[1]);
    let other = second.lines().find(|l| l.contains("leak")).unwrap();
    let text = read(&logs[0]);
    let replaced = format!("{other}\n{}", &text[text.find('\n').unwrap() + 1..]);
    let new = logs[0].with_extension("new");
    std::fs::write(&new, replaced).unwrap();
    std::fs::rename(&new, &logs[0]).unwrap();
    all_alike("replaced");
}

#[test]
fn each_document_comes_once_with_its_weight_of_each_term() {
    let mut seen = Vec::new();
    broad::each_doc(
        &[
            vec![(1, 1.0), (4, 2.0), (9, 1.0)],
            vec![(0, 3.0), (4, 5.0)],
            vec![],
        ],
        |doc, tf| seen.push((doc, tf.to_vec())),
    );
    assert_eq!(
        seen,
        vec![
            (0, vec![0.0, 3.0, 0.0]),
            (1, vec![1.0, 0.0, 0.0]),
            (4, vec![2.0, 5.0, 0.0]),
            (9, vec![1.0, 0.0, 0.0]),
        ]
    );
    // A document listed twice in one list comes once, with the later weight.
    seen.clear();
    broad::each_doc(&[vec![(2, 1.0), (2, 4.0), (3, 1.0)]], |doc, tf| {
        seen.push((doc, tf.to_vec()))
    });
    assert_eq!(seen, vec![(2, vec![4.0]), (3, vec![1.0])]);
    seen.clear();
    broad::each_doc(&[vec![(2, 1.0), (2, 4.0)], vec![(2, 7.0)]], |doc, tf| {
        seen.push((doc, tf.to_vec()))
    });
    assert_eq!(seen, vec![(2, vec![4.0, 7.0])]);
}

#[test]
fn shared_buckets_found_apart_and_merged_are_those_found_at_once() {
    use candidates::FindShared;
    let keys: Vec<u64> = (0..5000u64)
        .map(|i| id_key(&format!("pkg_{}", i % 4100)))
        .collect();
    let mut whole = FindShared::for_keys(keys.len());
    keys.iter().for_each(|&k| whole.add(k));
    let (mut a, mut b) = (
        FindShared::for_keys(keys.len()),
        FindShared::for_keys(keys.len()),
    );
    for (i, &k) in keys.iter().enumerate() {
        if i % 3 == 0 { a.add(k) } else { b.add(k) }
    }
    a.merge(&b);
    let (whole, merged) = (whole.found(), a.found());
    assert!(keys.iter().all(|&k| whole.holds(k) == merged.holds(k)));
    // Each of the 900 ids met twice is held; most of the rest are not.
    assert!((0..900).all(|i| merged.holds(id_key(&format!("pkg_{i}")))));
    let lone = (900..4100)
        .filter(|i| merged.holds(id_key(&format!("pkg_{i}"))))
        .count();
    assert!(lone < 600, "{lone}");
}

#[test]
fn a_search_beside_another_in_the_process_scans_on_one_thread() {
    assert_eq!(threads_for(2, 1), 2);
    assert_eq!(threads_for(8, 1), 8);
    assert_eq!(threads_for(2, 2), 1);
    assert_eq!(threads_for(8, 5), 1);
    assert_eq!(threads_for(0, 0), 1);
}
