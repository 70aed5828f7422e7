//! The witness's tests: the fingerprint, and the bytes of logs each read reads.

use super::*;

fn naive(base: u64, bytes: &[u8]) -> Sum {
    Sum(bytes
        .iter()
        .fold(0, |s, &b| add(mul(s, base), u64::from(b) + 1)))
}

#[test]
fn the_fast_hash_is_the_polynomial_and_extends() {
    let base = 0x0123_4567_89ab_cdef;
    let text: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
    for cut in [0, 1, 7, 8, 9, 63, 500, 999, 1000] {
        let mut h = Hasher::new(base);
        h.update(&text[..cut]);
        assert_eq!(h.finish(), naive(base, &text[..cut]), "prefix {cut}");
        assert_eq!(Hasher::of(base, &text[..cut]), h.finish());
        let mut t = Hasher::new(base);
        t.update(&text[cut..]);
        let joined = h.finish().then(base, t.finish(), (text.len() - cut) as u64);
        assert_eq!(joined, naive(base, &text), "split at {cut}");
    }
    // Zero bytes count, and so does order.
    assert_ne!(naive(base, b"\0"), naive(base, b""));
    assert_ne!(naive(base, b"ab"), naive(base, b"ba"));
}

#[test]
fn the_hash_of_bytes_fed_in_pieces_of_any_size_is_the_polynomial() {
    // A read hands the hasher what it got: pieces that end inside an 8-byte block must not
    // change the sum.
    let base = 0x1f2e_3d4c_5b6a_7988 % MODULUS;
    let text: Vec<u8> = (0..3000u32).map(|i| (i * 131 % 256) as u8).collect();
    for piece in [1, 3, 8, 13, 31, 32, 33, 40, 64, 97, 3000] {
        let mut h = Hasher::new(base);
        for part in text.chunks(piece) {
            h.update(part);
        }
        assert_eq!(h.finish(), naive(base, &text), "pieces of {piece}");
    }
}

#[test]
fn a_log_is_known_by_identity_and_read_again_when_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let log = dir.path().join("projects/p/packages/2026-01.ndjson");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(&log, b"{\"a\":1}\n{\"b\":2}\n").unwrap();
    let first = LogState::observe(&cache, &log).unwrap();
    assert_eq!(first.len, 16);
    assert!(cache.join("logs-v1/p.json").is_file());
    let again = LogState::observe(&cache, &log).unwrap();
    assert_eq!((again.sum, again.base), (first.sum, first.base));
    // The same length, other content, the same first and last bytes: a replacement.
    std::fs::remove_file(&log).unwrap();
    std::fs::write(&log, b"{\"b\":2}\n{\"a\":1}\n").unwrap();
    let swapped = LogState::observe(&cache, &log).unwrap();
    assert_eq!(swapped.len, 16);
    assert_ne!(swapped.sum, first.sum);
    assert!(
        !swapped
            .has_prefix(&log, 8, naive(first.base, b"{\"a\":1}\n"))
            .unwrap()
    );
    assert!(
        swapped
            .has_prefix(&log, 8, naive(first.base, b"{\"b\":2}\n"))
            .unwrap()
    );
}

#[test]
fn an_append_recorded_keeps_the_fingerprint_without_a_read() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let log = dir.path().join("projects/p/facts.ndjson");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(&log, b"{\"a\":1}\n").unwrap();
    let s = LogState::observe(&cache, &log).unwrap();
    // The file was written just now, so its entry is not trusted yet (another write in
    // the same clock tick would leave the same identity); as a second later, it is.
    let before = Identity::of(&std::fs::metadata(&log).unwrap());
    let w = load(&cache.join("logs-v1/p.json")).unwrap();
    assert!(!w.logs["facts.ndjson"].describes(&before));
    update(&cache, &log, |w, key| {
        w.logs.get_mut(key).unwrap().noted.0 += 1;
    });
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    std::io::Write::write_all(&mut f, b"{\"c\":3}\n").unwrap();
    let after = Identity::of(&std::fs::metadata(&log).unwrap());
    record_append(
        &cache,
        &log,
        &Appended {
            before,
            after: after.clone(),
            bytes: b"{\"c\":3}\n",
        },
    );
    let w = load(&cache.join("logs-v1/p.json")).unwrap();
    let e = &w.logs["facts.ndjson"];
    assert_eq!(e.identity, after);
    assert_eq!(e.sum, naive(s.base, b"{\"a\":1}\n{\"c\":3}\n"));
    let grown = LogState::observe(&cache, &log).unwrap();
    assert!(grown.has_prefix(&log, 8, s.sum).unwrap());
}

/// Appends `line` as relay does, keeping the witness current.
fn append(cache: &Path, log: &Path, line: &[u8]) {
    let done = crate::log::append(log, line, false).unwrap();
    record(cache, log, (done.before, done.after), &done.written);
}

/// Records an append made to `log` as relay does after its sync.
fn record(cache: &Path, log: &Path, (before, after): (Identity, Identity), bytes: &[u8]) {
    record_append(
        cache,
        log,
        &Appended {
            before,
            after,
            bytes,
        },
    );
}

/// A month's log of two lines whose witness entry relay's own append wrote, as after a
/// deposit: the temporary folder, the cache folder and the log.
fn a_log_relay_appended_to() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let log = dir.path().join("projects/p/packages/2026-01.ndjson");
    crate::log::append(&log, b"{\"a\":1}\n", false).unwrap();
    LogState::observe(&cache, &log).unwrap();
    append(&cache, &log, b"{\"b\":2}\n");
    (dir, cache, log)
}

#[test]
fn under_steady_appends_a_read_trusts_the_writers_entry_and_reads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let log = dir.path().join("projects/p/packages/2026-01.ndjson");
    // Written just now: the first read fingerprints it, but may not trust what it noted
    // (the file could change again within the clock tick), so the entry does not describe
    // the log for the next append to extend.
    crate::log::append(&log, b"{\"a\":1}\n", false).unwrap();
    let first = LogState::observe(&cache, &log).unwrap();
    for i in 0..5 {
        append(&cache, &log, format!("{{\"n\":{i}}}\n").as_bytes());
        // Each read right after an append reads no byte of the log.
        let hashed = bytes_hashed_on_this_thread();
        let now = LogState::observe(&cache, &log).unwrap();
        assert_eq!(bytes_hashed_on_this_thread(), hashed, "append {i}");
        assert!(now.has_prefix(&log, first.len, first.sum).unwrap());
    }
    let whole = std::fs::read(&log).unwrap();
    let now = LogState::observe(&cache, &log).unwrap();
    assert_eq!(now.sum, naive(now.base, &whole));
}

#[test]
fn a_slow_reader_does_not_replace_the_entry_a_writer_noted_since() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let log = dir.path().join("projects/p/packages/2026-01.ndjson");
    crate::log::append(&log, b"{\"a\":1}\n", false).unwrap();
    let read = LogState::observe(&cache, &log).unwrap();
    // The reader of the first state notes it only after a writer appended: outdated.
    append(&cache, &log, b"{\"b\":2}\n");
    let witness = cache.join("logs-v1/p.json");
    let noted = || load(&witness).unwrap().logs["packages/2026-01.ndjson"].clone();
    let writers = noted();
    assert!(writers.exact);
    note_read(
        &cache,
        &log,
        (read.base, true),
        read.identity.clone(),
        read.sum,
    );
    assert_eq!(noted().identity, writers.identity);
    // A reader of the current state, noting it after the writer did: the writer's stays.
    let now = Identity::of(&std::fs::metadata(&log).unwrap());
    let whole = naive(read.base, &std::fs::read(&log).unwrap());
    note_read(&cache, &log, (read.base, true), now, whole);
    assert!(noted().exact);
}

#[test]
fn while_an_append_syncs_a_read_reads_only_the_lines_added() {
    let (_dir, cache, log) = a_log_relay_appended_to();
    let before = Identity::of(&std::fs::metadata(&log).unwrap());
    let _announced = begin_append(&cache, &log, &before, b"{\"c\":33}\n");
    // Written, not yet recorded (the writer syncs): the read hashes the new line only.
    crate::log::append(&log, b"{\"c\":33}\n", false).unwrap();
    let hashed = bytes_hashed_on_this_thread();
    let now = LogState::observe(&cache, &log).unwrap();
    assert_eq!(bytes_hashed_on_this_thread() - hashed, 9);
    assert_eq!(now.sum, naive(now.base, &std::fs::read(&log).unwrap()));
    // A log replaced meanwhile (its inode reused, its length the same) is read whole.
    std::fs::remove_file(&log).unwrap();
    let other = b"{\"a\":1}\n{\"b\":2}\n{\"c\":44}\n";
    std::fs::write(&log, other).unwrap();
    let hashed = bytes_hashed_on_this_thread();
    let now = LogState::observe(&cache, &log).unwrap();
    assert!(bytes_hashed_on_this_thread() - hashed >= 25);
    assert_eq!(now.sum, naive(now.base, other));
}

/// Whether an append to `log` is announced in this process.
fn is_announced(log: &Path) -> bool {
    announced().contains_key(log)
}

#[test]
fn an_announcement_writes_nothing_and_ends_with_its_guard() {
    let (_dir, cache, log) = a_log_relay_appended_to();
    let witness = cache.join("logs-v1/p.json");
    let identity = || Identity::of(&std::fs::metadata(&witness).unwrap());
    let written = identity();
    let before = Identity::of(&std::fs::metadata(&log).unwrap());
    let announced = begin_append(&cache, &log, &before, b"{\"c\":3}\n");
    // The announcement is in memory only; the record replaces the file.
    assert_eq!(identity(), written);
    assert!(is_announced(&log));
    append(&cache, &log, b"{\"c\":3}\n");
    assert_ne!(identity().inode, written.inode);
    drop(announced);
    assert!(!is_announced(&log));
}

#[test]
fn a_reader_on_another_thread_during_an_announced_append_hashes_only_the_append() {
    let (_dir, cache, log) = a_log_relay_appended_to();
    let line = b"{\"c\":3}\n";
    let before = Identity::of(&std::fs::metadata(&log).unwrap());
    let announced = begin_append(&cache, &log, &before, line);
    let done = crate::log::append(&log, line, false).unwrap();
    // The writer syncs; a request thread of the same process reads.
    let read = || {
        std::thread::scope(|s| {
            s.spawn(|| {
                let state = LogState::observe(&cache, &log).unwrap();
                (state.sum, bytes_hashed_on_this_thread())
            })
            .join()
            .unwrap()
        })
    };
    let (sum, hashed) = read();
    assert_eq!(hashed, line.len() as u64);
    let whole = std::fs::read(&log).unwrap();
    assert_eq!(
        sum,
        naive(load(&cache.join("logs-v1/p.json")).unwrap().base, &whole)
    );
    record(&cache, &log, (done.before, done.after), &done.written);
    drop(announced);
    // Recorded: the next read reads nothing.
    assert_eq!(read(), (sum, 0));
}

#[test]
fn an_append_that_failed_leaves_no_announcement_and_a_grown_log_is_read_whole() {
    let (_dir, cache, log) = a_log_relay_appended_to();
    let before = Identity::of(&std::fs::metadata(&log).unwrap());
    // The append is announced, then abandoned (its write failed): nothing recorded.
    drop(begin_append(&cache, &log, &before, b"{\"c\":3}\n"));
    assert!(!is_announced(&log));
    // Someone else then writes those very bytes: the log is not trusted to have grown by them.
    crate::log::append(&log, b"{\"c\":3}\n", false).unwrap();
    let hashed = bytes_hashed_on_this_thread();
    let now = LogState::observe(&cache, &log).unwrap();
    let whole = std::fs::read(&log).unwrap();
    assert_eq!(bytes_hashed_on_this_thread() - hashed, whole.len() as u64);
    assert_eq!(now.sum, naive(now.base, &whole));
}

#[test]
fn a_witness_file_with_an_announcement_in_it_still_parses() {
    let dir = tempfile::tempdir().unwrap();
    let witness = dir.path().join("p.json");
    let entry = r#"{"identity":{"len":8,"modified":[1,2],"changed":[1,2],"device":3,"inode":4},"sum":5,"noted":[6,7],"exact":true,"growing":{"began":[1,2],"len":9,"sum":10}}"#;
    std::fs::write(
        &witness,
        format!(r#"{{"base":12345,"logs":{{"facts.ndjson":{entry}}}}}"#),
    )
    .unwrap();
    let w = load(&witness).unwrap();
    assert_eq!(w.logs["facts.ndjson"].sum, Sum(5));
}
