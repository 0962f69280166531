#!/usr/bin/env bash
# Benchmark: `photomap --source local trips` over COUNT photos (100,000): a catalog written by
# photomap-bench-trips as an import leaves it, then the whole command timed (release build, ROUNDS runs,
# each figure printed). Prints figures; not a test. Goal (issue 49): under a second.
#   bench/trips.sh
#   COUNT=10000 ROUNDS=3 bench/trips.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh"
swift build --package-path "$here" -c release --product photomap-bench-trips >/dev/null
"$here/.build/release/photomap-bench-trips" --count "${COUNT:-100000}" --cache "$work/cache"
for _ in $(seq "${ROUNDS:-5}"); do
    timed "$PHOTOMAP_BIN" --cache "$work/cache" --source local trips
    printf 'photomap trips: %.2f s, peak %s MB (%s)\n' "$wall" "$peak_mb" "$(tail -1 "$work/stdout")"
done
