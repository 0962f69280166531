# SPDX-License-Identifier: Apache-2.0
"""Opens a photomap list page in headless Chromium (from disk, network blocked) and prints, beside issue
10's targets (≤ 1.5 MB, interactive ≤ 1 s from file://), medians of ROUNDS fresh opens of:
- the page's size (its data is inside it: nothing else is loaded but the shared assets);
- time to interactive: from navigation start to the page scripts' User Timing mark (the map with its
  markers placed, opened at #map; the list with its pager, opened at #list), and the wall time seen
  from Playwright, which adds the browser's own start of a tab;
- the floor measured in the same run: the same page with its entries taken out (Leaflet, styles,
  script and an empty map or list: what any page costs);
- reaching the list's last entry (the pager's "Last" button) and one pan of the map.
Used by bench/export.sh; also `python bench/open_page.py PAGE.html [ROUNDS]`."""
import json
import os
import re
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

TARGET_MB, TARGET_S = 1.5, 1.0
page_file = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("ROUNDS", "3"))


def without_entries(path):
    """A copy of the page beside it (so its relative links hold) with no entries: the floor."""
    html = open(path, encoding="utf-8").read()
    data = re.search(r'(<script type="application/json" id="photomap-annotations">)(.*?)(</script>)', html, re.S)
    annotations = json.loads(data.group(2))
    for name, column in annotations["entries"].items():
        annotations["entries"][name] = [] if isinstance(column, list) else {**column, "rows": []}
    annotations["labels"] = []
    text = json.dumps(annotations).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    html = html[:data.start(2)] + text + html[data.end(2):]
    html = re.sub(r'<ul class="annotations">.*?</ul>', '<ul class="annotations"></ul>', html, flags=re.S)
    floor = os.path.join(os.path.dirname(path), ".floor-" + os.path.basename(path))
    with open(floor, "w", encoding="utf-8") as f:
        f.write(html)
    return floor


def open_once(browser, path, view):
    """Opens path at #view in a fresh context; returns (page, context, in-page seconds, wall seconds, errors)."""
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    start = time.monotonic()
    page.goto("file://" + path + "#" + view, wait_until="commit")
    page.wait_for_selector(f"body[data-{view}-ready]", state="attached", timeout=120_000)
    wall = time.monotonic() - start
    mark = page.evaluate(f"() => performance.getEntriesByName('photomap-{view}-ready')[0].startTime") / 1000
    return page, context, mark, wall, errors


def median(values):
    return statistics.median(values) if values else float("nan")


floor_file = without_entries(page_file)
results = {}
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND"])
    errors, pans, lasts, markers = [], [], [], 0
    for _ in range(rounds):
        for label, path in (("page", page_file), ("floor", floor_file)):
            for view in ("map", "list"):
                page, context, mark, wall, page_errors = open_once(browser, path, view)
                results.setdefault((label, view), []).append((mark, wall))
                errors += page_errors
                if label == "page" and view == "map":
                    markers = page.evaluate("() => document.querySelectorAll('.leaflet-marker-icon').length")
                    start = time.monotonic()
                    for step in range(10):
                        page.mouse.move(600, 400)
                        page.mouse.down()
                        page.mouse.move(600 + (40 if step % 2 else -40), 430, steps=5)
                        page.mouse.up()
                    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
                    pans.append((time.monotonic() - start) / 10)
                if label == "page" and view == "list" and page.locator("button[data-page=last]").count():
                    total = page.get_attribute("body", "data-list-ready")
                    start = time.monotonic()
                    page.click("button[data-page=last]")
                    page.wait_for_function("n => document.querySelector('.pager-status').textContent.endsWith('of ' + n)"
                                           " && document.querySelector('.pager-status').textContent.includes(n + ' of')", arg=total)
                    lasts.append(time.monotonic() - start)
                context.close()
    browser.close()
os.remove(floor_file)

size_mb = os.path.getsize(page_file) / 1e6
print(f"  browser, {os.path.basename(page_file)}, medians of {rounds} fresh opens from file:// (network blocked):")
print(f"    page size {size_mb:8.2f} MB{'':27}target ≤ {TARGET_MB} MB")
for view in ("map", "list"):
    page_mark, page_wall = (median([r[i] for r in results[("page", view)]]) for i in (0, 1))
    floor_mark, floor_wall = (median([r[i] for r in results[("floor", view)]]) for i in (0, 1))
    print(f"    {view} interactive {page_mark:6.2f} s in page, {page_wall:5.2f} s wall; "
          f"floor (no entries) {floor_mark:5.2f} s, {floor_wall:5.2f} s wall   target ≤ {TARGET_S} s")
if lasts:
    print(f"    list's last entry shown {median(lasts) * 1000:6.0f} ms after pressing Last")
print(f"    one pan {median(pans) * 1000:.0f} ms; {markers} markers/clusters in view; script errors: {len(errors)}")
