#!/usr/bin/env bash
# Benchmark: `photomap import --records` loading COUNTS generated records (bench/make_records.py; 100,000
# and 1,000,000) into a fresh catalog, on SQLite and, under scripts/with-postgres, on PostgreSQL; the
# search index follows, as import does. Beside it in the same run, the floor: the same CSV loaded by the
# database's own bulk loader with no checks, places or index (sqlite3 .import; psql \copy). Prints rows/s
# and the extrapolation to 10,000,000 (issue 48's goal: ≤ 15 minutes on PostGIS). Not a test.
#   bench/records.sh
#   COUNTS="100000" ENGINES=sqlite bench/records.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" sqlite3 postgresql-client
engines=${ENGINES:-sqlite postgresql}
if [[ " $engines " == *" postgresql "* && -z "${PHOTOMAP_TEST_POSTGRES:-}" ]]; then
    exec "$repo/scripts/with-postgres" env ENGINES="$engines" PHOTOMAP_BIN="$PHOTOMAP_BIN" "$0" "$@"
fi
report() { # label rows seconds
    awk -v l="$1" -v n="$2" -v s="$3" 'BEGIN {
        printf "%-44s %9d rows %8.1f s %9.0f rows/s  10M in %5.1f min\n", l, n, s, n / s, 1e7 / (n / s) / 60 }'
}
for count in ${COUNTS:-100000 1000000}; do
    csv="$work/records-$count.csv"
    python3 "$here/make_records.py" "$count" >"$csv"
    for engine in $engines; do
        if [[ $engine == sqlite ]]; then
            rm -rf "$work/cache" "$work/floor.sqlite"
            timed "$PHOTOMAP_BIN" --cache "$work/cache" import --records "$csv"
            report "photomap import --records (SQLite)" "$count" "$wall"
            timed sqlite3 "$work/floor.sqlite" ".import --csv $csv records"
            report "floor: sqlite3 .import" "$count" "$wall"
        else
            database=$(printf %s "$PHOTOMAP_TEST_POSTGRES" | sed "s#/postgres?#/records_bench?#")
            psql -q "$PHOTOMAP_TEST_POSTGRES" -c "DROP DATABASE IF EXISTS records_bench" -c "CREATE DATABASE records_bench"
            "$PHOTOMAP_BIN" --database "$database" db migrate >/dev/null
            timed "$PHOTOMAP_BIN" --database "$database" --cache "$work/cache-pg" import --records "$csv"
            report "photomap import --records (PostgreSQL)" "$count" "$wall"
            psql -q "$database" -c "CREATE TABLE floor (id text, title text, taken text, latitude text, longitude text, image text)"
            timed psql -q "$database" -c "\\copy floor FROM '$csv' WITH (FORMAT csv, HEADER true)"
            report "floor: psql \\copy" "$count" "$wall"
        fi
    done
done
