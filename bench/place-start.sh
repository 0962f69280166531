#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: what naming places costs a start. A one-record `photomap import --records` (one located
# photo, so the places are loaded) and a `geotag` that places one photo, each in a fresh cache, timed with
# the places mapped from the prebuilt Fixtures/gazetteer/places.bin and, beside it in the same run, built
# from the gazetteer's TSV files as every start did before (PHOTOMAP_PLACES_FROM_SOURCES=1, a benchmark
# hook LocalPlaces honours). Wall time and peak RSS, medians of ROUNDS rounds, for the release binary and,
# when built, the debug one (DEBUG_BIN; `swift build --product photomap`). Prints figures; not a test.
#   bench/place-start.sh
#   ROUNDS=9 DEBUG_BIN=none bench/place-start.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
ROUNDS=${ROUNDS:-5}
source "$here/common.sh" libvips-tools
# The gazetteer is found from the working folder.
cd "$repo"
places=$repo/Fixtures/gazetteer/places.bin
if [[ ! -f $places ]]; then
    say "making $places (photomap-fixture-images)"
    swift build -c release --product photomap-fixture-images >/dev/null
    .build/release/photomap-fixture-images >/dev/null
fi
DEBUG_BIN=${DEBUG_BIN:-$repo/.build/debug/photomap}
binaries=("release:$PHOTOMAP_BIN")
[[ -x $DEBUG_BIN ]] && binaries+=("debug:$DEBUG_BIN")

# One record of Munich for import; for geotag one photo without GPS and a track through its time
# (bench/make_geotag_input.py: Slovenia).
printf 'id,title,taken,latitude,longitude,image\nm1,Marienplatz,2024-05-01 10:00:00,48.1374,11.5755,m1.jpg\n' \
    >"$work/located.csv"
python3 "$here/make_geotag_input.py" --count 1 --points 20000 --out "$work" >/dev/null

# run_case BINARY SOURCES(0|1) COMMAND: the median wall and peak of COMMAND over ROUNDS fresh caches.
run_case() {
    local binary=$1 sources=$2 command=$3 walls=() mbs=() round
    for round in $(seq "$ROUNDS"); do
        rm -rf "$work/cache"
        if [[ $command == geotag ]]; then
            "$binary" --cache "$work/cache" import "$work/photos" >/dev/null 2>&1
            timed env PHOTOMAP_PLACES_FROM_SOURCES=$sources "$binary" --cache "$work/cache" geotag \
                --gpx "$work/track.gpx"
        else
            timed env PHOTOMAP_PLACES_FROM_SOURCES=$sources "$binary" --cache "$work/cache" import --records \
                "$work/located.csv"
        fi
        grep -q '1 located' "$work/err" || die "$command placed nothing: $(cat "$work/err")"
        grep -q 'places.bin' "$work/err" && die "$binary warned about places.bin: $(cat "$work/err")"
        walls+=("$wall") mbs+=("$peak_mb")
    done
    case_wall=$(median "${walls[@]}") case_mb=$(median "${mbs[@]}")
}

say "medians of $ROUNDS rounds; places mapped from $(du -h "$places" | cut -f1) $places"
printf '%-30s %12s %12s %12s %12s %8s\n' "" "TSV wall s" "mapped s" "TSV MiB" "mapped MiB" "ratio"
for entry in "${binaries[@]}"; do
    label=${entry%%:*} binary=${entry#*:}
    for command in import geotag; do
        run_case "$binary" 1 "$command"
        tsv_wall=$case_wall tsv_mb=$case_mb
        run_case "$binary" 0 "$command"
        printf '%-30s %12s %12s %12s %12s %8s\n' "$label $command (one photo)" "$tsv_wall" "$case_wall" \
            "$tsv_mb" "$case_mb" "$(awk -v a="$tsv_wall" -v b="$case_wall" 'BEGIN { printf "%.1f×", a / b }')"
    done
done
