#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Makes what bench/geotag.sh measures: COUNT small JPEGs without GPS (EXIF Make, Model, DateTimeOriginal
and OffsetTimeOriginal "+00:00", each file its own bytes) taken over the span of a GPX 1.1 track of POINTS
fixes one second apart (and an hour either side of it), and the track. The pixels come from one base
image libvips paints."""
import argparse
import datetime
import os
import random
import struct
import subprocess
import tempfile

from make_import_photos import ifd

START = datetime.datetime(2024, 7, 12, 6, 0, 0, tzinfo=datetime.timezone.utc)


def exif_block(taken, title):
    """APP1's EXIF block: little-endian TIFF, IFD0 (title, Make, Model, the EXIF IFD's pointer), the EXIF
    IFD."""
    def ascii_entry(tag, text):
        value = text.encode() + b"\0"
        return (tag, 2, len(value), value)

    first = [ascii_entry(0x010E, title), ascii_entry(0x010F, "Bench"), ascii_entry(0x0110, "Camera 1")]
    first_size = len(ifd(first + [(0x8769, 4, 1, b"\0\0\0\0")], 8))
    first.append((0x8769, 4, 1, struct.pack("<I", 8 + first_size)))
    exif = [ascii_entry(0x9003, taken.strftime("%Y:%m:%d %H:%M:%S")), ascii_entry(0x9011, "+00:00")]
    tiff = b"II*\0" + struct.pack("<I", 8) + ifd(first, 8)
    tiff += ifd(exif, len(tiff))
    return b"Exif\0\0" + tiff


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--points", type=int, default=100000)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    photos = os.path.join(arguments.out, "photos")
    os.makedirs(photos, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        noise, jpeg = os.path.join(scratch, "noise.v"), os.path.join(scratch, "base.jpg")
        subprocess.run(["vips", "gaussnoise", noise, "640", "480", "--mean", "120", "--sigma", "40"], check=True)
        subprocess.run(["vips", "copy", noise, jpeg + "[Q=85,strip]"], check=True)
        with open(jpeg, "rb") as file:
            base = file.read()
    generator = random.Random(33)
    span = arguments.points + 7200
    for index in range(arguments.count):
        taken = START + datetime.timedelta(seconds=generator.randrange(span) - 3600)
        # The title keeps photos taken in the same second apart (import makes one photo of equal bytes).
        block = exif_block(taken, f"Photo {index}")
        app1 = b"\xff\xe1" + struct.pack(">H", len(block) + 2) + block
        with open(os.path.join(photos, f"IMG_{index:05d}.jpg"), "wb") as file:
            file.write(base[:2] + app1 + base[2:])
    with open(os.path.join(arguments.out, "track.gpx"), "w", encoding="utf-8") as file:
        file.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                   '<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n')
        for index in range(arguments.points):
            time = (START + datetime.timedelta(seconds=index)).strftime("%Y-%m-%dT%H:%M:%SZ")
            file.write(f'<trkpt lat="{46.3 + index * 2e-6:.7f}" lon="{14.0 + index * 3e-6:.7f}">'
                       f"<ele>500</ele><time>{time}</time></trkpt>\n")
        file.write("</trkseg></trk></gpx>\n")


if __name__ == "__main__":
    main()
