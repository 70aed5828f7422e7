"""An attack page on another origin, in a real browser: Debian's headless Chromium, driven by
Selenium, against `relay ui` (logged in, as its user would be) and `relay serve` with no token.

    python test_attack.py UI_LINK SERVE_URL RELAY_BINARY STORE_DIR PACKAGE_ID SESSION_ID

The browser opens the console with the one-time link, then visits a page at
http://evil.test:PORT/ (a name the browser resolves to 127.0.0.1, served by this script) that
tries, against both servers, what the issue found worked: archiving the project `api`,
approving PACKAGE_ID and ending SESSION_ID by form posts, by `fetch` in no-cors mode and by
`fetch` with a JSON body, approving from the console's own review form, and reading the
packages with a credentialed `fetch`. Then it plays DNS rebinding: it opens each server
under the name rebind.test (resolved to 127.0.0.1 too), where the page's own scripts are
same-origin, and reads and writes from there. Every attempt must fail: nothing read, and the
store as it was (the caller compares every log byte for byte). Last, the console that the
link opened still reads from its own origin. Exits non-zero on the first failure.
"""

import html
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

LINK, SERVE, RELAY, STORE, PACKAGE, SESSION = sys.argv[1:7]
UI = LINK.split("/console/")[0]
SECRET = "Secret roadmap"

# The page another site serves: every attack on both servers, its findings in #out.
ATTACK = """<!doctype html>
<html><head><meta charset="utf-8"><title>a page on another site</title></head>
<body><pre id="out"></pre><div id="forms"></div>
<script>
const BASES = %(bases)s, PACKAGE = %(package)s, SESSION = %(session)s;
const WRITES = ["/v1/projects/api/archive", "/v1/packages/" + PACKAGE + "/approve",
                "/v1/sessions/" + SESSION + "/end"];
const found = {reads: {}};

// A form posted into a frame of its own; resolves when its answer has loaded.
function post(action, fields) {
  return new Promise(done => {
    const name = "f" + Math.random().toString(36).slice(2);
    const frame = document.createElement("iframe");
    frame.name = name;
    frame.onload = () => done();
    document.getElementById("forms").appendChild(frame);
    const form = document.createElement("form");
    form.method = "post";
    form.action = action;
    form.target = name;
    for (const [k, v] of Object.entries(fields)) {
      const input = document.createElement("input");
      input.name = k;
      input.value = v;
      form.appendChild(input);
    }
    document.getElementById("forms").appendChild(form);
    form.submit();
    setTimeout(done, 5000);
  });
}

async function attack() {
  for (const base of BASES) {
    for (const path of WRITES) {
      await post(base + path, {title: "planted"});
      // Their answers are opaque or blocked; what they did shows in the store.
      await fetch(base + path, {method: "POST", mode: "no-cors", credentials: "include"})
        .catch(() => {});
      await fetch(base + path, {method: "POST", credentials: "include",
                                headers: {"Content-Type": "application/json"}, body: "{}"})
        .catch(() => {});
    }
    await post(base + "/console/review/" + PACKAGE, {action: "approve", note: "forged"});
    try {
      const r = await fetch(base + "/v1/projects/demo/packages?mode=latest",
                            {credentials: "include"});
      found.reads[base] = r.status + " " + await r.text();
    } catch (e) {
      found.reads[base] = "blocked";
    }
  }
  document.getElementById("out").textContent = JSON.stringify(found);
  document.title = "attacked";
}
attack();
</script></body></html>
"""


def browser():
    options = Options()
    options.binary_location = os.environ.get("RELAY_CHROMIUM", "/usr/bin/chromium")
    for flag in [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1000,800",
        # Two names for this machine: the attacker's site, and a name rebound to it.
        "--host-resolver-rules=MAP evil.test 127.0.0.1, MAP rebind.test 127.0.0.1",
        "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable",
    ]:
        options.add_argument(flag)
    # A page counts as loaded once its document is parsed, not once every frame it made has
    # loaded: the attack page's form posts go into frames, and each post already gives up on
    # its frame after 5 s. Once in a CI run a frame's load never ended and the page load held
    # `driver.get` past the client's 120 s (both servers answered other requests then).
    options.page_load_strategy = "eager"
    service = Service(os.environ.get("RELAY_CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def relay_json(*args):
    env = dict(os.environ, NO_COLOR="1")
    out = subprocess.run([RELAY, *args, "--json"], cwd=STORE, env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0, (args, out.stderr)
    return [json.loads(line) for line in out.stdout.splitlines()]


def untouched():
    """The targets are as they were."""
    for p in relay_json("projects", "list"):
        assert not p.get("archived_at"), p
    package = relay_json("pull", PACKAGE)[0]["package"]
    assert package["status"] == "awaiting_review", package
    session = [s for s in relay_json("session", "list") if s["session_id"] == SESSION][0]
    assert session["ended_at"] is None, session


def attacker_site():
    """Serves the attack page on a free port; returns the server."""
    page = ATTACK % {
        "bases": json.dumps([UI, SERVE]),
        "package": json.dumps(PACKAGE),
        "session": json.dumps(SESSION),
    }

    class Page(BaseHTTPRequestHandler):
        def do_GET(self):
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return site


def same_origin_fetch(driver, method, path):
    """What a script of the page the browser shows gets from its own origin."""
    return driver.execute_async_script(
        """const [method, path, done] = arguments;
        fetch(path, {method, credentials: "include"})
          .then(async r => done(r.status + " " + await r.text()), e => done("failed " + e));""",
        method, path)


def main():
    site = attacker_site()
    driver = browser()
    try:
        # The person: relay ui's link logs this browser in.
        driver.get(LINK)
        WebDriverWait(driver, 10).until(lambda d: d.current_url.rstrip("/") == UI)
        who = driver.find_element(By.CSS_SELECTOR, "nav.top .who").text
        assert who.startswith("Signed in as ana"), who

        # Another site, in the same browser.
        driver.get(f"http://evil.test:{site.server_address[1]}/")
        WebDriverWait(driver, 60).until(lambda d: d.title == "attacked")
        found = json.loads(driver.find_element(By.ID, "out").text)
        for base, answer in found["reads"].items():
            assert SECRET not in answer, (base, answer)
            assert answer == "blocked" or answer.split()[0] in ("401", "403"), (base, answer)
        untouched()
        print(f"ok: another site wrote nothing and read nothing ({found})")

        # DNS rebinding: each server under a name the attacker controls, where the page's
        # scripts are same-origin.
        for base in [SERVE, UI]:
            port = urlsplit(base).port
            driver.get(f"http://rebind.test:{port}/v1/projects/demo/packages?mode=latest")
            shown = driver.find_element(By.TAG_NAME, "body").text
            assert "misdirected_request" in shown and SECRET not in shown, shown
            read = same_origin_fetch(driver, "GET", "/v1/projects/demo/packages?mode=latest")
            assert read.startswith("421 ") and SECRET not in read, read
            for path in ["/v1/projects/api/archive", f"/v1/packages/{PACKAGE}/approve",
                         f"/v1/sessions/{SESSION}/end"]:
                wrote = same_origin_fetch(driver, "POST", path)
                assert wrote.startswith("421 "), (path, wrote)
        untouched()
        print("ok: under a rebound name neither server read or wrote")

        # The console the link opened still reads, from its own origin.
        driver.get(UI + "/")
        read = same_origin_fetch(driver, "GET", "/v1/projects/demo/packages?mode=latest")
        assert read.startswith("200 ") and SECRET in read, read
        titles = [html.unescape(a.text) for a in
                  driver.find_elements(By.CSS_SELECTOR, "li.package a.title")]
        assert SECRET in titles, titles
        print("ok: the console relay ui opened still reads")
    finally:
        driver.quit()
        site.shutdown()


if __name__ == "__main__":
    main()
