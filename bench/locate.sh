#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap locate --sidecars write` of COUNT imported photos (every photo without a location
# put at one point, an XMP sidecar written beside each), then again elsewhere (each sidecar read, merged
# and replaced); beside exiftool writing the same GPS into the same sidecars (`exiftool -XMP:GPSLatitude=…
# -XMP:GPSLongitude=…`, which reads, merges and rewrites each). Wall time and peak memory, the median of
# ROUNDS rounds (photomap's on the catalog as the import left it; EXIFTOOL_ROUNDS for exiftool's). Prints
# figures; not a test.
#   bench/locate.sh                        # 10,000 photos, 3 rounds
#   COUNT=1000 ROUNDS=5 EXIFTOOL_ROUNDS=1 bench/locate.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
COUNT=${COUNT:-10000}
ROUNDS=${ROUNDS:-3}
EXIFTOOL_ROUNDS=${EXIFTOOL_ROUNDS:-$ROUNDS}

source "$here/common.sh" libvips-tools libimage-exiftool-perl

say "making $COUNT photos without GPS"
python3 "$here/make_geotag_input.py" --count "$COUNT" --points 2 --out "$work"
timed "$PHOTOMAP_BIN" --cache "$work/cache" import "$work/photos"
say "import (not compared): ${wall} s"

# median LIST...: the middle value (the lower middle of an even count).
cp "$work/cache/local-catalog.sqlite" "$work/catalog.kept"
cp "$work/cache/index.sqlite" "$work/index.kept"
firsts=() mbs=() merges=()
for round in $(seq "$ROUNDS"); do
    rm -f "$work"/cache/*.sqlite-wal "$work"/cache/*.sqlite-shm
    cp "$work/catalog.kept" "$work/cache/local-catalog.sqlite"
    cp "$work/index.kept" "$work/cache/index.sqlite"
    find "$work/photos" -name '*.xmp' -delete
    timed "$PHOTOMAP_BIN" --cache "$work/cache" locate --without-location --at 46.3625,14.0936 --sidecars write
    firsts+=("$wall") mbs+=("$peak_mb")
    # The same photos (now at Bled, by hand) moved again: every sidecar there is read and merged.
    ids=$(sqlite3 "$work/cache/local-catalog.sqlite" "SELECT id FROM photos" | tr '\n' ' ')
    # shellcheck disable=SC2086
    timed "$PHOTOMAP_BIN" --cache "$work/cache" locate $ids --at -33.8568,151.2153 --sidecars write
    merges+=("$wall")
    say "round $round: new sidecars ${firsts[-1]} s (${peak_mb} MiB), merged ${wall} s"
done
[[ $(find "$work/photos" -name '*.xmp' | wc -l) -eq $COUNT ]] || die "expected $COUNT sidecars"
first_wall=$(median "${firsts[@]}") first_mb=$(median "${mbs[@]}") merge_wall=$(median "${merges[@]}")
walls=()
for round in $(seq "$EXIFTOOL_ROUNDS"); do
    timed exiftool -q -q -overwrite_original -XMP:GPSLatitude=46.3625 -XMP:GPSLongitude=14.0936 -ext xmp \
        "$work/photos"
    walls+=("$wall")
    say "exiftool round $round: ${wall} s"
done
exiftool_wall=$(median "${walls[@]}")

say "medians of $ROUNDS rounds (exiftool: $EXIFTOOL_ROUNDS), $COUNT photos"
printf '%-52s %10s %10s\n' "" "wall s" "peak MiB"
printf '%-52s %10s %10s\n' "photomap locate --sidecars write (new sidecars)" "$first_wall" "$first_mb"
printf '%-52s %10s %10s\n' "photomap locate --sidecars write (merged into them)" "$merge_wall" ""
printf '%-52s %10s %10s\n' "exiftool -XMP:GPSLatitude= -XMP:GPSLongitude= (them)" "$exiftool_wall" ""
awk -v a="$merge_wall" -v b="$exiftool_wall" 'BEGIN { printf "photomap merge / exiftool: %.3f\n", a / b }'
