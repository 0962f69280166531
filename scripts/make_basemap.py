#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write photomap's offline world basemap (Fixtures/basemap/countries.js).

The outlines are Natural Earth's 1:110m countries (public domain), as shipped
inside the PyPI wheel geopandas==0.14.4 (later versions dropped the data set).
The ESRI shapefile (.shp/.shx) and its dBASE table (.dbf) are parsed here with
the standard library only, and written as a GeoJSON FeatureCollection wrapped
in a script, because a page opened from file:// can load a <script> but cannot
fetch a JSON file.

Usage:
  python3 scripts/make_basemap.py                   download the wheel with pip, then write
  python3 scripts/make_basemap.py --wheel PATH      use a wheel already on disk
  python3 scripts/make_basemap.py --shp-dir DIR     use naturalearth_lowres.{shp,shx,dbf} from DIR
  python3 scripts/make_basemap.py --out DIR         write somewhere else (default Fixtures/basemap)

Two runs give byte-identical files.
"""

import argparse
import json
import os
import struct
import sys

# Run as a script from any folder: the shared pypi_wheel module sits beside this file.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pypi_wheel  # noqa: E402

WHEEL_REQUIREMENT = "geopandas==0.14.4"
WHEEL_SHA256 = "3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa"
DATA_PREFIX = "geopandas/datasets/naturalearth_lowres/"
BASENAME = "naturalearth_lowres"
# The data set's .cpg names its text encoding; this is what it says, used when the file is absent.
DEFAULT_ENCODING = "ISO-8859-1"
DECIMALS = 2
JS_NAME = "countries.js"
JS_VARIABLE = "window.photomapBasemap"
HEADER = ("/* Natural Earth 1:110m countries (public domain), via geopandas 0.14.4; "
          "made by scripts/make_basemap.py */")

SHP_NULL = 0
SHP_POLYGON = 5

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------- sources

def read_from_wheel(wheel):
    """The data set's files from the open wheel (a zipfile.ZipFile)."""
    names = set(wheel.namelist())
    files = {}
    for ext in ("shp", "shx", "dbf", "cpg"):
        member = f"{DATA_PREFIX}{BASENAME}.{ext}"
        if member in names:
            files[ext] = wheel.read(member)
    return files


def read_from_dir(directory):
    files = {}
    for ext in ("shp", "shx", "dbf", "cpg"):
        path = os.path.join(directory, f"{BASENAME}.{ext}")
        if os.path.exists(path):
            with open(path, "rb") as f:
                files[ext] = f.read()
    return files


# ---------------------------------------------------------------- shapefile

def read_shx(data):
    """Byte offsets of the .shp records, in record order."""
    if len(data) < 100 or struct.unpack(">i", data[:4])[0] != 9994:
        raise ValueError(".shx: not a shapefile index")
    count = (len(data) - 100) // 8
    # The index stores offsets in 16-bit words, big-endian.
    return [struct.unpack_from(">i", data, 100 + 8 * i)[0] * 2 for i in range(count)]


def read_shp(data, offsets):
    """Each record as a list of rings (lists of (x, y)), or None for a null shape."""
    if len(data) < 100 or struct.unpack(">i", data[:4])[0] != 9994:
        raise ValueError(".shp: not a shapefile")
    file_type = struct.unpack_from("<i", data, 32)[0]
    if file_type != SHP_POLYGON:
        raise ValueError(f".shp: shape type {file_type}, expected {SHP_POLYGON} (polygon)")
    shapes = []
    for number, offset in enumerate(offsets, start=1):
        record_number, _ = struct.unpack_from(">2i", data, offset)
        if record_number != number:
            raise ValueError(f".shp: record {record_number} found where {number} was indexed")
        content = offset + 8
        shape_type = struct.unpack_from("<i", data, content)[0]
        if shape_type == SHP_NULL:
            shapes.append(None)
            continue
        if shape_type != SHP_POLYGON:
            raise ValueError(f".shp: record {number} has shape type {shape_type}")
        # Skip the type and the record's bounding box (4 doubles).
        num_parts, num_points = struct.unpack_from("<2i", data, content + 36)
        parts = list(struct.unpack_from(f"<{num_parts}i", data, content + 44))
        points_at = content + 44 + 4 * num_parts
        flat = struct.unpack_from(f"<{2 * num_points}d", data, points_at)
        points = list(zip(flat[0::2], flat[1::2]))
        ends = parts[1:] + [num_points]
        shapes.append([points[start:end] for start, end in zip(parts, ends)])
    return shapes


def read_dbf(data, encoding):
    """Each live record as a dict of field name -> stripped text."""
    count, header_size, record_size = struct.unpack_from("<IHH", data, 4)
    fields = []
    at = 32
    # Field descriptors are 32 bytes each, ended by 0x0D.
    while data[at] != 0x0D:
        name = data[at:at + 11].split(b"\0", 1)[0].decode("ascii")
        fields.append((name, data[at + 16]))
        at += 32
    records = []
    for i in range(count):
        start = header_size + i * record_size
        record = data[start:start + record_size]
        if record[:1] == b"*":
            # A deleted row still has its shape in the .shp, so keep the numbering aligned.
            records.append(None)
            continue
        values, column = {}, 1
        for name, width in fields:
            values[name] = record[column:column + width].decode(encoding).strip(" \0")
            column += width
        records.append(values)
    return records


# ---------------------------------------------------------------- geometry

def signed_area(ring):
    """Shoelace area: positive for counter-clockwise rings (x east, y north)."""
    total = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        total += x1 * y2 - x2 * y1
    return total / 2.0


def contains(ring, point):
    """Even-odd ray casting: is point inside ring?"""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def owner_of(hole, outers):
    """Index of the smallest outer ring holding the hole, or None."""
    best, best_area = None, None
    for index, outer in enumerate(outers):
        # A hole may touch its outer ring, so let most of its vertices decide, not just one.
        votes = sum(contains(outer, point) for point in hole)
        if votes * 2 > len(hole):
            area = abs(signed_area(outer))
            if best is None or area < best_area:
                best, best_area = index, area
    return best


def clean_ring(ring, clockwise):
    """Round, drop repeated points, close, orient; None when the ring collapses."""
    points = []
    for x, y in ring:
        # "+ 0.0" turns -0.0 into 0.0 so that it is written "0".
        point = (round(x, DECIMALS) + 0.0, round(y, DECIMALS) + 0.0)
        if not points or points[-1] != point:
            points.append(point)
    while len(points) > 1 and points[-1] == points[0]:
        points.pop()
    if len(points) < 3:
        return None
    area = signed_area(points)
    if area == 0:
        return None
    if (area < 0) != clockwise:
        points.reverse()
    points.append(points[0])
    return points


def to_geometry(rings):
    """GeoJSON Polygon or MultiPolygon from shapefile rings (outer clockwise, holes not)."""
    if not rings:
        return None
    outers, holes = [], []
    for ring in rings:
        # Orientation is judged on the full-precision ring, before rounding can flatten it.
        (outers if signed_area(ring) < 0 else holes).append(ring)
    if not outers:
        # A part wound the wrong way round everywhere: read every ring as an outer one.
        outers, holes = holes, []
    polygons = [[outer] for outer in outers]
    for hole in holes:
        owner = owner_of(hole, outers)
        if owner is None:
            # A hole outside every outer ring is really an island wound the wrong way.
            polygons.append([hole])
        else:
            polygons[owner].append(hole)
    cleaned = []
    for polygon in polygons:
        # RFC 7946: exterior rings counter-clockwise, holes clockwise.
        outer = clean_ring(polygon[0], clockwise=False)
        if outer is None:
            continue
        inner = [clean_ring(hole, clockwise=True) for hole in polygon[1:]]
        cleaned.append([outer] + [hole for hole in inner if hole is not None])
    if not cleaned:
        return None
    if len(cleaned) == 1:
        return {"type": "Polygon", "coordinates": compact(cleaned[0])}
    return {"type": "MultiPolygon", "coordinates": compact(cleaned)}


def compact(value):
    """Whole numbers as ints, so that 180.0 is written "180"."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    return [compact(item) for item in value]


# ---------------------------------------------------------------- output

def build_collection(files):
    for ext in ("shp", "shx", "dbf"):
        if ext not in files:
            sys.exit(f"make_basemap: {BASENAME}.{ext} not found")
    encoding = files["cpg"].decode("ascii").strip() if "cpg" in files else DEFAULT_ENCODING
    shapes = read_shp(files["shp"], read_shx(files["shx"]))
    records = read_dbf(files["dbf"], encoding)
    if len(shapes) != len(records):
        sys.exit(f"make_basemap: {len(shapes)} shapes but {len(records)} table rows")
    features = []
    for rings, record in zip(shapes, records):
        if record is None:
            continue
        features.append({
            "type": "Feature",
            "properties": {"name": record["name"], "iso": record["iso_a3"]},
            "geometry": to_geometry(rings),
        })
    return {"type": "FeatureCollection", "features": features}


def write_js(collection, out_dir):
    body = json.dumps(collection, separators=(",", ":"), ensure_ascii=False)
    text = f"{HEADER}\n{JS_VARIABLE} = {body};\n"
    path = os.path.join(out_dir, JS_NAME)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return path, len(text.encode("utf-8"))


README = """\
# Basemap

An offline world outline for photomap's map pages: the 177 countries of
[Natural Earth](https://www.naturalearthdata.com/)'s 1:110m "Admin 0 – Countries".
`countries.js` is generated by `scripts/make_basemap.py`. Do not edit it by hand.

## Source and licence

Natural Earth is in the public domain. Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com.

The copy used is the one shipped inside the PyPI wheel `geopandas==0.14.4`
(`geopandas/datasets/naturalearth_lowres/naturalearth_lowres.{shp,shx,dbf}`, WGS 84 longitude/latitude);
later geopandas versions no longer include it.

## Regenerating

```sh
python3 scripts/make_basemap.py                  # fetches the wheel with pip (no other network use)
python3 scripts/make_basemap.py --wheel PATH     # or a wheel already downloaded
python3 scripts/make_basemap.py --shp-dir DIR    # or a folder holding naturalearth_lowres.{shp,shx,dbf}
```

Only the Python 3 standard library is needed: the shapefile and its dBASE table are parsed by the
script itself. The wheel's SHA-256 is checked, and two runs write the same bytes.

## The file's form

`countries.js` is a script, not a JSON file, because a page opened from `file://` can load
`<script src="…">` but cannot fetch JSON. It is one comment line, then one line:

```js
window.photomapBasemap = {"type":"FeatureCollection","features":[…]};
```

- The object is a GeoJSON FeatureCollection (RFC 7946), compact, UTF-8 (non-ASCII text is not escaped).
- Each feature has `"properties":{"name":…,"iso":…}`: the country's name and its ISO 3166-1 alpha-3
  code as Natural Earth gives them (`-99` where Natural Earth has no code), and a `Polygon` or
  `MultiPolygon` geometry, in the table's order.
- Coordinates are `[longitude, latitude]` in degrees, rounded to 2 decimals (about 1 km);
  whole numbers are written without a decimal point. Repeated consecutive points are removed and
  rings left with fewer than 4 positions are dropped.
- Every ring is closed (its last position repeats its first). Outer rings run counter-clockwise and
  holes clockwise, as RFC 7946 asks.
- Countries crossing the antimeridian (Russia, Fiji) are split at ±180° as in the source.

## Coasts at every zoom: `coasts.bin` (GSHHG, LGPL)

Past zoom 6 the pages draw coasts instead: land, lakes, islands in lakes and ponds, major rivers and
national borders from [GSHHG](https://www.soest.hawaii.edu/pwessel/gshhg/) 2.3.7 at full resolution
(Wessel, P., and W. H. F. Smith, 1996, *A Global Self-consistent, Hierarchical, High-resolution
Shoreline Database*, J. Geophys. Res., 101, 8741–8743), © 2014 The GMT Team, under the GNU LGPL 3 or
later. `coasts.bin` (about 46 MB) is made by `scripts/make_coasts.py` from Debian's `gmt-gshhg-full`,
read through Debian's `gmt` (`gmt coast -M`); it is not committed (git-ignored): `scripts/setup`,
`scripts/test` and `scripts/package` make it, and the Debian package ships it. The script's docstring
describes its bytes.

photomap cuts it into tiles of a fixed grid per level of detail (zooms 7–9, 10–12, 13 and on: 4°, 1°
and 0.25° tiles), simplified for each, and writes beside a site's assets (`assets/coasts/LEVEL/X/Y.js`)
the tiles around its pages' photos; `photomap serve` makes any tile when asked. Pages credit "GSHHG".
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--wheel", metavar="PATH", help="the geopandas 0.14.4 wheel, already downloaded")
    source.add_argument("--shp-dir", metavar="DIR", help=f"a folder holding {BASENAME}.{{shp,shx,dbf}}")
    parser.add_argument("--out", metavar="DIR", default=os.path.join(ROOT, "Fixtures", "basemap"),
                        help="where to write countries.js and README.md (default Fixtures/basemap)")
    args = parser.parse_args()

    if args.shp_dir:
        files = read_from_dir(args.shp_dir)
    else:
        files = pypi_wheel.read_wheel(read_from_wheel, WHEEL_REQUIREMENT, WHEEL_SHA256, args.wheel,
                                      program="make_basemap")

    collection = build_collection(files)
    os.makedirs(args.out, exist_ok=True)
    path, size = write_js(collection, args.out)
    with open(os.path.join(args.out, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(README)
    print(f"{path}: {len(collection['features'])} countries, {size} bytes")


if __name__ == "__main__":
    main()
