#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap --source local trips` over COUNT photos (100,000): records with trips in them
# (bench/make_trip_records.py) loaded by `photomap import --records`, then the whole command timed
# (release build, ROUNDS runs, each figure printed, then their median). Beside it in the same run, on the
# same catalog: BASELINE_BIN, a photomap built before, when given. Checks that trips finds as many trips
# as the generator made. Prints figures with the machine's load; not a test. Goal (issue 49): under a
# second.
#   bench/trips.sh
#   COUNT=10000 ROUNDS=3 bench/trips.sh
#   BASELINE_BIN=/path/to/old/photomap bench/trips.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh"
# The gazetteer is found from the working folder (a baseline binary may live anywhere).
cd "$repo"
count=${COUNT:-100000}
python3 "$here/make_trip_records.py" "$count" >"$work/records.csv" 2>"$work/made"
timed "$PHOTOMAP_BIN" --cache "$work/cache" import --records "$work/records.csv"
say "loaded $count records in $wall s; $(cat "$work/made") trips made"
# rounds LABEL BINARY: times `trips` ROUNDS times and prints each and the median.
rounds() {
    local label=$1 binary=$2 walls=() found
    for _ in $(seq "${ROUNDS:-5}"); do
        timed "$binary" --cache "$work/cache" --source local trips
        found=$(tail -1 "$work/stdout")
        printf '%s trips: %.2f s, peak %s MB (%s)\n' "$label" "$wall" "$peak_mb" "$found"
        walls+=("$wall")
    done
    [[ ${found//,/} == "$(cat "$work/made") trip"* ]] || die "$label found $found, the generator made $(cat "$work/made")"
    printf '%s\n' "${walls[@]}" | sort -g | awk -v l="$label" '{ v[NR] = $1 } END {
        printf "%s trips over %d photos: median %.2f s of %d rounds\n", l, '"$count"', v[int((NR + 1) / 2)], NR }'
}
rounds photomap "$PHOTOMAP_BIN"
if [[ -n ${BASELINE_BIN:-} ]]; then rounds baseline "$BASELINE_BIN"; fi
printf 'load: %s\n' "$(uptime)"
