# SPDX-License-Identifier: Apache-2.0
"""Every kind of page on a phone, with a keyboard and to axe-core: served (`/`, a place in its list and
its map, a photo, `/recent`), an exported site's place page and a `--map` page, at 320, 390 and 430 px
wide (touch, device scale 2) and at 1280; axe-core (axe-playwright-python) in light and dark mode; a
marker's callout opened and closed from the keyboard alone."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import new_page, open_file, settle, steady
from test_pages import REYKJAVIK, no_trouble, photomap
from test_serve import served  # noqa: F401 (a fixture)

PHONES = {"320": (320, 640), "390": (390, 844), "430": (430, 932)}
DESKTOP = (1280, 800)
SCREENS = [*PHONES, "1280"]


def device(screen):
    """Playwright's context options for a screen: a touch phone at device scale 2, or a desktop."""
    if screen in PHONES:
        width, height = PHONES[screen]
        return {"viewport": {"width": width, "height": height}, "is_mobile": True, "has_touch": True,
                "device_scale_factor": 2}
    return {"viewport": {"width": DESKTOP[0], "height": DESKTOP[1]}}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A `--map` page of Reykjavík and a small exported site; their place page's path."""
    work = tmp_path_factory.mktemp("access")
    photomap("photos", "--place", REYKJAVIK, "--map", "reykjavik.html", cwd=work)
    photomap("export", "--out", str(work / "site"), "--places", "2", "--limit", "20", cwd=work)
    place = sorted((work / "site" / "places").glob("*.html"))[0]
    return {"map": work / "reykjavik.html", "site": place}


@pytest.fixture(scope="module")
def urls(served, files, browser):  # noqa: F811 (the fixture imported above)
    """Every page under test by name: (URL or file, the view to show)."""
    base, _ = served
    session = new_page(browser)
    page = next(session)
    page.allow_origin(base)
    page.goto(f"{base}/places/{REYKJAVIK}", wait_until="load")
    photo = page.eval_on_selector("#list a[href^='/photos/']", "a => a.getAttribute('href')")
    page.goto(base + photo, wait_until="load")  # now recently viewed: /recent lists it
    session.close()
    return base, {
        "top": (f"{base}/", "list"), "place-list": (f"{base}/places/{REYKJAVIK}#list", "list"),
        "place-map": (f"{base}/places/{REYKJAVIK}", "map"), "photo": (base + photo, "photo"),
        "recent": (f"{base}/recent", "list"), "site": (files["site"], "map"), "map": (files["map"], "map"),
    }


def opened(browser, urls, name, screen, scheme="light"):
    """A new page on `screen` with page `name` open and ready; returns (session, page)."""
    base, pages = urls
    session = new_page(browser, **device(screen), color_scheme=scheme)
    page = next(session)
    page.allow_origin(base)
    target, view = pages[name]
    if isinstance(target, str):
        page.goto(target, wait_until="load")
        settle(page)
    else:
        open_file(page, target)
    if view in ("list", "map") and page.get_attribute("body", "data-view") != view:
        page.click(f"button[data-show={view}]")
    if view in ("map", "photo"):
        page.wait_for_selector("body[data-map-ready]")
    return session, page


# Each part of the header, named for the report; its box must lie inside the viewport and overlap no other.
HEADER_BOXES = """() => {
    const parts = [...document.querySelectorAll(
        'header .back, header h1, header .subtitle, header input, header button, header .search-status')];
    const visible = parts.filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
    return { width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth,
             boxes: visible.map(e => { const r = e.getBoundingClientRect();
                 return { name: e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + (e.dataset.show || ''),
                          left: r.left, right: r.right, top: r.top, bottom: r.bottom }; }),
             title: (() => { const h = document.querySelector('header h1'), r = h.getBoundingClientRect();
                 return { width: r.width, clipped: h.scrollWidth > h.clientWidth + 1 }; })() };
}"""


def overlap(a, b):
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("name", ["top", "place-list", "place-map", "photo", "recent", "site", "map"])
def test_the_header_fits_and_the_toggle_answers(browser, urls, name, screen):
    session, page = opened(browser, urls, name, screen)
    layout = page.evaluate(HEADER_BOXES)
    boxes = layout["boxes"]
    assert layout["scrollWidth"] <= layout["width"], "the page is wider than the screen"
    for box in boxes:
        assert box["left"] >= 0 and box["right"] <= layout["width"] + 0.5 and box["top"] >= 0, f"{box['name']} leaves the viewport"
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            # The timeline's two sliders share one track by design: each answers only at its thumb.
            if a["name"].startswith("input.timeline-") and b["name"].startswith("input.timeline-"):
                continue
            assert not overlap(a, b), f"{a['name']} overlaps {b['name']}"
    assert layout["title"]["width"] > 0 and not layout["title"]["clipped"], "the title is cut off"
    if page.locator("button[data-show]").count():
        other = "map" if page.get_attribute("body", "data-view") == "list" else "list"
        page.click(f"button[data-show={other}]")  # Playwright clicks only what is visible and not covered
        assert page.get_attribute("body", "data-view") == other
        assert page.get_attribute(f"button[data-show={other}]", "aria-pressed") == "true"
    no_trouble(page)
    session.close()


@pytest.mark.parametrize("screen", list(PHONES))
@pytest.mark.parametrize("name", ["place-map", "photo", "site"])
def test_a_phone_gets_touch_targets_a_folded_credits_line_and_the_map_the_rest(browser, urls, name, screen):
    session, page = opened(browser, urls, name, screen)
    small = page.evaluate("""() => [...document.querySelectorAll('header a, header button, header input, footer summary')]
        .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0 && (r.width < 44 || r.height < 44)).map(([html]) => html)""")
    assert small == [], "touch targets under 44 px"
    footer = page.locator("footer").bounding_box()
    assert footer["height"] <= 48, "the credits take more than a line"
    if name != "photo":
        map_box = page.locator("#map").bounding_box()
        assert map_box["y"] + map_box["height"] <= footer["y"] + 0.5
        assert map_box["height"] >= PHONES[screen][1] - page.locator("header").bounding_box()["height"] - footer["height"] - 1
    page.click("footer summary")
    assert "not endorsed or certified by SmugMug" in page.inner_text("footer")
    assert page.locator("footer").bounding_box()["height"] > footer["height"]
    session.close()


def axe_violations(page):
    """axe-core's violations on the page as it is: rule, impact and the first nodes' targets."""
    result = Axe().run(page)
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in result.response["violations"]]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["390", "1280"])
@pytest.mark.parametrize("name", ["top", "place-list", "place-map", "photo", "recent", "site", "map"])
def test_axe_finds_nothing(browser, urls, name, screen, scheme):
    session, page = opened(browser, urls, name, screen, scheme)
    assert axe_violations(page) == []
    if name in ("place-map", "map"):  # and with a callout open
        page.locator(".leaflet-marker-icon[role=button]").first.focus()
        focus_a_pin(page)
        page.keyboard.press("Enter")
        page.wait_for_selector(".leaflet-popup .callout")
        page.wait_for_timeout(400)  # Leaflet fades a popup in
        assert axe_violations(page) == []
    session.close()


def focused(page):
    """The focused element's class and title."""
    return page.evaluate("() => [document.activeElement.className, document.activeElement.title || '']")


def focus_a_pin(page):
    """From a focused marker: Enter on clusters, then on their callout's "Zoom in" (each zooms in and
    focuses the marker nearest to it) until a single photo's marker has the focus."""
    for _ in range(10):
        if "photomap-pin" in focused(page)[0]:
            return
        assert "cluster-" in focused(page)[0], focused(page)
        page.evaluate("() => { document.activeElement.dataset.opened = '1'; }")
        page.keyboard.press("Enter")  # the cluster's callout, which takes the focus
        page.wait_for_function("() => document.activeElement.classList.contains('cluster-callout')")
        page.keyboard.press("Tab")
        assert "callout-zoom" in focused(page)[0]
        page.keyboard.press("Enter")
        # The map zooms in (animated), then the marker nearest to the cluster takes the focus.
        page.wait_for_function("() => document.activeElement.classList.contains('leaflet-marker-icon')"
                               " && !document.activeElement.dataset.opened", timeout=5000)
    pytest.fail("no marker reached")


@pytest.mark.parametrize("name", ["map", "place-map"])
def test_the_keyboard_alone_reaches_a_marker_opens_its_callout_and_closes_it(browser, urls, name):
    session, page = opened(browser, urls, name, "1280")
    for _ in range(40):  # Tab from the top of the page to the first marker
        page.keyboard.press("Tab")
        if "leaflet-marker-icon" in focused(page)[0]:
            break
    focus_a_pin(page)
    marker = focused(page)
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "no visible focus ring"
    page.keyboard.press("Enter")
    callout = page.wait_for_selector(".leaflet-popup .callout")
    assert page.evaluate("() => document.activeElement.classList.contains('callout')"), "the callout did not take the focus"
    assert callout.get_attribute("aria-label").startswith(marker[1])
    for _ in range(6):
        page.keyboard.press("Tab")
        if "callout-disclosure" in focused(page)[0]:
            break
    assert "callout-disclosure" in focused(page)[0], "the disclosure link is not reachable"
    page.keyboard.press("Escape")
    page.wait_for_selector(".leaflet-popup", state="detached")  # after Leaflet's fade
    assert focused(page) == marker, "the focus did not return to the marker"
    no_trouble(page)
    session.close()


def test_search_results_are_drawn_apart_and_clear_brings_the_page_back(browser, urls):
    session, page = opened(browser, urls, "place-map", "390")
    count = "document.querySelectorAll('.leaflet-marker-icon[role=button]:not(.result)').length"
    own = f"() => {count}"
    before = steady(page, count)
    assert before > 0
    page.evaluate("() => { window.__samePage = true; }")
    page.fill("form.search input", "film")
    page.press("form.search input", "Enter")
    page.wait_for_function("() => Number(document.body.getAttribute('data-search-results')) > 0")
    results = int(page.get_attribute("body", "data-search-results"))
    legend = page.inner_text(".search-legend")
    assert f"{results} result{'s' if results != 1 else ''} for ‘film’" in legend and "Clear" in legend
    assert page.locator(".search-legend .swatch").is_visible()
    assert page.locator(".photomap-pin.result").count() == results
    assert page.evaluate(own) == 0, "the page's own markers are drawn among the results"
    page.click(".search-clear")
    assert page.locator(".photomap-pin.result").count() == 0
    # The page's markers come back as the map returns to where it was (after its animation: under a load
    # of 20 on 2 cores, once more than 15 s).
    page.wait_for_function(f"() => {count} === {before}", timeout=30000)
    assert not page.locator(".search-legend").is_visible()
    assert page.evaluate("() => window.__samePage") is True, "the page was reloaded"
    no_trouble(page)
    session.close()


def test_served_top_places_link_recently_viewed_and_counts_are_words(browser, urls, files):
    session, page = opened(browser, urls, "top", "390")
    page.click("a.elsewhere")
    page.wait_for_url("**/recent")
    assert page.inner_text("header .subtitle") == "1 photo"
    open_file(page, files["site"].parent.parent / "index.html")
    assert page.locator("a.elsewhere").count() == 0  # files on disk have no recently viewed
    assert page.inner_text("header .subtitle").startswith("2 places")
    session.close()


def test_a_printed_photo_page_is_its_image_details_and_credits(browser, urls):
    session, page = opened(browser, urls, "photo", "1280")
    page.emulate_media(media="print")
    for hidden in ["form.search", "#map", ".leaflet-control-zoom", "header .back"]:
        assert not page.locator(hidden).is_visible(), hidden
    for shown in ["figure img", ".details dl", "header h1"]:
        assert page.locator(shown).first.is_visible(), shown
    assert "not endorsed or certified by SmugMug" in page.inner_text("footer")
    session.close()


def test_clear_during_the_results_zoom_still_brings_the_view_back(browser, urls):
    # Leaflet 1.6 drops a setView asked for while a zoom animation runs: Clear pressed as the map still
    # zooms to the results (a quick hand, a slow machine) must still take the map back to where it was.
    session, page = opened(browser, urls, "place-map", "390")
    view = "(() => { const m = photomap.showMap(), c = m.getCenter(); return [c.lat.toFixed(5), c.lng.toFixed(5), m.getZoom()].join(); })()"
    steady(page, "document.querySelectorAll('.leaflet-marker-icon[role=button]').length")
    before = page.evaluate(f"() => {view}")
    page.fill("form.search input", "film")
    page.press("form.search input", "Enter")
    page.wait_for_function("() => Number(document.body.getAttribute('data-search-results')) > 0")
    steady(page, view)
    assert page.evaluate(f"() => {view}") != before, "the results are not away from the page's view"
    # A zoom begun, and Clear pressed while it runs.
    clicked = page.evaluate("""() => new Promise(done => {
        const map = photomap.showMap();
        map.setZoom(map.getZoom() - 1);
        const click = () => {
            if (!map._animatingZoom) return requestAnimationFrame(click);
            document.querySelector('.search-clear').click();
            done(true);
        };
        requestAnimationFrame(click);
    })""")
    assert clicked
    page.wait_for_function(f"() => {view} === {before!r}", timeout=15000)
    no_trouble(page)
    session.close()
