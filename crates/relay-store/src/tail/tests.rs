//! The tail's tests: lines handed over once, saved keys, and logs rewritten under a reader,
//! before, during and just before a read.

use super::*;
use std::io::Write;

/// What a test does at a moment of a read, and at which.
type Act = Option<(Moment, Box<dyn FnMut()>)>;

thread_local! {
    static ACT: std::cell::RefCell<Act> = const { std::cell::RefCell::new(None) };
}

/// Does, once, what this test asked for at `m` ([`at_moment`]).
pub(super) fn act_at(m: Moment) {
    let act = ACT.with(|a| {
        let mut a = a.borrow_mut();
        match a.as_ref() {
            Some((at, _)) if *at == m => a.take(),
            _ => None,
        }
    });
    if let Some((_, mut act)) = act {
        act();
    }
}

/// Has the tail run `act` the next time a read reaches `m`, on this test's thread.
fn at_moment(m: Moment, act: impl FnMut() + 'static) {
    ACT.with(|a| *a.borrow_mut() = Some((m, Box::new(act))));
}

fn log(dir: &Path) -> WatchedLog {
    WatchedLog {
        kind: LogKind::Facts,
        project_id: Some("p".into()),
        path: dir.join("facts.ndjson"),
        name: "projects/p/facts.ndjson".into(),
        queued: false,
    }
}

fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

/// Makes the log look settled: last changed before [`SETTLE`] (an hour in these tests, so
/// that a log they just wrote never looks settled, however slow the machine).
fn settle(path: &Path) {
    let f = std::fs::File::options().append(true).open(path).unwrap();
    f.set_modified(SystemTime::now() - 2 * SETTLE).unwrap();
}

fn drain(tail: &mut LogTail) -> (Vec<String>, Vec<Rewrite>) {
    let mut lines = Vec::new();
    let mut rewrites = Vec::new();
    tail.advance(&mut |change| {
        match change {
            Change::Rewrite(why) => rewrites.push(why),
            Change::Line(_, line) => lines.push(String::from_utf8(line.to_vec()).unwrap()),
        }
        Ok(true)
    })
    .unwrap();
    // Stamps have coarse times on some file systems: forget the stamp, as a later write
    // within the same tick would.
    tail.stamp = None;
    (lines, rewrites)
}

#[test]
fn a_tail_hands_over_new_whole_lines_once() {
    let dir = tempfile::tempdir().unwrap();
    let l = log(dir.path());
    append(&l.path, "{\"a\":1}\n");
    let mut tail = LogTail::open(l.clone(), Start::End).unwrap();
    assert_eq!(drain(&mut tail), (vec![], vec![]));
    append(&l.path, "{\"b\":2}\n{\"c\":3");
    assert_eq!(drain(&mut tail).0, vec!["{\"b\":2}"]);
    append(&l.path, "}\n{\"b\":2}\n");
    // The torn line is whole now; the exact duplicate counts once.
    assert_eq!(drain(&mut tail).0, vec!["{\"c\":3}"]);
    let at = tail.position();
    assert_eq!(at.offset, std::fs::metadata(&l.path).unwrap().len());

    // Resuming from the position gives what came after it, nothing before.
    append(&l.path, "{\"d\":4}\n");
    let mut again = LogTail::open(l.clone(), Start::At(at)).unwrap();
    assert_eq!(drain(&mut again), (vec!["{\"d\":4}".to_string()], vec![]));
    let mut all = LogTail::open(l, Start::Beginning).unwrap();
    assert_eq!(drain(&mut all).0.len(), 4);
}

#[test]
fn a_tail_starts_from_saved_keys_and_reads_only_what_came_after() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let l = log(dir.path());
    append(&l.path, "{\"a\":1}\n");
    let after_a = end_position(&l.path).unwrap();
    append(&l.path, "{\"b\":2}\n");
    let open = |start| LogTail::open_saving(l.clone(), start, Some(&cache)).unwrap();
    // The first watch reads the log and saves its keys.
    let first = open(Start::End);
    assert!(first.seen.is_empty());
    assert_eq!(first.saved.as_ref().unwrap().keys.len(), 2);
    assert!(seen_lines::file_path(&cache, &l.path).is_file());

    // The next reads only what came after them, and gives what comes after its start.
    append(&l.path, "{\"c\":3}\n");
    let mut next = open(Start::End);
    assert_eq!(next.saved.as_ref().unwrap().keys.len(), 2);
    assert_eq!(next.seen.len(), 1);
    assert_eq!(next.position(), end_position(&l.path).unwrap());
    append(&l.path, "{\"d\":4}\n{\"a\":1}\n");
    // A line seen before the start (here a repeat of the first) counts once, as ever.
    assert_eq!(drain(&mut next), (vec!["{\"d\":4}".to_string()], vec![]));

    // A cursor before the saved keys' end cannot use them: the log is read to it.
    let mut from_cursor = open(Start::At(after_a));
    assert!(from_cursor.saved.is_none());
    assert_eq!(from_cursor.seen.len(), 1);
    assert_eq!(
        drain(&mut from_cursor).0,
        vec!["{\"b\":2}", "{\"c\":3}", "{\"d\":4}"]
    );
    // One at or after it starts from them.
    let from_end = open(Start::At(next.position()));
    assert!(from_end.saved.is_some());

    // A log rewritten under the saved keys is read whole, and its keys saved anew.
    std::fs::write(&l.path, "{\"a\":1}\n{\"x\":9}\n").unwrap();
    let mut rewritten = open(Start::End);
    assert_eq!(rewritten.saved.as_ref().unwrap().keys.len(), 2);
    // Back to a log with a line this watch never saw: it is given after the resync.
    std::fs::write(&l.path, "{\"a\":1}\n{\"b\":2}\n{\"x\":9}\n").unwrap();
    settle(&l.path);
    assert_eq!(
        drain(&mut rewritten),
        (vec!["{\"b\":2}".to_string()], vec![Rewrite::Rewritten])
    );
}

#[test]
fn a_rewritten_log_is_reported_and_gives_only_unseen_lines() {
    let dir = tempfile::tempdir().unwrap();
    let l = log(dir.path());
    append(&l.path, "{\"a\":1}\n{\"x\":1}\n");
    let mut tail = LogTail::open(l.clone(), Start::End).unwrap();
    let at = tail.position();
    // A merge that puts the other side's line before ours.
    std::fs::write(&l.path, "{\"a\":1}\n{\"y\":2}\n{\"x\":1}\n").unwrap();
    // Just written, it may be half written: looked at again later.
    assert_eq!(drain(&mut tail), (vec![], vec![]));
    assert!(tail.settling);
    settle(&l.path);
    assert_eq!(
        drain(&mut tail),
        (vec!["{\"y\":2}".to_string()], vec![Rewrite::Rewritten])
    );
    // A checkout back to less: reported, nothing to give.
    std::fs::write(&l.path, "{\"a\":1}\n").unwrap();
    settle(&l.path);
    assert_eq!(drain(&mut tail), (vec![], vec![Rewrite::Shrank]));
    std::fs::remove_file(&l.path).unwrap();
    // Gone for a moment (as git replaces a file) is not gone.
    assert_eq!(drain(&mut tail), (vec![], vec![]));
    tail.missing_since = Some(Instant::now() - GONE_AFTER);
    assert_eq!(drain(&mut tail), (vec![], vec![Rewrite::Removed]));

    // A cursor from before the rewrite no longer matches: told, and the log is read whole.
    std::fs::write(&l.path, "{\"a\":1}\n{\"z\":3}\n").unwrap();
    let mut late = LogTail::open(l.clone(), Start::At(at)).unwrap();
    let (lines, why) = drain(&mut late);
    assert_eq!(why, vec![Rewrite::Unknown]);
    assert_eq!(lines, vec!["{\"a\":1}", "{\"z\":3}"]);

    // A reader that stops at the resync gets the lines at its next advance, though the
    // log has not changed since.
    let mut stops = LogTail::open(l, Start::At(at)).unwrap();
    stops
        .advance(&mut |change| {
            assert!(matches!(change, Change::Rewrite(Rewrite::Unknown)));
            Ok(false)
        })
        .unwrap();
    assert_eq!(drain(&mut stops).0, vec!["{\"a\":1}", "{\"z\":3}"]);
}

/// A log of lines `ns`, each ending with what tells it apart (as a package ends with its
/// hash), all of one length.
fn numbered(ns: &[u32]) -> String {
    ns.iter()
        .map(|&n| format!("{{\"pad\":\"{}\",\"n\":{n}}}\n", "p".repeat(80)))
        .collect()
}

/// A tail at the end of `numbered(&[0, 2])`, with `more` appended after it.
fn tail_after_line_2(l: &WatchedLog, more: &[u32]) -> LogTail {
    append(&l.path, &numbered(&[0, 2]));
    let tail = LogTail::open(l.clone(), Start::End).unwrap();
    append(&l.path, &numbered(more));
    tail
}

/// Advances `tail`, writing the log anew as `rewritten` in place while the first line is
/// handed over; what it gave.
fn advance_rewriting(tail: &mut LogTail, path: &Path, rewritten: &[u32]) -> Vec<String> {
    let (mut given, mut done) = (Vec::new(), false);
    tail.advance(&mut |change| {
        if let Change::Line(_, text) = change {
            given.push(String::from_utf8(text.to_vec()).unwrap());
        }
        if !std::mem::replace(&mut done, true) {
            std::fs::write(path, numbered(rewritten)).unwrap();
        }
        Ok(true)
    })
    .unwrap();
    given
}

fn lines(ns: &[u32]) -> Vec<String> {
    numbered(ns).lines().map(str::to_string).collect()
}

#[test]
fn a_log_rewritten_in_place_after_its_last_line_was_read_is_found_next_time() {
    // What CI caught once: a log written anew in place (as `std::fs::write` does) just after
    // the tail handed over its last line. The reader's next read went on in the new file from
    // the old end, and the line put before was never given. A read now stops at the length
    // the advance began with; the next advance finds the rewrite at its position.
    for rewritten in [[0, 1, 2, 3], [0, 2, 1, 3]] {
        let dir = tempfile::tempdir().unwrap();
        let l = log(dir.path());
        let mut tail = tail_after_line_2(&l, &[3]);
        let given = advance_rewriting(&mut tail, &l.path, &rewritten);
        assert_eq!(given, lines(&[3]), "{rewritten:?}");
        // Written a moment ago, it may be half written: looked at again soon.
        assert_eq!(drain(&mut tail), (vec![], vec![]));
        assert!(tail.settling);
        settle(&l.path);
        assert_eq!(drain(&mut tail), (lines(&[1]), vec![Rewrite::Rewritten]));
        assert_eq!(tail.position(), end_position(&l.path).unwrap());
    }
}

#[test]
fn a_log_rewritten_in_place_while_it_is_read_gives_no_line_of_the_new_file_past_one_missed() {
    // The read spans chunks (a few bytes each in these tests): the rewrite lands between
    // two, and the second would start in the new file. Its lines are not given, as the bytes
    // before it changed; the resync comes once the log has settled.
    for rewritten in [[0, 1, 2, 3, 4, 5], [0, 2, 1, 3, 4, 5]] {
        let dir = tempfile::tempdir().unwrap();
        let l = log(dir.path());
        let mut tail = tail_after_line_2(&l, &[3, 4, 5]);
        let given = advance_rewriting(&mut tail, &l.path, &rewritten);
        assert_eq!(given, lines(&[3]), "{rewritten:?}");
        assert!(tail.settling);
        settle(&l.path);
        assert_eq!(
            drain(&mut tail),
            (lines(&[1, 4, 5]), vec![Rewrite::Rewritten])
        );
    }
}

#[test]
fn a_log_rewritten_in_place_before_a_read_or_before_its_check_gives_none_of_what_was_read() {
    // Rewritten after the advance found its position still held, before the read began (the
    // read would start in the new file); or after a chunk was read from the old file, before
    // the bytes before it were checked (the check reads the new file); or cut to nothing
    // there, the first step of a write in place, which is no error. None of the chunk is
    // given, and the rewrite is told once the log has settled.
    let cases: [(Moment, &[u32], &[u32], Rewrite); 3] = [
        (Moment::Read, &[0, 1, 2, 3], &[1, 3], Rewrite::Rewritten),
        (Moment::Check, &[0, 1, 2, 3], &[1, 3], Rewrite::Rewritten),
        (Moment::Check, &[], &[], Rewrite::Shrank),
    ];
    for (m, rewritten, missed, why) in cases {
        let dir = tempfile::tempdir().unwrap();
        let l = log(dir.path());
        let mut tail = tail_after_line_2(&l, &[3]);
        let path = l.path.clone();
        at_moment(m, move || {
            std::fs::write(&path, numbered(rewritten)).unwrap()
        });
        assert_eq!(drain(&mut tail), (vec![], vec![]), "{m:?} {rewritten:?}");
        settle(&l.path);
        assert_eq!(drain(&mut tail), (lines(missed), vec![why]), "{m:?}");
    }
}

#[test]
fn a_log_rewritten_in_place_while_a_tail_opens_at_a_cursor_is_given_whole() {
    // The lines before the cursor are read when the tail opens, to count them as seen; a
    // rewrite just then would have them be the new file's, and the line put among them lost.
    // Without a cache, and with one, where the keys saved from that read are removed.
    for with_cache in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let l = log(dir.path());
        append(&l.path, &numbered(&[0, 2, 3]));
        let cursor = end_position(&l.path).unwrap();
        let path = l.path.clone();
        at_moment(Moment::OpenRead, move || {
            std::fs::write(&path, numbered(&[0, 1, 2, 3])).unwrap();
        });
        let cache_dir = with_cache.then_some(cache.as_path());
        let mut tail = LogTail::open_saving(l.clone(), Start::At(cursor), cache_dir).unwrap();
        assert!(!seen_lines::file_path(&cache, &l.path).exists());
        assert_eq!(
            drain(&mut tail),
            (lines(&[0, 1, 2, 3]), vec![Rewrite::Unknown])
        );
    }
}

#[test]
fn a_reader_that_stops_gets_the_rest_at_its_next_advance() {
    let dir = tempfile::tempdir().unwrap();
    let l = log(dir.path());
    let mut tail = tail_after_line_2(&l, &[3, 4]);
    let mut given = Vec::new();
    tail.advance(&mut |change| {
        given.push(format!("{change:?}"));
        Ok(false)
    })
    .unwrap();
    assert_eq!(given.len(), 1, "{given:?}");
    // (The log has not changed since.)
    let mut rest = Vec::new();
    tail.advance(&mut |change| {
        if let Change::Line(_, text) = change {
            rest.push(String::from_utf8(text.to_vec()).unwrap());
        }
        Ok(true)
    })
    .unwrap();
    assert_eq!(rest, lines(&[4]));
}

#[test]
fn a_log_cut_short_while_its_end_or_saved_keys_are_read_is_read_again_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let l = log(dir.path());
    append(&l.path, &numbered(&[0, 2, 3]));
    let path = l.path.clone();
    at_moment(Moment::EndScan, move || {
        std::fs::write(&path, numbered(&[0])).unwrap();
    });
    let end = end_position(&l.path).unwrap();
    assert_eq!(end.offset, numbered(&[0]).len() as u64);

    // Keys saved for [0, 1, 2], found to hold, then the log cut short before their end.
    let cache = dir.path().join("cache");
    std::fs::write(&l.path, numbered(&[0, 1, 2])).unwrap();
    LogTail::open_saving(l.clone(), Start::End, Some(&cache)).unwrap();
    let path = l.path.clone();
    at_moment(Moment::SavedKeys, move || {
        std::fs::write(&path, numbered(&[0])).unwrap();
    });
    let tail = LogTail::open_saving(l.clone(), Start::End, Some(&cache)).unwrap();
    assert_eq!(tail.position(), end_position(&l.path).unwrap());
}
