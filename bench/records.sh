#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap import --records` loading COUNTS generated records (bench/make_records.py) into a
# fresh catalog, ROUNDS times each (the median printed), on SQLite and, under scripts/with-postgres, on
# PostgreSQL: the map's aggregates kept and the search index following, as import does; then the same
# file loaded again (nothing changes). Beside it in the same run:
# - a baseline: BASELINE_BIN, another photomap (say the commit before a change), over BASELINE_COUNT
#   records (default 20,000: an old one may be slow), labelled BASELINE_LABEL (default "before");
# - the floor: the same CSV loaded by the database's own bulk loader with no checks, places, map or index
#   (sqlite3 .import; psql \copy).
# Prints rows/s and what they make of 10,000,000 (issue 48's goal: ≤ 15 minutes on PostGIS). Not a test.
#   bench/records.sh
#   COUNTS="100000" ROUNDS=1 ENGINES=sqlite bench/records.sh
#   BASELINE_BIN=/path/to/old/photomap COUNTS="100000 1000000" bench/records.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" sqlite3 postgresql-client
engines=${ENGINES:-sqlite postgresql}
if [[ " $engines " == *" postgresql "* && -z "${PHOTOMAP_TEST_POSTGRES:-}" ]]; then
    # A server sized for a load, as bench/world-map.sh's (scripts/postgres reads these).
    export PHOTOMAP_POSTGRES_OPTIONS=${PHOTOMAP_POSTGRES_OPTIONS:-"-c shared_buffers=1GB -c max_wal_size=8GB -c checkpoint_timeout=30min"}
    exec "$repo/scripts/with-postgres" env ENGINES="$engines" PHOTOMAP_BIN="$PHOTOMAP_BIN" "$0" "$@"
fi
# The gazetteer is found from the working folder (a baseline binary may live anywhere).
cd "$repo"
rounds=${ROUNDS:-3}
report() { # label rows seconds...
    local label=$1 rows=$2
    shift 2
    printf '%s\n' "$@" | sort -g | awk -v l="$label" -v n="$rows" '{ v[NR] = $1 } END {
        s = v[int((NR + 1) / 2)]
        printf "%-46s %9d rows %8.1f s %9.0f rows/s  10M in %6.1f min  (median of %d)\n", l, n, s, n / s, 1e7 / (n / s) / 60, NR }'
}
# load BINARY CSV ENGINE: a fresh catalog, the file loaded into it (sets `wall`); AGAIN=1 loads it twice and
# times the second.
load() {
    local binary=$1 csv=$2 engine=$3 state
    if [[ $engine == sqlite ]]; then
        rm -rf "$work/cache"
        state=(--cache "$work/cache")
    else
        psql -q "$PHOTOMAP_TEST_POSTGRES" -c "DROP DATABASE IF EXISTS records_bench" \
            -c "CREATE DATABASE records_bench TEMPLATE photomap_template"
        state=(--database "$database" --cache "$work/cache-pg")
        "$binary" "${state[@]}" db migrate >/dev/null
    fi
    timed "$binary" "${state[@]}" import --records "$csv"
    if [[ -n ${AGAIN:-} ]]; then timed "$binary" "${state[@]}" import --records "$csv"; fi
}
database=$(printf %s "${PHOTOMAP_TEST_POSTGRES:-}" | sed "s#/postgres?#/records_bench?#")
for count in ${COUNTS:-100000 1000000}; do
    csv="$work/records-$count.csv"
    python3 "$here/make_records.py" "$count" >"$csv"
    for engine in $engines; do
        name=$([[ $engine == sqlite ]] && echo SQLite || echo PostgreSQL)
        walls=()
        for _ in $(seq "$rounds"); do
            load "$PHOTOMAP_BIN" "$csv" "$engine"
            walls+=("$wall")
        done
        report "import --records ($name)" "$count" "${walls[@]}"
        AGAIN=1 load "$PHOTOMAP_BIN" "$csv" "$engine"
        report "  the same file again ($name)" "$count" "$wall"
        if [[ -n ${BASELINE_BIN:-} ]]; then
            base=${BASELINE_COUNT:-20000}
            head -n $((base + 1)) "$csv" >"$work/baseline.csv"
            walls=()
            for _ in $(seq "$rounds"); do
                load "$BASELINE_BIN" "$work/baseline.csv" "$engine"
                walls+=("$wall")
            done
            report "  ${BASELINE_LABEL:-before} ($name)" "$base" "${walls[@]}"
        fi
        if [[ $engine == sqlite ]]; then
            rm -f "$work/floor.sqlite"
            timed sqlite3 "$work/floor.sqlite" ".import --csv $csv records"
            report "  floor: sqlite3 .import" "$count" "$wall"
        else
            psql -q "$database" -c "CREATE TABLE floor (id text, title text, taken text, latitude text, longitude text, image text)"
            timed psql -q "$database" -c "\\copy floor FROM '$csv' WITH (FORMAT csv, HEADER true)"
            report "  floor: psql \\copy" "$count" "$wall"
        fi
    done
done
