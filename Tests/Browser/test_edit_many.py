# SPDX-License-Identifier: Apache-2.0
"""The owner's editing of many photos at once on a served place page (photomap-edit-many.js, POST
/api/photos/locations): photos selected in the list, in a cluster's grid or all at once are set by a
click on the map, by the arrow keys, by typed coordinates and by the find box, put at the same place as
another photo, and have their location removed; a photo's own marker is dragged to a new place; each
undo puts every photo back exactly as the catalog held it, where its location came from included (read
back with `photomap photos --json`; a callout says "location set by hand" only of a manual one), those
without a location included. "Select all" takes the timeline's range. Nobody but the owner gets any of
it; axe-core finds nothing at 390 and 1280 px."""

import json
import os

import pytest

from conftest import new_page, settle
from test_access import axe_violations, device
from test_edit_location import PASSWORD, photomap
from test_import import exif_block, jpeg
from test_pages import no_trouble
from test_serve import start_serve


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Alpha (taken in May) and Beta at one spot in Ljubljana and Gamma near them, Delta in Bled, and Echo
    and Foxtrot without a location, imported public; the owner and a friend; served."""
    work = tmp_path_factory.mktemp("edit-many")
    photos = work / "photos"
    photos.mkdir()
    shots = [("alpha", 46.0500, 14.5000), ("beta", 46.0500, 14.5000), ("gamma", 46.0520, 14.5060),
             ("delta", 46.3625, 14.0936)]
    for number, (name, latitude, longitude) in enumerate(shots):
        month = "05" if name == "alpha" else "07"
        jpeg(photos / f"{name}.jpg", 16, 16, exif_block(latitude, longitude, name.title(), f"2024:{month}:12 10:0{number}:00"))
    jpeg(photos / "echo.jpg", 24, 24, None)
    jpeg(photos / "foxtrot.jpg", 20, 20, None)
    env = {"PHOTOMAP_CACHE": str(work / "cache")}
    photomap(env, "import", "--visibility", "public", str(photos))
    photomap(env, "users", "add", "owner", "--role", "owner", "--password-stdin", stdin=PASSWORD + "\n")
    photomap(env, "users", "add", "anna", "--role", "friend", "--password-stdin", stdin=PASSWORD + "\n")
    places = json.loads(photomap(env, "--source", "local", "places", "--json"))
    ljubljana = next(place["id"] for place in places if place["title"] == "Ljubljana")
    process, base = start_serve(work, env=env, extra=("--source", "local"))
    yield {"base": base, "env": env, "ljubljana": ljubljana}
    process.terminate()
    process.wait(timeout=10)


def catalog(served):
    """Every photo as the catalog holds it, by title: (latitude, longitude, locationSource)."""
    env, found = served["env"], {}
    for place in json.loads(photomap(env, "--source", "local", "places", "--json")):
        for photo in json.loads(photomap(env, "--source", "local", "photos", "--place", place["id"], "--json")):
            found[photo["title"]] = (photo["latitude"], photo["longitude"], photo["locationSource"])
    return found


def opened(browser, served, path, screen="1280", name="owner", scheme="light"):
    """A page of `path` for the viewer `name` (signed in through /login; None: signed out), its map or
    list ready, and the editor there when the viewer is the owner."""
    base = served["base"]
    session = new_page(browser, **device(screen), color_scheme=scheme)
    page = next(session)
    page.allow_origin(base)
    if name:
        page.goto(f"{base}/login", wait_until="load")
        page.fill("#sign-in-name", name)
        page.fill("#sign-in-password", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_url(f"{base}/")
    page.goto(base + path, wait_until="networkidle")
    if name == "owner":
        page.locator(".edit-many").wait_for()
    return session, page


def changes(page):
    """How many changes and undos the page has shown."""
    return int(page.get_attribute("body", "data-locations-changed") or 0)


def wait_for_change(page, count):
    page.wait_for_function(f"() => document.body.getAttribute('data-locations-changed') === '{count}'")


def press(page, selector, key="Enter"):
    page.locator(selector).focus()
    page.keyboard.press(key)


@pytest.mark.parametrize("name", [None, "anna"])
def test_nobody_but_the_owner_gets_any_of_it(browser, served, name):
    session, page = opened(browser, served, f"/places/{served['ljubljana']}#list", name=name)
    page.wait_for_selector("body[data-list-ready]", state="attached")
    settle(page)
    assert page.locator(".edit-many, input.edit-pick").count() == 0
    assert "Select all" not in page.content()
    no_trouble(page)
    session.close()


def test_the_owner_sets_all_by_a_click_on_the_map_and_undo_puts_them_back_exactly(browser, served):
    before = catalog(served)
    session, page = opened(browser, served, f"/places/{served['ljubljana']}#map")
    page.wait_for_selector("body[data-map-ready]", state="attached")
    page.click(".edit-select-all")
    assert page.inner_text(".edit-picked") == "3 photos selected"
    page.click(".edit-set")
    page.locator(".leaflet-marker-icon[title='New location']").wait_for()
    box = page.locator("#map").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.8, box["y"] + box["height"] * 0.3)
    latitude, longitude = float(page.input_value("input[name=latitude]")), float(page.input_value("input[name=longitude]"))
    page.click(".edit-set-form .edit-apply")
    wait_for_change(page, 1)
    now = catalog(served)
    for title in ("Alpha", "Beta", "Gamma"):
        assert now[title] == (latitude, longitude, "manual"), title
    # The map shows the three as one cluster where they now are.
    assert page.locator(".leaflet-marker-icon .cluster-bubble").all_inner_texts() == ["3"]
    assert "Moved 3 photos" in page.inner_text(".edit-status")
    page.click(".edit-undo")
    wait_for_change(page, 2)
    after = catalog(served)
    for title in ("Alpha", "Beta", "Gamma"):
        assert after[title] == before[title] and after[title][2] == "exif", title
    assert page.locator(".edit-undo").is_disabled()
    no_trouble(page)
    session.close()


def test_same_place_remove_and_two_undos_by_keyboard(browser, served):
    before = catalog(served)
    session, page = opened(browser, served, f"/places/{served['ljubljana']}#list")
    boxes = page.locator("#list input.edit-pick")
    assert boxes.count() == 3
    titles = page.locator("#list .title").all_inner_texts()
    # Alpha and Beta, by Tab and Space in the list.
    boxes.nth(titles.index("Alpha")).focus()
    page.keyboard.press("Space")
    boxes.nth(titles.index("Beta")).focus()
    page.keyboard.press("Space")
    assert page.inner_text(".edit-picked") == "2 photos selected"
    press(page, ".edit-like")
    assert page.evaluate("() => document.activeElement.name") == "like"
    page.select_option(".edit-model", label=next(
        text for text in page.locator(".edit-model option").all_inner_texts() if text.startswith("Gamma")))
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    wait_for_change(page, 1)
    gamma = before["Gamma"][:2]
    assert catalog(served)["Alpha"][:2] == gamma and catalog(served)["Beta"][:2] == gamma
    # The list says where they now are.
    alpha = page.locator("#list li").nth(titles.index("Alpha"))
    assert f"{gamma[0]:.6f}, {gamma[1]:.6f}" in alpha.inner_text()
    press(page, ".edit-clear")
    wait_for_change(page, 2)
    now = catalog(served)
    assert now["Alpha"][:2] == (None, None) and now["Beta"][:2] == (None, None) and now["Gamma"][:2] == gamma
    assert "(no location)" in alpha.inner_text()
    assert page.inner_text(".edit-undo") == "Undo (2)"
    press(page, ".edit-undo")
    wait_for_change(page, 3)
    assert catalog(served)["Alpha"][:2] == gamma
    press(page, ".edit-undo")
    wait_for_change(page, 4)
    after = catalog(served)
    assert after["Alpha"][:2] == before["Alpha"][:2] and after["Beta"][:2] == before["Beta"][:2]
    assert page.evaluate("() => document.activeElement.className") == "edit-set"
    no_trouble(page)
    session.close()


def test_photos_selected_in_a_clusters_grid_move_by_the_arrow_keys(browser, served):
    before = catalog(served)
    session, page = opened(browser, served, f"/places/{served['ljubljana']}#map")
    page.wait_for_selector("body[data-map-ready]", state="attached")
    page.locator(".leaflet-marker-icon[aria-label='2 photos here']").click()
    page.click(".callout-grid")
    grid = page.locator("dialog.grid-dialog ul.grid")
    grid.locator("input.edit-pick").first.wait_for()
    assert grid.locator("input.edit-pick").count() == 2
    press(page, ".edit-select-shown")
    assert page.locator("dialog.grid-dialog input.edit-pick:checked").count() == 2
    page.keyboard.press("Escape")
    # The dialog hands the focus back to its cluster when it has closed (a task of its own).
    page.wait_for_function("() => document.activeElement.getAttribute('aria-label') === '2 photos here'")
    assert page.inner_text(".edit-picked") == "2 photos selected"
    press(page, ".edit-set")
    assert page.evaluate("() => document.activeElement.title") == "New location"
    longitude_before = float(page.input_value("input[name=longitude]"))
    for key in ("ArrowRight", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    latitude, longitude = float(page.input_value("input[name=latitude]")), float(page.input_value("input[name=longitude]"))
    assert longitude > longitude_before
    press(page, ".edit-set-form .edit-apply")
    wait_for_change(page, 1)
    now = catalog(served)
    assert now["Alpha"][:2] == (latitude, longitude) and now["Beta"][:2] == (latitude, longitude)
    assert now["Gamma"] == before["Gamma"]
    press(page, ".edit-undo")
    wait_for_change(page, 2)
    after = catalog(served)
    assert after["Alpha"][:2] == before["Alpha"][:2] and after["Beta"][:2] == before["Beta"][:2]
    no_trouble(page)
    session.close()


def test_photos_without_a_location_set_by_typing_and_by_the_find_box_then_undone(browser, served):
    session, page = opened(browser, served, "/places/unlocated#list")
    page.click(".edit-select-all")
    assert page.inner_text(".edit-picked") == "2 photos selected"
    page.click(".edit-set")
    page.fill("input[name=latitude]", "46.3625")
    page.fill("input[name=longitude]", "14.0936")
    page.click(".edit-set-form .edit-apply")
    wait_for_change(page, 1)
    now = catalog(served)
    assert now["echo"] == (46.3625, 14.0936, "manual") and now["foxtrot"] == (46.3625, 14.0936, "manual")
    page.click("[data-show=list]")
    assert "46.362500, 14.093600 (location set by hand)" in page.inner_text("#list")
    page.click(".edit-set")
    page.fill("form.search input", "Ljubljana")
    page.press("form.search input", "Enter")
    page.wait_for_function("() => document.querySelector('.edit-status').textContent.startsWith('Found')")
    page.click(".edit-set-form .edit-apply")
    wait_for_change(page, 2)
    now = catalog(served)
    assert abs(now["echo"][0] - 46.05) < 0.1 and abs(now["echo"][1] - 14.5) < 0.1, now["echo"]
    page.click(".edit-undo")
    wait_for_change(page, 3)
    assert catalog(served)["echo"][:2] == (46.3625, 14.0936)
    page.click(".edit-undo")
    wait_for_change(page, 4)
    after = catalog(served)
    assert after["echo"] == (None, None, None) and after["foxtrot"] == (None, None, None)
    page.click("[data-show=list]")
    assert page.locator("#list .nogeo").count() == 2
    no_trouble(page)
    session.close()


def callout_note(page, title):
    """What the callout of the photo `title`'s own marker says of its location (None: nothing)."""
    page.locator(f".leaflet-marker-icon[title='{title}']").click()
    page.locator(".leaflet-popup .callout").wait_for()
    note = page.locator(".leaflet-popup .callout-location")
    said = note.inner_text() if note.count() else None
    page.keyboard.press("Escape")
    page.locator(".leaflet-popup").wait_for(state="detached")
    return said


def test_the_owner_drags_a_photos_marker_and_undo_puts_back_its_own_gps(browser, served):
    before = catalog(served)
    assert before["Gamma"][2] == "exif"
    session, page = opened(browser, served, f"/places/{served['ljubljana']}#map")
    page.wait_for_selector("body[data-map-ready]", state="attached")
    marker = page.locator(".leaflet-marker-icon[title='Gamma']")
    marker.wait_for()
    assert callout_note(page, "Gamma") is None
    box = marker.bounding_box()
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 60, start[1] + 40, steps=8)
    page.mouse.up()
    wait_for_change(page, 1)
    now = catalog(served)["Gamma"]
    assert now[2] == "manual" and now[1] > before["Gamma"][1] and now[0] < before["Gamma"][0], now
    assert page.inner_text(".edit-status") == "Moved Gamma."
    assert callout_note(page, "Gamma") == "location set by hand"
    page.click(".edit-undo")
    wait_for_change(page, 2)
    assert catalog(served)["Gamma"] == before["Gamma"]
    assert callout_note(page, "Gamma") is None
    no_trouble(page)
    session.close()


def test_select_all_takes_the_timelines_range(browser, served):
    session, page = opened(browser, served, f"/places/{served['ljubljana']}?from=2024-07&to=2024-07#list")
    assert page.inner_text(".edit-select-all") == "Select all 2 photos"
    page.click(".edit-select-all")
    assert page.inner_text(".edit-picked") == "2 photos selected"
    assert sorted(page.locator("#list input.edit-pick:checked").evaluate_all(
        "boxes => boxes.map(box => box.getAttribute('aria-label'))")) == ["Select Beta", "Select Gamma"]
    # The whole range again: all three.
    page.click("button.timeline-all")
    assert page.inner_text(".edit-select-all") == "Select all 3 photos"
    page.click(".edit-select-all")
    assert page.inner_text(".edit-picked") == "3 photos selected"
    session.close()


# Whether the map shows a photo's own marker at (latitude, longitude), to the pixel.
MARKER_AT = """([latitude, longitude]) => {
    const map = photomap.showMap(), box = map.getContainer().getBoundingClientRect();
    const at = map.latLngToContainerPoint([latitude, longitude]);
    return [...document.querySelectorAll('#map .leaflet-marker-icon[title="Photo"]')].some(marker => {
        const own = marker.getBoundingClientRect();
        return Math.abs(own.left + own.width / 2 - box.left - at.x) < 3 && Math.abs(own.top + own.height / 2 - box.top - at.y) < 3;
    });
}"""


def test_on_the_map_of_everything_a_photos_callout_sets_and_removes_its_location(browser, served):
    before = catalog(served)["Delta"]
    session, page = opened(browser, served, "/map")
    page.evaluate("at => photomap.showMap().setView(at, 14, { animate: false })", list(before[:2]))
    page.wait_for_function(MARKER_AT, arg=list(before[:2]))
    page.locator(".leaflet-marker-icon[title='Photo']").click()
    page.click(".leaflet-popup .callout .edit-set")
    assert page.evaluate("() => document.activeElement.title") == "New location"
    page.fill("input[name=latitude]", "46.37")
    page.fill("input[name=longitude]", "14.1")
    page.click(".edit-set-form .edit-apply")
    wait_for_change(page, 1)
    assert catalog(served)["Delta"] == (46.37, 14.1, "manual")
    # The tiles are asked again: the marker is where the photo now is.
    page.wait_for_function(MARKER_AT, arg=[46.37, 14.1])
    page.click(".edit-undo")
    wait_for_change(page, 2)
    assert catalog(served)["Delta"] == before
    page.wait_for_function(MARKER_AT, arg=list(before[:2]))
    page.locator(".leaflet-marker-icon[title='Photo']").click()
    page.click(".leaflet-popup .callout .edit-clear")
    wait_for_change(page, 3)
    assert catalog(served)["Delta"] == (None, None, "manual")
    page.wait_for_function("() => !document.querySelector('#map .leaflet-marker-icon[title=\"Photo\"]')")
    page.click(".edit-undo")
    wait_for_change(page, 4)
    assert catalog(served)["Delta"] == before
    page.wait_for_function(MARKER_AT, arg=list(before[:2]))
    # Its marker dragged to the west: set there, and undone.
    box = page.locator(".leaflet-marker-icon[title='Photo']").bounding_box()
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] - 80, start[1], steps=8)
    page.mouse.up()
    wait_for_change(page, 5)
    dragged = catalog(served)["Delta"]
    assert dragged[2] == "manual" and dragged[1] < before[1] and abs(dragged[0] - before[0]) < 0.001, dragged
    page.wait_for_function(MARKER_AT, arg=list(dragged[:2]))
    page.click(".edit-undo")
    wait_for_change(page, 6)
    assert catalog(served)["Delta"] == before
    no_trouble(page)
    session.close()
    # A friend's map of everything has none of it.
    session, page = opened(browser, served, "/map", name="anna")
    page.evaluate("at => photomap.showMap().setView(at, 14, { animate: false })", list(before[:2]))
    page.wait_for_function(MARKER_AT, arg=list(before[:2]))
    page.locator(".leaflet-marker-icon[title='Photo']").click()
    page.locator(".leaflet-popup .callout").wait_for()
    settle(page)
    assert page.locator(".edit-world, .callout-edit").count() == 0
    session.close()


@pytest.mark.parametrize("screen", ["390", "1280"])
def test_axe_finds_nothing_in_the_editor(browser, served, screen):
    session, page = opened(browser, served, f"/places/{served['ljubljana']}#list", screen)
    for pick in page.locator("#list input.edit-pick").all():
        pick.check()
    assert page.inner_text(".edit-picked") == "3 photos selected"
    assert axe_violations(page) == []
    page.click(".edit-like")
    assert axe_violations(page) == []
    page.click(".edit-set")
    page.locator(".leaflet-marker-icon[title='New location']").wait_for()
    assert page.locator(".edit-like-form").is_hidden() and page.locator(".edit-set-form").is_visible()
    assert axe_violations(page) == []
    keep_screenshot(page, f"edit-many-{screen}.png")
    session.close()


@pytest.mark.parametrize("screen", ["390", "1280"])
def test_axe_finds_nothing_in_a_callout_on_the_map_of_everything(browser, served, screen):
    at = list(catalog(served)["Delta"][:2])
    session, page = opened(browser, served, "/map", screen)
    page.evaluate("at => photomap.showMap().setView(at, 14, { animate: false })", at)
    page.wait_for_function(MARKER_AT, arg=at)
    page.locator(".leaflet-marker-icon[title='Photo']").click()
    page.locator(".leaflet-popup .callout .edit-set").wait_for()
    assert page.inner_text(".leaflet-popup .callout .edit-set") == "Set location\u2026"
    page.wait_for_function("() => getComputedStyle(document.querySelector('.leaflet-popup')).opacity === '1'")  # faded in
    assert axe_violations(page) == []
    keep_screenshot(page, f"edit-world-{screen}.png")
    session.close()


def keep_screenshot(page, name):
    """With PHOTOMAP_SCREENSHOTS=DIR, keeps what the owner sees (the viewport) as DIR/name: the user
    guide's docs/screenshots/edit-*.png are made so (see the guide's editing section)."""
    folder = os.environ.get("PHOTOMAP_SCREENSHOTS")
    if folder:
        page.wait_for_timeout(600)  # the map's pan to the marker or callout ends
        page.screenshot(path=os.path.join(folder, name), animations="disabled")
