#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: names 100,000 random land points as `photomap import` does (country and division from the
# boundaries, then a city of both) and prints the time, the memory, and how many points the nearest-city
# rule puts in another country or division. Prints figures; not a test.
#   bench/places.sh
#   POINTS=10000 ROUNDS=1 bench/places.sh
#   NAMES=/tmp/names.tsv bench/places.sh     # also writes every point's place, to compare two builds
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$(dirname "$here")"
swift build --package-path bench -c release --product photomap-bench-places >/dev/null
bench/.build/release/photomap-bench-places --points "${POINTS:-100000}" --rounds "${ROUNDS:-5}" --seed "${SEED:-34}" \
    ${NAMES:+--names "$NAMES"}
