# SPDX-License-Identifier: Apache-2.0
"""The offline coasts past the world outline (GSHHG, photomap-coasts.js): a coastal city of the embedded
catalog at zoom 12, with every request off the machine refused, shows water where the sea is and land
where the city is, in light and dark mode, from a `--map` page on disk and from `photomap serve`."""

import struct
import zlib

import pytest

from conftest import new_page
from test_pages import REPO, no_trouble, photomap
from test_serve import SAN_FRANCISCO, start_serve

# Points of San Francisco at zoom 12: the Pacific 4 km off Ocean Beach, the bay east of Hunters Point,
# and the city at Twin Peaks and in the Mission.
CENTRE = (37.755, -122.46)
WATER = {"Pacific": (37.75, -122.56), "bay": (37.73, -122.33)}
LAND = {"Twin Peaks": (37.752, -122.447), "Mission": (37.76, -122.415)}

pytestmark = pytest.mark.skipif(not (REPO / "Fixtures/basemap/coasts.bin").exists(),
                                reason="no Fixtures/basemap/coasts.bin: run scripts/make_coasts.py")


@pytest.fixture(scope="module")
def san_francisco(tmp_path_factory):
    """A `--map` page of San Francisco's photos."""
    work = tmp_path_factory.mktemp("coasts")
    photomap("photos", "--place", SAN_FRANCISCO, "--map", "sf.html", cwd=work)
    return work / "sf.html"


def pixel(page, x, y):
    """The colour of the page's pixel at (x, y) as "#rrggbb": a one-pixel screenshot, whose PNG row
    holds the pixel as it is whatever its filter (there is no pixel before or above it)."""
    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}, animations="disabled")
    chunks, at = {}, 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        chunks[kind] = chunks.get(kind, b"") + png[at + 8:at + 8 + length]
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (width, height, depth) == (1, 1, 8) and colour in (2, 6)
    row = zlib.decompress(chunks[b"IDAT"])
    return "#" + row[1:4].hex()


def show_city_at_zoom_12(page):
    """Centres the page's map on the city at zoom 12 and waits for its coasts; hides what lies over the
    ground (markers, names, the attribution) so that the pixels are the ground's."""
    page.wait_for_selector("body[data-map-ready]", state="attached")
    page.evaluate("([lat, lon]) => photomap.showMap().setView([lat, lon], 12, { animate: false })", list(CENTRE))
    page.wait_for_selector(".leaflet-coast1-pane path", state="attached")
    page.wait_for_function("() => document.querySelectorAll('.leaflet-coast0-pane path').length >= 1")
    page.wait_for_timeout(300)
    page.evaluate("""() => document.querySelectorAll(
        '.leaflet-marker-pane, .leaflet-shadow-pane, .leaflet-labels-pane, .leaflet-control-container')
        .forEach(pane => { pane.style.visibility = 'hidden'; })""")


def ground_colours(page):
    """The ground's colour at each point of WATER and LAND, by name; and the style's water and land."""
    points = {**WATER, **LAND}
    spots = page.evaluate("""points => {
        const map = photomap.showMap(), box = map.getContainer().getBoundingClientRect(), out = {};
        for (const [name, at] of Object.entries(points)) {
            const p = map.latLngToContainerPoint(at);
            out[name] = [box.left + p.x, box.top + p.y];
        }
        return out;
    }""", points)
    colours = {name: pixel(page, x, y) for name, (x, y) in spots.items()}
    style = page.evaluate("""() => {
        const probe = (name) => {
            const path = document.querySelector('.' + name);
            return getComputedStyle(path).fill;
        };
        return { water: probe('coast-water'), land: probe('coast-land') };
    }""")
    return colours, {key: "#" + "".join(f"{int(n):02x}" for n in value[4:-1].split(",")) for key, value in style.items()}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_coastal_city_at_zoom_12_offline_has_water_where_the_sea_is(browser, san_francisco, scheme):
    session = new_page(browser, color_scheme=scheme)
    page = next(session)
    page.goto(san_francisco.resolve().as_uri() + "#map")
    show_city_at_zoom_12(page)
    colours, style = ground_colours(page)
    assert style["water"] != style["land"]
    for name in WATER:
        assert colours[name] == style["water"], (name, colours, style)
    for name in LAND:
        assert colours[name] == style["land"], (name, colours, style)
    # Only GSHHG's tiles beside the page came in: nothing off the machine but OpenStreetMap's tiles was
    # asked for, and they were refused.
    assert page.blocked_requests and all(url.startswith("https://tile.openstreetmap.org/") for url in page.blocked_requests)
    assert not [url for url, _ in page.failed_loads if "/coasts/" in url]
    no_trouble(page)
    session.close()


def test_a_served_city_at_zoom_12_loads_its_coasts_from_the_server(browser, tmp_path):
    process, base = start_serve(tmp_path)
    try:
        session = new_page(browser)
        page = next(session)
        page.allow_origin(base)
        answers = []
        page.on("response", lambda response: answers.append((response.url, response.status)))
        page.goto(f"{base}/places/{SAN_FRANCISCO}#map", wait_until="load")
        show_city_at_zoom_12(page)
        colours, style = ground_colours(page)
        assert colours["Pacific"] == style["water"] and colours["Twin Peaks"] == style["land"]
        coasts = [(url, status) for url, status in answers if "/assets/coasts/" in url]
        assert coasts and all(status == 200 for _, status in coasts)
        # Any tile of the world can be asked for; none past its edges.
        for path, status in [("2/0/0.js", 200), ("2/1440/0.js", 404), ("3/0/0.js", 404), ("2/0/x.js", 404)]:
            assert page.request.get(f"{base}/assets/coasts/{path}").status == status, path
        no_trouble(page)
        session.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
