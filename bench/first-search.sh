#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark (issue 48, item 6 and the index's removals): on a catalog of N generated records
# (bench/make_records.py --search-words: "panorama" in every other title, "zemonska" in one in 10,000),
# `photomap search` around record 1234 (which says both) of the common word and of the rare one, the
# first after the index changed (on SQLite, whose counts this build still forgets, for both), beside
# BASELINE_BIN (a photomap that counts a word's records at its first search after a change: main before
# the counts were kept), in the same run. Then, on a catalog of REMOVE_N records, one photo file removed
# and `import --prune` run (the photo dropped and the index updated), by each binary. Medians of ROUNDS
# rounds, wall time of the whole command (ms), the process's own start (--version) beside them
# (REMOVE_N=0: no removal).
# The baseline's catalog is loaded by it; on PostgreSQL this build's is a copy migrated by this build (the
# migration counting the word beginnings of the records there, timed). ENGINES: postgresql, sqlite or
# both; PostgreSQL in a throwaway cluster (scripts/with-postgres). Not a test.
#   BASELINE_BIN=/path/to/main/photomap bench/first-search.sh
#   N=1000000 REMOVE_N=100000 ROUNDS=5 ENGINES="postgresql sqlite" BASELINE_BIN=… bench/first-search.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" sqlite3 postgresql-client libvips-tools
[[ -x ${BASELINE_BIN:-} ]] || die "BASELINE_BIN must name the photomap to compare with (main's release build)"
engines=${ENGINES:-postgresql}
if [[ " $engines " == *" postgresql "* && -z "${PHOTOMAP_TEST_POSTGRES:-}" ]]; then
    export PHOTOMAP_POSTGRES_OPTIONS="-c shared_buffers=2GB -c maintenance_work_mem=512MB -c work_mem=64MB -c max_wal_size=8GB"
    exec "$repo/scripts/with-postgres" env ENGINES="$engines" PHOTOMAP_BIN="$PHOTOMAP_BIN" "$0" "$@"
fi
cd "$repo"
count=${N:-1000000} removeCount=${REMOVE_N:-100000} rounds=${ROUNDS:-5}
row() { printf '%-10s %9s  %-44s %9s %9s %8s\n' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f×", b / (a > 0 ? a : 1) }'; }
# forget ENGINE NAME: what any change of the records does to the baseline's counted words.
forget() {
    if [[ $1 == sqlite ]]; then
        sqlite3 "$work/cache-$2/index.sqlite" "DELETE FROM meta WHERE key >= 'words ' AND key < 'words!'"
    else
        psql -qAt "$(catalog_url "$2")" -c "DELETE FROM index_word_rows" >/dev/null
    fi
}
python3 "$here/make_records.py" "$count" --search-words >"$work/records.csv"
((removeCount == 0)) || python3 "$here/make_records.py" "$removeCount" --search-words >"$work/remove.csv"
# Around record 1234, which says both words (the search fails when it finds nothing).
near=(--near "$(awk -F, '$1 == 1234 { print $4 "," $5 }' "$work/records.csv")" --radius 5 --limit 10)
python3 "$here/make_import_photos.py" --count $((2 * rounds)) --width 320 --height 240 --out "$work/photos" >/dev/null
row engine records step "ms" "baseline" "ratio"
for engine in $engines; do
    name=$([[ $engine == sqlite ]] && echo SQLite || echo PostgreSQL)
    # The baseline's catalog, then this build's: a copy, migrated (PostgreSQL), or loaded again (SQLite).
    fresh_catalog "$engine" fs_base "$BASELINE_BIN" "$work/records.csv"
    say "$name: $count records loaded by the baseline in $((ms / 1000)) s"
    # shellcheck disable=SC2046
    "$BASELINE_BIN" $(catalog_state "$engine" fs_base) --offline search panorama "${near[@]}" >/dev/null
    if [[ $engine == postgresql ]]; then
        psql -q "$PHOTOMAP_TEST_POSTGRES" -c "CREATE DATABASE fs_new TEMPLATE fs_base"
        # A catalog on PostgreSQL may leave its cache folder unmade (nothing fetched).
        mkdir -p "$work/cache-fs_base" && cp -r "$work/cache-fs_base" "$work/cache-fs_new"
        # shellcheck disable=SC2046
        milliseconds "$PHOTOMAP_BIN" $(catalog_state "$engine" fs_new) db migrate
        say "$name: the copy migrated by this build (its word beginnings counted) in $((ms / 1000)) s"
    else
        fresh_catalog "$engine" fs_new "$PHOTOMAP_BIN" "$work/records.csv"
        say "$name: $count records loaded by this build in $((ms / 1000)) s"
    fi
    # shellcheck disable=SC2046
    "$PHOTOMAP_BIN" $(catalog_state "$engine" fs_new) --offline search panorama "${near[@]}" >/dev/null
    for word in panorama zemonska; do
        first=() base=() again=() starts=()
        for _ in $(seq "$rounds"); do
            forget "$engine" fs_base
            # This build keeps PostgreSQL's counts as records change; on SQLite it still forgets them.
            [[ $engine == postgresql ]] || forget "$engine" fs_new
            # shellcheck disable=SC2046
            milliseconds "$BASELINE_BIN" $(catalog_state "$engine" fs_base) --offline search "$word" "${near[@]}"
            base+=("$ms")
            # shellcheck disable=SC2046
            milliseconds "$BASELINE_BIN" $(catalog_state "$engine" fs_base) --offline search "$word" "${near[@]}"
            again+=("$ms")
            # shellcheck disable=SC2046
            milliseconds "$PHOTOMAP_BIN" $(catalog_state "$engine" fs_new) --offline search "$word" "${near[@]}"
            first+=("$ms")
            milliseconds "$PHOTOMAP_BIN" --version
            starts+=("$ms")
        done
        after=$(median "${first[@]}") before=$(median "${base[@]}")
        row "$name" "$count" "first search of $word" "$after" "$before" "$(ratio "$after" "$before")"
        row "$name" "$count" "  baseline's second (its count kept)" "-" "$(median "${again[@]}")" "-"
    done
    row "$name" "-" "the process alone (--version)" "$(median "${starts[@]}")" "-" "-"
    # One photo removed: its file imported, then gone, and `import --prune` drops it from catalog and index.
    ((removeCount > 0)) || continue
    photo=0
    for label in after before; do
        binary=$([[ $label == after ]] && echo "$PHOTOMAP_BIN" || echo "$BASELINE_BIN")
        fresh_catalog "$engine" "fs_remove_$label" "$binary" "$work/remove.csv"
        who=$([[ $label == after ]] && echo this build || echo the baseline)
        say "$name: $removeCount records loaded by $who in $((ms / 1000)) s"
        removals=()
        for round in $(seq "$rounds"); do
            folder="$work/one-$label-$round"
            mkdir -p "$folder"
            cp "$(printf '%s/IMG_%05d.jpg' "$work/photos" "$photo")" "$folder/"
            photo=$((photo + 1))
            # shellcheck disable=SC2046
            "$binary" $(catalog_state "$engine" "fs_remove_$label") import "$folder" --visibility public >/dev/null 2>&1
            rm "$folder"/*.jpg
            # shellcheck disable=SC2046
            milliseconds "$binary" $(catalog_state "$engine" "fs_remove_$label") import "$folder" --prune
            removals+=("$ms")
        done
        eval "removed_$label=$(median "${removals[@]}")"
    done
    row "$name" "$removeCount" "one photo removed (import --prune)" "$removed_after" "$removed_before" \
        "$(ratio "$removed_after" "$removed_before")"
done
echo "(medians of $rounds rounds; load: $(uptime | sed 's/.*load average: //'))"
