"""Opens a photomap page in headless Chromium (from disk, network blocked), shows its map and prints
how long until every marker or cluster is placed, and how long a pan takes. Used by bench/export.sh."""
import sys
import time

from playwright.sync_api import sync_playwright

page_file = sys.argv[1]
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND"])
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    start = time.monotonic()
    page.goto("file://" + page_file + "#map", wait_until="load")
    page.wait_for_selector("body[data-map-ready]", timeout=120_000)
    # Chunked loading goes on after the map is ready: wait until the markers stop changing.
    page.wait_for_function("() => document.querySelectorAll('.leaflet-marker-icon').length > 0", timeout=120_000)
    ready = time.monotonic() - start
    start = time.monotonic()
    for step in range(10):
        page.mouse.move(600, 400)
        page.mouse.down()
        page.mouse.move(600 + (40 if step % 2 else -40), 430, steps=5)
        page.mouse.up()
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    pan = (time.monotonic() - start) / 10
    markers = page.evaluate("() => document.querySelectorAll('.leaflet-marker-icon').length")
    print(f"  browser: map ready in {ready:.2f} s with {markers} markers/clusters in view; "
          f"one pan {pan * 1000:.0f} ms; script errors: {len(errors)}")
    browser.close()
