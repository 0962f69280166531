# SPDX-License-Identifier: Apache-2.0
"""Exploring a map page in a real browser (headless Chromium): a cluster's callout opens its photos as a
grid (a modal dialog, from the keyboard too, the focus back on the cluster when it closes); a "Heat"
button (aria-pressed, keyboard operable) draws the density of the photos in the timeline's range on a
canvas under the markers, from the page's own data, and takes it away again; axe-core finds nothing
with either shown."""

import pytest

from conftest import new_page, open_file
from test_access import axe_violations, device, focused
from test_pages import no_trouble
from test_timeline import COUNT, dated  # noqa: F401 (a fixture)

# Pixels of the heat canvas that are drawn (not transparent), and the canvas's size.
DRAWN = """() => {
    const canvas = document.querySelector('.leaflet-heat-pane canvas');
    if (!canvas) return null;
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let drawn = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]) drawn++;
    return drawn;
}"""


@pytest.mark.parametrize("kind", ["inpage", "tiles"])
def test_heat_comes_and_goes_and_follows_the_timeline(page, dated, kind):  # noqa: F811
    open_file(page, dated[kind])
    page.wait_for_selector("body[data-map-ready]")
    button = page.locator("button.heat-toggle")
    assert button.get_attribute("aria-pressed") == "false"
    assert page.evaluate(DRAWN) is None
    # From the keyboard: the button takes the focus and Enter presses it.
    button.focus()
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-pressed") == "true"
    page.wait_for_selector("body[data-heat-points]", state="attached")
    everything = page.evaluate(DRAWN)
    assert everything > 10_000
    points = int(page.get_attribute("body", "data-heat-points"))
    if kind == "inpage":
        assert points == COUNT  # every photo is in view, each a dot
    # A narrower range: fewer photos, less heat.
    page.focus("input.timeline-from")
    for _ in range(20):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.search.indexOf('from=') >= 0")
    page.wait_for_timeout(100)
    narrower = page.evaluate(DRAWN)
    assert 0 < narrower < everything
    if kind == "inpage":
        months = page.evaluate("() => JSON.parse(document.getElementById('photomap-annotations').textContent).entries.month")
        shown = sum(1 for m in months if m is not None and m >= 2010 * 12 + 20)
        assert int(page.get_attribute("body", "data-heat-points")) == shown
    button.click()
    assert button.get_attribute("aria-pressed") == "false"
    assert page.evaluate(DRAWN) is None
    no_trouble(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["390", "1280"])
def test_axe_finds_nothing_with_the_heat_shown(browser, dated, screen, scheme):  # noqa: F811
    session = new_page(browser, **device(screen), color_scheme=scheme)
    page = next(session)
    open_file(page, dated["inpage"])
    page.wait_for_selector("body[data-map-ready]")
    page.click("button.heat-toggle")
    page.wait_for_selector("body[data-heat-points]", state="attached")
    assert axe_violations(page) == []
    session.close()


def open_a_grid_from_the_keyboard(page):
    """Tabs to the first cluster, opens its callout and its grid with Enter; returns the cluster's count."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if "cluster-" in focused(page)[0]:
            break
    assert "cluster-" in focused(page)[0], "Tab never reached a cluster"
    count = int(page.evaluate("() => document.activeElement.textContent"))
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.classList.contains('cluster-callout')")
    for _ in range(3):
        page.keyboard.press("Tab")
        if "callout-grid" in focused(page)[0]:
            break
    assert page.evaluate("() => document.activeElement.textContent") == f"Show {count} photos"
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.grid-dialog[open] ul.grid img")
    return count


def test_the_keyboard_opens_a_clusters_grid_and_escape_brings_the_focus_back(browser, dated):  # noqa: F811
    session = new_page(browser, **device("1280"))
    page = next(session)
    open_file(page, dated["inpage"])
    page.wait_for_selector("body[data-map-ready]")
    count = open_a_grid_from_the_keyboard(page)
    assert page.evaluate("() => document.activeElement.closest('dialog.grid-dialog[open]') !== null"), "the focus is not in the grid"
    assert page.locator("dialog.grid-dialog ul.grid img").count() == min(count, 100)
    assert page.inner_text("dialog.grid-dialog h2") == f"{count} photos"
    alts = page.locator("dialog.grid-dialog ul.grid img").evaluate_all("images => images.map(i => i.alt)")
    assert all(alt.startswith("Photo ") for alt in alts)
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.grid-dialog[open]", state="detached")
    assert "cluster-" in focused(page)[0] and page.evaluate("() => document.activeElement.textContent") == str(count)
    no_trouble(page)
    session.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["390", "1280"])
def test_axe_finds_nothing_with_a_grid_open(browser, dated, screen, scheme):  # noqa: F811
    session = new_page(browser, **device(screen), color_scheme=scheme)
    page = next(session)
    open_file(page, dated["inpage"])
    page.wait_for_selector("body[data-map-ready]")
    page.locator(".cluster-bubble").first.click()
    page.wait_for_timeout(400)  # Leaflet fades a popup in
    assert axe_violations(page) == []
    page.locator(".leaflet-popup .callout-grid").click()
    page.wait_for_selector("dialog.grid-dialog[open] ul.grid img")
    assert axe_violations(page) == []
    session.close()
