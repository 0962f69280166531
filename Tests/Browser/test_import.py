# SPDX-License-Identifier: Apache-2.0
"""Imported photos (`photomap import`, `--source local`) in a real browser: a `--map` page and an exported
site from disk, and the same pages from `photomap serve`. Squares and medium images load, nothing runs
that should not, and no path of the photos' folder is anywhere in what the browser gets."""

import datetime
import os
import struct
import subprocess
import sys
from urllib.parse import urljoin

import pytest

from conftest import open_file
from test_pages import BINARY, REPO, no_trouble, show_map
from test_serve import start_serve

sys.path.insert(0, str(REPO / "bench"))
from make_import_photos import exif_block  # noqa: E402 (bench/, put on the path above)
from make_geotag_input import exif_block as clock_block  # noqa: E402 (no GPS: Make, Model, a time at +00:00)

AREZZO, NEW_YORK = "3182884", "5128581"


def jpeg(path, width, height, exif):
    """A JPEG by cjpeg from a gradient, the EXIF block spliced in after SOI."""
    pixels = bytes((x * 255 // width, y * 255 // height, 90)[c] for y in range(height) for x in range(width) for c in range(3))
    plain = subprocess.run(["cjpeg", "-quality", "80"], input=b"P6\n%d %d\n255\n" % (width, height) + pixels,
                           capture_output=True, check=True).stdout
    app1 = b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif if exif else b""
    path.write_bytes(plain[:2] + app1 + plain[2:])


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """A folder of three photos (two located, one not) imported into a cache of its own."""
    work = tmp_path_factory.mktemp("import")
    photos = work / "my photos"
    photos.mkdir()
    jpeg(photos / "piazza.jpg", 640, 480, exif_block(43.4633, 11.8796, "Piazza <b>Grande</b>", "2024:05:01 17:48:17"))
    jpeg(photos / "loggia.jpg", 480, 640, exif_block(43.4650, 11.8810, "Logge del Vasari", "2024:05:02 09:00:00"))
    jpeg(photos / "somewhere.jpg", 320, 240, None)
    env = {"PHOTOMAP_CACHE": str(work / "cache")}
    result = subprocess.run([str(BINARY), "import", str(photos), "--visibility", "public"],
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    assert "3 photos read, 2 located, 1 without a location" in result.stderr
    return work, photos, env


def photomap(work, env, *arguments):
    result = subprocess.run([str(BINARY), "--source", "local", *arguments], cwd=work, capture_output=True, text=True,
                            timeout=300, env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    return result


def images_loaded(page, part):
    """The sizes of the page's images whose src holds `part`, once each has loaded."""
    page.wait_for_function("part => [...document.images].filter(i => i.src.includes(part)).every(i => i.complete)",
                           arg=part, timeout=20_000)
    return page.evaluate("part => [...document.images].filter(i => i.src.includes(part)).map(i => [i.naturalWidth, i.naturalHeight])",
                         part)


def test_map_page_and_site_of_imported_photos(page, imported):
    work, photos, env = imported
    photomap(work, env, "photos", "--place", AREZZO, "--map", str(work / "arezzo.html"))
    open_file(page, work / "arezzo.html")
    no_trouble(page)
    assert str(photos) not in page.content()
    photomap(work, env, "export", "--out", str(work / "site"))
    open_file(page, work / "site" / "places" / f"{AREZZO}.html")
    no_trouble(page)
    assert page.locator("b", has_text="Grande").count() == 0, "a title's markup is text, never markup"
    assert sorted(images_loaded(page, "squares/")) == [[75, 75], [75, 75]]
    photo_pages = sorted((work / "site" / "photos").glob("*.html"))
    assert len(photo_pages) == 3
    for photo_page in photo_pages:
        open_file(page, photo_page)
        no_trouble(page)
        sizes = images_loaded(page, "images/")
        assert sizes and all(max(size) <= 500 for size in sizes), sizes
    for file in (work / "site").rglob("*"):
        if file.is_file():
            assert str(photos).encode() not in file.read_bytes(), file


def test_served_imported_photos(browser, imported):
    work, photos, env = imported
    process, base = start_serve(work, env=env, extra=["--source", "local"])
    try:
        context = browser.new_context()
        page = context.new_page()
        for path in ["/", f"/places/{AREZZO}", "/places/unlocated"]:
            page.goto(base + path, wait_until="load")
            assert str(photos) not in page.content()
        page.goto(f"{base}/places/{AREZZO}#list", wait_until="load")
        assert sorted(images_loaded(page, "/squares/")) == [[75, 75], [75, 75]]
        context.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


TRACK = """<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="photomap tests" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
<trkpt lat="43.4600" lon="11.8760"><time>2024-05-01T15:59:00Z</time></trkpt>
<trkpt lat="43.4620" lon="11.8780"><time>2024-05-01T16:00:00Z</time></trkpt>
<trkpt lat="43.4640" lon="11.8800"><time>2024-05-01T16:01:00Z</time></trkpt>
<trkpt lat="43.4660" lon="11.8820"><time>2024-05-01T16:02:00Z</time></trkpt>
</trkseg></trk></gpx>
"""

NOTES = {"Arrival": "located from a track", "Corso walk": "located from a track",
         "Later on": "estimated from a photo taken 4 minutes earlier", "Piazza": None}
# An estimate sits at its neighbour's very spot, where the two stay one cluster at every zoom (its grid
# links to their pages): the callouts are those of the photos on a spot of their own.
PINNED = {title: NOTES[title] for title in ("Arrival", "Piazza")}


@pytest.fixture(scope="module")
def tracked(tmp_path_factory):
    """Four photos of Arezzo: one with GPS of its own, two without that a track locates, and one 4 minutes
    after the second, past the track's end, estimated from it."""
    work = tmp_path_factory.mktemp("tracked")
    photos = work / "photos"
    photos.mkdir()
    jpeg(photos / "piazza.jpg", 320, 240, exif_block(43.4633, 11.8796, "Piazza", "2024:05:01 17:48:17"))
    at = datetime.datetime(2024, 5, 1, 16, 0, 30)
    jpeg(photos / "arrival.jpg", 320, 240, clock_block(at - datetime.timedelta(minutes=1), "Arrival"))
    jpeg(photos / "walk.jpg", 320, 240, clock_block(at, "Corso walk"))
    jpeg(photos / "later.jpg", 320, 240, clock_block(at + datetime.timedelta(minutes=4), "Later on"))
    (work / "track.gpx").write_text(TRACK)
    env = {"PHOTOMAP_CACHE": str(work / "cache")}
    result = subprocess.run([str(BINARY), "import", str(photos), "--visibility", "public", "--gpx",
                             str(work / "track.gpx"), "--max-gap", "60", "--estimate-within", "10"],
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    assert ("4 photos read, 4 located (1 from their own GPS, 2 from 1 track, 1 estimated from neighbours), "
            "0 without a location") in result.stderr
    return work, env


def served_place_map(browser, base):
    """The served Arezzo page in a context of its own, its map shown: the context and the page."""
    context = browser.new_context()
    served = context.new_page()
    served.goto(f"{base}/places/{AREZZO}", wait_until="load")
    if served.locator("button[data-show=map]").count():
        served.click("button[data-show=map]")
    return context, served


def callout_notes(page):
    """Each marker's callout, opened by a click: its title and what it says of the location (None)."""
    page.wait_for_selector("body[data-map-ready]")
    for _ in range(10):
        if page.locator(".photomap-pin").count() == len(PINNED):
            break
        page.click(".leaflet-control-zoom-in")
        page.wait_for_timeout(350)
    notes = {}
    for index in range(page.locator(".photomap-pin").count()):
        page.locator(".photomap-pin").nth(index).click()
        callout = page.wait_for_selector(".leaflet-popup .callout")
        note = callout.query_selector(".callout-location")
        notes[callout.query_selector(".callout-title").inner_text()] = note.inner_text() if note else None
        page.keyboard.press("Escape")
        page.wait_for_selector(".leaflet-popup", state="detached")
    return notes


def photo_page_note(page):
    """The photo page's title and what its Where line says of the location (None)."""
    note = page.query_selector("dd .location-note")
    return page.inner_text("header h1"), note.inner_text() if note else None


def test_a_location_from_a_track_or_a_neighbour_is_said_in_callouts_and_photo_pages(page, browser, tracked):
    work, env = tracked
    photomap(work, env, "photos", "--place", AREZZO, "--map", str(work / "arezzo.html"))
    open_file(page, work / "arezzo.html")
    assert callout_notes(page) == PINNED
    no_trouble(page)
    photomap(work, env, "export", "--out", str(work / "site"))
    open_file(page, work / "site" / "places" / f"{AREZZO}.html")
    show_map(page)
    assert callout_notes(page) == PINNED
    said = {}
    for photo_page in (work / "site" / "photos").glob("*.html"):
        open_file(page, photo_page)
        no_trouble(page)
        title, note = photo_page_note(page)
        said[title] = note and note.strip("()")
    assert said == NOTES

    process, base = start_serve(work, env=env, extra=["--source", "local"])
    try:
        context, served = served_place_map(browser, base)
        assert callout_notes(served) == PINNED
        place = served.url
        links = served.evaluate("() => Array.from({length: photomap.total}, (_, i) => photomap.entry(i).link)")
        said = {}
        for link in links:
            served.goto(urljoin(place, link), wait_until="load")
            title, note = photo_page_note(served)
            said[title] = note and note.strip("()")
        assert said == NOTES
        context.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


def track_paths(page):
    """The track's lines drawn: SVG paths in Leaflet's overlay pane, under the marker pane."""
    return page.locator(".leaflet-overlay-pane path.photomap-track")


def test_the_track_is_drawn_under_the_photos_with_a_toggle(page, browser, tracked):
    work, env = tracked
    photomap(work, env, "photos", "--place", AREZZO, "--map", str(work / "track.html"))
    open_file(page, work / "track.html")
    page.wait_for_selector("body[data-map-ready]")
    assert track_paths(page).count() == 1
    # Every point of the track lies within the page's area, all four drawn, to the micro-degree.
    assert page.evaluate("() => photomap.data.tracks.lines.map(l => l.length / 2)") == [4]
    panes = page.evaluate("""() => ['overlay', 'marker'].map(name =>
        Number(getComputedStyle(document.querySelector('.leaflet-' + name + '-pane')).zIndex))""")
    assert panes[0] < panes[1], "the track lies under the markers"
    toggle = page.get_by_role("button", name="Track")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert track_paths(page).count() == 0
    page.keyboard.press("Space")
    assert toggle.get_attribute("aria-pressed") == "true" and track_paths(page).count() == 1
    no_trouble(page)

    # The owner's exported site draws it on the place's map and a photo's small map; the public one and a
    # blurred one nowhere: a track is where the owner went.
    photomap(work, env, "export", "--out", str(work / "public"))
    for file in (work / "public").rglob("*.html"):
        assert '"tracks"' not in file.read_text(), file
    photomap(work, env, "export", "--out", str(work / "site-tracks"), "--audience", "owner")
    open_file(page, work / "site-tracks" / "places" / f"{AREZZO}.html")
    show_map(page)
    assert track_paths(page).count() == 1
    open_file(page, next((work / "site-tracks" / "photos").glob("*.html")))
    page.wait_for_selector("body[data-map-ready]")
    assert track_paths(page).count() == 1
    no_trouble(page)
    photomap(work, env, "export", "--out", str(work / "blurred"), "--blur-locations", "5", "--audience", "owner")
    for file in (work / "blurred").rglob("*.html"):
        assert '"tracks"' not in file.read_text(), file
    open_file(page, work / "blurred" / "places" / f"{AREZZO}.html")
    show_map(page)
    assert page.get_by_role("button", name="Track").count() == 0

    # Served, the signed-in owner sees it; anyone else does not.
    owner = subprocess.run([str(BINARY), "users", "add", "olga", "--role", "owner", "--password-stdin"],
                           input="a long password\n", capture_output=True, text=True, timeout=60,
                           env={**os.environ, **env})
    assert owner.returncode == 0, owner.stderr
    process, base = start_serve(work, env=env, extra=["--source", "local"])
    try:
        context, served = served_place_map(browser, base)
        served.wait_for_selector("body[data-map-ready]")
        assert track_paths(served).count() == 0
        served.goto(f"{base}/login?next=/places/{AREZZO}", wait_until="load")
        served.fill("input[name=name]", "olga")
        served.fill("input[name=password]", "a long password")
        with served.expect_navigation():
            served.press("input[name=password]", "Enter")
        if served.locator("button[data-show=map]").count():
            served.click("button[data-show=map]")
        served.wait_for_selector("body[data-map-ready]")
        assert track_paths(served).count() == 1
        context.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
