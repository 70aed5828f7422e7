"""The web console in a real browser: Debian's headless Chromium, driven by Selenium.

    python test_console.py BASE_URL RELAY_BINARY STORE_DIR SCREENSHOT_DIR

It loads the timeline of a store whose titles are hostile strings and checks, in the DOM, that
they are text and ran nothing; filters the timeline; opens a package; searches; then deposits with the CLI and waits for
the new package to appear without a reload. Screenshots go to SCREENSHOT_DIR. Exits non-zero
with a message on the first failure.
"""

import os
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BASE, RELAY, STORE, SHOTS = sys.argv[1:5]
XSS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    '<img src=x onerror="window.__relay_xss = 1">',
]


def browser():
    options = Options()
    options.binary_location = os.environ.get("RELAY_CHROMIUM", "/usr/bin/chromium")
    # The flags this machine's closed network needs: no background connections at start.
    for flag in [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1000,800",
    ]:
        options.add_argument(flag)
    service = Service(os.environ.get("RELAY_CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def relay(*args):
    env = dict(os.environ, RELAY_ACTOR="cli-user", NO_COLOR="1")
    out = subprocess.run([RELAY, *args], cwd=STORE, env=env, capture_output=True, text=True)
    assert out.returncode == 0, (args, out.stderr)
    return out.stdout


def main():
    os.makedirs(SHOTS, exist_ok=True)
    for i, t in enumerate(XSS):
        relay("deposit", "--title", t, "--tag", t, "--type", "decision" if i == 0 else "standard", "-q")
    driver = browser()
    try:
        driver.get(BASE + "/")
        titles = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "li.package a.title")]
        for t in XSS:
            assert t in titles, (t, titles)
        # Nothing the titles hold became an element or ran.
        assert driver.find_elements(By.CSS_SELECTOR, "main img") == [], "an injected <img>"
        scripts = driver.find_elements(By.TAG_NAME, "script")
        assert [s.get_attribute("src") for s in scripts] == [BASE + "/console/console.js"]
        assert driver.execute_script("return window.__relay_xss === undefined"), "a title ran"
        try:
            driver.switch_to.alert
            raise AssertionError("a title opened an alert")
        except NoAlertPresentException:
            pass
        driver.save_screenshot(os.path.join(SHOTS, "timeline.png"))

        # A filter narrows the timeline.
        box = driver.find_element(By.CSS_SELECTOR, "form.filters input[name=type]")
        box.send_keys("decision")
        driver.find_element(By.CSS_SELECTOR, "form.filters button").click()
        WebDriverWait(driver, 10).until(lambda d: "type=decision" in d.current_url)
        shown = driver.find_elements(By.CSS_SELECTOR, "li.package")
        assert len(shown) == 1, [li.text for li in shown]

        # A package's page, by clicking its title: the title is text there too.
        shown[0].find_element(By.CSS_SELECTOR, "a.title").click()
        WebDriverWait(driver, 10).until(lambda d: "/packages/" in d.current_url)
        heading = driver.find_element(By.CSS_SELECTOR, "h2.package-title").text
        assert heading == XSS[0], heading
        assert "verified" in driver.find_element(By.CSS_SELECTOR, ".hash").text
        driver.save_screenshot(os.path.join(SHOTS, "package.png"))

        # Search from the timeline's box: the query's words marked in the results.
        driver.get(BASE + "/")
        box = driver.find_element(By.CSS_SELECTOR, "form.find input[name=q]")
        box.send_keys("alert")
        driver.find_element(By.CSS_SELECTOR, "form.find button").click()
        WebDriverWait(driver, 10).until(lambda d: "/search" in d.current_url)
        results = driver.find_elements(By.CSS_SELECTOR, "li.result")
        assert len(results) == 2, [r.text for r in results]
        marks = {m.text for m in driver.find_elements(By.CSS_SELECTOR, "li.result mark")}
        assert marks == {"alert"}, marks
        assert driver.find_elements(By.CSS_SELECTOR, "main img") == [], "an injected <img>"
        driver.save_screenshot(os.path.join(SHOTS, "search.png"))

        # Live: a deposit from the CLI appears without a reload.
        driver.get(BASE + "/")
        WebDriverWait(driver, 10).until(
            lambda d: d.execute_script("return document.readyState") == "complete"
        )
        marker = driver.execute_script("window.__not_reloaded = 1; return 1")
        assert marker == 1
        relay("deposit", "--title", "Deposited from the terminal <b>live</b>", "-q")
        WebDriverWait(driver, 15).until(
            lambda d: any(
                li.text.find("Deposited from the terminal <b>live</b>") >= 0
                for li in d.find_elements(By.CSS_SELECTOR, "#live li.package")
            )
        )
        assert driver.execute_script("return window.__not_reloaded") == 1, "the page reloaded"
        assert driver.find_elements(By.CSS_SELECTOR, "#live b") == [], "markup from a title"
        driver.save_screenshot(os.path.join(SHOTS, "timeline-live.png"))
    finally:
        driver.quit()
    print("ok: timeline, hostile titles as text, filter, package page, search, live deposit")


if __name__ == "__main__":
    main()
