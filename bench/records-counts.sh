#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark (issue 48: the search index's kept word counts on PostgreSQL): `photomap import --records` of N
# generated records (bench/make_records.py --search-words) into a fresh PostgreSQL catalog by this build and
# by BASELINE_BIN (a photomap counting each batch's word beginnings as it did before, e.g. main's release
# build), in the same run, in turns; after each load, the first search of a word in half the records
# ("panorama", around record 1234; it also indexes the embedded catalog, once). Then this build's first search of it over counts an older photomap
# emptied (the word counted by the search, as before schema 13; the counts made again apart). On SQLite
# (ENGINES has sqlite), this build's first search of the word after a change (FTS5 counts it) beside its
# second. Medians of ROUNDS rounds (wall time of the whole command); not a test.
#   BASELINE_BIN=/path/to/main/photomap bench/records-counts.sh
#   N=100000 ROUNDS=3 ENGINES="postgresql sqlite" BASELINE_BIN=… bench/records-counts.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" sqlite3 postgresql-client
[[ -x ${BASELINE_BIN:-} ]] || die "BASELINE_BIN must name the photomap to compare with (main's release build)"
engines=${ENGINES:-postgresql}
if [[ " $engines " == *" postgresql "* && -z "${PHOTOMAP_TEST_POSTGRES:-}" ]]; then
    # A server sized for a load, as bench/records.sh's.
    export PHOTOMAP_POSTGRES_OPTIONS=${PHOTOMAP_POSTGRES_OPTIONS:-"-c shared_buffers=1GB -c max_wal_size=8GB -c checkpoint_timeout=30min"}
    exec "$repo/scripts/with-postgres" env ENGINES="$engines" PHOTOMAP_BIN="$PHOTOMAP_BIN" "$0" "$@"
fi
cd "$repo"
count=${N:-100000} rounds=${ROUNDS:-3}
row() { printf '%-10s %9s  %-46s %10s %10s %8s\n' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", b / (a > 0 ? a : 1) }'; }
python3 "$here/make_records.py" "$count" --search-words >"$work/records.csv"
near=(--near "$(awk -F, '$1 == 1234 { print $4 "," $5 }' "$work/records.csv")" --radius 5 --limit 10)
row engine records step "this build" "baseline" "ratio"
if [[ " $engines " == *" postgresql "* ]]; then
    loads=() baseLoads=() searches=() baseSearches=() stale=()
    for round in $(seq "$rounds"); do
        # In turns, the first of a round alternating, so neither always runs on a warmer machine.
        order=(new base)
        ((round % 2 == 1)) || order=(base new)
        for who in "${order[@]}"; do
            binary=$([[ $who == new ]] && echo "$PHOTOMAP_BIN" || echo "$BASELINE_BIN")
            fresh_catalog postgresql "rc_$who" "$binary" "$work/records.csv"
            if [[ $who == new ]]; then loads+=("$ms"); else baseLoads+=("$ms"); fi
            # shellcheck disable=SC2046
            milliseconds "$binary" $(catalog_state postgresql "rc_$who") --offline search panorama "${near[@]}"
            if [[ $who == new ]]; then searches+=("$ms"); else baseSearches+=("$ms"); fi
        done
        # What an older photomap leaves after a load: the counts emptied.
        psql -qAt "$(catalog_url rc_new)" -c "DELETE FROM index_word_rows" >/dev/null
        # shellcheck disable=SC2046
        milliseconds "$PHOTOMAP_BIN" $(catalog_state postgresql rc_new) --offline search panorama "${near[@]}"
        stale+=("$ms")
        # The recount that search started ends with its process (the server checks for its client each second).
        sleep 3
        left=$(psql -qAt "$PHOTOMAP_TEST_POSTGRES" -c "SELECT count(*) FROM pg_stat_activity WHERE datname = 'rc_new'")
        say "round $round: sessions on the catalog 3 s after that search: $left"
        say "round $round: loads ${loads[-1]} / ${baseLoads[-1]} ms"
    done
    after=$(median "${loads[@]}") before=$(median "${baseLoads[@]}")
    row PostgreSQL "$count" "import --records (ms)" "$after" "$before" "$(ratio "$after" "$before")"
    after=$(median "${searches[@]}") before=$(median "${baseSearches[@]}")
    row PostgreSQL "$count" "then the first search (+ the catalog's) (ms)" "$after" "$before" "$(ratio "$after" "$before")"
    row PostgreSQL "$count" "  over counts an older photomap emptied" "$(median "${stale[@]}")" "-" "-"
fi
if [[ " $engines " == *" sqlite "* ]]; then
    fresh_catalog sqlite rc_sqlite "$PHOTOMAP_BIN" "$work/records.csv"
    firsts=() seconds=() starts=()
    for _ in $(seq "$rounds"); do
        # Any change of the records forgets SQLite's counted words.
        sqlite3 "$work/cache-rc_sqlite/index.sqlite" "DELETE FROM meta WHERE key >= 'words ' AND key < 'words!'"
        # shellcheck disable=SC2046
        milliseconds "$PHOTOMAP_BIN" $(catalog_state sqlite rc_sqlite) --offline search panorama "${near[@]}"
        firsts+=("$ms")
        # shellcheck disable=SC2046
        milliseconds "$PHOTOMAP_BIN" $(catalog_state sqlite rc_sqlite) --offline search panorama "${near[@]}"
        seconds+=("$ms")
        milliseconds "$PHOTOMAP_BIN" --version
        starts+=("$ms")
    done
    row SQLite "$count" "first search of panorama / the second (ms)" "$(median "${firsts[@]}")" \
        "$(median "${seconds[@]}")" "-"
    row SQLite "-" "the process alone (--version)" "$(median "${starts[@]}")" "-" "-"
fi
echo "(medians of $rounds rounds; load: $(uptime | sed 's/.*load average: //'))"
