"""Makes README's screenshots: a map page with an open callout, and a photo page of an exported site,
in Debian's headless Chromium with the network blocked (the offline basemap shows).

Run after scripts/setup and scripts/install-browser-test-deps:
    .venv-browser/bin/python scripts/make_screenshots.py
"""
import pathlib
import subprocess
import sys
import tempfile

from playwright.sync_api import sync_playwright

REPO = pathlib.Path(__file__).resolve().parents[1]
BINARY = REPO / ".build/release/photomap"
OUT = REPO / "docs/screenshots"
PARIS = "hS4wMLD0wPIXPXB"


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
                                                 args=["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND"])
            page = browser.new_page(viewport={"width": 1000, "height": 620})
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
            page.goto((work / "paris.html").as_uri())
            page.wait_for_selector("body[data-map-ready]")
            for _ in range(6):
                if page.locator(".photomap-pin").count() >= 3:
                    break
                page.locator(".marker-cluster").first.click()
                page.wait_for_timeout(500)
            page.locator(".photomap-pin").nth(1).click()
            page.wait_for_function("() => { const i = document.querySelector('.callout-thumb');"
                                   " return i && i.complete && !i.src.endsWith('placeholder.svg'); }")
            page.screenshot(path=str(OUT / "map.png"), animations="disabled")
            photo = next(p for p in sorted((work / "site/photos").glob("*.html")) if "<a href=\"https" in p.read_text())
            page.goto(photo.as_uri())
            page.wait_for_selector("body[data-map-ready]")
            page.wait_for_timeout(300)
            page.screenshot(path=str(OUT / "photo.png"), animations="disabled")
            browser.close()
    print(f"wrote {OUT / 'map.png'} and {OUT / 'photo.png'}", file=sys.stderr)


if __name__ == "__main__":
    main()
