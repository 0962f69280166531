"""photomap's pages in a real browser (headless Chromium), opened from disk with the network blocked:
no script errors, markers and callouts work, thumbnails load, hostile text never runs, and every
relative link and image of an exported site resolves."""

import html.parser
import json
import os
import pathlib
import subprocess
import urllib.parse

import pytest

from conftest import open_file, settle

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("PHOTOMAP_BIN", REPO / ".build/debug/photomap"))
PARIS, REYKJAVIK, BERLIN = "hS4wMLD0wPIXPXB", "CTUuhTIRnlu09x0F", "yjZViTj17fo6BbLk"


def photomap(*arguments, cwd, env=None):
    """Runs the built binary; fails the test with its stderr when it fails."""
    result = subprocess.run([str(BINARY), *arguments], cwd=cwd, capture_output=True, text=True,
                            env={**os.environ, "PHOTOMAP_CACHE": str(cwd / "cache"), **(env or {})}, timeout=600)
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


def no_trouble(page):
    """The page ran without script errors, CSP violations or console errors."""
    settle(page)
    assert page.errors == []
    assert page.csp_violations == []
    assert page.console_errors == []


def click_visible_pin(page):
    """Clicks a single-photo marker lying inside the map's visible area (tiles at the edges hold some outside)."""
    index = page.evaluate("""() => {
        const box = document.getElementById('map').getBoundingClientRect();
        return [...document.querySelectorAll('.photomap-pin')].findIndex(pin => {
            const r = pin.getBoundingClientRect();
            return r.left > box.left + 20 && r.right < box.right - 20 && r.top > box.top + 120 && r.bottom < box.bottom - 20;
        });
    }""")
    assert index >= 0, "no marker inside the view"
    page.locator(".photomap-pin").nth(index).click()


def zoom_in_until_pins(page, clusters, tries):
    """Clicks clusters (each click zooms in) until single-photo markers show."""
    for _ in range(tries):
        if page.locator(".photomap-pin").count():
            return
        page.locator(clusters).first.click()
        page.wait_for_timeout(400)


def show_map(page):
    page.click("button[data-show=map]")
    page.wait_for_selector("body[data-map-ready]")


def test_index_lists_places_and_maps_them(page, site):
    open_file(page, site / "index.html")
    assert page.locator("#list li").count() == 45
    show_map(page)
    assert page.get_attribute("body", "data-map-ready") == "45"
    assert page.locator(".leaflet-marker-icon").count() > 0
    # The offline basemap: Natural Earth's country outlines drawn under everything.
    assert page.locator(".leaflet-basemap-pane path").count() > 100
    no_trouble(page)


def test_callout_shows_title_subtitle_thumbnail_and_disclosure(page, tmp_path):
    photomap("photos", "--place", REYKJAVIK, "--map", "reykjavik.html", cwd=tmp_path)
    open_file(page, tmp_path / "reykjavik.html")
    page.wait_for_selector("body[data-map-ready]")
    zoom_in_until_pins(page, ".marker-cluster", 8)
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
    zoom_in_until_pins(page, ".marker-cluster", 8)
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
        for feature in annotations["features"]:
            targets += [v for v in (feature["properties"].get("thumbnail"), feature["properties"].get("link")) if v]
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
    page.locator("#list a").first.click()
    page.wait_for_load_state("load")
    assert "/places/" in page.url
    page.locator("#list a").first.click()
    page.wait_for_load_state("load")
    assert "/photos/" in page.url
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
    page.locator(".cluster-bubble").first.click()
    page.wait_for_timeout(600)
    click_visible_pin(page)
    page.wait_for_selector(".leaflet-popup .callout .callout-title")
    no_trouble(page)


def test_a_map_named_with_url_characters_still_loads_its_files(page, tmp_path):
    photomap("photos", "--place", REYKJAVIK, "--map", "trip #2?.html", cwd=tmp_path)
    open_file(page, tmp_path / "trip #2?.html")
    page.wait_for_selector("body[data-map-ready]")
    assert page.failed_loads == [] or all("tile.openstreetmap.org" in url for url, _ in page.failed_loads)
    assert page.locator(".leaflet-basemap-pane path").count() > 100
    no_trouble(page)


def test_pre_clustered_photos_at_one_spot_open_one_by_one(page, tmp_path):
    # Every photo at the same coordinate: at the last zoom each must still be its own marker.
    catalog = tmp_path / "catalog"
    (catalog / "photos" / "SPOT").mkdir(parents=True)
    place = {"place_id": "SPOT", "latitude": 48.85, "longitude": 2.35, "photo_count": 60, "_content": "Spot, Here"}
    (catalog / "top-places.json").write_text(json.dumps({"places": {"total": 1, "place": [place]}, "stat": "ok"}))
    photos = [{"id": str(20_000_000_000 + i), "title": f"Same spot {i}", "latitude": 48.8584, "longitude": 2.2945}
              for i in range(60)]
    (catalog / "photos" / "SPOT" / "page-1.json").write_text(
        json.dumps({"photos": {"page": 1, "pages": 1, "total": 60, "photo": photos}, "stat": "ok"}))
    photomap("photos", "--place", "SPOT", "--map", "spot.html", cwd=tmp_path,
             env={"PHOTOMAP_FIXTURES": str(catalog), "PHOTOMAP_CLUSTER_THRESHOLD": "10"})
    open_file(page, tmp_path / "spot.html")
    page.wait_for_selector("body[data-map-ready='60']")
    zoom_in_until_pins(page, ".cluster-bubble", 12)
    assert page.locator(".photomap-pin").count() == 60
    click_visible_pin(page)
    page.wait_for_selector(".leaflet-popup .callout .callout-title")
    # The callout survives the map moving under it.
    page.mouse.move(100, 500)
    page.mouse.down()
    page.mouse.move(140, 480, steps=4)
    page.mouse.up()
    page.wait_for_timeout(300)
    assert page.locator(".leaflet-popup .callout").count() == 1
    no_trouble(page)
