#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes N generated photo records with trips in them, as `photomap import --records` reads them (CSV):
a life at home in Ljubljana with a trip to one of a dozen European towns about every three weeks (two to
eight days), twelve photos a day an hour apart, one in ten without a location. Times are local ones, as a
camera writes them, from 2000-01-02. Deterministic for a seed, so runs compare; prints on standard error
how many trips it made: as many as `trips` with its defaults must find."""
import argparse
import csv
import random
import sys
from datetime import datetime, timedelta

HOME = (46.0511, 14.5051)
AWAY = [
    (43.7792, 11.2463),  # Florence
    (43.1122, 12.3888),  # Perugia
    (48.2085, 16.3721),  # Vienna
    (46.6103, 13.8558),  # Villach
    (45.8144, 15.9780),  # Zagreb
    (47.4984, 19.0404),  # Budapest
    (48.1374, 11.5755),  # Munich
    (41.8919, 12.5113),  # Rome
    (48.8534, 2.3488),  # Paris
    (40.4165, -3.7026),  # Madrid
    (51.5085, -0.1257),  # London
    (50.0880, 14.4208),  # Prague
]
PER_DAY = 12


def records(count, seed, trips):
    """The records; appends to `trips` the first day of each run of days away (each a trip: a run is never
    broken but by a day at home, and every day of it has located photos, as 12 photos a day nearly always
    include some)."""
    rng = random.Random(seed)
    start = datetime(2000, 1, 1, 8)
    day = 0
    left = 0
    spot = None  # None: at home
    for index in range(count):
        if index % PER_DAY == 0:
            day += 1
            was_away = spot is not None
            if left > 0:
                left -= 1
            elif rng.randrange(21) == 0:
                left = rng.randint(1, 7)
                spot = rng.choice(AWAY)
            else:
                spot = None
            if spot is not None and not was_away:
                trips.append(day)
        point = spot or HOME
        taken = start + timedelta(days=day, hours=index % PER_DAY)
        if rng.randrange(10) == 0:
            latitude = longitude = ""
        else:
            latitude = f"{point[0] + rng.uniform(-0.05, 0.05):.6f}"
            longitude = f"{point[1] + rng.uniform(-0.05, 0.05):.6f}"
        number = 1_000_000_000 + index
        yield (str(number), f"Photo {index}", taken.strftime("%Y-%m-%d %H:%M:%S"), latitude, longitude,
               f"http://127.0.0.1:9/{number}.jpg")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=49)
    arguments = parser.parse_args()
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["id", "title", "taken", "latitude", "longitude", "image"])
    trips = []
    writer.writerows(records(arguments.count, arguments.seed, trips))
    print(len(trips), file=sys.stderr)


if __name__ == "__main__":
    main()
