#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: the exported map of everything (issue 48 item 4) over N generated records (default 100,000,
# bench/make_records.py) loaded by `import --records` into SQLite: the export's wall time and peak memory,
# its map's files (the last zoom made, tiles and bytes per zoom, map.html's size), then in headless
# Chromium the medians of ROUNDS fresh opens of map.html from file:// (first markers drawn, one zoom-in)
# beside, in the same run, `serve --source local`'s /map over the same catalog (its tiles from the
# database). Goal: the exported map opens in under a second from disk. Prints figures; not a test.
# Every record's image is one small JPEG (the photos' images are not what is measured).
#   bench/world-map-export.sh                       # N=100000, builds the release binary
#   N=20000 ROUNDS=3 PHOTOMAP_BIN=.build/debug/photomap bench/world-map-export.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh"
count=${N:-100000}
export ROUNDS=${ROUNDS:-5}
python="$repo/.venv-browser/bin/python"
[[ -x $python ]] || die "no browser venv: run scripts/install-browser-test-deps"

cd "$repo"  # the gazetteer is found from the working folder
# Every record's image is one small JPEG on disk: the export makes each photo's square and medium image
# from it as from a file of the user's (an unreachable URL would cost each image a failing fetch).
python3 "$here/make_import_photos.py" --count 1 --width 64 --height 48 --out "$work/image" >/dev/null
python3 "$here/make_records.py" "$count" | sed "s#http://127.0.0.1:9/[0-9]*\.jpg#$work/image/IMG_00000.jpg#" \
    >"$work/records.csv"
state=(--cache "$work/cache")
timed "$PHOTOMAP_BIN" "${state[@]}" import --records "$work/records.csv"
printf '%-44s %8.1f s %8s MB\n' "import --records, $count records" "$wall" "$peak_mb"
timed "$PHOTOMAP_BIN" "${state[@]}" --source local export --out "$work/site"
printf '%-44s %8.1f s %8s MB\n' "export (cold), map.html among the pages" "$wall" "$peak_mb"
grep -o 'map of everything: .*' "$work/err" || die "the export wrote no map of everything"
timed "$PHOTOMAP_BIN" "${state[@]}" --source local export --out "$work/site"
printf '%-44s %8.1f s %8s MB\n' "export again, nothing changed" "$wall" "$peak_mb"

echo "  map files: map.html $(du -k "$work/site/map.html" | cut -f1) kB; per zoom: tiles, kB, largest tile kB"
for zoom in $(ls "$work/site/map/tiles" | sort -n); do
    folder="$work/site/map/tiles/$zoom"
    tiles=$(find "$folder" -name '*.js' | wc -l)
    bytes=$(find "$folder" -name '*.js' -printf '%s\n' | awk '{ s += $1; if ($1 > m) m = $1 } END { printf "%.0f %.1f", s / 1024, m / 1024 }')
    printf '    zoom %2d %7d tiles %s\n' "$zoom" "$tiles" "$bytes"
done
echo "    list files: $(find "$work/site/map/lists" -name '*.js' | wc -l), $(du -sk "$work/site/map/lists" | cut -f1) kB"
# Which tiles of the zooms past the page's bitmaps exist: a file a zoom, loaded when it is first shown.
[[ ! -d $work/site/map/occupied ]] ||
    echo "    occupied files: $(find "$work/site/map/occupied" -name '*.js' | wc -l), $(du -sk "$work/site/map/occupied" | cut -f1) kB"

port=$(free_port)
"$PHOTOMAP_BIN" "${state[@]}" --source local serve --listen "127.0.0.1:$port" 2>"$work/serve.err" &
PIDS+=($!)
for _ in $(seq 100); do grep -q serving "$work/serve.err" && break; sleep 0.1; done
"$python" "$here/open_world_map.py" "export=file://$work/site/map.html" "served=http://127.0.0.1:$port/map"
