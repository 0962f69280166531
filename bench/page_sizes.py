#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The size of an exported site's place pages, each with the coast tiles it may load.

Usage: python3 bench/page_sizes.py SITE [BASELINE_SITE]

For each page under SITE/places/: its HTML, and the coast tiles its data lists (assets/coasts/, every
level: what a reader zooming around its photos could load, beyond the assets every page shares).
Prints the largest and the median page, and the site's total; with a baseline site (made by another
photomap, or without Fixtures/basemap/coasts.bin), the same figures beside it and the growth.
"""

import json
import os
import re
import statistics
import sys


def page_sizes(site):
    sizes = {}
    for name in sorted(os.listdir(os.path.join(site, "places"))):
        path = os.path.join(site, "places", name)
        html = open(path, encoding="utf-8").read()
        tiles = 0
        match = re.search(r'"coasts":(\{"levels".*?\]\]\})', html)
        if match:
            coasts = json.loads(match.group(1))
            for level, keys in enumerate(coasts.get("tiles") or []):
                for key in keys:
                    tile = os.path.join(site, "assets", "coasts", str(level), key + ".js")
                    tiles += os.path.getsize(tile) if os.path.exists(tile) else 0
        sizes[name] = (os.path.getsize(path), tiles)
    return sizes


def total(site):
    # Hard links (images placed from the cache) counted once, as du does.
    seen, size = set(), 0
    for folder, _, files in os.walk(site):
        for name in files:
            info = os.lstat(os.path.join(folder, name))
            if (info.st_dev, info.st_ino) not in seen:
                seen.add((info.st_dev, info.st_ino))
                size += info.st_size
    return size


def summary(site):
    sizes = page_sizes(site)
    whole = {name: html + tiles for name, (html, tiles) in sizes.items()}
    largest = max(whole, key=whole.get)
    return {"largest": (largest, whole[largest], sizes[largest]), "median": statistics.median(whole.values()),
            "median_html": statistics.median(html for html, _ in sizes.values()), "total": total(site),
            "pages": sizes}


def main():
    sites = sys.argv[1:]
    if not sites:
        sys.exit(__doc__)
    figures = [summary(site) for site in sites]
    for site, figure in zip(sites, figures):
        name, size, (html, tiles) = figure["largest"]
        print(f"{site}: largest place page {name} {size / 1024:.1f} KB (HTML {html / 1024:.1f}, coast tiles "
              f"{tiles / 1024:.1f}); median {figure['median'] / 1024:.1f} KB (HTML {figure['median_html'] / 1024:.1f}); "
              f"site {figure['total'] / 1024 / 1024:.2f} MB")
    if len(figures) == 2:
        after, before = figures
        growth = {name: sum(after["pages"][name]) - sum(before["pages"].get(name, (0, 0))) for name in after["pages"]}
        largest = max(growth, key=growth.get)
        print(f"growth per place page: largest {largest} {growth[largest] / 1024:.1f} KB, "
              f"median {statistics.median(growth.values()) / 1024:.1f} KB; site "
              f"{(after['total'] - before['total']) / 1024 / 1024:+.2f} MB")


if __name__ == "__main__":
    main()
