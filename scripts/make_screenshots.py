# SPDX-License-Identifier: Apache-2.0
"""Makes README's screenshots: a map page with an open callout, a photo page of an exported site, and a
map served by `photomap serve` with an open callout and the search box, on a desktop and on a phone
(390 x 844, touch, device scale 2), in Debian's headless Chromium with the network blocked but for the
local server (the offline basemap shows).

Run after scripts/setup and scripts/install-browser-test-deps (PHOTOMAP_BIN names another build):
    .venv-browser/bin/python scripts/make_screenshots.py
"""
import os
import pathlib
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

REPO = pathlib.Path(__file__).resolve().parents[1]
BINARY = pathlib.Path(os.environ.get("PHOTOMAP_BIN", REPO / ".build/release/photomap"))
OUT = REPO / "docs/screenshots"
PARIS = "hS4wMLD0wPIXPXB"
LONDON = "6BsR0Pfbopcwbrdfo"


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        run = lambda *args: subprocess.run([str(BINARY), *args], cwd=work, check=True, capture_output=True,
                                           env={"PHOTOMAP_CACHE": str(work / "cache"), "PATH": "/usr/bin:/bin"})
        run("photos", "--place", PARIS, "--limit", "214", "--map", "paris.html")
        run("export", "--out", "site", "--places", "2", "--limit", "30")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                                 args=["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
            page = browser.new_page(viewport={"width": 1000, "height": 620})
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
            page.goto((work / "paris.html").as_uri())
            open_a_callout(page)
            page.screenshot(path=str(OUT / "map.png"), animations="disabled")
            photo = next(p for p in sorted((work / "site/photos").glob("*.html")) if "<a href=\"https" in p.read_text())
            page.goto(photo.as_uri())
            page.wait_for_selector("body[data-map-ready]")
            page.wait_for_timeout(300)
            page.screenshot(path=str(OUT / "photo.png"), animations="disabled")
            serve_screenshot(browser, work)
            browser.close()
    print(f"wrote map.png, photo.png, serve.png and phone.png in {OUT}", file=sys.stderr)


def open_a_callout(page):
    """Zooms into clusters until single markers show, opens the second one's callout, and waits for
    its square to load."""
    page.wait_for_selector("body[data-map-ready]")
    for _ in range(6):
        if page.locator(".photomap-pin").count() >= 3:
            break
        page.locator(".cluster-bubble").first.click()
        page.wait_for_timeout(500)
    page.locator(".photomap-pin").nth(1).click()
    page.wait_for_function("() => { const i = document.querySelector('.callout-thumb');"
                           " return i && i.complete && i.naturalWidth > 0 && !i.src.endsWith('placeholder.svg'); }")
    page.wait_for_timeout(600)  # the map pans to show the whole callout


def serve_screenshot(browser, work):
    """London's photos served by `photomap serve`, a callout open (its square fetched as it opened)."""
    log = open(work / "serve.log", "w")
    server = subprocess.Popen([str(BINARY), "serve", "--listen", "127.0.0.1:0"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=log, env={"PHOTOMAP_CACHE": str(work / "serve-cache"), "PATH": "/usr/bin:/bin"})
    try:
        while "serving http" not in (work / "serve.log").read_text():
            time.sleep(0.1)
        base = (work / "serve.log").read_text().split("serving ")[1].split("/ ")[0]
        for name, device in [("serve.png", {"viewport": {"width": 1000, "height": 620}}),
                             ("phone.png", {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                                            "has_touch": True, "device_scale_factor": 2})]:
            context = browser.new_context(**device)
            page = context.new_page()
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base) else route.abort())
            page.goto(f"{base}/places/{LONDON}")
            page.fill("form.search input", "Tower Bridge")
            open_a_callout(page)
            page.screenshot(path=str(OUT / name), animations="disabled")
            context.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
