#!/usr/bin/env bash
# Benchmark: local search over 1,000,000 generated photos (SQLite FTS5, R*Tree and the cells table) beside a baseline
# without either index, in one run: median, p95 and max over 200 queries, the medians of 3 rounds, in wall time
# and in the thread's CPU time (less inflated by other work on a shared machine), and round 1 alone (which
# counts each word's rows the first time a search needs them). Prints figures; not a test.
#   bench/search.sh                 # N=1000000
#   N=100000 bench/search.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$(dirname "$here")"
scripts/install-deps
swift build -c release --product photomap-bench-index >/dev/null
/usr/bin/time -f "peak memory %M KB, %e s in all" .build/release/photomap-bench-index --count "${N:-1000000}" --queries 200
