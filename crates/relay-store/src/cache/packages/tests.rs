//! The package index's tests: building, extending, rebuilding and reading a month's index.

use super::*;
use std::io::Write;

/// The path of a month's log in a store rooted at `root`, its folder made.
fn month_log(root: &Path) -> PathBuf {
    let log = root.join("projects/p/packages/2026-01.ndjson");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    log
}

fn line(id: &str, title: &str) -> String {
    format!(
        "{{\"package\":{{\"package_id\":\"{id}\",\"title\":\"{title}\",\"status\":\"complete\",\"created_at\":\"2026-01-01T00:00:00Z\"}},\"hash\":\"sha256:00000000000000ff\"}}\n"
    )
}

#[test]
fn builds_saves_extends_and_rebuilds() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    std::fs::write(
        &log,
        line("a", "Leaking pool") + &line("b", "Cache settings"),
    )
    .unwrap();
    let cache = dir.path().join("cache");
    let idx = load_or_build(&cache, &log).unwrap();
    assert_eq!(idx.docs.len(), 2);
    assert_eq!(idx.postings("leak"), &[(0, 3.0)]);
    assert_eq!(idx.docs[1].hash_prefix, 0xff);
    assert!(index_path(&cache, &log).exists());
    // Read back from the cache, identical.
    let again = load_or_build(&cache, &log).unwrap();
    assert_eq!(again.docs, idx.docs);
    assert_eq!(again.postings("set"), idx.postings("set"));
    // The log grows (with a torn tail): only complete lines join.
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all((line("c", "leak again") + "{\"torn").as_bytes())
        .unwrap();
    let grown = load_or_build(&cache, &log).unwrap();
    assert_eq!(grown.docs.len(), 3);
    assert_eq!(grown.postings("leak").len(), 2);
    // Read from its file and extended, it holds what a build of the whole log holds.
    let mut fresh = MonthIndex::default();
    fresh.add_from(&log, 0, None).unwrap();
    for stem in ["leak", "pool", "again", "set", "cach"] {
        assert_eq!(grown.postings(stem), fresh.postings(stem), "{stem}");
        assert_eq!(grown.places(stem), fresh.places(stem), "{stem}");
    }
    // Rewritten under the index (a checkout): rebuilt from scratch.
    std::fs::write(&log, line("z", "Something else entirely")).unwrap();
    let rebuilt = load_or_build(&cache, &log).unwrap();
    assert_eq!(rebuilt.docs.len(), 1);
    assert!(rebuilt.postings("leak").is_empty());
    // A query reads only what it needs, and agrees with the full index.
    let view = query(&cache, &log, &["someth".to_string(), "nothing".to_string()]).unwrap();
    assert_eq!(view.doc_count(), 1);
    assert_eq!(view.postings, vec![vec![(0, 3.0)], vec![]]);
    assert_eq!(view.doc_id(0), Some("z"));
    assert_eq!(view.doc_key(0), Some(crate::cache::id_key("z")));
    assert_eq!(view.doc(0).unwrap().offset, 0);
    // A damaged index file is rebuilt, never trusted.
    std::fs::write(index_path(&cache, &log), b"{\"format\":1}\ngarbage").unwrap();
    assert_eq!(load_or_build(&cache, &log).unwrap().docs.len(), 1);
}

#[test]
fn a_view_s_origin_is_extended_by_a_log_that_grew_and_not_by_one_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    let cache = dir.path().join("cache");
    let stems = ["pool".to_string()];
    std::fs::write(&log, line("a", "Leaking pool") + &line("b", "Cache pool")).unwrap();
    load_or_build(&cache, &log).unwrap();
    let first = query(&cache, &log, &stems).unwrap();
    let origin = |v: &QueryView| v.origin().unwrap().clone();
    assert_eq!(first.doc_count(), 2);
    // Grown in place: the first view's documents are the first of this one's.
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all(line("c", "Pool settings").as_bytes()).unwrap();
    let grown = query(&cache, &log, &stems).unwrap();
    assert_eq!(grown.doc_count(), 3);
    assert!(origin(&grown).extends(&origin(&first), &log));
    // Replaced by one as long whose first line differs (a checkout): not extended.
    let replaced =
        line("z", "Leaking pool") + &line("b", "Cache pool") + &line("c", "Pool settings");
    let new = dir.path().join("new.ndjson");
    std::fs::write(&new, replaced).unwrap();
    std::fs::rename(&new, &log).unwrap();
    let after = query(&cache, &log, &stems).unwrap();
    assert!(!origin(&after).extends(&origin(&grown), &log));
    assert!(!origin(&after).extends(&origin(&first), &log));
}

#[test]
fn check_finds_an_index_sound_grown_or_not_and_any_changed_byte_stale() {
    use super::super::Check;
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    let cache = dir.path().join("cache");
    assert!(matches!(check(&cache, &log).unwrap(), Check::Absent));
    std::fs::write(&log, line("a", "Leaking pool") + &line("b", "Cache pool")).unwrap();
    load_or_build(&cache, &log).unwrap();
    assert!(matches!(check(&cache, &log).unwrap(), Check::Sound));
    // Grown and folded in incrementally: the same bytes a fresh build writes.
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all(line("c", "Pool settings").repeat(2000).as_bytes())
        .unwrap();
    load_or_build(&cache, &log).unwrap();
    assert!(matches!(check(&cache, &log).unwrap(), Check::Sound));
    let path = index_path(&cache, &log);
    let good = std::fs::read(&path).unwrap();
    let body = good.iter().position(|&b| b == b'\n').unwrap() + 1;
    let mut flipped = good.clone();
    flipped[body + 40] ^= 1;
    let mut cut = good.clone();
    cut.pop();
    let mut longer = good.clone();
    longer.push(0);
    for (what, bytes) in [
        ("a flipped byte", flipped),
        ("cut short", cut),
        ("a byte more", longer),
    ] {
        std::fs::write(&path, &bytes).unwrap();
        assert!(
            matches!(check(&cache, &log).unwrap(), Check::Stale(_)),
            "{what}"
        );
    }
    std::fs::write(&path, b"not a header\n").unwrap();
    assert!(matches!(check(&cache, &log).unwrap(), Check::Stale(_)));
}

#[test]
fn check_finds_every_byte_of_the_body_changed() {
    // verify reads the tables in document order against a fresh build and the postings
    // against a digest of it: a change anywhere, each bit of each byte, is found.
    use super::super::Check;
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    let text = line("a", "Leaking pool leaking") + &line("b", "Cache pool") + &line("c", "A leak");
    std::fs::write(&log, text).unwrap();
    let cache = dir.path().join("cache");
    load_or_build(&cache, &log).unwrap();
    assert!(matches!(check(&cache, &log).unwrap(), Check::Sound));
    let path = index_path(&cache, &log);
    let good = std::fs::read(&path).unwrap();
    let body = good.iter().position(|&b| b == b'\n').unwrap() + 1;
    for at in body..good.len() {
        for bit in 0..8 {
            let mut changed = good.clone();
            changed[at] ^= 1 << bit;
            std::fs::write(&path, &changed).unwrap();
            assert!(
                matches!(check(&cache, &log).unwrap(), Check::Stale(_)),
                "bit {bit} of byte {} of {} changed",
                at - body,
                good.len() - body
            );
        }
    }
    std::fs::write(&path, &good).unwrap();
    assert!(matches!(check(&cache, &log).unwrap(), Check::Sound));
}

#[test]
fn check_finds_a_posting_moved_to_another_stem() {
    // Two stems of one posting each, their documents swapped: every count, offset and order
    // still holds, and only the postings' digest (which mixes in each posting's stem) differs.
    use super::super::Check;
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    std::fs::write(&log, line("a", "alpha") + &line("b", "beta")).unwrap();
    let cache = dir.path().join("cache");
    load_or_build(&cache, &log).unwrap();
    assert!(matches!(check(&cache, &log).unwrap(), Check::Sound));
    let path = index_path(&cache, &log);
    let mut bytes = std::fs::read(&path).unwrap();
    // The body ends with two postings, two rank entries and two id-table entries.
    let postings = bytes.len() - 2 * 12 - 2 * file::RANK_BYTES - 2 * 8;
    let (alpha, beta) = bytes[postings..postings + 16].split_at_mut(8);
    assert_eq!(
        (alpha[0], beta[0]),
        (0, 1),
        "alpha in document 0, beta in 1"
    );
    alpha.swap_with_slice(beta);
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(check(&cache, &log).unwrap(), Check::Stale(_)));
}

#[test]
fn an_index_file_naming_a_stem_twice_is_not_read_and_is_built_again() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    std::fs::write(&log, line("a", "leak") + &line("b", "pool")).unwrap();
    let cache = dir.path().join("cache");
    load_or_build(&cache, &log).unwrap();
    let path = index_path(&cache, &log);
    let mut bytes = std::fs::read(&path).unwrap();
    let at = (bytes.windows(8).position(|w| w == b"leakpool")).expect("the stems, end to end");
    bytes[at + 4..at + 8].copy_from_slice(b"leak");
    std::fs::write(&path, &bytes).unwrap();
    assert!(file::read(&path).unwrap().is_none(), "one stem, two lists");
    let rebuilt = load_or_build(&cache, &log).unwrap();
    assert_eq!(rebuilt.postings("leak"), [(0, 3.0)]);
    assert_eq!(rebuilt.postings("pool"), [(1, 3.0)]);
}

#[test]
fn an_index_file_whose_postings_are_out_of_order_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    std::fs::write(&log, line("a", "leak") + &line("b", "leak")).unwrap();
    let cache = dir.path().join("cache");
    load_or_build(&cache, &log).unwrap();
    let path = index_path(&cache, &log);
    let mut bytes = std::fs::read(&path).unwrap();
    // As in `check_finds_a_posting_moved_to_another_stem`: the body ends with two postings,
    // here one stem's (documents 0 and 1),
    // two rank entries and two id-table entries.
    let postings = bytes.len() - 2 * 12 - 2 * file::RANK_BYTES - 2 * 8;
    let (first, second) = bytes[postings..postings + 16].split_at_mut(8);
    assert_eq!((first[0], second[0]), (0, 1));
    first.swap_with_slice(second);
    std::fs::write(&path, &bytes).unwrap();
    assert!(file::read(&path).unwrap().is_none(), "documents 1, 0");
    assert_eq!(
        load_or_build(&cache, &log).unwrap().postings("leak"),
        [(0, 3.0), (1, 3.0)]
    );
}

#[test]
fn a_word_too_long_for_the_dictionary_is_left_out_of_the_index() {
    use super::super::Check;
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    let long = "f".repeat(file::MAX_STEM_BYTES + 1);
    std::fs::write(&log, line("a", &format!("Leaking {long} pool"))).unwrap();
    let cache = dir.path().join("cache");
    let built = load_or_build(&cache, &log).unwrap();
    assert_eq!(built.postings("leak").len(), 1);
    assert_eq!(built.postings("pool").len(), 1);
    assert!(built.postings(&long).is_empty());
    // Counted in the line's length all the same, as a search that reads the line counts it.
    assert_eq!(built.docs[0].len, 9.0);
    // The two words beside it are not neighbours of each other.
    assert_eq!(built.places("pool"), [0]);
    assert!(matches!(check(&cache, &log).unwrap(), Check::Sound));
    let (_, read) = file::read(&index_path(&cache, &log)).unwrap().unwrap();
    assert_eq!(read.postings("pool"), built.postings("pool"));
}

#[test]
fn a_mapped_query_agrees_with_the_index_and_a_file_cut_short_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    let lines: String = (0..50)
        .map(|i| {
            line(
                &format!("id{i:02}"),
                if i % 7 == 0 { "Rare word" } else { "Common" },
            )
        })
        .collect();
    std::fs::write(&log, lines).unwrap();
    let cache = dir.path().join("cache");
    let built = load_or_build(&cache, &log).unwrap();
    let stems = ["Rare", "Common", "absent"].map(|w| terms::stem(&w.to_lowercase()));
    let view = query(&cache, &log, &stems).unwrap();
    assert!(view.doc_bytes.is_mapped(), "read from the file");
    assert_eq!(view.doc_count(), 50);
    assert_eq!(view.postings[0], built.postings(&stems[0]));
    assert_eq!(view.postings[0].len(), 8);
    assert_eq!(view.postings[1], built.postings(&stems[1]));
    assert!(view.postings[2].is_empty());
    assert_eq!(view.places[0], built.places(&stems[0]));
    assert_eq!(
        view.places[0],
        [terms::followed_by(terms::neighbour_bit("word"))].repeat(8),
        "\"Rare\" is word 0, before \"word\""
    );
    assert_eq!(view.places[1].len(), view.postings[1].len());
    for (i, d) in built.docs.iter().enumerate() {
        assert_eq!(view.doc_id(i as u32), Some(d.id.as_str()));
        assert_eq!(view.doc(i as u32).unwrap().offset, d.offset);
    }
    // Every cut of the file is read as damaged (the query rebuilds), never out of bounds.
    let path = index_path(&cache, &log);
    let whole = std::fs::read(&path).unwrap();
    let state = LogState::observe(&cache, &log).unwrap();
    let header_end = whole.iter().position(|&b| b == b'\n').unwrap() + 1;
    for cut in (header_end..whole.len()).step_by(97) {
        std::fs::write(&path, &whole[..cut]).unwrap();
        assert!(
            read_partial(&path, &log, &state, &stems).unwrap().is_none(),
            "cut at {cut}"
        );
    }
    assert_eq!(query(&cache, &log, &stems).unwrap().postings[0].len(), 8);
}

#[test]
fn the_records_of_a_few_documents_read_ahead_are_those_of_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    // 3,000 documents (35 pages of records), one in 300 holding the rare word.
    let lines: String = (0..3000)
        .map(|i| {
            let title = if i % 300 == 7 { "Rare word" } else { "Common" };
            line(&format!("id{i:04}"), title)
        })
        .collect();
    std::fs::write(&log, &lines).unwrap();
    // A tail after the index, in memory: its records are never read ahead.
    let cache = dir.path().join("cache");
    load_or_build(&cache, &log).unwrap();
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all(line("id3000", "Rare again").as_bytes())
        .unwrap();
    let stems = [terms::stem("rare")];
    let mapped = query(&cache, &log, &stems).unwrap();
    let mut ahead = query(&cache, &log, &stems).unwrap();
    let docs: Vec<u32> = ahead.postings[0].iter().map(|&(d, _)| d).collect();
    assert_eq!(docs.len(), 11);
    assert_eq!(docs.last(), Some(&3000), "the tail's document");
    ahead.read_ahead_docs(&docs);
    assert_eq!(
        ahead.doc_bytes.pieces.len(),
        10,
        "one read per indexed document"
    );
    for &d in &docs {
        for i in [d, d + 1] {
            assert_eq!(ahead.doc(i), mapped.doc(i), "doc {i}");
            assert_eq!(ahead.doc_key(i), mapped.doc_key(i));
            assert_eq!(ahead.doc_id(i), mapped.doc_id(i));
        }
        assert!(
            ahead
                .doc_bytes
                .read_piece(&(d as usize * DOC_BYTES..(d as usize + 1) * DOC_BYTES))
                .is_some()
                || d == 3000
        );
    }
    assert_eq!(ahead.doc(3000).unwrap().id, "");
    assert_eq!(ahead.doc_id(3000), Some("id3000"));
    // Records not read ahead still come from the map.
    assert_eq!(ahead.doc(100), mapped.doc(100));
    // A document in every other page is too many: left to the map.
    let many: Vec<u32> = (0..3000).step_by(150).collect();
    let mut left = query(&cache, &log, &stems).unwrap();
    left.read_ahead_docs(&many);
    assert!(left.doc_bytes.pieces.is_empty());
}

#[test]
fn a_log_a_few_lines_past_its_index_is_read_from_the_file_and_the_tail_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    let word = |i: usize| {
        if i.is_multiple_of(5) {
            "Rare word"
        } else {
            "Common"
        }
    };
    let lines = |r: std::ops::Range<usize>| -> String {
        r.map(|i| line(&format!("id{i:02}"), word(i))).collect()
    };
    std::fs::write(&log, lines(0..40)).unwrap();
    let cache = dir.path().join("cache");
    load_or_build(&cache, &log).unwrap();
    let saved = std::fs::read(index_path(&cache, &log)).unwrap();
    // A deposit's worth of lines after the index: used as it is, the tail added in memory.
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all(lines(40..46).as_bytes()).unwrap();
    let stems = ["Rare", "Common"].map(|w| terms::stem(&w.to_lowercase()));
    let view = query(&cache, &log, &stems).unwrap();
    assert_eq!(std::fs::read(index_path(&cache, &log)).unwrap(), saved);
    assert!(view.doc_bytes.is_mapped() && view.ids.is_mapped());
    let whole = load_or_build(&dir.path().join("fresh"), &log).unwrap();
    assert_eq!(view.doc_count(), 46);
    assert_eq!(view.postings[0], whole.postings(&stems[0]));
    assert_eq!(view.postings[1], whole.postings(&stems[1]));
    for (i, d) in whole.docs.iter().enumerate() {
        let i = i as u32;
        assert_eq!(view.doc_id(i), Some(d.id.as_str()));
        assert_eq!(view.doc_key(i), Some(crate::cache::id_key(&d.id)));
        assert_eq!(view.doc(i).unwrap().offset, d.offset);
    }
    assert!(view.doc(46).is_none() && view.doc_id(46).is_none());
}

#[test]
fn places_name_the_stems_beside_each_across_fields_and_survive_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    // One run of words, field after field: the title, the decisions (one list), then the
    // description.
    let package = serde_json::json!({"package": {"package_id": "a", "created_at":
        "2026-01-01T00:00:00Z", "title": "Memory leak", "decisions_made": ["fix it",
        "memory pool"], "description": "leak x memory leak"}});
    std::fs::write(&log, format!("{package}\n")).unwrap();
    let cache = dir.path().join("cache");
    let built = load_or_build(&cache, &log).unwrap();
    let after = |ws: &[&str]| {
        (ws.iter()).fold(0, |set, w| {
            set | terms::followed_by(terms::neighbour_bit(w))
        })
    };
    let before = |ws: &[&str]| {
        (ws.iter()).fold(0, |set, w| {
            set | terms::preceded_by(terms::neighbour_bit(w))
        })
    };
    // The run: memory leak fix it memory pool leak x memory leak. memory: followed by leak
    // and pool, preceded by it and x.
    assert_eq!(
        built.places("memory"),
        [after(&["leak", "pool"]) | before(&["it", "x"])]
    );
    // leak: followed by fix and x (and by nothing, last), preceded by memory and pool.
    assert_eq!(
        built.places("leak"),
        [after(&["fix", "x"]) | before(&["memory", "pool"])]
    );
    let stems = ["memory".to_string(), "leak".to_string(), "x*".to_string()];
    let view = query(&cache, &log, &stems).unwrap();
    assert_eq!(
        view.places[..2],
        [built.places("memory"), built.places("leak")]
    );
    assert_eq!(
        view.places[2],
        [terms::ANY_PLACE],
        "a prefix term's may be anywhere"
    );
    // The weighted count is stored whole: the field weights are whole numbers.
    assert!(terms::FIELDS.iter().all(|&(_, w)| w.fract() == 0.0));
    assert_eq!(view.postings[0], [(0, 3.0 + 2.0 + 1.0)]);
}

#[test]
fn a_new_index_removes_the_folders_of_older_formats() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    std::fs::write(&log, line("pkg_a", "A title")).unwrap();
    let cache = dir.path().join("cache");
    let old = cache.join(format!("search-v{}/p", PACKAGES.format - 1));
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join("2026-01.idx"), "an older format").unwrap();
    let other = cache.join("facts-v1");
    std::fs::create_dir_all(&other).unwrap();
    load_or_build(&cache, &log).unwrap();
    assert!(index_path(&cache, &log).is_file());
    assert!(
        !old.parent().unwrap().exists(),
        "the older format's folder is gone"
    );
    assert!(other.is_dir(), "another index's folder stays");
}

#[test]
fn an_index_file_two_writes_mixed_never_hides_a_package_from_a_lookup_by_id() {
    // What two threads writing one temporary file left: an older index's bytes over a
    // newer one's, with the newer one's tail (its id table's last entries) after them.
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    let lines: Vec<String> = (0..20)
        .map(|i| line(&format!("pkg_{i:02}"), "A title"))
        .collect();
    let cache = dir.path().join("cache");
    std::fs::write(&log, lines[..10].concat()).unwrap();
    load_or_build(&cache, &log).unwrap();
    let older = std::fs::read(index_path(&cache, &log)).unwrap();
    std::fs::write(&log, lines.concat()).unwrap();
    std::fs::remove_file(index_path(&cache, &log)).unwrap();
    load_or_build(&cache, &log).unwrap();
    let newer = std::fs::read(index_path(&cache, &log)).unwrap();
    assert!(older.len() < newer.len());
    let mixed = [&older[..], &newer[older.len()..]].concat();
    let mut at = 0u64;
    for (i, l) in lines.iter().enumerate() {
        std::fs::write(index_path(&cache, &log), &mixed).unwrap();
        let id = format!("pkg_{i:02}");
        assert_eq!(find_id(&cache, &log, &id).unwrap(), Some(vec![at]), "{id}");
        at += l.len() as u64;
    }
}

/// The bytes of the log the saved index of `log` covers.
fn saved_coverage(cache: &Path, log: &Path) -> u64 {
    let (header, _) = read(&index_path(cache, log)).unwrap().unwrap();
    header.coverage.covered
}

#[test]
fn reads_catch_the_index_up_with_a_log_that_grows_in_pieces() {
    // What ten imports of one corpus in chunks do to a month: each adds far less than a
    // month, yet together they are most of it.
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    std::fs::write(&log, line("a0", "First chunk")).unwrap();
    let cache = dir.path().join("cache");
    let stems = ["chunk".to_string()];
    assert_eq!(query(&cache, &log, &stems).unwrap().doc_count(), 1);
    let mut docs = 1;
    for chunk in 1..10 {
        let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        let mut bytes = String::new();
        while bytes.len() as u64 <= PACKAGES.tail_limit {
            bytes += &line(&format!("c{chunk}-{docs}"), "Another chunk");
            docs += 1;
        }
        f.write_all(bytes.as_bytes()).unwrap();
        drop(f);
        let view = query(&cache, &log, &stems).unwrap();
        assert_eq!((view.doc_count(), view.postings[0].len()), (docs, docs));
        // The read saved what it indexed: the index covers the whole log again.
        let len = std::fs::metadata(&log).unwrap().len();
        assert_eq!(saved_coverage(&cache, &log), len, "after chunk {chunk}");
        assert!(is_warm(&cache, &log));
    }
    // One deposit more is read in memory, and the index file is left as it is.
    let covered = saved_coverage(&cache, &log);
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all(line("last", "One more chunk").as_bytes())
        .unwrap();
    assert_eq!(query(&cache, &log, &stems).unwrap().doc_count(), docs + 1);
    assert_eq!(saved_coverage(&cache, &log), covered);
}

#[test]
fn an_id_past_the_index_is_found_by_its_bytes_and_the_index_is_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    std::fs::write(&log, line("pkg_a", "First")).unwrap();
    let cache = dir.path().join("cache");
    load_or_build(&cache, &log).unwrap();
    let covered = saved_coverage(&cache, &log);
    // Past the index by more than a read indexes itself, but within an id lookup's reach.
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let mut at = covered;
    let mut wanted = Vec::new();
    while at - covered <= PACKAGES.tail_limit {
        let id = if wanted.len() < 2 && at - covered > 1000 {
            "pkg_b"
        } else {
            "pkg_c"
        };
        let l = line(id, "Later");
        if id == "pkg_b" {
            wanted.push(at);
        }
        f.write_all(l.as_bytes()).unwrap();
        at += l.len() as u64;
    }
    // Another writer's spelling of an id (an escape), and a line with an escape whose id
    // is another: only the first may be the id's.
    let escaped = line(r"pkg_\u0065sc", "Escaped");
    let other = line(r"pkg_\u0066sc", "Other");
    f.write_all(format!("{escaped}{other}").as_bytes()).unwrap();
    // A torn last line is no line.
    f.write_all(br#"{"package":{"package_id":"pkg_b""#).unwrap();
    drop(f);
    assert_eq!(
        find_id_indexed(&cache, &log, "pkg_esc").unwrap(),
        Some(vec![at])
    );
    assert_eq!(
        find_id_indexed(&cache, &log, "pkg_b").unwrap(),
        Some(wanted)
    );
    assert_eq!(
        find_id_indexed(&cache, &log, "pkg_a").unwrap(),
        Some(vec![0])
    );
    assert_eq!(
        find_id_indexed(&cache, &log, "pkg_z").unwrap(),
        Some(vec![])
    );
    assert_eq!(saved_coverage(&cache, &log), covered, "nothing was rebuilt");
}

#[test]
fn a_process_that_rebuilds_behind_its_reads_answers_from_the_tail_then_catches_up() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    std::fs::write(&log, line("a0", "First chunk")).unwrap();
    let cache = dir.path().join("cache");
    rebuild_behind_reads(&cache);
    let stems = ["chunk".to_string()];
    assert_eq!(query(&cache, &log, &stems).unwrap().doc_count(), 1);
    let mut bytes = String::new();
    let mut docs = 1;
    while bytes.len() as u64 <= PACKAGES.tail_limit {
        bytes += &line(&format!("c{docs}"), "Another chunk");
        docs += 1;
    }
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all(bytes.as_bytes()).unwrap();
    drop(f);
    // Every document is in the answer, whether or not the rebuild is done yet.
    let view = query(&cache, &log, &stems).unwrap();
    assert_eq!((view.doc_count(), view.postings[0].len()), (docs, docs));
    wait_for_rebuilds();
    let len = std::fs::metadata(&log).unwrap().len();
    assert_eq!(saved_coverage(&cache, &log), len);
    assert!(is_warm(&cache, &log));
}

#[test]
fn an_id_lookup_finds_every_line_of_an_id_in_a_long_table() {
    // Thousands of ids, one of them on 700 lines (more than one read of the table holds).
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    let (mut text, mut many) = (String::new(), Vec::new());
    for i in 0..3000 {
        let id = if i % 4 == 1 && many.len() < 700 {
            "pkg_many".to_string()
        } else {
            format!("pkg_{i}")
        };
        if id == "pkg_many" {
            many.push(text.len() as u64);
        }
        text += &line(&id, "A title");
    }
    std::fs::write(&log, &text).unwrap();
    let cache = dir.path().join("cache");
    load_or_build(&cache, &log).unwrap();
    let mut found = find_id_indexed(&cache, &log, "pkg_many").unwrap().unwrap();
    found.sort_unstable();
    assert_eq!(found, many);
    for i in [0, 2, 999, 2998, 2999] {
        let id = format!("pkg_{i}");
        let at = text.find(&format!("\"{id}\"")).unwrap() as u64;
        let start = text[..at as usize].rfind('\n').map_or(0, |n| n as u64 + 1);
        assert_eq!(
            find_id_indexed(&cache, &log, &id).unwrap(),
            Some(vec![start]),
            "{id}"
        );
    }
    assert_eq!(
        find_id_indexed(&cache, &log, "pkg_none").unwrap(),
        Some(vec![])
    );
}

#[test]
fn a_count_past_what_a_posting_holds_saturates_alike_in_memory_and_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = month_log(dir.path());
    // "leak" 70,000 times in the description (weight 1) and once in the title (weight 3).
    let description = "leak ".repeat(70_000);
    let package = serde_json::json!({"package": {"package_id": "a", "created_at":
        "2026-01-01T00:00:00Z", "title": "leak pool", "description": description}});
    std::fs::write(&log, format!("{package}\n{}", line("b", "pool leak"))).unwrap();
    let cache = dir.path().join("cache");
    let built = load_or_build(&cache, &log).unwrap();
    assert_eq!(built.postings("leak"), [(0, 65_535.0), (1, 3.0)]);
    assert_eq!(built.postings("pool"), [(0, 3.0), (1, 3.0)]);
    let read = load_or_build(&cache, &log).unwrap();
    assert_eq!(read.postings("leak"), built.postings("leak"));
    assert_eq!(read.places("leak"), built.places("leak"));
    let view = query(&cache, &log, &["leak".to_string(), "pool*".to_string()]).unwrap();
    assert_eq!(view.postings[0], built.postings("leak"));
    assert_eq!(view.postings[1], built.term_postings("pool*"));
}
