#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write photomap's offline coasts at full resolution (Fixtures/basemap/coasts.bin, git-ignored).

GSHHG's shorelines (land, lakes, islands in lakes, ponds), its major rivers and national borders, as
Debian's `gmt-gshhg-full` holds them, read through GMT itself (Debian's `gmt`, used only here, at
setup): `gmt coast -M` writes every shoreline, river and border as pieces, one per 1-degree bin. A
shoreline's pieces meet end to end at the bins' edges, so chaining them at their shared points gives
GSHHG's closed rings back (no bin-edge walking: every piece is part of a ring, none is left open).
photomap cuts the rings to the tiles a page shows and simplifies them per zoom (`CoastTiles`).

Usage:
  python3 scripts/make_coasts.py              write Fixtures/basemap/coasts.bin (skipped when current)
  python3 scripts/make_coasts.py --out FILE   write somewhere else
  python3 scripts/make_coasts.py --force      write it even when it is current

The file (little-endian): b"PMCOAST2", the number of features (u32), the features' table, then
their points. Each feature's entry in the table: its kind (u8: 1 land, 2 lake, 3 island in a lake,
4 pond: closed rings; 5 river, 6 border: lines), its bounds (4 × i32: west, south, east, north), its
number of chunks (u32), and where its bytes are (u32 offset from the file's start, u32 length); the
features' bytes follow one another in the table's order, to the file's end. A feature's points come in
chunks of at most 257 points, each chunk's last point the next one's first, so that a tile's cut reads
only the chunks that meet the tile (a continent's ring has a million points). A feature of more than
one chunk starts with its chunks' table: each chunk's bounds (4 × i32) and byte length (u32); a
feature of one chunk has none (its bounds and bytes are the chunk's). Then each chunk's points: the
first as two i32, each next one as the zigzag varints of its steps in x and y. Coordinates are in
units of 1e-5 degrees (about 1 m). A ring crossing the 180th meridian goes on past it (longitudes up
to 190 for Chukotka), so that each ring is one plane polygon.
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fixtures", "basemap", "coasts.bin")
GSHHG = "/usr/share/gmt-gshhg/binned_GSHHS_f.nc"
MAGIC = b"PMCOAST2"
CHUNK = 256  # steps a chunk
UNITS = 100_000  # per degree
RIVER, BORDER = 5, 6
# gmt coast's options for each kind of line: rivers of classes 1 and 2 ("permanent major rivers",
# "additional major rivers"), borders of class 1 (national).
LINES = [(RIVER, ["-I1", "-I2"]), (BORDER, ["-N1"])]


def gmt_pieces(options):
    """The pieces `gmt coast -Rd -Df -M OPTIONS` writes, as (level, [(x, y) in units]) pairs."""
    # In a folder of its own: gmt leaves its gmt.history where it runs.
    with tempfile.TemporaryFile() as out, tempfile.TemporaryDirectory() as folder:
        subprocess.run(["gmt", "coast", "-Rd", "-Df", "-M", *options], stdout=out, check=True, cwd=folder)
        out.seek(0)
        pieces, points = [], None
        for line in out:
            if line.startswith(b">"):
                # "> Shore Bin # 17925, Level 1": the level is the header's last word.
                level = int(line.split()[-1]) if b"Level" in line else 0
                points = []
                pieces.append((level, points))
            elif line.strip():
                x, y = line.split()
                points.append((round(float(x) * UNITS), round(float(y) * UNITS)))
    return [(level, points) for level, points in pieces if len(points) > 1]


def chained(pieces, closed):
    """Pieces joined end to start where one ends at the point another of its level begins."""
    def key(level, point):
        # -180 and 180 are one meridian; a step of 20 units (20 cm) is the bins' rounding.
        x = point[0] - 360 * UNITS if point[0] >= 180 * UNITS else point[0]
        return (level, round(x / 20), round(point[1] / 20))

    starts = {}
    for index, (level, points) in enumerate(pieces):
        starts.setdefault(key(level, points[0]), []).append(index)
    used = [False] * len(pieces)
    for index, (level, points) in enumerate(pieces):
        if used[index]:
            continue
        used[index] = True
        chain = list(points)
        while key(level, chain[-1]) != key(level, chain[0]) or len(chain) < 3:
            following = [other for other in starts.get(key(level, chain[-1]), []) if not used[other]]
            if not following:
                break
            used[following[0]] = True
            chain.extend(pieces[following[0]][1][1:])
        if closed and key(level, chain[-1]) != key(level, chain[0]):
            sys.exit(f"make_coasts: a level-{level} shoreline of {len(chain)} points does not close")
        yield level, unwrapped(chain)


def unwrapped(points):
    """The points with no step longer than half the world: past 180 degrees a line goes on east."""
    out, shift = [points[0]], 0
    for x, y in points[1:]:
        x += shift
        if x - out[-1][0] > 180 * UNITS:
            x, shift = x - 360 * UNITS, shift - 360 * UNITS
        elif out[-1][0] - x > 180 * UNITS:
            x, shift = x + 360 * UNITS, shift + 360 * UNITS
        if (x, y) != out[-1]:
            out.append((x, y))
    return out


def varint(value):
    value = (value << 1) ^ (value >> 63)  # zigzag
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return out


def bounds(points):
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def chunk(points):
    data = bytearray(struct.pack("<2i", *points[0]))
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        data += varint(x1 - x0)
        data += varint(y1 - y0)
    return data


def feature(kind, points):
    """The feature's entry in the table but for its offset (kind, bounds, chunks), and its bytes."""
    parts = [points[start:start + CHUNK + 1] for start in range(0, len(points) - 1, CHUNK)]
    chunks = [chunk(part) for part in parts]
    table = b"" if len(parts) == 1 else b"".join(
        struct.pack("<4iI", *bounds(part), len(data)) for part, data in zip(parts, chunks))
    return (kind, bounds(points), len(parts)), table + b"".join(chunks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=OUT, help="the file to write (default Fixtures/basemap/coasts.bin)")
    parser.add_argument("--force", action="store_true", help="write it even when it is newer than GSHHG's")
    args = parser.parse_args()
    if not os.path.exists(GSHHG):
        sys.exit(f"make_coasts: {GSHHG} not found: install the Debian package gmt-gshhg-full")
    if not shutil.which("gmt"):
        sys.exit("make_coasts: gmt not found: install the Debian package gmt (scripts/install-deps does)")
    if (not args.force and os.path.exists(args.out)
            and os.path.getmtime(args.out) >= os.path.getmtime(__file__)):
        return
    features = []
    # The shorelines of every level (-W), rings; then the lines.
    for level, points in chained(gmt_pieces(["-W"]), closed=True):
        if len(points) >= 4:
            features.append(feature(level, points))
    for kind, options in LINES:
        for _, points in chained(gmt_pieces(options), closed=False):
            # A piece can shrink to one point when its repeated points go (a river's mouth at a bin's edge).
            if len(points) >= 2:
                features.append(feature(kind, points))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    staged = args.out + ".partial"
    with open(staged, "wb") as out:
        out.write(MAGIC + struct.pack("<I", len(features)))
        offset = len(MAGIC) + 4 + len(features) * struct.calcsize("<B4iIII")
        for (kind, box, count), data in features:
            out.write(struct.pack("<B4iIII", kind, *box, count, offset, len(data)))
            offset += len(data)
        for _, data in features:
            out.write(data)
    os.replace(staged, args.out)
    print(f"make_coasts: {len(features)} features, {os.path.getsize(args.out) // 1024} KB in {args.out}")


if __name__ == "__main__":
    main()
