"""The console's live timeline in a real browser: Debian's headless Chromium, driven by Selenium.

    python test_live.py LOGIN_LINK RELAY_BINARY STORE_DIR

LOGIN_LINK is the one-time link `relay ui --no-open --actor ana` printed. The script opens the
first page of the timeline filtered to decisions, deposits with the CLI another actor's draft
decision, a package of another type, ana's own draft decision and a decision for everyone,
waits for the last to appear without a reload, and checks that the list then holds exactly
what a reload shows: ana's draft, not the other actor's, nothing the filter leaves out. An
older page (`until=`) opens no event stream at all. Exits non-zero with a message on the
first failure.
"""

import os
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

LINK, RELAY, STORE = sys.argv[1:4]
BASE = LINK.split("/console/")[0]

# Counts the event streams a page opens, before any of its scripts runs.
COUNT_STREAMS = """
window.__relay_streams = 0;
const RealEventSource = window.EventSource;
window.EventSource = class extends RealEventSource {
  constructor(...args) { super(...args); window.__relay_streams += 1; }
};
"""


def browser():
    options = Options()
    options.binary_location = os.environ.get("RELAY_CHROMIUM", "/usr/bin/chromium")
    for flag in [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1000,800",
    ]:
        options.add_argument(flag)
    service = Service(os.environ.get("RELAY_CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def relay(*args, actor="cli-user"):
    env = dict(os.environ, RELAY_ACTOR=actor, NO_COLOR="1")
    out = subprocess.run([RELAY, *args], cwd=STORE, env=env, capture_output=True, text=True)
    assert out.returncode == 0, (args, out.stderr)
    return out.stdout


def titles(driver):
    return [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#timeline li.package a.title")]


def loaded(driver):
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
    )


def main():
    relay("deposit", "--title", "An earlier decision", "--type", "decision", "-q")
    driver = browser()
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_STREAMS})
        driver.get(LINK)
        WebDriverWait(driver, 10).until(lambda d: d.current_url.rstrip("/") == BASE)

        # The first page, filtered: it follows the project's events.
        driver.get(BASE + "/?type=decision")
        loaded(driver)
        assert driver.execute_script("return window.__relay_streams") == 1, "no stream"
        assert titles(driver) == ["An earlier decision"], titles(driver)
        driver.execute_script("window.__not_reloaded = 1")
        relay("deposit", "--title", "Another actor's draft", "--type", "decision",
              "--status", "draft", "-q")
        relay("deposit", "--title", "Not a decision", "-q")
        relay("deposit", "--title", "Ana's own draft", "--type", "decision", "--status", "draft",
              "-q", actor="ana")
        relay("deposit", "--title", "A decision for everyone", "--type", "decision", "-q")
        # The last deposit's refresh shows the store after all four.
        WebDriverWait(driver, 15).until(lambda d: "A decision for everyone" in titles(d))
        live = titles(driver)
        assert driver.execute_script("return window.__not_reloaded") == 1, "the page reloaded"
        assert "Another actor's draft" not in live, live
        assert "Not a decision" not in live, live
        assert "Ana's own draft" in live, live
        driver.refresh()
        loaded(driver)
        assert titles(driver) == live, ("a reload shows otherwise", titles(driver), live)

        # An older page stays as it is: it opens no stream.
        driver.get(BASE + "/?type=decision&until=2099-01-01T00%3A00%3A00Z")
        loaded(driver)
        main_el = driver.find_element(By.ID, "timeline")
        assert main_el.get_attribute("data-live") is None, "an older page is live"
        assert driver.execute_script("return window.__relay_streams") == 0, "a stream opened"
    finally:
        driver.quit()
    print("ok: the live timeline shows what a reload shows (filters, drafts), older pages stay")


if __name__ == "__main__":
    main()
