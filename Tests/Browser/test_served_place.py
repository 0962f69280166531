# SPDX-License-Identifier: Apache-2.0
"""A served place page that holds fewer photos than its place: Paris (214 photos in the embedded catalog)
says "100 of 214 photos" and "Show 100 more" opens it with the next 100; the pages' icon is served; a
range in the address is kept to its months; the timeline's bars stand over their months; and on a
390 × 844 phone the header leaves the map most of the screen and a callout opens clear of the map's
controls. One server for the module."""

import json
import urllib.request

import pytest

from conftest import new_page, settle
from test_pages import entries, no_trouble
from test_serve import start_serve

PARIS = "hS4wMLD0wPIXPXB"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    process, base = start_serve(tmp_path_factory.mktemp("served-place"))
    yield base
    process.terminate()
    process.wait(timeout=10)


def open_served(browser, base, path, **device):
    """A new page on `path` of the server, its map ready when it opens on the map."""
    for page in new_page(browser, **device):
        page.allow_origin(base)
        page.goto(base + path, wait_until="load")
        settle(page)
        return page


def test_a_place_with_more_photos_says_so_and_shows_the_next_page_on_demand(browser, base):
    page = open_served(browser, base, f"/places/{PARIS}")
    assert page.text_content("header .subtitle") == "100 of 214 photos · Ile-de-France, France"
    more = page.locator("header a.more")
    assert more.text_content() == "Show 100 more"
    page.click("button[data-show=list]")
    more.click()
    page.wait_for_url(f"**/places/{PARIS}?limit=200#list-2")
    page.wait_for_selector("body[data-list-ready]", state="attached")
    assert page.text_content("header .subtitle") == "200 of 214 photos · Ile-de-France, France"
    assert page.get_attribute("body", "data-list-page") == "2", "the list opens where the new photos begin"
    assert page.locator("#list li").count() == 100
    assert page.text_content("header a.more") == "Show 14 more"
    page.click("header a.more")
    page.wait_for_url(f"**/places/{PARIS}?limit=214#list-3")
    assert page.text_content("header .subtitle") == "214 photos · Ile-de-France, France"
    assert page.locator("header a.more").count() == 0
    no_trouble(page)


def test_the_pages_icon_is_linked_and_served(browser, base):
    with urllib.request.urlopen(base + "/favicon.ico", timeout=10) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"] == "image/svg+xml"
        assert answer.read().startswith(b"<svg")
    page = open_served(browser, base, "/")
    assert page.get_attribute("link[rel=icon]", "href") == "/assets/favicon.svg"
    assert not [url for url, _ in page.failed_loads], page.failed_loads


def test_a_range_in_the_address_keeps_its_months_and_the_bars_stand_over_them(browser, base):
    page = open_served(browser, base, f"/places/{PARIS}?from=2011-05&to=2015-10")
    data = json.loads(page.text_content("#photomap-annotations"))
    first, last = 2011 * 12 + 4, 2015 * 12 + 9
    taken = sum(1 for month in data["entries"]["month"] if month is not None and first <= month <= last)
    assert page.get_attribute("body", "data-timeline-shown") == str(taken)
    assert page.text_content(".timeline-status") == f"{taken} photos, May 2011 \u2013 October 2015"
    assert page.text_content("header .subtitle").startswith(f"{taken} of 100 photos")
    # Each bar's centre is its step's thumb centre: the first and last bars at the sliders' ends.
    bars = page.evaluate("""() => [...document.querySelectorAll('.timeline-bar')].map(bar => {
        const box = bar.getBoundingClientRect(); return box.left + box.width / 2; })""")
    track = page.evaluate("""() => { const input = document.querySelector('.timeline-from').getBoundingClientRect();
        return [input.left + 9, input.right - 9]; }""")
    steps = [track[0] + i * (track[1] - track[0]) / (len(bars) - 1) for i in range(len(bars))]
    assert max(abs(bar - step) for bar, step in zip(bars, steps)) <= 1.5, (bars, steps)
    edges = page.evaluate("""() => [document.querySelector('.timeline-bars'), document.querySelector('.timeline-sliders')]
        .map(part => { const box = part.getBoundingClientRect(); return [box.left, box.right]; })""")
    assert edges[0] == edges[1], "the bars span the sliders, no wider"
    no_trouble(page)


def test_on_a_phone_the_map_has_the_screen_and_a_callout_opens_clear_of_the_controls(browser, base):
    page = open_served(browser, base, f"/places/{PARIS}?from=2011-05&to=2015-10", **PHONE)
    page.wait_for_selector("body[data-map-ready]", state="attached")
    header, map_box = page.locator("header").bounding_box(), page.locator("#map").bounding_box()
    assert header["height"] <= 844 * 0.25, header
    assert map_box["height"] >= 844 * 0.6, map_box
    # A marker moved under the Heat button's corner, then opened: the map pans its callout clear.
    target = page.evaluate("""() => {
        const map = photomap.showMap(), box = map.getContainer().getBoundingClientRect();
        const icon = [...document.querySelectorAll('.leaflet-marker-icon')].find(icon => {
            const r = icon.getBoundingClientRect();
            return r.left > box.left && r.right < box.right && r.top > box.top && r.bottom < box.bottom; });
        const r = icon.getBoundingClientRect(), at = [r.left + r.width / 2 - box.left, r.top + r.height / 2 - box.top];
        const to = [box.width - 40, 90];
        map.panBy([at[0] - to[0], at[1] - to[1]], { animate: false });
        return [box.left + to[0], box.top + to[1]];
    }""")
    page.wait_for_timeout(300)
    page.mouse.click(*target)
    page.wait_for_selector(".leaflet-popup")
    page.wait_for_timeout(600)  # the autopan's animation
    clear = page.evaluate("""() => {
        const close = document.querySelector('.leaflet-popup-close-button').getBoundingClientRect();
        const found = document.elementFromPoint(close.left + close.width / 2, close.top + close.height / 2);
        const popup = document.querySelector('.leaflet-popup-content-wrapper').getBoundingClientRect();
        const covered = [...document.querySelectorAll('.leaflet-control')].filter(control => {
            const c = control.getBoundingClientRect();
            return c.width && c.left < popup.right && popup.left < c.right && c.top < popup.bottom && popup.top < c.bottom;
        }).map(control => control.className);
        return { closeFound: !!found && found.closest('.leaflet-popup-close-button') !== null, covered: covered };
    }""")
    assert clear == {"closeFound": True, "covered": []}
    no_trouble(page)
