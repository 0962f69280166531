#!/usr/bin/env bash
# Benchmark: `photomap export` of one place holding N generated photos (10,000 and 100,000 by default),
# cold (empty cache and site) and again (nothing changed). Prints wall time and peak memory; not a test.
#
#   bench/export.sh                          # N in 10000 100000, builds the release binary
#   COUNTS="10000" bench/export.sh
#   PHOTOMAP_BIN=/path/to/photomap bench/export.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
COUNTS=${COUNTS:-"10000 100000"}

source "$here/common.sh"

# run LABEL COMMAND...: one timed run, "LABEL wall-seconds peak-MB" on stdout.
run() {
    local label=$1
    shift
    timed "$@"
    printf '%-34s %8.1f %10s\n' "$label" "$wall" "$peak_mb"
}

printf '%-34s %8s %10s\n' "photomap export, one place" "wall s" "peak MB"
for n in $COUNTS; do
    dir="$work/n$n"
    # Photos scattered over ~0.3° (a city and its surroundings), each with a square and a medium image.
    python3 "$here/make_bench_catalog.py" --count "$n" --out "$dir" --spread 0.15 --with-medium 2>/dev/null
    ln -s "$dir/www" "$dir/images"  # where the embedded catalog's images are read from
    env=(env PHOTOMAP_FIXTURES="$dir/catalog" PHOTOMAP_CACHE="$dir/cache")
    run "N=$n cold (fetch, write all)" "${env[@]}" "$PHOTOMAP_BIN" export --out "$dir/site" --limit "$n"
    run "N=$n again (nothing changed)" "${env[@]}" "$PHOTOMAP_BIN" export --out "$dir/site" --limit "$n"
    pages=$(find "$dir/site" -name '*.html' | wc -l)
    tiles=$( (find "$dir/site/clusters" -name "*.js" 2>/dev/null || true) | wc -l)
    size=$(du -sm "$dir/site" | cut -f1)
    place_page=$(du -k "$dir/site/places/BENCH.html" | cut -f1)
    echo "  site: $pages pages, $tiles cluster tiles, $size MB; the place's page $place_page KB"
    # How the place's page behaves in a browser (scripts/install-browser-test-deps sets this up).
    if [ -x "$repo/.venv-browser/bin/python" ]; then
        "$repo/.venv-browser/bin/python" "$here/open_page.py" "$dir/site/places/BENCH.html"
    fi
    rm -rf "$dir"
done
