#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the prefetch benchmark's catalog and image folder (used by bench/prefetch.sh).

Usage:
    python3 bench/make_bench_catalog.py --count N --out WORK [--images DIR] [--records-from CATALOG]

Writes, for one place "BENCH" holding N photos:
    WORK/catalog/top-places.json              flickr.places.getTopPlacesList's answer
    WORK/catalog/photos/BENCH/page-{n}.json   flickr.photos.search's pages of 100
    WORK/www/65535/{id}_{secret}_s.png        one 75x75 PNG per photo, each a distinct path
    WORK/paths.txt                            the image paths (/65535/…), one a line

Images are copied round-robin from DIR/*_s.png when DIR holds any, else one PNG
is generated with zlib and struct.  Output is deterministic for a given N.

With --records-from, each photo is a copy of a recorded record of that catalog (taken in turn: HTML
descriptions, tags, licences, owners, numbers as strings and as numbers, as Flickr sends them) under
its own id, secret and coordinate, and the catalog's licenses.json comes along.
"""

import argparse
import glob
import json
import math
import os
import random
import shutil
import struct
import sys
import zlib

PLACE_ID = "BENCH"
SERVER = "65535"
PER_PAGE = 100
FIRST_ID = 50_000_000_000  # 11 digits for any N below 5e10


def make_png(side):
    """A valid side x side RGB PNG (a gradient), with no imaging library."""
    def chunk(tag, payload):
        return (struct.pack(">I", len(payload)) + tag + payload
                + struct.pack(">I", zlib.crc32(tag + payload) & 0xFFFFFFFF))
    rows = b"".join(
        b"\x00" + bytes(v for x in range(side) for v in (x * 3 % 256, y * 3 % 256, 160))
        for y in range(side))  # filter byte 0 before each row
    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, separators=(",", ":"))
        f.write("\n")


def main(argv):
    parser = argparse.ArgumentParser(description="Prefetch benchmark catalog writer.")
    parser.add_argument("--count", type=int, required=True, help="number of photos")
    parser.add_argument("--out", required=True, help="work folder")
    parser.add_argument("--images", help="folder of *_s.png squares to copy")
    parser.add_argument("--spread", type=float, default=0.0,
                        help="scatter the photos up to this many degrees around the centre (default: all at it)")
    parser.add_argument("--with-medium", action="store_true",
                        help="give each photo a url_m (its square's file), so pages have an image to show")
    parser.add_argument("--records-from", help="a recorded catalog whose photo records the photos copy")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be positive")

    catalog = os.path.join(args.out, "catalog")
    place_dir = os.path.join(catalog, "photos", PLACE_ID)
    image_dir = os.path.join(args.out, "www", SERVER)
    os.makedirs(place_dir, exist_ok=True)
    os.makedirs(image_dir, exist_ok=True)

    n = args.count
    write_json(os.path.join(catalog, "top-places.json"), {
        "places": {"total": 1, "place": [{
            "place_id": PLACE_ID, "woeid": "1", "latitude": "48.85", "longitude": "2.35",
            "place_url": "/bench", "place_type": "locality", "place_type_id": "7",
            "photo_count": str(n), "_content": "Bench, Benchland", "woe_name": "Bench",
            "timezone": "UTC"}]},
        "stat": "ok"})

    templates = []
    if args.records_from:
        for page_file in sorted(glob.glob(os.path.join(args.records_from, "photos", "*", "page-*.json"))):
            with open(page_file, encoding="utf-8") as f:
                templates += json.load(f)["photos"]["photo"]
        shutil.copyfile(os.path.join(args.records_from, "licenses.json"), os.path.join(catalog, "licenses.json"))

    # Fixed seed: the same N always gives the same ids, secrets and files.
    rng = random.Random(20240601)
    photos = []
    for i in range(n):
        pid = str(FIRST_ID + i)
        secret = f"{rng.getrandbits(40):010x}"
        latitude, longitude = 48.85, 2.35
        if args.spread:
            # Drawn after the secret so that the ids and secrets stay those of an unspread catalog.
            latitude += rng.uniform(-args.spread, args.spread)
            longitude += rng.uniform(-args.spread, args.spread)
        photo = {
            "id": pid, "owner": "1@N00", "secret": secret, "server": SERVER, "farm": 66,
            "title": f"Bench photo {i + 1}", "description": {"_content": ""},
            "datetaken": "2020-01-01 00:00:00", "ownername": "bench", "tags": "",
            "latitude": f"{latitude:.6f}", "longitude": f"{longitude:.6f}", "accuracy": "16",
            "url_sq": f"https://live.staticflickr.com/{SERVER}/{pid}_{secret}_s.png",
            "height_sq": 75, "width_sq": 75}
        if args.with_medium:
            photo.update(url_m=photo["url_sq"], height_m=75, width_m=75)
        if templates:
            recorded = dict(templates[i % len(templates)])
            for size in ("sq", "q", "m"):
                if "url_" + size in recorded:
                    recorded["url_" + size] = photo["url_sq"].replace("_s.png", "_" + {"sq": "s", "q": "q", "m": "m"}[size] + ".png")
            recorded.update(id=pid, secret=secret, server=SERVER, latitude=photo["latitude"], longitude=photo["longitude"],
                            place_id=PLACE_ID)
            photo = recorded
        photos.append(photo)

    pages = math.ceil(n / PER_PAGE)
    for page in range(1, pages + 1):
        chunk = photos[(page - 1) * PER_PAGE:page * PER_PAGE]
        write_json(os.path.join(place_dir, f"page-{page}.json"), {
            "photos": {"page": page, "pages": str(pages), "perpage": PER_PAGE,
                       "total": str(n), "photo": chunk},
            "stat": "ok"})

    sources = sorted(glob.glob(os.path.join(args.images, "*_s.png"))) if args.images else []
    generated = None if sources else make_png(75)
    with open(os.path.join(args.out, "paths.txt"), "w", encoding="utf-8") as listing:
        for i, photo in enumerate(photos):
            name = f"{photo['id']}_{photo['secret']}_s.png"
            target = os.path.join(image_dir, name)
            if sources:
                shutil.copyfile(sources[i % len(sources)], target)
            else:
                with open(target, "wb") as f:
                    f.write(generated)
            listing.write(f"/{SERVER}/{name}\n")

    origin = f"{len(sources)} fixture squares" if sources else "a generated PNG"
    print(f"bench catalog: {n} photos in {pages} pages, images from {origin}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
