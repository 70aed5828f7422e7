//! The console's logins and its one write, the review queue, at the HTTP level: a pasted
//! token and a `relay ui` link log a browser in with an `HttpOnly`, `SameSite=Strict` cookie;
//! approve and request changes from the page, as the logged-in actor; forms without their
//! token, from another site or from a read-only login are refused and write nothing; a
//! credential in the store never reaches a page.

use crate::harness::Env;
use crate::serve::{Served, logs};

/// A browser, as far as the server can tell: curl with a cookie jar of its own.
struct Browser<'a> {
    env: &'a Env,
    jar: String,
}

/// An answer: the status, the lower-cased head, the body.
struct Page {
    status: u16,
    head: String,
    body: String,
}

impl<'a> Browser<'a> {
    fn new(env: &'a Env, name: &str) -> Browser<'a> {
        let jar = env.dir.join(format!("{name}.cookies"));
        Browser {
            env,
            jar: jar.to_string_lossy().into_owned(),
        }
    }

    fn curl(&self, args: &[&str]) -> Page {
        let mut all = vec!["-si", "--max-time", "20", "-b", &self.jar, "-c", &self.jar];
        all.extend_from_slice(args);
        let out = self.env.program("curl", &all).output().unwrap();
        assert!(out.status.success(), "curl {args:?}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        let status = head[9..12].parse().unwrap();
        Page {
            status,
            head: head.to_lowercase(),
            body: body.to_string(),
        }
    }

    fn get(&self, url: &str) -> Page {
        self.curl(&[url])
    }

    /// Posts a form (`name=value` pairs, URL-encoded by curl) with extra `headers`.
    fn post(&self, url: &str, fields: &[(&str, &str)], headers: &[&str]) -> Page {
        let pairs: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut args: Vec<&str> = Vec::new();
        for p in &pairs {
            args.extend(["--data-urlencode", p.as_str()]);
        }
        for h in headers {
            args.extend(["-H", h]);
        }
        args.push(url);
        self.curl(&args)
    }
}

/// The form token in a page.
fn csrf(body: &str) -> String {
    let at = body
        .find(r#"name="csrf" value=""#)
        .expect("a form with a csrf token")
        + 19;
    body[at..at + 64].to_string()
}

fn flagged(env: &Env, title: &str, reviewer: &str) -> String {
    let id = env.deposit(title, &["--status", "draft"]);
    let kind = format!("--{reviewer}");
    env.ok(&["review", "flag", &id, &kind, "--note", "check <b>this</b>"]);
    id
}

/// A token that may write, for the human `ana`.
fn ana_token(env: &Env) -> String {
    env.ok_json(&["token", "create", "--actor", "ana", "--actor-type", "human"])["token"]
        .as_str()
        .unwrap()
        .to_string()
}

fn status_of(env: &Env, id: &str) -> String {
    env.ok_json(&["pull", id])["package"]["status"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_pasted_token_logs_in_with_a_strict_cookie_and_approves_from_the_queue() {
    let env = Env::new();
    let human = flagged(&env, "<script>alert(1)</script>", "human");
    let agent = flagged(&env, "agent work", "agent");
    let token = ana_token(&env);
    let server = Served::start(&env, &[]);
    let browser = Browser::new(&env, "ana");

    // With a live token, a page without a login sends the browser to the login form.
    let page = browser.get(&server.at("/review"));
    assert_eq!(page.status, 303, "{}", page.head);
    assert!(
        page.head.contains("location: /console/login"),
        "{}",
        page.head
    );
    let login = browser.get(&server.at("/console/login"));
    assert_eq!(login.status, 200);
    assert!(
        login
            .body
            .contains(r#"<input type="password" name="token""#)
    );

    // A wrong token is refused and sets nothing.
    let wrong = browser.post(
        &server.at("/console/login"),
        &[("token", "relay_nope")],
        &[],
    );
    assert_eq!(wrong.status, 401);
    assert!(!wrong.head.contains("set-cookie"));
    assert!(wrong.body.contains("Not logged in"), "{}", wrong.body);

    let ok = browser.post(&server.at("/console/login"), &[("token", &token)], &[]);
    assert_eq!(ok.status, 303, "{}", ok.body);
    assert!(
        ok.head.contains("set-cookie: relay_console=relay_")
            && ok.head.contains("; httponly; samesite=strict; path=/"),
        "{}",
        ok.head
    );

    // The queue: who flagged each package and why, human and agent apart, escaped.
    let queue = browser.get(&server.at("/review?project=demo"));
    assert_eq!(queue.status, 200);
    assert!(queue.body.contains("Signed in as ana"), "{}", queue.body);
    assert!(queue.body.contains("Awaiting human review (1)"));
    assert!(queue.body.contains("Awaiting agent review (1)"));
    assert!(queue.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(
        queue
            .body
            .contains("<q class=\"why\">check &lt;b&gt;this&lt;/b&gt;</q>")
    );
    assert!(!queue.body.contains("<script>alert"));
    let form = csrf(&queue.body);

    let url = server.at(&format!("/console/review/{human}"));
    let approved = browser.post(
        &url,
        &[
            ("csrf", &form),
            ("action", "approve"),
            ("note", "Ship it <now>"),
            ("project", "demo"),
        ],
        &[
            &format!("Origin: {}", server.url),
            "Sec-Fetch-Site: same-origin",
        ],
    );
    assert_eq!(approved.status, 303, "{}", approved.body);
    assert!(
        approved
            .head
            .contains(&format!("location: /review?project=demo&done={human}"))
    );
    assert_eq!(status_of(&env, &human), "complete");
    let history = env.ok(&["pull", &human, "--history", "--json"]);
    let last: serde_json::Value = serde_json::from_str(history.lines().last().unwrap()).unwrap();
    assert_eq!(last["transition"]["action"], "approve");
    assert_eq!(last["transition"]["note"], "Ship it <now>");
    assert_eq!(last["transition"]["by"]["id"], "ana");

    let after = browser.get(&server.at(&format!("/review?project=demo&done={human}")));
    assert!(after.body.contains("is now complete"), "{}", after.body);
    assert!(after.body.contains("Awaiting human review (0)"));

    // Request changes needs a note.
    let bare = browser.post(
        &server.at(&format!("/console/review/{agent}")),
        &[("csrf", &form), ("action", "request_changes")],
        &[],
    );
    // The queue again (not a bare error page), that package's form saying why, 422.
    assert_eq!(bare.status, 422, "{}", bare.body);
    assert!(bare.body.contains("needs a note"), "{}", bare.body);
    assert!(bare.body.contains("<main id=\"review\">"), "{}", bare.body);
    assert!(
        bare.body.contains(&format!("id=\"problem-{agent}\"")),
        "{}",
        bare.body
    );
    // §5.3: an agent's review is for an agent; ana is a human.
    let send_back = |id: &str| {
        browser.post(
            &server.at(&format!("/console/review/{id}")),
            &[
                ("csrf", &form),
                ("action", "request_changes"),
                ("note", "add tests"),
            ],
            &[],
        )
    };
    let refused = send_back(&agent);
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused.body.contains("awaits agent review"),
        "{}",
        refused.body
    );
    assert_eq!(status_of(&env, &agent), "awaiting_review");
    let revise = flagged(&env, "to revise", "human");
    let sent_back = send_back(&revise);
    assert_eq!(sent_back.status, 303, "{}", sent_back.body);
    assert_eq!(status_of(&env, &revise), "revision_requested");

    // Logging out forgets the cookie.
    let out = browser.post(&server.at("/console/logout"), &[("csrf", &form)], &[]);
    assert_eq!(out.status, 303);
    assert!(
        out.head
            .contains("set-cookie: relay_console=; httponly; samesite=strict; path=/; max-age=0"),
        "{}",
        out.head
    );
    assert_eq!(browser.get(&server.at("/review")).status, 303);
}

#[test]
fn forged_stale_and_read_only_forms_write_nothing() {
    let env = Env::new();
    let id = flagged(&env, "needs review", "human");
    let create = |extra: &[&str]| {
        let mut args = vec!["token", "create", "--actor", "ana", "--actor-type", "human"];
        args.extend_from_slice(extra);
        env.ok_json(&args)["token"].as_str().unwrap().to_string()
    };
    let writer = create(&[]);
    let second = create(&[]);
    let reader = create(&["--read-only"]);
    let server = Served::start(&env, &[]);
    let browser = Browser::new(&env, "writer");
    browser.post(&server.at("/console/login"), &[("token", &writer)], &[]);
    let form = csrf(&browser.get(&server.at("/review")).body);
    let before = logs(&env);
    let url = server.at(&format!("/console/review/{id}"));
    let approve = |b: &Browser, csrf: &str, headers: &[&str]| {
        b.post(&url, &[("csrf", csrf), ("action", "approve")], headers)
    };

    // Another site's form: the browser says so in Origin or Sec-Fetch-Site.
    let evil = approve(&browser, &form, &["Origin: http://evil.example"]);
    assert_eq!(evil.status, 403, "{}", evil.body);
    assert!(
        evil.body.contains("must come from this server"),
        "{}",
        evil.body
    );
    assert_eq!(
        approve(&browser, &form, &["Sec-Fetch-Site: cross-site"]).status,
        403
    );
    // A wrong or missing form token.
    let stale = approve(&browser, &"0".repeat(64), &[]);
    assert_eq!(stale.status, 403);
    assert!(stale.body.contains("reload the page"), "{}", stale.body);
    let missing = browser.post(&url, &[("action", "approve")], &[]);
    assert_eq!(missing.status, 400, "{}", missing.body);
    // No login at all: the cookie is what a form acts with.
    let nobody = Browser::new(&env, "nobody");
    assert_eq!(approve(&nobody, &form, &[]).status, 401);
    // Another login's token: form tokens are per login.
    let other = Browser::new(&env, "other");
    other.post(&server.at("/console/login"), &[("token", &second)], &[]);
    assert_eq!(approve(&other, &form, &[]).status, 403);
    // A read-only login sees the queue without forms, and says so.
    let looker = Browser::new(&env, "reader");
    looker.post(&server.at("/console/login"), &[("token", &reader)], &[]);
    let page = looker.get(&server.at("/review"));
    assert!(
        page.body.contains("Signed in as ana (read-only)"),
        "{}",
        page.body
    );
    assert!(
        !page
            .body
            .contains("<form method=\"post\" action=\"/console/review/")
    );
    assert!(
        page.body
            .contains("Read-only: <a href=\"/console/login\">log in</a>")
    );
    // The cookie never carries a JSON write.
    let json = browser.curl(&[
        "-X",
        "POST",
        "-H",
        "Content-Type: application/json",
        "-d",
        r#"{"title":"x"}"#,
        &server.at("/v1/projects/demo/packages"),
    ]);
    assert_eq!(json.status, 401, "{}", json.body);

    assert_eq!(logs(&env), before, "a refused form wrote something");
    assert_eq!(status_of(&env, &id), "awaiting_review");
}

#[test]
fn relay_ui_prints_a_link_that_logs_in_once_as_the_local_user() {
    let env = Env::new();
    let id = flagged(&env, "approve me", "human");
    let (server, link) = Served::ui(&env, &["--actor", "ana", "--actor-type", "human"]);
    assert!(
        link.starts_with(&format!("{}/console/login?code=", server.url)),
        "{link}"
    );
    let browser = Browser::new(&env, "ui");
    let first = browser.get(&link);
    assert_eq!(first.status, 303);
    assert!(
        first.head.contains("set-cookie: relay_console=relayui_"),
        "{}",
        first.head
    );
    assert!(first.head.contains("httponly; samesite=strict"));
    let queue = browser.get(&server.at("/review"));
    assert!(queue.body.contains("Signed in as ana"), "{}", queue.body);
    let form = csrf(&queue.body);
    let done = browser.post(
        &server.at(&format!("/console/review/{id}")),
        &[("csrf", &form), ("action", "approve"), ("note", "ok")],
        &[],
    );
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(status_of(&env, &id), "complete");

    // The link works once; without its login the console shows nothing but the login form.
    let again = Browser::new(&env, "again").get(&link);
    assert_eq!(again.status, 401);
    assert!(again.body.contains("used already"), "{}", again.body);
    let anonymous = Browser::new(&env, "anon").get(&server.at("/review"));
    assert_eq!(anonymous.status, 303);
    assert!(
        anonymous.head.contains("location: /console/login"),
        "{}",
        anonymous.head
    );
    // relay ui made no token: its login is the run's own secret.
    assert_eq!(env.ok(&["token", "list", "--json"]), "");
}

#[test]
fn a_credential_in_the_store_never_reaches_a_page() {
    let env = Env::new();
    let key = "AKIAIOSFODNN7EXAMPLE";
    let title = format!("deploy with {key}");
    let id = env
        .ok(&["--allow-secrets", "deposit", "--title", &title, "-q"])
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let server = Served::start(&env, &[]);
    for path in [
        "/".to_string(),
        format!("/packages/{id}"),
        "/search?q=deploy".to_string(),
    ] {
        let page = Browser::new(&env, "b").get(&server.at(&path));
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        assert!(!page.body.contains(key), "{path} shows the key");
        assert!(
            page.body
                .contains(" with &lt;REDACTED:aws-access-key-id&gt;"),
            "{path}: {}",
            page.body
        );
    }
}

/// A decision the lifecycle refuses, or one without its note, comes back as the queue with
/// the form (or, for a package no longer queued, the note) as it was typed and why.
#[test]
fn a_refused_decision_keeps_the_form_and_the_note() {
    let env = Env::new();
    let id = flagged(&env, "needs review", "human");
    let token = ana_token(&env);
    let server = Served::start(&env, &[]);
    let browser = Browser::new(&env, "ana");
    browser.post(&server.at("/console/login"), &[("token", &token)], &[]);
    let form = csrf(&browser.get(&server.at("/review")).body);
    let url = server.at(&format!("/console/review/{id}"));
    let before = logs(&env);
    let blank = browser.post(
        &url,
        &[
            ("csrf", &form),
            ("action", "request_changes"),
            ("note", " \t "),
        ],
        &[],
    );
    assert_eq!(blank.status, 422, "{}", blank.body);
    assert!(
        blank.body.contains("<main id=\"review\">"),
        "{}",
        blank.body
    );
    assert!(blank.body.contains("needs a note"), "{}", blank.body);
    assert!(
        blank.body.contains("aria-invalid=\"true\"") && blank.body.contains("> \t </textarea>"),
        "the note as typed: {}",
        blank.body
    );
    assert_eq!(logs(&env), before, "nothing written");

    // Approved meanwhile from the CLI: the queue no longer holds it; the note is kept.
    env.ok(&["review", "approve", &id]);
    let late = browser.post(
        &url,
        &[
            ("csrf", &form),
            ("action", "request_changes"),
            ("note", "add tests"),
        ],
        &[],
    );
    assert_eq!(
        late.status, 400,
        "invalid_transition, as the API answers: {}",
        late.body
    );
    assert!(
        late.body.contains("<section id=\"retry\">"),
        "{}",
        late.body
    );
    assert!(late.body.contains(">add tests</textarea>"), "{}", late.body);
    assert_eq!(status_of(&env, &id), "complete");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}
