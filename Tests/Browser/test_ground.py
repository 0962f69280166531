# SPDX-License-Identifier: Apache-2.0
"""A map is never blank: offline, every kind of page (an index of imported photos across a country, an
exported site of them, a `--map` page of a place's photos, a served place page) draws ground — the world
outline or the coasts, land or water — at every zoom from 0 to 18 in the half steps the map snaps to
(`zoomSnap: 0.5`): the coasts start at their first level's zoom (7), and between 6 and 7 the outline
stays. One page load per kind; the zoom is set in a loop."""

import os
import subprocess

import pytest

from conftest import new_page, open_file
from test_import import exif_block, jpeg
from test_pages import BINARY, REPO, no_trouble
from test_serve import SAN_FRANCISCO, start_serve

pytestmark = pytest.mark.skipif(not (REPO / "Fixtures/basemap/coasts.bin").exists(),
                                reason="no Fixtures/basemap/coasts.bin: run scripts/make_coasts.py")

# Photos from one end of Italy to the other: their index fits them at about zoom 6.5 (the blank zoom).
ITALY = [("Milano", 45.4642, 9.19), ("Venezia", 45.4408, 12.3155), ("Firenze", 43.7696, 11.2558),
         ("Roma", 41.9028, 12.4964), ("Napoli", 40.8518, 14.2681), ("Bari", 41.1171, 16.8719),
         ("Palermo", 38.1157, 13.3615)]

ZOOMS = [step / 2 for step in range(0, 37)]  # 0, 0.5, …, 18

# In the page: each zoom set around the map's first view, then up to 10 s for ground to be drawn inside the
# map (the outline's countries, or a coast tile's water or land: scripts load); the zooms without any.
SWEEP = """async zooms => {
    const map = photomap.showMap(), centre = map.getCenter(), box = map.getContainer().getBoundingClientRect();
    const panes = '.leaflet-basemap-pane path, .leaflet-coast0-pane path, .leaflet-coast1-pane path';
    const drawn = () => [...document.querySelectorAll(panes)].some(path => {
        const r = path.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom;
    });
    const blank = [];
    for (const zoom of zooms) {
        map.setView(centre, zoom, { animate: false });
        if (map.getZoom() !== zoom) { blank.push('not at ' + zoom); continue; }
        const start = performance.now();
        while (!drawn() && performance.now() - start < 10000) await new Promise(done => setTimeout(done, 25));
        if (!drawn()) blank.push(zoom);
    }
    return blank;
}"""


@pytest.fixture(scope="module")
def italy(tmp_path_factory):
    """Photos across Italy imported into a cache of their own, its index as a `--map` page and an exported
    site; and a `--map` page of San Francisco's photos from the embedded catalog."""
    work = tmp_path_factory.mktemp("ground")
    photos = work / "italia"
    photos.mkdir()
    for name, lat, lon in ITALY:
        jpeg(photos / f"{name}.jpg", 32, 24, exif_block(lat, lon, name, "2024:05:01 12:00:00"))
    env = {**os.environ, "PHOTOMAP_CACHE": str(work / "cache")}

    def run(*arguments):
        result = subprocess.run([str(BINARY), *arguments], cwd=work, capture_output=True, text=True, timeout=300,
                                env=env)
        assert result.returncode == 0, result.stderr

    run("import", str(photos), "--visibility", "public")
    run("--source", "local", "places", "--map", "index.html")
    run("--source", "local", "export", "--out", "site")
    run("photos", "--place", SAN_FRANCISCO, "--limit", "20", "--map", "sf.html")
    return work


def sweep(page):
    """The zooms at which the page's map draws no ground (none, if all is well)."""
    page.wait_for_selector("body[data-map-ready]", state="attached")
    return page.evaluate(SWEEP, ZOOMS)


@pytest.mark.parametrize("kind", ["local index", "exported site", "--map place"])
def test_every_written_page_has_ground_at_every_zoom(page, italy, kind):
    path = {"local index": "index.html", "exported site": "site/index.html", "--map place": "sf.html"}[kind]
    open_file(page, italy / path)
    if kind == "exported site":
        assert page.get_attribute("body", "data-view") == "map", "an exported index opens on its map"
    assert sweep(page) == []
    no_trouble(page)


def test_a_served_place_page_has_ground_at_every_zoom(browser, tmp_path):
    process, base = start_serve(tmp_path)
    try:
        for page in new_page(browser):
            page.allow_origin(base)
            page.goto(f"{base}/places/{SAN_FRANCISCO}", wait_until="load")
            assert sweep(page) == []
            no_trouble(page)
    finally:
        process.terminate()
        process.wait(timeout=10)
