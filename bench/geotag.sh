#!/usr/bin/env bash
# Benchmark: `photomap geotag` of COUNT imported photos without GPS against a track of POINTS fixes (no
# image read), beside `exiftool -geotag` with the same rules on the same files (which rewrites them) and
# exiftool reading the photos' times alone (-n -p, read-only); then geotag again with nothing to move.
# Wall time and peak memory of each. Prints figures; not a test.
#   bench/geotag.sh                        # 10,000 photos, 100,000 fixes
#   COUNT=1000 POINTS=10000 bench/geotag.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
COUNT=${COUNT:-10000}
POINTS=${POINTS:-100000}

source "$here/common.sh" libvips-tools libimage-exiftool-perl

say "making $COUNT photos and a track of $POINTS fixes"
python3 "$here/make_geotag_input.py" --count "$COUNT" --points "$POINTS" --out "$work"
cat "$work"/photos/* "$work/track.gpx" > /dev/null
timed "$PHOTOMAP_BIN" --cache "$work/cache" import "$work/photos"
say "import (not compared): ${wall} s"

timed "$PHOTOMAP_BIN" --cache "$work/cache" geotag --gpx "$work/track.gpx"
geotag_wall=$wall geotag_mb=$peak_mb
say "$(cat "$work/err")"
timed "$PHOTOMAP_BIN" --cache "$work/cache" geotag --gpx "$work/track.gpx"
again_wall=$wall
timed exiftool -q -q -overwrite_original -geotag "$work/track.gpx" '-Geotime<DateTimeOriginal' \
    '-Geotime<SubSecDateTimeOriginal' "$work/photos"
exiftool_wall=$wall exiftool_mb=$peak_mb
timed exiftool -n -q -p '$DateTimeOriginal$OffsetTimeOriginal' "$work/photos"
read_wall=$wall

printf '%-44s %10s %10s\n' "" "wall s" "peak MB"
printf '%-44s %10s %10s\n' "photomap geotag" "$geotag_wall" "$geotag_mb"
printf '%-44s %10s %10s\n' "photomap geotag again (nothing moves)" "$again_wall" ""
printf '%-44s %10s %10s\n' "exiftool -geotag (writes the files)" "$exiftool_wall" "$exiftool_mb"
printf '%-44s %10s %10s\n' "exiftool -n -p (reads the times only)" "$read_wall" ""
awk -v a="$geotag_wall" -v b="$exiftool_wall" -v c="$read_wall" \
    'BEGIN { printf "photomap / exiftool -geotag: %.3f; photomap / exiftool read-only: %.3f\n", a / b, a / c }'
