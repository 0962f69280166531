"""Imported photos (`photomap import`, `--source local`) in a real browser: a `--map` page and an exported
site from disk, and the same pages from `photomap serve`. Squares and medium images load, nothing runs
that should not, and no path of the photos' folder is anywhere in what the browser gets."""

import os
import struct
import subprocess
import sys

import pytest

from conftest import open_file
from test_pages import BINARY, REPO, no_trouble
from test_serve import start_serve

sys.path.insert(0, str(REPO / "bench"))
from make_import_photos import exif_block  # noqa: E402 (bench/, put on the path above)

AREZZO, NEW_YORK = "3182884", "5128581"


def jpeg(path, width, height, exif):
    """A JPEG by cjpeg from a gradient, the EXIF block spliced in after SOI."""
    pixels = bytes((x * 255 // width, y * 255 // height, 90)[c] for y in range(height) for x in range(width) for c in range(3))
    plain = subprocess.run(["cjpeg", "-quality", "80"], input=b"P6\n%d %d\n255\n" % (width, height) + pixels,
                           capture_output=True, check=True).stdout
    app1 = b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif if exif else b""
    path.write_bytes(plain[:2] + app1 + plain[2:])


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """A folder of three photos (two located, one not) imported into a cache of its own."""
    work = tmp_path_factory.mktemp("import")
    photos = work / "my photos"
    photos.mkdir()
    jpeg(photos / "piazza.jpg", 640, 480, exif_block(43.4633, 11.8796, "Piazza <b>Grande</b>", "2024:05:01 17:48:17"))
    jpeg(photos / "loggia.jpg", 480, 640, exif_block(43.4650, 11.8810, "Logge del Vasari", "2024:05:02 09:00:00"))
    jpeg(photos / "somewhere.jpg", 320, 240, None)
    env = {"PHOTOMAP_CACHE": str(work / "cache")}
    result = subprocess.run([str(BINARY), "import", str(photos)], capture_output=True, text=True, timeout=300,
                            env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    assert "3 photos read, 2 located, 1 without a location" in result.stderr
    return work, photos, env


def photomap(work, env, *arguments):
    result = subprocess.run([str(BINARY), "--source", "local", *arguments], cwd=work, capture_output=True, text=True,
                            timeout=300, env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    return result


def images_loaded(page, part):
    """The sizes of the page's images whose src holds `part`, once each has loaded."""
    page.wait_for_function("part => [...document.images].filter(i => i.src.includes(part)).every(i => i.complete)",
                           arg=part, timeout=20_000)
    return page.evaluate("part => [...document.images].filter(i => i.src.includes(part)).map(i => [i.naturalWidth, i.naturalHeight])",
                         part)


def test_map_page_and_site_of_imported_photos(page, imported):
    work, photos, env = imported
    photomap(work, env, "photos", "--place", AREZZO, "--map", str(work / "arezzo.html"))
    open_file(page, work / "arezzo.html")
    no_trouble(page)
    assert str(photos) not in page.content()
    photomap(work, env, "export", "--out", str(work / "site"))
    open_file(page, work / "site" / "places" / f"{AREZZO}.html")
    no_trouble(page)
    assert page.locator("b", has_text="Grande").count() == 0, "a title's markup is text, never markup"
    assert sorted(images_loaded(page, "squares/")) == [[75, 75], [75, 75]]
    photo_pages = sorted((work / "site" / "photos").glob("*.html"))
    assert len(photo_pages) == 3
    for photo_page in photo_pages:
        open_file(page, photo_page)
        no_trouble(page)
        sizes = images_loaded(page, "images/")
        assert sizes and all(max(size) <= 500 for size in sizes), sizes
    for file in (work / "site").rglob("*"):
        if file.is_file():
            assert str(photos).encode() not in file.read_bytes(), file


def test_served_imported_photos(browser, imported):
    work, photos, env = imported
    process, base = start_serve(work, env=env, extra=["--source", "local"])
    try:
        context = browser.new_context()
        page = context.new_page()
        for path in ["/", f"/places/{AREZZO}", "/places/unlocated"]:
            page.goto(base + path, wait_until="load")
            assert str(photos) not in page.content()
        page.goto(f"{base}/places/{AREZZO}#list", wait_until="load")
        assert sorted(images_loaded(page, "/squares/")) == [[75, 75], [75, 75]]
        context.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
