//! The protocol's doors to the letter (issue 59): HTTP's deposit takes a whole package and
//! fills nothing in, as `relay deposit --strict` and MCP's `strict` do; a package's times are
//! taken in UTC only on every path that writes one, so a package deposited and the same
//! package imported are one package in either order; and §5.3 exactly: no second flag, and a
//! review acted on only by the kind of actor its `review_type` names, on every door.

use serde_json::{Value, json};

use crate::harness::Env;
use crate::mcp;
use crate::serve::{Served, curl, post_json, whole_package};

/// A whole wire package of the project `demo` (§6.1), created at `at`.
fn whole(id: &str, at: &str) -> Value {
    let by = json!({"id": "ana", "type": "human"});
    whole_package("demo", by, json!({"package_id": id, "created_at": at}))
}

#[test]
fn http_deposit_takes_a_whole_package_and_fills_nothing_in() {
    let env = Env::new();
    let server = Served::start(&env, &[]);
    let url = server.at("/v1/projects/demo/packages");
    for (n, field) in relay::wire::package::REQUIRED_FIELDS.iter().enumerate() {
        let mut p = whole(&format!("pkg_{n:032x}"), "2026-03-01T10:00:00Z");
        p.as_object_mut().unwrap().remove(*field);
        let (status, body) = post_json(&env, &url, &p);
        assert_eq!(status, 400, "{field}: {body}");
        assert_eq!(body["error"], "invalid_schema", "{field}: {body}");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("`{field}` is required")),
            "{message}"
        );
    }
    assert_eq!(
        env.ok(&["pull", "--latest", "--json"]),
        "",
        "nothing stored"
    );
    let (status, body) = post_json(&env, &url, &whole("pkg_1", "2026-03-01T10:00:00Z"));
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["package"], whole("pkg_1", "2026-03-01T10:00:00Z"));
}

#[test]
fn cli_strict_and_mcp_strict_take_the_protocol_s_form_and_the_conveniences_stay() {
    let env = Env::new();
    let partial = json!({"title": "Partial"}).to_string();
    let strict = env.run_stdin(&["deposit", "--from", "-", "--strict"], partial.as_bytes());
    assert_eq!(strict.code, 4, "{}", strict.transcript());
    assert!(
        strict.stderr.contains("`package_id` is required"),
        "{}",
        strict.stderr
    );
    let filled = env.run_stdin(&["deposit", "--from", "-"], partial.as_bytes());
    assert_eq!(
        filled.code, 0,
        "the command line fills in what a person left out"
    );
    let given = whole("pkg_2", "2026-03-01T10:00:00Z").to_string();
    let kept = env.run_stdin(
        &["deposit", "--from", "-", "--strict", "--json"],
        given.as_bytes(),
    );
    assert_eq!(kept.code, 0, "{}", kept.transcript());
    assert_eq!(
        kept.json()["package"],
        whole("pkg_2", "2026-03-01T10:00:00Z")
    );

    let replies = mcp::serve(
        &env,
        &[
            mcp::call(2, "deposit", json!({"title": "Named", "strict": true})),
            mcp::call(3, "deposit", json!({"title": "Named"})),
            mcp::call(
                4,
                "deposit",
                json!({"strict": true, "package": whole("pkg_3", "2026-03-01T10:00:00Z")}),
            ),
        ],
    );
    let (code, message) = mcp::tool_error(&replies[0]);
    assert_eq!(code, "invalid_schema", "{message}");
    assert!(message.contains("`package_id` is required"), "{message}");
    assert_eq!(mcp::ok(&replies[1])["package"]["title"], "Named");
    assert_eq!(mcp::ok(&replies[2])["package"]["package_id"], "pkg_3");
}

/// The same offset-dated package deposited and imported, in both orders: refused alike, with
/// the time to write instead; in UTC, it is one package whichever way it came first.
#[test]
fn an_offset_time_is_refused_on_every_path_and_a_utc_package_is_one_package_either_way() {
    let env = Env::new();
    let offset = whole("pkg_4", "2026-03-01T12:00:00+02:00");
    let file = env.path("offset.ndjson");
    std::fs::write(&file, format!("{offset}\n")).unwrap();
    let import = env.run(&["import", file.to_str().unwrap()]);
    assert_eq!(import.code, 4, "{}", import.transcript());
    assert!(
        import.stderr.contains("write it as `2026-03-01T10:00:00Z`"),
        "{}",
        import.stderr
    );
    // A fact's times too: import writes every record's times as relay writes its own.
    let fact = json!({"fact_id": "fact_1", "project_id": "demo", "subject": "s",
        "predicate": "p", "value": "v", "valid_from": "2026-03-01T12:00:00+02:00",
        "created_at": "2026-03-01T10:00:00Z"});
    let facts = env.path("fact.ndjson");
    std::fs::write(&facts, format!("{fact}\n")).unwrap();
    let import = env.run(&["import", facts.to_str().unwrap()]);
    assert_eq!(import.code, 4, "{}", import.transcript());
    assert!(import.stderr.contains("valid_from"), "{}", import.stderr);
    for strict in [false, true] {
        let mut args = vec!["deposit", "--from", "-"];
        if strict {
            args.push("--strict");
        }
        let d = env.run_stdin(&args, offset.to_string().as_bytes());
        assert_eq!(d.code, 4, "{}", d.transcript());
        assert!(d.stderr.contains("write it as `2026-03-01T10:00:00Z`"));
    }
    let server = Served::start(&env, &[]);
    let (status, body) = post_json(&env, &server.at("/v1/projects/demo/packages"), &offset);
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_schema"))
    );
    assert_eq!(
        env.ok(&["pull", "--latest", "--json"]),
        "",
        "nothing stored"
    );

    // In UTC: deposit then import, and import then deposit, is one package each time.
    for (n, deposit_first) in [(5, true), (6, false)] {
        let p = whole(&format!("pkg_{n}"), "2026-03-01T10:00:00Z");
        let file = env.path(&format!("utc{n}.ndjson"));
        std::fs::write(&file, format!("{p}\n")).unwrap();
        let deposit = || {
            let (status, body) = post_json(&env, &server.at("/v1/projects/demo/packages"), &p);
            assert!(matches!(status, 200 | 201), "{body}");
            status
        };
        let import = || env.ok_json(&["import", file.to_str().unwrap()]);
        if deposit_first {
            assert_eq!(deposit(), 201);
            let summary = import();
            assert_eq!(summary["unchanged"]["packages"], 1, "{summary}");
        } else {
            let summary = import();
            assert_eq!(summary["added"]["packages"], 1, "{summary}");
            assert_eq!(deposit(), 200, "the import's package, as a retry");
        }
        let stored = env.ok_json(&["pull", &format!("pkg_{n}")]);
        assert_eq!(stored["package"]["created_at"], "2026-03-01T10:00:00Z");
    }
}

/// A draft flagged for `kind` review, its id.
fn flagged(env: &Env, kind: &str) -> String {
    let id = env.deposit("To review", &["--status", "draft"]);
    env.ok(&["review", "flag", &id, &format!("--{kind}")]);
    id
}

#[test]
fn section_5_3_exactly_no_second_flag_and_a_review_only_by_its_kind() {
    let env = Env::new();
    let id = flagged(&env, "human");
    let again = env.run(&["review", "flag", &id, "--agent", "--json"]);
    assert_eq!(
        again.error()["error"],
        "invalid_transition",
        "{}",
        again.transcript()
    );

    let bot = ["--actor", "bot", "--actor-type", "agent"];
    let refused = env.run(&[&["review", "approve", &id][..], &bot, &["--json"]].concat());
    assert_eq!(
        refused.error()["error"],
        "unauthorized",
        "{}",
        refused.transcript()
    );
    let message = refused.error()["message"].as_str().unwrap().to_string();
    assert!(message.contains("awaits human review"), "{message}");
    let changes = [
        &["review", "request-changes", &id, "--note", "no"][..],
        &bot,
    ]
    .concat();
    assert_eq!(env.run(&changes).code, refused.code);
    env.ok(&["review", "approve", &id, "--actor", "ana"]);

    let for_agents = flagged(&env, "agent");
    let human = env.run(&["review", "approve", &for_agents, "--actor", "ana", "--json"]);
    assert_eq!(human.error()["error"], "unauthorized");
    env.ok(&[&["review", "approve", &for_agents][..], &bot].concat());
    let history = env.ok(&["pull", &for_agents, "--history"]);
    assert!(history.contains("approve by bot (agent)"), "{history}");

    // Over HTTP the token's actor decides, whatever the body says.
    let token = env.ok_json(&[
        "token",
        "create",
        "--actor",
        "claude",
        "--actor-type",
        "agent",
    ])["token"]
        .as_str()
        .unwrap()
        .to_string();
    let gated = flagged(&env, "human");
    let server = Served::start(&env, &[]);
    let bearer = format!("Authorization: Bearer {token}");
    let url = server.at(&format!("/v1/packages/{gated}/approve"));
    let (status, body) = curl(
        &env,
        &[
            "-X",
            "POST",
            "-H",
            &bearer,
            "-H",
            "Content-Type: application/json",
            "-d",
            "{}",
            &url,
        ],
    );
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("unauthorized")),
        "{body}"
    );
    let still = env.ok_json(&["pull", &gated]);
    assert_eq!(still["package"]["status"], "awaiting_review");
}
