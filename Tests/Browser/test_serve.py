# SPDX-License-Identifier: Apache-2.0
"""`photomap serve` in a real browser (headless Chromium): pages from the server, a callout's square
fetched through the cache when the callout opens (the upstream image server sees one request, a
second browser session none), the search box, and hostile records that never run. Only the local
server is reachable."""

import json
import os
import pathlib
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from conftest import new_page, settle
from test_pages import BINARY, REPO, REYKJAVIK, cache_in, hostile, no_trouble, zoom_in_until_pins  # noqa: F401 (hostile: a fixture)

SAN_FRANCISCO = "ls4gmTBTk_4feZKqXyis"


def start_serve(work, env=None, image_host=None, extra=()):
    """`photomap serve` on a free port (global options `extra` before it); returns (process, base URL).
    Its stderr goes to a file. Every browser session of a run comes from 127.0.0.1 and Chromium keeps each
    one's connections open until the server's 30 s idle timeout: 20–36 at once on a loaded 2-core machine,
    more on a faster one, over serve's default of 64 a client (a refused script left a map never ready)."""
    log = open(work / "serve.log", "w")
    arguments = ([str(BINARY), *extra] + (["--image-host", image_host] if image_host else [])
                 + ["serve", "--listen", "127.0.0.1:0", "--max-client-connections", "1024"])
    process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                               env={**os.environ, "PHOTOMAP_CACHE": str(cache_in(work, env)), **(env or {})})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        text = (work / "serve.log").read_text()
        if "serving http://" in text:
            return process, text.split("serving ")[1].split("/ ")[0]
        assert process.poll() is None, text
        time.sleep(0.1)
    process.kill()
    pytest.fail("photomap serve did not start")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The embedded catalog served, its images from a counting image server over Fixtures/images."""
    work = tmp_path_factory.mktemp("serve")
    images = subprocess.Popen([sys.executable, str(REPO / "Tests/Support/image_server.py"), "--root", str(REPO / "Fixtures/images"),
                               "--port", "0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    image_base = "http://127.0.0.1:" + images.stdout.readline().split()[1]
    process, base = start_serve(work, image_host=image_base + "/ok")
    yield base, image_base
    process.terminate()
    process.wait(timeout=10)
    images.stdin.close()
    images.wait(timeout=10)


def upstream_requests(image_base, photo_id):
    """How many times the image server was asked for the photo's square."""
    with urllib.request.urlopen(image_base + "/_counts", timeout=10) as answer:
        counts = json.load(answer)
    return sum(n for path, n in counts.items() if f"/{photo_id}_" in path and path.endswith("_s.png"))


def open_callout(page, base, title=None):
    """Opens Reykjavík's map and a callout (the one titled `title`, or the first); returns its square."""
    page.goto(f"{base}/places/{REYKJAVIK}", wait_until="load")
    page.wait_for_selector("body[data-map-ready]")
    zoom_in_until_pins(page, ".cluster-bubble", 8)
    pin = page.locator(f'.photomap-pin[title="{title}"]' if title else ".photomap-pin").first
    pin.click()
    callout = page.wait_for_selector(".leaflet-popup .callout")
    thumb = callout.query_selector("img.callout-thumb")
    page.wait_for_function("img => img.complete && img.naturalWidth === 75 && !img.src.endsWith('placeholder.svg')", arg=thumb)
    return pin.get_attribute("title"), thumb.get_attribute("src")


def test_callout_square_is_fetched_when_it_opens_then_comes_from_the_cache(browser, served):
    base, image_base = served
    session = new_page(browser)
    page = next(session)
    page.allow_origin(base)
    title, square = open_callout(page, base)
    photo_id = square.rsplit("/", 1)[1]
    assert square == f"/squares/{photo_id}"
    assert upstream_requests(image_base, photo_id) == 1
    no_trouble(page)
    session.close()

    # A second browser session (nothing in its own cache): the server answers from its cache.
    second = new_page(browser)
    page = next(second)
    page.allow_origin(base)
    assert open_callout(page, base, title)[1] == square
    assert upstream_requests(image_base, photo_id) == 1
    assert page.blocked_requests == [] or all("tile.openstreetmap.org" in url for url in page.blocked_requests)
    no_trouble(page)
    second.close()


def test_search_box_centres_on_a_place_or_shows_matches_in_view(browser, served):
    base, _ = served
    session = new_page(browser)
    page = next(session)
    page.allow_origin(base)
    page.goto(f"{base}/", wait_until="load")
    page.fill("form.search input", "Paris")
    page.press("form.search input", "Enter")
    page.wait_for_selector("body[data-search-results='1']")
    assert page.get_attribute("body", "data-view") == "map"
    assert "Paris" in page.inner_text(".search-status")
    assert page.locator(".leaflet-popup .callout-title").inner_text() == "Paris"

    page.goto(f"{base}/places/{SAN_FRANCISCO}", wait_until="load")
    page.wait_for_selector("body[data-map-ready]")
    page.fill("form.search input", "bridge")
    page.press("form.search input", "Enter")
    page.wait_for_function("() => Number(document.body.getAttribute('data-search-results')) > 1")
    assert "results for" in page.inner_text(".search-status")
    no_trouble(page)
    session.close()


def test_hostile_records_stay_inert_when_served(browser, hostile, tmp_path):
    work, evil = hostile
    process, base = start_serve(tmp_path, env={"PHOTOMAP_FIXTURES": str(work / "catalog")})
    try:
        session = new_page(browser)
        page = next(session)
        page.allow_origin(base)
        dialogs = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for path in ["/", "/places/EVIL"]:
            page.goto(base + path, wait_until="load")
            page.click("button[data-show=map]")
            page.wait_for_selector("body[data-map-ready]")
            # Each callout opened from the first view: the map pans an opening callout clear of its controls.
            view = page.evaluate("() => { const m = photomap.showMap(), c = m.getCenter(); return [c.lat, c.lng, m.getZoom()]; }")
            for pin in range(page.locator(".photomap-pin").count()):
                page.locator(".photomap-pin").nth(pin).click(force=True)
                page.wait_for_timeout(100)
                page.evaluate("([lat, lon, zoom]) => { const m = photomap.showMap(); m.closePopup(); "
                              "m.setView([lat, lon], zoom, { animate: false }); }", view)
            assert page.evaluate("() => window.__pwned") is None
            no_trouble(page)
        page.click("button[data-show=list]")
        assert evil[1] in page.locator("#list .title").all_inner_texts()
        for link in page.eval_on_selector_all("#list a[href^='/photos/']", "links => links.map(a => a.getAttribute('href'))"):
            if not link[len("/photos/"):].isdigit():
                # An id not shaped as Flickr's ("../../escaped") is refused at the door, not looked up.
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(base + link)
                assert refused.value.code == 400
                continue
            page.goto(base + link, wait_until="load")
            settle(page)
            assert page.evaluate("() => window.__pwned") is None
            no_trouble(page)
        assert dialogs == []
        session.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
