# SPDX-License-Identifier: Apache-2.0
"""The places you have been in a real browser: imported photos in Ljubljana, Tuscany and Vienna (one made
private), served by `photomap serve` and written by `export`. The map draws the visited countries and
their regions shaded by photos, each reached by Tab and opened by Enter or a click: the page of its
photos, their markers on its map (the list's countries and regions link it too, its towns their places'
pages); axe-core finds nothing on either page at 390 and 1280 px in light and dark, served and from
file://; the private photo's country is on neither. Every page's header links the trips and the places
you have been, and fits a 320-pixel phone with them."""

import csv
import io
import os
import subprocess
import sys

import pytest

from conftest import new_page, open_file, settle, steady
from test_access import HEADER_BOXES, axe_violations, overlap
from test_import import jpeg
from test_pages import BINARY, REPO, no_trouble
from test_serve import start_serve

sys.path.insert(0, str(REPO / "bench"))
from make_import_photos import exif_block  # noqa: E402 (bench/, put on the path above)

# Name, where, title, local time.
PHOTOS = [
    ("home-1", 46.0569, 14.5058, "Home", "2024:03:01 10:00:00"),
    ("home-2", 46.0520, 14.5100, "Home again", "2024:03:02 10:00:00"),
    ("duomo", 43.7731, 11.2560, "Duomo <b>di</b> Firenze", "2024:07:10 15:00:00"),
    ("ponte", 43.7680, 11.2531, "Ponte Vecchio", "2024:07:10 18:00:00"),
    ("piazza", 43.4633, 11.8796, "Piazza Grande", "2024:07:11 12:00:00"),
    ("stephansdom", 48.2082, 16.3738, "Stephansdom", "2024:12:31 23:30:00"),
]
SHOTS = os.environ.get("PHOTOMAP_SCREENSHOTS")


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """The served base URL and the exported visited.html, the Vienna photo private on both."""
    work = tmp_path_factory.mktemp("visited")
    photos = work / "photos"
    photos.mkdir()
    for name, latitude, longitude, title, taken in PHOTOS:
        jpeg(photos / f"{name}.jpg", 64, 48, exif_block(latitude, longitude, title, taken))
    env = {**os.environ, "PHOTOMAP_CACHE": str(work / "cache")}

    def run(*arguments):
        result = subprocess.run([str(BINARY), *arguments], capture_output=True, text=True, timeout=300, env=env)
        assert result.returncode == 0, result.stderr
        return result.stdout

    run("import", "--visibility", "public", str(photos))
    # The photo in Vienna is the owner's alone.
    listing = run("--source", "local", "visited", "--format", "json")
    assert "Austria" in listing
    rows = csv.DictReader(io.StringIO(run("--source", "local", "visited", "--format", "csv")))
    vienna = [row["cover"] for row in rows if row["country"] == "Austria" and not row["region"]][0]
    run("visibility", vienna, "private")
    run("--source", "local", "export", "--out", str(work / "site"))
    process, base = start_serve(work, env={"PHOTOMAP_CACHE": str(work / "cache")}, extra=("--source", "local"))
    yield {"served": base, "file": work / "site" / "visited.html"}
    process.terminate()
    process.wait(timeout=10)


def opened(browser, sites, where, width=1280, scheme="light"):
    height = 844 if width == 390 else 900
    for page in new_page(browser, viewport={"width": width, "height": height}, color_scheme=scheme):
        if where == "served":
            page.allow_origin(sites["served"])
            page.goto(sites["served"] + "/visited", wait_until="load")
            settle(page)
        else:
            open_file(page, sites["file"])
        page.wait_for_selector("#visited-map[data-visited-ready]", state="attached")
        return page


def area_names(page):
    return page.eval_on_selector_all("#visited-map path.visited-area", "ps => ps.map(p => p.getAttribute('aria-label'))")


@pytest.mark.parametrize("where", ["served", "file"])
def test_the_map_draws_the_viewers_countries_and_regions(browser, sites, where):
    page = opened(browser, sites, where)
    names = area_names(page)
    assert "Slovenia: 2 photos" in names and "Italy: 3 photos" in names
    assert any(name.startswith("Tuscany, Italy: 3 photos") for name in names), names
    # The private photo's country is on neither the map nor the list.
    assert not any("Austria" in name for name in names)
    assert "Austria" not in page.text_content(".visited")
    # Countries and regions have a shade by their photos, the legend the same classes.
    assert page.locator("#visited-map path.visited-country.visited-step-0").count() == 2
    assert page.locator(".visited-legend .visited-swatch").count() == 5
    # Towns link the pages of their photos.
    florence = page.locator(".visited-places a.visited-name", has_text="Florence")
    assert florence.count() == 1
    assert page.locator(".visited-cover img").count() >= 5
    no_trouble(page)


# The photos the map's markers show, summed: a cluster's bubble its count, a photo's pin 1.
DRAWN = """[...document.querySelectorAll('#map .cluster-bubble')].reduce((n, b) => n + Number(b.textContent), 0)
    + document.querySelectorAll('#map .photomap-pin').length"""


def markers_drawn(page):
    """How many photos the place page's map draws, once it has drawn them."""
    page.wait_for_selector("body[data-map-ready]", state="attached")
    page.wait_for_function("() => document.querySelectorAll('#map .cluster-bubble, #map .photomap-pin').length > 0")
    return steady(page, DRAWN)


@pytest.mark.parametrize("where", ["served", "file"])
def test_a_region_is_reached_by_tab_and_opened_by_enter_or_a_click(browser, sites, where):
    page = opened(browser, sites, where)
    for _ in range(60):
        page.keyboard.press("Tab")
        label = page.evaluate("() => document.activeElement.getAttribute('aria-label') || ''")
        if label.startswith("Tuscany, Italy"):
            break
    else:
        pytest.fail("Tab never reached Tuscany on the map")
    with page.expect_navigation(wait_until="load"):
        page.keyboard.press("Enter")
    settle(page)
    # The page of Tuscany's photos: its three photos on its map, and in its list.
    assert page.text_content("h1") == "Tuscany"
    assert page.text_content("header .subtitle").startswith("3 photos · Italy")
    assert markers_drawn(page) == 3
    assert page.locator("#list ul.annotations li").count() == 3
    no_trouble(page)
    page.go_back(wait_until="load")
    page.wait_for_selector("#visited-map[data-visited-ready]", state="attached")
    slovenia = page.locator("#visited-map path.visited-area[aria-label^='Slovenia']")
    box = slovenia.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # Slovenia, or its region above it (the same two photos): the area the click lands on.
    label = page.evaluate("([x, y]) => document.elementFromPoint(x, y).getAttribute('aria-label')", [x, y])
    assert label.endswith("Slovenia: 2 photos"), label
    with page.expect_navigation(wait_until="load"):
        page.mouse.click(x, y)
    settle(page)
    assert page.text_content("h1") == label.split(",")[0].split(":")[0]
    assert markers_drawn(page) == 2
    # The list links each country and region's page too, and each town its place's.
    page.go_back(wait_until="load")
    with page.expect_navigation(wait_until="load"):
        page.locator(".visited-places a.visited-name", has_text="Italy").click()
    assert page.text_content("h1") == "Italy"
    page.go_back(wait_until="load")
    with page.expect_navigation(wait_until="load"):
        page.locator(".visited-places a.visited-name", has_text="Florence").click()
    assert "Florence" in page.text_content("h1")


def region_page(browser, sites, where, name, width, scheme="light"):
    """The page of `name`'s photos, opened from the list of places you have been at `width`."""
    page = opened(browser, sites, where, width=width, scheme=scheme)
    with page.expect_navigation(wait_until="load"):
        page.locator(".visited-places a.visited-name", has_text=name).click()
    settle(page)
    return page


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("where", ["served", "file"])
def test_axe_finds_nothing_on_a_regions_page_on_a_phone(browser, sites, where, scheme):
    page = region_page(browser, sites, where, "Tuscany", 390, scheme)
    assert markers_drawn(page) == 3
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"visited-region-{where}-390-{scheme}.png"))
    assert axe_violations(page) == []


# The header's parts with its links: none may overlap another or leave the screen.
LINK_BOXES = HEADER_BOXES.replace("header .search-status'", "header .search-status, header a'")


@pytest.mark.parametrize("width", [320, 390, 1280])
@pytest.mark.parametrize("where", ["served", "file"])
def test_every_header_links_trips_and_places_and_fits(browser, sites, where, width):
    page = opened(browser, sites, where, width=width)
    # Tuscany's page from the list, then back to the places, then back to the top places.
    for step, name in enumerate(["Tuscany", "visited", "top"]):
        with page.expect_navigation(wait_until="load"):
            if step == 0:
                page.locator(".visited-places a.visited-name", has_text="Tuscany").click()
            else:
                page.locator("header a.back").click()
        settle(page)
        assert page.text_content("h1") == {"Tuscany": "Tuscany", "visited": "Places you have been", "top": "Top places"}[name]
        links = page.eval_on_selector_all("header .site-links a", "as => as.map(a => [a.textContent, a.href])")
        assert [text for text, _ in links] == ["Trips", "Places visited"], name
        assert links[0][1].endswith("/trips" if where == "served" else "/trips/index.html"), name
        assert links[1][1].endswith("/visited" if where == "served" else "/visited.html"), name
        layout = page.evaluate(LINK_BOXES)
        assert layout["scrollWidth"] <= layout["width"], f"{name}: the page is wider than the screen"
        boxes = layout["boxes"]
        for box in boxes:
            assert box["left"] >= 0 and box["right"] <= layout["width"] + 0.5, f"{name}: {box['name']} leaves the screen"
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                if not (a["name"].startswith("input.timeline-") and b["name"].startswith("input.timeline-")):
                    assert not overlap(a, b), f"{name}: {a['name']} overlaps {b['name']}"
        assert not layout["title"]["clipped"], f"{name}: the title is cut off"
        heights = page.eval_on_selector_all("header .site-links a", "as => as.map(a => a.getBoundingClientRect().height)")
        assert min(heights) >= 44, f"{name}: touch targets under 44 px"
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, f"header-{name}-{where}-{width}.png"))
    # The links lead where they say.
    with page.expect_navigation(wait_until="load"):
        page.locator("header .site-links a", has_text="Trips").click()
    assert page.text_content("h1") == "Trips"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("where", ["served", "file"])
def test_axe_finds_nothing(browser, sites, where, width, scheme):
    page = opened(browser, sites, where, width=width, scheme=scheme)
    box = page.locator("#visited-map").bounding_box()
    assert box and box["width"] > 300 and box["height"] > 250
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"visited-{where}-{width}-{scheme}.png"), full_page=True)
    assert axe_violations(page) == []
