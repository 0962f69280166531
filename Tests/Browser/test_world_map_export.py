# SPDX-License-Identifier: Apache-2.0
"""The exported map of everything (`export`'s map.html), opened from disk with no server: it names no tile
file, yet tells exactly which exist; at two zooms it draws exactly the clusters of its tile files in view;
a cluster's callout opens, and its grid; a photo's callout opens from the keyboard; axe-core finds
nothing at 390 px; every page's header links it."""

import json
import os
import re
import subprocess

import pytest

from conftest import new_page, open_file, settle, steady
from test_access import axe_violations, device, focus_a_pin
from test_pages import BINARY, no_trouble
from test_world_map import spotted_photos

# The counts the photos' markers show (a cluster's bubble, 1 for a photo's pin); not the places' names.
DRAWN = """() => [...document.querySelectorAll('#map .leaflet-marker-icon:not(.place-label)')].map(marker => {
    const bubble = marker.querySelector('.cluster-bubble');
    return bubble ? Number(bubble.textContent) : 1;
}).sort((a, b) => a - b)"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The crowds and strays of test_world_map, imported and exported (the public view): the site's folder."""
    work = tmp_path_factory.mktemp("world-export")
    photos = spotted_photos(work)
    env = {**os.environ, "PHOTOMAP_CACHE": str(work / "cache")}
    for arguments in (["import", "--visibility", "public", str(photos)],
                      ["--source", "local", "export", "--out", str(work / "site")]):
        result = subprocess.run([str(BINARY), *arguments], capture_output=True, text=True, timeout=600, env=env)
        assert result.returncode == 0, result.stderr
    return work / "site"


def opened(browser, site, screen="1280", scheme="light"):
    session = new_page(browser, **device(screen), color_scheme=scheme)
    page = next(session)
    open_file(page, site / "map.html")
    page.wait_for_selector("body[data-map-ready]", state="attached")
    return session, page


# The tiles in view at the zoom the clusters are drawn from (the map's, up to the last made), as "z/x/y"
# with the shift of the world copy they are drawn on.
IN_VIEW = """() => {
    const map = photomap.showMap(), last = photomap.data.clusters.maxZoom;
    const z = Math.max(0, Math.min(Math.round(map.getZoom()), last)), n = 2 ** z, bounds = map.getBounds();
    const nw = map.project(bounds.getNorthWest(), z).divideBy(256).floor();
    const se = map.project(bounds.getSouthEast(), z).divideBy(256).floor();
    const tiles = [];
    for (let x = nw.x; x <= se.x; x++) {
        for (let y = Math.max(nw.y, 0); y <= Math.min(se.y, n - 1); y++) tiles.push(`${z}/${((x % n) + n) % n}/${y}`);
    }
    return tiles;
}"""


def tile_items(site, key):
    """A tile file's items, or none when the export made no such tile (no photo there)."""
    path = site / "map" / "tiles" / f"{key}.js"
    if not path.exists():
        return []
    match = re.fullmatch(r"photomapTile\(\d+, \d+, \d+, (.*)\);\n", path.read_text(), re.S)
    assert match, path
    return json.loads(match.group(1))


def told_tiles(site, page):
    """The tiles map.html tells exist, "z/x/y": its bitmaps (bit y·2^z + x, four a hex digit, lowest first)
    and the deeper zooms' files (`photomapOccupied(z, "…")`, base-36 steps from one number to the next)."""
    bitmaps = json.loads(re.search(r'"occupied":(\[[^\]]*\])', page).group(1))
    told = set()
    for z, bitmap in enumerate(bitmaps):
        told |= {f"{z}/{n % 2 ** z}/{n // 2 ** z}" for n in range(len(bitmap) * 4)
                 if int(bitmap[n // 4], 16) >> (n % 4) & 1}
    for path in (site / "map" / "occupied").glob("*.js"):
        match = re.fullmatch(r'photomapOccupied\((\d+), "([0-9a-z,]*)"\);\n', path.read_text())
        assert match, path
        z, number = int(match.group(1)), 0
        for step in match.group(2).split(","):
            number += int(step, 36)
            told.add(f"{z}/{number % 2 ** z}/{number // 2 ** z}")
    return told


def test_the_page_tells_its_tiles_in_a_size_that_does_not_grow_with_them(exported):
    """map.html names no tile: a bitmap a zoom up to zoom 5 (1, 1, 4, 16, 64 and 256 hex digits, whatever
    the catalog), then a file a zoom; together they tell exactly the tile files the export made."""
    page = (exported / "map.html").read_text()
    tiles = exported / "map" / "tiles"
    made = {str(path.relative_to(tiles))[:-3] for path in tiles.glob("*/*/*.js")}
    assert max(int(key.split("/")[0]) for key in made) > 5, "zooms past the page's bitmaps are made"
    # The clusters' index (the coasts' own tiles are listed apart, by zoom level, not by photo).
    index = re.search(r'"clusters":\{.*?"total":\d+\}', page).group(0)
    assert '"tiles":' not in index
    assert not any(f'"{key.split("/", 1)[1]}"' in index for key in made)
    bitmaps = json.loads(re.search(r'"occupied":(\[[^\]]*\])', page).group(1))
    assert [len(bitmap) for bitmap in bitmaps] == [1, 1, 4, 16, 64, 256]
    assert told_tiles(exported, page) == made


@pytest.mark.parametrize("zoom", [2, 6])
def test_the_map_draws_its_tiles_clusters_at_two_zooms(browser, exported, zoom):
    session, page = opened(browser, exported)
    page.evaluate("z => photomap.showMap().setView([46.05, 14.5], z, { animate: false })", zoom)
    page.wait_for_function("() => document.querySelectorAll('#map .leaflet-marker-icon').length > 0")
    steady(page, "document.querySelectorAll('#map .leaflet-marker-icon').length")
    counts = sorted(item[2] for key in page.evaluate(IN_VIEW) for item in tile_items(exported, key))
    assert counts, "no photos in view"
    assert page.evaluate(DRAWN) == counts
    if zoom == 2:
        assert sum(counts) >= 150, "the crowds are in view at the world's zoom"
    # Only OpenStreetMap's tiles (the network is blocked) failed: every tile file of the site loaded.
    assert all("tile.openstreetmap.org" in url for url, _ in page.failed_loads)
    no_trouble(page)
    session.close()


def test_a_cluster_opens_its_callout_and_its_grid(browser, exported):
    session, page = opened(browser, exported)
    page.evaluate("() => photomap.showMap().setView([46.05, 14.5], 12, { animate: false })")
    page.wait_for_selector(".cluster-bubble")
    steady(page, "document.querySelectorAll('#map .leaflet-marker-icon').length")
    bubble = page.locator(".cluster-bubble").first
    count = int(bubble.inner_text())
    bubble.click()
    page.wait_for_selector(".leaflet-popup .callout-title")
    assert page.locator(".leaflet-popup .callout-title").inner_text() == f"{count} photos here"
    page.locator(".leaflet-popup .callout-grid").click()
    dialog = page.locator("dialog.grid-dialog[open]")
    dialog.wait_for()
    page.wait_for_selector("body[data-grid-page='1']", state="attached")
    assert dialog.locator("ul.grid img").count() == min(count, 100)
    # Each square links to its photo's page in the site.
    href = dialog.locator("ul.grid a").first.get_attribute("href")
    assert (exported / href).is_file()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.grid-dialog[open]", state="detached")
    no_trouble(page)
    session.close()


def test_axe_finds_nothing_at_390_and_the_keyboard_opens_a_photo(browser, exported):
    session, page = opened(browser, exported, "390")
    steady(page, "document.querySelectorAll('#map .leaflet-marker-icon').length")
    page.locator(".leaflet-marker-icon[role=button]").first.focus()
    focus_a_pin(page)
    page.keyboard.press("Enter")
    page.wait_for_selector(".leaflet-popup .callout .callout-title")
    page.wait_for_timeout(400)  # Leaflet fades a popup in
    link = page.locator(".leaflet-popup .callout a[href$='.html']").first.get_attribute("href")
    assert (exported / link).is_file()
    # Checked before axe runs: its own script asks for file:// URLs, which the page's policy refuses.
    no_trouble(page)
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    page.wait_for_selector(".leaflet-popup", state="detached")
    assert axe_violations(page) == []
    session.close()


def test_every_page_header_links_the_map(browser, exported):
    index = (exported / "index.html").read_text()
    assert '<a class="world-map" href="map.html">World map</a>' in index
    photo = next((exported / "photos").glob("*.html")).read_text()
    assert '<a class="world-map" href="../map.html">World map</a>' in photo
