//! Secrets never reach the store unasked: reject (default), redact, off; `relay scan`; the
//! pre-commit check.

use serde_json::{Value, json};

use crate::harness::{Env, read, snapshot};

const AWS: &str = "AKIAIOSFODNN7EXAMPLE";

#[test]
fn a_credential_is_refused_by_default_naming_field_and_rule_but_never_the_secret() {
    let env = Env::new();
    let handoff = format!("deploy with {AWS} please");
    let r = env.run(&["deposit", "--title", "t", "--handoff", &handoff, "--json"]);
    assert_eq!(r.code, 4);
    let e = r.error();
    assert_eq!(e["error"], "secret_detected");
    let msg = e["message"].as_str().unwrap();
    assert!(!msg.contains(AWS), "the secret is never echoed");
    assert!(!r.stderr.contains(AWS));
    // Each refusal names the field (`handoff_note`, `decisions_made[0]`, `x-deep.k[0]`, the line
    // stdin:1) and the rule (aws-access-key-id) with a preview (AKIA…), never the secret.
    let mut refusals = vec![r.transcript()];
    refusals.push(
        env.run(&["deposit", "--title", "t", "--handoff", &handoff])
            .transcript(),
    );
    assert!(env.package_lines("demo").is_empty());
    let r = env.run(&[
        "deposit",
        "--title",
        "t",
        "--decision",
        "password=Zx9#qL2!vR7p",
        "--json",
    ]);
    refusals.push(r.transcript());
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        format!("{{\"title\": \"t\", \"x-deep\": {{\"k\": [\"{AWS}\"]}}}}").as_bytes(),
    );
    refusals.push(r.transcript());
    let r = env.run(&["facts", "assert", "aws", "key", AWS, "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (4, Some("secret_detected"))
    );
    refusals.push(r.transcript());
    let r = env.run(&[
        "session",
        "start",
        "--callsign",
        &format!("x-{AWS}"),
        "--json",
    ]);
    assert_eq!(r.code, 4);
    let r = env.run_stdin(&["import", "-", "--json"], format!("{{\"fact_id\": \"fact_1\", \"project_id\": \"demo\", \"subject\": \"s\", \"predicate\": \"p\", \"value\": \"{AWS}\", \"valid_from\": \"2026-01-01T00:00:00Z\", \"created_at\": \"2026-01-01T00:00:00Z\"}}\n").as_bytes());
    assert_eq!(r.code, 4);
    refusals.push(r.transcript());
    assert!(refusals.iter().all(|r| !r.contains(AWS)));
    snapshot!("refusals", refusals.join("\n"));
    assert!(!env.store().join("projects/demo/facts.ndjson").exists());
}

#[test]
fn redact_and_off_by_flag_or_config() {
    let env = Env::new();
    let v = env.ok_json(&[
        "deposit",
        "--title",
        "t",
        "--handoff",
        &format!("use {AWS}"),
        "--redact-secrets",
    ]);
    assert_eq!(
        v["package"]["handoff_note"],
        "use <REDACTED:aws-access-key-id>"
    );
    // The hash covers what is stored.
    let stored: Value = serde_json::from_str(&env.package_lines("demo")[0]).unwrap();
    assert_eq!(stored, v);
    assert!(!read(&env.package_lines_file()).contains(AWS));
    let v = env.ok_json(&[
        "deposit",
        "--title",
        "t2",
        "--handoff",
        &format!("use {AWS}"),
        "--allow-secrets",
    ]);
    assert_eq!(v["package"]["handoff_note"], format!("use {AWS}"));
    let config = env.store().join("config.toml");
    std::fs::write(
        &config,
        read(&config).replace("secrets = \"reject\"", "secrets = \"redact\""),
    )
    .unwrap();
    let f = env.ok_json(&["facts", "assert", "k", "v", &format!("token={AWS}")])["fact"].clone();
    assert_eq!(f["value"], "token=<REDACTED:aws-access-key-id>");
    std::fs::write(
        &config,
        read(&config).replace("secrets = \"redact\"", "secrets = \"maybe\""),
    )
    .unwrap();
    let r = env.run(&["pull", "--json"]);
    assert_eq!(
        r.code, 5,
        "an unknown policy is an error, never a silent off: {}",
        r.stderr
    );
}

#[test]
fn ordinary_identifiers_and_prose_pass() {
    let env = Env::new();
    let texts = [
        "sha256:0efe5d06aaaaf2dc735b3f9ce7cfc1a0f7cd715491ab61d991f57be1d4c0db33",
        "fixed in 9fceb02d0ae598e95dc970b74767f19372d61af8",
        "request 123e4567-e89b-12d3-a456-426614174000",
        "see pkg_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d and sess_0123456789abcdef0123456789abcdef",
        "VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==",
        "The password reset flow now rotates the session token; secrets live in the vault.",
    ];
    for t in texts {
        env.ok(&["deposit", "--title", "ok", "--description", t]);
    }
    assert_eq!(env.package_lines("demo").len(), texts.len());
}

#[test]
fn scan_audits_every_line_without_echoing() {
    let env = Env::new();
    env.ok(&["deposit", "--title", "clean"]);
    assert!(env.ok(&["scan"]).starts_with("No credentials found"));
    snapshot!("scan_clean", env.run(&["scan"]).transcript());
    env.ok(&[
        "deposit",
        "--title",
        "leaky",
        "--description",
        &format!("key {AWS}"),
        "--allow-secrets",
    ]);
    let r = env.run(&["scan", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (4, Some("secret_detected"))
    );
    let found = r.json_lines();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["rule"], "aws-access-key-id");
    assert_eq!(found[0]["field"], "package.description");
    assert_eq!(found[0]["line"], 2);
    let human = env.run(&["scan"]);
    assert!(!human.stdout.contains(AWS) && !human.stderr.contains(AWS));
    // ":2: aws-access-key-id in `package.description`"
    snapshot!("scan_found", human.transcript());
    snapshot!("scan_found_json", r.transcript());
}

#[test]
fn the_pre_commit_check_blocks_staged_secrets() {
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_err()
    {
        return;
    }
    let env = Env::new();
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(["-c", "user.name=A", "-c", "user.email=a@example.com"])
            .args(args)
            .current_dir(&env.dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", &env.dir)
            .output()
            .unwrap()
    };
    assert!(git(&["init", "-q"]).status.success());
    env.ok(&["hook", "install", "--git"]);
    env.ok(&["deposit", "--title", "clean"]);
    git(&["add", "-A"]);
    let ok = git(&["commit", "-q", "-m", "clean"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    env.ok(&[
        "deposit",
        "--title",
        "leaky",
        "--handoff",
        AWS,
        "--allow-secrets",
    ]);
    git(&["add", ".relay"]);
    let blocked = git(&["commit", "-q", "-m", "leak"]);
    assert!(!blocked.status.success(), "the commit is blocked");
    let stderr = String::from_utf8_lossy(&blocked.stderr);
    assert!(
        stderr.contains("commit blocked") && !stderr.contains(AWS),
        "{stderr}"
    );
    // git shows a hook's output on stderr.
    assert!(stderr.contains("aws-access-key-id"), "{stderr}");
    let _ = json!({});
}

#[test]
fn hostile_sizes_get_clear_errors_and_write_nothing() {
    let env = Env::new();
    let huge = format!(
        "{{\"title\": \"t\", \"description\": \"{}\"}}",
        "x".repeat(3 << 20)
    );
    // Each error names the limit it passed (max_line_bytes, max_package_bytes, max_depth,
    // max_array_len).
    let mut limits = Vec::new();
    let r = env.run_stdin(&["deposit", "--from", "-", "--json"], huge.as_bytes());
    assert_eq!(r.code, 4);
    limits.push(r.transcript()); // max_line_bytes
    std::fs::write(env.path("big.md"), "y".repeat(1_200_000)).unwrap();
    let r = env.run(&[
        "deposit",
        "--title",
        "t",
        "--content-md",
        "big.md",
        "--json",
    ]);
    assert_eq!(r.code, 4);
    limits.push(r.transcript()); // max_package_bytes
    let deep = format!("{}1{}", "[".repeat(40), "]".repeat(40));
    let r = env.run(&[
        "deposit",
        "--title",
        "t",
        "--ext",
        &format!("x-deep={deep}"),
        "--json",
    ]);
    assert_eq!(r.code, 4);
    limits.push(r.transcript()); // max_depth
    let many: Vec<String> = (0..10_001).map(|i| i.to_string()).collect();
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        json!({"title": "t", "tags": many}).to_string().as_bytes(),
    );
    assert_eq!(r.code, 4);
    limits.push(r.transcript()); // max_array_len
    snapshot!("limits", limits.join("\n"));
    for garbage in [
        &b"\x00\x01\x02"[..],
        b"\xff\xfe\xfd",
        b"{\"title\": \"a\x00b\"}",
    ] {
        let r = env.run_stdin(&["deposit", "--from", "-", "--json"], garbage);
        assert_eq!(r.code, 4, "{:?}: {}", garbage, r.stderr);
        assert!(!r.stderr.contains("panicked"));
    }
    assert!(env.package_lines("demo").is_empty());
}

include!("../data/secret_kinds.rs");

/// Whether `output` shows any long run of `sample` (a secret, or the part of it that is one):
/// a refusal names the rule and a masked preview, never the secret.
#[track_caller]
fn assert_not_echoed(output: &str, kind: &str, sample: &str) {
    for run in sample.split([' ', '=', ':', '@', ';', '/', '.']) {
        if run.len() >= 8 {
            assert!(
                !output.contains(run),
                "{kind}: `{run}` was echoed: {output}"
            );
        }
    }
}

/// A whole package line for `relay import`, with `note` as its handoff.
fn package_line(n: usize, note: &str) -> String {
    let mut line = json!({
        "package_id": format!("pkg_{n:032x}"), "project_id": "demo", "relay_version": "0.1",
        "title": "imported", "status": "complete", "package_type": "standard",
        "review_type": "none", "created_at": "2026-01-01T00:00:00Z",
        "created_by": {"id": "a", "type": "human"}, "handoff_note": note,
    })
    .to_string();
    line.push('\n');
    line
}

#[test]
fn every_kind_of_credential_is_refused_through_the_cli_http_mcp_and_import() {
    use crate::mcp::{call, serve, tool_error};
    use crate::serve::{Served, logs, post_json};
    let env = Env::new();
    let kinds = kinds();
    assert!(kinds.len() >= 40, "{} kinds", kinds.len());
    let before = logs(&env);
    let note = |sample: &str| format!("deploy notes: {sample} (rotate after)");

    for (kind, rule, sample) in &kinds {
        let r = env.run(&[
            "deposit",
            "--title",
            "t",
            "--handoff",
            &note(sample),
            "--json",
        ]);
        assert_eq!(r.code, 4, "{kind}: {}", r.stderr);
        let e = r.error();
        assert_eq!(e["error"], "secret_detected", "{kind}");
        let message = e["message"].as_str().unwrap();
        assert!(
            message.contains("`handoff_note`") && message.contains(&format!("rule {rule}:")),
            "{kind}: {message}"
        );
        assert_not_echoed(&r.stderr, kind, sample);

        let r = env.run_stdin(
            &["import", "-", "--json"],
            package_line(1, &note(sample)).as_bytes(),
        );
        assert_eq!(r.code, 4, "import, {kind}: {}", r.stderr);
        assert_eq!(r.error()["error"], "secret_detected", "import, {kind}");
        assert!(
            r.stderr.contains(&format!("rule {rule}:")),
            "import, {kind}: {}",
            r.stderr
        );
        assert_not_echoed(&r.stderr, kind, sample);
    }

    let server = Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/packages");
    for (kind, rule, sample) in &kinds {
        let (status, body) = post_json(
            &env,
            &url,
            &json!({"title": "t", "handoff_note": note(sample)}),
        );
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("secret_detected")),
            "HTTP, {kind}: {body}"
        );
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("rule {rule}:")),
            "HTTP, {kind}: {message}"
        );
        assert_not_echoed(&body.to_string(), kind, sample);
    }
    drop(server);

    let calls: Vec<Value> = (kinds.iter().enumerate())
        .map(|(i, (_, _, sample))| {
            call(
                i as u64 + 1,
                "deposit",
                json!({"title": "t", "handoff_note": note(sample)}),
            )
        })
        .collect();
    let replies = serve(&env, &calls);
    assert_eq!(replies.len(), kinds.len());
    for ((kind, rule, sample), reply) in kinds.iter().zip(&replies) {
        let (code, message) = tool_error(reply);
        assert_eq!(code, "secret_detected", "MCP, {kind}");
        assert!(
            message.contains(&format!("rule {rule}:")),
            "MCP, {kind}: {message}"
        );
        assert_not_echoed(&reply.to_string(), kind, sample);
    }

    assert!(logs(&env) == before, "a refused write wrote a line");
    assert!(env.package_lines("demo").is_empty());
}

#[test]
fn project_ids_names_actors_tags_and_paths_are_scanned_at_write_time() {
    use crate::mcp::{call, serve, tool_error};
    use crate::serve::{Served, logs, post_json};
    let env = Env::new();
    let before = logs(&env);
    let pg = "postgres://app:S3cretPass9@db.internal/app";
    // (command, the field the refusal names)
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["projects", "create", AWS], "project_id"),
        (vec!["projects", "create", "p2", "--name", pg], "name"),
        (
            vec!["projects", "create", "p3", "--description", pg],
            "description",
        ),
        (vec!["projects", "rename", "demo", pg], "name"),
        (vec!["init", "--project", AWS], "project_id"),
        (vec!["deposit", "--title", "t", "--actor", AWS], "actor"),
        (vec!["deposit", "--title", "t", "--tag", AWS], "tags[0]"),
        (
            vec!["deposit", "--title", "t", "--deliverable", pg],
            "deliverables[0].path",
        ),
        (
            vec!["facts", "assert", "s", "p", "v", "--actor", AWS],
            "actor",
        ),
        (
            vec!["facts", "assert", "s", "p", "v", "--tag", AWS],
            "tags[0]",
        ),
        (vec!["session", "start", "--actor", AWS], "actor_id"),
        // A project id is a name: redacting it would write elsewhere, so it is refused.
        (
            vec!["projects", "create", AWS, "--redact-secrets"],
            "project_id",
        ),
    ];
    for (args, field) in &cases {
        let mut all = args.clone();
        all.push("--json");
        let r = env.run(&all);
        assert_eq!(r.code, 4, "{args:?}: {}", r.stderr);
        assert_eq!(r.error()["error"], "secret_detected", "{args:?}");
        let message = r.error()["message"].as_str().unwrap().to_string();
        assert!(
            message.contains(&format!("`{field}`")),
            "{args:?}: {message}"
        );
        assert!(!r.stderr.contains(AWS) && !r.stderr.contains("S3cretPass9"));
    }
    assert!(logs(&env) == before, "a refused command wrote a line");

    let server = Served::start(&env, &[]);
    for (path, body, field) in [
        ("/v1/projects", json!({"project_id": AWS}), "project_id"),
        (
            "/v1/projects",
            json!({"project_id": "p4", "name": pg}),
            "name",
        ),
        (
            "/v1/projects/demo/packages",
            json!({"title": "t", "tags": [AWS]}),
            "tags[0]",
        ),
        (
            "/v1/projects/demo/packages",
            json!({"title": "t", "created_by": {"id": AWS, "type": "human"}}),
            "created_by.id",
        ),
        (
            "/v1/projects/demo/packages",
            json!({"title": "t", "deliverables": [{"path": pg}]}),
            "deliverables[0].path",
        ),
    ] {
        let (status, reply) = post_json(&env, &server.at(path), &body);
        assert_eq!(
            (status, reply["error"].as_str()),
            (400, Some("secret_detected")),
            "{body}: {reply}"
        );
        assert!(
            reply["message"]
                .as_str()
                .unwrap()
                .contains(&format!("`{field}`")),
            "{reply}"
        );
    }
    drop(server);
    let replies = serve(
        &env,
        &[
            call(1, "deposit", json!({"title": "t", "actor": AWS})),
            call(2, "deposit", json!({"title": "t", "deliverables": [pg]})),
            call(
                3,
                "facts_assert",
                json!({"subject": "s", "predicate": "p", "value": "v", "actor": AWS}),
            ),
        ],
    );
    for (reply, field) in replies
        .iter()
        .zip(["actor", "deliverables[0].path", "actor"])
    {
        let (code, message) = tool_error(reply);
        assert_eq!(code, "secret_detected", "{reply}");
        assert!(message.contains(&format!("`{field}`")), "{message}");
    }
    assert!(logs(&env) == before, "a refused request wrote a line");

    // Under `redact`, an actor is stored redacted, like any other text.
    let v = env.ok_json(&[
        "deposit",
        "--title",
        "t",
        "--actor",
        AWS,
        "--redact-secrets",
    ]);
    assert_eq!(
        v["package"]["created_by"]["id"],
        "<REDACTED:aws-access-key-id>"
    );
}

#[test]
fn a_credential_as_a_member_name_is_refused_on_every_path_and_found_by_scan() {
    use crate::mcp::{call, serve, tool_error};
    use crate::serve::{Served, logs, post_json};
    let env = Env::new();
    let before = logs(&env);
    // Built here, so this file holds no whole token.
    let key = ["ghp_", "Fake0Test1Tok2Not3Real4Abc5Xyz6Qrs7Uvw8"].concat();
    let field = "`x-env.<REDACTED:github-token>`";
    let refused = |what: &str, code: &str, message: &str, output: &str| {
        assert_eq!(code, "secret_detected", "{what}: {output}");
        assert!(
            message.contains(field) && message.contains("rule github-token:"),
            "{what}: {message}"
        );
        assert!(!output.contains(&key), "{what} echoed the name: {output}");
    };

    let package = json!({"title": "t", "x-env": {&key: "on"}});
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        package.to_string().as_bytes(),
    );
    assert_eq!(r.code, 4, "{}", r.stderr);
    let e = r.error();
    refused(
        "deposit",
        e["error"].as_str().unwrap(),
        e["message"].as_str().unwrap(),
        &r.stderr,
    );
    let ext = format!("x-env={}", json!({&key: "on"}));
    let r = env.run(&["deposit", "--title", "t", "--ext", &ext, "--json"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    refused(
        "deposit --ext",
        r.error()["error"].as_str().unwrap(),
        r.error()["message"].as_str().unwrap(),
        &r.stderr,
    );

    let mut line: Value = serde_json::from_str(package_line(1, "notes").trim_end()).unwrap();
    line["x-env"] = json!({&key: "on"});
    let r = env.run_stdin(&["import", "-", "--json"], format!("{line}\n").as_bytes());
    assert_eq!(r.code, 4, "{}", r.stderr);
    refused(
        "import",
        r.error()["error"].as_str().unwrap(),
        r.error()["message"].as_str().unwrap(),
        &r.stderr,
    );

    let server = Served::start(&env, &[]);
    let (status, body) = post_json(&env, &server.at("/v1/projects/demo/packages"), &package);
    assert_eq!(status, 400, "{body}");
    refused(
        "HTTP",
        body["error"].as_str().unwrap(),
        body["message"].as_str().unwrap(),
        &body.to_string(),
    );
    drop(server);
    let replies = serve(&env, &[call(1, "deposit", json!({"package": package}))]);
    let (code, message) = tool_error(&replies[0]);
    refused("MCP", &code, &message, &replies[0].to_string());
    assert!(logs(&env) == before, "a refused write wrote a line");

    // A value is read with its name: a key with no prefix of its own, under a name that
    // says whose it is.
    let value = ["Fake0Test1Tok2Not3", "Real4Abc5Xyz6Qrs7Uvw8J"].concat();
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--json"],
        json!({"title": "t", "x-ci": {"CLOUDFLARE_API_TOKEN": &value}})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(r.code, 4, "{}", r.stderr);
    let message = r.error()["message"].as_str().unwrap().to_string();
    assert!(
        message.contains("`x-ci.CLOUDFLARE_API_TOKEN`")
            && message.contains("rule cloudflare-api-key:"),
        "{message}"
    );
    assert!(!r.stderr.contains(&value));

    // Redacted, the name becomes the rule's marker; allowed, it is stored, and `relay scan`
    // finds it without showing it.
    let v = env.ok_json(&["deposit", "--title", "t", "--ext", &ext, "--redact-secrets"]);
    assert_eq!(
        v["package"]["x-env"],
        json!({"<REDACTED:github-token>": "on"})
    );
    assert!(env.ok(&["scan"]).starts_with("No credentials found"));
    env.ok(&["deposit", "--title", "t", "--ext", &ext, "--allow-secrets"]);
    let r = env.run(&["scan", "--json"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    let found = r.json_lines();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["rule"], "github-token");
    assert_eq!(found[0]["field"], "package.x-env.<REDACTED:github-token>");
    let human = env.run(&["scan"]);
    assert!(!human.stdout.contains(&key) && !human.stderr.contains(&key));
}
