# SPDX-License-Identifier: Apache-2.0
"""The map of everything (`serve`'s /map over imported photos): at zooms 2, 8 and 14 it draws exactly
the clusters /api/map answers for the tiles in view; its header fits a phone and a desktop; axe-core
finds nothing in light and dark, with a callout opened from the keyboard."""

import os
import random
import subprocess

import pytest

from conftest import new_page, settle, steady
from test_access import HEADER_BOXES, axe_violations, device, focus_a_pin, overlap
from test_import import exif_block, jpeg
from test_pages import BINARY, no_trouble
from test_serve import start_serve

# Crowds of photos and a few strays: clusters at every zoom, single photos close in.
SPOTS = [("Ljubljana", 46.0500, 14.5000, 0.01, 90), ("Paris", 48.8566, 2.3522, 0.05, 40),
         ("Sydney", -33.8688, 151.2093, 0.5, 20), ("Anywhere", 0.0, 0.0, 60.0, 20)]


def spotted_photos(work):
    """The SPOTS' photos, in crowds and strays, dated over six years, as JPEGs in work/photos: that folder."""
    photos = work / "photos"
    photos.mkdir()
    shuffle = random.Random(48)
    for name, lat, lon, spread, count in SPOTS:
        for i in range(count):
            at = (lat + shuffle.uniform(-spread, spread), lon + shuffle.uniform(-spread, spread))
            taken = f"{2018 + i % 6}:{1 + i % 12:02d}:15 12:00:00"
            jpeg(photos / f"{name}-{i}.jpg", 8, 8, exif_block(at[0], at[1], f"{name} {i}", taken))
    return photos


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Photos in crowds and strays imported into a cache of their own, served with --source local."""
    work = tmp_path_factory.mktemp("world")
    photos = spotted_photos(work)
    env = {"PHOTOMAP_CACHE": str(work / "cache")}
    result = subprocess.run([str(BINARY), "import", "--visibility", "public", str(photos)], capture_output=True, text=True, timeout=300,
                            env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    process, base = start_serve(work, env=env, extra=("--source", "local"))
    yield base
    process.terminate()
    process.wait(timeout=10)


def opened(browser, base, screen="1280", scheme="light"):
    session = new_page(browser, **device(screen), color_scheme=scheme)
    page = next(session)
    page.allow_origin(base)
    page.goto(f"{base}/map", wait_until="load")
    page.wait_for_selector("body[data-map-ready]", state="attached")
    return session, page


# The counts the markers in the map show: a cluster's bubble, 1 for a photo's pin.
DRAWN = """() => [...document.querySelectorAll('#map .leaflet-marker-icon')].map(marker => {
    const bubble = marker.querySelector('.cluster-bubble');
    return bubble ? Number(bubble.textContent) : 1;
}).sort((a, b) => a - b)"""

# The counts the API gives for the tiles in view (wrapped around the antimeridian as the map draws them).
ASKED = """async (query) => {
    query = query || '';  // Playwright passes null when no argument is given
    const map = photomap.showMap(), z = Math.round(map.getZoom()), n = 2 ** z, bounds = map.getBounds();
    const nw = map.project(bounds.getNorthWest(), z).divideBy(256).floor();
    const se = map.project(bounds.getSouthEast(), z).divideBy(256).floor();
    const counts = [];
    for (let x = nw.x; x <= se.x; x++) {
        for (let y = Math.max(nw.y, 0); y <= Math.min(se.y, n - 1); y++) {
            const answer = await (await fetch(`/api/map/${z}/${((x % n) + n) % n}/${y}.json${query}`)).json();
            answer.clusters.forEach(cluster => counts.push(cluster.count));
        }
    }
    return counts.sort((a, b) => a - b);
}"""


@pytest.mark.parametrize("zoom", [2, 8, 14])
def test_the_map_draws_the_clusters_the_api_gives(browser, world, zoom):
    session, page = opened(browser, world)
    page.evaluate("z => photomap.showMap().setView([46.05, 14.5], z, { animate: false })", zoom)
    # The tiles in view are asked for as the map stops: markers come when they answer.
    page.wait_for_function("() => document.querySelectorAll('#map .leaflet-marker-icon').length > 0")
    steady(page, "document.querySelectorAll('#map .leaflet-marker-icon').length")
    drawn, asked = page.evaluate(DRAWN), page.evaluate(ASKED)
    assert asked, "no photos in view"
    assert drawn == asked
    if zoom == 2:
        assert sum(asked) >= 150, "the crowds are in view at the world's zoom"
    no_trouble(page)
    session.close()


@pytest.mark.parametrize("screen", ["390", "1280"])
def test_the_header_fits_and_links_the_map(browser, world, screen):
    session, page = opened(browser, world, screen)
    layout = page.evaluate(HEADER_BOXES)
    assert layout["scrollWidth"] <= layout["width"]
    boxes = layout["boxes"]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if not (a["name"].startswith("input.timeline-") and b["name"].startswith("input.timeline-")):
                assert not overlap(a, b), f"{a['name']} overlaps {b['name']}"
    page.goto(f"{world}/", wait_until="load")
    assert page.get_attribute("header a.world-map", "href") == "/map"
    session.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["390", "1280"])
def test_axe_finds_nothing_and_the_keyboard_opens_a_callout(browser, world, screen, scheme):
    session, page = opened(browser, world, screen, scheme)
    steady(page, "document.querySelectorAll('#map .leaflet-marker-icon').length")
    assert axe_violations(page) == []
    if screen != "390":
        session.close()
        return  # the callout from the keyboard: on the phone's screen (the desktop's is not yet checked)
    page.locator(".leaflet-marker-icon[role=button]").first.focus()
    focus_a_pin(page)
    page.keyboard.press("Enter")
    page.wait_for_selector(".leaflet-popup .callout")
    page.wait_for_timeout(400)
    assert axe_violations(page) == []
    settle(page)
    no_trouble(page)
    session.close()


def test_the_focus_waits_for_slow_tiles_then_reaches_a_marker(browser, world):
    """Zoom in from the keyboard while the new zoom's tiles are still on their way: the map holds the
    focus, then hands it to the marker nearest to the cluster when they come."""
    session, page = opened(browser, world, "390")
    steady(page, "document.querySelectorAll('#map .leaflet-marker-icon').length")
    page.evaluate("""() => { const fetched = window.fetch;
        window.fetch = (...args) => new Promise(done => setTimeout(done, 1500)).then(() => fetched(...args)); }""")
    page.locator(".leaflet-marker-icon[role=button][class*=cluster-]").first.focus()
    focus_a_pin(page)
    assert page.evaluate("() => document.activeElement.classList.contains('leaflet-marker-icon')")
    no_trouble(page)
    session.close()


def test_the_timeline_range_filters_the_tiles(browser, world):
    session, page = opened(browser, world)
    page.goto(f"{world}/map?from=2019-01&to=2019-12", wait_until="load")
    page.wait_for_selector("body[data-map-ready]", state="attached")
    steady(page, "document.querySelectorAll('#map .leaflet-marker-icon').length")
    drawn = page.evaluate(DRAWN)
    everything = page.evaluate("async () => (await (await fetch('/api/map/0/0/0.json')).json()).clusters"
                               ".reduce((n, c) => n + c.count, 0)")
    in_range = page.evaluate("async () => (await (await fetch('/api/map/0/0/0.json?from=2019-01&to=2019-12')).json())"
                             ".clusters.reduce((n, c) => n + c.count, 0)")
    assert 0 < in_range < everything
    # The world wraps at 1280 px: tiles in view (copies too) as the map draws them, over the range.
    assert drawn == page.evaluate(ASKED, "?from=2019-01&to=2019-12")
    no_trouble(page)
    session.close()
