#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap --source local trips` over COUNT photos (100,000): records with trips in them
# (bench/make_trip_records.py) loaded by `photomap import --records`, then the whole command timed
# (release build, ROUNDS runs, each figure printed, then their median). Beside it in the same run, on the
# same records: BASELINE_BIN, a photomap built before, when given. Checks that trips finds as many trips
# as the generator made. Prints figures with the machine's load; not a test. Goal (issue 49): under a
# second.
# SQLite: the catalog keeps the rows of its days (`trip_days`), from which trips are found; beside them
# in the same run, the same binary on a copy without them (found from every photo, from scratch, as
# before them), wall and processor time. Then what keeping the rows costs a write: EDITS (1,000)
# location edits and EDITS more photos written with sqlite3 on the catalog and on the copy, the
# difference a photo; one more record imported by photomap (the whole command) into a copy of each, the
# one without the rows making them first (the fill a catalog made before them gets once); after it all,
# trips from the rows kept must be those from scratch.
# DATABASE=1: the catalogs in PostgreSQL with PostGIS, in a throwaway cluster the script starts
# (scripts/postgres), each binary's a database of its own migrated and loaded by it (an older photomap
# refuses a newer schema); then the baseline's database migrated by photomap (the fill of what it adds
# timed) and trips timed on it too. The catalog keeps `trip_days` there too: its rows are checked against
# a count from scratch, and what its triggers cost a load is timed, ROUNDS loads of the records into new
# databases with them and as many with them disabled, in turn. A baseline from before the rows
# (BASELINE_BIN) finds trips from every photo: that is the figure from scratch. Without it, one SQLite
# catalog in the cache folder, read by both.
#   bench/trips.sh
#   COUNT=10000 ROUNDS=3 EDITS=100 bench/trips.sh
#   BASELINE_BIN=/path/to/old/photomap bench/trips.sh
#   DATABASE=1 BASELINE_BIN=/path/to/old/photomap bench/trips.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh"
# The gazetteer is found from the working folder (a baseline binary may live anywhere).
cd "$repo"
count=${COUNT:-100000}
python3 "$here/make_trip_records.py" "$count" >"$work/records.csv" 2>"$work/made"
if [[ -n ${DATABASE:-} ]]; then
    # The server runs as postgres when the script runs as root: it must reach its folder.
    chmod 755 "$work"
    admin=$("$repo/scripts/postgres" start "$work/pg")
    bench_cleanup() { "$repo/scripts/postgres" stop "$work/pg"; }
fi
# load LABEL BINARY: LABEL's catalog loaded by BINARY (a database of its own with DATABASE); its global
# options in `catalog`.
load() {
    local label=$1 binary=$2
    catalog=(--cache "$work/cache")
    if [[ -n ${DATABASE:-} ]]; then
        psql -qAt -v ON_ERROR_STOP=1 "$admin" -c "CREATE DATABASE trips_$label TEMPLATE photomap_template"
        catalog=(--cache "$work/cache-$label" --database "${admin/\/postgres\?/\/trips_$label?}")
        timed "$binary" "${catalog[@]}" db migrate
    fi
    timed "$binary" "${catalog[@]}" import --records "$work/records.csv"
    say "$label loaded $count records in $wall s; $(cat "$work/made") trips made"
}
# rounds LABEL BINARY [N]: times `trips` ROUNDS (or N) times on `catalog` and prints each and the median.
rounds() {
    local label=$1 binary=$2 walls=() cpus=() found cpu
    for _ in $(seq "${3:-${ROUNDS:-5}}"); do
        # The processor time too (user and system): on a busy machine the wall time is mostly waiting.
        timed /usr/bin/time -f "%U %S" -o "$work/cpu" "$binary" "${catalog[@]}" --source local trips
        cpu=$(awk '{ print $1 + $2 }' "$work/cpu")
        found=$(tail -1 "$work/stdout")
        printf '%s trips: %.2f s, processor %.2f s, peak %s MB (%s)\n' "$label" "$wall" "$cpu" "$peak_mb" "$found"
        walls+=("$wall")
        cpus+=("$cpu")
    done
    [[ ${found//,/} == "$(cat "$work/made") trip"* ]] || die "$label found $found, the generator made $(cat "$work/made")"
    cp "$work/stdout" "$work/trips-${label// /-}"
    printf '%s\n' "${walls[@]}" | sort -g | awk -v l="$label" -v e="${DATABASE:+PostgreSQL}" '{ v[NR] = $1 } END {
        printf "%s trips over %d photos (%s): median %.2f s of %d rounds", l, '"$count"', e ? e : "SQLite",
            v[int((NR + 1) / 2)], NR }'
    printf ', processor %.2f s\n' "$(median "${cpus[@]}")"
}
load photomap "$PHOTOMAP_BIN"
rounds photomap "$PHOTOMAP_BIN"
if [[ -n ${DATABASE:-} ]]; then
    url=${catalog[3]}
    # The rows kept through the load against those its photos make from scratch (as the migration fills
    # them), both ways.
    located="latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180"
    apart=$(psql -qAt -v ON_ERROR_STOP=1 "$url" <<SQL
CREATE TEMPORARY VIEW made (day, place, hidden, visibility, location_audience, photos, located, min_latitude,
    max_latitude, min_longitude, max_longitude, last_located) AS SELECT substr(date_taken, 1, 10) COLLATE "C", place, hidden, visibility,
    location_audience, count(*), count(*) FILTER (WHERE $located), min(latitude) FILTER (WHERE $located),
    max(latitude) FILTER (WHERE $located), min(longitude) FILTER (WHERE $located),
    max(longitude) FILTER (WHERE $located), max(written) FILTER (WHERE $located)
FROM local_photos WHERE date_taken IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
SELECT (SELECT count(*) FROM (SELECT * FROM trip_days EXCEPT SELECT * FROM made) a)
    + (SELECT count(*) FROM (SELECT * FROM made EXCEPT SELECT * FROM trip_days) b) || ' of '
    || (SELECT count(*) FROM trip_days);
SQL
)
    printf 'trip_days after the load: %s rows apart from a count from scratch\n' "$apart"
    # server_ticks: the processor time of the server's processes that ended (user and system, its children's).
    server_ticks() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$(head -1 "$work/pg/data/postmaster.pid")/stat"; }
    # load_once KEPT ROUND: the records loaded into a new database, its triggers on (with) or off (without).
    load_once() {
        local name=load_$1_$2
        psql -qAt -v ON_ERROR_STOP=1 "$admin" -c "CREATE DATABASE $name TEMPLATE photomap_template"
        local options=(--cache "$work/cache-$name" --database "${admin/\/postgres\?/\/$name?}")
        timed "$PHOTOMAP_BIN" "${options[@]}" db migrate
        [[ $1 == with ]] || psql -qAt -v ON_ERROR_STOP=1 "${options[3]}" -c "ALTER TABLE local_photos
            DISABLE TRIGGER trip_days_added, DISABLE TRIGGER trip_days_removed, DISABLE TRIGGER trip_days_changed"
        # Processor time too, the server's (its backends', reaped by the postmaster) and photomap's: the
        # triggers run in the server, and on a busy machine the wall time is mostly waiting.
        local before
        before=$(server_ticks)
        timed /usr/bin/time -f "%U %S" -o "$work/cpu" "$PHOTOMAP_BIN" "${options[@]}" import --records "$work/records.csv"
        sleep 1 # the backends photomap left ending, and reaped
        cpu=$(awk -v s="$(($(server_ticks) - before))" -v t="$(getconf CLK_TCK)" '{ print $1 + $2 + s / t }' "$work/cpu")
        printf 'load %s the triggers: %.2f s, processor %.2f s (server and photomap)\n' "$1" "$wall" "$cpu"
        psql -qAt -v ON_ERROR_STOP=1 "$admin" -c "DROP DATABASE $name"
        rm -rf "$work/cache-$name"
    }
    with=() without=() with_cpu=() without_cpu=()
    for round in $(seq "${ROUNDS:-5}"); do
        load_once with "$round"
        with+=("$wall")
        with_cpu+=("$cpu")
        load_once without "$round"
        without+=("$wall")
        without_cpu+=("$cpu")
    done
    compare() {
        awk -v l="$1" -v n="$count" -v a="$2" -v b="$3" 'BEGIN {
            printf "import --records of %d photos, %s: median %.2f s with the triggers, %.2f s without: %+.1f%%\n",
                n, l, a, b, (a - b) / b * 100 }'
    }
    compare wall "$(median "${with[@]}")" "$(median "${without[@]}")"
    compare processor "$(median "${with_cpu[@]}")" "$(median "${without_cpu[@]}")"
fi
# keeping LABEL SQL: milliseconds SQL takes on the catalog with the rows and on the copy without them,
# three rounds each in turn (ROUND in SQL replaced by the round's number), the medians compared.
keeping() {
    local label=$1 with=() without=()
    for round in 1 2 3; do
        local sql=${2//ROUND/$round}
        milliseconds sqlite3 "$work/cache/local-catalog.sqlite" "PRAGMA recursive_triggers = ON; BEGIN; $sql; COMMIT;"
        with+=("$ms")
        milliseconds sqlite3 "$work/scratch/local-catalog.sqlite" "BEGIN; $sql; COMMIT;"
        without+=("$ms")
    done
    awk -v l="$label" -v n="$edits" -v a="$(median "${with[@]}")" -v b="$(median "${without[@]}")" 'BEGIN {
        printf "%s %d photos: median %d ms with the rows, %d ms without: %.3f ms a photo to keep them\n", l, n, a,
            b, (a - b) / n }'
}
# drop_rows: the copy as a catalog made before the rows.
drop_rows() {
    sqlite3 "$work/scratch/local-catalog.sqlite" "DROP TRIGGER trip_day_added; DROP TRIGGER trip_day_removed;
        DROP TRIGGER trip_day_changed; DROP TABLE trip_days; DROP INDEX photos_day;"
}
if [[ -z ${DATABASE:-} ]]; then
    # Whole cache folders copied, photomap closed: a catalog without the search index beside it has it
    # made again at its first write.
    cp -r "$work/cache" "$work/scratch"
    drop_rows
    # Opened to read, as `trips` opens it, a catalog without the rows is read photo by photo.
    catalog=(--cache "$work/scratch")
    rounds "from scratch" "$PHOTOMAP_BIN"
    cmp -s "$work/trips-photomap" "$work/trips-from-scratch" && same=the || same="NOT the"
    printf 'from scratch: %s same table of trips as from the rows\n' "$same"
    edits=${EDITS:-1000}
    every=$((count / edits))
    keeping "location edits of" "UPDATE photos SET latitude = latitude + 0.0001 WHERE rowid % $every = 1"
    keeping "more" "INSERT INTO photos (id, place, taken, latitude, longitude, record, date_taken)
        SELECT id || '-more-ROUND', place, taken, latitude, longitude, record, date_taken FROM photos
        WHERE rowid % $every = 2 AND id NOT LIKE '%-more-%'"
    # One more record imported into a copy of each: into the one without the rows, its rows made first.
    head -2 "$work/records.csv" | sed '2s/^[0-9]*,/2999999999,/' >"$work/one.csv"
    cp -r "$work/cache" "$work/kept"
    cp -r "$work/scratch" "$work/bare"
    timed "$PHOTOMAP_BIN" --cache "$work/kept" import --records "$work/one.csv"
    one=$wall
    timed "$PHOTOMAP_BIN" --cache "$work/bare" import --records "$work/one.csv"
    printf 'one more record imported (the whole command): %.2f s; into the copy without the rows: %.2f s,' "$one" \
        "$wall"
    printf ' the rows made first (%.2f s more)\n' "$(awk -v a="$wall" -v b="$one" 'BEGIN { print a - b }')"
    catalog=(--cache "$work/kept")
    rounds "photomap after the writes" "$PHOTOMAP_BIN" 1
    sqlite3 "$work/bare/local-catalog.sqlite" "DROP TABLE trip_days"
    catalog=(--cache "$work/bare")
    rounds "from scratch after the writes" "$PHOTOMAP_BIN" 1
    cmp -s "$work/trips-photomap-after-the-writes" "$work/trips-from-scratch-after-the-writes" && same=the ||
        same="NOT the"
    printf 'after the writes: from the rows kept, %s same table of trips as from scratch\n' "$same"
    catalog=(--cache "$work/cache")
fi
if [[ -n ${BASELINE_BIN:-} ]]; then
    if [[ -n ${DATABASE:-} ]]; then load baseline "$BASELINE_BIN"; fi
    rounds baseline "$BASELINE_BIN"
    if [[ -n ${DATABASE:-} ]]; then
        timed "$PHOTOMAP_BIN" "${catalog[@]}" db migrate
        printf "the baseline's database migrated by photomap in %.2f s (%s)\n" "$wall" \
            "$(cat "$work/stdout" "$work/err" | tr '\n' ' ')"
        rounds "photomap on it" "$PHOTOMAP_BIN"
    fi
    for label in baseline ${DATABASE:+photomap-on-it}; do
        cmp -s "$work/trips-photomap" "$work/trips-$label" && same=the || same="NOT the"
        printf '%s: %s same table of trips as photomap\n' "$label" "$same"
    done
fi
printf 'load: %s\n' "$(uptime)"
