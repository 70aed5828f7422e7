//! The console's package page at the HTML level, for what relates other records to a package:
//! its children (in the projects the caller may read, drafts to their author only) and the
//! facts it is the source of, every stored string escaped.

use crate::harness::Env;
use crate::serve::Served;

/// `curl -si URL` with `headers`: the status line and headers (lowercased), and the body.
fn get(env: &Env, url: &str, headers: &[&str]) -> (String, String) {
    let mut args = vec!["-si", "--max-time", "20"];
    for h in headers {
        args.extend(["-H", h]);
    }
    args.push(url);
    let out = env.program("curl", &args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (head.to_lowercase(), body.to_string())
}

/// The part of `body` from `start` to the next `end` (empty when `start` is not there).
fn part<'a>(body: &'a str, start: &str, end: &str) -> &'a str {
    let Some(at) = body.find(start) else {
        return "";
    };
    let rest = &body[at..];
    &rest[..rest.find(end).map_or(rest.len(), |e| e + end.len())]
}

const XSS: [&str; 2] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(2)>",
];

#[test]
fn a_package_page_lists_its_children_escaped_in_the_projects_the_caller_may_read() {
    let env = Env::new();
    let parent = env.deposit("The parent", &[]);
    let first = env.deposit(XSS[0], &["--parent", &parent]);
    let second = env.deposit(XSS[1], &["--parent", &parent, "--type", "decision"]);
    let unrelated = env.deposit(&format!("Mentions {parent}"), &[]);
    let draft = env.deposit("A draft child", &["--parent", &parent, "--status", "draft"]);
    env.ok(&["projects", "create", "other"]);
    env.ok(&["projects", "create", "secret"]);
    let elsewhere = env.deposit("In other", &["--project", "other", "--parent", &parent]);
    let hidden = env.deposit("In secret", &["--project", "secret", "--parent", &parent]);
    let server = Served::start(&env, &[]);

    let (head, body) = get(&env, &server.at(&format!("/packages/{parent}")), &[]);
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let kids = part(&body, "<ol class=\"children\">", "</ol>");
    for kid in [&first, &second, &draft, &elsewhere, &hidden] {
        assert!(
            kids.contains(&format!(r#"href="/packages/{kid}""#)),
            "{kid} in {kids}"
        );
    }
    assert!(!kids.contains(&unrelated), "a mention is no child: {kids}");
    assert_eq!(kids.matches("<li>").count(), 5, "{kids}");
    assert!(
        kids.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{kids}"
    );
    assert!(
        kids.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"),
        "{kids}"
    );
    for t in XSS {
        assert!(!body.contains(t), "{t} came out unescaped");
    }
    assert!(kids.contains(r#"<span class="type">decision</span>"#));
    assert!(kids.contains(r#"<span class="status badge s-draft" title="status">draft</span>"#));
    assert!(
        kids.contains("in other"),
        "another project is named: {kids}"
    );
    assert!(!body.contains("style="));

    // A child links back to its parent; a package without children or facts shows neither.
    let (_, child) = get(&env, &server.at(&format!("/packages/{first}")), &[]);
    assert!(child.contains(&format!(r#"href="/packages/{parent}""#)));
    assert!(!child.contains("<h3>Children</h3>"), "{child}");
    assert!(!child.contains("Facts from this package"), "{child}");

    // A token reads `demo` and `other` only, as another actor: no child in `secret`, and no
    // one else's draft.
    let token = env.ok(&[
        "token",
        "create",
        "--actor",
        "bot",
        "--scope",
        "demo,other",
        "-q",
    ]);
    let auth = format!("Authorization: Bearer {}", token.trim());
    let (head, body) = get(&env, &server.at(&format!("/packages/{parent}")), &[&auth]);
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let kids = part(&body, "<ol class=\"children\">", "</ol>");
    for kid in [&first, &second, &elsewhere] {
        assert!(kids.contains(kid.as_str()), "{kid} in {kids}");
    }
    assert!(
        !body.contains(&hidden),
        "a child in a project the token cannot read"
    );
    assert!(!body.contains("In secret"));
    assert!(!body.contains(&draft), "another actor's draft");
    let (head, _) = get(&env, &server.at(&format!("/packages/{hidden}")), &[&auth]);
    assert!(!head.starts_with("http/1.1 200"), "{head}");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn a_package_page_lists_the_facts_it_sourced_current_and_ended_escaped() {
    let env = Env::new();
    let source = env.deposit("The source", &[]);
    let other = env.deposit("Another", &[]);
    let assert_fact = |args: &[&str]| {
        let mut all = vec!["facts", "assert"];
        all.extend_from_slice(args);
        env.ok(&all);
    };
    assert_fact(&["dashboard", "status", "live", "--source", &source]);
    // Superseded by a fact from elsewhere: ended, and still listed.
    assert_fact(&["dashboard", "status", "down"]);
    assert_fact(&["<b>api</b>", "owner", XSS[0], "--source", &source]);
    assert_fact(&["dashboard", "owner", "jo", "--source", &other]);
    let server = Served::start(&env, &[]);

    let (head, body) = get(&env, &server.at(&format!("/packages/{source}")), &[]);
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(body.contains("<h3>Facts from this package</h3>"), "{body}");
    let table = part(&body, "<table class=\"facts\">", "</table>");
    assert_eq!(table.matches("<tr class=\"ended\">").count(), 1, "{table}");
    assert_eq!(
        table.matches("<tr class=\"current\">").count(),
        1,
        "{table}"
    );
    // The subject links to its facts, the predicate to its key's history.
    assert!(
        table.contains(
            r#"<a href="/facts?project=demo&amp;subject=dashboard" title="this subject's facts">dashboard</a>"#
        ),
        "{table}"
    );
    assert!(
        table.contains(
            r#"<a href="/facts?project=demo&amp;subject=dashboard&amp;predicate=status" title="this key's history">status</a>"#
        ),
        "{table}"
    );
    assert!(
        table.contains("<td data-label=\"Value\">live</td>"),
        "{table}"
    );
    assert!(
        !table.contains("<td data-label=\"Value\">down</td>"),
        "not from this package"
    );
    assert!(
        !table.contains("<td data-label=\"Value\">jo</td>"),
        "from another package"
    );
    assert!(
        table.contains(
            r#"href="/facts?project=demo&amp;subject=%3Cb%3Eapi%3C%2Fb%3E" title="this subject's facts">&lt;b&gt;api&lt;/b&gt;</a>"#
        ),
        "{table}"
    );
    assert!(table.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!body.contains(XSS[0]), "came out unescaped");
    assert!(!body.contains("<b>api</b>"), "came out unescaped");
    // The ended fact shows when it ended; the current one says so.
    let ended = part(table, "<tr class=\"ended\">", "</tr>");
    assert!(!ended.contains(">current</td>"), "{ended}");
    assert!(
        part(table, "<tr class=\"current\">", "</tr>")
            .contains("<td data-label=\"Valid to\">current</td>"),
        "{table}"
    );

    let (_, another) = get(&env, &server.at(&format!("/packages/{other}")), &[]);
    let table = part(&another, "<table class=\"facts\">", "</table>");
    assert_eq!(table.matches("<tr class=").count(), 1, "{table}");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}
