# SPDX-License-Identifier: Apache-2.0
"""Trips' served pages in a real browser: imported photos at home in Ljubljana and on a trip to Tuscany
(the drive there recorded in a GPX track, a day without a track), served by `photomap serve`. The trip's
way is drawn under its markers and on each day's own map, axe-core finds nothing on the trip and its
index at 390 and 1280 px, and the printed trip (Chromium's PDF) has one day a page with its map drawn."""

import os
import re
import subprocess
import sys

import pytest

from conftest import new_page, settle
from test_access import axe_violations
from test_import import jpeg
from test_pages import BINARY, REPO, no_trouble
from test_serve import start_serve

sys.path.insert(0, str(REPO / "bench"))
from make_import_photos import exif_block  # noqa: E402 (bench/, put on the path above)

TRACK = """<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="photomap tests" xmlns="http://www.topografix.com/GPX/1/1"><trk>
<trkseg>
<trkpt lat="46.0569" lon="14.5058"><time>2024-07-10T05:00:00Z</time></trkpt>
<trkpt lat="46.0300" lon="14.4500"><time>2024-07-10T05:06:00Z</time></trkpt>
<trkpt lat="45.6500" lon="13.7700"><time>2024-07-10T06:30:00Z</time></trkpt>
<trkpt lat="45.4000" lon="12.3000"><time>2024-07-10T08:00:00Z</time></trkpt>
<trkpt lat="44.5000" lon="11.3400"><time>2024-07-10T09:30:00Z</time></trkpt>
<trkpt lat="43.7696" lon="11.2558"><time>2024-07-10T10:00:00Z</time></trkpt>
</trkseg>
</trk></gpx>
"""

# Name, where, title, local time.
PHOTOS = [
    ("home-1", 46.0569, 14.5058, "Home", "2024:03:01 10:00:00"),
    ("home-2", 46.0520, 14.5100, "Home again", "2024:03:02 10:00:00"),
    ("home-3", 46.0569, 14.5058, "Back home", "2024:07:14 10:00:00"),
    ("duomo", 43.7731, 11.2560, "Duomo <b>di</b> Firenze", "2024:07:10 15:00:00"),
    ("ponte", 43.7680, 11.2531, "Ponte Vecchio", "2024:07:10 18:00:00"),
    ("piazza", 43.4633, 11.8796, "Piazza Grande", "2024:07:11 12:00:00"),
    ("loggia", 43.4650, 11.8810, "Logge del Vasari", "2024:07:12 09:00:00"),
]
TRIP = "/trips/2024-07-10"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    work = tmp_path_factory.mktemp("trips")
    photos = work / "photos"
    photos.mkdir()
    for name, latitude, longitude, title, taken in PHOTOS:
        jpeg(photos / f"{name}.jpg", 64, 48, exif_block(latitude, longitude, title, taken))
    (work / "drive.gpx").write_text(TRACK)
    env = {**os.environ, "PHOTOMAP_CACHE": str(work / "cache")}
    # serve shows the public view.
    result = subprocess.run([str(BINARY), "import", "--visibility", "public", str(photos),
                             "--gpx", str(work / "drive.gpx")],
                            capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    process, base = start_serve(work, env={"PHOTOMAP_CACHE": str(work / "cache")}, extra=("--source", "local"))
    yield base
    process.terminate()
    process.wait(timeout=10)


def opened(browser, base, path, width=1280, height=900, scheme="light"):
    for page in new_page(browser, viewport={"width": width, "height": height}, color_scheme=scheme):
        page.allow_origin(base)
        page.goto(base + path, wait_until="load")
        settle(page)
        return page


def test_the_way_is_drawn_under_the_markers_and_on_each_days_map(browser, base):
    page = opened(browser, base, TRIP)
    page.wait_for_selector("body[data-map-ready]", state="attached")
    assert page.text_content("h1") == "Tuscany, Italy"
    assert page.locator("#map path.photomap-track").count() == 1
    days = page.locator(".trip-day")
    assert days.count() == 3
    assert [days.nth(i).locator("h2").text_content() for i in range(3)] == [
        "Day 1 · 2024-07-10", "Day 2 · 2024-07-11", "Day 3 · 2024-07-12"]
    # Each day's map is drawn with its photos; the first day's with the drive (the others have no track).
    for i, count in enumerate(["2", "1", "1"]):
        assert page.get_attribute(f"#day-map-{i + 1}", "data-day-ready") == count
        assert page.locator(f"#day-map-{i + 1} path.day-photo").count() == int(count)
    assert page.locator("#day-map-1 path.photomap-track").count() == 1
    assert page.locator("#day-map-2 path.photomap-track").count() == 0
    # A hostile title stays text.
    assert page.locator(".day-photos img[alt='Duomo <b>di</b> Firenze']").count() == 1
    no_trouble(page)


def test_a_photo_links_to_its_trip(browser, base):
    page = opened(browser, base, TRIP)
    page.locator(".trip-day").first.locator(".day-photos a").first.click()
    page.wait_for_load_state("load")
    link = page.locator("a.elsewhere")
    assert link.text_content() == "Trip: Tuscany, Italy ›"
    link.click()
    page.wait_for_url("**" + TRIP)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("path", ["/trips", TRIP, "/visited"])
def test_axe_finds_nothing(browser, base, path, width, scheme):
    page = opened(browser, base, path, width=width, height=844 if width == 390 else 900, scheme=scheme)
    assert axe_violations(page) == []


def test_visited_lists_the_places_and_loads_cleanly(browser, base):
    page = opened(browser, base, "/visited")
    assert page.text_content("h1") == "Places you have been"
    italy = page.locator(".visited-places > li", has=page.locator("> .visited-name", has_text="Italy"))
    assert italy.count() == 1
    assert italy.locator("li .visited-name", has_text="Tuscany").count() == 1
    no_trouble(page)


def test_printed_one_day_a_page_with_its_map(browser, base):
    page = opened(browser, base, TRIP)
    page.emulate_media(media="print")
    settle(page)
    for i in range(1, 4):
        box = page.locator(f"#day-map-{i}").bounding_box()
        assert box and box["width"] > 300 and box["height"] > 300, f"day {i}'s map is not drawn in print"
    assert page.locator("#day-map-1 path.photomap-track").count() == 1
    assert not page.locator("#map-view").is_visible()
    pdf = page.pdf(format="A4", print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages == 3, f"{pages} pages for 3 days"
