//! Issue 40's console at the HTML level: stored Markdown rendered with no raw HTML and no
//! unsafe link, deliverables as a table with links and the CLI's stale marks, status badges,
//! filters as selects of the store's values, ids linked, and "as of" headings.

use crate::console::{assert_markup_is_text, assert_page, get};
use crate::harness::Env;
use crate::serve::Served;

/// The part of `body` from `start` to the next `end`.
fn part<'a>(body: &'a str, start: &str, end: &str) -> &'a str {
    let at = body
        .find(start)
        .unwrap_or_else(|| panic!("{start}: {body}"));
    let rest = &body[at..];
    &rest[..rest.find(end).map_or(rest.len(), |e| e + end.len())]
}

#[test]
fn a_package_page_renders_markdown_safely_and_its_deliverables_as_a_table() {
    let env = Env::new();
    std::fs::write(env.dir.join("spec.md"), "# Spec\n").unwrap();
    std::fs::write(env.dir.join("gone.md"), "x\n").unwrap();
    let hostile = "Adds **CSV export**.\n\n<script>alert(1)</script>\n\n\
                   <img src=x onerror=alert(2)> [run](javascript:alert(3)) \
                   [mail](mailto:ana@example.org) [rfc](https://www.rfc-editor.org/rfc/rfc4180)";
    let parent = env.deposit("Parent", &[]);
    let id = env.deposit(
        "Export",
        &[
            "--description",
            hostile,
            "--decision",
            &format!("Stream with *csv*, after {parent}"),
            "--question",
            "Need `xlsx`?",
            "--handoff",
            "1. wire the button\n2. test",
            "--deliverable",
            "spec.md",
            "--deliverable",
            "gone.md",
            "--deliverable",
            "https://example.org/design?a=1&b=2",
        ],
    );
    std::fs::write(env.dir.join("spec.md"), "# Spec, changed\n").unwrap();
    std::fs::remove_file(env.dir.join("gone.md")).unwrap();
    let server = Served::start(&env, &[]);
    let (head, body) = get(&env, &server.at(&format!("/packages/{id}")));
    assert_page(&head);

    // Markdown, and nothing a stored string wrote as markup.
    assert!(body.contains("<strong>CSV export</strong>"), "{body}");
    assert!(body.contains("<em>csv</em>"), "{body}");
    assert!(body.contains("<code>xlsx</code>"), "{body}");
    assert!(
        body.contains("<ol>\n<li>wire the button</li>\n<li>test</li>\n</ol>"),
        "{body}"
    );
    assert_markup_is_text(&body);
    assert!(!body.contains("javascript:"), "{body}");
    assert!(body.contains("run"), "an unsafe link keeps its text");
    assert!(
        body.contains(r#"<a href="mailto:ana@example.org" rel="noopener noreferrer">mail</a>"#),
        "{body}"
    );
    assert!(
        body.contains(
            r#"<a href="https://www.rfc-editor.org/rfc/rfc4180" rel="noopener noreferrer">rfc</a>"#
        ),
        "{body}"
    );
    assert!(
        body.contains(&format!(
            r#"after <a class="id" href="/packages/{parent}">{parent}</a>"#
        )),
        "a package id in text links to its page: {body}"
    );

    // The deliverables: a table, the URL a link, the stale files marked as the CLI marks them.
    let table = part(&body, "<table class=\"deliverables\">", "</table>");
    assert!(
        table.contains("<th>Path or URL</th><th>Kind</th><th>Size</th><th>Hash</th>"),
        "{table}"
    );
    assert!(
        table.contains(
            r#"<a href="https://example.org/design?a=1&amp;b=2" rel="noopener noreferrer">https://example.org/design?a=1&amp;b=2</a>"#
        ),
        "{table}"
    );
    assert_eq!(table.matches("<tr class=\"stale\">").count(), 2, "{table}");
    assert!(table.contains("⚠ may be stale: changed"), "{table}");
    assert!(table.contains("⚠ may be stale: missing"), "{table}");
    assert!(table.contains("<code>spec.md</code>"), "{table}");
    assert!(table.contains("<td>md</td>"), "{table}");
    assert!(table.contains("sha256:"), "{table}");
    let printed = env.ok(&["pull", &id]);
    assert!(
        printed.contains("may be stale: spec.md changed, gone.md missing"),
        "{printed}"
    );
    assert!(
        body.contains("may be stale: spec.md changed, gone.md missing"),
        "the CLI's line: {body}"
    );
    assert!(
        body.contains(r#"<span class="status badge s-complete" title="status">complete</span>"#),
        "{body}"
    );
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn filters_are_selects_of_the_stores_values_and_statuses_are_badges() {
    let env = Env::new();
    env.deposit("One", &["--type", "decision", "--tag", "billing"]);
    env.deposit(
        "Two",
        &[
            "--tag",
            "<b>x</b>",
            "--status",
            "awaiting_review",
            "--review",
            "human",
        ],
    );
    let server = Served::start(&env, &[]);
    let (_, timeline) = get(&env, &server.at("/?tag=billing"));
    let tags = part(&timeline, "<select name=\"tag\">", "</select>");
    assert_eq!(
        tags,
        "<select name=\"tag\"><option value=\"\">any</option>\
         <option value=\"&lt;b&gt;x&lt;/b&gt;\">&lt;b&gt;x&lt;/b&gt;</option>\
         <option value=\"billing\" selected>billing</option></select>"
    );
    let types = part(&timeline, "<select name=\"type\">", "</select>");
    assert!(
        types.contains(">decision<") && types.contains(">standard<"),
        "{types}"
    );
    let authors = part(&timeline, "<select name=\"created_by\">", "</select>");
    assert!(
        authors.contains("<option value=\"tester\">tester</option>"),
        "{authors}"
    );
    let statuses = part(&timeline, "<select name=\"status\">", "</select>");
    for s in ["draft", "complete", "awaiting_review", "revision_requested"] {
        assert!(statuses.contains(&format!("value=\"{s}\"")), "{statuses}");
    }
    assert!(
        !timeline.contains("<input name=\"type\""),
        "no free-text box"
    );

    // Search has the same selects, and they filter its results.
    let (_, search) = get(&env, &server.at("/search?q=one+two&status=awaiting_review"));
    assert!(search.contains("<select name=\"tag\">"), "{search}");
    assert!(
        search.contains("<option value=\"awaiting_review\" selected>"),
        "{search}"
    );
    assert_eq!(search.matches("class=\"result\"").count(), 1, "{search}");
    assert!(
        search.contains(
            r#"<span class="status badge s-awaiting_review" title="status">awaiting review</span>"#
        ),
        "{search}"
    );
    assert!(
        search.contains("<a class=\"id\" href=\"/packages/pkg_"),
        "{search}"
    );
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn orient_links_package_ids_and_an_as_of_page_says_so() {
    let env = Env::new();
    let id = env.deposit("Shipped", &["--handoff", "next: *deploy*"]);
    env.ok(&[
        "facts",
        "assert",
        "api",
        "owner",
        "ana",
        "--valid-from",
        "2026-01-01T00:00:00Z",
    ]);
    let server = Served::start(&env, &[]);
    let (_, orient) = get(&env, &server.at("/orient"));
    assert!(
        orient.contains(&format!(
            r#"<a class="id" href="/packages/{id}"><code>{id}</code></a>"#
        )),
        "{orient}"
    );
    let (_, now) = get(&env, &server.at("/facts"));
    assert!(now.contains("<h2>Current facts</h2>"), "{now}");
    let (_, then) = get(&env, &server.at("/facts?as_of=2026-02-01"));
    assert!(
        then.contains("<title>Facts as of 2026-02-01T00:00:00.000000Z · relay</title>"),
        "{then}"
    );
    assert!(then.contains("<h2>Facts as of <time"), "{then}");
    assert!(!then.contains("Current facts</h2>"), "{then}");
    let (_, key) = get(
        &env,
        &server.at("/facts?subject=api&predicate=owner&as_of=2026-02-01"),
    );
    assert!(key.contains("</span> as of <time"), "{key}");
    // A subject links to its facts, which are headed by it.
    assert!(
        now.contains(
            r#"<a href="/facts?project=demo&amp;subject=api" title="this subject's facts">api</a>"#
        ),
        "{now}"
    );
    let (_, about) = get(&env, &server.at("/facts?subject=api"));
    assert!(
        about.contains("<h2>Current facts about <span class=\"key\">api</span></h2>"),
        "{about}"
    );
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

/// A GET form whose input does not parse answers its own page again: the input as typed, the
/// reason and the error's code inline, the error's status.
#[test]
fn a_form_with_bad_input_keeps_its_page_and_input() {
    let env = Env::new();
    env.deposit("One", &[]);
    let server = Served::start(&env, &[]);
    for (path, status, kept) in [
        (
            "/facts?as_of=someday",
            "400",
            r#"name="as_of" value="someday""#,
        ),
        (
            "/orient?days=soon",
            "400",
            r#"name="days" min="0" value="soon""#,
        ),
        ("/?since=someday", "400", r#"name="since" value="someday""#),
        (
            "/search?q=one&status=shipped",
            "400",
            r#"name="q" value="one""#,
        ),
        (
            "/search?q=one&mode=semantic",
            "501",
            r#"name="q" value="one""#,
        ),
    ] {
        let (head, body) = get(&env, &server.at(path));
        assert!(
            head.starts_with(&format!("http/1.1 {status}")),
            "{path}: {head}"
        );
        assert!(
            body.contains("<nav class=\"top\">"),
            "the page itself: {body}"
        );
        assert!(body.contains(kept), "{path}: {body}");
        assert!(
            body.contains(r#"<div class="problem" role="alert">"#),
            "{path}: {body}"
        );
        assert!(!body.contains("class=\"result\""), "{path}: {body}");
        assert!(!body.contains("class=\"package\""), "{path}: {body}");
    }
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}
