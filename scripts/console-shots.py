"""Screenshots of the web console at desktop and phone widths, for docs/console/.

    python scripts/console-shots.py LOGIN_LINK OUT_DIR

LOGIN_LINK is the link `relay ui --no-open` printed for a store seeded by
scripts/console-shots.sh (which runs this script). Each page is shot at 1280×900 and 390×844
(a phone), the whole page's height (capped), as OUT_DIR/NAME-desktop.png and NAME-phone.png; the
pages of DARK once more at desktop width in the dark colour scheme, as NAME-dark.png.
"""

import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

LINK, OUT = sys.argv[1:3]
BASE = LINK.split("/console/")[0]
WIDTHS = {"desktop": 1280, "phone": 390}
HEIGHTS = {"desktop": 900, "phone": 844}
# The tallest shot, in CSS pixels: enough for each page's point, small files.
MAX_HEIGHT = 2000
# Pages shot in the dark scheme too: the status badges and stale marks.
DARK = {"timeline", "package"}


def browser(width):
    options = Options()
    options.binary_location = os.environ.get("RELAY_CHROMIUM", "/usr/bin/chromium")
    for flag in [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--hide-scrollbars", f"--window-size={width},900",
    ]:
        options.add_argument(flag)
    service = Service(os.environ.get("RELAY_CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def shoot(driver, width, name, kind):
    # The viewport made the page's width, then its height (measured at that width, capped).
    metrics = {"width": width, "height": HEIGHTS.get(kind, 900), "deviceScaleFactor": 1,
               "mobile": kind == "phone"}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    metrics["height"] = min(height, MAX_HEIGHT)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.save_screenshot(os.path.join(OUT, f"{name}-{kind}.png"))


def visit(driver, path):
    if path == "review-error":
        # The review form sent without a note: the form again, input kept.
        driver.get(BASE + "/review")
        form = driver.find_element(By.CSS_SELECTOR, "form.decide")
        form.find_element(By.CSS_SELECTOR, "textarea[name=note]").send_keys("  ")
        form.find_element(By.CSS_SELECTOR, "button[value=request_changes]").click()
    else:
        driver.get(BASE + path)


def main():
    os.makedirs(OUT, exist_ok=True)
    pages = [line.split(" ", 1) for line in sys.stdin.read().splitlines() if line.strip()]
    # One browser (the link logs in once), its viewport set for each width.
    driver = browser(WIDTHS["desktop"])
    try:
        driver.get(LINK)
        for kind, width in WIDTHS.items():
            for name, path in pages:
                visit(driver, path)
                shoot(driver, width, name, kind)
        dark = [{"name": "prefers-color-scheme", "value": "dark"}]
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": dark})
        for name, path in pages:
            if name in DARK:
                visit(driver, path)
                shoot(driver, WIDTHS["desktop"], name, "dark")
    finally:
        driver.quit()
    print("ok:", ", ".join(name for name, _ in pages))


if __name__ == "__main__":
    main()
