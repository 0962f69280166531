#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap photos --format F` of one place holding N generated photos (10,000 and 100,000
# by default), each open format written to a file. Prints wall time, peak memory (RSS) and the output's
# size; beside them, in the same run, jq reading the GeoJSON (a reader that holds the whole document)
# and photomap's own table (which holds every row before it prints). Not a test.
#
#   bench/formats.sh                          # N in 10000 100000, builds the release binary
#   COUNTS="100000" bench/formats.sh
#   PHOTOMAP_BIN=/path/to/photomap bench/formats.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
COUNTS=${COUNTS:-"10000 100000"}

source "$here/common.sh" jq

# run LABEL OUTPUT COMMAND...: one timed run, "LABEL wall-seconds peak-MB output-MB" on stdout.
run() {
    local label=$1 output=$2
    shift 2
    timed "$@"
    local size=0
    [ -f "$output" ] && size=$(stat -c %s "$output")
    printf '%-40s %8.2f %9s %10.1f\n' "$label" "$wall" "$peak_mb" "$(awk -v b="$size" 'BEGIN { print b / 1048576 }')"
}

printf '%-40s %8s %9s %10s\n' "photos --place BENCH --limit N" "wall s" "peak MB" "output MB"
for n in $COUNTS; do
    dir="$work/n$n"
    python3 "$here/make_bench_catalog.py" --count "$n" --out "$dir" --spread 0.15 >/dev/null 2>&1
    env=(env PHOTOMAP_FIXTURES="$dir/catalog" PHOTOMAP_CACHE="$dir/cache")
    for format in json geojson kml gpx csv; do
        run "N=$n --format $format --output" "$dir/out.$format" \
            "${env[@]}" "$PHOTOMAP_BIN" photos --place BENCH --limit "$n" --format "$format" --output "$dir/out.$format"
    done
    run "N=$n --format geojson > /dev/null" /dev/null \
        "${env[@]}" "$PHOTOMAP_BIN" photos --place BENCH --limit "$n" --format geojson
    run "N=$n table (holds every row)" "$work/stdout" "${env[@]}" "$PHOTOMAP_BIN" photos --place BENCH --limit "$n"
    run "N=$n baseline: jq -c . out.geojson" "$dir/out.geojson" jq -c . "$dir/out.geojson"
    rm -rf "$dir"
done
