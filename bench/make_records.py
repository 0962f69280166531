#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes N generated photo records as `photomap import --records` reads them (CSV, or GeoJSON with
--geojson): ids 1..N, titles from a few words, a time taken in 2000-2024, a point on land-ish latitudes
(one in 20 without a location), and an http image URL on 127.0.0.1 (never fetched by the benchmark).
With --search-words, every other title also says "panorama" and one in 10,000 "zemonska" (a common and
a rare word for bench/first-search.sh). Deterministic for a seed, so runs compare."""
import argparse
import csv
import json
import random
import sys

WORDS = ["harbour", "market", "bridge", "tower", "garden", "street", "river", "church", "square", "beach"]


def records(count, seed, search_words=False):
    rng = random.Random(seed)
    for number in range(1, count + 1):
        title = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {number}"
        if search_words:
            title += (" panorama" if number % 2 == 0 else "") + (" zemonska" if number % 10000 == 1234 else "")
        taken = (
            f"{rng.randint(2000, 2024):04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} "
            f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
        )
        if number % 20 == 0:
            latitude = longitude = ""
        else:
            latitude = f"{rng.uniform(-55, 70):.6f}"
            longitude = f"{rng.uniform(-180, 180):.6f}"
        yield str(number), title, taken, latitude, longitude, f"http://127.0.0.1:9/{number}.jpg"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--geojson", action="store_true")
    parser.add_argument("--search-words", action="store_true")
    arguments = parser.parse_args()
    out = sys.stdout
    if arguments.geojson:
        out.write('{"type": "FeatureCollection", "features": [\n')
        for index, (id, title, taken, latitude, longitude, image) in enumerate(records(arguments.count, arguments.seed, arguments.search_words)):
            geometry = None if not latitude else {"type": "Point", "coordinates": [float(longitude), float(latitude)]}
            feature = {"type": "Feature", "geometry": geometry,
                       "properties": {"id": id, "title": title, "taken": taken, "image": image}}
            out.write(("," if index else "") + json.dumps(feature) + "\n")
        out.write("]}\n")
        return
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "title", "taken", "latitude", "longitude", "image"])
    writer.writerows(records(arguments.count, arguments.seed, arguments.search_words))


if __name__ == "__main__":
    main()
