#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: the map of everything's tiles (issue 48) over N generated photos (default 1,000,000) imported
# into SQLite, and with DATABASE=1 into PostgreSQL with PostGIS (a throwaway cluster, scripts/postgres): the
# load as `import --records` writes it (10,000 a batch, each keeping the aggregates; CLOSED of every ten
# batches not public, default 2: one for friends, one private; no search index; on PostgreSQL then
# VACUUM ANALYZE, as autovacuum would, so the tiles meet the steady state), one more photo imported
# alone, then for each zoom 0–16 the p50 and p95 of 200 tiles that hold photos from the aggregates (the
# public view cold: first pass; warm: again; over a two-year range; and the owner's view, every photo)
# beside the naive way for the owner (the tile's photos read whole and clustered in Swift, at most
# NAIVE_SECONDS a zoom), and the map made again over the photos, in the same run. Prints figures; not a
# test. Goal: p50 ≤ 20 ms, p95 ≤ 50 ms.
#   bench/world-map.sh                          # N=1000000, SQLite, release build
#   N=100000 BUILD=debug bench/world-map.sh     # quicker, with the debug build already there
#   N=10000000 DATABASE=1 ENGINES=postgres bench/world-map.sh
#   COLD=1 DATABASE=1 bench/world-map.sh       # as root: each zoom's first pass from disk (page cache
#                                               # dropped, the server's own buffers 128 MB, not 2 GB)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$(dirname "$here")"
build=${BUILD:-release}
swift build --package-path bench -c "$build" --product photomap-bench-world-map >/dev/null
bench="bench/.build/$build/photomap-bench-world-map"
count=${N:-1000000}
arguments=(--count "$count" --tiles "${TILES:-200}" --naive-seconds "${NAIVE_SECONDS:-5}" --closed-batches "${CLOSED:-2}"
           ${COLD:+--drop-caches})
buffers=2GB
[[ -z ${COLD:-} ]] || buffers=128MB
engines=${ENGINES:-sqlite${DATABASE:+ postgres}}
for engine in $engines; do
  echo "== $engine, $count photos ($build build)"
  case "$engine" in
    sqlite)
      /usr/bin/time -f "peak memory %M KB, %e s in all" "$bench" "${arguments[@]}" ;;
    postgres)
      cluster=$(mktemp -d /tmp/photomap-bench-postgres.XXXXXX)
      trap 'scripts/postgres stop "$cluster"' EXIT
      admin=$(PHOTOMAP_POSTGRES_OPTIONS="-c shared_buffers=$buffers -c work_mem=64MB -c max_wal_size=16GB -c checkpoint_timeout=30min" \
              scripts/postgres start "$cluster")
      url=${admin/\/postgres\?/\/photomap_template?}
      /usr/bin/time -f "peak memory %M KB (photomap's side), %e s in all" "$bench" "${arguments[@]}" --database "$url"
      psql -qAt "$url" -c "SELECT 'map tables: ' || pg_size_pretty(pg_total_relation_size('map_points') + pg_total_relation_size('map_cells')) || ', totals ' || pg_size_pretty(pg_total_relation_size('map_totals')) || ', database ' || pg_size_pretty(pg_database_size(current_database()))" ;;
    *) echo "world-map.sh: unknown engine $engine (sqlite or postgres)" >&2; exit 2 ;;
  esac
done
