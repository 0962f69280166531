#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap import` of COUNT generated 12-megapixel JPEGs with EXIF GPS, beside vipsthumbnail
# (libvips' shrink-on-load) making the same two images of each (500 px, and a 75×75 centre crop) on as
# many processes as there are cores, and `exiftool -n` reading the same fields, in the same run (medians
# of ROUNDS). Then a second import of the unchanged files, SMALL small files imported twice (the second
# timed), and one 100-megapixel file alone (peak memory). Prints figures; not a test.
# The page cache cannot be dropped without privileges: every run reads the files from memory, after one
# untimed read of them all.
#   bench/import.sh                      # 1,000 photos, 3 rounds, 10,000 small files
#   COUNT=200 ROUNDS=1 SMALL=2000 bench/import.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
COUNT=${COUNT:-1000}
ROUNDS=${ROUNDS:-3}
SMALL=${SMALL:-10000}
cores=$(nproc)

source "$here/common.sh" libvips-tools libimage-exiftool-perl

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
photos="$work/photos"
say "making $COUNT photos of 4000x3000"
python3 "$here/make_import_photos.py" --count "$COUNT" --out "$photos"
du -sh "$photos" | awk '{ print "bench: photos on disk: " $1 }' >&2
cat "$photos"/* > /dev/null

import_walls=() import_rss=() vips_walls=() exif_walls=() again_walls=()
for round in $(seq "$ROUNDS"); do
    rm -rf "$work/cache"
    timed "$PHOTOMAP_BIN" --cache "$work/cache" import "$photos"
    import_walls+=("$wall") import_rss+=("$peak_mb")
    grep -Eq " 0 without a location(,|$)" "$work/err" && ! grep -q "not readable" "$work/err" || die "import did not locate every photo: $(cat "$work/err")"
    timed "$PHOTOMAP_BIN" --cache "$work/cache" import "$photos"
    again_walls+=("$wall")
    rm -rf "$work/vips" && mkdir "$work/vips"
    # The same two images per file: batches of 50 files, one process per core.
    timed bash -c 'ls "$1"/*.jpg | xargs -P "$2" -n 50 sh -c '"'"'
        vipsthumbnail --size 500 -o "$0/%s_m.jpg[Q=85]" "$@" &&
        vipsthumbnail --size 75x75 --smartcrop centre -o "$0/%s_sq.jpg[Q=85]" "$@"'"'"' "$3"' _ \
        "$photos" "$cores" "$work/vips"
    vips_walls+=("$wall")
    timed exiftool -n -q -T -GPSLatitude -GPSLatitudeRef -GPSLongitude -GPSLongitudeRef -DateTimeOriginal \
        -OffsetTimeOriginal -Orientation -ImageDescription -Artist -Copyright "$photos"
    exif_walls+=("$wall")
done
import_wall=$(printf '%s\n' "${import_walls[@]}" | median)
vips_wall=$(printf '%s\n' "${vips_walls[@]}" | median)
exif_wall=$(printf '%s\n' "${exif_walls[@]}" | median)
printf '\n%s photos of 12 MP, median of %s rounds (load %s)\n' "$COUNT" "$ROUNDS" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-44s %8.2f s  peak %s MB (rounds: %s)\n' "photomap import (both images, EXIF, catalog)" \
    "$import_wall" "$(printf '%s\n' "${import_rss[@]}" | sort -n | tail -1)" "${import_walls[*]}"
printf '  %-44s %8.2f s  (rounds: %s)\n' "vipsthumbnail, 500 px + 75x75, $cores processes" "$vips_wall" "${vips_walls[*]}"
printf '  %-44s %8.2f s  (rounds: %s)\n' "exiftool -n, the same fields" "$exif_wall" "${exif_walls[*]}"
printf '  %-44s %8.2f s  (rounds: %s)\n' "photomap import again, nothing changed" \
    "$(printf '%s\n' "${again_walls[@]}" | median)" "${again_walls[*]}"
awk -v p="$import_wall" -v v="$vips_wall" 'BEGIN { printf "  photomap / vipsthumbnail: %.2fx (goal <= 1.0x)\n", p / v }'

say "making $SMALL small photos"
rm -rf "$photos" "$work/cache"
python3 "$here/make_import_photos.py" --count "$SMALL" --width 320 --height 240 --out "$work/small"
"$PHOTOMAP_BIN" --cache "$work/cache" import "$work/small" 2> /dev/null
walls=()
for round in $(seq 5); do
    timed "$PHOTOMAP_BIN" --cache "$work/cache" import "$work/small"
    walls+=("$wall")
done
printf '  %-44s %8.2f s  (rounds: %s; goal <= 1 s)\n' "second import of $SMALL unchanged files" \
    "$(printf '%s\n' "${walls[@]}" | median)" "${walls[*]}"

rm -rf "$work/small" "$work/cache"
python3 "$here/make_import_photos.py" --count 1 --width 10000 --height 10000 --bases 1 --out "$work/big"
timed "$PHOTOMAP_BIN" --cache "$work/cache" import "$work/big"
printf '  %-44s %8.2f s  peak %s MB (goal <= 200 MB)\n' "one 100-megapixel photo" "$wall" "$peak_mb"
