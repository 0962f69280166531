#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: how long a location set by the owner on one `photomap serve` instance takes to show on another
# instance on the same PostgreSQL database (issue 47: "every instance of a fleet, within a second").
# A throwaway cluster (scripts/postgres), one photo imported, an owner; instances A and B; then
# bench/edit_propagation.py, in Debian's headless Chromium signed in on A, saves a new location with the
# photo page's editor ROUNDS times and polls B's page of the photo every 20 ms from each click. Prints
# each round (and an uncounted warm-up round) and the median and max in ms; not a test.
#
#   PHOTOMAP_BIN=.build/debug/photomap bench/edit-propagation.sh   # ROUNDS=10; without PHOTOMAP_BIN it builds release
set -euo pipefail

ROUNDS=${ROUNDS:-10}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" python3 libjpeg-turbo-progs chromium
BIN=$PHOTOMAP_BIN
PYTHON="$repo/.venv-browser/bin/python"
[[ -x $PYTHON ]] || die "no $PYTHON: run scripts/install-browser-test-deps"
WORK=$(mktemp -d /tmp/photomap-edit-bench.XXXXXX)
WORKS+=("$WORK")
chmod 755 "$WORK"
bench_cleanup() { "$repo/scripts/postgres" stop "$WORK/pg"; }

admin=$("$repo/scripts/postgres" start "$WORK/pg")
DATABASE=${admin/\/postgres\?/\/photomap_template?}
"$BIN" --database "$DATABASE" db migrate > /dev/null
mkdir "$WORK/photos"
# One photo with its own GPS, made as the browser tests make theirs.
"$PYTHON" -c "import sys; sys.path.insert(0, '$repo/Tests/Browser')
import pathlib
from test_import import exif_block, jpeg
jpeg(pathlib.Path('$WORK/photos/castle.jpg'), 16, 16, exif_block(46.05, 14.5, 'Castle', '2024:07:12 10:00:00'))"
PHOTOMAP_CACHE="$WORK/cache-import" "$BIN" --database "$DATABASE" import --visibility public "$WORK/photos" > /dev/null 2>&1 \
    || die "import failed"
echo "bench-$RANDOM$RANDOM$RANDOM" > "$WORK/password"
PHOTOMAP_CACHE="$WORK/cache-import" "$BIN" --database "$DATABASE" users add owner --role owner --password-stdin < "$WORK/password" > /dev/null
local_json() { PHOTOMAP_CACHE="$WORK/cache-import" "$BIN" --database "$DATABASE" --source local "$@" --json; }
PLACE=$(local_json places | python3 -c 'import json, sys; print(next(p["id"] for p in json.load(sys.stdin) if p["id"] != "unlocated"))')
PHOTO=$(local_json photos --place "$PLACE" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')

# serve NAME: an instance with a cache folder of its own on the database; sets URL_NAME.
serve() {
    local port
    port=$(free_port)
    PHOTOMAP_CACHE="$WORK/cache-$1" "$BIN" --database "$DATABASE" --source local \
        serve --listen "127.0.0.1:$port" < /dev/null > /dev/null 2> "$WORK/serve-$1.log" &
    PIDS+=($!)
    for _ in $(seq 600); do grep -qs "serving http" "$WORK/serve-$1.log" && break; sleep 0.1; done
    grep -q "serving http" "$WORK/serve-$1.log" || { cat "$WORK/serve-$1.log" >&2; die "instance $1 did not start"; }
    printf -v "URL_$1" 'http://127.0.0.1:%s' "$port"
}
serve A
serve B
say "instances A at $URL_A and B at $URL_B on one PostgreSQL database; photo $PHOTO; $ROUNDS rounds"
echo "edit propagation: $(basename "$BIN") at $BIN, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$PYTHON" "$here/edit_propagation.py" --a "$URL_A" --b "$URL_B" --photo "$PHOTO" --password-file "$WORK/password" --rounds "$ROUNDS"
