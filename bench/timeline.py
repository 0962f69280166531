#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times a range change of the map pages' timeline in headless Chromium (from disk, network blocked), for
pages of 10,000 photos (clustered by the page itself) and 100,000 (clustered ahead of time, the page over
SiteBuilder's threshold), beside issue 36's target (≤ 300 ms) and a floor measured in the same run: the
same two animation frames with nothing changed (what the browser takes to draw a frame at all).

A range change is timed from the slider's input event to the second frame after it (the timeline applies
the range in the first: the map's markers and clusters made again, the list's first page, the counts; the
second is drawn with them), with the map shown and the list shown. Medians of ROUNDS changes, each to
another range.

    PHOTOMAP_BIN=.build/release/photomap python3 bench/timeline.py [COUNT …]
"""
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

from playwright.sync_api import sync_playwright

REPO = pathlib.Path(__file__).resolve().parents[1]
BINARY = os.environ.get("PHOTOMAP_BIN", str(REPO / ".build/release/photomap"))
ROUNDS = int(os.environ.get("ROUNDS", "9"))
COUNTS = [int(n) for n in sys.argv[1:]] or [10_000, 100_000]
TARGET_MS = 300

CHANGE = """(step) => new Promise(done => {
    const from = document.querySelector('input.timeline-from'), to = document.querySelector('input.timeline-to');
    const start = performance.now();
    if (step !== null) {
        const bins = Number(from.max) + 1;
        from.value = step % Math.floor(bins / 2);
        to.value = bins - 1 - (step * 3) % Math.floor(bins / 2);
        from.dispatchEvent(new Event('input', { bubbles: true }));
    }
    requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start)));
})"""


def make_page(work, count):
    """A map page of `count` photos copied from the embedded catalog's records (their dates from 2006 to
    2023), spread over ~0.3°."""
    subprocess.run([sys.executable, str(REPO / "bench/make_bench_catalog.py"), "--count", str(count), "--out", str(work),
                    "--spread", "0.15", "--records-from", str(REPO / "Fixtures/catalog")], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {**os.environ, "PHOTOMAP_FIXTURES": str(work / "catalog"), "PHOTOMAP_CACHE": str(work / "cache")}
    subprocess.run([BINARY, "--offline", "photos", "--place", "BENCH", "--limit", str(count), "--map", str(work / "page.html")],
                   check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return work / "page.html"


def times(page, view, step):
    page.click(f"button[data-show={view}]")
    page.wait_for_timeout(300)
    return [page.evaluate(CHANGE, None if step is None else step + k) for k in range(ROUNDS)]


def main():
    print(f"{'page':<34} {'view':<5} {'change ms':>10} {'floor ms':>9}   target")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for count in COUNTS:
            work = pathlib.Path(folder) / f"n{count}"
            path = make_page(work, count)
            clustered = (work / "page_files" / "clusters").exists()
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
            page = context.new_page()
            page.goto(path.as_uri() + "#map", wait_until="load")
            page.wait_for_selector("body[data-map-ready]", state="attached", timeout=120_000)
            label = f"{count} photos ({'tiles' if clustered else 'in page'}, {path.stat().st_size // 1024} KB)"
            for view in ["map", "list"]:
                change = statistics.median(times(page, view, 1))
                floor = statistics.median(times(page, view, None))
                print(f"{label:<34} {view:<5} {change:>10.1f} {floor:>9.1f}   ≤ {TARGET_MS} ms")
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
