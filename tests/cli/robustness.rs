//! Bad input and crashes: corrupt and torn lines, concurrent writers.
//!
//! These tests damage the store by hand (as an editor, a crash or a bad merge would) and race
//! several processes against one store, then check that every command still answers exactly:
//! the right packages, the right warnings (file and line), the right exit codes, and not one
//! byte written by a command that failed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Instant;

use serde_json::{Value, json};

use crate::harness::{Env, Run};

/// The March 2026 log of `demo`, as warnings name it (relative to the working folder).
const MARCH: &str = ".relay/projects/demo/packages/2026-03.ndjson";

/// `n` packages titled `p1`…`pn`, created on March 1st…, all in the March 2026 log, in order.
fn seeded(n: usize) -> (Env, Vec<String>) {
    let env = Env::new();
    let mut ids = Vec::new();
    for i in 1..=n {
        let p =
            json!({"title": format!("p{i}"), "created_at": format!("2026-03-{i:02}T00:00:00Z")});
        ids.push(
            env.deposit_from(&p)["package"]["package_id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(read_lines(&env.path(MARCH)).len(), n);
    (env, ids)
}

/// The raw lines of a file, each without its `\n` (a torn last line included).
fn read_lines(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).unwrap();
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    if bytes.ends_with(b"\n") {
        lines.pop();
    }
    lines
}

/// Replaces line `n` (1-based) of a file with `with`, keeping every other byte.
fn replace_line(path: &Path, n: usize, with: &[u8]) {
    let bytes = std::fs::read(path).unwrap();
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    assert!(
        n >= 1 && n < lines.len(),
        "no line {n} in {}",
        path.display()
    );
    lines[n - 1] = with;
    std::fs::write(path, lines.join(&b'\n')).unwrap();
}

fn append_bytes(path: &Path, bytes: &[u8]) {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .unwrap()
        .write_all(bytes)
        .unwrap();
}

/// The stderr lines that are human warnings.
fn human_warnings(r: &Run) -> Vec<&str> {
    r.stderr
        .lines()
        .filter(|l| l.starts_with("relay: warning: "))
        .collect()
}

/// Every stderr line as a JSON warning object with exactly warning/file/line/message, as
/// (kind, file, line). Any other stderr line fails the test.
#[track_caller]
fn json_warnings(r: &Run) -> Vec<(String, String, u64)> {
    r.stderr
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("stderr line is not JSON: {l:?}: {e}"));
            let obj = v
                .as_object()
                .unwrap_or_else(|| panic!("not an object: {l}"));
            let keys: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                BTreeSet::from(["file", "line", "message", "warning"]),
                "warning keys: {l}"
            );
            assert!(
                v["message"].as_str().is_some_and(|m| !m.is_empty()),
                "message: {l}"
            );
            (
                v["warning"]
                    .as_str()
                    .expect("warning is a string")
                    .to_string(),
                v["file"].as_str().expect("file is a string").to_string(),
                v["line"].as_u64().expect("line is an integer"),
            )
        })
        .collect()
}

fn warning(kind: &str, file: &str, line: u64) -> (String, String, u64) {
    (kind.to_string(), file.to_string(), line)
}

/// Titles of `pull --latest 1000 --json`, newest first; requires exit 0.
#[track_caller]
fn pull_all(env: &Env) -> (Vec<String>, Run) {
    let r = env.run(&["pull", "--latest", "1000", "--json"]);
    assert_eq!(r.code, 0, "pull failed: {}", r.stderr);
    let titles = r
        .packages()
        .iter()
        .map(|p| p["title"].as_str().unwrap().to_string())
        .collect();
    (titles, r)
}

/// `p{n}`…`p1` without the skipped ones: what a newest-first pull of [`seeded`] returns.
fn expected_titles(n: usize, skipped: &[usize]) -> Vec<String> {
    (1..=n)
        .rev()
        .filter(|i| !skipped.contains(i))
        .map(|i| format!("p{i}"))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// 1. Concurrent writers.

#[test]
fn eight_processes_depositing_200_each_lose_and_tear_nothing() {
    const WRITERS: usize = 8;
    const EACH: usize = 200;
    let env = Env::new();
    let start = Instant::now();
    let printed: Vec<Value> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..WRITERS)
            .map(|w| {
                let env = &env;
                s.spawn(move || {
                    (0..EACH)
                        .map(|i| {
                            let title = format!("writer {w} deposit {i}");
                            let o = env
                                .command(&["deposit", "--title", &title, "--json"])
                                .output()
                                .unwrap();
                            let stdout = String::from_utf8_lossy(&o.stdout);
                            let stderr = String::from_utf8_lossy(&o.stderr);
                            assert_eq!(o.status.code(), Some(0), "{title}: {stderr}");
                            assert_eq!(stderr, "", "{title}: nothing on stderr");
                            let v: Value = serde_json::from_str(stdout.trim_end()).unwrap();
                            assert_eq!(v["package"]["title"], title.as_str());
                            v
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let deposit_time = start.elapsed();

    // Every id printed is distinct, and is what pull returns, exactly.
    let by_id: HashMap<String, &Value> = printed
        .iter()
        .map(|v| (v["package"]["package_id"].as_str().unwrap().to_string(), v))
        .collect();
    assert_eq!(
        by_id.len(),
        WRITERS * EACH,
        "deposits printed duplicate ids"
    );

    let r = env.run(&["pull", "--latest", "100000", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr, "",
        "no warnings: every line is whole and verifies"
    );
    let pulled = r.packages();
    assert_eq!(pulled.len(), WRITERS * EACH);
    let pulled_ids: BTreeSet<&str> = pulled
        .iter()
        .map(|p| p["package_id"].as_str().unwrap())
        .collect();
    assert_eq!(pulled_ids.len(), WRITERS * EACH, "pull printed an id twice");
    for p in &pulled {
        let id = p["package_id"].as_str().unwrap();
        let deposited = by_id
            .get(id)
            .unwrap_or_else(|| panic!("pulled {id}, which no deposit printed"));
        assert_eq!(&deposited["package"], p, "{id} as pulled vs as deposited");
    }

    // Every line of every log is one whole envelope, and the logs hold each package once.
    let dir = env.store().join("projects/demo/packages");
    let mut lines = 0;
    let mut seen = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.ends_with(b"\n"), "{} ends mid-line", path.display());
        for line in read_lines(&path) {
            lines += 1;
            let v: Value = serde_json::from_slice(&line).unwrap_or_else(|e| {
                panic!(
                    "torn or interleaved line in {}: {e}: {}",
                    path.display(),
                    String::from_utf8_lossy(&line)
                )
            });
            let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys, ["package", "hash"], "envelope keys");
            let id = v["package"]["package_id"].as_str().unwrap().to_string();
            let deposited = by_id[&id];
            assert_eq!(v["package"], deposited["package"], "{id} as stored");
            assert_eq!(v["hash"], deposited["hash"], "{id}'s stored hash");
            assert!(seen.insert(id.clone()), "{id} is stored twice");
        }
    }
    assert_eq!(lines, WRITERS * EACH);
    eprintln!(
        "{} concurrent deposits took {:.1?}; the whole test {:.1?}",
        WRITERS * EACH,
        deposit_time,
        start.elapsed()
    );
}

#[test]
fn eight_racing_retries_of_one_id_store_it_once() {
    const ID: &str = "pkg_000000000000000000000000000000aa";
    let env = Env::new();
    let cmd: Vec<String> = ["deposit", "--id", ID, "--title", "same", "--json"]
        .map(String::from)
        .into();
    let runs = spawn_all(&env, &vec![cmd; 8]);
    for r in &runs {
        assert_eq!(r.code, 0, "an identical retry succeeds: {r:?}");
        assert_eq!(
            r.json(),
            runs[0].json(),
            "every retry prints the stored package"
        );
    }
    let lines = env.package_lines("demo");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        serde_json::from_str::<Value>(&lines[0]).unwrap(),
        runs[0].json()
    );
}

#[test]
fn eight_racing_deposits_of_one_id_with_different_content_store_one() {
    const ID: &str = "pkg_000000000000000000000000000000bb";
    let env = Env::new();
    let cmds: Vec<Vec<String>> = (0..8)
        .map(|k| {
            [
                "deposit",
                "--id",
                ID,
                "--title",
                &format!("take {k}"),
                "--json",
            ]
            .map(String::from)
            .into()
        })
        .collect();
    let runs = spawn_all(&env, &cmds);
    let winners: Vec<&Run> = runs.iter().filter(|r| r.code == 0).collect();
    assert_eq!(winners.len(), 1, "{runs:?}");
    for r in runs.iter().filter(|r| r.code != 0) {
        assert_eq!(r.code, 3, "{r:?}");
        assert_eq!(r.error()["error"], "duplicate_package_id");
    }
    let lines = env.package_lines("demo");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        serde_json::from_str::<Value>(&lines[0]).unwrap(),
        winners[0].json()
    );
    assert_eq!(
        env.ok_json(&["pull", ID])["package"],
        winners[0].json()["package"]
    );
}

// ---------------------------------------------------------------------------------------------
// 2. A corrupt line in the middle of a log.

#[test]
fn a_corrupt_middle_line_is_skipped_with_its_file_and_line_and_nothing_else_breaks() {
    let variants: [&[u8]; 5] = [
        b"{\"package\": {broken",
        b"\xff\xfe garbage \x00\x01 {\"package\": \xc3\x28}",
        b"[1, 2, 3]",
        b"null",
        b"{\"package\": {\"title\": \"p3\"}} trailing",
    ];
    for bad in variants {
        let shown = String::from_utf8_lossy(bad).into_owned();
        let (env, ids) = seeded(5);
        let log = env.path(MARCH);
        replace_line(&log, 3, bad);

        // pull --latest: the other four, and one warning naming the file and line 3.
        let (titles, r) = pull_all(&env);
        assert_eq!(titles, expected_titles(5, &[3]), "{shown}");
        assert_eq!(
            json_warnings(&r),
            [warning("corrupt_line", MARCH, 3)],
            "{shown}"
        );
        let r = env.run(&["pull", "--latest", "1000"]);
        assert_eq!(r.code, 0, "{shown}: {}", r.stderr);
        assert_eq!(
            human_warnings(&r).len(),
            1,
            "{shown}: one warning: {}",
            r.stderr
        );
        let prefix = format!("relay: warning: {MARCH}:3: ");
        assert!(
            r.stderr.starts_with(&prefix) && r.stderr.lines().count() == 1,
            "{shown}: human warning: {:?}",
            r.stderr
        );

        // pull <id> of another package: that package. A lookup by id need not parse the
        // lines of other packages, but if it reports the bad line, it names it exactly.
        let r = env.run(&["pull", &ids[3], "--json"]);
        assert_eq!(r.code, 0, "{shown}: {}", r.stderr);
        assert_eq!(r.json()["package"]["title"], "p4");
        let w = json_warnings(&r);
        assert!(w.is_empty(), "{shown}: {w:?}");

        // deposit, into this very log and into the current month.
        let march =
            env.deposit_from(&json!({"title": "after", "created_at": "2026-03-20T00:00:00Z"}));
        let now_id = env.deposit("now", &[]);
        assert_eq!(
            read_lines(&log)[2],
            bad,
            "{shown}: the bad line stays as it was"
        );
        assert_eq!(read_lines(&log).len(), 6);

        // projects info counts what is readable.
        let r = env.run(&["projects", "info", "demo", "--json"]);
        assert_eq!(r.code, 0, "{shown}: {}", r.stderr);
        assert_eq!(r.json()["counts"]["packages"], 6, "{shown}");
        assert_eq!(
            json_warnings(&r),
            [warning("corrupt_line", MARCH, 3)],
            "{shown}"
        );

        let (titles, _) = pull_all(&env);
        assert_eq!(titles, ["now", "after", "p5", "p4", "p2", "p1"], "{shown}");
        let id = march["package"]["package_id"].as_str().unwrap();
        assert_eq!(env.ok_json(&["pull", id])["package"]["title"], "after");
        assert_eq!(env.ok_json(&["pull", &now_id])["package"]["title"], "now");
    }
}

#[test]
fn a_corrupt_line_holding_the_wanted_id_means_not_found_with_a_warning() {
    let (env, ids) = seeded(3);
    let log = env.path(MARCH);
    let mut line = read_lines(&log)[1].clone();
    line.truncate(line.len() - 5); // cut the end off, keep the id
    replace_line(&log, 2, &line);
    let r = env.run(&["pull", &ids[1], "--json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let mut lines: Vec<&str> = r.stderr.lines().collect();
    let err: Value = serde_json::from_str(lines.pop().unwrap()).unwrap();
    assert_eq!(err["error"], "package_not_found");
    let rest = Run {
        code: 0,
        stdout: String::new(),
        stderr: lines.join("\n"),
    };
    assert_eq!(json_warnings(&rest), [warning("corrupt_line", MARCH, 2)]);
    assert_eq!(r.stdout, "");
}

// ---------------------------------------------------------------------------------------------
// 3. A torn final line.

#[test]
fn a_torn_last_line_is_reported_once_and_the_next_deposit_starts_a_fresh_line() {
    let (env, _) = seeded(3);
    let log = env.path(MARCH);
    let before = std::fs::read(&log).unwrap();
    let fragment: &[u8] = b"{\"package\":{\"package_id\":\"pkg_torn\",\"title\":\"half a wr";
    append_bytes(&log, fragment);

    let (titles, r) = pull_all(&env);
    assert_eq!(titles, expected_titles(3, &[]));
    assert_eq!(json_warnings(&r), [warning("torn_line", MARCH, 4)]);
    let r = env.run(&["pull", "--latest", "1000"]);
    assert_eq!(r.code, 0);
    assert_eq!(human_warnings(&r).len(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with(&format!("relay: warning: {MARCH}:4: "))
    );
    let r = env.run(&["projects", "info", "demo", "--json"]);
    assert_eq!(r.json()["counts"]["packages"], 3);
    assert_eq!(json_warnings(&r), [warning("torn_line", MARCH, 4)]);

    // A deposit into the same log: reported once, and the new record gets a line of its own.
    let input = json!({"title": "after the crash", "created_at": "2026-03-28T00:00:00Z"});
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        input.to_string().as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["package"]["title"], "after the crash");
    let w = json_warnings(&Run {
        code: 0,
        stdout: String::new(),
        stderr: r.stderr.clone(),
    });
    assert_eq!(
        w,
        [warning("torn_line", MARCH, 4)],
        "deposit reports it once"
    );
    let id = r.json()["package"]["package_id"]
        .as_str()
        .unwrap()
        .to_string();

    // Append-only: every old byte stays, the fragment's line is ended (relay may seal it with
    // bytes of its own first, on the same line), and the new record is one line of its own.
    let after = std::fs::read(&log).unwrap();
    let mut kept = before.clone();
    kept.extend_from_slice(fragment);
    assert!(after.starts_with(&kept), "the old bytes stay");
    let rest = &after[kept.len()..];
    let newlines: Vec<usize> = (0..rest.len()).filter(|&i| rest[i] == b'\n').collect();
    assert_eq!(newlines.len(), 2, "{:?}", String::from_utf8_lossy(rest));
    assert_eq!(newlines[1], rest.len() - 1);
    let stored: Value = serde_json::from_slice(&rest[newlines[0] + 1..]).unwrap();
    assert_eq!(
        stored,
        r.json(),
        "the new line is exactly what deposit printed"
    );

    // The fragment is no longer last, yet still skipped and reported once at its line (as a
    // corrupt line, or as a torn line that relay sealed), and everything complete is there.
    let (titles, r) = pull_all(&env);
    assert_eq!(titles, ["after the crash", "p3", "p2", "p1"]);
    let w = json_warnings(&r);
    assert_eq!(w, [warning("torn_line", MARCH, 4)]);
    assert_eq!(
        env.ok_json(&["pull", &id])["package"]["title"],
        "after the crash"
    );
    let r = env.run(&["pull", "--latest", "1000"]);
    assert_eq!(human_warnings(&r).len(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with(&format!("relay: warning: {MARCH}:4: "))
    );
}

/// Regression (failed at 059f2bc): the next append ended the torn record with a bare newline, which
/// brought it back to life and let it shadow the retry.
#[test]
fn a_record_torn_before_its_newline_does_not_shadow_a_later_deposit_of_its_id() {
    // A crash may cut a record's single write anywhere, including just before its final `\n`.
    // That record was never acknowledged: readers skip it as a torn line. A retry deposits the
    // id again (here with other content), and must then read back what it deposited.
    const ID: &str = "pkg_0000000000000000000000000000dead";
    let record = |title: &str| {
        let scratch = Env::new();
        scratch.deposit_from(
            &json!({"package_id": ID, "title": title, "created_at": "2026-03-10T00:00:00Z",
                    "created_by": {"id": "tester", "type": "human"}}),
        );
        let line = scratch.package_lines("demo").remove(0);
        let v: Value = serde_json::from_str(&line).unwrap();
        (
            v["hash"].as_str().unwrap().to_string(),
            line,
            v["package"].clone(),
        )
    };
    let mut both = [record("first try"), record("second try")];
    // The torn record is the one whose hash wins a tie between versions of one id.
    both.sort_by(|a, b| b.0.cmp(&a.0));
    let [(_, torn_line, _), (_, _, retried)] = both;

    let (env, _) = seeded(2);
    let log = env.path(MARCH);
    append_bytes(&log, torn_line.as_bytes()); // no trailing newline: the crash cut it
    let r = env.run(&["pull", ID, "--json"]);
    assert_eq!(r.code, 1, "a torn record is not readable: {}", r.stderr);

    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        retried.to_string().as_bytes(),
    );
    match r.code {
        // Either relay refuses the id, because the torn record holds it…
        3 => assert_eq!(r.error()["error"], "duplicate_package_id"),
        // …or it accepts the retry, and then the retry is what the id means from now on.
        0 => {
            assert_eq!(r.json()["package"], retried);
            assert_eq!(
                env.ok_json(&["pull", ID])["package"],
                retried,
                "pull returns the deposit"
            );
            let (titles, _) = pull_all(&env);
            assert_eq!(titles, [retried["title"].as_str().unwrap(), "p2", "p1"]);
        }
        code => panic!("deposit exited {code}: {}", r.stderr),
    }
}

// ---------------------------------------------------------------------------------------------
// 4. A package edited after it was written.

#[test]
fn a_package_edited_by_hand_is_skipped_as_a_hash_mismatch() {
    let (env, ids) = seeded(3);
    let log = env.path(MARCH);
    let line = String::from_utf8(read_lines(&log)[1].clone()).unwrap();
    let edited = line.replace("\"title\":\"p2\"", "\"title\":\"p2, improved\"");
    assert_ne!(edited, line, "the title is where the test expects it");
    replace_line(&log, 2, edited.as_bytes());

    let (titles, r) = pull_all(&env);
    assert_eq!(titles, ["p3", "p1"]);
    assert_eq!(json_warnings(&r), [warning("hash_mismatch", MARCH, 2)]);
    let r = env.run(&["pull", "--latest", "1000"]);
    assert_eq!(human_warnings(&r).len(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with(&format!("relay: warning: {MARCH}:2: "))
    );

    let r = env.run(&["pull", &ids[1], "--json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stdout, "");
    assert_eq!(r.error()["error"], "package_not_found");
    let n = r.stderr.lines().count();
    let warnings = Run {
        code: 0,
        stdout: String::new(),
        stderr: r.stderr.lines().take(n - 1).collect::<Vec<_>>().join("\n"),
    };
    assert_eq!(
        json_warnings(&warnings),
        [warning("hash_mismatch", MARCH, 2)]
    );

    let r = env.run(&["projects", "info", "demo", "--json"]);
    assert_eq!(r.json()["counts"]["packages"], 2);

    // Only the hash changed: the same.
    let (env, _) = seeded(3);
    let log = env.path(MARCH);
    let mut v: Value = serde_json::from_slice(&read_lines(&log)[0]).unwrap();
    v["hash"] = json!(format!("sha256:{}", "0".repeat(64)));
    replace_line(&log, 1, v.to_string().as_bytes());
    let (titles, r) = pull_all(&env);
    assert_eq!(titles, ["p3", "p2"]);
    assert_eq!(json_warnings(&r), [warning("hash_mismatch", MARCH, 1)]);
}

#[test]
fn reformatting_a_line_without_changing_its_content_keeps_it_valid() {
    // The hash covers canonical JSON, so a tool that respaces the line or reorders keys
    // (within the one line) changes nothing.
    let (env, _) = seeded(2);
    let log = env.path(MARCH);
    let v: Value = serde_json::from_slice(&read_lines(&log)[0]).unwrap();
    let mut package: Vec<(String, Value)> = v["package"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    package.reverse();
    let fields: Vec<String> = package
        .iter()
        .map(|(k, v)| format!("{} :  {}", json!(k), v))
        .collect();
    let respaced = format!(
        "  {{ \"hash\" : {} ,\t\"package\" : {{ {} }} }}  ",
        v["hash"],
        fields.join(" , ")
    );
    replace_line(&log, 1, respaced.as_bytes());
    let (titles, r) = pull_all(&env);
    assert_eq!(r.stderr, "");
    assert_eq!(titles, ["p2", "p1"]);
}

// ---------------------------------------------------------------------------------------------
// 5. Valid JSON that is not a valid record.

#[test]
fn valid_json_that_is_not_a_package_record_is_an_invalid_record() {
    let variants = [
        r#"{"package": {"title": "x"}, "hash": "sha256:00"}"#,
        r#"{"hash": "sha256:00"}"#,
        r#"{"package": "pkg_1", "hash": "sha256:00"}"#,
        r#"{}"#,
    ];
    for bad in variants {
        let (env, _) = seeded(3);
        replace_line(&env.path(MARCH), 2, bad.as_bytes());
        let (titles, r) = pull_all(&env);
        assert_eq!(titles, ["p3", "p1"], "{bad}");
        assert_eq!(
            json_warnings(&r),
            [warning("invalid_record", MARCH, 2)],
            "{bad}"
        );
        let r = env.run(&["projects", "info", "demo", "--json"]);
        assert_eq!(r.json()["counts"]["packages"], 2, "{bad}");
        assert_eq!(
            json_warnings(&r),
            [warning("invalid_record", MARCH, 2)],
            "{bad}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Warnings in --json mode.

#[test]
fn json_warnings_are_objects_on_stderr_and_stdout_stays_pure_ndjson() {
    let (env, _) = seeded(6);
    let log = env.path(MARCH);
    replace_line(&log, 2, b"not json at all");
    replace_line(
        &log,
        3,
        br#"{"package": {"title": "x"}, "hash": "sha256:00"}"#,
    );
    let line4 = String::from_utf8(read_lines(&log)[3].clone()).unwrap();
    replace_line(&log, 4, line4.replace("\"p4\"", "\"P4\"").as_bytes());
    replace_line(&log, 5, b"");
    append_bytes(&log, b"{\"package\":");

    let r = env.run(&["pull", "--latest", "1000", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for line in r.stdout.lines() {
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("stdout line is not JSON: {line:?}: {e}"));
        assert!(
            v["package"]["package_id"].is_string(),
            "stdout holds packages only: {line}"
        );
    }
    assert!(r.stdout.ends_with('\n'));
    let titles: Vec<Value> = r.packages().iter().map(|p| p["title"].clone()).collect();
    assert_eq!(titles, [json!("p6"), json!("p1")]);
    // A blank line is no record and no warning; the rest in file order.
    assert_eq!(
        json_warnings(&r),
        [
            warning("corrupt_line", MARCH, 2),
            warning("invalid_record", MARCH, 3),
            warning("hash_mismatch", MARCH, 4),
            warning("torn_line", MARCH, 7),
        ]
    );

    // The same four in human mode, each naming file:line, and stdout free of them.
    let r = env.run(&["pull", "--latest", "1000"]);
    assert_eq!(r.code, 0);
    let lines: Vec<String> = human_warnings(&r)
        .iter()
        .map(|l| l.split(": ").nth(2).unwrap().to_string())
        .collect();
    assert_eq!(
        lines,
        [2, 3, 4, 7].map(|n| format!("{MARCH}:{n}")),
        "{}",
        r.stderr
    );
    assert!(!r.stdout.contains("warning"));

    // --quiet silences human warnings.
    let r = env.run(&["pull", "--latest", "1000", "--quiet"]);
    assert_eq!(r.code, 0);
    assert_eq!(r.stderr, "");
}

/// Regression (failed at 059f2bc): `--json --quiet` still printed warnings.
#[test]
fn quiet_silences_warnings_in_json_mode_too() {
    let (env, _) = seeded(2);
    replace_line(&env.path(MARCH), 1, b"garbage");
    let r = env.run(&["pull", "--latest", "10", "--json", "--quiet"]);
    assert_eq!(r.code, 0);
    assert_eq!(r.json_lines().len(), 1);
    assert_eq!(r.stderr, "", "--quiet: no warnings on stderr");
}

// ---------------------------------------------------------------------------------------------
// More ways a log can look after editors, git and merges.

#[test]
fn crlf_line_ends_and_exact_duplicate_lines_read_as_the_lines_they_are() {
    let (env, ids) = seeded(3);
    let log = env.path(MARCH);
    // A checkout with autocrlf, and a union merge that kept one line twice.
    let lines = read_lines(&log);
    let mut bytes = Vec::new();
    for line in [&lines[0], &lines[1], &lines[1], &lines[2]] {
        bytes.extend_from_slice(line);
        bytes.extend_from_slice(b"\r\n");
    }
    std::fs::write(&log, &bytes).unwrap();
    let (titles, r) = pull_all(&env);
    assert_eq!(r.stderr, "");
    assert_eq!(titles, ["p3", "p2", "p1"]);
    let r = env.run(&["projects", "info", "demo", "--json"]);
    assert_eq!(r.json()["counts"]["packages"], 3);
    assert_eq!(env.ok_json(&["pull", &ids[1]])["package"]["title"], "p2");
    // And a deposit still appends after them, and an identical retry still writes nothing.
    let v = env.deposit_from(
        &json!({"package_id": ids[1], "title": "p2", "created_at": "2026-03-02T00:00:00Z"}),
    );
    assert_eq!(v["package"]["title"], "p2");
    assert_eq!(
        std::fs::read(&log).unwrap(),
        bytes,
        "an identical retry writes nothing"
    );
}

#[test]
fn a_torn_line_in_projects_ndjson_does_not_stop_project_commands() {
    let env = Env::new();
    let projects = env.store().join("projects.ndjson");
    append_bytes(&projects, b"{\"project_id\":\"half");
    let r = env.run(&["projects", "list", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["project_id"], "demo");
    assert_eq!(
        json_warnings(&r),
        [warning("torn_line", ".relay/projects.ndjson", 2)]
    );
    env.ok(&["projects", "create", "web"]);
    let r = env.run(&["projects", "list", "--json"]);
    let ids: Vec<Value> = r
        .json_lines()
        .iter()
        .map(|p| p["project_id"].clone())
        .collect();
    assert_eq!(ids, [json!("demo"), json!("web")]);
    let w = json_warnings(&r);
    assert_eq!(
        w,
        [warning("torn_line", ".relay/projects.ndjson", 2)],
        "the ex-last line is still skipped and reported once"
    );
    env.deposit("into web", &["--project", "web"]);
}

/// Regression (failed at 059f2bc): such a deposit succeeded into a log named `+10000-01.ndjson` or
/// `-0001-12.ndjson`, which readers ignore.
#[test]
fn a_deposit_at_the_edge_of_time_is_readable_or_refused() {
    // Valid RFC 3339 (four-digit years) whose UTC instant falls outside years 0000–9999.
    for created_at in ["9999-12-31T23:30:00-01:00", "0000-01-01T00:30:00+01:00"] {
        let env = Env::new();
        let input = json!({"title": "edge", "created_at": created_at});
        let r = env.run_stdin(
            &["deposit", "--from", "-", "--json"],
            input.to_string().as_bytes(),
        );
        if r.code == 4 {
            assert_eq!(r.error()["error"], "invalid_schema", "{created_at}");
            assert!(env.package_lines("demo").is_empty(), "{created_at}");
            continue;
        }
        assert_eq!(r.code, 0, "{created_at}: {}", r.stderr);
        let id = r.json()["package"]["package_id"]
            .as_str()
            .unwrap()
            .to_string();
        let got = env.run(&["pull", &id, "--json"]);
        assert_eq!(
            got.code, 0,
            "{created_at}: a deposited package is readable: {}",
            got.stderr
        );
        let (titles, _) = pull_all(&env);
        assert_eq!(titles, ["edge"], "{created_at}");
        // …and its id is taken.
        let again = env.run(&["deposit", "--id", &id, "--title", "other", "--json"]);
        assert_eq!(again.code, 3, "{created_at}: {}", again.stderr);
    }
}

/// A time with an offset is refused (issue 59); the same instant in UTC goes to its month.
#[test]
fn a_created_at_with_an_offset_is_refused_and_its_utc_instant_goes_to_its_month() {
    let env = Env::new();
    let offset = json!({"title": "late march", "created_at": "2026-04-01T00:30:00+01:00"});
    let refused = env.run_stdin(&["deposit", "--from", "-"], offset.to_string().as_bytes());
    assert_eq!(refused.code, 4, "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("write it as `2026-03-31T23:30:00Z`")
    );
    env.deposit_from(&json!({"title": "late march", "created_at": "2026-03-31T23:30:00Z"}));
    let lines = read_lines(&env.path(MARCH));
    assert_eq!(lines.len(), 1, "the record is in the March log");
    assert!(
        !env.path(".relay/projects/demo/packages/2026-04.ndjson")
            .exists()
    );
    let (titles, _) = pull_all(&env);
    assert_eq!(titles, ["late march"]);
}

// ---------------------------------------------------------------------------------------------
// 7. A refused deposit writes nothing.

/// Every file under `.relay/` but the per-clone `local/` folder (lock files), with its bytes;
/// folders map to `None`.
fn snapshot(env: &Env) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            // Per-clone and derived state: a refused write may still build a disposable index.
            if rel == Path::new("local") || rel == Path::new("cache") {
                continue;
            }
            if path.is_dir() {
                out.insert(rel, None);
                walk(root, &path, out);
            } else {
                out.insert(rel, Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&env.store(), &env.store(), &mut out);
    out
}

#[test]
fn refused_deposits_leave_every_byte_of_the_store_as_it_was() {
    const FIXED: &str = "pkg_00000000000000000000000000000001";
    let env = Env::new();
    env.deposit("kept", &["--id", FIXED, "--tag", "a"]);
    env.deposit("another", &[]);
    env.ok(&["projects", "create", "old"]);
    env.deposit("in old", &["--project", "old"]);
    env.ok(&["projects", "archive", "old"]);
    let before = snapshot(&env);

    let long = "t".repeat(201);
    // (what, flags, stdin, exit code, error code)
    type Case<'a> = (&'a str, Vec<&'a str>, &'a [u8], i32, &'a str);
    let cases: Vec<Case> = vec![
        (
            "malformed --from",
            vec!["--from", "-"],
            b"{\"title\": \"x\",",
            4,
            "invalid_schema",
        ),
        (
            "invalid UTF-8 --from",
            vec!["--from", "-"],
            b"\xff\xfe{}",
            4,
            "invalid_schema",
        ),
        (
            "--from an array",
            vec!["--from", "-"],
            b"[{\"title\": \"x\"}]",
            4,
            "invalid_input",
        ),
        (
            "201-character title",
            vec!["--title", &long],
            b"",
            4,
            "invalid_schema",
        ),
        ("empty title", vec!["--title", ""], b"", 4, "invalid_schema"),
        (
            "unknown type",
            vec!["--title", "x", "--type", "bogus"],
            b"",
            4,
            "invalid_schema",
        ),
        (
            "bad status in --from",
            vec!["--from", "-"],
            b"{\"title\": \"x\", \"status\": \"done\"}",
            4,
            "invalid_schema",
        ),
        (
            "duplicate id, other content",
            vec!["--title", "not kept", "--id", FIXED],
            b"",
            3,
            "duplicate_package_id",
        ),
        (
            "duplicate id, other tags",
            vec!["--title", "kept", "--id", FIXED, "--tag", "b"],
            b"",
            3,
            "duplicate_package_id",
        ),
        (
            "archived project",
            vec!["--title", "x", "--project", "old"],
            b"",
            3,
            "project_archived",
        ),
        (
            "no such project",
            vec!["--title", "x", "--project", "nowhere"],
            b"",
            1,
            "project_not_found",
        ),
    ];
    for (what, flags, stdin, code, error) in cases {
        let mut args = vec!["deposit", "--json"];
        args.extend(flags);
        let r = env.run_stdin(&args, stdin);
        assert_eq!(r.code, code, "{what}: {}", r.stderr);
        assert_eq!(r.error()["error"], error, "{what}");
        assert_eq!(r.stdout, "", "{what}");
        assert!(snapshot(&env) == before, "{what}: the store changed");
    }

    // An identical retry succeeds and writes nothing either.
    let r = env.run(&[
        "deposit", "--json", "--title", "kept", "--id", FIXED, "--tag", "a",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["package"]["title"], "kept");
    assert!(
        snapshot(&env) == before,
        "an identical retry changed the store"
    );
}

// ---------------------------------------------------------------------------------------------
// 8. Racing project creation.

fn spawn_all(env: &Env, commands: &[Vec<String>]) -> Vec<Run> {
    let children: Vec<Child> = commands
        .iter()
        .map(|args| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            env.command(&args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| {
            let o = c.wait_with_output().unwrap();
            Run {
                code: o.status.code().unwrap_or(-1),
                stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
            }
        })
        .collect()
}

/// The records of projects.ndjson, in file order.
fn project_records(env: &Env) -> Vec<Value> {
    read_lines(&env.store().join("projects.ndjson"))
        .iter()
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

#[test]
fn four_racing_project_creates_make_one_project() {
    let env = Env::new();
    for round in 0..10 {
        let id = format!("race{round}");
        let cmd: Vec<String> = ["projects", "create", &id, "--json"]
            .map(String::from)
            .into();
        let runs = spawn_all(&env, &vec![cmd; 4]);
        let winners: Vec<&Run> = runs.iter().filter(|r| r.code == 0).collect();
        assert_eq!(winners.len(), 1, "{id}: {runs:?}");
        for r in runs.iter().filter(|r| r.code != 0) {
            assert_eq!(r.code, 3, "{id}: {r:?}");
            assert_eq!(r.error()["error"], "project_exists");
        }
        let stored: Vec<Value> = project_records(&env)
            .into_iter()
            .filter(|p| p["project_id"] == id.as_str())
            .collect();
        assert_eq!(stored.len(), 1, "{id}: {stored:?}");
        assert_eq!(
            stored[0],
            winners[0].json(),
            "{id}: the winner's record is stored"
        );
    }
}

/// Regression (failed at 059f2bc): init's exists-then-rename replaced a projects.ndjson that a
/// racing init had already written to.
#[test]
fn racing_inits_of_one_project_create_it_once() {
    for round in 0..10 {
        let env = Env::empty();
        let cmd: Vec<String> = ["init", "--project", "demo", "--json"]
            .map(String::from)
            .into();
        let runs = spawn_all(&env, &vec![cmd; 4]);
        for r in &runs {
            assert_eq!(
                r.code, 0,
                "round {round}: init is harmless to repeat: {r:?}"
            );
        }
        let created: Vec<&Run> = runs
            .iter()
            .filter(|r| r.json()["project_created"] == true)
            .collect();
        assert_eq!(
            created.len(),
            1,
            "round {round}: one init creates it: {runs:?}"
        );
        let stored = project_records(&env);
        assert_eq!(stored.len(), 1, "round {round}: {stored:?}");
        assert_eq!(stored[0], created[0].json()["project"], "round {round}");
        for r in &runs {
            assert_eq!(
                r.json()["project"],
                stored[0],
                "round {round}: all see one project"
            );
        }
    }
}

/// Regression (failed at 059f2bc): init's exists-then-rename replaced a projects.ndjson that a
/// racing init had already written to, losing its project.
#[test]
fn racing_inits_of_different_projects_keep_them_all() {
    for round in 0..10 {
        let env = Env::empty();
        let cmds: Vec<Vec<String>> = (0..4)
            .map(|k| {
                ["init", "--project", &format!("p{k}"), "--json"]
                    .map(String::from)
                    .into()
            })
            .collect();
        let runs = spawn_all(&env, &cmds);
        for r in &runs {
            assert_eq!(r.code, 0, "round {round}: {r:?}");
            assert_eq!(r.json()["project_created"], true, "round {round}: {r:?}");
        }
        let ids: BTreeSet<String> = project_records(&env)
            .iter()
            .map(|p| p["project_id"].as_str().unwrap().to_string())
            .collect();
        let expected: BTreeSet<String> = (0..4).map(|k| format!("p{k}")).collect();
        assert_eq!(
            ids, expected,
            "round {round}: every project init reported is stored"
        );
        assert_eq!(project_records(&env).len(), 4, "round {round}");
    }
}
