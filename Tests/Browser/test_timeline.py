# SPDX-License-Identifier: Apache-2.0
"""The map pages' timeline in a real browser (headless Chromium), from the keyboard: a range of months
filters the markers, clusters, list and counts to exactly the photos taken in it (counted here from
the records the page was made from), on pages clustered by themselves and ahead of time; the range
is kept in the address, from disk and on `photomap serve`; axe-core finds nothing with a range chosen."""

import json
import re
import urllib.parse

import pytest

from conftest import new_page, open_file, settle
from test_access import axe_violations, device
from test_pages import REYKJAVIK, entries, no_trouble, photomap, write_catalog
from test_serve import served  # noqa: F401 (a fixture)

COUNT = 2_500
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def month_of(date):
    """MonthTaken's number (year × 12 + month − 1) of a date taken, or None."""
    return int(date[:4]) * 12 + int(date[5:7]) - 1 if date else None


@pytest.fixture(scope="module")
def dated(tmp_path_factory):
    """2,500 photos over Paris taken from January 2010 to November 2012 (every twelfth without a date), as a
    page that clusters them itself and as one clustered ahead of time (a low threshold: the path of 20,000+
    photos, with list files); the records' titles by month."""
    work = tmp_path_factory.mktemp("dated")
    place = {"place_id": "DATED", "latitude": 48.85, "longitude": 2.35, "photo_count": COUNT, "_content": "Dated, Here"}
    photos = []
    for i in range(COUNT):
        photo = {"id": str(40_000_000_000 + i), "title": f"Photo {i + 1}", "owner": "1@N00", "ownername": "Someone",
                 "latitude": round(48.80 + (i * 7919 % COUNT) / 25_000, 6),
                 "longitude": round(2.25 + (i * 104_729 % COUNT) / 12_500, 6)}
        if i % 12 != 5:
            month = i * 31 % 35
            photo["datetaken"] = f"{2010 + month // 12}-{month % 12 + 1:02d}-{1 + i % 28:02d} 12:00:00"
        photos.append(photo)
    write_catalog(work / "catalog", place, photos)
    env = {"PHOTOMAP_FIXTURES": str(work / "catalog")}
    photomap("photos", "--place", "DATED", "--limit", str(COUNT), "--map", "inpage.html", cwd=work, env=env)
    photomap("photos", "--place", "DATED", "--limit", str(COUNT), "--map", "tiles.html", cwd=work,
             env={**env, "PHOTOMAP_CLUSTER_THRESHOLD": "100"})
    assert (work / "tiles_files" / "lists" / "tiles" / "2.js").exists()
    taken = [(photo["title"], month_of(photo.get("datetaken"))) for photo in photos]
    return {"inpage": work / "inpage.html", "tiles": work / "tiles.html", "taken": taken}


def page_data(page_file):
    return json.loads(re.search(r'id="photomap-annotations">(.*?)</script>', page_file.read_text(), re.S).group(1))


def press_until_focused(page, selector, tries=60):
    """Tabs from where the focus is until `selector` has it."""
    for _ in range(tries):
        if page.evaluate(f"() => document.activeElement.matches({json.dumps(selector)})"):
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reached {selector}")


def markers_total(page):
    """Photos the map's markers stand for: each cluster's number, each pin one."""
    return page.evaluate("""() => [...document.querySelectorAll('.cluster-bubble')].reduce((sum, e) => sum + Number(e.textContent), 0)
        + document.querySelectorAll('#map .photomap-pin').length""")


def listed_titles(page):
    """Every title the list shows, page after page."""
    titles = []
    while True:
        titles += page.locator("#list li .title").all_inner_texts()
        pager = page.locator("nav.pager")
        if not pager.count() or pager.is_hidden() or page.locator("button[data-page=next]").is_disabled():
            return titles
        before = page.get_attribute("body", "data-list-page")
        page.click("button[data-page=next]")
        page.wait_for_function(f"() => document.body.getAttribute('data-list-page') !== '{before}'"
                               " && !/Loading/.test(document.querySelector('.pager-status').textContent)")


@pytest.mark.parametrize("kind", ["inpage", "tiles"])
def test_a_range_chosen_from_the_keyboard_shows_exactly_the_photos_taken_in_it(page, dated, kind):
    if kind == "inpage":  # the page's own month column agrees with the records
        columns = page_data(dated["inpage"])["entries"]
        assert [e["title"] for e in entries(page_data(dated["inpage"]))] == [t for t, _ in dated["taken"]]
        assert columns["month"] == [m for _, m in dated["taken"]]
    open_file(page, dated[kind])
    page.wait_for_selector("body[data-map-ready]")
    assert markers_total(page) == COUNT
    # Keyboard only: Tab to the first slider, three months on; Tab to the second, six months back.
    press_until_focused(page, "input.timeline-from")
    assert page.get_attribute("input.timeline-from", "aria-valuetext") == "January 2010"
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('input.timeline-to')")
    assert page.get_attribute("input.timeline-to", "aria-valuetext") == "November 2012"
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => location.search.indexOf('to=2012-05') >= 0")
    assert page.get_attribute("input.timeline-from", "aria-valuetext") == "April 2010"
    assert page.get_attribute("input.timeline-to", "aria-valuetext") == "May 2012"
    first, last = 2010 * 12 + 3, 2012 * 12 + 4
    wanted = sorted(title for title, month in dated["taken"] if month is not None and first <= month <= last)
    assert 0 < len(wanted) < COUNT
    assert urllib.parse.urlparse(page.url).query == "from=2010-04&to=2012-05"
    assert page.get_attribute("body", "data-timeline-shown") == str(len(wanted))
    assert page.inner_text(".timeline-status") == f"{len(wanted)} photos, April 2010 \u2013 May 2012"
    assert page.inner_text("header .subtitle").startswith(f"{len(wanted)} of {COUNT} photos")
    settle(page)
    assert markers_total(page) == len(wanted)
    page.click("button[data-show=list]")
    page.wait_for_selector(f"body[data-list-count='{len(wanted)}']", state="attached")
    assert sorted(listed_titles(page)) == wanted
    # The whole range again: every photo, those without a date too, and a plain address.
    page.click(".timeline-all")
    page.wait_for_selector(f"body[data-timeline-shown='{COUNT}']", state="attached")
    assert urllib.parse.urlparse(page.url).query == ""
    assert page.get_attribute("body", "data-list-count") == str(COUNT)
    page.click("button[data-show=map]")
    settle(page)
    assert markers_total(page) == COUNT
    no_trouble(page)


@pytest.mark.parametrize("kind", ["inpage", "tiles"])
def test_a_range_in_the_address_opens_filtered_from_disk(page, dated, kind):
    page.goto(dated[kind].resolve().as_uri() + "?from=2011-02&to=2011-02#list", wait_until="load")
    page.wait_for_selector("body[data-list-count]", state="attached")
    month = 2011 * 12 + 1
    wanted = sorted(title for title, taken in dated["taken"] if taken == month)
    assert page.get_attribute("input.timeline-from", "aria-valuetext") == "February 2011"
    assert page.get_attribute("input.timeline-to", "aria-valuetext") == "February 2011"
    assert sorted(listed_titles(page)) == wanted
    assert page.url.endswith("?from=2011-02&to=2011-02#list")
    no_trouble(page)


def reykjavik_months(page):
    """The months of the served Reykjavík page's entries, from its data."""
    return page.evaluate("() => JSON.parse(document.getElementById('photomap-annotations').textContent).entries.month")


def test_a_served_page_keeps_the_range_in_its_address_across_a_reload(browser, served):  # noqa: F811
    base, _ = served
    session = new_page(browser)
    page = next(session)
    page.allow_origin(base)
    page.goto(f"{base}/places/{REYKJAVIK}#list", wait_until="load")
    months = [m for m in reykjavik_months(page) if m is not None]
    years = sorted({m // 12 for m in months})
    assert len(years) > 2
    # Over a long span a step is a year: the second year to the one before the last.
    page.focus("input.timeline-from")
    page.keyboard.press("ArrowRight")
    page.focus("input.timeline-to")
    page.keyboard.press("ArrowLeft")
    first, last = years[0] + 1, years[-1] - 1
    page.wait_for_function(f"() => location.search === '?from={first}-01&to={last}-12'")
    assert page.get_attribute("input.timeline-from", "aria-valuetext") == str(first)
    wanted = sum(1 for m in months if first * 12 <= m <= last * 12 + 11)
    page.wait_for_selector(f"body[data-list-count='{wanted}']", state="attached")
    shared = page.url
    page.reload(wait_until="load")
    page.wait_for_selector(f"body[data-list-count='{wanted}']", state="attached")
    assert page.url == shared
    assert page.locator("#list li").count() == wanted
    # A shared link, opened in another session, shows the same.
    other = next(new_page(browser))
    other.allow_origin(base)
    other.goto(shared, wait_until="load")
    other.wait_for_selector(f"body[data-list-count='{wanted}']", state="attached")
    assert other.get_attribute("input.timeline-to", "aria-valuetext") == str(last)
    no_trouble(page)
    session.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["390", "1280"])
def test_axe_finds_nothing_with_a_range_chosen(browser, dated, screen, scheme):
    session = new_page(browser, **device(screen), color_scheme=scheme)
    page = next(session)
    page.goto(dated["inpage"].resolve().as_uri() + "?from=2010-06&to=2011-03", wait_until="load")
    page.wait_for_selector("body[data-map-ready]")
    assert axe_violations(page) == []
    page.click("button[data-show=list]")
    assert axe_violations(page) == []
    session.close()
