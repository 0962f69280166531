# SPDX-License-Identifier: Apache-2.0
"""Opens the map of everything in headless Chromium ROUNDS times, each in a fresh context, and prints the
medians of: the time from navigation start to the first photo's marker or cluster drawn (its tiles loaded
and placed), the wall time seen from Playwright, the markers drawn, the bytes the page loaded, and one
zoom-in (two levels, centred on the largest cluster) until its tiles are drawn. Each argument is
LABEL=URL (a file:// page, network blocked but for its own server when http). Used by
bench/world-map-export.sh: `python bench/open_world_map.py export=file:///…/map.html served=http://…/map`."""
import os
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

rounds = int(os.environ.get("ROUNDS", "5"))
TARGET_S = 1.0
MARKERS = "#map .cluster-bubble, #map .photomap-pin"
# Set before any page script runs: the moment the first photo marker is in the document.
WATCH = """window.__firstMarker = null;
new MutationObserver(function (changes, observer) {
  if (document.querySelector('%s')) { window.__firstMarker = performance.now(); observer.disconnect(); }
}).observe(document, { childList: true, subtree: true });""" % MARKERS


def open_once(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    own = url.split("/", 3)[:3]
    context.route("**/*", lambda route: route.continue_()
                  if route.request.url.startswith("file:") or route.request.url.split("/", 3)[:3] == own
                  else route.abort())
    context.add_init_script(WATCH)
    page = context.new_page()
    loaded = []
    page.on("requestfinished", lambda request: loaded.append(request))
    start = time.monotonic()
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__firstMarker !== null", timeout=120_000)
    wall = time.monotonic() - start
    first = page.evaluate("() => window.__firstMarker") / 1000
    page.wait_for_timeout(300)
    markers = page.locator(MARKERS).count()
    size = sum((request.sizes() or {}).get("responseBodySize", 0) for request in list(loaded))
    # One zoom-in, two levels, on the largest cluster: from the call until its new tiles are drawn.
    zoom = page.evaluate("""() => new Promise(done => {
        const map = photomap.showMap(), bubbles = [...document.querySelectorAll('#map .cluster-bubble')];
        const biggest = bubbles.sort((a, b) => Number(b.textContent) - Number(a.textContent))[0];
        const box = biggest.getBoundingClientRect(), frame = map.getContainer().getBoundingClientRect();
        const at = map.containerPointToLatLng([box.left + box.width / 2 - frame.left, box.top + box.height / 2 - frame.top]);
        const before = new Set(document.querySelectorAll('#map .leaflet-marker-icon'));
        const target = Math.round(map.getZoom()) + 2, start = performance.now();
        // Past an export's last zoom its tiles are those already drawn: nothing new to wait for.
        if (photomap.data.clusters && target > photomap.data.clusters.maxZoom) return done(NaN);
        map.setView(at, target, { animate: false });
        (function wait() {
            const now = [...document.querySelectorAll('#map .cluster-bubble, #map .photomap-pin')];
            if (now.length && now.every(m => !before.has(m.parentNode) && !before.has(m))) return done(performance.now() - start);
            requestAnimationFrame(wait);
        })();
    })""") / 1000
    context.close()
    return first, wall, markers, size, zoom


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
    print(f"  map of everything, medians of {rounds} fresh opens at 1280×800 (the machine is shared and busy):")
    for argument in sys.argv[1:]:
        label, url = argument.split("=", 1)
        results = [open_once(browser, url) for _ in range(rounds)]
        first, wall, markers, size = (statistics.median(r[i] for r in results) for i in range(4))
        zooms = [r[4] for r in results if r[4] == r[4]]
        zoom = statistics.median(zooms) if zooms else float("nan")
        print(f"    {label:8} first markers {first:5.2f} s in page, {wall:5.2f} s wall; {markers:4.0f} markers; "
              f"{size / 1e3:7.0f} kB loaded; zoom-in drawn {zoom * 1000:5.0f} ms   target ≤ {TARGET_S} s")
    browser.close()
