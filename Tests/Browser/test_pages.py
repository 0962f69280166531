# SPDX-License-Identifier: Apache-2.0
"""photomap's pages in a real browser (headless Chromium), opened from disk with the network blocked:
no script errors, markers and callouts work, thumbnails load, hostile text never runs, and every
relative link and image of an exported site resolves."""

import html.parser
import json
import os
import pathlib
import shutil
import subprocess
import sys
import urllib.parse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from conftest import open_file, settle

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("PHOTOMAP_BIN", REPO / ".build/debug/photomap"))
sys.path.insert(0, str(REPO / "Tests/Support"))
import prebuilt_indexes  # noqa: E402 (from Tests/Support, put on the path above)
PARIS, REYKJAVIK, BERLIN = "hS4wMLD0wPIXPXB", "CTUuhTIRnlu09x0F", "yjZViTj17fo6BbLk"


def entries(annotations):
    """A page's entries (PageEntries.swift's columns) as dicts of their fields, decoded here
    independently of photomap-page.js: a shared row's NUL stands for the entry's id; an own row goes
    between the column's prefix and suffix."""
    columns = annotations["entries"]
    ids = columns["id"]

    def value(column, i):
        row = column["rows"][i]
        if row is None:
            return None
        if isinstance(row, int):
            return column["table"][row].replace("\0", ids[i])
        return column["prefix"] + row + column["suffix"]

    text = {name: column for name, column in columns.items() if isinstance(column, dict)}
    return [{"id": ids[i], "lat": columns["lat"][i], "lon": columns["lon"][i],
             **{name: value(column, i) for name, column in text.items()}} for i in range(len(ids))]


def cache_in(folder, env=None):
    """The cache folder of runs in `folder`: on the embedded catalog, a new one starts with the indexes
    its first use makes (Tests/Support/prebuilt_indexes.py)."""
    cache = folder / "cache"
    if "PHOTOMAP_FIXTURES" not in (env or {}) and not cache.exists():
        prebuilt_indexes.copy_into(BINARY, cache)
    return cache


def photomap(*arguments, cwd, env=None):
    """Runs the built binary; fails the test with its stderr when it fails."""
    result = subprocess.run([str(BINARY), *arguments], cwd=cwd, capture_output=True, text=True,
                            env={**os.environ, "PHOTOMAP_CACHE": str(cache_in(cwd, env)), **(env or {})}, timeout=600)
    assert result.returncode == 0, result.stderr
    return result


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """An exported site of every place, 40 photos each (the hostile titles among them)."""
    work = tmp_path_factory.mktemp("site")
    photomap("export", "--out", str(work / "site"), "--limit", "40", cwd=work)
    return work / "site"


@pytest.fixture(scope="session")
def hostile(tmp_path_factory):
    """A map page of a catalog whose every text field tries to run script."""
    work = tmp_path_factory.mktemp("hostile")
    catalog = work / "catalog"
    (catalog / "photos" / "EVIL").mkdir(parents=True)
    evil = ["</script><script>window.__pwned = 1</script>", "<img src=x onerror=\"window.__pwned = 2\">",
            "\" onmouseover=\"window.__pwned = 3", "javascript:window.__pwned = 4", "\u2028</SCRIPT >\u2029"]
    place = {"place_id": "EVIL", "latitude": 48.85, "longitude": 2.35, "photo_count": len(evil),
             "_content": evil[0] + ", " + evil[1], "place_url": "/x\"><script>window.__pwned=5</script>"}
    (catalog / "top-places.json").write_text(json.dumps({"places": {"total": 1, "place": [place]}, "stat": "ok"}))
    photos = [{"id": str(10_000_000_000 + i), "title": text, "owner": "1@N00", "ownername": text,
               "description": {"_content": text + ' <a href="javascript:window.__pwned=6">click</a> <a href="https://example.org/ok">fine</a>'},
               "datetaken": text, "tags": text, "latitude": 48.85 + i / 1000, "longitude": 2.35,
               "url_sq": "https://live.staticflickr.com/1/x" + str(i) + "_s.png"} for i, text in enumerate(evil)]
    # An id that tries to name a file outside the page's folder.
    photos[0]["id"] = "../../escaped"
    (catalog / "photos" / "EVIL" / "page-1.json").write_text(
        json.dumps({"photos": {"page": 1, "pages": 1, "total": len(evil), "photo": photos}, "stat": "ok"}))
    env = {"PHOTOMAP_FIXTURES": str(catalog)}
    photomap("photos", "--place", "EVIL", "--map", "evil.html", cwd=work, env=env)
    photomap("places", "--map", "evil-places.html", cwd=work, env=env)
    assert not list(work.parent.rglob("escaped*")), "a record id named a file outside the site"
    return work, evil


def write_catalog(catalog, place, photos):
    """A catalog of one place and its photos, in flickr.photos.search's pages of 100."""
    (catalog / "photos" / place["place_id"]).mkdir(parents=True)
    (catalog / "top-places.json").write_text(json.dumps({"places": {"total": 1, "place": [place]}, "stat": "ok"}))
    pages = (len(photos) + 99) // 100
    for page in range(pages):
        chunk = photos[page * 100:(page + 1) * 100]
        (catalog / "photos" / place["place_id"] / f"page-{page + 1}.json").write_text(json.dumps(
            {"photos": {"page": page + 1, "pages": pages, "perpage": 100, "total": len(photos), "photo": chunk}, "stat": "ok"}))


@pytest.fixture(scope="session")
def big(tmp_path_factory):
    """A map page of 10,000 photos scattered over Manhattan and around (about 10 km by 8)."""
    work = tmp_path_factory.mktemp("big")
    place = {"place_id": "BIG", "latitude": 40.75, "longitude": -73.98, "photo_count": 10_000,
             "_content": "Manhattan, New York, United States"}
    photos = [{"id": str(30_000_000_000 + i), "title": f"Photo {i + 1}", "owner": "1@N00", "ownername": "Someone",
               "latitude": round(40.70 + (i * 7919 % 10_000) / 100_000, 6),
               "longitude": round(-74.02 + (i * 104_729 % 10_000) / 100_000, 6)} for i in range(10_000)]
    write_catalog(work / "catalog", place, photos)
    photomap("photos", "--place", "BIG", "--limit", "10000", "--map", "big.html", cwd=work,
             env={"PHOTOMAP_FIXTURES": str(work / "catalog")})
    return work / "big.html"


def no_trouble(page):
    """The page ran without script errors, CSP violations or console errors."""
    settle(page)
    assert page.errors == []
    assert page.csp_violations == []
    assert page.console_errors == []


def click_visible_pin(page):
    """Clicks a single-photo marker lying inside the map's visible area (tiles at the edges hold some outside),
    once one is there and the map has stopped moving: after a zoom, a pre-clustered page's tiles come as their
    scripts load and replace markers, so the one chosen is marked and clicked by that mark, again if it went."""
    choose = """() => {
        if (document.querySelector('#map.leaflet-zoom-anim')) return false;
        const box = document.getElementById('map').getBoundingClientRect();
        document.querySelectorAll('[data-test-pin]').forEach(pin => pin.removeAttribute('data-test-pin'));
        const pin = [...document.querySelectorAll('.photomap-pin')].find(pin => {
            const r = pin.getBoundingClientRect();
            return r.left > box.left + 20 && r.right < box.right - 20 && r.top > box.top + 120 && r.bottom < box.bottom - 20;
        });
        if (!pin) return false;
        pin.setAttribute('data-test-pin', '');
        return true;
    }"""
    for attempt in range(5):
        page.wait_for_function(choose)
        try:
            page.locator("[data-test-pin]").click(timeout=5_000)
            return
        except PlaywrightTimeoutError:
            if attempt == 4:
                raise


def zoom_into(cluster, timeout=None):
    """Clicks a cluster, then its callout's "Zoom in"."""
    cluster.click(timeout=timeout)
    cluster.page.locator(".leaflet-popup .callout-zoom").click(timeout=timeout)


def zoom_in_until_pins(page, clusters, tries):
    """Zooms in on clusters (through their callouts) until single-photo markers show. After a zoom, a
    pre-clustered page's markers come as its tiles' scripts load: it waits for the map to stop and a marker of
    either kind, and looks again when the cluster it clicks goes (once, on a loaded machine, the markers came
    after its 400 ms and it waited for a cluster where there were only pins)."""
    settled = """(clusters) => !document.querySelector('#map.leaflet-zoom-anim')
        && document.querySelector('.photomap-pin, ' + clusters) !== null"""
    for _ in range(tries):
        page.wait_for_function(settled, arg=clusters)
        if page.locator(".photomap-pin").count():
            return
        try:
            zoom_into(page.locator(clusters).first, timeout=5_000)
        except PlaywrightTimeoutError:
            continue  # the markers changed under the click (a tile's script came): look again
        page.wait_for_timeout(400)


def zoom_out_until_outline(page):
    """Zooms out (the map's − button) until Natural Earth's outline is drawn."""
    for _ in range(12):
        if page.locator(".leaflet-basemap-pane path").count() > 100:
            return
        page.click(".leaflet-control-zoom-out")
        page.wait_for_timeout(350)
    assert page.locator(".leaflet-basemap-pane path").count() > 100, "no outline at a world view"


def show_map(page):
    page.click("button[data-show=map]")
    page.wait_for_selector("body[data-map-ready]")


def test_index_lists_places_and_maps_them(page, site):
    open_file(page, site / "index.html")
    assert page.locator("#list li").count() == 45
    show_map(page)
    assert page.get_attribute("body", "data-map-ready") == "45"
    assert page.locator(".leaflet-marker-icon").count() > 0
    # The offline basemap at a world view: Natural Earth's country outlines drawn under everything.
    page.wait_for_selector(".leaflet-basemap-pane path", state="attached")
    assert page.locator(".leaflet-basemap-pane path").count() > 100
    no_trouble(page)


def test_callout_shows_title_subtitle_thumbnail_and_disclosure(page, tmp_path):
    photomap("photos", "--place", REYKJAVIK, "--map", "reykjavik.html", cwd=tmp_path)
    open_file(page, tmp_path / "reykjavik.html")
    page.wait_for_selector("body[data-map-ready]")
    zoom_in_until_pins(page, ".cluster-bubble", 8)
    page.locator(".photomap-pin").first.click()
    callout = page.wait_for_selector(".leaflet-popup .callout")
    assert callout.query_selector(".callout-title").inner_text()
    thumb = callout.query_selector("img.callout-thumb")
    page.wait_for_function("img => img.complete && img.naturalWidth === 75 && !img.src.endsWith('placeholder.svg')", arg=thumb)
    link = callout.query_selector("a.callout-disclosure").get_attribute("href")
    assert (tmp_path / link).exists()
    no_trouble(page)


def test_every_photo_links_back_to_flickr_with_its_owner_and_licence(page, tmp_path):
    photomap("photos", "--place", REYKJAVIK, "--map", "reykjavik.html", cwd=tmp_path)
    open_file(page, tmp_path / "reykjavik.html")
    page.click("button[data-show=list]")
    items = page.locator("#list li")
    assert items.count() == 7
    for index in range(items.count()):
        item = items.nth(index)
        photo_id = item.locator("a").first.get_attribute("href").split("/")[-1].removesuffix(".html")
        credit = item.locator(".credit")
        assert credit.inner_text().startswith("by ")
        back = credit.locator("a.flickr").get_attribute("href")
        assert back.startswith("https://www.flickr.com/photos/") and back.endswith("/" + photo_id)
    # Owner, licence and link back in the callout too.
    show_map(page)
    zoom_in_until_pins(page, ".cluster-bubble", 8)
    page.locator(".photomap-pin").first.click()
    credit = page.wait_for_selector(".leaflet-popup .callout .callout-credit")
    assert credit.inner_text().startswith("by ")
    assert credit.query_selector("a.flickr").get_attribute("href").startswith("https://www.flickr.com/photos/")
    # The photo page: the image links back, the licence links to its deed when it has one.
    photo_page = next((tmp_path / "reykjavik_files" / "photos").glob("*.html"))
    open_file(page, photo_page)
    assert page.get_attribute("figure a", "href").startswith("https://www.flickr.com/photos/")
    assert page.locator("dt", has_text="Licence").count() == 1
    no_trouble(page)
    assert not [url for url in page.blocked_requests if "flickr.com" in url], "links are not fetched"


def test_hostile_text_never_runs(page, hostile):
    work, evil = hostile
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for name in ["evil.html", "evil-places.html"]:
        open_file(page, work / name)
        show_map(page)
        for pin in range(page.locator(".photomap-pin").count()):
            page.locator(".photomap-pin").nth(pin).click(force=True)
            page.wait_for_timeout(100)
        page.mouse.move(200, 200)
        assert page.evaluate("() => window.__pwned") is None
        no_trouble(page)
    # The titles are shown as the text they are.
    open_file(page, work / "evil.html")
    page.click("button[data-show=list]")
    shown = page.locator("#list .title").all_inner_texts()
    assert evil[1] in shown and evil[0] in shown
    for photo_page in sorted((work / "evil_files" / "photos").glob("*.html")):
        open_file(page, photo_page)
        assert page.evaluate("() => window.__pwned") is None
        hrefs = page.eval_on_selector_all(".description a", "links => links.map(a => a.getAttribute('href'))")
        assert hrefs == ["https://example.org/ok"]
        no_trouble(page)
    assert dialogs == []


def test_photo_page_shows_image_and_small_map(page, site):
    photo_page = next((site / "photos").glob("*.html"))
    open_file(page, photo_page)
    image = page.wait_for_selector("figure img")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image)
    page.wait_for_selector("body[data-map-ready='1']")
    assert page.locator(".photomap-pin").count() == 1
    no_trouble(page)


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.data, self._in_data = [], "", False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.links += [attributes[name] for name in ("href", "src") if attributes.get(name)]
        self._in_data = tag == "script" and attributes.get("id") == "photomap-annotations"

    def handle_data(self, data):
        if self._in_data:
            self.data += data

    def handle_endtag(self, tag):
        self._in_data = False


def test_every_relative_link_and_image_of_the_site_resolves(site):
    pages = list(site.rglob("*.html"))
    assert len(pages) > 45
    checked = 0
    for page_file in pages:
        parser = _Links()
        parser.feed(page_file.read_text())
        annotations = json.loads(parser.data)
        targets = parser.links + [annotations["placeholder"]]
        for entry in entries(annotations):
            targets += [v for v in (entry.get("thumbnail"), entry.get("link")) if v]
        for target in targets:
            if target.startswith(("http://", "https://", "#")):
                continue
            resolved = (page_file.parent / urllib.parse.unquote(target.split("#")[0])).resolve()
            assert resolved.is_file(), f"{page_file.relative_to(site)} links to missing {target}"
            assert site.resolve() in resolved.parents, f"{target} leaves the site"
            checked += 1
    assert checked > 1000


def test_site_works_from_disk_with_no_server(page, site):
    open_file(page, site / "index.html")
    assert page.get_attribute("body", "data-view") == "map", "the index opens on its map"
    page.click("button[data-show=list]")  # the list is one click away, and remembered
    page.locator("#list a").first.click()
    page.wait_for_load_state("load")
    assert "/places/" in page.url
    page.locator("#list a").first.click()
    page.wait_for_load_state("load")
    assert "/photos/" in page.url
    open_file(page, site / "index.html")
    assert page.get_attribute("body", "data-view") == "list", "the view chosen is remembered"
    no_trouble(page)


def test_pre_clustered_page_loads_tiles_in_view_and_opens_callouts(page, tmp_path):
    # A low threshold makes New York's 287 photos take the path 20,000+ photos take.
    photomap("photos", "--place", "LATOAYBHhITBWjUq5GkE", "--limit", "300", "--map", "ny.html", cwd=tmp_path,
             env={"PHOTOMAP_CLUSTER_THRESHOLD": "50"})
    assert (tmp_path / "ny_files" / "clusters" / "ny" / "0" / "0" / "0.js").is_file()
    open_file(page, tmp_path / "ny.html")
    page.wait_for_selector("body[data-map-ready='287']")
    page.wait_for_selector(".cluster-bubble")
    shown = page.evaluate("() => [...document.querySelectorAll('.cluster-bubble')].reduce((n, b) => n + Number(b.textContent), 0)"
                          " + document.querySelectorAll('.photomap-pin').length")
    assert 200 <= shown <= 287  # everything in view is accounted for, clusters by their counts
    zoom_into(page.locator(".cluster-bubble").first)
    click_visible_pin(page)
    page.wait_for_selector(".leaflet-popup .callout .callout-title")
    no_trouble(page)


def test_a_map_named_with_url_characters_still_loads_its_files(page, tmp_path):
    photomap("photos", "--place", REYKJAVIK, "--map", "trip #2?.html", cwd=tmp_path)
    open_file(page, tmp_path / "trip #2?.html")
    page.wait_for_selector("body[data-map-ready]")
    # Zoomed out to a world view, the outline's script is loaded from the assets folder beside it.
    zoom_out_until_outline(page)
    assert page.failed_loads == [] or all("tile.openstreetmap.org" in url for url, _ in page.failed_loads)
    no_trouble(page)


@pytest.mark.parametrize("threshold", ["10", None], ids=["tiles", "in-page"])
def test_photos_at_one_spot_stay_one_cluster_whose_grid_shows_them_100_at_a_time(page, tmp_path, threshold):
    # 150 photos at one coordinate and 3 around it: at the last zoom the 150 are still one cluster, whether
    # clustered ahead of time (tiles) or by the page, and its callout opens them as a grid.
    catalog = tmp_path / "catalog"
    place = {"place_id": "SPOT", "latitude": 48.85, "longitude": 2.35, "photo_count": 153, "_content": "Spot, Here"}
    photos = [{"id": str(20_000_000_000 + i), "title": f"Same spot {i}", "latitude": 48.8584, "longitude": 2.2945}
              for i in range(150)]
    photos += [{"id": str(20_000_001_000 + i), "title": f"Nearby {i}", "latitude": 48.8584 + (i + 1) / 2000,
                "longitude": 2.2945} for i in range(3)]
    write_catalog(catalog, place, photos)
    env = {"PHOTOMAP_FIXTURES": str(catalog), **({"PHOTOMAP_CLUSTER_THRESHOLD": threshold} if threshold else {})}
    photomap("photos", "--place", "SPOT", "--limit", "153", "--map", "spot.html", cwd=tmp_path, env=env)
    assert (tmp_path / "spot_files" / "clusters").exists() == bool(threshold)
    open_file(page, tmp_path / "spot.html")
    page.wait_for_selector("body[data-map-ready='153']")
    spot = page.locator(".cluster-bubble", has_text="150")
    for _ in range(12):
        if page.evaluate("() => document.querySelectorAll('.cluster-bubble').length === 1"):
            spot.click()
            if not page.locator(".leaflet-popup .callout-zoom").count():
                break  # the last zoom: nothing left to zoom into
            page.locator(".leaflet-popup .callout-zoom").click()
        else:
            zoom_into(page.locator(".cluster-bubble").first)
        page.wait_for_timeout(400)
    assert page.locator(".leaflet-popup .callout-title").inner_text() == "150 photos here"
    assert page.locator(".photomap-pin").count() == 3
    page.locator(".leaflet-popup .callout-grid").click()
    dialog = page.locator("dialog.grid-dialog[open]")
    dialog.wait_for()
    page.wait_for_selector("body[data-grid-page='1']", state="attached")
    assert dialog.locator("h2").inner_text() == "150 photos"
    assert dialog.locator("ul.grid img").count() == 100
    first = dialog.locator("ul.grid img").evaluate_all("images => images.map(i => i.alt)")
    assert dialog.locator(".grid-status").inner_text() == "1\u2013100 of 150"
    dialog.locator("button[data-page=next]").click()
    assert dialog.locator("ul.grid img").count() == 50
    assert dialog.locator(".grid-status").inner_text() == "101\u2013150 of 150"
    second = dialog.locator("ul.grid img").evaluate_all("images => images.map(i => i.alt)")
    assert sorted(first + second) == sorted(f"Same spot {i}" for i in range(150))
    # Each square links to its photo's page, written beside the map.
    href = dialog.locator("ul.grid a").first.get_attribute("href")
    assert (tmp_path / urllib.parse.unquote(href)).is_file()
    # Escape closes it and the focus goes back to the cluster's marker.
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.grid-dialog[open]", state="detached")
    assert page.evaluate("() => document.activeElement.querySelector('.cluster-bubble')?.textContent") == "150"
    no_trouble(page)


def last_entry_links_its_page(page, folder):
    """The list's last entry links to a photo page written in `folder`, and shows its credit line."""
    last = page.locator("#list li").last
    assert (folder / urllib.parse.unquote(last.locator("a").first.get_attribute("href"))).is_file()
    assert last.locator(".credit").inner_text().startswith("by Someone")


def reopen_at(page, path, fragment, list_page):
    """Opens the page afresh at `fragment` and waits until the list shows page `list_page`."""
    page.goto("about:blank")
    page.goto(path.resolve().as_uri() + fragment)
    page.wait_for_selector(f"body[data-list-page='{list_page}']", state="attached")


def test_a_10000_photo_page_is_compact_and_lists_every_entry_page_by_page(page, big):
    assert big.stat().st_size < 1_500_000
    # No markup per entry beyond the first page: the rest is in the page's columns.
    assert big.read_text().count("<li>") == 100
    open_file(page, big)
    page.wait_for_selector("body[data-list-ready='10000']", state="attached")
    page.click("button[data-show=list]")  # a --map page opens on its map
    assert page.locator("#list li").count() == 100
    assert page.inner_text("#list li .title >> nth=0") == "Photo 1"
    seen, pages = set(), 0
    while True:
        titles = page.locator("#list li .title").all_inner_texts()
        assert 0 < len(titles) <= 100
        seen.update(titles)
        pages += 1
        links = page.eval_on_selector_all("#list li > a", "links => links.map(a => a.getAttribute('href'))")
        assert all(link and link.endswith(".html") for link in links)
        if page.locator("button[data-page=next]").is_disabled():
            break
        page.click("button[data-page=next]")
    assert pages == 100 and len(seen) == 10_000 and "Photo 10000" in seen
    assert page.inner_text(".pager-status") == "Entries 9901\u201310000 of 10000"
    # Its entries link to the photo pages written beside it, and show their credit line.
    last_entry_links_its_page(page, big.parent)
    # The address keeps the page: opening it again at #list-57 shows entries 5601-5700.
    assert page.url.endswith("#list-100")
    reopen_at(page, big, "#list-57", list_page=57)
    assert page.inner_text("#list li .title >> nth=0") == "Photo 5601"
    no_trouble(page)


def test_the_list_pager_works_from_the_keyboard(page, big):
    open_file(page, big)
    page.wait_for_selector("body[data-list-ready]", state="attached")
    page.click("button[data-show=list]")
    page.focus("button[data-page=next]")
    page.keyboard.press("Enter")
    assert page.inner_text("#list li .title >> nth=0") == "Photo 101"
    page.fill("nav.pager input", "100")
    page.keyboard.press("Enter")
    assert page.inner_text("#list li .title >> nth=-1") == "Photo 10000"
    # Every entry is a link Tab reaches, and the pager follows the list in the tab order.
    assert page.eval_on_selector_all("#list li > a", "links => links.length === 100 && links.every(a => a.href && a.tabIndex === 0)")
    page.focus("#list li:last-child > a")
    page.keyboard.press("Tab")  # its credit's link back to Flickr
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('nav.pager') !== null")
    assert page.locator("nav.pager[aria-label] .pager-status[aria-live]").count() == 1
    no_trouble(page)


@pytest.fixture(scope="session")
def clustered_list(tmp_path_factory):
    """A map page of 2,550 photos clustered ahead of time (a low threshold makes it take the path of
    20,000+ photos): the page holds the first 1,000 entries, list files 1 and 2 the others; a title in
    the last file tries to run script."""
    work = tmp_path_factory.mktemp("clustered-list")
    place = {"place_id": "MANY", "latitude": 48.85, "longitude": 2.35, "photo_count": 2_550, "_content": "Many, Here"}
    photos = [{"id": str(50_000_000_000 + i), "title": f"Photo {i + 1}", "owner": "1@N00", "ownername": "Someone",
               "latitude": round(48.80 + (i * 7919 % 2_550) / 25_000, 6),
               "longitude": round(2.25 + (i * 104_729 % 2_550) / 12_000, 6)} for i in range(2_550)]
    photos[2_530]["title"] = "</script><script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\">"
    photos[2_540]["latitude"] = photos[2_540]["longitude"] = 0  # no location: listed, not on the map
    write_catalog(work / "catalog", place, photos)
    photomap("photos", "--place", "MANY", "--limit", "2550", "--map", "many.html", cwd=work,
             env={"PHOTOMAP_FIXTURES": str(work / "catalog"), "PHOTOMAP_CLUSTER_THRESHOLD": "100"})
    return work / "many.html", photos


def test_a_pre_clustered_page_lists_every_entry_from_its_list_files(page, clustered_list):
    page_file, photos = clustered_list
    lists = page_file.parent / "many_files" / "lists" / "many"
    assert sorted(path.name for path in lists.iterdir()) == ["1.js", "2.js"]
    assert page_file.read_text().count("<li>") == 100
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_file(page, page_file)
    page.wait_for_selector("body[data-list-ready='2550']", state="attached")
    page.click("button[data-show=list]")
    # "Last" from the keyboard reaches the last list file's entries, loaded from file:// with no server.
    page.focus("button[data-page=last]")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-list-page='26']", state="attached")
    assert page.inner_text(".pager-status") == "Entries 2501\u20132550 of 2550"
    titles = page.locator("#list li .title").all_inner_texts()
    assert titles[0] == "Photo 2501" and titles[-1] == "Photo 2550" and len(titles) == 50
    assert titles[30] == photos[2_530]["title"]
    assert page.locator("#list li img[onerror], #list script").count() == 0
    assert "(no location)" in page.locator("#list li").nth(40).inner_text()
    last_entry_links_its_page(page, page_file.parent)
    assert page.url.endswith("#list-26")
    # Paged from the first entry to the last, every entry shows exactly once, in order.
    reopen_at(page, page_file, "#list", list_page=1)
    shown = []
    while True:
        shown += page.locator("#list li .title").all_inner_texts()
        if page.locator("button[data-page=next]").is_disabled():
            break
        before = page.get_attribute("body", "data-list-page")
        page.click("button[data-page=next]")
        page.wait_for_selector(f"body:not([data-list-page='{before}'])", state="attached")
    assert shown == [photo["title"] for photo in photos]
    # "#list-N" opens a page a list file holds, straight away.
    reopen_at(page, page_file, "#list-13", list_page=13)
    assert page.inner_text("#list li .title >> nth=0") == "Photo 1201"
    assert page.evaluate("() => window.__pwned") is None and dialogs == []
    no_trouble(page)


def test_a_missing_list_file_is_said_in_the_status_line(page, clustered_list, tmp_path):
    page_file, _ = clustered_list
    copy = tmp_path / "site"
    shutil.copytree(page_file.parent, copy, ignore=shutil.ignore_patterns("catalog", "cache"))
    (copy / "many_files" / "lists" / "many" / "2.js").unlink()
    open_file(page, copy / "many.html")
    page.click("button[data-show=list]")
    page.click("button[data-page=last]")
    page.wait_for_function("() => /could not be loaded/.test(document.querySelector('.pager-status').textContent)")
    assert page.inner_text(".pager-status") == "Entries 2501\u20132550 of 2550 could not be loaded"
    # The pages the other files hold still show.
    page.fill("nav.pager input", "15")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-list-page='15']", state="attached")
    assert page.inner_text("#list li .title >> nth=0") == "Photo 1401"
    assert page.errors == [] and page.csp_violations == []


def test_a_10000_photo_map_clusters_every_photo(page, big):
    page.goto(big.resolve().as_uri() + "#map")
    page.wait_for_selector("body[data-map-ready='10000']", state="attached")
    page.wait_for_selector(".cluster-bubble")
    shown = page.evaluate("() => [...document.querySelectorAll('.cluster-bubble')].reduce((n, b) => n + Number(b.textContent), 0)"
                          " + document.querySelectorAll('.photomap-pin').length")
    assert shown == 10_000
    assert page.locator(".leaflet-marker-icon").count() < 500
    zoom_in_until_pins(page, ".cluster-bubble", 10)
    click_visible_pin(page)
    page.wait_for_selector(".leaflet-popup .callout .callout-title")
    no_trouble(page)


def test_a_city_zoom_offline_names_nearby_places_and_drops_the_coarse_outline(page, big):
    page.goto(big.resolve().as_uri() + "#map")
    page.wait_for_selector("body[data-map-ready]", state="attached")
    page.wait_for_selector(".place-label span")
    labels = page.locator(".place-label").all_inner_texts()
    assert "Manhattan" in labels
    # At a city's zoom Natural Earth's 1:110m coast (a straight wedge through Manhattan) is not drawn.
    assert page.locator(".leaflet-basemap-pane path").count() == 0
    # The labels lie above the markers (600) and under the callouts (700), and take no clicks.
    assert page.evaluate("() => getComputedStyle(document.querySelector('.leaflet-labels-pane')).zIndex") == "650"
    # Zoomed out to the world, the outline is back.
    zoom_out_until_outline(page)
    # The page carries only the places around its photos, not the gazetteer.
    parser = _Links()
    parser.feed(big.read_text())
    names = [label[0] for label in json.loads(parser.data)["labels"]]
    assert "Manhattan" in names and "Paris" not in names and len(names) <= 300
    no_trouble(page)


@pytest.fixture(scope="session")
def hostile_many(tmp_path_factory):
    """A map page of 250 photos whose titles, owners and ids try to run script: pages 2 and 3 of
    its list are made from the page's columns by photomap-list.js."""
    work = tmp_path_factory.mktemp("hostile-many")
    evil = ["</script><script>window.__pwned = 1</script>", "<img src=x onerror=\"window.__pwned = 2\">",
            "\" onmouseover=\"window.__pwned = 3", "javascript:window.__pwned = 4", "\u2028</SCRIPT >\u2029",
            "\u0000<b>nul</b>\u0000", "<svg onload=window.__pwned=7>"]
    place = {"place_id": "EVIL", "latitude": 48.85, "longitude": 2.35, "photo_count": 250, "_content": evil[0]}
    photos = [{"id": str(40_000_000_000 + i), "title": evil[i % len(evil)] + f" {i}", "owner": evil[(i + 1) % len(evil)],
               "ownername": evil[(i + 2) % len(evil)], "latitude": 48.85 + i / 10_000, "longitude": 2.35 + i / 10_000}
              for i in range(250)]
    # Ids inside their titles (which the page then shares as one template), and an id that is markup.
    for photo in photos[140:150]:
        photo["title"] = "<i>" + photo["id"] + "</i><script>window.__pwned = 9</script>"
    photos[120]["title"] = photos[120]["id"] + " <b>" + photos[120]["id"]
    photos[130]["id"] = "<img src=x onerror=window.__pwned=8>"
    write_catalog(work / "catalog", place, photos)
    photomap("photos", "--place", "EVIL", "--limit", "250", "--map", "evil.html", cwd=work,
             env={"PHOTOMAP_FIXTURES": str(work / "catalog")})
    return work / "evil.html", photos


def test_hostile_text_in_the_compact_data_stays_text(page, hostile_many):
    page_file, photos = hostile_many
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_file(page, page_file)
    page.wait_for_selector("body[data-list-ready='250']", state="attached")
    page.click("button[data-show=list]")
    shown = []
    for _ in range(3):
        shown += page.locator("#list li .title").all_inner_texts()
        page.mouse.move(300, 300)
        if not page.locator("button[data-page=next]").is_disabled():
            page.click("button[data-page=next]")
    # Every title shown as the record has it (HTML drops NULs and collapses the line separators).
    def plain(text):
        return " ".join(text.replace("\0", "").split())
    assert len(shown) == 250
    assert [plain(t) for t in shown] == [plain(photo["title"]) for photo in photos]
    assert page.locator("#list li img[onerror], #list svg, #list b").count() == 0
    show_map(page)
    zoom_in_until_pins(page, ".cluster-bubble", 10)
    for pin in range(min(page.locator(".photomap-pin").count(), 20)):
        page.locator(".photomap-pin").nth(pin).click(force=True)
        page.wait_for_timeout(50)
    assert page.evaluate("() => window.__pwned") is None
    assert dialogs == []
    no_trouble(page)
