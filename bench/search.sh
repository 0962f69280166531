#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: local search over N generated photos (default 1,000,000) in SQLite (FTS5, R*Tree and the cells
# table) beside a baseline without either, and with DATABASE=1 the same photos and queries in PostgreSQL
# with PostGIS (a throwaway cluster, scripts/postgres, with a benchmark's memory settings), in one run:
# median, p95 and max over 200 queries, the medians of 3 rounds, in wall time and in the thread's CPU time
# (less inflated by other work on a shared machine), and round 1 alone (which counts each word's rows the
# first time a search needs them); the time each took to load. Prints figures; not a test.
#   bench/search.sh                       # N=1000000, SQLite
#   N=10000000 DATABASE=1 bench/search.sh
#   DATABASE=1 ENGINES=postgres bench/search.sh     # PostGIS only
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$(dirname "$here")"
scripts/install-deps
swift build --package-path bench -c release --product photomap-bench-index >/dev/null
count=${N:-1000000}
engines=${ENGINES:-sqlite${DATABASE:+ postgres}}
for engine in $engines; do
  case "$engine" in
    sqlite)
      /usr/bin/time -f "peak memory %M KB, %e s in all" bench/.build/release/photomap-bench-index --count "$count" --queries 200 ;;
    postgres)
      cluster=$(mktemp -d /tmp/photomap-bench-postgres.XXXXXX)
      trap 'scripts/postgres stop "$cluster"' EXIT
      admin=$(PHOTOMAP_POSTGRES_OPTIONS="-c shared_buffers=4GB -c maintenance_work_mem=1GB -c work_mem=64MB -c max_wal_size=16GB -c checkpoint_timeout=30min -c effective_cache_size=16GB" \
              scripts/postgres start "$cluster")
      url=${admin/\/postgres\?/\/photomap_template?}
      /usr/bin/time -f "peak memory %M KB (photomap's side), %e s in all" \
        bench/.build/release/photomap-bench-index --count "$count" --queries 200 --database "$url"
      psql -qAt "$url" -c "SELECT 'database size: ' || pg_size_pretty(pg_database_size(current_database()))" ;;
    *) echo "search.sh: unknown engine $engine (sqlite or postgres)" >&2; exit 2 ;;
  esac
done
