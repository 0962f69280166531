"""The places you have been in a real browser: imported photos in Ljubljana, Tuscany and Vienna (one made
private), served by `photomap serve` and written by `export`. The map draws the visited countries and
their regions shaded by photos, each reached by Tab and opened by Enter or a click (its entry in the
list, whose towns link their photos); axe-core finds nothing at 390 and 1280 px in light and dark, served
and from file://; the private photo's country is on neither."""

import os
import subprocess
import sys

import pytest

from conftest import new_page, open_file, settle
from test_access import axe_violations
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
    vienna = [line for line in run("--source", "local", "visited", "--format", "csv").splitlines()
              if line.startswith("Austria,,")][0].split(",")[-1]
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
    page.keyboard.press("Enter")
    focused = page.evaluate("() => document.activeElement.querySelector(':scope > .visited-name').textContent")
    assert focused == "Tuscany"
    # Its towns link their photos.
    page.locator("li:focus a.visited-name", has_text="Florence").click()
    page.wait_for_load_state("load")
    assert "Florence" in page.text_content("h1")
    page.go_back(wait_until="load")
    page.wait_for_selector("#visited-map[data-visited-ready]", state="attached")
    slovenia = page.locator("#visited-map path.visited-area[aria-label^='Slovenia']")
    box = slovenia.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # Italy (3 photos) comes first, Slovenia second: its entry, or its region's.
    assert page.evaluate("() => document.activeElement.id").startswith("visited-1")


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
