#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the fuzz targets' seed corpora, Fuzz/Corpus/TARGET/NAME: a few inputs each, made from the
embedded catalog's answers and descriptions, small images of every kind the decoders meet, and the
hostile cases photomap already refuses (so the fuzzers start past the first checks).

Run from the repository root: python3 Fuzz/make_seeds.py. JPEG seeds need cjpeg and jpegtran
(Debian's libjpeg-turbo-progs), the HEIC seed heif-enc (libheif-examples); the PNGs are written here with zlib. The seeds are committed: the
fuzz runs never regenerate them.
"""
import base64
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")
CATALOG = os.path.join(ROOT, "Fixtures", "catalog")
# Places of the fuzz sandbox (FuzzSandbox.swift): Portland, Córdoba, Reykjavík, Berlin, Lisbon.
PORTLAND, CORDOBA, BERLIN, LISBON = "GUxp_EgQ0EkOnY5Cq0", "Pl2joxq8zgPsQPTa1u7", "yjZViTj17fo6BbLk", "TKRzEzSrM_ORpMOe"


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as file:
        file.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def catalog_json(*path):
    with open(os.path.join(CATALOG, *path), encoding="utf-8") as file:
        return json.load(file)


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def photos_page(place, count):
    page = catalog_json("photos", place, "page-1.json")
    page["photos"]["photo"] = page["photos"]["photo"][:count]
    return page


def flickr_answers():
    top = catalog_json("top-places.json")
    top["places"]["place"] = top["places"]["place"][:4]
    write("flickr-answers", "top-places.json", compact(top))
    write("flickr-answers", "photos-page.json", compact(photos_page(CORDOBA, 4)))
    write("flickr-answers", "photos-page-hostile.json", compact(photos_page(BERLIN, 6)))
    write("flickr-answers", "licenses.json", compact(catalog_json("licenses.json")))
    write("flickr-answers", "jsonp.txt", "jsonFlickrApi(" + compact(photos_page(LISBON, 3)) + ")")
    write("flickr-answers", "fail-key.json", '{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}')
    write("flickr-answers", "fail-string-code.json", '{"stat":"fail","code":"105","message":"Service currently unavailable"}')
    odd = {"photos": {"page": "1", "pages": 2, "perpage": "2", "total": "3", "photo": [
        {"id": 1, "title": None, "description": "bare <b>text</b>", "latitude": "0", "longitude": 0, "license": [],
         "datetaken": "1969-12-31 16:00:00", "datetakenunknown": "1", "url_sq": "javascript:alert(1)", "media": "video"},
        {"id": "2", "title": {"_content": "an object"}, "description": {"_content": 7}, "latitude": True,
         "longitude": "1e999", "tags": "a  b\u0000c", "owner": "x", "server": "65535", "secret": "s"},
        "not a record", None]}, "stat": "ok"}
    write("flickr-answers", "odd-types.json", compact(odd))
    places = {"places": {"total": "1e400", "place": [{"place_id": "p", "latitude": "9" * 1000, "longitude": "-" + "1" * 400,
                                                      "_content": "Nowhere, \u202eEvil", "photo_count": "12345678901234567890123"}]},
              "stat": "ok"}
    write("flickr-answers", "long-numbers.json", compact(places))
    # flickr.photos.getInfo, shaped as the test Flickr server shapes it from a catalog record.
    sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
    import flickr_server
    record = photos_page(CORDOBA, 1)["photos"]["photo"][0]
    write("flickr-answers", "photo-info.json",
          compact(flickr_server.method_photo_info(flickr_server.Catalog(CATALOG), {"photo_id": str(record["id"])})))
    write("flickr-answers", "deep.json", '{"photos":{"photo":[' + "[" * 300 + "]" * 300 + "]},\"stat\":\"ok\"}")
    write("flickr-answers", "bad-utf8.json", b'{"photos":{"photo":[{"id":"1","title":"caf\xe9 \xff\xfe\x00 nul"}]},"stat":"ok"}')


def html():
    seen = 0
    for place in (BERLIN, LISBON, CORDOBA):
        for photo in catalog_json("photos", place, "page-1.json")["photos"]["photo"]:
            text = photo.get("description", {}).get("_content", "")
            if "<" in text or "&" in text:
                write("html", f"catalog-{photo['id']}.html", text)
                seen += 1
            if seen >= 6:
                break
    cases = {
        "javascript-link.html": '<a href="javascript:alert(1)">click</a> and <a href="https://ok.example/x?a=1&amp;b=2">ok</a>',
        "entity-scheme.html": '<a href="&#106;avascript:alert(1)">x</a><a href=" https://spaced.example ">y</a>',
        "unquoted.html": "<a href=http://a.example/ onclick=alert(1) title='q\"'>a</a><A HREF='HTTPS://UPPER.EXAMPLE'>b</A>",
        "nested.html": '<a href="http://a.example">one <a href="https://b.example">two</a></a></a>',
        "script-style.html": "<script>alert(1)</script><style>p{}</style><scr<script>ipt>x</script>done",
        "comments.html": '<!-- <a href="http://hidden"> --><!doctype html><?xml x?>< not a tag > a < b & c',
        "references.html": "&#0; &#27;[31m &#x9b; &#1114112; &#x110000; &amp;lt; &unknown; &nbsp;&hellip;&#8212;",
        "control.html": "line\u0000one\u001b[2Jtwo\r\nthree\u2028four\u202eevil",
        "unclosed.html": '<a href="http://x.example" <b>bold<i>italic<br/><p>para<div>div<li>item',
        "long.html": "word " * 60 + "averyveryverylongwordwithoutanyspaceatallthatgoesonandonandonforeverandeverandever",
        "quotes.html": '<a href="http://q.example/\'">x</a><a href=\'http://q.example/"\'>y</a><a href="http://x.example/<script>">z</a>',
    }
    for name, text in cases.items():
        write("html", name, text)


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, colour_type, depth, rows, interlace=0, extra=b""):
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, interlace)
    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + extra
            + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))


def images():
    write("images", "rgba-1x1.png", png(1, 1, 6, 8, [b"\xff\x00\x00\x80"]))
    write("images", "grey-8x8.png", png(8, 8, 0, 8, [bytes(range(y * 8, y * 8 + 8)) for y in range(8)]))
    write("images", "rgb16-4x4.png", png(4, 4, 2, 16, [bytes(4 * 6)] * 4))
    palette = png_chunk(b"PLTE", b"\x00\x00\x00\xff\x00\x00\x00\xff\x00") + png_chunk(b"tRNS", b"\x00\x80")
    write("images", "palette-4x4.png", png(4, 4, 3, 2, [b"\x1b"] * 4, extra=palette))
    # Adam7 interlacing: seven passes of an 8×8 grey image (each pass's rows, filter byte first).
    passes = [(1, 1), (1, 1), (2, 1), (2, 2), (4, 2), (4, 4), (8, 4)]
    raw = b"".join((b"\x00" + bytes(range(w))) * h for w, h in passes)
    header = struct.pack(">IIBBBBB", 8, 8, 8, 0, 0, 0, 1)
    write("images", "interlaced-8x8.png", b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
          + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))
    text = png_chunk(b"tEXt", b"Comment\x00hello") + png_chunk(b"zTXt", b"Title\x00\x00" + zlib.compress(b"x" * 100))
    write("images", "text-chunks-2x2.png", png(2, 2, 4, 8, [b"\x10\xff\x20\xff"] * 2, extra=text))
    whole = png(3, 3, 2, 8, [bytes(9)] * 3)
    write("images", "trailing-bytes.png", whole + b"<html>appended</html>")
    write("images", "truncated.png", whole[:-20])
    # A header claiming 2,000 × 2,000 (over the fuzz limit of 1,024) in a few bytes.
    write("images", "claims-huge.png", png(2000, 2000, 2, 8, [bytes(6001)] * 2))
    # What scripts/fuzz images found: a text chunk whose length claims 1.1 GB (libpng allocated it),
    # and an IEND mangled into a chunk of no valid type (only the check refused it).
    rgba = png(1, 1, 6, 8, [b"\xff\x00\x00\x80"])
    write("images", "claims-1gb-text.png", rgba[:33] + struct.pack(">I", 1147757325) + b"tEXtComment\x00hello" + rgba[33:])
    write("images", "mangled-iend.png", rgba[:-12] + b"\x00\x00\x00\x00IE\xa9\xa9\xa9\xa9\xa9ND\xaeB`\x82")
    # Ten zTXt chunks inflating to 7.9 MB each, which libpng kept until photomap's reader skipped them.
    bomb = zlib.compress(bytes(7_900_000), 9)
    texts = b"".join(png_chunk(b"zTXt", b"k%d\x00\x00" % i + bomb) for i in range(10))
    write("images", "ztxt-bomb.png", png(1, 1, 6, 8, [b"\x00\xff\x00\x80"], extra=texts))
    with tempfile.TemporaryDirectory() as folder:
        ppm = os.path.join(folder, "in.ppm")
        with open(ppm, "wb") as file:
            file.write(b"P6\n12 10\n255\n" + bytes((x * 20 + y * 7) % 256 for y in range(10) for x in range(36)))
        pgm = os.path.join(folder, "in.pgm")
        with open(pgm, "wb") as file:
            file.write(b"P5\n8 8\n255\n" + bytes(range(64)))
        if not (shutil.which("cjpeg") and shutil.which("jpegtran")):
            sys.exit("make_seeds: cjpeg and jpegtran are needed for the JPEG seeds (apt-get install libjpeg-turbo-progs)")
        jpegs = {
            "baseline-12x10.jpg": ["cjpeg", "-quality", "75", ppm],
            "grey-8x8.jpg": ["cjpeg", "-grayscale", pgm],
            "sampling-444.jpg": ["cjpeg", "-sample", "1x1", ppm],
            "restart.jpg": ["cjpeg", "-restart", "1B", ppm],
            "arithmetic.jpg": ["cjpeg", "-arithmetic", ppm],
            "optimized.jpg": ["cjpeg", "-optimize", ppm],
        }
        for name, command in jpegs.items():
            write("images", name, subprocess.run(command, check=True, capture_output=True).stdout)
        baseline = subprocess.run(jpegs["baseline-12x10.jpg"], check=True, capture_output=True).stdout
        base = os.path.join(folder, "base.jpg")
        with open(base, "wb") as file:
            file.write(baseline)
        write("images", "progressive.jpg", subprocess.run(["jpegtran", "-progressive", base], check=True, capture_output=True).stdout)
        write("images", "truncated.jpg", baseline[: len(baseline) // 2])


def exif_and_local_photos():
    """EXIF blocks (the TIFF structure, after "Exif\\0\\0") and the files import reads: the block builder is
    bench/make_import_photos.py's; the HEIC comes from libheif's heif-enc (Debian libheif-examples)."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from make_import_photos import exif_block
    block = exif_block(43.4633, 11.8796, "Piazza Grande", "2024:05:01 17:48:17")
    south_west = exif_block(-22.9068, -43.1729, "Copacabana", "2023:12:31 23:59:59")
    write("exif", "arezzo.tiff", block[6:])
    write("exif", "rio.tiff", south_west[6:])
    write("exif", "truncated.tiff", block[6:40])
    # GPSLatitude's type (RATIONAL, 5) turned into SHORT (3); an offset pointing far outside.
    write("exif", "wrong-type.tiff", block[6:].replace(struct.pack("<HHI", 2, 5, 3), struct.pack("<HHI", 2, 3, 3)))
    write("exif", "far-offset.tiff", block[6:].replace(struct.pack("<HHI", 4, 5, 3), struct.pack("<HHI", 4, 5, 3000000)))
    with tempfile.TemporaryDirectory() as folder:
        ppm = os.path.join(folder, "in.ppm")
        with open(ppm, "wb") as file:
            file.write(b"P6\n96 64\n255\n" + bytes((x * 5 + y * 3) % 256 for y in range(64) for x in range(288)))
        plain = subprocess.run(["cjpeg", "-quality", "70", ppm], check=True, capture_output=True).stdout
        app1 = b"\xff\xe1" + struct.pack(">H", len(block) + 2) + block
        jpeg = plain[:2] + app1 + plain[2:]
        write("local-photos", "arezzo.jpg", jpeg)
        write("local-photos", "truncated.jpg", jpeg[: len(jpeg) // 2])
        write("exif", "arezzo.jpg", jpeg[2:])
        source = os.path.join(folder, "in.jpg")
        with open(source, "wb") as file:
            file.write(jpeg)
        heic = os.path.join(folder, "out.heic")
        subprocess.run(["heif-enc", "-q", "30", source, "-o", heic], check=True, capture_output=True)
        with open(heic, "rb") as file:
            heif = file.read()
        write("local-photos", "arezzo.heic", heif)
        write("local-photos", "truncated.heic", heif[: len(heif) // 2])


def jpeg_bombs():
    """What import refuses for its cost, from the progressive seed: its last scan repeated (a scan bomb, past
    the 500 scans every decode stops at), and its frame header claiming a size whose progressive decode
    would keep every coefficient of three full-resolution components."""
    with open(os.path.join(CORPUS, "images", "progressive.jpg"), "rb") as file:
        progressive = file.read()
    last = progressive.rindex(b"\xff\xda")
    bomb = progressive[:-2] + progressive[last:-2] * (600 - progressive.count(b"\xff\xda")) + b"\xff\xd9"
    write("images", "scan-bomb-600.jpg", bomb)
    write("local-photos", "scan-bomb-600.jpg", bomb)
    sof = progressive.index(b"\xff\xc2")
    claims = bytearray(progressive)
    claims[sof + 5:sof + 9] = struct.pack(">HH", 2000, 2000)
    for component in range(claims[sof + 9]):
        claims[sof + 11 + component * 3] = 0x11
    write("local-photos", "progressive-444-4mp.jpg", bytes(claims))


def arguments():
    cases = {
        "places": ["places"],
        "places-json": ["places", "--json"],
        "photos": ["photos", "--place", PORTLAND, "--limit", "5"],
        "photos-csv": ["photos", "--place", CORDOBA, "--format", "csv", "--output", "out.csv"],
        "photos-prefetch": ["--cache-limit", "1MB", "photos", "--place", CORDOBA, "--prefetch"],
        "find-qualified": ["find", "Portland, Maine"],
        "find-near": ["find", "Paris", "--near", "33.66,-95.55", "--json"],
        "find-point": ["find", "-33.9,18.4"],
        "search": ["search", "bridge", "--near", "Lisbon", "--radius", "10"],
        "search-two": ["search", "coffee", "theatre", "--near", "38.7,-9.1", "--format", "geojson"],
        "cache-stats": ["cache", "stats", "--json"],
        "cache-prune": ["cache", "prune", "--max-size", "1KB"],
        "export": ["export", "--out", "site"],
        "map": ["places", "--map", "map.html"],
        "version": ["--version"],
        "help": ["photos", "--help"],
        "completions": ["completions", "zsh"],
        "man": ["man"],
        "index": ["index", "rebuild"],
        "recent": ["recent", "--json"],
        "long-number": ["--cache-limit", "9" * 1000 + "MB", "places"],
        "nul": ["photos", "--place", "Portland\u0000x", "--limit", "1\u0000"],
        "offline-flickr": ["--source", "flickr", "--offline", "places"],
        "connections": ["--connections", "0", "photos", "--place", PORTLAND],
        "endpoint": ["--endpoint", "file:///etc/passwd", "places"],
        "escape": ["find", "\u001b[31mred\u001b]0;title\u0007"],
        "inline": ["--source=fixtures", "photos", "--place=" + LISBON, "--limit=-3", "--", "--json"],
    }
    for name, words in cases.items():
        write("arguments", name, "\n".join(words))
    write("arguments", "bad-utf8", b"find\n\xff\xfe\xc3(\n--near\n\xe9,\xe8")


def gazetteer():
    cases = {
        "qualified": "Portland, Maine", "near": "Portland\n45.5,-122.6\n3", "accents": "Córdoba, Argentina",
        "folded": "cordoba, spain", "ascii": "Reykjavik", "point": "48.85,2.35", "state": "Paris, TX",
        "landmark": "Hallgrímskirkja", "three-parts": "Springfield, Illinois, USA", "limit-zero": "Berlin\n\n0",
        "punctuation": ",,,' \u2019 - .", "digits": "1234567890" * 5, "out-of-range": "91,181\n-91,-181",
        "long-number": "1" * 1000 + "," + "2" * 1000, "controls": "Sa\u0000o Pa\u001bulo\t\r",
    }
    for name, text in cases.items():
        write("gazetteer", name, text)


def local_search():
    cases = {
        "word": "bridge", "near": "coffee\n45.52,-122.68\n10\n5", "lisbon": "theatre\n38.72,-9.14\n20",
        "fts-syntax": '"quoted" OR NEAR(a b) col:term ^start a* -b + AND NOT', "apostrophe": "O'Hare \u2019s",
        "accents": "café Zürich", "wide": "berlin\n52.5,13.4\n20000\n500", "pole": "x\n89.99,179.99\n100",
        "antimeridian": "x\n-16.5,179.9\n300", "photo-ids": "coffee\n\n\n\n40445410754,\",');--", "zero-radius": "gate\n52.5,13.4\n0",
        "nan-radius": "gate\n52.5,13.4\nnan", "long-number": "bridge\n38.7,-9.1\n" + "9" * 1000, "controls": "a\u0000b\u001b c",
    }
    for name, text in cases.items():
        write("local-search", name, text)


# A token of a token's shape (43 base64url characters), and the CSRF token the routes derive from it
# (SecretToken.derived("csrf"): base64url of SHA-256("photomap csrf\0" + token)).
PRESESSION = "A" * 43
PRESESSION_CSRF = base64.urlsafe_b64encode(
    hashlib.sha256(b"photomap csrf\0" + PRESESSION.encode()).digest()).decode().rstrip("=")


def server_routes():
    photo = catalog_json("photos", CORDOBA, "page-1.json")["photos"]["photo"][0]["id"]
    host = "host: 127.0.0.1:8080"
    cases = {
        "index": f"GET\n/\n{host}",
        "place": f"GET\n/places/{CORDOBA}\n{host}\n\nlimit=5",
        "photo": f"GET\n/photos/{photo}\n{host}",
        "square": f"GET\n/squares/{photo}\n{host}\nif-none-match: \"x\", W/\"y\"",
        "image": f"HEAD\n/images/{photo}\n{host}",
        "recent": f"GET\n/recent\n{host}",
        "asset": f"GET\n/assets/photomap.css\n{host}",
        "find": f"GET\n/api/find\n{host}\n\nq=Portland\nlat=45.5\nlon=-122.6",
        "search": f"GET\n/api/search\n{host}\n\nq=bridge\nlat=52.5\nlon=13.4\nradius=10",
        "post": f"POST\n/\n{host}",
        "wrong-host": "GET\n/\nhost: evil.example:8080",
        "traversal": f"GET\n/assets/../Package.swift\n{host}",
        "bad-limit": f"GET\n/places/{PORTLAND}\n{host}\n\nlimit=" + "9" * 1000,
        "nul": f"GET\n/photos/\u0000x\n{host}\n\nq=a\u0000b",
        "nan": f"GET\n/api/search\n{host}\n\nq=x\nlat=nan\nlon=inf\nradius=1e309",
        # Sign-in: the form, cookies (a pre-session token, a forged session, repeated and quoted names),
        # origins, the owner's link, a malformed form.
        "login-page": f"GET\n/login\n{host}\nreferer: http://127.0.0.1:8080/places/{CORDOBA}\n\nnext=//evil.example",
        "login": f"POST\n/login\n{host}\norigin: http://127.0.0.1:8080\n"
        f"content-type: application/x-www-form-urlencoded\ncookie: photomap_presession={PRESESSION}; a=b\n\n\n"
        f"name=anna&password=correct+horse+battery&csrf={PRESESSION_CSRF}&next=%2Fplaces%2F1",
        "login-bad-form": f"POST\n/login\n{host}\norigin: http://127.0.0.1:8080\n"
        "content-type: application/x-www-form-urlencoded\n\n\nname=%zz&name=%C3%28&=&&&",
        "login-link": f"POST\n/login\n{host}\norigin: http://127.0.0.1:8080\n"
        f"content-type: application/x-www-form-urlencoded\ncookie: photomap_presession={PRESESSION}\n\n"
        f"token={PRESESSION}\n\ncsrf={PRESESSION_CSRF}",
        "logout": f"POST\n/logout\n{host}\norigin: null\nreferer: http://127.0.0.1:8080/\n"
        f"x-csrf-token: x\ncookie: photomap_session=\"{PRESESSION}\"; photomap_session=2;;=\n",
        "session": f"GET\n/api/session\n{host}\ncookie: photomap_session={PRESESSION}; photomap_presession=\n",
    }
    for name, text in cases.items():
        write("server-routes", name, text)


def server_bytes():
    host = "Host: 127.0.0.1:8080\r\n"
    cases = {
        "get": f"GET / HTTP/1.1\r\n{host}Connection: close\r\n\r\n",
        "place": f"GET /places/{CORDOBA}?limit=3 HTTP/1.1\r\n{host}\r\n",
        "pipelined": f"GET /assets/photomap.css HTTP/1.1\r\n{host}\r\nHEAD /recent HTTP/1.1\r\n{host}Connection: close\r\n\r\n",
        "post": f"POST /api/find HTTP/1.1\r\n{host}Content-Length: 5\r\n\r\nhello",
        "options": f"OPTIONS * HTTP/1.1\r\n{host}\r\n",
        "http10": "GET /recent HTTP/1.0\r\n\r\n",
        "chunked-get": f"GET / HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "encoded": f"GET /photos/..%2F..%2Fetc%2Fpasswd?q=%ff%fe%00 HTTP/1.1\r\n{host}\r\n",
        "api": f"GET /api/search?q=%E2%80%AE&lat=nan&lon=inf&radius=1e309 HTTP/1.1\r\n{host}\r\n",
        "http2": "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        "folded": f"GET / HTTP/1.1\r\n{host}X-Folded: a\r\n b\r\n\r\n",
        "bare-lf": "GET / HTTP/1.1\nHost: 127.0.0.1:8080\n\n",
        # Past the 100 query arguments serve takes (414, counted before MHD parses them), then a request
        # on the same connection.
        "many-arguments": "GET /api/find?q=a" + "&x=1" * 100 + f" HTTP/1.1\r\n{host}\r\nGET / HTTP/1.1\r\n{host}\r\n",
        "login": f"POST /login HTTP/1.1\r\n{host}Origin: http://127.0.0.1:8080\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nCookie: photomap_presession={PRESESSION}\r\n"
        f"Content-Length: 51\r\n\r\nname=anna&password=correct+horse+battery&csrf=x&n=1",
        "login-too-large": f"POST /login HTTP/1.1\r\n{host}Content-Length: 70000\r\n\r\nname=",
        "login-chunked": f"POST /logout HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n5\r\ncsrf=\r\n0\r\n\r\n",
    }
    for name, text in cases.items():
        write("server-bytes", name, text)
    write("server-bytes", "bad-utf8", b"GET /places/\xff\xfe\xc3( HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX: \x80\x00\r\n\r\n")


def gpx_tracks():
    """GPX files: 1.1 with two segments and two tracks, 1.0 with a waypoint, bad points (latitude 200, no
    time, a time with an offset, a CDATA time), an extension's own time, and broken ones."""
    point = '<trkpt lat="{}" lon="{}"><time>{}</time></trkpt>'
    segment = "".join(point.format(46 + i / 100, 14 + i / 100, f"2024-07-12T08:{i:02d}:00Z") for i in range(5))
    write("gpx", "two-tracks.gpx",
          '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">'
          f"<trk><trkseg>{segment}</trkseg><trkseg>{segment}</trkseg></trk><trk><trkseg>{segment}</trkseg></trk></gpx>")
    write("gpx", "gpx-1.0-bad-points.gpx",
          '<gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0">'
          '<wpt lat="1" lon="2"><time>2024-07-12T08:00:00Z</time></wpt><trk><trkseg>'
          '<trkpt lat="200" lon="14"><time>2024-07-12T09:00:00Z</time></trkpt>'
          '<trkpt lat="46" lon="14"><time>2024-07-12T09:00:00.25+02:00</time>'
          '<extensions><x:time xmlns:x="urn:x">1</x:time></extensions></trkpt><trkpt lat="46" lon="14.5"/>'
          '<trkpt lat="-1" lon="179.9"><time><![CDATA[2024-07-12T10:00:00]]></time></trkpt></trkseg></trk></gpx>')
    write("gpx", "not-closed.gpx", "<gpx>\n<trk>\n<trkseg>\n</trk>\n")
    write("gpx", "kml.gpx", "<kml><Document/></kml>")


if __name__ == "__main__":
    shutil.rmtree(CORPUS, ignore_errors=True)
    for make in (flickr_answers, html, images, arguments, gazetteer, local_search, server_routes, server_bytes,
                 exif_and_local_photos, jpeg_bombs, gpx_tracks):
        make()
    for target in sorted(os.listdir(CORPUS)):
        files = os.listdir(os.path.join(CORPUS, target))
        size = sum(os.path.getsize(os.path.join(CORPUS, target, name)) for name in files)
        print(f"{target}: {len(files)} seeds, {size} bytes")
