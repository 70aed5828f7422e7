//! The console's facts and orient pages at the HTML level: the facts table (now, or as of a
//! past time), a key's history newest first, the orient briefing as `relay orient` prints it,
//! every stored string escaped, and the errors (a bad time, an unknown project).

use crate::console::{XSS, assert_escaped, assert_page, get};
use crate::harness::Env;
use crate::serve::Served;

/// Asserts `subject predicate value` from `valid_from`, with `extra` flags.
fn assert_fact(
    env: &Env,
    subject: &str,
    predicate: &str,
    value: &str,
    valid_from: &str,
    extra: &[&str],
) {
    let mut args = vec![
        "facts",
        "assert",
        subject,
        predicate,
        value,
        "--valid-from",
        valid_from,
    ];
    args.extend_from_slice(extra);
    env.ok(&args);
}

#[test]
fn the_facts_page_shows_current_facts_a_keys_history_and_the_past() {
    let env = Env::new();
    let pkg = env.deposit("Shipped the dashboard", &[]);
    assert_fact(
        &env,
        "dashboard",
        "status",
        "building",
        "2026-01-01T00:00:00Z",
        &["--actor", "ana"],
    );
    assert_fact(
        &env,
        "dashboard",
        "status",
        "live",
        "2026-02-01T00:00:00Z",
        &["--source", &pkg],
    );
    assert_fact(&env, "api", "version", "2", "2026-01-10T00:00:00Z", &[]);
    assert_fact(&env, "cache", "ttl", "60", "2026-01-01T00:00:00Z", &[]);
    env.ok(&["facts", "invalidate", "cache", "ttl"]);
    let server = Served::start(&env, &[]);

    let (head, body) = get(&env, &server.at("/facts?project=demo"));
    assert_page(&head);
    assert_eq!(
        body.matches("<tr>").count(),
        3,
        "a header and two facts, the invalidated one left out: {body}"
    );
    assert!(body.contains("<td class=\"value\">live</td>"), "{body}");
    assert!(body.contains("<td class=\"value\">2</td>"), "{body}");
    assert!(
        !body.contains(">building<"),
        "a superseded value is not current"
    );
    assert!(
        body.contains(&format!(r#"href="/packages/{pkg}""#)),
        "the source package"
    );
    assert!(
        body.contains("tester (human)"),
        "the source's author asserted it: {body}"
    );
    let history = "/facts?project=demo&amp;subject=dashboard&amp;predicate=status";
    assert!(body.contains(&format!(r#"href="{history}""#)), "{body}");

    // The key's history: both versions, newest first, the old one superseded by the new.
    let (head, body) = get(&env, &server.at(&history.replace("&amp;", "&")));
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let (live, building) = (
        body.find(">live<").unwrap(),
        body.find(">building<").unwrap(),
    );
    assert!(live < building, "newest first: {body}");
    assert!(body.contains("superseded</span> by <q>live</q>"), "{body}");
    assert!(
        body.contains("[current]") || body.contains("state current"),
        "{body}"
    );
    assert!(body.contains("asserted by ana"), "{body}");
    let (from, to) = ("2026-01-01T00:00:00.000000Z", "2026-02-01T00:00:00.000000Z");
    let span =
        format!(r#"<time datetime="{from}">{from}</time> → <time datetime="{to}">{to}</time>"#);
    assert!(body.contains(&span), "{body}");
    assert!(
        body.contains(&format!(r#"<time datetime="{to}">{to}</time> → now"#)),
        "{body}"
    );

    // An invalidated key (not in the table) and its history says how it ended.
    let (_, body) = get(&env, &server.at("/facts?subject=cache&predicate=ttl"));
    assert!(
        body.contains(r#"<span class="state invalidated">invalidated</span>"#),
        "{body}"
    );

    // As of a time before the supersession: the old value, and the fact not yet asserted is
    // absent.
    let (head, body) = get(&env, &server.at("/facts?project=demo&as_of=2026-01-05"));
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(body.contains("<td class=\"value\">building</td>"), "{body}");
    assert!(!body.contains(">live<"), "{body}");
    assert!(
        !body.contains("<td class=\"value\">2</td>"),
        "not yet asserted: {body}"
    );
    assert!(
        body.contains("value=\"2026-01-05\""),
        "the form keeps the time: {body}"
    );
    let (_, body) = get(
        &env,
        &server.at("/facts?project=demo&as_of=2026-01-15T12:00:00Z"),
    );
    assert!(body.contains("<td class=\"value\">building</td>"), "{body}");
    assert!(body.contains("<td class=\"value\">2</td>"), "{body}");
    // In a history, the version valid then is marked.
    let (_, body) = get(
        &env,
        &server.at(&format!(
            "{}&as_of=2026-01-05",
            history.replace("&amp;", "&")
        )),
    );
    assert!(
        body.contains("<li class=\"then\"><span class=\"value\">building</span>"),
        "{body}"
    );

    let (head, body) = get(&env, &server.at("/facts?project=demo&as_of=someday"));
    assert!(head.starts_with("http/1.1 400"), "{head}");
    assert!(
        body.contains("invalid_input") && body.contains("as_of"),
        "{body}"
    );
    assert!(body.contains("is not a time"), "{body}");
    let (head, body) = get(&env, &server.at("/facts?project=nope"));
    assert!(head.starts_with("http/1.1 404"), "{head}");
    assert!(body.contains("project_not_found"), "{body}");
    let (head, body) = get(
        &env,
        &server.at("/facts?project=demo&subject=no&predicate=such"),
    );
    assert!(head.starts_with("http/1.1 404"), "{head}");
    assert!(body.contains("fact_not_found"), "{body}");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn hostile_facts_are_text_in_the_table_and_the_history() {
    let env = Env::new();
    assert_fact(&env, XSS[0], "p", XSS[1], "2026-01-01T00:00:00Z", &[]);
    assert_fact(&env, XSS[1], XSS[0], XSS[0], "2026-01-01T00:00:00Z", &[]);
    let server = Served::start(&env, &[]);
    let (head, table) = get(&env, &server.at("/facts"));
    assert_page(&head);
    let (_, history) = get(
        &env,
        &server.at("/facts?subject=%3Cscript%3Ealert(1)%3C%2Fscript%3E&predicate=p"),
    );
    assert_escaped(&table);
    assert_escaped(&history);
    // The key is percent-encoded in the links.
    assert!(
        table.contains("subject=%3Cscript%3Ealert%281%29%3C%2Fscript%3E&amp;predicate=p"),
        "{table}"
    );
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}
