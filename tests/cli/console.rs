//! The web console of `relay serve` at the HTML level: the timeline, its filters and paging,
//! every stored string escaped, and the Content-Security-Policy on every page and asset.

use crate::harness::Env;
use crate::serve::Served;

/// `curl -si URL`: the status line and headers (lower-cased), and the body.
pub fn get(env: &Env, url: &str) -> (String, String) {
    let out = env
        .program("curl", &["-si", "--max-time", "20", url])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (head.to_lowercase(), body.to_string())
}

/// Stored strings that would run if they reached the page unescaped.
pub const XSS: [&str; 2] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(2)>",
];

/// An HTML page, answered 200 under the console's policy.
#[track_caller]
pub fn assert_page(head: &str) {
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(
        head.contains("content-type: text/html; charset=utf-8"),
        "{head}"
    );
    assert!(
        head.contains("content-security-policy: default-src 'none'; script-src 'self';"),
        "{head}"
    );
}

/// Both [`XSS`] strings are in `body`, escaped, and the page runs no script but console.js
/// and carries no inline style.
#[track_caller]
pub fn assert_escaped(body: &str) {
    assert!(
        body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{body}"
    );
    assert!(
        body.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"),
        "{body}"
    );
    for t in XSS {
        assert!(!body.contains(t), "{t} came out unescaped");
    }
    assert_eq!(body.matches("<script").count(), 1, "only console.js");
    assert!(!body.contains("style="));
}

/// Rendered Markdown in `body` shows the two hostile tags of [`XSS`]-like input as text, and
/// the page holds no element they would have made.
#[track_caller]
pub fn assert_markup_is_text(body: &str) {
    assert!(
        body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{body}"
    );
    assert!(
        body.contains("&lt;img src=x onerror=alert(2)&gt;"),
        "{body}"
    );
    assert_eq!(body.matches("<script").count(), 1, "only console.js");
    assert!(!body.contains("<img"), "{body}");
}

#[test]
fn the_timeline_escapes_every_stored_string_under_a_strict_policy() {
    let env = Env::new();
    for t in XSS {
        env.deposit(t, &["--tag", t, "--type", "decision"]);
    }
    env.deposit("plain", &[]);
    let server = Served::start(&env, &[]);
    let (head, body) = get(&env, &server.at("/"));
    assert_page(&head);
    assert_escaped(&body);
    assert!(body.contains(r#"<script src="/console/console.js" defer></script>"#));

    // Filters: by type, and by a tag that is itself hostile.
    let (_, decisions) = get(&env, &server.at("/?project=demo&type=decision"));
    assert_eq!(decisions.matches("class=\"package\"").count(), 2);
    let (_, tagged) = get(
        &env,
        &server.at("/?tag=%3Cscript%3Ealert(1)%3C%2Fscript%3E"),
    );
    assert_eq!(tagged.matches("class=\"package\"").count(), 1);
    assert!(
        tagged.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;\""),
        "{tagged}"
    );

    for asset in ["/console/console.css", "/console/console.js"] {
        let (head, body) = get(&env, &server.at(asset));
        assert!(head.starts_with("http/1.1 200"), "{asset}: {head}");
        assert!(head.contains("content-security-policy:"), "{asset}");
        assert!(!body.is_empty());
    }
    let (head, body) = get(&env, &server.at("/?project=nope"));
    assert!(head.starts_with("http/1.1 404"), "{head}");
    assert!(body.contains("project_not_found"), "{body}");
    let (head, _) = get(&env, &server.at("/?colour=red"));
    assert!(head.starts_with("http/1.1 400"), "{head}");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn the_timeline_pages_by_time_without_gaps_or_repeats() {
    let env = Env::new();
    let mut made = Vec::new();
    for i in 0..53 {
        made.push(env.deposit(&format!("package {i}"), &[]));
    }
    let server = Served::start(&env, &[]);
    let ids = |body: &str| -> Vec<String> {
        body.split("data-id=\"")
            .skip(1)
            .map(|s| s[..s.find('"').unwrap()].to_string())
            .collect()
    };
    let (_, first) = get(&env, &server.at("/"));
    let first_ids = ids(&first);
    assert_eq!(first_ids.len(), 50);
    let start = first
        .find("class=\"older\" href=\"")
        .expect("a link to older packages")
        + 20;
    let link = first[start..start + first[start..].find('"').unwrap()].replace("&amp;", "&");
    let (_, second) = get(&env, &server.at(&link));
    let second_ids = ids(&second);
    assert!(
        !second.contains("class=\"older\""),
        "the last page links no further"
    );
    let mut all: Vec<String> = first_ids.into_iter().chain(second_ids).collect();
    all.reverse();
    assert_eq!(all, made, "every package once, newest first");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

/// The console in a real browser: Debian's headless Chromium, driven by Selenium in the venv
/// `.ci/run` makes (tests/console/test_console.py), against `relay ui`: its link logs in,
/// hostile titles are text in the DOM and run nothing, a filter narrows the timeline, a
/// search finds a package by meaning (with the test model), a flagged package is approved
/// with a note from the review queue, and a deposit made with the CLI appears without a
/// reload. Skipped, saying why, where the browser, its driver or Selenium is missing.
#[test]
fn in_chromium_the_timeline_shows_hostile_titles_as_text_and_deposits_live() {
    let skip = |why: &str| eprintln!("SKIPPED the console's browser test: {why}");
    let Some(python) = std::env::var("RELAY_MCP_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
    else {
        return skip("RELAY_MCP_PYTHON is not set (.ci/run sets it)");
    };
    let chromium = std::env::var("RELAY_CHROMIUM").unwrap_or("/usr/bin/chromium".into());
    let driver = std::env::var("RELAY_CHROMEDRIVER").unwrap_or("/usr/bin/chromedriver".into());
    for path in [&chromium, &driver] {
        if !std::path::Path::new(path).exists() {
            return skip(&format!(
                "{path} is missing: apt-get install chromium chromium-driver (.ci/run does)"
            ));
        }
    }
    let env = Env::new();
    let has_selenium = env
        .program(&python, &["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_selenium {
        return skip(&format!(
            "{python} has no selenium: pip install -r tests/console/requirements.txt (.ci/run does)"
        ));
    }
    // As a person would: `relay ui`, with the embedding model where there is one.
    let model = crate::search_semantic::test_model();
    let model_path = model.as_ref().map(|m| m.to_string_lossy().into_owned());
    let mut args = vec!["--actor", "ana", "--actor-type", "human"];
    if let Some(m) = &model_path {
        args.extend(["--model", m.as_str()]);
    }
    let (server, link) = Served::ui(&env, &args);
    let shots = std::env::var("RELAY_CONSOLE_SHOTS")
        .unwrap_or_else(|_| env.path("shots").to_string_lossy().into_owned());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/console/test_console.py");
    let store = env.dir.to_string_lossy().into_owned();
    let scratch = env.path("tmp");
    std::fs::create_dir_all(&scratch).unwrap();
    let mut script_args = vec![script, &link, crate::harness::BIN, &store, &shots];
    if model.is_some() {
        script_args.push("meaning");
    }
    let out = env
        .program(&python, &script_args)
        // Chromium leaves its scratch folders in TMPDIR: the test's own, removed with it.
        .env("TMPDIR", &scratch)
        .env("RELAY_CHROMIUM", &chromium)
        .env("RELAY_CHROMEDRIVER", &driver)
        .output()
        .expect("run the browser test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "tests/console/test_console.py failed:\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.contains("ok:"), "{stdout}");
    let (code, server_stderr) = server.stop();
    assert_eq!(code, Some(0), "{server_stderr}");
}

#[test]
fn a_package_page_shows_every_field_escaped_its_history_and_its_verified_hash() {
    let env = Env::new();
    let parent = env.deposit("The parent", &[]);
    let id = env.deposit(
        XSS[0],
        &[
            "--description",
            XSS[1],
            "--decision",
            XSS[0],
            "--question",
            "Why <b>not</b>?",
            "--handoff",
            "Next: ship",
            "--tag",
            "web",
            "--parent",
            &parent,
            "--status",
            "awaiting_review",
            "--review",
            "human",
        ],
    );
    env.ok(&["review", "approve", &id, "--note", "<i>fine</i>"]);
    let server = Served::start(&env, &[]);
    let (head, body) = get(&env, &server.at(&format!("/packages/{id}")));
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-security-policy:"), "{head}");
    for t in XSS {
        assert!(!body.contains(t), "{t} came out unescaped");
    }
    assert!(body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(body.contains("Why &lt;b&gt;not&lt;/b&gt;?"));
    assert!(
        body.contains(&format!(r#"href="/packages/{parent}""#)),
        "a link to the parent"
    );
    assert!(body.contains("✓ verified"), "{body}");
    assert!(
        body.contains("version 1: deposited awaiting_review"),
        "{body}"
    );
    assert!(
        body.contains("version 2: approve awaiting_review → complete by tester"),
        "{body}"
    );
    assert!(body.contains("&lt;i&gt;fine&lt;/i&gt;"));
    assert!(body.contains("<code title=\"sha256:"), "{body}");
    // The timeline links to it.
    let (_, timeline) = get(&env, &server.at("/"));
    assert!(timeline.contains(&format!(r#"href="/packages/{id}""#)));
    let (head, body) = get(&env, &server.at("/packages/pkg_nope"));
    assert!(head.starts_with("http/1.1 404"), "{head}");
    assert!(body.contains("package_not_found"));
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn search_marks_the_query_words_in_escaped_results() {
    let env = Env::new();
    let leak = env.deposit(
        "Memory leaking in the <worker>",
        &["--handoff", "Fix the leak & restart"],
    );
    env.deposit("Timezone bug in invoice dates", &[]);
    let server = Served::start(&env, &[]);
    let (head, body) = get(&env, &server.at("/search?q=leak&mode=keyword"));
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-security-policy:"));
    assert_eq!(body.matches("class=\"result\"").count(), 1, "{body}");
    assert!(body.contains(&format!(r#"href="/packages/{leak}""#)));
    assert!(
        body.contains("Memory <mark>leaking</mark> in the &lt;worker&gt;"),
        "{body}"
    );
    assert!(
        body.contains("Fix the <mark>leak</mark> &amp; restart"),
        "{body}"
    );
    assert!(body.contains("this server has no embedding model"));
    let (_, none) = get(&env, &server.at("/search?q=%3Cscript%3E"));
    assert!(none.contains("value=\"&lt;script&gt;\""), "{none}");
    assert!(none.contains("Nothing matches."));
    let (head, body) = get(&env, &server.at("/search?q=leak&search=semantic"));
    assert!(head.starts_with("http/1.1 501"), "{head}");
    assert!(body.contains("search_not_supported"));
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn the_timeline_shows_callsigns_and_filters_by_time() {
    let env = Env::new();
    env.ok(&["session", "start", "--callsign", "<b>night-owl</b>"]);
    env.deposit("in a session", &[]);
    let server = Served::start(&env, &[]);
    let (_, body) = get(&env, &server.at("/"));
    assert!(
        body.contains("class=\"session\" title=\"sess_"),
        "the session id is kept as the title: {body}"
    );
    assert!(
        body.contains("\">&lt;b&gt;night-owl&lt;/b&gt;</span>"),
        "{body}"
    );
    let (_, recent) = get(&env, &server.at("/?since=1d"));
    assert_eq!(recent.matches("class=\"package\"").count(), 1);
    assert!(recent.contains("name=\"since\" value=\"1d\""));
    let (_, future) = get(&env, &server.at("/?since=2099-01-01"));
    assert_eq!(future.matches("class=\"package\"").count(), 0);
    assert!(future.contains("No packages match."));
    let (head, bad) = get(&env, &server.at("/?since=someday"));
    assert!(head.starts_with("http/1.1 400"), "{head}");
    assert!(bad.contains("since"), "{bad}");
}

/// Only the first page of the timeline is live (`data-live`, which the script needs before
/// it opens the event stream); its list is one element the script replaces with the same
/// element of the page fetched again.
#[test]
fn only_the_first_page_of_the_timeline_is_live() {
    let env = Env::new();
    env.deposit("A package", &[]);
    let server = Served::start(&env, &[]);
    let (_, first) = get(&env, &server.at("/?type=standard"));
    assert!(
        first.contains("<main id=\"timeline\" data-project=\"demo\" data-live>"),
        "{first}"
    );
    assert_eq!(first.matches("id=\"live\"").count(), 1);
    let list = &first[first.find("id=\"live\"").unwrap()..];
    assert!(list.contains("class=\"package\""), "{first}");
    let (_, older) = get(&env, &server.at("/?type=standard&until=2099-01-01"));
    assert!(
        older.contains("<main id=\"timeline\" data-project=\"demo\">"),
        "{older}"
    );
    let js = include_str!("../../crates/relay-server/src/console/console.js");
    assert!(js.contains("\"live\" in main.dataset"), "{js}");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

/// Issue 36: the live timeline in a real browser shows exactly what a reload shows: the same
/// filters, drafts only to their author, and nothing new on an older page
/// (tests/console/test_live.py). Skipped, saying why, where the browser, its driver or
/// Selenium is missing.
#[test]
fn in_chromium_the_live_timeline_shows_what_a_reload_would() {
    let skip = |why: &str| eprintln!("SKIPPED the live timeline's browser test: {why}");
    let Some(python) = std::env::var("RELAY_MCP_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
    else {
        return skip("RELAY_MCP_PYTHON is not set (.ci/run sets it)");
    };
    let chromium = std::env::var("RELAY_CHROMIUM").unwrap_or("/usr/bin/chromium".into());
    let driver = std::env::var("RELAY_CHROMEDRIVER").unwrap_or("/usr/bin/chromedriver".into());
    if let Some(missing) = [&chromium, &driver]
        .into_iter()
        .find(|p| !std::path::Path::new(p).exists())
    {
        return skip(&format!("{missing} is missing (.ci/run installs it)"));
    }
    let env = Env::new();
    let has_selenium = env
        .program(&python, &["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_selenium {
        return skip(&format!("{python} has no selenium (.ci/run installs it)"));
    }
    let (server, link) = Served::ui(&env, &["--actor", "ana", "--actor-type", "human"]);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/console/test_live.py");
    let store = env.dir.to_string_lossy().into_owned();
    let scratch = env.path("tmp");
    std::fs::create_dir_all(&scratch).unwrap();
    let out = env
        .program(&python, &[script, &link, crate::harness::BIN, &store])
        .env("TMPDIR", &scratch)
        .env("RELAY_CHROMIUM", &chromium)
        .env("RELAY_CHROMEDRIVER", &driver)
        .output()
        .expect("run the browser test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "tests/console/test_live.py failed:\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.contains("ok:"), "{stdout}");
    let (code, server_stderr) = server.stop();
    assert_eq!(code, Some(0), "{server_stderr}");
}
