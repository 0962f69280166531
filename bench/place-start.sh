#!/usr/bin/env bash
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
source "$here/common.sh"
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

# One photo of Munich for import, one without a place and a track through Arezzo for geotag.
printf 'id,title,taken,latitude,longitude,image\nm1,Marienplatz,2024-05-01T10:00:00Z,48.1374,11.5755,\n' \
    >"$work/located.csv"
printf 'id,title,taken,latitude,longitude,image\ng1,Piazza Grande,2024-05-02T10:00:00Z,,,\n' >"$work/unlocated.csv"
cat >"$work/track.gpx" <<'GPX'
<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
<trkpt lat="43.4633" lon="11.8796"><time>2024-05-02T09:59:00Z</time></trkpt>
<trkpt lat="43.4636" lon="11.8800"><time>2024-05-02T10:01:00Z</time></trkpt>
</trkseg></trk></gpx>
GPX

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# run_case BINARY SOURCES(0|1) COMMAND: the median wall and peak of COMMAND over ROUNDS fresh caches.
run_case() {
    local binary=$1 sources=$2 command=$3 walls=() mbs=() round
    for round in $(seq "$ROUNDS"); do
        rm -rf "$work/cache"
        if [[ $command == geotag ]]; then
            PHOTOMAP_PLACES_FROM_SOURCES=$sources "$binary" --cache "$work/cache" import --records \
                "$work/unlocated.csv" >/dev/null 2>&1
            timed env PHOTOMAP_PLACES_FROM_SOURCES=$sources "$binary" --cache "$work/cache" geotag \
                --gpx "$work/track.gpx"
        else
            timed env PHOTOMAP_PLACES_FROM_SOURCES=$sources "$binary" --cache "$work/cache" import --records \
                "$work/located.csv"
        fi
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
