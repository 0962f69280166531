# SPDX-License-Identifier: Apache-2.0
"""The owner's location editing on a served photo's page (photomap-edit.js, POST /api/photos/locations):
signed in through /login, the owner moves a photo by the keyboard and the fields, places one without a
location by dragging the marker, and the page, a reload of it and the XMP sidecar show the new place;
undo puts back what was there, where it came from included (a photo's own GPS: no note, and nothing of
photomap's left in its sidecar); anyone else's page has no edit control; axe-core finds nothing with the editor open.
Many photos at once: test_edit_many.py."""

import json
import os
import subprocess

import pytest

from conftest import new_page, settle
from test_access import axe_violations, device
from test_import import exif_block, jpeg
from test_pages import BINARY, no_trouble
from test_serve import start_serve

PASSWORD = "correct horse battery staple"


def photomap(env, *arguments, stdin=None):
    result = subprocess.run([str(BINARY), *arguments], input=stdin, capture_output=True, text=True, timeout=300,
                            env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A photo in Ljubljana and one without a location, imported public, with an owner, served writing
    sidecars (PHOTOMAP_SIDECARS=write)."""
    work = tmp_path_factory.mktemp("edit")
    photos = work / "photos"
    photos.mkdir()
    jpeg(photos / "castle.jpg", 16, 16, exif_block(46.0500, 14.5000, "Castle", "2024:07:12 10:00:00"))
    jpeg(photos / "bare.jpg", 24, 24, None)
    env = {"PHOTOMAP_CACHE": str(work / "cache")}
    photomap(env, "import", "--visibility", "public", str(photos))
    photomap(env, "users", "add", "owner", "--role", "owner", "--password-stdin", stdin=PASSWORD + "\n")
    unlocated = json.loads(photomap(env, "--source", "local", "photos", "--place", "unlocated", "--json"))
    places = json.loads(photomap(env, "--source", "local", "places", "--json"))
    located_place = next(place["id"] for place in places if place["id"] != "unlocated")
    located = json.loads(photomap(env, "--source", "local", "photos", "--place", located_place, "--json"))
    process, base = start_serve(work, env={**env, "PHOTOMAP_SIDECARS": "write"}, extra=("--source", "local"))
    yield {"base": base, "located": located[0]["id"], "bare": unlocated[0]["id"], "photos": photos}
    process.terminate()
    process.wait(timeout=10)


def opened(browser, base, screen="1280", signed_in=False):
    session = new_page(browser, **device(screen))
    page = next(session)
    page.allow_origin(base)
    if signed_in:
        page.goto(f"{base}/login", wait_until="load")
        page.fill("#sign-in-name", "owner")
        page.fill("#sign-in-password", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_url(f"{base}/")
    return session, page


def open_photo(page, base, photo_id):
    page.goto(f"{base}/photos/{photo_id}", wait_until="networkidle")


def where(page):
    return page.evaluate("""() => {
        const term = [...document.querySelectorAll('article.photo dt')].find(dt => dt.textContent === 'Where');
        return term ? term.nextElementSibling.textContent : null;
    }""")


def test_nobody_but_the_owner_sees_an_edit_control(browser, served):
    session, page = opened(browser, served["base"])
    open_photo(page, served["base"], served["located"])
    page.wait_for_selector("body[data-map-ready]", state="attached")
    settle(page)
    assert page.locator(".edit-location").count() == 0
    assert "Edit location" not in page.content()
    no_trouble(page)
    session.close()


def test_the_owner_moves_a_photo_by_keyboard_and_fields_and_the_page_keeps_it(browser, served):
    base = served["base"]
    session, page = opened(browser, base, signed_in=True)
    open_photo(page, base, served["located"])
    page.locator(".edit-start").focus()
    page.keyboard.press("Enter")
    marker = page.locator(".leaflet-marker-icon[title='New location']")
    marker.wait_for()
    assert page.evaluate("() => document.activeElement.title") == "New location"
    assert page.locator(".edit-form").is_visible() and page.locator(".edit-start").is_hidden()
    longitude = page.locator("input[name=longitude]")
    before = float(longitude.input_value())
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert float(longitude.input_value()) > before
    page.fill("input[name=latitude]", "46.3625")
    page.fill("input[name=longitude]", "14.0936")
    page.locator(".edit-save").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-location-saved]", state="attached")
    assert where(page) == "46.362500, 14.093600 (location set by hand)"
    assert "Location saved" in page.inner_text(".edit-status")
    sidecar = served["photos"] / "castle.jpg.xmp"
    assert "GPSLatitude" in sidecar.read_text()
    # Undo puts back the photo's own GPS: no note, and what photomap wrote in the sidecar is gone.
    page.click(".edit-undo")
    page.wait_for_function("() => document.querySelector('.edit-status').textContent.startsWith('Location put back')")
    assert where(page) == "46.050000, 14.500000"
    assert "GPSLatitude" not in sidecar.read_text() and "LocationSource" not in sidecar.read_text()
    page.click(".edit-start")
    page.fill("input[name=latitude]", "46.3625")
    page.fill("input[name=longitude]", "14.0936")
    page.click(".edit-save")
    page.wait_for_function("() => document.querySelector('.edit-status').textContent.startsWith('Location saved')")
    assert where(page) == "46.362500, 14.093600 (location set by hand)"
    # A new page from the server says the same (it reads the catalog's version at most once a second).
    page.wait_for_timeout(1100)
    open_photo(page, base, served["located"])
    assert where(page) == "46.362500, 14.093600 (location set by hand)"
    assert (served["photos"] / "castle.jpg.xmp").exists()
    no_trouble(page)
    session.close()


def test_the_owner_places_a_photo_without_a_location_by_dragging(browser, served):
    base = served["base"]
    session, page = opened(browser, base, signed_in=True)
    open_photo(page, base, served["bare"])
    page.locator(".edit-start").wait_for()
    assert page.locator(".edit-form").is_hidden()
    assert where(page) is None and page.locator("#map").count() == 0
    page.click(".edit-start")
    marker = page.locator(".leaflet-marker-icon[title='New location']")
    marker.wait_for()
    box = marker.bounding_box()
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] - 4)
    latitude_before = float(page.input_value("input[name=latitude]"))
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 40, start[1] - 60, steps=8)
    page.mouse.up()
    latitude = float(page.input_value("input[name=latitude]"))
    longitude = float(page.input_value("input[name=longitude]"))
    assert latitude > latitude_before
    page.click(".edit-save")
    page.wait_for_selector("body[data-location-saved]", state="attached")
    assert where(page).startswith(f"{latitude:.6f}, {longitude:.6f}")
    # "Remove location" takes it away again.
    page.click(".edit-start")
    page.click(".edit-clear")
    page.wait_for_function("() => document.querySelector('.edit-status').textContent === 'Location removed.'")
    assert where(page) is None
    # Undo puts it back where it was dragged to, then takes that away too: it had no location.
    page.click(".edit-undo")
    page.wait_for_function("() => document.querySelector('.edit-status').textContent.startsWith('Location put back')")
    assert where(page).startswith(f"{latitude:.6f}, {longitude:.6f}")
    page.click(".edit-undo")
    page.wait_for_function("() => document.querySelector('.edit-status').textContent === 'Put back without a location.'")
    assert where(page) is None and page.locator(".edit-undo").is_disabled()
    no_trouble(page)
    session.close()


@pytest.mark.parametrize("screen", ["390", "1280"])
def test_axe_finds_nothing_with_the_editor_open(browser, served, screen):
    base = served["base"]
    session, page = opened(browser, base, screen, signed_in=True)
    open_photo(page, base, served["located"])
    page.click(".edit-start")
    page.locator(".leaflet-marker-icon[title='New location']").wait_for()
    assert axe_violations(page) == []
    session.close()
