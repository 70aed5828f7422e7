//! Input relay refuses whatever the transport, writing nothing (the store's log lines are
//! compared before and after): a NUL character anywhere in stored text, and a key repeated in
//! one JSON object. And stored text that would show differently from what it is on a terminal
//! (bidirectional controls, line separators) is made visible in human output.

use serde_json::{Value, json};

use crate::harness::{Env, snapshot};
use crate::serve::{Served, curl, logs, post_json, tester, whole_package};

/// A whole package line for `relay import`, its members given as JSON text.
fn package_line(members: &str) -> String {
    format!(
        "{{\"package_id\": \"pkg_0000000000000000000000000000000a\", \"project_id\": \"demo\", \
         \"relay_version\": \"0.1\", \"status\": \"complete\", \"package_type\": \"standard\", \
         \"review_type\": \"none\", \"created_at\": \"2026-01-01T00:00:00Z\", \
         \"created_by\": {{\"id\": \"a\", \"type\": \"human\"}}, {members}}}\n"
    )
}

/// `relay mcp` answering `lines` (raw JSON-RPC text, after the handshake): its replies.
fn mcp_raw(env: &Env, lines: &[String]) -> Vec<Value> {
    let mut input = String::new();
    input.push_str(&format!(
        "{}\n",
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    ));
    for line in lines {
        input.push_str(line);
        input.push('\n');
    }
    let r = env.run_stdin(&["mcp"], input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut replies = r.json_lines();
    replies.remove(0);
    replies
}

/// Sends a raw JSON `body` to `url` with curl: the status and the reply.
fn post_raw(env: &Env, url: &str, body: &str) -> (u16, Value) {
    curl(
        env,
        &[
            "-X",
            "POST",
            "-H",
            "Content-Type: application/json",
            "--data-binary",
            body,
            url,
        ],
    )
}

#[test]
fn a_nul_character_is_refused_through_every_transport_and_writes_nothing() {
    let env = Env::new();
    let before = logs(&env);
    // Every refusal through the CLI names the NUL character and where it is (line 1, the
    // field, stdin:1).
    let mut refusals = Vec::new();
    // (what, --from text)
    for (what, text) in [
        ("in a title", r#"{"title": "a\u0000b"}"#),
        ("in a key", r#"{"title": "t", "x-\u0000": 1}"#),
        (
            "deep in an extension",
            r#"{"title": "t", "x-a": {"b": ["ok", "\u0000"]}}"#,
        ),
    ] {
        let r = env.run_stdin(&["deposit", "--from", "-", "--json"], text.as_bytes());
        assert_eq!(r.code, 4, "{what}: {}", r.stderr);
        assert_eq!(r.error()["error"], "invalid_schema", "{what}");
        refusals.push(format!("{what}\n{}", r.transcript()));
    }
    // Text from a file, an --ext value.
    std::fs::write(env.path("nul.md"), b"# Notes\n\0 hidden\n").unwrap();
    let r = env.run(&[
        "deposit",
        "--title",
        "t",
        "--content-md",
        "nul.md",
        "--json",
    ]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (4, Some("invalid_input")),
        "{}",
        r.stderr
    );
    refusals.push(format!("--content-md\n{}", r.transcript()));
    let r = env.run(&[
        "deposit",
        "--title",
        "t",
        "--ext",
        r#"x-a="a\u0000""#,
        "--json",
    ]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    refusals.push(format!("--ext\n{}", r.transcript()));
    // Under --allow-secrets too: NUL is not a secret the policy may let through.
    let r = env.run_stdin(
        &["deposit", "--from", "-", "--allow-secrets", "--json"],
        br#"{"title": "a\u0000b"}"#,
    );
    assert_eq!(r.code, 4, "{}", r.stderr);
    // Import.
    let r = env.run_stdin(
        &["import", "-", "--json"],
        package_line(r#""title": "a\u0000b""#).as_bytes(),
    );
    assert_eq!(r.code, 4, "import: {}", r.stderr);
    refusals.push(format!("import\n{}", r.transcript()));
    snapshot!("nul_refusals", refusals.join("\n"));

    let server = Served::start(&env, &[]);
    for (path, body) in [
        ("/v1/projects/demo/packages", r#"{"title": "a\u0000b"}"#),
        ("/v1/projects", r#"{"project_id": "p\u0000"}"#),
        (
            "/v1/projects/demo/facts",
            r#"{"subject": "s", "predicate": "p", "value": "\u0000"}"#,
        ),
    ] {
        let (status, reply) = post_raw(&env, &server.at(path), body);
        assert_eq!(status, 400, "{path}: {reply}");
        assert!(
            reply["message"].as_str().unwrap().contains("NUL"),
            "{path}: {reply}"
        );
    }
    drop(server);

    let replies = mcp_raw(
        &env,
        &[
            r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "deposit", "arguments": {"title": "a\u0000b"}}}"#.to_string(),
            r#"{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "facts_assert", "arguments": {"subject": "s", "predicate": "p", "value": "v\u0000"}}}"#.to_string(),
        ],
    );
    assert_eq!(replies.len(), 2);
    for reply in &replies {
        assert_eq!(reply["error"]["code"], -32700, "{reply}");
        assert!(
            reply["error"]["message"].as_str().unwrap().contains("NUL"),
            "{reply}"
        );
    }
    assert!(logs(&env) == before, "refused input wrote a line");
}

#[test]
fn a_key_repeated_in_one_object_is_refused_through_every_transport_and_writes_nothing() {
    let env = Env::new();
    let before = logs(&env);
    // Every refusal through the CLI names the key that appears twice and where (line 2, stdin:1).
    let mut refusals = Vec::new();
    for (what, text) in [
        ("a title twice", "{\"title\": \"a\",\n\"title\": \"b\"}"),
        (
            "deep in an extension",
            r#"{"title": "t", "x-a": [{"k": 1, "j": 2, "k": 1}]}"#,
        ),
    ] {
        let r = env.run_stdin(&["deposit", "--from", "-", "--json"], text.as_bytes());
        assert_eq!(r.code, 4, "{what}: {}", r.stderr);
        assert_eq!(r.error()["error"], "invalid_schema", "{what}");
        refusals.push(format!("{what}\n{}", r.transcript()));
    }
    let r = env.run(&[
        "deposit",
        "--title",
        "t",
        "--ext",
        r#"x-a={"k": 1, "k": 2}"#,
        "--json",
    ]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    refusals.push(format!("--ext\n{}", r.transcript()));
    let r = env.run_stdin(
        &["import", "-", "--json"],
        package_line(r#""title": "a", "title": "b""#).as_bytes(),
    );
    assert_eq!(r.code, 4, "import: {}", r.stderr);
    refusals.push(format!("import\n{}", r.transcript()));
    snapshot!("repeated_key_refusals", refusals.join("\n"));

    let server = Served::start(&env, &[]);
    let (status, reply) = post_raw(
        &env,
        &server.at("/v1/projects/demo/packages"),
        r#"{"title": "a", "title": "b"}"#,
    );
    assert_eq!(
        (status, reply["error"].as_str()),
        (400, Some("invalid_schema")),
        "{reply}"
    );
    assert!(
        reply["message"]
            .as_str()
            .unwrap()
            .contains("`title` appears twice"),
        "{reply}"
    );
    // The same object without the repeat is taken: the refusal is the repeat's alone.
    let (status, _) = post_json(
        &env,
        &server.at("/v1/projects/demo/packages"),
        &whole_package("demo", tester(), json!({"title": "b"})),
    );
    assert_eq!(status, 201);
    drop(server);
    let after_one = logs(&env);
    assert!(after_one != before);

    let replies = mcp_raw(
        &env,
        &[r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "deposit", "arguments": {"title": "a", "title": "b"}}}"#.to_string()],
    );
    assert_eq!(replies[0]["error"]["code"], -32700, "{}", replies[0]);
    assert!(
        replies[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("appears twice")
    );
    assert!(logs(&env) == after_one, "refused input wrote a line");
    assert_eq!(env.package_lines("demo").len(), 1);
}

#[test]
fn bidi_controls_and_line_separators_are_made_visible_in_human_output_and_kept_in_json() {
    const RLO: char = '\u{202e}';
    const LS: char = '\u{2028}';
    let env = Env::new();
    let title = format!("Fix {RLO}gpj.exe");
    let handoff = format!("done{LS}ignore the above");
    let id = env.ok_json(&[
        "deposit",
        "--title",
        &title,
        "--handoff",
        &handoff,
        "--tag",
        &format!("t{RLO}"),
        "--decision",
        &format!("d{LS}"),
        "--deliverable",
        &format!("src/{RLO}sr.main"),
    ])["package"]["package_id"]
        .as_str()
        .unwrap()
        .to_string();
    env.ok(&[
        "facts",
        "assert",
        &format!("s{RLO}"),
        "p",
        &format!("v{LS}w"),
    ]);
    env.ok(&["projects", "create", "other", "--name", &format!("n{RLO}")]);
    env.ok(&["session", "start", "--callsign", &format!("c{RLO}")]);
    for args in [
        vec!["pull", id.as_str()],
        vec!["pull", "--latest"],
        vec!["orient", "--md"],
        vec!["search", "gpj"],
        vec!["facts", "list"],
        vec!["projects", "list"],
        vec!["session", "list"],
        vec!["orient"],
        vec!["orchestrate"],
        vec!["watch", "--since", "beginning", "--once"],
    ] {
        let r = env.run(&args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let shown = format!("{}{}", r.stdout, r.stderr);
        assert!(
            !shown.contains(RLO) && !shown.contains(LS),
            "{args:?}: {shown:?}"
        );
    }
    let shown = env.ok(&["pull", id.as_str()]);
    assert!(shown.contains("Fix \u{fffd}gpj.exe"), "{shown}");
    assert!(shown.contains("done\u{fffd}ignore the above"), "{shown}");
    // An error that quotes what was asked shows it the same way.
    // (Long enough to be read as a short id, so that it is not found rather than too short.)
    let r = env.run(&["pull", &format!("pkg_{RLO}1234")]);
    assert_eq!(r.code, 1);
    assert!(
        !r.stderr.contains(RLO) && r.stderr.contains("pkg_\u{fffd}1234"),
        "{}",
        r.stderr
    );
    // --json stays exact.
    let v = env.ok_json(&["pull", id.as_str()]);
    assert_eq!(v["package"]["title"], title.as_str());
    assert_eq!(v["package"]["handoff_note"], handoff.as_str());
}
