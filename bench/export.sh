#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap export` of one place holding N generated photos (10,000 and 100,000 by default):
# cold (empty cache and site), again with nothing changed, and again with one photo's title changed
# (its page and its place's page rewritten). Prints wall time and peak memory with issue 10's target
# beside each figure (medians of ROUNDS runs but the cold one), and two floors measured in the same
# run: listing the photos alone (`photos --json`, which an export must do too) and `find` reading
# every file's inode, size and time (what any check of an unchanged site pays at least). Not a test.
#
#   bench/export.sh                          # N in 10000 100000, builds the release binary
#   COUNTS="10000" ROUNDS=5 bench/export.sh
#   PHOTOMAP_BIN=/path/to/photomap bench/export.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
COUNTS=${COUNTS:-"10000 100000"}
ROUNDS=${ROUNDS:-3}

source "$here/common.sh"

# median VALUES…: the middle value (the lower middle of an even count).
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# measure LABEL TARGET PREPARE COMMAND…: ROUNDS timed runs (PREPARE, a shell function, runs untimed
# before each); prints the medians of wall time and peak memory beside the target.
measure() {
    local label=$1 target=$2 prepare=$3
    shift 3
    local walls=() peaks=()
    for _ in $(seq "$ROUNDS"); do
        $prepare
        timed "$@"
        walls+=("$wall")
        peaks+=("$peak_mb")
    done
    printf '%-40s %8.2f %9s   %s\n' "$label" "$(median "${walls[@]}")" "$(median "${peaks[@]}")" "$target"
}

nothing() { :; }

# Gives the next photo of the place's first page a new title, so that each round changes one photo.
edited=0
edit_one_title() {
    edited=$((edited + 1))
    python3 - "$dir/catalog/photos/BENCH/page-1.json" "$edited" <<'EOF'
import json, sys
path, round_ = sys.argv[1], int(sys.argv[2])
with open(path, encoding="utf-8") as f:
    answer = json.load(f)
answer["photos"]["photo"][round_ % len(answer["photos"]["photo"])]["title"] = f"Edited in round {round_}"
with open(path, "w", encoding="utf-8") as f:
    json.dump(answer, f, separators=(",", ":"))
EOF
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); rounds: $ROUNDS (medians; cold runs once)"
printf '%-40s %8s %9s   %s\n' "photomap export, one place" "wall s" "peak MB" "target (issue 10)"
for n in $COUNTS; do
    dir="$work/n$n"
    # Photos scattered over ~0.3° (a city and its surroundings), each with a square and a medium image.
    python3 "$here/make_bench_catalog.py" --count "$n" --out "$dir" --spread 0.15 --with-medium 2>/dev/null
    ln -s "$dir/www" "$dir/images"  # where the embedded catalog's images are read from
    env=(env PHOTOMAP_FIXTURES="$dir/catalog" PHOTOMAP_CACHE="$dir/cache")
    if [ "$n" -ge 100000 ]; then targets=("≤ 60 s, ≤ 200 MB" "≤ 5 s, ≤ 200 MB" "none set"); else
        targets=("none set" "≤ 0.5 s" "none set"); fi
    timed "${env[@]}" "$PHOTOMAP_BIN" export --out "$dir/site" --limit "$n"
    printf '%-40s %8.2f %9s   %s\n' "N=$n cold (fetch, write all)" "$wall" "$peak_mb" "${targets[0]}"
    tail -1 "$work/stdout" | sed 's/^.*index.html: /  /'
    measure "N=$n again (nothing changed)" "${targets[1]}" nothing "${env[@]}" "$PHOTOMAP_BIN" export --out "$dir/site" --limit "$n"
    tail -1 "$work/stdout" | sed 's/^.*index.html: /  /'
    measure "N=$n one photo's title changed" "${targets[2]}" edit_one_title "${env[@]}" "$PHOTOMAP_BIN" export --out "$dir/site" --limit "$n"
    tail -1 "$work/stdout" | sed 's/^.*index.html: /  /'
    measure "  floor: photos --json (the listing)" "-" nothing "${env[@]}" "$PHOTOMAP_BIN" photos --place BENCH --limit "$n" --json
    measure "  floor: find -printf (stat every file)" "-" nothing find "$dir/site" -printf '%i %s %T@\n'
    pages=$(find "$dir/site" -name '*.html' | wc -l)
    tiles=$( (find "$dir/site/clusters" -name "*.js" 2>/dev/null || true) | wc -l)
    site_mb=$(du -sm "$dir/site" | cut -f1)
    both_mb=$(du -smc "$dir/cache" "$dir/site" | tail -1 | cut -f1)
    cache_mb=$(du -sm "$dir/cache" | cut -f1)
    place_page=$(du -k "$dir/site/places/BENCH.html" | cut -f1)
    echo "  site: $pages pages, $tiles cluster tiles; the place's page $place_page KB"
    echo "  disk: cache $cache_mb MB, site $site_mb MB counted alone, both together $both_mb MB (images shared, not duplicated)"
    # How the place's page behaves in a browser (scripts/install-browser-test-deps sets this up).
    if [ -x "$repo/.venv-browser/bin/python" ]; then
        "$repo/.venv-browser/bin/python" "$here/open_page.py" "$dir/site/places/BENCH.html"
    fi
    # Not removed until the bench ends (with the work folder): ext4 without a journal skips every inode
    # removed in the last five minutes when it makes a file, and 60,000 of them just removed cost the
    # next cold export tens of seconds of system time that no user's first export pays.
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
