//! The console's facts and orient pages at the HTML level: the facts table (now, or as of a
//! past time), a key's history newest first, the orient briefing as `relay orient` prints it,
//! every stored string escaped, and the errors (a bad time, an unknown project).

use crate::console::{XSS, assert_escaped, assert_markup_is_text, assert_page, get};
use crate::harness::{Env, read};
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
    assert!(
        body.contains("<td class=\"value\" data-label=\"Value\">live</td>"),
        "{body}"
    );
    assert!(
        body.contains("<td class=\"value\" data-label=\"Value\">2</td>"),
        "{body}"
    );
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
    assert!(
        body.contains("<td class=\"value\" data-label=\"Value\">building</td>"),
        "{body}"
    );
    assert!(!body.contains(">live<"), "{body}");
    assert!(
        !body.contains("<td class=\"value\" data-label=\"Value\">2</td>"),
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
    assert!(
        body.contains("<td class=\"value\" data-label=\"Value\">building</td>"),
        "{body}"
    );
    assert!(
        body.contains("<td class=\"value\" data-label=\"Value\">2</td>"),
        "{body}"
    );
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

/// The text a browser shows for `html`, without white space (block boundaries are not
/// compared): tags removed, the escapes HTML text uses decoded.
fn shown_text(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag && !c.is_whitespace() => text.push(c),
            _ => {}
        }
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// A line of `relay orient`'s Markdown as the text it shows, without white space: the list,
/// heading and quote marks, bold and code marks left out, and the entities that keep a tag in
/// recorded text inert shown as the characters they stand for.
fn words_of(line: &str) -> String {
    let line = line.trim_start_matches(['#', ' ', '-', '>']);
    line.replace("**", "")
        .replace('`', "")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .split_whitespace()
        .collect()
}

#[test]
fn the_orient_page_is_the_briefing_relay_orient_prints_rendered_and_escaped() {
    let env = Env::new();
    env.deposit(
        "Chose the queue",
        &[
            "--type",
            "decision",
            "--decision",
            "Use NATS",
            "--question",
            "How many brokers?",
        ],
    );
    env.deposit("A small note", &["--type", "standard"]);
    env.deposit(
        XSS[0],
        &[
            "--type",
            "handoff",
            "--handoff",
            XSS[1],
            "--question",
            "[why](javascript:alert(3))",
        ],
    );
    assert_fact(
        &env,
        "dashboard",
        "status",
        "live",
        "2026-01-01T00:00:00Z",
        &[],
    );
    let printed = env.ok(&["orient"]);
    let server = Served::start(&env, &[]);
    let (head, body) = get(&env, &server.at("/orient?project=demo"));
    assert_page(&head);

    // Every line the CLI prints (but the time it was generated) is on the page.
    let shown = shown_text(&body);
    let mut compared = 0;
    for line in printed.lines().filter(|l| !l.trim().is_empty()) {
        if line.starts_with("Generated ") {
            assert!(shown.contains("last14days·3packages"), "{shown}");
            continue;
        }
        if line.contains("](javascript:") {
            // A link whose address would run script: its text only, below.
            continue;
        }
        let words = words_of(line);
        assert!(
            shown.contains(&words),
            "{words:?} is not on the page:\n{shown}"
        );
        compared += 1;
    }
    assert!(compared >= 12, "{printed}");
    for heading in [
        "Latest handoff",
        "Recent activity",
        "Open questions",
        "Active facts",
    ] {
        assert!(
            body.contains(&format!("<h2>{heading}</h2>")),
            "{heading}: {body}"
        );
    }
    assert!(
        body.contains("<h1>Orientation: demo (<code>demo</code>)</h1>"),
        "{body}"
    );
    assert!(body.contains("dashboard status = live"), "{body}");

    // Stored text is text: the hostile title and handoff, and a link that would run script.
    assert_markup_is_text(&body);
    assert!(body.contains("<li>Open: why</li>"), "{body}");
    assert!(!body.to_lowercase().contains("href=\"javascript"), "{body}");
    assert!(!body.contains("style="));

    // The window is a field.
    assert!(body.contains(r#"name="days" min="0" value="14""#), "{body}");
    let (head, body) = get(&env, &server.at("/orient?project=demo&days=0"));
    assert_page(&head);
    assert!(shown_text(&body).contains("last0days"), "{body}");
    let (_, body) = get(&env, &server.at("/orient?project=demo&days="));
    assert!(
        shown_text(&body).contains("last14days"),
        "an empty field is the default: {body}"
    );

    for (path, status, code) in [
        ("/orient?project=demo&days=soon", "400", "invalid_input"),
        ("/orient?project=demo&days=40000", "400", "invalid_input"),
        ("/orient?project=nope", "404", "project_not_found"),
        ("/orient?project=demo&window=3", "400", "invalid_schema"),
    ] {
        let (head, body) = get(&env, &server.at(path));
        assert!(
            head.starts_with(&format!("http/1.1 {status}")),
            "{path}: {head}"
        );
        assert!(body.contains(code), "{path}: {body}");
    }
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

/// The lines of a briefing as the words they show (emphasis marks left out), the generated
/// time left out.
fn briefing_words(printed: &str) -> Vec<String> {
    printed
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("Generated "))
        .map(|l| words_of(l).trim_matches('_').to_string())
        .collect()
}

#[test]
fn the_orient_page_fits_the_budget_asked_for_else_the_configured_one_as_relay_orient_does() {
    let env = Env::new();
    for i in 0..8 {
        env.deposit(
            &format!("Package number {i} with a title long enough to need room"),
            &[
                "--question",
                &format!("Open question {i}, still unanswered?"),
            ],
        );
    }
    let whole = env.ok(&["orient"]);
    let fitted = env.ok(&["orient", "--max-chars", "600"]);
    assert!(fitted.chars().count() <= 600 && whole.len() > fitted.len());
    let left_out = briefing_words(&whole)
        .into_iter()
        .find(|w| !briefing_words(&fitted).contains(w))
        .expect("the budget leaves a line out");

    let server = Served::start(&env, &[]);
    let (head, body) = get(&env, &server.at("/orient?project=demo&chars=600"));
    assert_page(&head);
    let shown = shown_text(&body);
    for words in briefing_words(&fitted) {
        assert!(
            shown.contains(&words),
            "{words:?} is not on the page:\n{shown}"
        );
    }
    assert!(
        !shown.contains(&left_out),
        "{left_out:?} is over the budget"
    );
    assert!(
        body.contains(r#"name="chars" min="0" placeholder="all" value="600""#),
        "{body}"
    );
    let (head, body) = get(&env, &server.at("/orient?project=demo&chars=many"));
    assert!(head.starts_with("http/1.1 400"), "{head}");
    assert!(body.contains("invalid_input"), "{body}");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");

    // With no budget asked for, the store's [orient] max_chars applies, as on the CLI.
    let config = env.store().join("config.toml");
    let mut text = read(&config);
    text.push_str("\n[orient]\nmax_chars = 600\n");
    std::fs::write(&config, text).unwrap();
    assert_eq!(
        briefing_words(&env.ok(&["orient"])),
        briefing_words(&fitted)
    );
    let server = Served::start(&env, &[]);
    let (_, body) = get(&env, &server.at("/orient?project=demo"));
    let shown = shown_text(&body);
    assert!(
        !shown.contains(&left_out),
        "the configured budget applies:\n{shown}"
    );
    for words in briefing_words(&fitted) {
        assert!(
            shown.contains(&words),
            "{words:?} is not on the page:\n{shown}"
        );
    }
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}
