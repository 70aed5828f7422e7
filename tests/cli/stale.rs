//! Stale deliverables: a read flags a package's files that changed or are gone since the
//! deposit (`may be stale:` on cards, `x-stale` beside the package under `--json`), and never
//! alters the package.

use serde_json::{Value, json};

use crate::harness::{Env, read, snapshot};

/// `x-stale` of every line a `--json` read prints.
fn x_stale(env: &Env, args: &[&str]) -> Vec<Value> {
    let mut all = args.to_vec();
    all.push("--json");
    let r = env.run(&all);
    assert_eq!(r.code, 0, "relay {all:?}: {}", r.stderr);
    r.json_lines()
        .iter()
        .map(|l| l["x-stale"].clone())
        .collect()
}

/// The member names of a JSON object, in order.
fn members(line: &Value) -> Vec<&str> {
    line.as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect()
}

/// A package with the file deliverable `a.md` and a URL; returns its id.
fn deposit_with_files(env: &Env) -> String {
    std::fs::write(env.path("a.md"), "the original\n").unwrap();
    env.deposit(
        "Wrote the notes",
        &[
            "--deliverable",
            "a.md",
            "--deliverable",
            "https://example.com/spec",
        ],
    )
}

/// Every read that prints the package, `--json`, and what each says of it.
fn every_read(env: &Env, id: &str) -> Vec<Vec<Value>> {
    [
        vec!["pull"],
        vec!["pull", id],
        vec!["pull", "--relevant", "notes"],
        vec!["search", "notes"],
    ]
    .iter()
    .map(|args| x_stale(env, args))
    .collect()
}

#[test]
fn changed_missing_and_restored_files_are_flagged_in_every_read() {
    let env = Env::new();
    let id = deposit_with_files(&env);
    let stored = read(&env.package_lines_file());
    assert_eq!(every_read(&env, &id), vec![vec![json!([])]; 4]);

    std::fs::write(env.path("a.md"), "edited since\n").unwrap();
    let changed = json!([{"path": "a.md", "reason": "changed"}]);
    assert_eq!(every_read(&env, &id), vec![vec![changed]; 4]);
    // The card lists the deliverables and then "! may be stale: a.md changed"; so do the
    // search result and the latest listing.
    snapshot!("card_changed", env.ok(&["pull", &id]));
    snapshot!("search_changed", env.ok(&["search", "notes"]));
    snapshot!("latest_changed", env.ok(&["pull"]));

    std::fs::remove_file(env.path("a.md")).unwrap();
    let missing = json!([{"path": "a.md", "reason": "missing"}]);
    assert_eq!(every_read(&env, &id), vec![vec![missing]; 4]);
    snapshot!("latest_missing", env.ok(&["pull"]));

    std::fs::write(env.path("a.md"), "the original\n").unwrap();
    assert_eq!(every_read(&env, &id), vec![vec![json!([])]; 4]);
    assert!(!env.ok(&["pull"]).contains("stale"));
    // Nothing was written to the logs.
    assert_eq!(read(&env.package_lines_file()), stored);
}

#[test]
fn json_reads_print_the_package_as_stored_in_an_envelope() {
    let env = Env::new();
    let id = deposit_with_files(&env);
    let stored: Value = serde_json::from_str(read(&env.package_lines_file()).trim()).unwrap();
    let line = format!(
        "{{\"package\":{},\"x-stale\":[]}}\n",
        serde_json::to_string(&stored["package"]).unwrap()
    );
    assert_eq!(env.ok(&["pull", "--json"]), line);
    // One package by id: the verdict on its signature besides.
    let unsigned = "\"x-signature\":{\"verdict\":\"unsigned\",\"fails\":false}}";
    let one = line.replace("\"x-stale\":[]}", &format!("\"x-stale\":[],{unsigned}"));
    assert_eq!(env.ok(&["pull", &id, "--json"]), one);
    let result = env.run(&["search", "notes", "--json"]).json();
    assert_eq!(members(&result), ["package", "score", "matched", "x-stale"]);
    assert_eq!(result["package"], stored["package"]);
    // History prints version envelopes, unchanged.
    let history = env.run(&["pull", &id, "--history", "--json"]).json();
    assert!(history.get("x-stale").is_none(), "{history}");
}

#[test]
fn paths_are_relative_to_the_folder_holding_the_store_wherever_relay_runs() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("sub")).unwrap();
    std::fs::write(env.path("sub/b.rs"), "fn b() {}\n").unwrap();
    let mut c = env.command(&["deposit", "--title", "B", "--deliverable", "b.rs"]);
    assert!(c.current_dir(env.path("sub")).status().unwrap().success());
    std::fs::write(env.path("sub/b.rs"), "fn b() { changed() }\n").unwrap();
    let changed = json!([{"path": "sub/b.rs", "reason": "changed"}]);
    let from_sub = env
        .command(&["pull", "--json"])
        .current_dir(env.path("sub"))
        .output()
        .unwrap();
    let line: Value = serde_json::from_slice(&from_sub.stdout).unwrap();
    assert_eq!(line["x-stale"], changed);
    // From a folder outside the project, through --store.
    let store = env.store();
    let elsewhere = env
        .command(&["pull", "--json", "--store", store.to_str().unwrap()])
        .current_dir(env.path(".."))
        .output()
        .unwrap();
    let line: Value = serde_json::from_slice(&elsewhere.stdout).unwrap();
    assert_eq!(
        line["x-stale"],
        changed,
        "{}",
        String::from_utf8_lossy(&elsewhere.stderr)
    );
}

#[test]
fn a_second_read_keeps_the_hash_cache_and_a_deleted_cache_changes_no_answer() {
    let env = Env::new();
    deposit_with_files(&env);
    std::fs::write(env.path("a.md"), "edited since\n").unwrap();
    let changed = vec![json!([{"path": "a.md", "reason": "changed"}])];
    assert_eq!(x_stale(&env, &["pull"]), changed);
    std::fs::remove_dir_all(env.store().join("cache")).unwrap();
    assert_eq!(x_stale(&env, &["pull"]), changed);
    std::fs::create_dir_all(env.store().join("cache/file-hashes-v1")).unwrap();
    std::fs::write(env.store().join("cache/file-hashes-v1/hashes.json"), "{").unwrap();
    assert_eq!(x_stale(&env, &["pull"]), changed);
    let rewritten = read(&env.store().join("cache/file-hashes-v1/hashes.json"));
    assert!(rewritten.starts_with("{\"format\":1"), "{rewritten}");
}

#[test]
fn lesson_list_and_checkpoint_show_print_envelopes() {
    let env = Env::new();
    env.ok(&["lesson", "add", "Lock timeouts", "--content", "always"]);
    env.ok(&["checkpoint", "--working-on", "the tests"]);
    for args in [&["lesson", "list"][..], &["checkpoint", "show"][..]] {
        let mut all = args.to_vec();
        all.push("--json");
        let line = env.run(&all).json();
        assert_eq!(members(&line), ["package", "x-stale"], "{args:?}");
        assert_eq!(line["x-stale"], json!([]));
    }
}

#[test]
fn orient_marks_stale_packages_and_says_what_git_has_not_seen() {
    let env = Env::new();
    let git = |args: &[&str]| {
        let mut all = vec!["-c", "user.name=Ada", "-c", "user.email=ada@example.com"];
        all.extend(["-c", "init.defaultBranch=main"]);
        all.extend_from_slice(args);
        let out = env
            .program("git", &all)
            .current_dir(&env.dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "-q"]);
    let id = deposit_with_files(&env);
    let md = env.ok(&["orient"]);
    assert!(!md.contains("may be stale"), "{md}");
    assert!(
        md.contains("\nNot committed yet: "),
        "the store's new lines are not committed: {md}"
    );
    std::fs::write(env.path("a.md"), "rewritten since\n").unwrap();
    let md = env.ok(&["orient"]);
    assert!(
        md.contains(&format!("`{id}`\n  - ⚠ may be stale: a.md changed\n"))
            || md.contains(&format!("`{id}` ⚠ may be stale: a.md changed\n")),
        "{md}"
    );
    // "Not committed yet: …" in the header, the mark under the package.
    snapshot!("orient_stale_uncommitted", md);
    let bundle = env.ok_json(&["orient"]);
    assert_eq!(
        bundle["x-stale"],
        json!({ id.clone(): [{"path": "a.md", "reason": "changed"}] })
    );
    // Within a budget the mark is counted like the rest, and kept with its package.
    let fitted = env.ok(&["orient", "--max-chars", "900", "--json"]);
    assert!(fitted.trim_end().chars().count() <= 900);
    let fitted: Value = serde_json::from_str(&fitted).unwrap();
    let shown = fitted["recent_packages"].as_array().unwrap().len();
    assert_eq!(fitted["x-stale"].as_object().unwrap().len(), shown.min(1));
    // Once everything is committed, the header says nothing of git; a snapshot read never
    // marks files (they say nothing of the store as it stood).
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "all"]);
    let md = env.ok(&["orient"]);
    assert!(!md.contains("Not committed yet"), "{md}");
    let then = bundle["generated_at"].as_str().unwrap();
    assert_eq!(
        env.ok_json(&["orient", "--as-of", then])["x-stale"],
        json!({})
    );
    for args in [
        vec!["pull", id.as_str(), "--as-of", then],
        vec!["search", "notes", "--as-of", then],
    ] {
        assert_eq!(env.ok_json(&args)["x-stale"], json!([]), "{args:?}");
    }
    assert_eq!(
        env.ok_json(&["pull", id.as_str()])["x-stale"],
        json!([{"path": "a.md", "reason": "changed"}]),
        "now, it is flagged"
    );
}

/// Issue 36: no file oracle. A deposit over HTTP with a token names files of the work tree
/// that git shares, or URLs: a path into the store, git's folder, outside the tree (absolute,
/// `..`, a symlink that leads out) or a file git ignores is refused with 400 and nothing is
/// written. And whatever the store holds (here a package a local writer made, as a merged
/// clone brings one), orient's `x-stale` over HTTP says nothing of such a file, whether the
/// guessed hash is right or wrong and whether the file exists.
#[cfg(unix)]
#[test]
fn deliverables_over_http_stay_in_the_work_tree_and_x_stale_is_no_file_oracle() {
    use crate::serve::{Served, curl, logs, whole_package};
    let env = Env::new();
    crate::git::git(&env.dir, &["init", "-q"]);
    std::fs::write(env.path(".gitignore"), ".env\n").unwrap();
    std::fs::write(env.path(".env"), "API_KEY=abc\n").unwrap();
    std::fs::write(env.path("notes.md"), "the notes\n").unwrap();
    let outside = env.dir.parent().unwrap().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "s3cret\n").unwrap();
    std::os::unix::fs::symlink(&outside, env.path("out")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), env.path("secret.md")).unwrap();
    std::os::unix::fs::symlink(env.store(), env.path("store-link")).unwrap();
    let token = env.ok(&["token", "create", "--actor", "agent", "-q"]);
    let auth = format!("Authorization: Bearer {}", token.trim());
    let tokens = read(&env.store().join("local/tokens.ndjson"));
    let server = Served::start(&env, &[]);
    let sha = |text: &str| {
        use sha2::{Digest, Sha256};
        let hex: String = Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("sha256:{hex}")
    };
    let deposit = |title: &str, path: &str, guess: &str| {
        let body = whole_package(
            "demo",
            json!({"id": "agent", "type": "agent"}),
            json!({"title": title, "deliverables": [
                {"path": path, "type": "file", "hash": sha(guess)}]}),
        );
        curl(
            &env,
            &[
                "-X",
                "POST",
                "-H",
                "Content-Type: application/json",
                "-H",
                &auth,
                "-d",
                &body.to_string(),
                &server.at("/v1/projects/demo/packages"),
            ],
        )
    };
    let hostile = [
        (".relay/local/tokens.ndjson", tokens.as_str()),
        ("./.relay/config.toml", ""),
        ("store-link/local/tokens.ndjson", tokens.as_str()),
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("/etc/hostname", ""),
        ("../outside/secret.txt", "s3cret\n"),
        ("out/secret.txt", "s3cret\n"),
        ("out/absent.txt", ""),
        ("secret.md", "s3cret\n"),
        (".env", "API_KEY=abc\n"),
    ];
    let before = logs(&env);
    for (path, guess) in hostile {
        let (status, answer) = deposit("Probe", path, guess);
        assert_eq!(
            (status, answer["error"].as_str()),
            (400, Some("invalid_input")),
            "{path}: {answer}"
        );
        let message = answer["message"].as_str().unwrap();
        assert!(message.starts_with("deliverables[0].path `"), "{message}");
        assert!(message.contains("a file of the work tree"), "{message}");
    }
    assert!(logs(&env) == before, "a refused deposit wrote nothing");
    // A link out says the same whether its target exists or not.
    let said = |path: &str| deposit("Probe", path, "x").1["message"].clone();
    assert_eq!(
        said("out/secret.txt")
            .to_string()
            .replace("secret.txt", "?"),
        said("out/absent.txt")
            .to_string()
            .replace("absent.txt", "?")
    );
    // A file of the tree, and a URL, are deposited over HTTP as before.
    let (status, ok) = deposit("Notes", "notes.md", "the notes\n");
    assert_eq!(status, 201, "{ok}");
    let url = whole_package(
        "demo",
        json!({"id": "agent", "type": "agent"}),
        json!({"title": "Spec", "deliverables": [{"path": "https://example.com/s", "type": "url"}]}),
    );
    let (status, _) = curl(
        &env,
        &[
            "-X",
            "POST",
            "-H",
            "Content-Type: application/json",
            "-H",
            &auth,
            "-d",
            &url.to_string(),
            &server.at("/v1/projects/demo/packages"),
        ],
    );
    assert_eq!(status, 201);

    // Packages the store holds anyway (written here by a local writer, or a merged clone):
    // right and wrong guesses alike, present or absent, orient marks none of them, a file git
    // ignores (`.env`) included; the tree's own file is marked once it changes.
    for (path, guess) in hostile.iter() {
        for g in [guess, "wrong"] {
            let package = json!({"title": format!("Held {path}"), "deliverables": [
                {"path": path, "type": "file", "hash": sha(g)}]});
            env.deposit_from(&package);
        }
    }
    std::fs::write(env.path("notes.md"), "the notes, changed\n").unwrap();
    let (status, bundle) = curl(
        &env,
        &[
            "-H",
            &auth,
            &server.at("/v1/projects/demo/orient?limit=100"),
        ],
    );
    assert_eq!(status, 200, "{bundle}");
    let marks = bundle["x-stale"].as_object().unwrap();
    let marked: Vec<&str> = marks
        .values()
        .flat_map(|v| v.as_array().unwrap())
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(marked, ["notes.md"], "{bundle}");
}
