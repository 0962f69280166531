#!/usr/bin/env bash
# Benchmark: local search over 1,000,000 generated photos (SQLite FTS5, R*Tree and the cells table) beside a baseline
# without either index, in one run. Prints figures; not a test.
#   bench/search.sh                 # N=1000000
#   N=100000 bench/search.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$(dirname "$here")"
scripts/install-deps
swift build -c release --product photomap-bench-index >/dev/null
/usr/bin/time -f "peak memory %M KB, %e s in all" .build/release/photomap-bench-index --count "${N:-1000000}" --queries 200
