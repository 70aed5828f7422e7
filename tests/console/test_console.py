"""The web console in a real browser: Debian's headless Chromium, driven by Selenium.

    python test_console.py LOGIN_LINK RELAY_BINARY STORE_DIR SCREENSHOT_DIR [meaning]

LOGIN_LINK is the one-time link `relay ui --no-open` printed. The script logs in with it, loads
the timeline of a store whose titles are hostile strings and checks, in the DOM, that they are
text and ran nothing; filters the timeline with a select of the store's values; opens a
package; opens one whose fields are Markdown (rendered, hostile HTML and links inert) with
deliverables (a table, the URL a link, changed and missing files marked stale); searches by
word and, with `meaning` (the server has an embedding model), by meaning; requests changes
without a note (the form comes back with the input and the reason), then approves the flagged
package with a note from the review queue; checks orient's linked ids and the facts' "as of"
heading; then deposits with the CLI and waits for the new package to appear without a reload.
Every page is also loaded at a phone's width (390 px), where no element may be wider than the
viewport, the timeline's filters fold behind one button and the facts are cards. Screenshots
go to SCREENSHOT_DIR. Exits non-zero with a message on the first failure.
"""

import json
import os
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

LINK, RELAY, STORE, SHOTS = sys.argv[1:5]
MEANING = sys.argv[5:6] == ["meaning"]
BASE = LINK.split("/console/")[0]
# Topics with no word in common with the query that finds one of them by meaning.
TOPICS = [
    "Moved the Postgres tables to a new schema",
    "Fixed the memory leak in the image resizer",
    "Wrote the onboarding guide for new hires",
    "Renamed the billing cron jobs",
]
FLAGGED = "Rotate the signing keys <before> Friday"
MARKDOWN = (
    "Adds **CSV export** to the invoice list.\n\n- one file per month\n- see [RFC 4180]"
    "(https://www.rfc-editor.org/rfc/rfc4180)\n\n<script>window.__relay_xss = 2</script>\n\n"
    "<img src=x onerror=\"window.__relay_xss = 3\"> [trap](javascript:window.__relay_xss=4)"
)
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


def no_injection(driver):
    """Nothing a stored string holds became an element or ran."""
    assert driver.find_elements(By.CSS_SELECTOR, "main img") == [], "an injected <img>"
    scripts = driver.find_elements(By.TAG_NAME, "script")
    assert [s.get_attribute("src") for s in scripts] == [BASE + "/console/console.js"]
    assert driver.execute_script("return window.__relay_xss === undefined"), "a string ran"
    try:
        driver.switch_to.alert
        raise AssertionError("a stored string opened an alert")
    except NoAlertPresentException:
        pass


# A body in Markdown with a heading, a list and a table, as an agent writes `content_md`.
CONTENT = "## Plan\n\n- export by month\n- stream rows\n\n| Column | Type |\n|---|---|\n| date | `YYYY-MM-DD` |\n"

# No element wider than the viewport, but inside a box that scrolls sideways on purpose.
TOO_WIDE = """
const width = document.documentElement.clientWidth;
const scrolls = (e) => { for (let a = e.parentElement; a; a = a.parentElement) {
  const o = getComputedStyle(a).overflowX; if (o === 'auto' || o === 'scroll') return true; }
  return false; };
return [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > width + 1 && !scrolls(e))
  .map((e) => e.tagName + '.' + e.className + ': ' + (e.textContent || '').slice(0, 60));
"""


def fits(driver, page):
    """Nothing on the page is wider than the viewport, and the page does not scroll sideways."""
    wide = driver.execute_script(TOO_WIDE)
    assert wide == [], (page, driver.get_window_size(), wide)
    scroll = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert scroll <= 1, (page, "scrolls sideways by", scroll)


def wait_for(driver, what, seconds=10):
    try:
        WebDriverWait(driver, seconds).until(what)
    except Exception:
        body = driver.page_source
        raise AssertionError(f"waited in vain at {driver.current_url}: {body[:2000]}")


def main():
    os.makedirs(SHOTS, exist_ok=True)
    for t in TOPICS:
        relay("deposit", "--title", t, "-q")
    flagged = relay("deposit", "--title", FLAGGED, "--status", "draft", "--description",
                    "Rotate **both** keys", "-q").split()[0]
    relay("review", "flag", flagged, "--human", "--note", "needs a <b>person</b>")
    for i, t in enumerate(XSS):
        other = XSS[(i + 1) % len(XSS)]
        relay("deposit", "--title", t, "--tag", t, "--type", "decision" if i == 0 else "standard",
              "--description", other, "--decision", other, "--question", other, "--handoff", other,
              "-q")
    relay("facts", "assert", XSS[0], "owner", XSS[1])
    # A package written in Markdown, with deliverables: two files that then change or go, a URL.
    for name in ["spec.md", "gone.md"]:
        with open(os.path.join(STORE, name), "w") as f:
            f.write("# first\n")
    with open(os.path.join(STORE, "content.md"), "w") as f:
        f.write(CONTENT)
    rich = relay("deposit", "--title", "CSV export", "--description", MARKDOWN,
                 "--content-md", "content.md",
                 "--handoff", "1. wire the *button*\n2. test", "--tag", "billing",
                 "--deliverable", "spec.md", "--deliverable", "gone.md",
                 "--deliverable", "https://example.org/design", "-q").split()[0]
    with open(os.path.join(STORE, "spec.md"), "a") as f:
        f.write("changed\n")
    os.remove(os.path.join(STORE, "gone.md"))
    driver = browser()
    try:
        # The one-time link logs this browser in and lands on the timeline.
        driver.get(LINK)
        wait_for(driver, lambda d: d.current_url.rstrip("/") == BASE)
        who = driver.find_element(By.CSS_SELECTOR, "nav.top .who").text
        assert who.startswith("Signed in as ana"), who
        titles = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "li.package a.title")]
        for t in XSS:
            assert t in titles, (t, titles)
        no_injection(driver)
        # Complete packages carry no pill; the rich package shows its handoff as a preview.
        assert driver.find_elements(By.CSS_SELECTOR, "li.package .badge.s-complete") == []
        previews = [p.text for p in driver.find_elements(By.CSS_SELECTOR, "li.package .preview")]
        assert any(p.startswith("wire the button") for p in previews), previews
        driver.save_screenshot(os.path.join(SHOTS, "timeline.png"))

        # A filter narrows the timeline: a select of the store's values.
        tags = Select(driver.find_element(By.CSS_SELECTOR, "form.filters select[name=tag]"))
        assert [o.text for o in tags.options] == ["any", *sorted(XSS + ["billing"])], \
            [o.text for o in tags.options]
        box = Select(driver.find_element(By.CSS_SELECTOR, "form.filters select[name=type]"))
        assert [o.text for o in box.options] == ["any", "decision", "standard"], box.options
        box.select_by_value("decision")
        driver.find_element(By.CSS_SELECTOR, "form.filters button").click()
        WebDriverWait(driver, 10).until(lambda d: "type=decision" in d.current_url)
        shown = driver.find_elements(By.CSS_SELECTOR, "li.package")
        assert len(shown) == 1, [li.text for li in shown]

        # A package's page, by clicking its title: the title is text there too.
        shown[0].find_element(By.CSS_SELECTOR, "a.title").click()
        WebDriverWait(driver, 10).until(lambda d: "/packages/" in d.current_url)
        heading = driver.find_element(By.CSS_SELECTOR, "h1.package-title").text
        assert heading == XSS[0], heading
        # Every text field of the package is text in the DOM.
        shown = driver.find_element(By.ID, "package").text
        assert shown.count(XSS[1]) >= 4, shown
        no_injection(driver)
        assert "verified" in driver.find_element(By.CSS_SELECTOR, ".hash").text
        driver.save_screenshot(os.path.join(SHOTS, "package.png"))

        # A package in Markdown: rendered, its raw HTML text, its unsafe link only text.
        driver.get(f"{BASE}/packages/{rich}")
        prose = driver.find_element(By.CSS_SELECTOR, "#package .prose")
        assert prose.find_element(By.TAG_NAME, "strong").text == "CSV export"
        assert len(prose.find_elements(By.CSS_SELECTOR, "ul li")) == 2
        assert "<script>window.__relay_xss = 2</script>" in prose.text, prose.text
        links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "main a")]
        assert not [h for h in links if h.lower().startswith("javascript")], links
        rfc = prose.find_element(By.LINK_TEXT, "RFC 4180")
        assert rfc.get_attribute("rel") == "noopener noreferrer"
        handoff = driver.find_elements(By.CSS_SELECTOR, "#package .prose ol li em")
        assert [e.text for e in handoff] == ["button"], handoff
        no_injection(driver)
        # Its deliverables: a table, the URL a link, the changed and the missing file marked.
        rows = driver.find_elements(By.CSS_SELECTOR, "table.deliverables tbody tr")
        assert len(rows) == 3, [r.text for r in rows]
        url = driver.find_element(By.CSS_SELECTOR, "table.deliverables a")
        assert url.get_attribute("href") == "https://example.org/design"
        assert url.get_attribute("rel") == "noopener noreferrer"
        marks = [m.text for m in driver.find_elements(By.CSS_SELECTOR, "tr.stale .stale.badge")]
        assert marks == ["⚠ may be stale: changed", "⚠ may be stale: missing"], marks
        note = driver.find_element(By.CSS_SELECTOR, ".stale-note").text
        assert note.endswith("may be stale: spec.md changed, gone.md missing"), note
        status = driver.find_element(By.CSS_SELECTOR, "dl.fields .badge.s-complete")
        assert status.text == "complete"
        # Its body: content_md as HTML (a heading, a list, a table), not a line of code.
        content = driver.find_element(By.CSS_SELECTOR, "#package section.content .prose")
        assert content.find_element(By.TAG_NAME, "h2").text == "Plan"
        assert len(content.find_elements(By.CSS_SELECTOR, "ul li")) == 2
        cells = [td.text for td in content.find_elements(By.CSS_SELECTOR, "table td")]
        assert cells == ["date", "YYYY-MM-DD"], cells
        # No pill for a complete package in its byline; labels in words.
        assert driver.find_elements(By.CSS_SELECTOR, ".byline .badge") == []
        labels = [dt.text for dt in driver.find_elements(By.CSS_SELECTOR, "aside dl.fields dt")]
        assert "Package id" in labels and "package_id" not in labels, labels
        driver.save_screenshot(os.path.join(SHOTS, "package-markdown.png"))

        # Search from the timeline's box: the query's words marked in the results.
        driver.get(BASE + "/")
        box = driver.find_element(By.CSS_SELECTOR, "form.find input[name=q]")
        box.send_keys("alert")
        driver.find_element(By.CSS_SELECTOR, "form.find button").click()
        WebDriverWait(driver, 10).until(lambda d: "/search" in d.current_url)
        titles = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "li.result a.title")]
        # The three packages with the word (two in the title, one in its other fields) come
        # first; hybrid search adds the rest by meaning.
        assert sorted(titles[:3]) == sorted(XSS), titles
        if not MEANING:
            assert len(titles) == 3, titles
        marks = {m.text for m in driver.find_elements(By.CSS_SELECTOR, "li.result mark")}
        assert marks == {"alert"}, marks
        assert driver.find_elements(By.CSS_SELECTOR, "main img") == [], "an injected <img>"
        driver.save_screenshot(os.path.join(SHOTS, "search.png"))

        # By meaning: no word of the query is in the title it finds.
        if MEANING:
            box = driver.find_element(By.CSS_SELECTOR, "main form input[name=q]")
            box.clear()
            box.send_keys("documentation for people joining the team")
            box.submit()
            wait_for(driver, lambda d: "documentation" in d.current_url)
            first = driver.find_element(By.CSS_SELECTOR, "li.result a.title").text
            assert first == TOPICS[2], first
            ranks = driver.find_element(By.CSS_SELECTOR, "li.result .ranks").text
            assert "meaning #1" in ranks, ranks
            driver.save_screenshot(os.path.join(SHOTS, "search-meaning.png"))
        else:
            print("SKIPPED search by meaning: the server has no embedding model")

        # The review queue: request changes without a note, and the form comes back with the
        # input kept and why; then approve the flagged package with a note, from the page.
        driver.find_element(By.LINK_TEXT, "Review").click()
        wait_for(driver, lambda d: "/review" in d.current_url)
        item = driver.find_element(By.CSS_SELECTOR, f'li.pending[data-id="{flagged}"]')
        assert item.find_element(By.CSS_SELECTOR, ".badge.s-awaiting_review").text == "awaiting review"
        # What is being approved, rendered in the queue.
        assert item.find_element(By.CSS_SELECTOR, ".under-review .prose strong").text == "both"
        item.find_element(By.CSS_SELECTOR, "textarea[name=note]").send_keys("   ")
        item.find_element(By.CSS_SELECTOR, "button[value=request_changes]").click()
        wait_for(driver, lambda d: "/console/review/" in d.current_url)
        item = driver.find_element(By.CSS_SELECTOR, f'li.pending[data-id="{flagged}"]')
        problem = item.find_element(By.CSS_SELECTOR, ".problem").text
        assert "needs a note" in problem, problem
        kept = item.find_element(By.CSS_SELECTOR, "textarea[name=note]")
        assert kept.get_attribute("value") == "   ", repr(kept.get_attribute("value"))
        assert driver.switch_to.active_element == kept, "the note has the focus"
        last = json.loads(relay("pull", flagged, "--json").splitlines()[-1])
        assert last["package"]["status"] == "awaiting_review", last
        driver.save_screenshot(os.path.join(SHOTS, "review-error.png"))
        kept.clear()
        assert item.find_element(By.CSS_SELECTOR, "a.title").text == FLAGGED
        assert item.find_element(By.CSS_SELECTOR, "q.why").text == "needs a <b>person</b>"
        item.find_element(By.CSS_SELECTOR, "textarea[name=note]").send_keys("Checked <i>twice</i>")
        driver.save_screenshot(os.path.join(SHOTS, "review.png"))
        item.find_element(By.CSS_SELECTOR, "button[value=approve]").click()
        wait_for(driver, lambda d: "done=" in d.current_url)
        done = driver.find_element(By.CSS_SELECTOR, "p.done").text
        assert done.endswith("is now complete."), done
        assert driver.find_elements(By.CSS_SELECTOR, f'li.pending[data-id="{flagged}"]') == []
        last = json.loads(relay("pull", flagged, "--history", "--json").splitlines()[-1])
        assert last["package"]["status"] == "complete", last
        assert last["transition"]["note"] == "Checked <i>twice</i>", last
        assert last["transition"]["by"]["id"] == "ana", last

        # Facts: a hostile subject and value are text in the table.
        driver.find_element(By.LINK_TEXT, "Facts").click()
        wait_for(driver, lambda d: "/facts" in d.current_url)
        cells = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "table.facts td")]
        assert XSS[0] in cells and XSS[1] in cells, cells
        no_injection(driver)
        driver.save_screenshot(os.path.join(SHOTS, "facts.png"))
        # As of a time: the heading says so.
        box = driver.find_element(By.CSS_SELECTOR, "form.filters input[name=as_of]")
        box.send_keys("1h")
        box.submit()
        wait_for(driver, lambda d: "as_of=1h" in d.current_url)
        heading = driver.find_element(By.CSS_SELECTOR, "main h2").text
        assert heading.startswith("Facts as of 20"), heading
        assert driver.title.startswith("Facts as of 20"), driver.title

        # Orient: the briefing `relay orient` prints, rendered, hostile titles still text.
        driver.find_element(By.LINK_TEXT, "Orient").click()
        wait_for(driver, lambda d: "/orient" in d.current_url)
        briefing = driver.find_element(By.TAG_NAME, "main").text
        assert XSS[0] in briefing, briefing
        ids = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, ".briefing a.id")]
        assert f"{BASE}/packages/{rich}" in ids, ids
        no_injection(driver)
        driver.save_screenshot(os.path.join(SHOTS, "orient.png"))

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

        # Every page at a desktop's and a phone's width: nothing wider than the viewport.
        pages = ["/", f"/packages/{rich}", f"/packages/{flagged}", "/search?q=export",
                 "/review", "/facts", "/orient"]
        for width, height in [(1280, 900), (390, 844)]:
            driver.set_window_size(width, height)
            shown = driver.execute_script("return document.documentElement.clientWidth")
            assert shown <= width, ("the viewport is wider than asked", shown, width)
            for page in pages:
                driver.get(BASE + page)
                wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
                fits(driver, page)
        # On the phone: the filters folded behind one button, the facts as cards.
        driver.get(BASE + "/")
        wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
        fold = driver.find_element(By.CSS_SELECTOR, "details.fold")
        assert fold.get_attribute("open") is None, "the filters are folded on a phone"
        assert fold.find_element(By.TAG_NAME, "summary").is_displayed()
        driver.get(BASE + "/facts")
        head = driver.find_element(By.CSS_SELECTOR, "table.facts thead")
        assert not head.is_displayed(), "the facts are cards on a phone"
    finally:
        driver.quit()
    print("ok: login link, timeline, hostile titles as text, filter select, package page,"
          " Markdown and deliverables, search" + (", search by meaning" if MEANING else "")
          + ", review form kept on error, approval from the review queue, facts as of, orient ids,"
          " live deposit, every page within a desktop's and a phone's width")


if __name__ == "__main__":
    main()
