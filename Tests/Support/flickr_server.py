#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Local stand-in for Flickr's REST API, used by the photomap Swift test suite.

Usage:
    python3 Tests/Support/flickr_server.py --catalog DIR [--port 0]
    python3 Tests/Support/flickr_server.py --self-test

The server binds 127.0.0.1 only, prints one line ``PORT <n>`` once listening,
and exits when stdin reaches EOF or on SIGTERM.

Catalog layout (recorded real answers):
    DIR/top-places.json                        flickr.places.getTopPlacesList
    DIR/licenses.json                          flickr.photos.licenses.getInfo
    (flickr.places.getInfo answers from the findable places below, by place_id)
    DIR/photos/{place_id}/page-{n}.json        flickr.photos.search, per_page=100
    DIR/../images/                             the images the records' url_* name (served at /images/)

flickr.places.find also knows the places in places_find.json beside this script
(towns and regions shaped as Flickr answers them), after the catalog's top places.

Answers are shaped as Flickr shapes them: numbers as strings and as numbers in one
list, `description` as {"_content": ...}, `pathalias` null, failures with HTTP 200,
JSONP (`jsonFlickrApi(...)`) without nojsoncallback=1.  flickr.photos.search
answers only the extras asked for, honours `media` (photos, videos, all) and
`sort` (a text search without one comes newest first, as Flickr's default
date-posted-desc; sort=relevance ranks by the words found in title, tags and
description).  Image URLs on Flickr's static host are rewritten to this server's
/images/ (so nothing reaches the internet).

Endpoint: any path ending in ``/services/rest/`` (or ``/services/rest``).  The
part before it is a scenario prefix chosen by each test:

    (none) | /ok                 normal behaviour
    /fail100                     always error 100 (invalid API key)
    /status/{code}/{token}/{n}   first n requests for token -> HTTP {code}
    /malformed                   200 with truncated JSON
    /html200                     200 with an HTML page
    /slow/{seconds}              sleep, then answer normally
    /reset/{token}/{n}           first n requests for token -> connection reset
    /redirect-file               302 to file:///etc/passwd
    /redirect/{scenario...}      302 to the same request under {scenario...}
    /numbers-as-strings          every JSON number sent as a string
    /fail105/{token}/{n}         first n requests for token -> 200 with stat fail, code 105
    /search-fails-from-page/{n}  flickr.photos.search for page n and later -> 200 with stat fail,
                                 code 10 (Flickr's "search API is not currently available")
    /jsonp                       JSONP (jsonFlickrApi(...)) even with nojsoncallback=1
    /ignore-radius               lat/lon/radius not applied (real answers held photos
                                 hundreds of kilometres outside the radius)
    /mixed-media                 `media` not applied (an answer with videos in it)
    /huge/{megabytes}/{framing}  200 with a well-formed answer of that many MB, sent 1 MB at a time,
                                 framed by Content-Length (`length`) or by closing (`close`)
    /hostile/{kind}              200 with an answer no decoder should trust: `deep` (JSON nested
                                 1,000 deep), `bad-utf8`, `raw-nul` (a NUL byte in a string),
                                 `escaped-nul` (\u0000 in a title), `long-number` (1,000 digits)

Pass-through scenarios (ok, status, fail105, search-fails-from-page, reset, slow, numbers-as-strings,
jsonp, ignore-radius, mixed-media) may be chained, e.g. ``/slow/1/numbers-as-strings/services/rest/``.

Control endpoints: ``GET /_requests`` returns the log of API requests received
(``[{"path": ..., "query": {...}, "time": seconds since 1970}]``); ``GET /_inflight`` the API requests
being answered now and the most at once (``{"now": n, "peak": n}``); ``GET /_reset`` clears both.
"""

import json
import math
import os
import re
import sys
import threading
import time
import urllib.parse
from http import HTTPStatus

# Run as a script from any folder: the shared loopback module sits beside this file.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loopback  # noqa: E402

DEFAULT_PER_PAGE = 100
MAX_PER_PAGE = 500
DEFAULT_RADIUS_KM = 5.0
EARTH_RADIUS_KM = 6371.0088

# Place types accepted by flickr.places.getTopPlacesList, with their names.
PLACE_TYPES = {22: "neighbourhood", 7: "locality", 8: "region", 12: "country", 29: "continent"}
RECORDED_PLACE_TYPE = 7

ENDPOINT_SUFFIXES = ("/services/rest/", "/services/rest")
PAGE_FILE = re.compile(r"^page-(\d+)\.json$")
FLICKR_IMAGE_HOST = "https://live.staticflickr.com/"
PLACES_FIND = os.path.join(os.path.dirname(os.path.abspath(__file__)), "places_find.json")

# The fields each extra adds to a flickr.photos.search record; the others are in every record.
EXTRA_FIELDS = {
    "description": ["description"], "license": ["license"], "date_upload": ["dateupload"],
    "date_taken": ["datetaken", "datetakengranularity", "datetakenunknown"], "owner_name": ["ownername"],
    "icon_server": ["iconserver", "iconfarm"], "original_format": ["originalsecret", "originalformat"],
    "last_update": ["lastupdate"], "tags": ["tags"], "machine_tags": ["machine_tags"], "views": ["views"],
    "geo": ["latitude", "longitude", "accuracy", "context", "place_id", "woeid", "geo_is_public",
            "geo_is_contact", "geo_is_friend", "geo_is_family"],
    "media": ["media", "media_status"], "path_alias": ["pathalias"],
}
BASE_FIELDS = {"id", "owner", "secret", "server", "farm", "title", "ispublic", "isfriend", "isfamily"}


# --------------------------------------------------------------------------
# Catalog: recorded answers, loaded lazily and cached (read-only afterwards).
# --------------------------------------------------------------------------

class Catalog:
    """Read-only view of a recorded catalog directory."""

    def __init__(self, root):
        self.root = os.path.abspath(root)
        self._lock = threading.Lock()
        self._top_places = None
        self._photos_by_place = {}
        self._place_ids = None

    def top_places(self):
        """The recorded getTopPlacesList answer (an empty one if absent)."""
        with self._lock:
            if self._top_places is None:
                path = os.path.join(self.root, "top-places.json")
                if os.path.isfile(path):
                    with open(path, encoding="utf-8") as f:
                        self._top_places = json.load(f)
                else:
                    self._top_places = {"places": {"total": 0, "place": []}, "stat": "ok"}
            return self._top_places

    def licenses(self):
        """The recorded flickr.photos.licenses.getInfo answer, or None."""
        path = os.path.join(self.root, "licenses.json")
        if not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8") as f:
            return json.load(f)

    def findable_places(self):
        """What flickr.places.find searches: the top places, then places_find.json's."""
        places = list(self.top_places().get("places", {}).get("place", []))
        if os.path.isfile(PLACES_FIND):
            with open(PLACES_FIND, encoding="utf-8") as f:
                places += json.load(f)["places"]
        return places

    def images_folder(self):
        """The folder the records' images are in (Fixtures/images beside Fixtures/catalog), or None."""
        folder = os.path.join(os.path.dirname(self.root), "images")
        return folder if os.path.isdir(folder) else None

    def place_ids(self):
        """Place ids that have recorded photo pages, in a stable order."""
        with self._lock:
            if self._place_ids is None:
                photos_dir = os.path.join(self.root, "photos")
                names = os.listdir(photos_dir) if os.path.isdir(photos_dir) else []
                self._place_ids = sorted(
                    n for n in names if os.path.isdir(os.path.join(photos_dir, n)))
            return list(self._place_ids)

    def photos_for_place(self, place_id):
        """All recorded photos of a place, pages concatenated in page order."""
        # Look the id up in the directory listing rather than joining it into
        # a path, so a hostile place_id ("../..") can never escape the catalog.
        if place_id not in self.place_ids():
            return []
        with self._lock:
            cached = self._photos_by_place.get(place_id)
        if cached is not None:
            return cached
        place_dir = os.path.join(self.root, "photos", place_id)
        pages = []
        for name in os.listdir(place_dir):
            match = PAGE_FILE.match(name)
            if match:
                pages.append((int(match.group(1)), name))
        photos = []
        for _, name in sorted(pages):  # numeric order: page-10 after page-9
            with open(os.path.join(place_dir, name), encoding="utf-8") as f:
                photos.extend(json.load(f).get("photos", {}).get("photo", []))
        with self._lock:
            self._photos_by_place[place_id] = photos
        return photos

    def all_photos(self):
        """Every recorded photo of every place, first occurrence of an id wins."""
        seen = set()
        result = []
        for place_id in self.place_ids():
            for photo in self.photos_for_place(place_id):
                key = photo.get("id")
                if key is not None and key in seen:
                    continue
                seen.add(key)
                result.append(photo)
        return result


# --------------------------------------------------------------------------
# Small pure helpers
# --------------------------------------------------------------------------

class ApiError(Exception):
    """A Flickr-level failure, sent as HTTP 200 {"stat":"fail",...}."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def int_param(query, name, default):
    """Integer query parameter; Flickr silently falls back on bad values."""
    try:
        return int(query.get(name, ""))
    except ValueError:
        return default


def float_value(value):
    """Float from a JSON number or numeric string, None when not numeric."""
    try:
        result = float(value)
    except (TypeError, ValueError):
        return None
    return result if math.isfinite(result) else None


def haversine_km(lat1, lon1, lat2, lon2):
    """Great-circle distance in kilometres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def photo_coordinates(photo):
    """(lat, lon) of a photo; missing or bad values count as 0 like Flickr."""
    lat = float_value(photo.get("latitude")) or 0.0
    lon = float_value(photo.get("longitude")) or 0.0
    return lat, lon


def photo_matches_text(photo, needle):
    """Case-insensitive match on title, description and tags."""
    description = photo.get("description")
    if isinstance(description, dict):
        description = description.get("_content", "")
    tags = photo.get("tags", "")
    if isinstance(tags, list):
        tags = " ".join(str(t) for t in tags)
    for field in (photo.get("title"), description, tags):
        if isinstance(field, str) and needle in field.lower():
            return True
    return False


def paginate(photos, query):
    """Flickr-style page of a photo list; pages and total go out as strings."""
    per_page = int_param(query, "per_page", DEFAULT_PER_PAGE)
    if per_page < 1:
        per_page = DEFAULT_PER_PAGE
    per_page = min(per_page, MAX_PER_PAGE)
    page = max(1, int_param(query, "page", 1))
    total = len(photos)
    pages = (total + per_page - 1) // per_page
    start = (page - 1) * per_page
    return {
        "photos": {
            "page": page,
            "pages": str(pages),
            "perpage": per_page,
            "total": str(total),
            "photo": photos[start:start + per_page],
        },
        "stat": "ok",
    }


def stringify_numbers(value):
    """Recursively turn every int/float into a string, leaving booleans alone."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, dict):
        return {k: stringify_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [stringify_numbers(v) for v in value]
    return value


# --------------------------------------------------------------------------
# Flickr API methods (pure functions of catalog + query)
# --------------------------------------------------------------------------

def method_top_places(catalog, query):
    raw = query.get("place_type_id", "")
    try:
        type_id = int(raw)
    except ValueError:
        type_id = None
    if type_id not in PLACE_TYPES:
        raise ApiError(2, "Not a valid place type.")
    recorded = catalog.top_places()
    if type_id == RECORDED_PLACE_TYPE:
        return recorded
    # Other types: same shape, but nothing was recorded for them.
    places = dict(recorded.get("places", {}))
    places.update({"total": 0, "place": [], "place_type": PLACE_TYPES[type_id],
                   "place_type_id": type_id})
    return {"places": places, "stat": "ok"}


def relevance(photo, words):
    """How well a photo matches: each word found in the title counts 3, in the tags 2, in the description 1."""
    description = photo.get("description")
    if isinstance(description, dict):
        description = description.get("_content", "")
    score = 0
    for field, weight in ((photo.get("title"), 3), (photo.get("tags"), 2), (description, 1)):
        text = field.lower() if isinstance(field, str) else ""
        score += weight * sum(1 for word in words if word in text)
    return score


def photo_id_number(photo):
    try:
        return int(photo.get("id"))
    except (TypeError, ValueError):
        return 0


def with_extras(photo, query):
    """The record as Flickr sends it for the extras asked: other extras' fields left out."""
    asked = {e.strip() for e in query.get("extras", "").split(",") if e.strip()}
    keep = set(BASE_FIELDS)
    for extra in asked:
        keep.update(EXTRA_FIELDS.get(extra, []))
        if extra.startswith("url_"):
            size = extra[4:]
            keep.update({extra, f"height_{size}", f"width_{size}"})
    return {k: v for k, v in photo.items() if k in keep}


def method_photos_search(catalog, query, scenario=()):
    place_id = query.get("place_id", "")
    text = query.get("text", "").strip()
    if not place_id and not text:
        raise ApiError(3, "Parameterless searches have been disabled. "
                          "Please use flickr.photos.getRecent instead.")
    photos = catalog.photos_for_place(place_id) if place_id else catalog.all_photos()
    if text:
        needle = text.lower()
        photos = [p for p in photos if photo_matches_text(p, needle)]
    lat = float_value(query.get("lat"))
    lon = float_value(query.get("lon"))
    if lat is not None and lon is not None and "ignore-radius" not in scenario:
        radius = float_value(query.get("radius")) or DEFAULT_RADIUS_KM
        if query.get("radius_units") == "mi":
            radius *= 1.609344
        photos = [p for p in photos if haversine_km(lat, lon, *photo_coordinates(p)) <= radius]
    if query.get("has_geo") == "1":
        photos = [p for p in photos if photo_coordinates(p) != (0.0, 0.0)]
    media = query.get("media", "all")
    if "mixed-media" not in scenario and media in ("photos", "videos"):
        photos = [p for p in photos if p.get("media", "photo") == media[:-1]]
    sort = query.get("sort", "")
    if sort == "relevance":
        words = text.lower().split()
        photos = sorted(photos, key=lambda p: (-relevance(p, words), -photo_id_number(p)))
    elif text and sort in ("", "date-posted-desc"):
        # Flickr's default: newest first (photo ids grow with the date posted).
        photos = sorted(photos, key=lambda p: -photo_id_number(p))
    answer = paginate(photos, query)
    answer["photos"]["photo"] = [with_extras(p, query) for p in answer["photos"]["photo"]]
    return answer


def method_places_find(catalog, query):
    text = query.get("query", "")
    if not text.strip():
        raise ApiError(1, "Required parameter missing")
    needle = text.lower()
    found = [p for p in catalog.findable_places() if needle in str(p.get("_content", "")).lower()]
    return {"places": {"place": found, "query": text, "total": len(found)}, "stat": "ok"}


def method_place_info(catalog, query):
    """flickr.places.getInfo by place_id: `{"place": {...}}`, the place's fields with `name` the full
    name and `woe_name` the short one (no shape data: photomap asks for none)."""
    place_id = query.get("place_id", "")
    if not place_id and not query.get("woe_id"):
        raise ApiError(1, "Required parameter missing")
    found = next((p for p in catalog.findable_places()
                  if place_id and p.get("place_id") == place_id
                  or query.get("woe_id") and str(p.get("woeid")) == query.get("woe_id")), None)
    if found is None:
        raise ApiError(2, "Not a valid Places ID")
    place = {k: v for k, v in found.items() if k not in ("_content", "photo_count")}
    place["name"] = found.get("_content", "")
    place.setdefault("woe_name", place["name"].split(",")[0])
    place["has_shapedata"] = 0
    return {"place": place, "stat": "ok"}


def method_photo_info(catalog, query):
    """flickr.photos.getInfo by photo_id, shaped as Flickr answers it: the record's owner as
    `owner{nsid, username, path_alias}`, title and description as `{"_content"}`, `dates`, `tags{tag[…]}`
    with each tag's raw and normalised text, `location` only for a geotagged photo, `urls{url[…]}`
    with its photo page; no `url_*` fields (getInfo has none). Code 1 when there is no such photo."""
    photo_id = query.get("photo_id", "")
    found = next((p for p in catalog.all_photos() if photo_id and str(p.get("id")) == photo_id), None)
    if found is None:
        raise ApiError(1, "Photo not found")
    owner = {"nsid": found.get("owner", ""), "username": found.get("ownername", ""), "realname": "",
             "location": "", "iconserver": "0", "iconfarm": 0, "path_alias": found.get("pathalias")}
    photo = {"id": found["id"], "secret": found.get("secret", ""), "server": found.get("server", ""),
             "farm": found.get("farm", 0), "dateuploaded": "1300000000", "isfavorite": 0,
             "license": found.get("license", "0"), "safety_level": "0", "rotation": 0, "owner": owner,
             "title": {"_content": found.get("title", "")},
             "description": found.get("description") if isinstance(found.get("description"), dict)
             else {"_content": found.get("description", "")},
             "visibility": {"ispublic": 1, "isfriend": 0, "isfamily": 0},
             "dates": {"posted": "1300000000", "taken": found.get("datetaken", ""),
                       "takengranularity": found.get("datetakengranularity", 0),
                       "takenunknown": found.get("datetakenunknown", "0"), "lastupdate": "1300000000"},
             "views": "0", "editability": {"cancomment": 0, "canaddmeta": 0},
             "publiceditability": {"cancomment": 1, "canaddmeta": 0}, "usage": {"candownload": 1, "canblog": 0,
                                                                              "canprint": 0, "canshare": 1},
             "comments": {"_content": "0"}, "notes": {"note": []}, "people": {"haspeople": 0},
             "tags": {"tag": [{"id": f"{found['id']}-{i}", "author": found.get("owner", ""),
                               "authorname": found.get("ownername", ""), "raw": tag, "_content": tag,
                               "machine_tag": 0} for i, tag in enumerate(str(found.get("tags", "")).split())]},
             "urls": {"url": [{"type": "photopage", "_content": "https://www.flickr.com/photos/"
                               f"{found.get('pathalias') or found.get('owner', '')}/{found['id']}/"}]},
             "media": found.get("media", "photo")}
    if photo_coordinates(found) != (0.0, 0.0):
        photo["location"] = {"latitude": found.get("latitude"), "longitude": found.get("longitude"),
                             "accuracy": found.get("accuracy", "16"), "context": found.get("context", 0),
                             "place_id": found.get("place_id", ""), "woeid": found.get("woeid", "")}
    return {"photo": photo, "stat": "ok"}


def method_licenses(catalog, query):
    recorded = catalog.licenses()
    if recorded is None:
        raise ApiError(105, "Service currently unavailable")
    return recorded


METHODS = {
    "flickr.places.getTopPlacesList": method_top_places,
    "flickr.photos.search": method_photos_search,
    "flickr.places.find": method_places_find,
    "flickr.places.getInfo": method_place_info,
    "flickr.photos.getInfo": method_photo_info,
    "flickr.photos.licenses.getInfo": method_licenses,
}


def listing_keys(query):
    """The envelope and list names of the method's answer: photos/photo, licenses/license or places/place."""
    method = query.get("method", "")
    if method == "flickr.photos.search":
        return "photos", "photo"
    if method == "flickr.photos.licenses.getInfo":
        return "licenses", "license"
    return "places", "place"


def hostile_record(id_key, title=b'"ok"', latitude=b'"45.5"'):
    """A record with `title` as its title (a place's name too) and `latitude`."""
    return b'{"%s":"1","title":%s,"_content":%s,"latitude":%s,"longitude":"-122.6"}' % (
        id_key.encode(), title, title, latitude)


# Answers no decoder should trust, by kind: each takes the envelope, list and id names.
HOSTILE_ANSWERS = {
    "deep": lambda key, item, id_key: b'{"%s":{"%s":[%s,%s%s]},"stat":"ok"}' % (
        key.encode(), item.encode(), hostile_record(id_key), b"[" * 1000, b"]" * 1000),
    "bad-utf8": lambda key, item, id_key: b'{"%s":{"%s":[%s]},"stat":"ok"}' % (
        key.encode(), item.encode(), hostile_record(id_key, title=b'"caf\xe9 \xff\xfe \xc3("')),
    "raw-nul": lambda key, item, id_key: b'{"%s":{"%s":[%s]},"stat":"ok"}' % (
        key.encode(), item.encode(), hostile_record(id_key, title=b'"a\x00b"')),
    "escaped-nul": lambda key, item, id_key: b'{"%s":{"%s":[%s]},"stat":"ok"}' % (
        key.encode(), item.encode(), hostile_record(id_key, title=b'"a\\u0000b\\u001b[2J"')),
    "long-number": lambda key, item, id_key: b'{"%s":{"total":%s,"pages":%s,"%s":[%s]},"stat":"ok"}' % (
        key.encode(), b"9" * 1000, b"9" * 1000, item.encode(), hostile_record(id_key, latitude=b"4" * 1000)),
}


def call_api(catalog, query, scenario=()):
    """Run one API call; returns the JSON object to send (ok or fail)."""
    try:
        method = query.get("method", "")
        handler = METHODS.get(method)
        if handler is None:
            raise ApiError(112, f'Method "{method}" not found')
        key = query.get("api_key", "")
        if not key or key == "bad":
            raise ApiError(100, "Invalid API Key (Key has invalid format)")
        if handler is method_photos_search:
            return handler(catalog, query, scenario)
        return handler(catalog, query)
    except ApiError as err:
        return {"stat": "fail", "code": err.code, "message": err.message}


def rewrite_image_urls(value, base):
    """Every URL on Flickr's static host moved to `base` (this server's /images/)."""
    if isinstance(value, str):
        return base + value[len(FLICKR_IMAGE_HOST):] if value.startswith(FLICKR_IMAGE_HOST) else value
    if isinstance(value, dict):
        return {k: rewrite_image_urls(v, base) for k, v in value.items()}
    if isinstance(value, list):
        return [rewrite_image_urls(v, base) for v in value]
    return value


# --------------------------------------------------------------------------
# HTTP layer
# --------------------------------------------------------------------------

class FlickrServer(loopback.LoopbackServer):
    """Threaded server holding the catalog, request log and scenario counters."""

    def __init__(self, port, catalog):
        super().__init__(port, FlickrHandler)
        self.catalog = catalog
        self.log_lock = threading.Lock()
        self.request_log = []
        self.counter_lock = threading.Lock()
        self.counters = {}
        self.in_flight = 0
        self.peak_in_flight = 0

    def enter(self):
        """One more API request being answered (under log_lock)."""
        with self.log_lock:
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)

    def leave(self):
        with self.log_lock:
            self.in_flight -= 1

    def take_ticket(self, kind, token):
        """1-based count of requests seen for (kind, token), thread-safe."""
        with self.counter_lock:
            key = (kind, token)
            self.counters[key] = self.counters.get(key, 0) + 1
            return self.counters[key]


class FlickrHandler(loopback.LoopbackHandler):
    server_version = "FlickrStub/1.0"

    # ---- entry point -----------------------------------------------------

    def do_GET(self):
        split = urllib.parse.urlsplit(self.path)
        path = split.path
        query = {k: v[0] for k, v in
                 urllib.parse.parse_qs(split.query, keep_blank_values=True).items()}

        if path == "/_requests":
            with self.server.log_lock:
                body = json.dumps(self.server.request_log)
            return self.send_body(200, "application/json", body)
        if path == "/_inflight":
            with self.server.log_lock:
                body = json.dumps({"now": self.server.in_flight, "peak": self.server.peak_in_flight})
            return self.send_body(200, "application/json", body)
        if path == "/_reset":
            with self.server.log_lock:
                self.server.request_log.clear()
                self.server.peak_in_flight = self.server.in_flight
            return self.send_body(200, "application/json", "[]")

        if path.startswith("/images/"):
            return self.send_image(path[len("/images/"):])

        with self.server.log_lock:
            self.server.request_log.append({"path": path, "query": query, "time": time.time()})

        suffix = next((s for s in ENDPOINT_SUFFIXES if path.endswith(s)), None)
        if suffix is None:
            return self.send_body(404, "text/html", self.html_page(404, "Not Found"))
        segments = [s for s in path[:-len(suffix)].split("/") if s]
        self.server.enter()
        try:
            self.run_scenario(segments, query, split.query)
        finally:
            self.server.leave()

    # ---- scenarios ---------------------------------------------------------

    def run_scenario(self, segments, query, raw_query):
        """Consume scenario segments left to right, then answer normally."""
        stringify = False
        applied = set()
        i = 0
        while i < len(segments):
            name, args = segments[i], segments[i + 1:]
            if name == "ok":
                i += 1
            elif name == "numbers-as-strings":
                stringify = True
                i += 1
            elif name in ("jsonp", "ignore-radius", "mixed-media"):
                applied.add(name)
                i += 1
            elif name == "fail105" and len(args) >= 2 and args[1].isdigit():
                if self.server.take_ticket("fail105", args[0]) <= int(args[1]):
                    body = {"stat": "fail", "code": 105, "message": "Service currently unavailable"}
                    return self.send_api(body, query, stringify)
                i += 3
            elif name == "search-fails-from-page" and len(args) >= 1 and args[0].isdigit():
                page = query.get("page", "1")
                if query.get("method") == "flickr.photos.search" and page.isdigit() and int(page) >= int(args[0]):
                    body = {"stat": "fail", "code": 10,
                            "message": "Sorry, the Flickr search API is not currently available."}
                    return self.send_api(body, query, stringify)
                i += 2
            elif name == "fail100":
                body = {"stat": "fail", "code": 100,
                        "message": "Invalid API Key (Key has invalid format)"}
                return self.send_api(body, query, stringify)
            elif name == "malformed":
                return self.send_body(200, "application/json", '{"places":{"total":')
            elif name == "html200":
                return self.send_body(200, "text/html",
                                      self.html_page(200, "Flickr is having a massage"))
            elif name == "huge" and len(args) >= 2 and args[0].isdigit() and args[1] in ("length", "close"):
                return self.send_huge(query, int(args[0]), args[1] == "length")
            elif name == "hostile" and len(args) >= 1 and args[0] in HOSTILE_ANSWERS:
                return self.send_hostile(query, args[0])
            elif name == "redirect-file":
                return self.send_redirect("file:///etc/passwd")
            elif name == "redirect":
                host = self.headers.get("Host") or f"{loopback.BIND_HOST}:{self.server.server_port}"
                rest = "/".join(args)
                target = f"http://{host}/{rest + '/' if rest else ''}services/rest/"
                return self.send_redirect(target + (f"?{raw_query}" if raw_query else ""))
            elif name == "slow" and len(args) >= 1 and float_value(args[0]) is not None:
                time.sleep(max(0.0, float_value(args[0])))
                i += 2
            elif name == "status" and len(args) >= 3 and args[0].isdigit() and args[2].isdigit():
                code, token, count = int(args[0]), args[1], int(args[2])
                if not 100 <= code <= 599:
                    return self.unknown_scenario()
                if self.server.take_ticket("status", token) <= count:
                    return self.send_status_error(code)
                i += 4
            elif name == "reset" and len(args) >= 2 and args[1].isdigit():
                token, count = args[0], int(args[1])
                if self.server.take_ticket("reset", token) <= count:
                    return self.abort_connection()
                i += 3
            else:
                return self.unknown_scenario()
        answer = call_api(self.server.catalog, query, applied)
        if self.server.catalog.images_folder():
            host = self.headers.get("Host") or f"{loopback.BIND_HOST}:{self.server.server_port}"
            answer = rewrite_image_urls(answer, f"http://{host}/images/")
        self.send_api(answer, query, stringify, jsonp="jsonp" in applied)

    # ---- response helpers ----------------------------------------------------

    def send_api(self, obj, query, stringify, jsonp=False):
        """Send an API answer as JSON, or JSONP unless nojsoncallback=1 (or always, `jsonp`)."""
        fmt = query.get("format", "")
        if fmt != "json":
            # We only speak JSON, so this error is always sent as JSON.
            obj = {"stat": "fail", "code": 111, "message": f'Format "{fmt}" not found'}
        if stringify:
            obj = stringify_numbers(obj)
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        if (query.get("nojsoncallback") == "1" and not jsonp) or fmt != "json":
            return self.send_body(200, "application/json", text)
        callback = query.get("jsoncallback") or "jsonFlickrApi"
        return self.send_body(200, "text/javascript", f"{callback}({text})")

    def send_huge(self, query, megabytes, with_length):
        """A well-formed answer of `megabytes` MB: the method's list padded with one record repeated."""
        key, item = listing_keys(query)
        record = json.dumps({"id" if key == "photos" else "place_id": "x" * 100, "title": "y" * 800}).encode()
        per_megabyte = (1 << 20) // (len(record) + 1)
        head = f'{{"{key}":{{"total":1,"{item}":['.encode()
        chunk = b",".join([record] * per_megabyte) + b","
        tail = record + b']},"stat":"ok"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if with_length:
            self.send_header("Content-Length", str(len(head) + len(chunk) * megabytes + len(tail)))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        # The client is expected to hang up once past its limit: that ends the answer here.
        try:
            self.wfile.write(head)
            for _ in range(megabytes):
                self.wfile.write(chunk)
            self.wfile.write(tail)
        except OSError:
            self.close_connection = True

    def send_hostile(self, query, kind):
        """One of HOSTILE_ANSWERS, shaped for the method asked."""
        key, item = listing_keys(query)
        data = HOSTILE_ANSWERS[kind](key, item, "id" if key == "photos" else "place_id")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_image(self, relative):
        """An image from the catalog's images folder; nothing outside it."""
        folder = self.server.catalog.images_folder()
        target = os.path.realpath(os.path.join(folder or "/nonexistent", urllib.parse.unquote(relative)))
        if not folder or not target.startswith(os.path.realpath(folder) + os.sep) or not os.path.isfile(target):
            return self.send_body(404, "text/html", self.html_page(404, "Not Found"))
        with open(target, "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "image/png" if target.endswith(".png") else "image/jpeg")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_body(self, code, content_type, text, extra_headers=()):
        """Send a complete response with Content-Length (keep-alive safe)."""
        data = text.encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        for name, value in extra_headers:
            self.send_header(name, value)
        # 1xx/204/304 must not carry a body.
        if code < 200 or code in (204, 304):
            data = b""
        else:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)

    def send_redirect(self, location):
        self.send_body(302, "text/html", self.html_page(302, "Found"),
                       [("Location", location)])

    def send_status_error(self, code):
        try:
            phrase = HTTPStatus(code).phrase
        except ValueError:
            phrase = "Error"
        self.send_body(code, "text/html", self.html_page(code, phrase),
                       [("Retry-After", "1")])

    def unknown_scenario(self):
        self.send_body(404, "text/html", self.html_page(404, "Unknown scenario"))

    @staticmethod
    def html_page(code, title):
        return (f"<!DOCTYPE html><html><head><title>{code} {title}</title></head>"
                f"<body><h1>{title}</h1><p>Flickr stub error page.</p></body></html>")


# --------------------------------------------------------------------------
# Command line (the loopback module runs the process)
# --------------------------------------------------------------------------

def main(argv):
    return loopback.main(argv, name="flickr_server", description="Local Flickr REST API stub.",
                         folder_flag="--catalog", folder_help="recorded catalog directory",
                         make_server=lambda port, folder: FlickrServer(port, Catalog(folder)),
                         self_test=self_test)


# --------------------------------------------------------------------------
# Self-test: starts the real script as a subprocess on a tiny catalog.
# --------------------------------------------------------------------------

def self_test():
    import tempfile
    import unittest
    import http.client
    import urllib.request
    import urllib.error

    def photo(pid, title, lat, lon, tags="", desc=""):
        return {"id": pid, "owner": "1@N01", "secret": "s", "server": "1", "farm": 1,
                "title": title, "ispublic": 1, "isfriend": 0, "isfamily": 0,
                "latitude": lat, "longitude": lon, "accuracy": "16",
                "tags": tags, "description": {"_content": desc}}

    def make_catalog(root):
        top = {"places": {"total": 2, "date_start": 1, "date_stop": 2,
                          "place_type": "locality", "place_type_id": 7,
                          "place": [
                              {"place_id": "PAR", "woeid": "615702", "latitude": "48.857",
                               "longitude": "2.341", "place_url": "/France/Paris",
                               "place_type": "locality", "place_type_id": "7",
                               "photo_count": "250", "_content": "Paris, Ile-de-France, France"},
                              {"place_id": "LON", "woeid": "44418", "latitude": 51.506,
                               "longitude": -0.127, "place_url": "/United+Kingdom/London",
                               "place_type": "locality", "place_type_id": 7,
                               "photo_count": 3, "_content": "London, England, United Kingdom"},
                          ]}, "stat": "ok"}
        with open(os.path.join(root, "top-places.json"), "w") as f:
            json.dump(top, f)
        # Paris: 250 photos over three recorded pages (100, 100, 50).
        paris = [photo(str(1000 + i), f"paris {i}", 48.8584 if i else 0, 2.2945 if i else 0,
                       tags="eiffel tower" if i % 10 == 1 else "street")
                 for i in range(250)]
        os.makedirs(os.path.join(root, "photos", "PAR"))
        for n in range(3):
            chunk = paris[n * 100:(n + 1) * 100]
            with open(os.path.join(root, "photos", "PAR", f"page-{n + 1}.json"), "w") as f:
                json.dump({"photos": {"page": n + 1, "pages": 3, "perpage": 100,
                                      "total": 250, "photo": chunk}, "stat": "ok"}, f)
        london = [photo("2000", "Big Ben", "51.5007", "-0.1246", desc="An EIFFEL-free clock"),
                  photo("2001", "Tower Bridge", "51.5055", "-0.0754"),
                  photo("2002", "Kew", "51.4787", "-0.2956", tags="gardens")]
        for record in london:
            record.update({"license": "4", "media": "photo", "pathalias": None,
                           "url_sq": f"https://live.staticflickr.com/1/{record['id']}_s_s.png"})
        london.append(dict(photo("2003", "Tower Bridge opening", "51.5055", "-0.0754", tags="bridge"),
                           media="video", license=0, pathalias="someone"))
        with open(os.path.join(root, "licenses.json"), "w") as f:
            json.dump({"licenses": {"license": [{"id": 0, "name": "All Rights Reserved", "url": ""},
                                                {"id": 4, "name": "Attribution License",
                                                 "url": "https://creativecommons.org/licenses/by/2.0/"}]},
                       "stat": "ok"}, f)
        os.makedirs(os.path.join(os.path.dirname(root), "images", "1"), exist_ok=True)
        with open(os.path.join(os.path.dirname(root), "images", "1", "2000_s_s.png"), "wb") as f:
            f.write(b"\x89PNG fake")
        os.makedirs(os.path.join(root, "photos", "LON"))
        with open(os.path.join(root, "photos", "LON", "page-1.json"), "w") as f:
            json.dump({"photos": {"page": 1, "pages": 1, "perpage": 100, "total": 4,
                                  "photo": london}, "stat": "ok"}, f)

    state = {}

    class ServerTests(unittest.TestCase):
        @classmethod
        def setUpClass(cls):
            state["tmp"] = tempfile.TemporaryDirectory()
            catalog = os.path.join(state["tmp"].name, "catalog")
            os.makedirs(catalog)
            make_catalog(catalog)
            cls.proc, cls.port = loopback.start_script(os.path.abspath(__file__), "--catalog", catalog)
            cls.base = f"http://127.0.0.1:{cls.port}"

        @classmethod
        def tearDownClass(cls):
            err = loopback.stop_script(cls.proc)
            state["tmp"].cleanup()
            assert err == "", f"unexpected stderr: {err!r}"

        # helpers
        def raw(self, prefix, **params):
            """(status, headers, body bytes) without following redirects."""
            params.setdefault("api_key", "k")
            params.setdefault("format", "json")
            params.setdefault("nojsoncallback", "1")
            params = {k: v for k, v in params.items() if v is not None}  # None = omit
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            conn.request("GET", f"{prefix}/services/rest/?{urllib.parse.urlencode(params)}")
            resp = conn.getresponse()
            body = resp.read()
            conn.close()
            return resp.status, resp.headers, body

        def api(self, prefix="", **params):
            status, headers, body = self.raw(prefix, **params)
            self.assertEqual(status, 200)
            self.assertEqual(headers["Content-Type"], "application/json")
            return json.loads(body)

        def search(self, prefix="", **params):
            return self.api(prefix, method="flickr.photos.search", **params)

        # normal protocol
        def test_bind_is_loopback_only(self):
            loopback.check_loopback_only(self, self.port)

        def test_api_key_errors(self):
            for key in ("", "bad"):
                r = self.api(method="flickr.places.getTopPlacesList", place_type_id="7",
                             api_key=key)
                self.assertEqual((r["stat"], r["code"]), ("fail", 100))
                self.assertEqual(r["message"], "Invalid API Key (Key has invalid format)")
            status, _, body = self.raw("", method="flickr.photos.search", place_id="PAR",
                                       api_key=None)
            self.assertEqual(json.loads(body)["code"], 100)

        def test_unknown_method_and_format(self):
            r = self.api(method="flickr.nope")
            self.assertEqual((r["code"], r["message"]), (112, 'Method "flickr.nope" not found'))
            r = self.api(method="flickr.places.find", query="x", format="xml")
            self.assertEqual((r["code"], r["message"]), (111, 'Format "xml" not found'))

        def test_jsonp(self):
            status, headers, body = self.raw("/ok", method="flickr.places.find", query="ile-de-france",
                                             nojsoncallback="0")
            self.assertEqual(headers["Content-Type"], "text/javascript")
            text = body.decode()
            self.assertTrue(text.startswith("jsonFlickrApi({") and text.endswith("})"))
            self.assertEqual(json.loads(text[len("jsonFlickrApi("):-1])["places"]["total"], 1)

        def test_top_places(self):
            r = self.api(method="flickr.places.getTopPlacesList", place_type_id="7")
            self.assertEqual(len(r["places"]["place"]), 2)
            r = self.api(method="flickr.places.getTopPlacesList", place_type_id="12")
            self.assertEqual((r["places"]["total"], r["places"]["place"]), (0, []))
            for bad in (None, "99", "x"):
                params = {} if bad is None else {"place_type_id": bad}
                r = self.api(method="flickr.places.getTopPlacesList", **params)
                self.assertEqual((r["stat"], r["code"]), ("fail", 2))

        def test_search_by_place_paginates(self):
            r = self.search(place_id="PAR")["photos"]
            self.assertEqual((r["page"], r["pages"], r["perpage"], r["total"]), (1, "3", 100, "250"))
            ids = []
            for page in (1, 2, 3, 4):
                r = self.search(place_id="PAR", per_page="70", page=str(page))["photos"]
                self.assertEqual((r["pages"], r["perpage"], r["page"]), ("4", 70, page))
                ids += [p["id"] for p in r["photo"]]
            self.assertEqual(ids, [str(1000 + i) for i in range(250)])
            r = self.search(place_id="PAR", page="9")["photos"]
            self.assertEqual((r["photo"], r["total"]), ([], "250"))
            r = self.search(place_id="PAR", per_page="9999")["photos"]
            self.assertEqual((r["perpage"], len(r["photo"])), (500, 250))
            r = self.search(place_id="PAR", has_geo="1")["photos"]
            self.assertEqual(r["total"], "249")

        def test_search_unknown_and_hostile_place(self):
            for pid in ("NOPE", "../../etc", ".."):
                r = self.search(place_id=pid)
                self.assertEqual((r["stat"], r["photos"]["total"], r["photos"]["pages"],
                                  r["photos"]["photo"]), ("ok", "0", "0", []))

        def test_parameterless_search(self):
            r = self.search()
            self.assertEqual((r["stat"], r["code"]), ("fail", 3))
            self.assertIn("Parameterless searches have been disabled", r["message"])

        def test_text_search(self):
            r = self.search(text="EIFFEL")["photos"]
            # 25 Paris tag matches + the London description match.
            self.assertEqual(r["total"], "26")
            r = self.search(text="eiffel", lat="51.5007", lon="-0.1246")["photos"]
            self.assertEqual([p["id"] for p in r["photo"]], ["2000"])
            r = self.search(text="tower", lat="51.5007", lon="-0.1246", radius="1")["photos"]
            self.assertEqual(r["total"], "0")  # Tower Bridge is ~3.4 km away
            r = self.search(text="tower", lat="51.5007", lon="-0.1246", radius="4", media="photos")["photos"]
            self.assertEqual([p["id"] for p in r["photo"]], ["2001"])
            r = self.search(text="garden")["photos"]
            self.assertEqual([p["id"] for p in r["photo"]], ["2002"])

        def test_places_find(self):
            r = self.api(method="flickr.places.find", query="ENGLAND")
            self.assertEqual(r["places"]["query"], "ENGLAND")
            self.assertEqual([p["place_id"] for p in r["places"]["place"]], ["LON"])
            self.assertEqual(r["places"]["total"], 1)

        def test_place_info(self):
            r = self.api(method="flickr.places.getInfo", place_id="PAR")
            self.assertEqual(r["stat"], "ok")
            self.assertEqual((r["place"]["place_id"], r["place"]["name"], r["place"]["woe_name"]),
                             ("PAR", "Paris, Ile-de-France, France", "Paris"))
            self.assertEqual((r["place"]["woeid"], r["place"]["place_url"]), ("615702", "/France/Paris"))
            self.assertNotIn("_content", r["place"])
            r = self.api(method="flickr.places.getInfo", woe_id="44418")
            self.assertEqual(r["place"]["place_id"], "LON")
            for params, code in (({"place_id": "NOPE"}, 2), ({"place_id": "../x"}, 2), ({}, 1)):
                r = self.api(method="flickr.places.getInfo", **params)
                self.assertEqual((r["stat"], r["code"]), ("fail", code))
            status, _, body = self.raw("/fail100", method="flickr.places.getInfo", place_id="PAR")
            self.assertEqual(json.loads(body)["code"], 100)

        def test_photo_info(self):
            r = self.api(method="flickr.photos.getInfo", photo_id="2001")
            self.assertEqual(r["stat"], "ok")
            photo = r["photo"]
            self.assertEqual((photo["id"], photo["title"]["_content"]), ("2001", "Tower Bridge"))
            self.assertEqual(photo["owner"]["nsid"], "1@N01")
            self.assertIn("taken", photo["dates"])
            self.assertIn("location", photo)
            self.assertEqual(photo["urls"]["url"][0]["type"], "photopage")
            self.assertFalse([k for k in photo if k.startswith("url_")])
            for params in ({"photo_id": "999999"}, {"photo_id": "../x"}, {}):
                r = self.api(method="flickr.photos.getInfo", **params)
                self.assertEqual((r["stat"], r["code"], r["message"]), ("fail", 1, "Photo not found"))

        # scenarios
        def test_fail100(self):
            r = self.api("/fail100", method="flickr.places.getTopPlacesList", place_type_id="7")
            self.assertEqual(r["code"], 100)

        def test_status(self):
            for _ in range(2):
                status, headers, body = self.raw("/status/503/tokA/2",
                                                 method="flickr.places.find", query="x")
                self.assertEqual((status, headers["Retry-After"]), (503, "1"))
                self.assertIn(b"<html", body)
            status, _, body = self.raw("/status/503/tokA/2", method="flickr.places.find",
                                       query="ile-de-france")
            self.assertEqual((status, json.loads(body)["places"]["total"]), (200, 1))
            status, _, _ = self.raw("/status/429/tokB/1", method="flickr.places.find", query="x")
            self.assertEqual(status, 429)

        def test_malformed_and_html(self):
            status, _, body = self.raw("/malformed", method="flickr.places.find", query="x")
            self.assertEqual((status, body), (200, b'{"places":{"total":'))
            status, headers, body = self.raw("/html200", method="flickr.places.find", query="x")
            self.assertEqual((status, headers["Content-Type"]), (200, "text/html"))
            self.assertIn(b"<html", body)

        def test_slow(self):
            start = time.monotonic()
            r = self.api("/slow/0.5", method="flickr.places.find", query="ile-de-france")
            self.assertGreaterEqual(time.monotonic() - start, 0.5)
            self.assertEqual(r["places"]["total"], 1)

        def test_reset(self):
            for _ in range(2):
                with self.assertRaises((ConnectionError, http.client.RemoteDisconnected,
                                        http.client.BadStatusLine)):
                    self.raw("/reset/tokR/2", method="flickr.places.find", query="x")
            r = self.api("/reset/tokR/2", method="flickr.places.find", query="ile-de-france")
            self.assertEqual(r["places"]["total"], 1)

        def test_redirects(self):
            status, headers, _ = self.raw("/redirect-file", method="flickr.places.find", query="x")
            self.assertEqual((status, headers["Location"]), (302, "file:///etc/passwd"))
            status, headers, _ = self.raw("/redirect/ok", method="flickr.places.find", query="x")
            self.assertEqual(status, 302)
            self.assertTrue(headers["Location"].startswith(
                f"http://127.0.0.1:{self.port}/ok/services/rest/?"))
            # urllib follows http redirects, like URLSession would.
            url = (f"{self.base}/redirect/numbers-as-strings/services/rest/?method=flickr."
                   f"places.find&query=london&api_key=k&format=json&nojsoncallback=1")
            with urllib.request.urlopen(url, timeout=10) as resp:
                r = json.loads(resp.read())
            self.assertEqual(r["places"]["total"], "1")

        def test_extras_media_and_sort(self):
            # Only the extras asked for come back; pathalias null stays null.
            r = self.search(place_id="LON")["photos"]["photo"]
            self.assertEqual(set(r[0]), BASE_FIELDS)
            r = self.search(place_id="LON", extras="license,path_alias,media,geo,url_sq")["photos"]["photo"]
            self.assertEqual((r[0]["license"], r[0]["pathalias"], r[0]["media"]), ("4", None, "photo"))
            self.assertIn("latitude", r[0])
            self.assertNotIn("description", r[0])
            # media=photos leaves the video out; without it (or /mixed-media) it is there.
            self.assertEqual(self.search(place_id="LON", media="photos")["photos"]["total"], "3")
            self.assertEqual(self.search(place_id="LON")["photos"]["total"], "4")
            self.assertEqual(self.search("/mixed-media", place_id="LON", media="photos")["photos"]["total"], "4")
            self.assertEqual(self.search(place_id="LON", media="videos")["photos"]["photo"][0]["id"], "2003")
            # A text search comes newest first unless sort=relevance.
            ids = [p["id"] for p in self.search(text="tower", media="photos")["photos"]["photo"]]
            self.assertEqual((ids[0], ids), ("2001", sorted(ids, key=int, reverse=True)))
            r = self.search(text="tower bridge", sort="relevance")["photos"]["photo"]
            self.assertEqual([p["id"] for p in r][:2], ["2003", "2001"])

        def test_radius_ignored_on_request(self):
            r = self.search(text="eiffel", lat="51.5007", lon="-0.1246", radius="1")["photos"]
            self.assertEqual(r["total"], "1")
            r = self.search("/ignore-radius", text="eiffel", lat="51.5007", lon="-0.1246", radius="1")["photos"]
            self.assertEqual(r["total"], "26")

        def test_licenses(self):
            r = self.api(method="flickr.photos.licenses.getInfo")
            self.assertEqual(r["licenses"]["license"][0], {"id": 0, "name": "All Rights Reserved", "url": ""})
            r = self.api("/numbers-as-strings", method="flickr.photos.licenses.getInfo")
            self.assertEqual(r["licenses"]["license"][1]["id"], "4")

        def test_jsonp_scenario_and_fail105(self):
            status, headers, body = self.raw("/jsonp", method="flickr.photos.licenses.getInfo")
            self.assertEqual((status, headers["Content-Type"]), (200, "text/javascript"))
            self.assertTrue(body.startswith(b"jsonFlickrApi({") and body.endswith(b"})"))
            for _ in range(2):
                r = self.api("/fail105/tok105/2", method="flickr.photos.licenses.getInfo")
                self.assertEqual((r["stat"], r["code"], r["message"]), ("fail", 105, "Service currently unavailable"))
            self.assertEqual(self.api("/fail105/tok105/2", method="flickr.photos.licenses.getInfo")["stat"], "ok")

        def test_huge_and_hostile_answers(self):
            for framing in ("length", "close"):
                r = self.api(f"/huge/2/{framing}", method="flickr.photos.search", place_id="LON")
                self.assertGreater(len(r["photos"]["photo"]), 2000)
            status, _, body = self.raw("/hostile/deep", method="flickr.places.getTopPlacesList")
            self.assertEqual(status, 200)
            self.assertIn(b"[" * 1000, body)
            for kind in ("bad-utf8", "raw-nul", "escaped-nul", "long-number"):
                status, _, body = self.raw(f"/hostile/{kind}", method="flickr.photos.search")
                self.assertEqual(status, 200)
                self.assertTrue(body.startswith(b'{"photos":{'))
            answer = json.loads(self.raw("/hostile/escaped-nul", method="flickr.places.find")[2])
            self.assertEqual(answer["places"]["place"][0]["title"], "a\x00b\x1b[2J")

        def test_images_served_from_the_catalog_side(self):
            r = self.search(place_id="LON", extras="url_sq")["photos"]["photo"]
            self.assertEqual(r[0]["url_sq"], f"http://127.0.0.1:{self.port}/images/1/2000_s_s.png")
            with urllib.request.urlopen(r[0]["url_sq"], timeout=10) as resp:
                self.assertEqual(resp.read(), b"\x89PNG fake")
            for bad in ("../catalog/licenses.json", "%2e%2e/catalog/licenses.json", "1/missing.png"):
                with self.assertRaises(urllib.error.HTTPError) as ctx:
                    urllib.request.urlopen(f"{self.base}/images/{bad}", timeout=10)
                self.assertEqual(ctx.exception.code, 404)

        def test_places_find_knows_more_than_the_top_places(self):
            r = self.api(method="flickr.places.find", query="Idaho")["places"]["place"]
            self.assertGreaterEqual(len(r), 3)
            self.assertEqual(r[0]["place_type"], "region")

        def test_numbers_as_strings(self):
            r = self.search("/numbers-as-strings", place_id="LON")
            photos = r["photos"]
            self.assertEqual((photos["page"], photos["perpage"]), ("1", "100"))
            self.assertEqual(photos["photo"][0]["farm"], "1")
            r = self.api("/numbers-as-strings", method="flickr.nope")
            self.assertEqual(r["code"], "112")

        def test_unknown_scenario_and_path(self):
            status, _, _ = self.raw("/nonsense", method="flickr.places.find", query="x")
            self.assertEqual(status, 404)
            with self.assertRaises(urllib.error.HTTPError) as ctx:
                urllib.request.urlopen(f"{self.base}/elsewhere", timeout=10)
            self.assertEqual(ctx.exception.code, 404)

        def test_zz_request_log(self):
            urllib.request.urlopen(f"{self.base}/_reset", timeout=10).read()
            self.raw("/ok", method="flickr.places.find", query="a b", api_key="")
            with urllib.request.urlopen(f"{self.base}/_requests", timeout=10) as resp:
                log = json.loads(resp.read())
            self.assertLess(abs(log[0].pop("time") - time.time()), 60)
            self.assertEqual(log, [{"path": "/ok/services/rest/",
                                    "query": {"method": "flickr.places.find", "query": "a b",
                                              "api_key": "", "format": "json",
                                              "nojsoncallback": "1"}}])

        def test_parallel_requests(self):
            results, elapsed = loopback.at_once(
                lambda: self.search("/slow/0.3", place_id="LON")["photos"]["total"], 20)
            self.assertEqual(results, ["4"] * 20)
            self.assertLess(elapsed, 3)

        def test_in_flight(self):
            urllib.request.urlopen(f"{self.base}/_reset", timeout=10).read()
            loopback.at_once(lambda: self.search("/slow/0.5", place_id="LON"), 4)
            with urllib.request.urlopen(f"{self.base}/_inflight", timeout=10) as resp:
                counts = json.loads(resp.read())
            self.assertEqual(counts["now"], 0)
            self.assertGreaterEqual(counts["peak"], 2)
            self.assertLessEqual(counts["peak"], 4)

    return loopback.run_self_test(ServerTests, os.path.abspath(__file__), "--catalog")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
