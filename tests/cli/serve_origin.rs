//! Where a request to `relay serve` or `relay ui` comes from: a `Host` that is not one of the
//! server's names (DNS rebinding) is refused, a browser's request from another site without a
//! token is refused, and `relay ui` answers only the browser that opened its link. Each
//! refusal writes nothing. The real-browser attack page is at the end.

use serde_json::Value;

use crate::harness::Env;
use crate::serve::{Served, curl, logs};

/// curl `args` with `-o /dev/null`: the status alone (for answers that are HTML or empty).
fn status(env: &Env, args: &[&str]) -> u16 {
    let mut all = vec![
        "-s",
        "--max-time",
        "20",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
    ];
    all.extend_from_slice(args);
    let out = env.program("curl", &all).output().expect("run curl");
    String::from_utf8_lossy(&out.stdout).parse().unwrap()
}

/// A package awaiting human review, a second project and an open session: the targets of the
/// issue's cross-site writes (archive, approve, session end).
struct Targets {
    package: String,
    session: String,
}

fn targets(env: &Env) -> Targets {
    env.ok(&["projects", "create", "api"]);
    let package = env.deposit("Awaiting a person", &["--status", "draft"]);
    env.ok(&["review", "flag", &package, "--human"]);
    let session = env.ok_json(&["session", "start", "--actor", "bob"])["session_id"]
        .as_str()
        .unwrap()
        .to_string();
    Targets { package, session }
}

/// The targets are as they were: the project open, the package awaiting review, the session
/// open.
#[track_caller]
fn untouched(env: &Env, t: &Targets) {
    let projects = env.ok(&["projects", "list", "--json"]);
    assert!(!projects.contains("archived_at\":\"2"), "{projects}");
    let package = env.ok_json(&["pull", &t.package])["package"].clone();
    assert_eq!(package["status"], "awaiting_review", "{package}");
    let sessions = env.ok(&["session", "list", "--json"]);
    let open = sessions
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|s| s["session_id"] == t.session.as_str())
        .unwrap();
    assert!(open["ended_at"].is_null(), "{open}");
}

#[test]
fn a_request_under_another_host_name_is_refused_and_writes_nothing() {
    let env = Env::new();
    env.deposit("Secret roadmap", &[]);
    let t = targets(&env);
    let server = Served::start(&env, &["--allow-host", "relay.internal"]);
    let port = server.address.port();
    let before = logs(&env);
    // A page whose name was rebound to 127.0.0.1 sends its own name as Host.
    let evil = format!("Host: evil.example:{port}");
    let read = server.at("/v1/projects/demo/packages?mode=latest");
    let (code, body) = curl(&env, &["-H", &evil, &read]);
    assert_eq!(
        (code, body["error"].as_str()),
        (421, Some("misdirected_request")),
        "{body}"
    );
    let message = body["message"].as_str().unwrap();
    assert!(!message.contains("Secret roadmap"), "{message}");
    assert!(
        message.contains(&format!("not `evil.example:{port}`")) && message.contains("--allow-host"),
        "{message}"
    );
    let archive = server.at("/v1/projects/api/archive");
    for args in [
        vec!["-X", "POST", "-H", &evil, &archive],
        vec!["-H", "Host: evil.example", &read],
        vec!["-H", &format!("Host: 127.0.0.1:{}", port + 1), &read],
        vec!["-H", "Host:", &read],
    ] {
        let (code, body) = curl(&env, &args);
        assert_eq!(code, 421, "{args:?}: {body}");
    }
    let approve = server.at(&format!("/v1/packages/{}/approve", t.package));
    assert_eq!(curl(&env, &["-X", "POST", "-H", &evil, &approve]).0, 421);
    // The console and the descriptor too.
    assert_eq!(status(&env, &["-H", &evil, &server.at("/")]), 421);
    assert_eq!(
        status(&env, &["-H", &evil, &server.at("/v1/conformance")]),
        421
    );
    assert_eq!(logs(&env), before, "a misdirected request wrote something");
    untouched(&env, &t);
    // The server's own names, and the operator's.
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        "relay.internal".to_string(),
        format!("relay.internal:{port}"),
    ] {
        let (code, body) = curl(&env, &["-H", &format!("Host: {host}"), &read]);
        assert_eq!(code, 200, "{host}: {body}");
        assert!(body.to_string().contains("Secret roadmap"));
    }
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn a_bad_allow_host_is_a_usage_error_before_listening() {
    let env = Env::new();
    let r = env.run(&["serve", "--listen", "127.0.0.1:0", "--allow-host", "a/b"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(r.stderr.contains("NAME:PORT"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "it never listened: {}", r.stdout);
}

#[test]
fn cross_site_requests_without_a_token_are_refused_and_write_nothing() {
    let env = Env::new();
    let t = targets(&env);
    let server = Served::start(&env, &[]);
    let before = logs(&env);
    let writes = [
        server.at("/v1/projects/api/archive"),
        server.at(&format!("/v1/packages/{}/approve", t.package)),
        server.at(&format!("/v1/sessions/{}/end", t.session)),
    ];
    // What the issue sent, and each header alone, as browsers of other ages send them.
    let marks: [&[&str]; 5] = [
        &[
            "-H",
            "Origin: http://evil.example",
            "-H",
            "Sec-Fetch-Site: cross-site",
        ],
        &["-H", "Origin: http://evil.example"],
        &["-H", "Sec-Fetch-Site: cross-site"],
        // Another port of the same machine is the same site, not the same origin.
        &["-H", "Sec-Fetch-Site: same-site"],
        &["-H", "Origin: null"],
    ];
    for url in &writes {
        for mark in marks {
            let mut args = vec!["-X", "POST"];
            args.extend_from_slice(mark);
            args.push(url);
            let (code, body) = curl(&env, &args);
            assert_eq!(
                (code, body["error"].as_str()),
                (403, Some("unauthorized")),
                "{url} {mark:?}: {body}"
            );
        }
    }
    // With a JSON body, and a DELETE.
    let evil = [
        "-H",
        "Origin: http://evil.example",
        "-H",
        "Content-Type: application/json",
    ];
    let deposit = server.at("/v1/projects/demo/packages");
    let mut args = vec!["-X", "POST", "-d", r#"{"title": "planted"}"#, &deposit];
    args.extend(evil);
    let (code, body) = curl(&env, &args);
    assert_eq!(code, 403, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("must come from this server's own pages"),
        "{body}"
    );
    let facts = server.at("/v1/projects/demo/facts?subject=a&predicate=b");
    assert_eq!(
        curl(
            &env,
            &["-X", "DELETE", "-H", "Origin: http://evil.example", &facts]
        )
        .0,
        403
    );
    // Another site's fetch of a read, and a frame of the console.
    let read = server.at("/v1/projects/demo/packages");
    let fetch = [
        "-H",
        "Sec-Fetch-Site: cross-site",
        "-H",
        "Sec-Fetch-Mode: cors",
    ];
    assert_eq!(curl(&env, &[&fetch[..], &[read.as_str()]].concat()).0, 403);
    let frame = [
        "-H",
        "Sec-Fetch-Site: cross-site",
        "-H",
        "Sec-Fetch-Mode: navigate",
        "-H",
        "Sec-Fetch-Dest: iframe",
    ];
    assert_eq!(
        status(&env, &[&frame[..], &[server.at("/").as_str()]].concat()),
        403
    );
    // A browser too old to say where a form comes from still says what it sends.
    for url in &writes {
        for kind in [
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "text/plain",
        ] {
            let header = format!("Content-Type: {kind}");
            let (code, body) = curl(&env, &["-X", "POST", "-H", &header, url]);
            assert_eq!(
                (code, body["error"].as_str()),
                (415, Some("unsupported_media_type")),
                "{url} {kind}: {body}"
            );
        }
    }
    assert_eq!(logs(&env), before, "a cross-site request wrote something");
    untouched(&env, &t);

    // A link followed from another site opens the page.
    let link = [
        "-H",
        "Sec-Fetch-Site: cross-site",
        "-H",
        "Sec-Fetch-Mode: navigate",
        "-H",
        "Sec-Fetch-Dest: document",
    ];
    assert_eq!(
        status(&env, &[&link[..], &[server.at("/").as_str()]].concat()),
        200
    );
    // The server's own pages, and programs that say nothing of a site, still write.
    let own = format!("Origin: {}", server.url);
    let (code, body) = curl(
        &env,
        &[
            "-X",
            "POST",
            "-H",
            &own,
            "-H",
            "Sec-Fetch-Site: same-origin",
            &writes[0],
        ],
    );
    assert_eq!(code, 200, "{body}");
    let (code, body) = curl(&env, &["-X", "POST", &writes[2]]);
    assert_eq!(code, 200, "{body}");
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn relay_ui_answers_only_the_browser_that_opened_its_link() {
    let env = Env::new();
    env.deposit("Private notes", &[]);
    let t = targets(&env);
    let (server, link) = Served::ui(&env, &["--actor", "ana"]);
    let before = logs(&env);
    let read = server.at("/v1/projects/demo/packages");
    let archive = server.at("/v1/projects/api/archive");
    let approve = server.at(&format!("/v1/packages/{}/approve", t.package));
    // Another program on the machine, or a page that is not the console's: no login.
    let (code, body) = curl(&env, &[&read]);
    assert_eq!(
        (code, body["error"].as_str()),
        (401, Some("unauthenticated"))
    );
    assert!(
        body["message"].as_str().unwrap().contains("relay ui"),
        "{body}"
    );
    assert!(!body.to_string().contains("Private notes"));
    for url in [&archive, &approve] {
        assert_eq!(curl(&env, &["-X", "POST", url]).0, 401, "{url}");
    }
    assert_eq!(
        status(&env, &[&server.at("/")]),
        303,
        "the console asks for a login"
    );
    assert_eq!(logs(&env), before);
    untouched(&env, &t);

    // The browser that opened the link reads, and writes from the console's forms only.
    let jar = env.path("cookies");
    let jar = jar.to_str().unwrap();
    assert_eq!(status(&env, &["-c", jar, &link]), 303);
    let (code, body) = curl(&env, &["-b", jar, &read]);
    assert_eq!(code, 200, "{body}");
    assert!(body.to_string().contains("Private notes"));
    assert_eq!(curl(&env, &["-b", jar, "-X", "POST", &archive]).0, 401);
    assert_eq!(logs(&env), before);
    // The link worked once.
    assert_eq!(status(&env, &[&link]), 401);
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
}

/// The Python with Selenium, and Debian's Chromium and ChromeDriver, for a browser test; `None`
/// after saying why the test is skipped (`.ci/run` installs them).
fn chromium(env: &Env, test: &str) -> Option<(String, String, String)> {
    let skip = |why: String| eprintln!("SKIPPED {test}: {why}");
    let Some(python) = std::env::var("RELAY_MCP_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
    else {
        skip("RELAY_MCP_PYTHON is not set (.ci/run sets it)".into());
        return None;
    };
    let browser = std::env::var("RELAY_CHROMIUM").unwrap_or("/usr/bin/chromium".into());
    let driver = std::env::var("RELAY_CHROMEDRIVER").unwrap_or("/usr/bin/chromedriver".into());
    for path in [&browser, &driver] {
        if !std::path::Path::new(path).exists() {
            skip(format!(
                "{path} is missing: apt-get install chromium chromium-driver (.ci/run does)"
            ));
            return None;
        }
    }
    let has_selenium = env
        .program(&python, &["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_selenium {
        skip(format!(
            "{python} has no selenium: pip install -r tests/console/requirements.txt (.ci/run does)"
        ));
        return None;
    }
    Some((python, browser, driver))
}

/// In Chromium, a page on another origin attacks `relay ui` (logged in) and `relay serve` (no
/// token) as the issue did: form posts, no-cors and JSON fetches against archive, approve and
/// session end, the console's review form, a credentialed read; then DNS rebinding, the
/// servers opened under a name that resolves to 127.0.0.1 (tests/console/test_attack.py).
/// Nothing is read and no log changes by a byte; the console the link opened still reads.
#[test]
fn in_chromium_a_page_on_another_origin_can_neither_write_nor_read() {
    let env = Env::new();
    let test = "in_chromium_a_page_on_another_origin_can_neither_write_nor_read";
    let Some((python, browser, driver)) = chromium(&env, test) else {
        return;
    };
    env.deposit("Secret roadmap", &[]);
    let t = targets(&env);
    let serve = Served::start(&env, &[]);
    let (ui, link) = Served::ui(&env, &["--actor", "ana", "--actor-type", "human"]);
    let scratch = env.path("tmp");
    std::fs::create_dir_all(&scratch).unwrap();
    let store = env.dir.to_string_lossy().into_owned();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/console/test_attack.py");
    let before = logs(&env);
    let out = env
        .program(
            &python,
            &[
                script,
                &link,
                &serve.url,
                crate::harness::BIN,
                &store,
                &t.package,
                &t.session,
            ],
        )
        .env("TMPDIR", &scratch)
        .env("RELAY_CHROMIUM", &browser)
        .env("RELAY_CHROMEDRIVER", &driver)
        .output()
        .expect("run the browser attack test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "tests/console/test_attack.py failed:\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert_eq!(stdout.matches("ok:").count(), 3, "{stdout}");
    assert_eq!(logs(&env), before, "the attack page wrote something");
    untouched(&env, &t);
    for server in [serve, ui] {
        let (code, stderr) = server.stop();
        assert_eq!(code, Some(0), "{stderr}");
    }
}
