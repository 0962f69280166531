#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Makes the photos bench/import.sh imports: COUNT JPEGs of WIDTHxHEIGHT, each with an EXIF block
(GPS position spread over Europe, DateTimeOriginal, Orientation 1, a title) spliced in after SOI, so
every file has its own bytes and its own id. The pixels come from a few base images libvips paints
(blurred noise, about as hard to decode as a photo), so making 1,000 12-megapixel files costs little."""
import argparse
import os
import random
import struct
import subprocess
import tempfile


def ifd(entries, start):
    """A little-endian TIFF IFD at offset `start`: entries are (tag, type, count, bytes); values over 4
    bytes go after the IFD."""
    head = struct.pack("<H", len(entries))
    data = b""
    data_start = start + 2 + 12 * len(entries) + 4
    for tag, kind, count, value in entries:
        if len(value) <= 4:
            head += struct.pack("<HHI", tag, kind, count) + value.ljust(4, b"\0")
        else:
            head += struct.pack("<HHII", tag, kind, count, data_start + len(data))
            data += value
    return head + struct.pack("<I", 0) + data


def exif_block(latitude, longitude, title, taken):
    """APP1's EXIF block: little-endian TIFF, IFD0 (title, orientation, pointers), EXIF and GPS IFDs."""
    def ascii_value(text):
        return text.encode() + b"\0"

    def rationals(value):
        degrees = int(value)
        minutes = int((value - degrees) * 60)
        seconds = round(((value - degrees) * 60 - minutes) * 60 * 1000)
        return struct.pack("<6I", degrees, 1, minutes, 1, seconds, 1000)

    description = ascii_value(title)
    exif_entries = [(0x9003, 2, 20, ascii_value(taken))]
    gps_entries = [(1, 2, 2, b"N\0" if latitude >= 0 else b"S\0"), (2, 5, 3, rationals(abs(latitude))),
                   (3, 2, 2, b"E\0" if longitude >= 0 else b"W\0"), (4, 5, 3, rationals(abs(longitude)))]
    ifd0_count = 4
    ifd0_size = 2 + 12 * ifd0_count + 4 + (len(description) if len(description) > 4 else 0)
    exif_start = 8 + ifd0_size
    exif_size = len(ifd(exif_entries, exif_start))
    gps_start = exif_start + exif_size
    ifd0 = ifd([(0x010E, 2, len(description), description), (0x0112, 3, 1, struct.pack("<H", 1)),
                (0x8769, 4, 1, struct.pack("<I", exif_start)), (0x8825, 4, 1, struct.pack("<I", gps_start))], 8)
    tiff = b"II*\0" + struct.pack("<I", 8) + ifd0 + ifd(exif_entries, exif_start) + ifd(gps_entries, gps_start)
    return b"Exif\0\0" + tiff


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--width", type=int, default=4000)
    parser.add_argument("--height", type=int, default=3000)
    parser.add_argument("--bases", type=int, default=4)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    bases = []
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(arguments.bases):
            # Three bands of blurred noise, each cast to 8 bits: 2–3 MB at quality 85 for 12 megapixels,
            # about what a phone's photo weighs.
            bands = []
            for band, (sigma, blur) in enumerate([(40, 0.7 + index * 0.1), (30, 2.0), (40, 1.2)]):
                noise, blurred, cast = (os.path.join(scratch, f"{name}{index}-{band}.v") for name in "nbc")
                subprocess.run(["vips", "gaussnoise", noise, str(arguments.width), str(arguments.height),
                                "--mean", str(90 + index * 15 + band * 10), "--sigma", str(sigma)], check=True)
                subprocess.run(["vips", "gaussblur", noise, blurred, str(blur)], check=True)
                subprocess.run(["vips", "cast", blurred, cast, "uchar"], check=True)
                bands.append(cast)
            colour = os.path.join(scratch, f"colour{index}.v")
            jpeg = os.path.join(scratch, f"base{index}.jpg")
            subprocess.run(["vips", "bandjoin", " ".join(bands), colour], check=True)
            subprocess.run(["vips", "copy", colour, jpeg + "[Q=85,strip]"], check=True)
            with open(jpeg, "rb") as file:
                bases.append(file.read())
    generator = random.Random(7)
    for index in range(arguments.count):
        base = bases[index % len(bases)]
        block = exif_block(generator.uniform(36, 60), generator.uniform(-9, 28), f"Photo {index}",
                           f"2024:{1 + index % 12:02d}:{1 + index % 28:02d} 12:{index % 60:02d}:00")
        app1 = b"\xff\xe1" + struct.pack(">H", len(block) + 2) + block
        with open(os.path.join(arguments.out, f"IMG_{index:05d}.jpg"), "wb") as file:
            file.write(base[:2] + app1 + base[2:])


if __name__ == "__main__":
    main()
