#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap geotag` of COUNT imported photos without GPS against a track of POINTS fixes (no
# image read), beside `exiftool -geotag` with the same rules on the same files (which rewrites them) and
# exiftool reading the photos' times alone (-n -p, read-only); then geotag again with nothing to move.
# Wall time and peak memory of each, the median of ROUNDS rounds (photomap's geotag each time on the
# catalog as the import left it; EXIFTOOL_ROUNDS for exiftool's, which take minutes). Prints figures; not a test.
#   bench/geotag.sh                        # 10,000 photos, 100,000 fixes, 3 rounds
#   COUNT=1000 POINTS=10000 ROUNDS=5 EXIFTOOL_ROUNDS=1 bench/geotag.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
COUNT=${COUNT:-10000}
POINTS=${POINTS:-100000}
ROUNDS=${ROUNDS:-3}
EXIFTOOL_ROUNDS=${EXIFTOOL_ROUNDS:-$ROUNDS}

source "$here/common.sh" libvips-tools libimage-exiftool-perl

say "making $COUNT photos and a track of $POINTS fixes"
python3 "$here/make_geotag_input.py" --count "$COUNT" --points "$POINTS" --out "$work"
cat "$work"/photos/* "$work/track.gpx" > /dev/null
timed "$PHOTOMAP_BIN" --cache "$work/cache" import "$work/photos"
say "import (not compared): ${wall} s"

# median LIST...: the middle value (the lower middle of an even count).
# The catalog and index as the import left them, put back before each round of geotag.
cp "$work/cache/local-catalog.sqlite" "$work/catalog.kept"
cp "$work/cache/index.sqlite" "$work/index.kept"
walls=() mbs=() agains=()
for round in $(seq "$ROUNDS"); do
    rm -f "$work"/cache/*.sqlite-wal "$work"/cache/*.sqlite-shm
    cp "$work/catalog.kept" "$work/cache/local-catalog.sqlite"
    cp "$work/index.kept" "$work/cache/index.sqlite"
    timed "$PHOTOMAP_BIN" --cache "$work/cache" geotag --gpx "$work/track.gpx"
    walls+=("$wall") mbs+=("$peak_mb")
    say "round $round: ${wall} s, ${peak_mb} MiB: $(cat "$work/err")"
    timed "$PHOTOMAP_BIN" --cache "$work/cache" geotag --gpx "$work/track.gpx"
    agains+=("$wall")
done
geotag_wall=$(median "${walls[@]}") geotag_mb=$(median "${mbs[@]}") again_wall=$(median "${agains[@]}")
walls=() mbs=() reads=()
for round in $(seq "$EXIFTOOL_ROUNDS"); do
    timed exiftool -q -q -overwrite_original -geotag "$work/track.gpx" '-Geotime<DateTimeOriginal' \
        '-Geotime<SubSecDateTimeOriginal' "$work/photos"
    walls+=("$wall") mbs+=("$peak_mb")
    timed exiftool -n -q -p '$DateTimeOriginal$OffsetTimeOriginal' "$work/photos"
    reads+=("$wall")
    say "exiftool round $round: -geotag ${walls[-1]} s, -n -p ${wall} s"
done
exiftool_wall=$(median "${walls[@]}") exiftool_mb=$(median "${mbs[@]}") read_wall=$(median "${reads[@]}")

say "medians of $ROUNDS rounds (exiftool: $EXIFTOOL_ROUNDS)"
printf '%-44s %10s %10s\n' "" "wall s" "peak MiB"
printf '%-44s %10s %10s\n' "photomap geotag" "$geotag_wall" "$geotag_mb"
printf '%-44s %10s %10s\n' "photomap geotag again (nothing moves)" "$again_wall" ""
printf '%-44s %10s %10s\n' "exiftool -geotag (writes the files)" "$exiftool_wall" "$exiftool_mb"
printf '%-44s %10s %10s\n' "exiftool -n -p (reads the times only)" "$read_wall" ""
awk -v a="$geotag_wall" -v b="$exiftool_wall" -v c="$read_wall" \
    'BEGIN { printf "photomap / exiftool -geotag: %.3f; photomap / exiftool read-only: %.3f\n", a / b, a / c }'
