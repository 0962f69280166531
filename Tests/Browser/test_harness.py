# SPDX-License-Identifier: Apache-2.0
"""The harness itself, on a small Leaflet page written to tmp_path: Debian's Leaflet and
Leaflet.markercluster copied beside it, a map with OpenStreetMap tiles (which must never load), a
GeoJSON layer and markers with popups, under the Content-Security-Policy the real pages use."""

import json
import shutil

from conftest import open_file, settle

LEAFLET = "/usr/share/javascript/leaflet"
VENDOR = ["leaflet.js", "leaflet.css", "images", "leaflet.markercluster.js", "MarkerCluster.css",
          "MarkerCluster.Default.css"]
TILES = "https://tile.openstreetmap.org"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       f"img-src 'self' data: {TILES}; connect-src 'none'")

PLACES = {"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"title": "Paris", "subtitle": "Ile-de-France, France"},
     "geometry": {"type": "Point", "coordinates": [2.3522, 48.8566]}},
    {"type": "Feature", "properties": {"title": "Lyon", "subtitle": "Auvergne-Rhone-Alpes, France"},
     "geometry": {"type": "Point", "coordinates": [4.8357, 45.764]}},
    {"type": "Feature", "properties": {"title": "Area"},
     "geometry": {"type": "Polygon", "coordinates": [[[0, 44], [6, 44], [6, 47], [0, 47], [0, 44]]]}},
]}

MAP_JS = """
var data = JSON.parse(document.getElementById('places').textContent);
var map = L.map('map').setView([47, 3], 5);
L.tileLayer('%s/{z}/{x}/{y}.png', {maxZoom: 19, attribution: '&copy; OpenStreetMap contributors'}).addTo(map);
var areas = L.geoJSON(data, {filter: function (f) { return f.geometry.type !== 'Point'; }}).addTo(map);
var cluster = L.markerClusterGroup();
data.features.forEach(function (f) {
  if (f.geometry.type !== 'Point') return;
  var c = f.geometry.coordinates, popup = document.createElement('div');
  popup.className = 'place';
  popup.textContent = f.properties.title + ' — ' + f.properties.subtitle;
  cluster.addLayer(L.marker([c[1], c[0]], {title: f.properties.title}).bindPopup(popup));
});
map.addLayer(cluster);
// Loaded from a subfolder after the page, as later code may be.
var more = document.createElement('script');
more.src = 'js/more.js';
document.head.appendChild(more);
""" % TILES

MORE_JS = "window.mapReady = {leaflet: L.version, areas: areas.getLayers().length};\n"


def write_sample(folder, body_extra="", extra_scripts=()):
    """Writes the sample map page into folder and returns its path. extra_scripts: (name, source)
    pairs, written into the folder and loaded after the map's own script."""
    vendor = folder / "vendor"
    vendor.mkdir()
    for name in VENDOR:
        source = f"{LEAFLET}/{name}"
        (shutil.copytree if name == "images" else shutil.copy)(source, vendor / name)
    (folder / "js").mkdir()
    (folder / "js" / "map.js").write_text(MAP_JS)
    (folder / "js" / "more.js").write_text(MORE_JS)
    (folder / "map.css").write_text("html, body { margin: 0; height: 100%; } #map { height: 100%; }\n")
    for name, source in extra_scripts:
        (folder / name).write_text(source)
    scripts = "\n".join(f'<script src="{src}"></script>' for src in
                        ["vendor/leaflet.js", "vendor/leaflet.markercluster.js", "js/map.js"]
                        + [name for name, _ in extra_scripts])
    page = folder / "map.html"
    page.write_text(f"""<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<title>sample</title>
<link rel="stylesheet" href="vendor/leaflet.css">
<link rel="stylesheet" href="vendor/MarkerCluster.css">
<link rel="stylesheet" href="vendor/MarkerCluster.Default.css">
<link rel="stylesheet" href="map.css">
<script type="application/json" id="places">{json.dumps(PLACES)}</script>
</head><body>
<div id="map"></div>
{body_extra}
{scripts}
</body></html>
""")
    return page


def test_leaflet_page_works_offline_and_the_network_stays_blocked(page, tmp_path):
    open_file(page, write_sample(tmp_path))
    page.wait_for_function("window.mapReady")
    assert page.evaluate("window.mapReady") == {"leaflet": "1.6.0", "areas": 1}  # Debian's 1.7.1 says 1.6.0

    page.click('.leaflet-marker-icon[title="Paris"]')
    popup = page.locator(".leaflet-popup-content .place")
    popup.wait_for(state="visible")
    assert popup.inner_text() == "Paris — Ile-de-France, France"
    assert page.locator("path.leaflet-interactive").count() == 1  # the GeoJSON polygon
    page.screenshot(path=tmp_path / "map.png", animations="disabled")
    assert (tmp_path / "map.png").stat().st_size > 10_000

    # The CSP allows the tiles; the harness aborts them, and nothing but file:// got through.
    settle(page)
    assert page.blocked_requests and all(url.startswith(TILES + "/") for url in page.blocked_requests)
    assert {url for url, _ in page.failed_loads} == set(page.blocked_requests)
    assert all("ERR_BLOCKED_BY_CLIENT" in text for _, text in page.failed_loads)
    assert page.evaluate("[...document.querySelectorAll('img.leaflet-tile')].every(i => i.naturalWidth === 0)")
    assert page.errors == [] and page.csp_violations == [] and page.console_errors == []


def test_a_script_error_is_caught_and_told_apart_from_csp_and_network(page, tmp_path):
    broken = "function showPlace() { return noSuchThing.title; }\nshowPlace();\n"
    late = "setTimeout(function () { throw new TypeError('late failure'); }, 0);\nconsole.error('app says no');\n"
    path = write_sample(tmp_path, body_extra='<img src="missing.png" onerror="void 0">',
                        extra_scripts=[("broken.js", broken), ("late.js", late)])
    open_file(page, path)
    page.wait_for_function("window.mapReady")
    settle(page)

    assert len(page.errors) == 2, page.errors
    first, second = page.errors
    assert "ReferenceError: noSuchThing is not defined" in first and "broken.js:1" in first
    assert "TypeError: late failure" in second and "late.js:1" in second
    # The blocked handler, the missing image and the aborted tiles are not script errors.
    assert [v["directive"] for v in page.csp_violations] == ["script-src-attr"]
    assert any(text.endswith("net::ERR_FILE_NOT_FOUND") for _, text in page.failed_loads)
    assert page.blocked_requests
    assert [text for _, text in page.console_errors] == ["app says no"]


def test_inline_script_and_handlers_are_blocked_by_the_csp(page, tmp_path):
    body = """<script>document.title = 'inline script ran';</script>
<img id="bad" src="missing.png" onerror="document.title = 'onerror ran'">
<button id="button" onclick="document.title = 'onclick ran'">b</button>
<script src="https://tile.openstreetmap.org/evil.js"></script>"""
    eval_js = "try { eval('1'); window.evalRan = true; } catch (e) { window.evalRefused = e.name; }\n"
    open_file(page, write_sample(tmp_path, body_extra=body, extra_scripts=[("eval.js", eval_js)]))
    page.wait_for_function("window.mapReady")
    page.click("#button")
    settle(page)

    assert page.title() == "sample"
    assert page.evaluate("[window.evalRan, window.evalRefused]") == [None, "EvalError"]
    violations = {(v["directive"], v["blocked"]) for v in page.csp_violations}
    assert violations == {("script-src-elem", "inline"), ("script-src-attr", "inline"),
                          ("script-src-elem", "https://tile.openstreetmap.org/evil.js"), ("script-src", "eval")}
    # A script the CSP refuses is never requested, so the router never sees it.
    assert not any(url.endswith("evil.js") for url in page.blocked_requests)
    assert page.errors == []
