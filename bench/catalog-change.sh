#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: what one change costs a catalog of N photos (issue 48: "one more photo imported updates the
# aggregates in ≤ 10 ms"). For each N in COUNTS, a catalog loaded with N generated records
# (bench/make_records.py, `import --records`), then ROUNDS times each, the median printed:
# - one photo file imported (a folder of its own: a new photo, its place, the map's cells, the index);
# - one photo's location set by hand (`photomap locate ID --at`);
# - `photomap --version`: the process's own start, part of both.
# Beside them in the same run, the baseline: the same import and edit by BASELINE_BIN, a photomap built
# before changes were scoped to their photos (every photo's fence flag refreshed, every photo scanned for
# a file, every file and photo read, every photo indexed again), on the same catalog after the rounds. On SQLite, and under
# scripts/with-postgres (ENGINES="sqlite postgresql") on PostgreSQL. Wall times of the whole command, ms.
# Not a test.
#   bench/catalog-change.sh
#   COUNTS="10000 100000 1000000" ROUNDS=5 BASELINE_BIN=/path/to/old/photomap bench/catalog-change.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" sqlite3 postgresql-client libvips-tools
engines=${ENGINES:-sqlite}
if [[ " $engines " == *" postgresql "* && -z "${PHOTOMAP_TEST_POSTGRES:-}" ]]; then
    exec "$repo/scripts/with-postgres" env ENGINES="$engines" PHOTOMAP_BIN="$PHOTOMAP_BIN" "$0" "$@"
fi
cd "$repo"
rounds=${ROUNDS:-5}
database=$(printf %s "${PHOTOMAP_TEST_POSTGRES:-}" | sed "s#/postgres?#/change_bench?#")
# A photo for each round and binary: its own bytes, so each import adds a photo.
python3 "$here/make_import_photos.py" --count $((2 * rounds)) --width 320 --height 240 --out "$work/photos" >/dev/null
row() { printf '%-10s %10s  %-34s %9s %9s %8s\n' "$@"; }
row engine photos step "ms" "before" "ratio"
for count in ${COUNTS:-10000 100000}; do
    python3 "$here/make_records.py" "$count" >"$work/records.csv"
    for engine in $engines; do
        if [[ $engine == sqlite ]]; then
            rm -rf "$work/cache"
            state=(--cache "$work/cache")
        else
            psql -q "$PHOTOMAP_TEST_POSTGRES" -c "DROP DATABASE IF EXISTS change_bench" \
                -c "CREATE DATABASE change_bench TEMPLATE photomap_template"
            state=(--cache "$work/cache-pg" --database "$database")
            "$PHOTOMAP_BIN" "${state[@]}" db migrate >/dev/null
        fi
        "$PHOTOMAP_BIN" "${state[@]}" import --records "$work/records.csv" --visibility public >/dev/null 2>&1
        # One record's photo, edited each round.
        if [[ $engine == sqlite ]]; then
            id=$(sqlite3 "$work/cache/local-catalog.sqlite" "SELECT min(id) FROM photos")
        else
            id=$(psql -Atq "$database" -c "SELECT min(id) FROM local_photos")
        fi
        photo=0
        for label in after before; do
            binary=$PHOTOMAP_BIN
            if [[ $label == before ]]; then
                [[ -n ${BASELINE_BIN:-} ]] || continue
                binary=$BASELINE_BIN
            fi
            imports=() edits=() starts=()
            for round in $(seq "$rounds"); do
                folder="$work/one-$label-$round"
                mkdir -p "$folder"
                cp "$(printf '%s/IMG_%05d.jpg' "$work/photos" "$photo")" "$folder/"
                photo=$((photo + 1))
                milliseconds "$binary" "${state[@]}" import "$folder"
                imports+=("$ms")
                # A place of its own each round and binary: a location set again is left out, unwritten.
                milliseconds "$binary" "${state[@]}" locate "$id" --at "$((round % 50)).5,$((photo % 90)).5"
                edits+=("$ms")
                milliseconds "$binary" --version
                starts+=("$ms")
            done
            eval "${label}_import=$(median "${imports[@]}") ${label}_edit=$(median "${edits[@]}")"
            eval "${label}_start=$(median "${starts[@]}")"
        done
        name=$([[ $engine == sqlite ]] && echo SQLite || echo PostgreSQL)
        for step in import edit start; do
            after=after_$step before=before_$step
            what=$(case $step in import) echo "one photo file imported" ;; edit) echo "one location set (locate --at)" ;;
                start) echo "the process alone (--version)" ;; esac)
            if [[ -n ${BASELINE_BIN:-} ]]; then
                row "$name" "$count" "$what" "${!after}" "${!before}" \
                    "$(awk -v a="${!after}" -v b="${!before}" 'BEGIN { printf "%.1f×", b / (a > 0 ? a : 1) }')"
            else
                row "$name" "$count" "$what" "${!after}" "-" "-"
            fi
        done
    done
done
echo "(medians of $rounds rounds; load: $(uptime | sed 's/.*load average: //'))"
