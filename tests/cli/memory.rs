//! Agent memory: `relay lesson`, `relay checkpoint`, `relay snippet`, their checks in deposit
//! and verify, and orient's "Lessons" and "Where each agent stands".

use serde_json::{Value, json};

use crate::harness::{Env, json_snapshot, read, snapshot};

/// Every package line of project `demo`, to prove a refused command wrote nothing.
fn log_bytes(env: &Env) -> Vec<String> {
    env.package_lines("demo")
}

fn days_ago(n: i64) -> String {
    (chrono::Utc::now() - chrono::TimeDelta::days(n))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn titles(lines: &[Value]) -> Vec<&str> {
    lines.iter().map(|p| p["title"].as_str().unwrap()).collect()
}

#[test]
fn lessons_are_listed_most_severe_first_then_newest() {
    let env = Env::new();
    let add = |title: &str, severity: &str| {
        env.ok_json(&[
            "lesson",
            "add",
            title,
            "--content",
            "the lesson",
            "--severity",
            severity,
            "--tag",
            "db",
        ])
    };
    let first = add("Old warning", "warning");
    assert_eq!(
        first.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["package", "hash"],
        "the deposit envelope"
    );
    add("An info", "info");
    add("New warning", "warning");
    let critical = add("A critical", "critical");
    let p = &critical["package"];
    assert_eq!(
        (
            &p["package_type"],
            &p["x-severity"],
            &p["description"],
            &p["tags"],
            &p["significance"]
        ),
        (
            &json!("x-lesson"),
            &json!("critical"),
            &json!("the lesson"),
            &json!(["db"]),
            &json!(9)
        )
    );
    let listed = env.run(&["lesson", "list", "--json"]).packages();
    assert_eq!(
        titles(&listed),
        ["A critical", "New warning", "Old warning", "An info"]
    );
    assert_eq!(
        listed[0], *p,
        "the package as stored in each line's envelope"
    );
    // The lesson ids kept under cache/ are disposable: the same answer without them.
    std::fs::remove_dir_all(env.store().join("cache")).unwrap();
    assert_eq!(env.run(&["lesson", "list", "--json"]).packages(), listed);
    json_snapshot!("lesson_add_json", &critical);
    snapshot!("lesson_list", env.ok(&["lesson", "list"]));
    let id = p["package_id"].as_str().unwrap();
    let human = env.ok(&["lesson", "list", "--limit", "2"]);
    let first_line = human.lines().next().unwrap();
    assert_eq!(first_line, format!("[critical] A critical ({id})"));
    assert_eq!(human.lines().count(), 2);
    let warnings = env.run(&["lesson", "list", "--severity", "warning", "--json"]);
    assert_eq!(titles(&warnings.packages()), ["New warning", "Old warning"]);
    // The content can come from stdin.
    let r = env.run_stdin(
        &["lesson", "add", "From stdin", "--content", "-", "--json"],
        b"piped lesson",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["package"]["description"], "piped lesson");
}

#[test]
fn bad_lessons_and_checkpoints_are_refused_and_write_nothing() {
    let env = Env::new();
    env.ok(&["lesson", "add", "Kept", "--content", "c"]);
    let before = log_bytes(&env);
    // Each refusal says what was wrong: the severity and its choices, the empty title or
    // content, the missing flag (--content, --working-on), the flag and its choices.
    let cases: &[(&[&str], i32)] = &[
        (
            &[
                "lesson",
                "add",
                "T",
                "--content",
                "c",
                "--severity",
                "urgent",
            ],
            4,
        ),
        (&["lesson", "add", " ", "--content", "c"], 4),
        (&["lesson", "add", "T", "--content", ""], 4),
        (&["lesson", "add", "T"], 4),
        (&["lesson", "list", "--severity", "urgent"], 4),
        (&["checkpoint", "--working-on", "x", "--flag", "done"], 4),
        (&["checkpoint"], 4),
        (&["checkpoint", "--working-on", "  "], 4),
    ];
    let mut refusals = Vec::new();
    for (args, code) in cases {
        let r = env.run(args);
        assert_eq!(r.code, *code, "{args:?}: {}", r.stderr);
        assert_eq!(log_bytes(&env), before, "{args:?} wrote something");
        refusals.push(format!("$ relay {args:?}\n{}", r.transcript()));
    }
    snapshot!("refusals", refusals.join("\n"));
    // A memory type deposited by hand is checked as verify checks it.
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        json!({"title": "t", "package_type": "x-lesson", "x-severity": "urgent"})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert_eq!(r.error()["error"], "invalid_input");
    assert_eq!(log_bytes(&env), before);
}

#[test]
fn checkpoints_record_where_each_actor_stands_and_show_gives_the_latest() {
    let env = Env::new();
    let record = |actor: &str, args: &[&str]| {
        let mut all = vec!["checkpoint", "--actor", actor];
        all.extend_from_slice(args);
        env.ok_json(&all)["package"].clone()
    };
    let first = record("alice", &["--working-on", "the parser"]);
    assert_eq!(
        (&first["x-flag"], &first["x-blockers"], &first["title"]),
        (
            &json!("IN_PROGRESS"),
            &json!([]),
            &json!("Checkpoint: the parser")
        )
    );
    record("bob", &["--working-on", "the docs", "--flag", "idle"]);
    let latest = record(
        "alice",
        &[
            "--working-on",
            "the deploy",
            "--blocker",
            "no staging credentials",
            "--decision",
            "blue-green",
            "--artifact",
            "deploy.sh",
        ],
    );
    assert_eq!(
        (
            &latest["x-flag"],
            &latest["x-working-on"],
            &latest["x-blockers"],
            &latest["x-artifacts"],
            &latest["decisions_made"],
            &latest["package_type"]
        ),
        (
            &json!("BLOCKED"),
            &json!("the deploy"),
            &json!(["no staging credentials"]),
            &json!(["deploy.sh"]),
            &json!(["blue-green"]),
            &json!("x-checkpoint")
        )
    );
    let shown = env.run(&["checkpoint", "show", "--json"]).packages();
    let who: Vec<(&str, &str)> = shown
        .iter()
        .map(|p| {
            (
                p["created_by"]["id"].as_str().unwrap(),
                p["x-working-on"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(who, [("alice", "the deploy"), ("bob", "the docs")]);
    snapshot!("checkpoint_show", env.ok(&["checkpoint", "show"]));
    json_snapshot!("checkpoint_json", &latest);
    let alice = env.ok(&["checkpoint", "show", "alice"]);
    let lines: Vec<&str> = alice.lines().collect();
    assert!(
        lines[0].starts_with("alice [BLOCKED] the deploy (")
            && lines[0].ends_with(latest["package_id"].as_str().unwrap()),
        "{alice}"
    );
    assert_eq!(
        lines[1..],
        [
            "  - Blocker: no staging credentials",
            "  - Decided: blue-green"
        ]
    );
}

fn snippet(env: &Env, args: &[&str]) -> Value {
    let mut all = vec!["snippet", "add"];
    all.extend_from_slice(args);
    env.ok_json(&all)["package"].clone()
}

#[test]
fn snippets_keep_lines_of_a_file_and_refuse_what_is_not_text_inside_the_tree() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("src")).unwrap();
    std::fs::write(env.path("src/lib.rs"), "fn a() {}\nfn b() {}\nfn c() {}\n").unwrap();
    let s = snippet(&env, &["src/lib.rs:2-3", "--note", "the middle"]);
    assert_eq!(
        (
            &s["package_type"],
            &s["title"],
            &s["content_md"],
            &s["x-path"],
            &s["x-start-line"],
            &s["x-end-line"],
            &s["x-language"],
            &s["description"]
        ),
        (
            &json!("x-snippet"),
            &json!("src/lib.rs:2-3"),
            &json!("fn b() {}\nfn c() {}\n"),
            &json!("src/lib.rs"),
            &json!(2),
            &json!(3),
            &json!("rust"),
            &json!("the middle")
        )
    );
    assert!(s.get("x-git-blob").is_none(), "no git here: {s}");
    json_snapshot!("snippet_json", &s);
    let whole = snippet(&env, &["src/lib.rs", "--language", "Rust 2024"]);
    assert_eq!(
        (
            &whole["x-start-line"],
            &whole["x-end-line"],
            &whole["x-language"]
        ),
        (&json!(1), &json!(3), &json!("Rust 2024"))
    );

    let before = log_bytes(&env);
    let outside = env.dir.parent().unwrap().join("outside.txt");
    std::fs::write(&outside, "secret\n").unwrap();
    std::fs::write(env.path("blob.bin"), b"\x89PNG\0\0").unwrap();
    std::fs::write(env.path("latin1.txt"), b"caf\xe9\n").unwrap();
    let outside_abs = outside.to_string_lossy().to_string();
    // Each says why: outside the working folder, a binary file, lines beyond the file's end,
    // no such file.
    let mut refusals = Vec::new();
    for file in [
        "../outside.txt",
        outside_abs.as_str(),
        "blob.bin",
        "latin1.txt",
        "src/lib.rs:2-9",
        "missing.rs",
    ] {
        let r = env.run(&["snippet", "add", file]);
        assert_eq!(r.code, 4, "{file}: {}", r.stderr);
        refusals.push(r.transcript());
    }
    snapshot!("snippet_refusals", refusals.join("\n"));
    assert_eq!(log_bytes(&env), before, "a refused snippet wrote something");
}

#[test]
fn a_snippet_in_a_git_work_tree_records_its_blob_and_repository_path() {
    let env = Env::new();
    let git = |args: &[&str]| env.program("git", args).output();
    if git(&["init", "-q"]).is_err() {
        eprintln!("SKIPPED a_snippet_in_a_git_work_tree_records_its_blob: git is not installed");
        return;
    }
    std::fs::create_dir_all(env.path("pkg/sub")).unwrap();
    std::fs::write(env.path("pkg/sub/run.py"), "print(1)\nprint(2)\n").unwrap();
    let blob = git(&["hash-object", "pkg/sub/run.py"]).unwrap();
    let blob = String::from_utf8(blob.stdout).unwrap().trim().to_string();
    let mut c = env.command(&["snippet", "add", "run.py:1-1", "--json"]);
    let out = c.current_dir(env.path("pkg/sub")).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &s["package"];
    assert_eq!(
        (
            &s["x-path"],
            &s["x-git-blob"],
            &s["content_md"],
            &s["x-language"]
        ),
        (
            &json!("pkg/sub/run.py"),
            &json!(blob),
            &json!("print(1)\n"),
            &json!("python")
        )
    );
}

#[test]
fn verify_flags_a_memory_member_written_by_hand() {
    let env = Env::new();
    env.ok(&[
        "lesson",
        "add",
        "Fine",
        "--content",
        "c",
        "--severity",
        "warning",
    ]);
    assert_eq!(env.ok(&["verify"]), "The store is sound.\n");
    let log = env.package_lines_file();
    let line: Value = serde_json::from_str(read(&log).lines().next().unwrap()).unwrap();
    let mut package = line["package"].clone();
    package["package_id"] = json!("pkg_0123456789abcdef0123456789abcdef");
    package["x-severity"] = json!("urgent");
    let hash = relay::wire::canonical::content_hash(&package);
    let bad = json!({"package": package, "hash": hash}).to_string();
    std::fs::write(&log, format!("{}{bad}\n", read(&log))).unwrap();
    let r = env.run(&["verify", "--json"]);
    assert_eq!(r.code, 5, "{}", r.stdout);
    let found = r.json_lines();
    assert_eq!(
        (&found[0]["kind"], &found[0]["line"], &found[0]["severity"]),
        (&json!("invalid_record"), &json!(2), &json!("error"))
    );
    assert_eq!(
        found[0]["message"],
        "package pkg_0123456789abcdef0123456789abcdef: `x-severity` `urgent` is not one of info, warning, critical"
    );
    // Another implementation sees an ordinary package: pull returns it as stored.
    let pulled = env.ok_json(&["pull", "pkg_0123456789abcdef0123456789abcdef"])["package"].clone();
    assert_eq!(pulled["x-severity"], "urgent");
}

/// The lines of one `## ` section of a Markdown briefing, without its heading and blank lines.
fn section<'a>(markdown: &'a str, heading: &str) -> Vec<&'a str> {
    let start = markdown
        .find(&format!("## {heading}\n"))
        .unwrap_or_else(|| panic!("no section {heading}:\n{markdown}"));
    markdown[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The `relay …` lines of the onboard block's code blocks that start with `prefix`, as words.
fn block_command(prefix: &str) -> Vec<String> {
    let line = relay::cli::cmd::onboard::BLOCK
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("the onboard block shows no `{prefix}`"));
    // The block's examples quote with double quotes and hold no escaped ones.
    line.split('"')
        .enumerate()
        .flat_map(|(i, part)| match i % 2 {
            1 => vec![part.to_string()],
            _ => part.split_whitespace().map(str::to_string).collect(),
        })
        .skip(1)
        .collect()
}

#[test]
fn an_agent_following_onboard_finds_its_lessons_and_checkpoints_in_the_next_orient() {
    let env = Env::new();
    // An old critical lesson still matters; an old checkpoint is out of the window.
    let old = |v: Value| {
        let r = env.run_stdin(&["deposit", "--from", "-"], v.to_string().as_bytes());
        assert_eq!(r.code, 0, "{}", r.stderr);
    };
    old(
        json!({"title": "Never force-push main", "package_type": "x-lesson",
        "description": "CI deploys from it", "x-severity": "warning", "created_at": days_ago(400)}),
    );
    old(
        json!({"title": "Checkpoint: ancient", "package_type": "x-checkpoint",
        "x-working-on": "ancient", "x-flag": "IDLE", "created_at": days_ago(40),
        "created_by": {"id": "old-agent", "type": "agent"}}),
    );
    env.ok(&["lesson", "add", "Trivia", "--content", "not briefed"]);

    let agent = [("RELAY_ACTOR", "claude"), ("RELAY_ACTOR_TYPE", "agent")];
    for prefix in ["relay lesson add", "relay checkpoint --working-on"] {
        let args = block_command(prefix);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = env.run_env(&args, &agent);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    }
    let lesson = env.ok_json(&["lesson", "list", "--severity", "critical"])["package"].clone();
    let id = lesson["package_id"].as_str().unwrap();
    let old_id = env
        .run(&["lesson", "list", "--severity", "warning", "--json"])
        .json()["package"]["package_id"]
        .as_str()
        .unwrap()
        .to_string();

    let md = env.ok(&["orient"]);
    assert_eq!(
        section(&md, "Lessons"),
        [
            format!(
                "- [critical] **Migrations need a lock timeout**: Run migrations with --lock-timeout 5s or they block writes `{id}`"
            ),
            format!("- [warning] **Never force-push main**: CI deploys from it `{old_id}`"),
        ]
    );
    let stands = section(&md, "Where each agent stands");
    assert_eq!(stands.len(), 2, "{md}");
    assert!(
        stands[0].starts_with("- **claude** [BLOCKED] Moving sessions to Redis ("),
        "{md}"
    );
    assert_eq!(stands[1], "  - Blocked by: No staging credentials");
    // Checkpoints and the briefed lessons are not repeated in the activity by day.
    let activity = section(&md, "Recent activity").join("\n");
    assert!(!activity.contains("x-checkpoint"), "{md}");
    assert!(
        activity.contains("1 x-lesson"),
        "the info lesson is counted: {md}"
    );

    let bundle = env.ok_json(&["orient"]);
    assert_eq!(titles(bundle["x-lessons"].as_array().unwrap()).len(), 2);
    assert_eq!(
        bundle["x-checkpoints"][0]["x-working-on"],
        "Moving sessions to Redis"
    );
    assert_eq!(bundle["x-checkpoints"].as_array().unwrap().len(), 1);
}

#[test]
fn orient_counts_lessons_beyond_the_first_few_and_trims_them_last() {
    let env = Env::new();
    for i in 0..13 {
        env.ok(&[
            "lesson",
            "add",
            &format!("Lesson {i:02}"),
            "--content",
            "c",
            "--severity",
            "warning",
        ]);
    }
    let md = env.ok(&["orient"]);
    let lessons = section(&md, "Lessons");
    assert_eq!(lessons.len(), 11, "{md}");
    assert!(lessons[0].starts_with("- [warning] **Lesson 12**"), "{md}");
    assert_eq!(lessons[10], "- …and 3 more: relay lesson list");
    let short = env.ok(&["orient", "--max-chars", "900"]);
    assert!(short.chars().count() <= 900, "{short}");
    assert!(section(&short, "Lessons").len() >= 2, "{short}");
}
